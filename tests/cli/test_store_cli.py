"""End to end through the CLI (in-process, `CliRunner`, `--data-dir`): demo runs are stored, then
`runs`, `trace`, `feedback`, `cases`, `db`.

The embedded Qdrant shard allows one process at a time, so commands run one after another.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from groundgate.cli import app
from groundgate.store import open_store
from groundgate.store.engine import head_revision
from groundgate.store.leases import LeasePolicy
from groundgate.store.recorder import RunRecorder
from groundgate.store.tables import utcnow


def _cli(data_dir: Path, *args: str, check: bool = True) -> Result:
    """The command in-process (Typer's `CliRunner`) on `data_dir`, whatever GROUNDGATE_* says."""
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("GROUNDGATE_")}
    env["COLUMNS"] = "200"
    result = CliRunner().invoke(app, [*args, "--data-dir", str(data_dir)], env=env)
    if check:
        assert result.exit_code == 0, (args, result.stdout, result.stderr, result.exception)
    return result


def _json(data_dir: Path, *args: str) -> Any:
    return json.loads(_cli(data_dir, *args, "--json").stdout)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-data")


@pytest.fixture(scope="module")
def demo(data_dir: Path) -> list[dict[str, Any]]:
    payloads: list[dict[str, Any]] = _json(data_dir, "demo")
    return payloads


@pytest.mark.slow
def test_demo_runs_are_stored_and_traceable(data_dir: Path, demo: list[dict[str, Any]]) -> None:
    runs = _json(data_dir, "runs")
    assert {r["runId"] for r in runs} == {p["runId"] for p in demo}
    assert all(r["status"] == "SUCCEEDED" for r in runs)
    assert all(r["mode"] == "demo" for r in runs)
    first = demo[0]
    trace = _json(data_dir, "trace", first["runId"])
    assert trace["runId"] == first["runId"]
    assert trace["sessionId"] == first["sessionId"]
    assert trace["answer"] == first["answer"]
    assert trace["outputKind"] == first["outputKind"]
    assert trace["hasVerifierEvaluation"] is (first["verdict"] is not None)
    assert trace["hasRuleEvaluation"] is True
    assert trace["ruleEvaluation"]["source"] == "rule"
    assert trace["hasFeedback"] is False
    assert trace["feedback"] is None
    assert [i["tool"] for i in trace["toolInvocations"]] == [c["tool"] for c in first["toolCalls"]]
    assert trace["steps"][0]["role"] == "planner"
    assert trace["steps"][-1]["role"] == "composer"
    assert trace["startedAt"]
    assert trace["finishedAt"]
    human = _cli(data_dir, "trace", first["runId"]).stdout
    assert first["runId"] in human
    assert "tool invocations" in human


@pytest.mark.slow
def test_feedback_bad_cases_and_cases(data_dir: Path, demo: list[dict[str, Any]]) -> None:
    run_id = next(p["runId"] for p in demo if p["verdict"] == "PASS")
    response = _json(data_dir, "feedback", run_id, "not_useful")
    assert response["success"] is True
    assert response["runId"] == run_id
    assert response["fallbackToLatestRun"] is False
    assert response["caseId"] is None
    bad = _json(data_dir, "runs", "--feedback", "not_useful")
    assert [r["runId"] for r in bad] == [run_id]
    assert _json(data_dir, "trace", run_id)["feedback"] == "not_useful"

    useful = _json(data_dir, "feedback", run_id, "useful")
    assert useful["caseId"]
    cases = _json(data_dir, "cases")
    assert [(c["caseId"], c["diagnosisId"]) for c in cases] == [(useful["caseId"], run_id)]
    own_session = next(p["sessionId"] for p in demo if p["runId"] == run_id)
    again = _json(data_dir, "feedback", run_id, "useful", "--session", own_session)
    assert again["caseId"] == useful["caseId"]
    assert len(_json(data_dir, "cases")) == 1
    assert _json(data_dir, "runs", "--feedback", "not_useful") == []
    assert "1 cases" in _cli(data_dir, "cases").stdout


def test_runs_of_one_session(data_dir: Path, demo: list[dict[str, Any]]) -> None:
    session_id = demo[1]["sessionId"]
    runs = _json(data_dir, "runs", "--session", session_id)
    assert [r["runId"] for r in runs] == [demo[1]["runId"]]
    assert "runs" in _cli(data_dir, "runs").stdout


@pytest.mark.slow
def test_ask_stores_its_run_in_the_session(data_dir: Path, demo: list[dict[str, Any]]) -> None:
    session_id = demo[2]["sessionId"]
    answer = _json(data_dir, "ask", demo[2]["question"], "--session", session_id)
    assert answer["sessionId"] == session_id
    runs = _json(data_dir, "runs", "--session", session_id)
    assert [r["runId"] for r in runs] == [answer["runId"], demo[2]["runId"]]
    assert runs[0]["mode"] == "chat"
    trace = _json(data_dir, "trace", answer["runId"])
    assert trace["status"] == "SUCCEEDED"
    assert trace["session"]["tenant"] == "acme"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("trace", "no-such-run"), "unknown run id"),
        (("feedback", "no-such-run", "useful"), "unknown run id"),
        (("feedback", "no-such-run", "great"), "feedback must be one of useful, not_useful"),
        (("runs", "--feedback", "meh"), "--feedback must be one of"),
    ],
)
def test_usage_errors_exit_2(data_dir: Path, args: tuple[str, ...], message: str) -> None:
    completed = _cli(data_dir, *args, check=False)
    assert completed.exit_code == 2, (completed.stdout, completed.stderr)
    assert message in " ".join(completed.stderr.split())


@pytest.mark.parametrize(
    ("session", "message"),
    [("another demo session", "does not belong to session"), ("sess-other", "unknown session id")],
)
def test_feedback_naming_a_session_that_is_not_the_runs_is_refused(
    data_dir: Path, demo: list[dict[str, Any]], session: str, message: str
) -> None:
    session_id = demo[1]["sessionId"] if session == "another demo session" else session
    completed = _cli(data_dir, "feedback", demo[0]["runId"], "useful", "--session", session_id, check=False)
    assert completed.exit_code == 2
    assert message in " ".join(completed.stderr.split())


def test_db_upgrade_prints_the_revision(tmp_path: Path) -> None:
    payload = _json(tmp_path, "db", "upgrade")
    assert payload["revision"] == head_revision()
    assert payload["from"] is None
    again = _json(tmp_path, "db", "upgrade")
    assert again["from"] == again["revision"] == head_revision()
    assert head_revision() in _cli(tmp_path, "db", "upgrade").stdout


def test_an_interrupted_run_is_failed_when_the_cli_starts(tmp_path: Path) -> None:
    # A process that started the run an hour ago and vanished: its lease has long expired.
    an_hour_ago = utcnow() - timedelta(hours=1)
    store = open_store(tmp_path, lease=LeasePolicy(clock=lambda: an_hour_ago))
    try:
        recorder = RunRecorder(store, run_id="run-interrupted", session_id="sess-x", question="q")
        recorder.start()
    finally:
        store.close()
    trace = _json(tmp_path, "trace", "run-interrupted")
    assert trace["status"] == "FAILED"
    assert trace["stopReason"].startswith("interrupted")

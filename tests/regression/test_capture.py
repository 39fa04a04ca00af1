"""From production to fixture on a real SQLite store: questions are asked through
`groundgate.apps.ask_recorded` over the loaded demo workspace, rated, captured as fixtures, and
replayed offline with the same outcome; a reviewer's expectation makes a bad case fail until the
behaviour changes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]
from typer.testing import CliRunner, Result

from groundgate.apps import (
    RoleModels,
    ask_recorded,
    build_orchestrator,
    give_feedback,
    load_demo,
    open_workspace,
)
from groundgate.cli import app
from groundgate.contracts import ExecutionContext
from groundgate.errors import UsageError
from groundgate.regression.capture import capture_feedback, capture_run, parse_since
from groundgate.regression.fixtures import load_fixtures, write_fixture
from groundgate.regression.runner import run_fixtures
from groundgate.store import open_store

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

QUESTIONS = {
    "normal": "ERR_TIMEOUT 是哪个组件返回的？含义是什么？",
    "disclaimer": "退款一般多久到账？退款手续费由谁承担？",
    "two_rounds": "3月14日 14:05 开始的支付超时根因是什么？",
    "degraded": "etcd 备份的保留周期是多少天？",
}


@dataclass(frozen=True)
class Recorded:
    data_dir: Path
    run_ids: dict[str, str]
    outcomes: dict[str, tuple[str, str | None]]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    data_dir = tmp_path_factory.mktemp("eval-capture")
    ctx = ExecutionContext(tenant="acme", user="ops", roles=("sre",))
    run_ids: dict[str, str] = {}
    outcomes: dict[str, tuple[str, str | None]] = {}
    store = open_store(data_dir)
    try:
        with open_workspace(data_dir) as workspace:
            load_demo(workspace)
            orchestrator = build_orchestrator(workspace.registry, models=RoleModels())
            for name, question in QUESTIONS.items():
                result = ask_recorded(store, orchestrator, question, ctx)
                run_ids[name] = result.run_id
                outcomes[name] = (result.output_kind.value, result.verdict.value if result.verdict else None)
            # The chat pipeline answering for the agent (mode `agent-fallback`) is a chat run: it is
            # captured as a question (the agent's own runs: tests/regression/test_agent_capture.py).
            fallback = ask_recorded(store, orchestrator, QUESTIONS["normal"], ctx, mode="agent-fallback")
            run_ids["fallback"] = fallback.run_id
        give_feedback(store, tenant=None, feedback="not_useful", run_id=run_ids["fallback"])
        give_feedback(store, tenant=None, feedback="not_useful", run_id=run_ids["disclaimer"])
        give_feedback(store, tenant=None, feedback="not_useful", run_id=run_ids["degraded"])
        give_feedback(store, tenant=None, feedback="useful", run_id=run_ids["normal"])
    finally:
        store.close()
    return Recorded(data_dir, run_ids, outcomes)


def invoke(args: Sequence[str], *, code: int = 0) -> Result:
    result = CliRunner().invoke(app, ["eval", *args], env={"COLUMNS": "160"})
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_a_captured_run_replays_offline_with_the_outcome_it_had(
    recorded: Recorded, tmp_path: Path, name: str
) -> None:
    store = open_store(recorded.data_dir)
    try:
        with open_workspace(recorded.data_dir) as workspace:
            fixture = capture_run(store, recorded.run_ids[name], tenant=None, tools=workspace.registry)
    finally:
        store.close()
    assert fixture.source is not None
    assert fixture.source.fidelity == "re-executed"
    assert fixture.source.drift == []
    path = write_fixture(tmp_path / f"{name}.yaml", fixture)
    [loaded] = load_fixtures([path])
    [result] = run_fixtures([loaded]).results
    assert result.status == "passed", result.failures
    assert result.observed is not None
    assert (result.observed.output_kind, result.observed.verdict) == recorded.outcomes[name]
    assert result.source_run_id == recorded.run_ids[name]


def test_the_two_round_run_is_captured_with_every_call_of_both_rounds(recorded: Recorded) -> None:
    store = open_store(recorded.data_dir)
    try:
        with open_workspace(recorded.data_dir) as workspace:
            fixture = capture_run(
                store, recorded.run_ids["two_rounds"], tenant=None, tools=workspace.registry
            )
    finally:
        store.close()
    rounds = sorted({call.round for call in fixture.tools.calls})
    assert rounds == [1, 2]
    assert {"query_logs", "query_metrics"} <= {call.tool for call in fixture.tools.calls}
    assert fixture.expect.rounds == 2
    assert fixture.expect.key_facts, "the verified key facts and their categories are expected"


def test_capture_through_the_cli_writes_a_fixture_that_eval_run_passes(
    recorded: Recorded, tmp_path: Path
) -> None:
    target = tmp_path / "normal.yaml"
    data = ["--data-dir", str(recorded.data_dir)]
    invoke(["capture", recorded.run_ids["normal"], "--output", str(target), *data])
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# groundgate eval fixture")
    assert "reviewer_expected" not in text  # a useful run is a positive fixture
    payload = json.loads(invoke(["run", str(target), "--json"]).stdout)
    assert payload["summary"]["passed"] == 1
    printed = invoke(["capture", recorded.run_ids["normal"], *data]).stdout
    assert yaml.safe_load(printed)["source"]["run_id"] == recorded.run_ids["normal"]


def test_bad_cases_are_captured_with_a_field_for_the_reviewer_and_fail_once_it_is_filled(
    recorded: Recorded, tmp_path: Path
) -> None:
    folder = tmp_path / "bad"
    data = ["--data-dir", str(recorded.data_dir)]
    out = invoke(["capture", "--feedback", "not_useful", "--since", "7d", "--dir", str(folder), *data])
    assert "captured 3 fixture(s)" in out.stdout
    assert "skipped" not in out.output
    files = sorted(folder.glob("*.yaml"))
    assert len(files) == 3
    text = files[0].read_text(encoding="utf-8")
    assert "# Fill in `reviewer_expected`" in text
    assert "reviewer_expected:" in text

    # Captured as they were: they reproduce the bad answers, and say they await review.
    payload = json.loads(invoke(["run", str(folder), "--json"]).stdout)
    assert payload["summary"]["passed"] == 3
    assert all(case["needs_review"] for case in payload["cases"])

    # The reviewer says the refund question must name who pays the fee: it fails until it does.
    disclaimer = next(f for f in files if recorded.run_ids["disclaimer"][:12] in f.name)
    fixture = yaml.safe_load(disclaimer.read_text(encoding="utf-8"))
    fixture["reviewer_expected"] = {
        "output_kind": ["NORMAL"],
        "must_contain": ["商户承担"],
        "note": "fee payer",
    }
    disclaimer.write_text(yaml.safe_dump(fixture, allow_unicode=True), encoding="utf-8")
    failed = json.loads(invoke(["run", str(disclaimer), "--json"], code=1).stdout)["cases"][0]
    assert failed["status"] == "failed"
    assert not failed["needs_review"]
    assert "output kind is LOW_CONFID_WITH_DISCLAIMER, expected NORMAL" in failed["failures"]
    assert "the answer lacks '商户承担'" in failed["failures"]
    assert invoke(
        ["capture", "--feedback", "not_useful", "--dir", str(folder), *data], code=2
    ).output.startswith("error:")  # nothing is overwritten without --force


def test_useful_runs_become_positive_fixtures(recorded: Recorded) -> None:
    store = open_store(recorded.data_dir)
    try:
        fixtures = capture_feedback(store, feedback="useful", since=timedelta(days=7), tenant=None).fixtures
        later = capture_feedback(
            store,
            feedback="useful",
            since=timedelta(hours=1),
            tenant=None,
            now=datetime.now(UTC) + timedelta(days=2),
        ).fixtures
    finally:
        store.close()
    assert [f.source.run_id for f in fixtures if f.source] == [recorded.run_ids["normal"]]
    assert fixtures[0].reviewer_expected is None
    assert fixtures[0].tags == ["captured", "useful"]
    assert later == []  # older than --since


def test_without_the_workspace_outputs_are_rebuilt_from_the_stored_summaries(recorded: Recorded) -> None:
    store = open_store(recorded.data_dir)
    try:
        fixture = capture_run(store, recorded.run_ids["normal"], tenant=None)
    finally:
        store.close()
    assert fixture.source is not None
    assert fixture.source.fidelity == "summary"
    documents = [d for call in fixture.tools.calls for d in call.output.documents]
    assert documents
    assert all(d.text for d in documents)
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "capture",
            recorded.run_ids["normal"],
            "--no-reexecute",
            "--data-dir",
            str(recorded.data_dir),
        ],
    )
    assert result.exit_code == 0
    assert "rebuilt from the stored summaries" in result.output


def test_capture_refuses_bad_requests(recorded: Recorded) -> None:
    data = ["--data-dir", str(recorded.data_dir)]
    assert "give a RUN_ID, or --feedback" in invoke(["capture", *data], code=2).output
    assert "--feedback must be one of" in invoke(["capture", "--feedback", "meh", *data], code=2).output
    assert "unknown run id" in invoke(["capture", "no-such-run", *data], code=2).output
    fallback = yaml.safe_load(invoke(["capture", recorded.run_ids["fallback"], *data]).stdout)
    assert fallback["input"]["kind"] == "question"  # `agent-fallback`: the chat pipeline answered
    assert "--since" in invoke(["capture", "--feedback", "useful", "--since", "soon", *data], code=2).output
    with pytest.raises(UsageError):
        parse_since("0d")
    assert parse_since("12h") == timedelta(hours=12)

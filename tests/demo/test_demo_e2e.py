"""Offline end to end on the bundled demo workspace: real Qdrant Edge shard, real SQLite stores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import DEMO_ROOT, Workspace, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, OutputKind, RunResult, ToolStatus
from groundgate.runtime.orchestrator import Orchestrator

ACME = ExecutionContext(tenant="acme", user="demo", roles=("sre",))
GLOBEX = ExecutionContext(tenant="globex", user="g", roles=("sre",))
SHOWCASE = [
    json.loads(line) for line in (DEMO_ROOT / "showcase.jsonl").read_text("utf-8").splitlines() if line
]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("demo-data")


@pytest.fixture(scope="module")
def workspace(data_dir: Path) -> Iterator[Workspace]:
    with open_workspace(data_dir) as ws:
        report = load_demo(ws)
        assert report.knowledge.chunks > 100
        assert not report.knowledge.bad_files
        yield ws


@pytest.fixture(scope="module")
def orchestrator(workspace: Workspace) -> Orchestrator:
    return build_orchestrator(workspace.registry)


@pytest.mark.slow
@pytest.mark.parametrize("item", SHOWCASE, ids=lambda i: i["id"])
def test_showcase_outcomes(orchestrator: Orchestrator, item: dict[str, str]) -> None:
    result = orchestrator.run(item["question"], ACME)
    assert result.output_kind.value == item["expect"], (result.stop_reason, result.answer)


def _run(orchestrator: Orchestrator, showcase_id: str, ctx: ExecutionContext = ACME) -> RunResult:
    item = next(i for i in SHOWCASE if i["id"] == showcase_id)
    return orchestrator.run(item["question"], ctx)


def test_second_round_finds_the_missing_live_evidence(orchestrator: Orchestrator) -> None:
    result = _run(orchestrator, "english-incident-metrics")
    assert result.rounds == 2
    assert result.retry_context is not None
    assert result.retry_context.missing_evidence_facts
    round_two = {r.tool for r in result.tool_results if r.round == 2}
    assert {"query_logs", "query_metrics"} & round_two
    cited = {c.invocation_id for c in result.citations}
    assert cited & {r.invocation_id for r in result.tool_results if r.round == 2}


def test_every_citation_names_a_tool_result_of_this_run(orchestrator: Orchestrator) -> None:
    for item in SHOWCASE:
        result = orchestrator.run(item["question"], ACME)
        ids = {r.invocation_id for r in result.tool_results if r.status is ToolStatus.OK}
        for citation in result.citations:
            assert citation.invocation_id in ids


def test_degraded_never_carries_the_executor_answer(orchestrator: Orchestrator) -> None:
    for item in SHOWCASE:
        result = orchestrator.run(item["question"], ACME)
        if result.output_kind is OutputKind.DEGRADED and result.executor_output:
            for claim in result.executor_output.claims:
                assert claim.text not in result.answer


def test_a_normal_answer_meets_every_need_and_states_only_verified_claims(orchestrator: Orchestrator) -> None:
    for item in SHOWCASE:
        result = orchestrator.run(item["question"], ACME)
        assert result.needs is not None
        assert result.needs.needs
        assert result.resolved_question == item["question"]
        if result.output_kind is OutputKind.NORMAL:
            assert result.need_coverage
            assert all(c.met for c in result.need_coverage)
        else:
            assert set(result.gaps) >= {c.label for c in result.need_coverage if not c.met}
        if result.executor_output and result.verifier_evaluation:
            unverified = {
                f.fact
                for f in result.verifier_evaluation.facts_checked
                if f.category.value in ("no_evidence", "contradicted")
            }
            assert not any(text in result.answer for text in unverified)


def test_tenant_isolation_on_real_stores(orchestrator: Orchestrator) -> None:
    acme = _run(orchestrator, "tenant-isolation", ACME)
    assert acme.output_kind is OutputKind.DEGRADED
    assert "459" not in acme.answer  # the globex order's amount never reaches an acme user
    globex = _run(orchestrator, "tenant-isolation", GLOBEX)
    assert globex.output_kind is OutputKind.NORMAL
    assert "FAILED" in globex.answer


def test_demo_loading_is_idempotent(workspace: Workspace) -> None:
    again = load_demo(workspace)
    assert not again.changed
    assert again.knowledge.unchanged == again.knowledge.files


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGATE_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "groundgate.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        check=False,
    )


@pytest.mark.slow
def test_demo_and_ask_from_the_command_line(tmp_path: Path) -> None:
    """`groundgate demo` loads the workspace and runs the showcase; `ask` then answers from it.

    (A separate data directory: the embedded Qdrant Edge shard is opened by one process at a time.)
    """
    data_dir = tmp_path / "data"
    demo = _cli(data_dir, "demo", "--json")
    assert demo.returncode == 0, demo.stderr
    runs = json.loads(demo.stdout)
    assert [r["outputKind"] for r in runs] == [r["expected"] for r in runs]
    assert {r["outputKind"] for r in runs} == {"NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"}
    assert any(r["rounds"] == 2 for r in runs)
    done = _cli(data_dir, "ask", "--json", "--session", "s-1", "ERR_TIMEOUT 是哪个组件返回的？含义是什么？")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    for key in (
        "runId",
        "sessionId",
        "outputKind",
        "verdict",
        "groundednessScore",
        "answer",
        "citations",
        "gaps",
    ):
        assert key in payload
    assert payload["sessionId"] == "s-1"
    assert payload["outputKind"] == "NORMAL"
    assert payload["citations"]
    assert "payment-gateway-error-codes" in payload["citations"][0]["citationId"]


@pytest.mark.slow
def test_ask_rejects_an_empty_question(data_dir: Path) -> None:
    done = _cli(data_dir, "ask", "   ")
    assert done.returncode == 2
    assert "empty" in done.stderr


@pytest.mark.slow
def test_ingest_reports_bad_files_and_keeps_going(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("---\ntitle: Good\n---\n# Good\n\nERR_GOOD means all is well.\n", "utf-8")
    (docs / "bad.md").write_bytes(b"\xff\xfe not utf-8 \x80")
    done = _cli(tmp_path / "data", "ingest", str(docs), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ingested"] == 1
    assert [b["path"].endswith("bad.md") for b in report["badFiles"]] == [True]
    again = json.loads(_cli(tmp_path / "data", "ingest", str(docs), "--json").stdout)
    assert again["unchanged"] == 1
    missing = _cli(tmp_path / "data", "ingest", str(tmp_path / "nope"))
    assert missing.returncode == 2

"""Runs are written as they happen: RUNNING at start, steps and invocations appended, finalized at
the end; a run that raises is FAILED, a killed process is recovered as FAILED once its lease has
expired — on every backend (leases in detail: tests/security/test_security_run_leases.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.apps.chat import build_orchestrator
from groundgate.apps.run_trace import get_trace
from groundgate.apps.workspace import DEMO_ROOT, load_demo, open_workspace
from groundgate.contracts import ExecutionContext
from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import ToolResult
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.store import Store, open_store
from groundgate.store.recorder import RunRecorder, recover_interrupted_runs, run_recorded
from groundgate.store.repositories import get_run
from groundgate.store.tables import utcnow


@pytest.fixture(scope="module", params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request.param, tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="module")
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    yield opened
    opened.close()


@pytest.mark.slow
def test_steps_are_visible_while_the_run_is_running(store: Store) -> None:
    result = make_run_result(verifier=verified(("PAY-5003 表示连接池耗尽", True)))
    seen: list[tuple[str, int, int]] = []

    def execute(recorder: RunRecorder) -> RunResult:
        recorder.on_step(result.steps[0])
        recorder.on_tool_result(result.tool_results[0])
        with store.session() as session:
            trace = get_trace(recorder.run_id, session=session)
        seen.append((trace.status, len(trace.steps), len(trace.tool_invocations)))
        return result

    run_recorded(store, execute, question=result.question, run_id=result.run_id, session_id=result.session_id)
    assert seen == [("RUNNING", 1, 1)]
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.status == "SUCCEEDED"
    assert [s.role for s in trace.steps] == ["planner", "verifier"]  # the rest written at the end
    assert [s.seq for s in trace.steps] == [0, 1]
    assert len(trace.tool_invocations) == 1
    assert trace.answer == result.answer
    assert trace.verdict == "PASS"
    assert trace.input_tokens == 100
    assert trace.output_tokens == 20
    assert trace.started_at is not None
    assert trace.finished_at is not None
    assert trace.started_at <= trace.finished_at
    assert trace.has_verifier_evaluation
    assert trace.verifier_evaluation is not None
    assert trace.has_rule_evaluation
    assert trace.rule_evaluation is not None
    assert trace.self_evaluation_version == 2  # two slots written (verifier, rules), one version each


def test_a_run_that_raises_is_failed_with_what_was_written(store: Store) -> None:
    result = make_run_result()
    run_id = f"run-{uuid.uuid4().hex[:12]}"

    def execute(recorder: RunRecorder) -> RunResult:
        recorder.on_step(AgentStep(role="planner", round=1, thought="plan", reason_code="plan_ok"))
        recorder.on_tool_result(result.tool_results[0])
        raise RuntimeError("the model endpoint vanished")

    with pytest.raises(RuntimeError, match="vanished"):
        run_recorded(store, execute, question="q", run_id=run_id)
    with store.session() as session:
        trace = get_trace(run_id, session=session)
    assert trace.status == "FAILED"
    assert trace.stop_reason is not None
    assert "RuntimeError: the model endpoint vanished" in trace.stop_reason
    assert [s.role for s in trace.steps] == ["planner"]
    assert len(trace.tool_invocations) == 1
    assert trace.finished_at is not None
    # a FAILED run is evaluated too: execution_failed, score 0 (docs/design.md §5)
    assert trace.rule_evaluation is not None
    assert trace.rule_evaluation.evidence_score == 0
    assert [f.rule for f in trace.rule_evaluation.factors] == ["execution_failed"]


KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from groundgate.contracts.enums import ToolStatus
    from groundgate.contracts.run import AgentStep
    from groundgate.contracts.tools import ToolResult
    from groundgate.store import open_store
    from groundgate.store.recorder import run_recorded

    url, run_id, invocation_id = sys.argv[1:4]
    store = open_store(url)

    def execute(recorder):
        recorder.on_step(AgentStep(role="planner", round=1, thought="1 call", reason_code="plan_ok"))
        recorder.on_tool_result(
            ToolResult(
                invocation_id=invocation_id, tool="lookup_knowledge", status=ToolStatus.OK,
                run_id=run_id, arguments={"query": "PAY-5003"}, observation="2 chunks",
            )
        )
        recorder.on_step(AgentStep(role="executor", round=1, thought="2 claims", reason_code="extractive"))
        os.kill(os.getpid(), signal.SIGKILL)  # killed between steps: no finally, no atexit

    run_recorded(store, execute, question="支付网关 PAY-5003 是什么原因？", run_id=run_id)
    """
)


@pytest.mark.slow
def test_a_killed_process_leaves_a_recoverable_run(store: Store, store_url: str, tmp_path: Path) -> None:
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    script = tmp_path / "killed_run.py"
    script.write_text(KILLED_RUN, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDGATE_")}
    completed = subprocess.run(
        [sys.executable, str(script), store_url, run_id, f"inv-{uuid.uuid4().hex[:12]}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == -9, completed.stderr
    with store.session() as session:
        assert get_run(run_id, session=session).status == "RUNNING"
    # a run whose lease still holds is left alone (its process may still be running) ...
    assert run_id not in recover_interrupted_runs(store)
    # ... once the lease has expired it is FAILED, with its steps and invocations kept
    later = utcnow() + timedelta(seconds=store.lease.lease_seconds + 1)
    assert run_id in recover_interrupted_runs(store, now=later)
    with store.session() as session:
        trace = get_trace(run_id, session=session)
    assert trace.status == "FAILED"
    assert trace.stop_reason is not None
    assert trace.stop_reason.startswith("interrupted")
    assert [s.role for s in trace.steps] == ["planner", "executor"]
    assert [i.tool for i in trace.tool_invocations] == ["lookup_knowledge"]
    assert trace.finished_at is not None
    assert trace.rule_evaluation is not None
    assert [f.rule for f in trace.rule_evaluation.factors] == ["execution_failed"]
    # recovering again changes nothing
    assert run_id not in recover_interrupted_runs(store, older_than_seconds=0, now=later)


def test_a_failed_append_is_written_at_the_end(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both append paths fail: the autocommitted single-row insert (`Store.append`) and the
    transaction that writes what a failed append left (`Store.session`)."""
    result = make_run_result()
    broken = {"on": True}
    real_session, real_append = store.session, store.append

    def flaky(real: Callable[[], Any]) -> Callable[[], Any]:
        def seam() -> Any:
            if broken["on"]:
                raise RuntimeError("database briefly unavailable")
            return real()

        return seam

    def execute(recorder: RunRecorder) -> RunResult:
        monkeypatch.setattr(store, "session", flaky(real_session))
        monkeypatch.setattr(store, "append", flaky(real_append))
        recorder.on_step(result.steps[0])  # logged, not raised
        recorder.on_tool_result(result.tool_results[0])
        broken["on"] = False
        monkeypatch.setattr(store, "session", real_session)
        monkeypatch.setattr(store, "append", real_append)
        return result

    run_recorded(store, execute, question=result.question, run_id=result.run_id)
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.status == "SUCCEEDED"
    assert [s.seq for s in trace.steps] == [0, 1]
    assert len(trace.tool_invocations) == 1


# ------------------------------------------------------------------ the real orchestrator as source


class ListSink:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def on_step(self, step: AgentStep) -> None:
        self.events.append(("step", step.role))

    def on_tool_result(self, result: ToolResult) -> None:
        self.events.append(("tool", result.invocation_id))


@pytest.fixture(scope="module")
def demo_orchestrator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Orchestrator]:
    with open_workspace(tmp_path_factory.mktemp("demo")) as workspace:
        load_demo(workspace)
        yield build_orchestrator(workspace.registry)


SHOWCASE = [
    json.loads(line) for line in (DEMO_ROOT / "showcase.jsonl").read_text("utf-8").splitlines() if line
]
ACME = ExecutionContext(tenant="acme", user="demo", roles=("sre",))


@pytest.mark.slow
@pytest.mark.parametrize("item", SHOWCASE, ids=lambda i: i["id"])
def test_the_orchestrator_streams_every_step_and_tool_result(
    demo_orchestrator: Orchestrator, item: dict[str, str]
) -> None:
    sink = ListSink()
    result = demo_orchestrator.run(item["question"], ACME, sink=sink)
    streamed_steps = [role for kind, role in sink.events if kind == "step"]
    assert streamed_steps == [s.role for s in result.steps][: len(streamed_steps)]
    assert len(result.steps) - len(streamed_steps) <= 1  # only the composer's closing step is not sent
    assert [i for kind, i in sink.events if kind == "tool"] == [r.invocation_id for r in result.tool_results]


def test_a_recorded_demo_run_matches_its_result(demo_orchestrator: Orchestrator, tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        item = next(i for i in SHOWCASE if i["id"] == "english-incident-metrics")

        def execute(recorder: RunRecorder) -> RunResult:
            return demo_orchestrator.run(
                item["question"], ACME, run_id=recorder.run_id, session_id=recorder.session_id, sink=recorder
            )

        result = run_recorded(store, execute, question=item["question"], tenant="acme")
        with store.session() as session:
            trace = get_trace(result.run_id, session=session, tenant="acme")
        assert trace.status == "SUCCEEDED"
        assert [(s.role, s.round) for s in trace.steps] == [(s.role, s.round) for s in result.steps]
        assert [i.invocation_id for i in trace.tool_invocations] == [
            r.invocation_id for r in result.tool_results
        ]
        assert trace.rounds == result.rounds == 2
        assert trace.session is not None
        assert trace.session.tenant == "acme"
    finally:
        store.close()


KILLED_DEMO_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from groundgate.apps.chat import build_orchestrator
    from groundgate.apps.workspace import load_demo, open_workspace
    from groundgate.contracts import ExecutionContext
    from groundgate.store import open_store
    from groundgate.store.recorder import run_recorded

    data_dir, question = Path(sys.argv[1]), sys.argv[2]
    ctx = ExecutionContext(tenant="acme", user="demo", roles=("sre",))
    with open_workspace(data_dir) as workspace:
        load_demo(workspace)
        registry = workspace.registry
        real_execute = registry.execute
        calls = []

        def execute(call, ctx, *, run_id, round):
            calls.append(call.tool)
            if len(calls) == 2:  # the second tool call: the process dies mid-run
                print("killing", run_id, flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
            return real_execute(call, ctx, run_id=run_id, round=round)

        registry.execute = execute
        orchestrator = build_orchestrator(registry)
        store = open_store(data_dir)
        run_recorded(
            store,
            lambda rec: orchestrator.run(
                question, ctx, run_id=rec.run_id, session_id=rec.session_id, sink=rec
            ),
            question=question,
            tenant="acme",
        )
    """
)


@pytest.mark.slow
def test_a_real_run_killed_mid_run_is_recovered_with_its_steps(tmp_path: Path) -> None:
    item = next(i for i in SHOWCASE if i["id"] == "english-incident-metrics")  # two rounds, several tools
    script = tmp_path / "killed_demo_run.py"
    script.write_text(KILLED_DEMO_RUN, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDGATE_")}
    completed = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "data"), item["question"]],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == -9, completed.stderr
    run_id = completed.stdout.split()[-1]
    store = open_store(tmp_path / "data")
    try:
        # Its lease is still running: a live process might own it. Once expired, it is recovered.
        assert recover_interrupted_runs(store, older_than_seconds=0) == []
        expired = utcnow() + timedelta(seconds=store.lease.lease_seconds + 1)
        assert recover_interrupted_runs(store, now=expired) == [run_id]
        with store.session() as session:
            trace = get_trace(run_id, session=session, tenant="acme")
        assert trace.status == "FAILED"
        assert trace.query == item["question"]
        assert trace.steps
        assert trace.steps[0].role == "planner"
        assert len(trace.tool_invocations) == 1  # the first call was written before the kill
        assert trace.answer == ""
    finally:
        store.close()

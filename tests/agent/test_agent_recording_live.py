"""Agent runs are recorded as they happen, through the chat pipeline's `RunSink` seam (issue 13, "Every
agent run is persisted and traceable like chat runs"; seed L22 "受约束、可授权、可审计的业务 Agent").

`RUNNING` under this process's lease before the agent starts, the plan and each tool invocation as
they come, finished at the end with the same record as a decision written in one go; an agent that
raises leaves a `FAILED` run with its steps so far. Seed L50 "只记录结构化 action、observation 和
reason code": what is sent while running is the validated plan and the registry's summaries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from groundgate.agent import TaskStore
from groundgate.agent.contracts import DecisionResult, DecisionStatus
from groundgate.agent.recording import (
    AGENT_MODE,
    SHADOW_MODE,
    record_agent_run,
    record_decision,
    run_in_shadow,
    turn_record,
)
from groundgate.agent.runtime import AgentRuntime
from groundgate.agent.sessions import StoreSessionStore, ask_in_session
from groundgate.apps.agent_rollout import answer_actively
from groundgate.apps.run_trace import RunTrace, get_trace
from groundgate.contracts import AgentStep, ToolResult
from groundgate.demo.hr import demo_context
from groundgate.demo.hr.workspace import HrWorkspace, open_hr_workspace
from groundgate.runtime.orchestrator import RunSink
from groundgate.store import Store, open_store
from groundgate.store.leases import process_owner
from groundgate.store.tables import DiagnosisRun

POLICY = "一线城市出差住宿标准是多少？"  # one knowledge search, ANSWERED
TASKS = "我有哪些待办？"  # one task query, ANSWERED
UNPLANNABLE = "ERR_TIMEOUT 是哪个组件返回的？"  # no HR need: handed back (INCOMPLETE_PLAN)


@pytest.fixture
def hr(tmp_path: Path) -> Iterator[tuple[Store, HrWorkspace]]:
    store = open_store(tmp_path)
    try:
        with open_hr_workspace(tmp_path, TaskStore(store)) as workspace:
            yield store, workspace
    finally:
        store.close()


def _trace(store: Store, run_id: str) -> RunTrace:
    return get_trace(store, run_id, tenant=None)


def _row(store: Store, run_id: str) -> DiagnosisRun:
    with store.session() as session:
        row = session.get(DiagnosisRun, _pk(store, run_id))
        assert row is not None
        session.expunge(row)
        return row


def _pk(store: Store, run_id: str) -> int:
    from sqlalchemy import select

    with store.session() as session:
        pk = session.scalar(select(DiagnosisRun.id).where(DiagnosisRun.run_id == run_id))
    assert pk is not None
    return pk


@dataclass
class Spy:
    """A sink in front of the recorder: after each event, what the store shows of the run."""

    inner: RunSink
    store: Store
    run_id: str
    seen: list[tuple[str, RunTrace, DiagnosisRun]] = field(default_factory=list)

    def on_step(self, step: AgentStep) -> None:
        self.inner.on_step(step)
        self._look(f"step:{step.role}")

    def on_tool_result(self, result: ToolResult) -> None:
        self.inner.on_tool_result(result)
        self._look(f"tool:{result.tool}")

    def _look(self, what: str) -> None:
        self.seen.append((what, _trace(self.store, self.run_id), _row(self.store, self.run_id)))


def _recorded(
    store: Store, runtime: AgentRuntime, question: str, *, spies: list[Spy], mode: str = AGENT_MODE
) -> DecisionResult:
    ctx = demo_context()

    def execute(sink: RunSink, run_id: str) -> DecisionResult:
        spy = Spy(sink, store, run_id)
        spies.append(spy)
        return runtime.run(question, ctx, sink=spy, run_id=run_id)

    return record_agent_run(
        store,
        execute,
        question=question,
        session_id="live-1",
        tenant=ctx.tenant,
        turn=turn_record(ctx, runtime.now()),
        mode=mode,
    ).result


@pytest.mark.parametrize("question", [POLICY, TASKS])
def test_the_trace_shows_a_running_agent_runs_plan_and_tool_calls_as_they_happen(
    hr: tuple[Store, HrWorkspace], question: str
) -> None:
    store, workspace = hr
    spies: list[Spy] = []
    result = _recorded(store, workspace.runtime, question, spies=spies)
    assert result.status is DecisionStatus.ANSWERED
    (spy,) = spies
    assert spy.run_id == result.run_id
    assert [what for what, _t, _r in spy.seen][:2] == ["step:planner", f"tool:{result.tool_results[0].tool}"]
    for what, trace, row in spy.seen:
        # While it runs: RUNNING, leased to this process, what happened so far already readable.
        assert (trace.status, trace.mode, trace.query) == ("RUNNING", AGENT_MODE, question), what
        assert row.lease_owner == process_owner()
        assert row.lease_expires_at is not None
    _, after_plan, _ = spy.seen[0]
    assert [s.role for s in after_plan.steps] == ["planner"]
    assert after_plan.steps[0].model_output == result.plan.model_dump(mode="json")  # type: ignore[union-attr]
    assert after_plan.tool_invocations == []
    _, after_call, _ = spy.seen[1]
    assert [i.invocation_id for i in after_call.tool_invocations] == [result.tool_results[0].invocation_id]
    # Finished: the closing steps written, the lease cleared, the rule evaluation merged.
    final = _trace(store, result.run_id)
    assert (final.status, final.decision_status) == ("SUCCEEDED", "ANSWERED")
    assert [s.role for s in final.steps] == ["planner", "gatekeeper", "composer"]
    assert len(final.tool_invocations) == len(result.tool_results)
    assert final.has_rule_evaluation
    assert _row(store, result.run_id).lease_expires_at is None


_VOLATILE_STEP = {"created_at", "latency_ms"}
_VOLATILE_CALL = {"created_at", "latency_ms"}


def _content(trace: RunTrace) -> dict[str, Any]:
    return {
        "run": trace.model_dump(
            include={"query", "answer", "mode", "status", "output_kind", "verdict", "decision_status"}
            | {"stop_reason", "rounds", "input_tokens", "output_tokens", "rule_evaluation"}
        ),
        "steps": [s.model_dump(exclude=_VOLATILE_STEP) for s in trace.steps],
        "calls": [c.model_dump(exclude=_VOLATILE_CALL) for c in trace.tool_invocations],
    }


def test_the_live_record_is_the_record_a_decision_written_in_one_go_has(tmp_path: Path) -> None:
    # The eval fixtures read the final record (`groundgate eval capture`): recording as it happens
    # must not change it.
    def record(data_dir: Path, live: bool) -> RunTrace:
        store = open_store(data_dir)
        try:
            with open_hr_workspace(data_dir, TaskStore(store)) as workspace:
                ctx = demo_context()
                turn = turn_record(ctx, workspace.runtime.now())
                if live:
                    result = record_agent_run(
                        store,
                        lambda sink, run_id: workspace.runtime.run(POLICY, ctx, sink=sink, run_id=run_id),
                        question=POLICY,
                        session_id="same",
                        tenant=ctx.tenant,
                        turn=turn,
                    ).result
                else:
                    result = workspace.runtime.run(POLICY, ctx)
                    record_decision(store, result, session_id="same", tenant=ctx.tenant, turn=turn)
            return _trace(store, result.run_id)
        finally:
            store.close()

    live, once = record(tmp_path / "live", True), record(tmp_path / "once", False)

    def content(trace: RunTrace) -> str:
        # Ids are minted per run (the run's, its invocations'); everything else is the same.
        text = json.dumps(_content(trace), ensure_ascii=False, sort_keys=True, default=str)
        for call in trace.tool_invocations:
            text = text.replace(call.invocation_id, "<invocation>")
        return text.replace(trace.run_id, "<run>")

    assert content(live) == content(once)
    assert live.status == "SUCCEEDED"


def test_an_agent_that_raises_mid_run_leaves_a_failed_run_with_its_steps_so_far(
    hr: tuple[Store, HrWorkspace], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Through `ask_in_session(record_in=…)`: the path of `groundgate agent ask` and `POST /api/agent/ask`.
    store, workspace = hr

    def broken_decide(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the composer broke")

    monkeypatch.setattr(workspace.runtime, "_decide", broken_decide)
    with pytest.raises(RuntimeError, match="the composer broke"):
        ask_in_session(
            workspace.runtime,
            StoreSessionStore(store),
            POLICY,
            demo_context(),
            session_id="c1",
            record_in=store,
        )
    from groundgate.apps.runs import list_runs

    (run,) = list_runs(store, tenant=None, session_id="c1")
    trace = _trace(store, run.run_id)
    assert (trace.status, trace.mode) == ("FAILED", AGENT_MODE)
    assert trace.stop_reason == "error: RuntimeError: the composer broke"
    assert [s.role for s in trace.steps] == ["planner"]  # the plan, as far as it got
    assert [i.tool for i in trace.tool_invocations] == ["KNOWLEDGE_SEARCH"]
    assert _row(store, run.run_id).lease_expires_at is None
    assert trace.rule_evaluation is not None  # a FAILED run is evaluated too (`execution_failed`)
    # The conversation's state was not advanced by a turn that did not finish.
    assert StoreSessionStore(store).load("c1", demo_context()).questions == []


def test_a_shadow_run_is_recorded_as_it_happens_and_a_failure_mid_run_is_kept(
    hr: tuple[Store, HrWorkspace], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, workspace = hr
    result = run_in_shadow(workspace.runtime, store, POLICY, demo_context(), session_id="shadow-a")
    assert result is not None
    assert (_trace(store, result.run_id).status, _trace(store, result.run_id).mode) == (
        "SUCCEEDED",
        SHADOW_MODE,
    )

    def broken_decide(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(workspace.runtime, "_decide", broken_decide)
    assert run_in_shadow(workspace.runtime, store, POLICY, demo_context(), session_id="shadow-b") is None
    from groundgate.apps.runs import list_runs

    (failed,) = list_runs(store, tenant=None, session_id="shadow-b")
    trace = _trace(store, failed.run_id)
    assert (trace.status, trace.mode, [s.role for s in trace.steps]) == ("FAILED", SHADOW_MODE, ["planner"])
    assert len(trace.tool_invocations) == 1


def test_active_mode_records_a_takeover_as_it_runs_and_never_a_hand_back(
    hr: tuple[Store, HrWorkspace], monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundgate.apps.runs import list_runs

    store, workspace = hr
    ctx = demo_context()
    handed_back = answer_actively(workspace.runtime, store, UNPLANNABLE, ctx, session_id="s-back")
    assert handed_back is not None
    assert handed_back.fallback
    assert list_runs(store, tenant=None) == []  # the chat run the caller makes next is its record
    assert not _has_session(store, "s-back")

    seen: list[str] = []
    real_run = workspace.runtime.run

    def watched(*args: Any, sink: RunSink | None = None, **kwargs: Any) -> DecisionResult:
        class Watch:
            def on_step(self, step: AgentStep) -> None:
                assert sink is not None
                sink.on_step(step)
                seen.extend(r.status for r in list_runs(store, tenant=None, session_id="s-take"))

            def on_tool_result(self, result: ToolResult) -> None:
                assert sink is not None
                sink.on_tool_result(result)

        return real_run(*args, sink=Watch(), **kwargs)

    monkeypatch.setattr(workspace.runtime, "run", watched)
    taken = answer_actively(workspace.runtime, store, POLICY, ctx, session_id="s-take")
    assert taken is not None
    assert not taken.fallback
    assert seen == ["RUNNING"]  # inserted once the plan was complete, before any tool ran
    (run,) = list_runs(store, tenant=None, session_id="s-take")
    assert (run.run_id, run.status, run.mode, run.elapsed_ms) == (
        taken.result.run_id,
        "SUCCEEDED",
        AGENT_MODE,
        taken.elapsed_ms,
    )

    # An agent that raises after taking over: FAILED with its steps; the caller falls back (None).
    def broken_decide(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(workspace.runtime, "_decide", broken_decide)
    assert answer_actively(workspace.runtime, store, POLICY, ctx, session_id="s-fail") is None
    (failed,) = list_runs(store, tenant=None, session_id="s-fail")
    assert failed.status == "FAILED"
    assert [s.role for s in _trace(store, failed.run_id).steps] == ["planner"]


def _has_session(store: Store, session_id: str) -> bool:
    from sqlalchemy import select

    from groundgate.store.tables import DiagnosisSession

    with store.session() as session:
        return (
            session.scalar(select(DiagnosisSession.id).where(DiagnosisSession.session_id == session_id))
            is not None
        )


def test_a_turn_record_is_taken_before_the_run(hr: tuple[Store, HrWorkspace]) -> None:
    # The replay's starting point (`eval capture`) stays the state before the turn, not after it.
    store, workspace = hr
    sessions = StoreSessionStore(store)
    ctx = demo_context()
    first = ask_in_session(workspace.runtime, sessions, TASKS, ctx, session_id="t1", record_in=store)
    second = ask_in_session(
        workspace.runtime, sessions, "第二个任务什么时候截止？", ctx, session_id="t1", record_in=store
    )
    assert second.status is DecisionStatus.ANSWERED
    gate = next(s for s in _trace(store, second.run_id).steps if s.role == "gatekeeper")
    turn = gate.model_output["turn"]  # type: ignore[index]
    assert [r["audit_ref"] for r in turn["state"]["refs"]] == [first.run_id] * len(first.new_refs)
    assert datetime.fromisoformat(turn["now"]) == workspace.runtime.now()

"""Free business-agent turns: replaying one offline, and capturing a stored agent run as a fixture.

**Replay.** `run_free_turn(fixture)` runs the agent runtime (`groundgate.agent.AgentRuntime`: resolve
→ plan → execute ≤ 2 rounds → evaluate → compose → validate → decide) over `AgentReplayTools`: a
`ToolRegistry` with the agent's two tools under their real specs (so arguments are validated,
normalised and authorised exactly as in production), each call answered with the fixture's recorded
output of the same call (same tool, same normalised arguments). A call nobody recorded fails as a
`replay_miss` (an `ERROR` result the agent sees as a failed tool), counted against a strict case.
The turn starts from the fixture's session state (fact-ref records and earlier questions, as
`state_json` holds them), so a follow-up ("第二个任务什么时候截止？") resolves its ordinal against
the recorded refs and a forged or foreign ref is refused as the agent refuses it. Scripted `planner`
/ `composer` outputs go through a `ScriptedModel`; without them the agent runs offline.

**Capture.** `capture_agent_run(store, trace, …)` turns a stored agent run (mode `agent` or
`agent-shadow`) into such a fixture: the question, the principal, clock, client refs and session
state the gatekeeper step recorded (`agent.recording.turn_record`), the tool invocations — run again
over the HR workspace's registry at the recorded clock for their full outputs (`re-executed`, with
any difference from the stored row as `source.drift`) or rebuilt from the stored excerpts — and the
decision, reason, rounds, covered / missing needs and cited sources as `expect`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from groundgate.agent import AgentRuntime, StaticDocumentSource, register_agent_tools
from groundgate.agent.context import ConversationState
from groundgate.agent.contracts import AgentTool, DecisionResult
from groundgate.agent.recording import OUTPUT_KIND
from groundgate.agent.tasks_store import OPEN_STATUSES, TaskRow
from groundgate.contracts import ExecutionContext, ToolCall, ToolOutput, ToolSpec, ToolStatus
from groundgate.errors import FixtureError
from groundgate.regression.fixtures import (
    AgentTurnInput,
    CaptureSource,
    Expectations,
    Fixture,
    RecordedToolCall,
    ReviewerExpected,
    ToolReplay,
)
from groundgate.regression.judge import Observed, ToolCallSeen
from groundgate.regression.recorded import replayed_calls
from groundgate.tools.registry import ToolArguments, ToolFunction, ToolRegistry

if TYPE_CHECKING:
    from groundgate.apps import RunTrace
    from groundgate.store import Store

__all__ = [
    "AGENT_MODES",
    "AgentReplayTools",
    "AgentTools",
    "agent_tool_specs",
    "capture_agent_run",
    "observe_decision",
    "run_free_turn",
]

AGENT_MODES = frozenset({"agent", "agent-shadow"})
"""Runs the business agent decided (`agent-fallback` runs are the chat pipeline's)."""

AgentTools = Callable[[datetime], ToolRegistry]
"""The agent's live tools with their clock set to the given time (capture re-executes over them)."""


class _NoTasks:
    def tasks(
        self,
        *,
        tenant: str,
        assignee: str,
        project: str | None,
        start: date | None = None,
        end: date | None = None,
        statuses: Sequence[str] = OPEN_STATUSES,
    ) -> list[TaskRow]:
        return []


def agent_tool_specs() -> list[ToolSpec]:
    """The specs `register_agent_tools` registers (read from it, so they cannot drift)."""
    scratch = ToolRegistry(max_workers=1)
    try:
        register_agent_tools(scratch, documents=StaticDocumentSource([]), tasks=_NoTasks())
        return [scratch.get(tool.value) for tool in AgentTool]
    finally:
        scratch.close()


class ReplayMissError(RuntimeError):
    """A call the fixture holds no recording for."""


class AgentReplayTools:
    """A `ToolRegistry` whose agent tools answer with recorded outputs (see the module docstring)."""

    def __init__(self, calls: Sequence[RecordedToolCall]) -> None:
        self.registry = ToolRegistry(max_workers=2)
        self.misses: list[str] = []
        for spec in agent_tool_specs():
            self.registry.register(spec, self._answer(spec.name))
        self._outputs: dict[str, list[RecordedToolCall]] = {}
        for call in calls:
            key = self.registry.call_key(ToolCall(tool=call.tool, arguments=call.arguments))
            self._outputs.setdefault(key, []).append(call)

    def _answer(self, name: str) -> ToolFunction[ToolArguments]:
        def run(args: ToolArguments, ctx: ExecutionContext) -> ToolOutput:
            arguments = args.model_dump(mode="json", exclude_none=True)
            recorded = self._outputs.get(self.registry.call_key(ToolCall(tool=name, arguments=arguments)))
            if not recorded:
                self.misses.append(f"{name} {arguments}")
                raise ReplayMissError(f"replay_miss: no recorded output for {name} {arguments}")
            # The same call asked again gets the next recording, then the last one again.
            call = recorded.pop(0) if len(recorded) > 1 else recorded[0]
            if call.output.status in (ToolStatus.ERROR, ToolStatus.DENIED) and call.error:
                raise ReplayMissError(call.error)  # replayed as it failed
            return call.output

        return run

    def close(self) -> None:
        self.registry.close()


def _default_now() -> datetime:
    try:
        from groundgate.demo.hr import DEMO_NOW
    except ImportError:  # pragma: no cover - an install without the HR demo
        return datetime.now(UTC)
    return DEMO_NOW


def observe_decision(result: DecisionResult, *, latency_ms: float, misses: Sequence[str] = ()) -> Observed:
    """The `Observed` of one agent decision."""
    return Observed(
        run_id=result.run_id,
        output_kind=OUTPUT_KIND[result.status].value,
        decision=result.status.value,
        stop_reason=result.reason.value,
        rounds=max(result.rounds, 1),
        answer=result.answer.render(),
        gaps=list(result.answer.missing_information),
        cited_sources=list(dict.fromkeys(c.source for c in result.answer.citations)),
        tool_calls=[
            ToolCallSeen(tool=r.tool, status=r.status.value, round=r.round, error=r.error)
            for r in result.tool_results
        ],
        replay_misses=list(misses),
        latency_ms=round(latency_ms, 3),
        covered_needs=[n.value for n in result.covered_needs],
        missing_needs=[n.value for n in result.missing_needs],
    )


def _scripted(models: Mapping[Any, Sequence[Any]]) -> Any:
    from groundgate.models.scripted import ScriptedModel

    return ScriptedModel(
        {role: list(models.get(role, [])) for role in ("planner", "composer")}, name="replay"
    )


def run_free_turn(fixture: Fixture) -> Observed:
    """The `agent_turn` driver for a free turn: the runtime over `AgentReplayTools`, offline."""
    turn = fixture.input
    assert isinstance(turn, AgentTurnInput)
    if fixture.tools.mode != "replay":
        raise FixtureError(
            f"{fixture.path}: field `tools.mode`: an agent turn replays recorded tool outputs (mode: replay)",
            path=fixture.path,
            field="tools.mode",
        )
    state = ConversationState.model_validate(turn.session_state)
    now = turn.now or _default_now()
    model = _scripted(fixture.models) if fixture.models else None
    tools = AgentReplayTools([c.model_copy(deep=True) for c in fixture.tools.calls])
    try:
        runtime = AgentRuntime(
            tools.registry,
            planner_model=model if "planner" in fixture.models else None,
            composer_model=model if "composer" in fixture.models else None,
            clock=lambda: now,
        )
        ctx = ExecutionContext(
            tenant=turn.tenant, user=turn.user, roles=tuple(turn.roles), project=turn.project
        )
        started = time.perf_counter()
        result = runtime.run(turn.message, ctx, state=state, client_refs=turn.client_refs)
        latency = (time.perf_counter() - started) * 1000
    finally:
        tools.close()
    return observe_decision(result, latency_ms=latency, misses=tools.misses)


# --------------------------------------------------------------------------- capture


def _step_output(trace: RunTrace, role: str) -> dict[str, Any]:
    for step in trace.steps:
        if step.role == role and isinstance(step.model_output, dict):
            return step.model_output
    return {}


def _needs(gatekeeper: Mapping[str, Any], status: str) -> list[str]:
    out: list[str] = []
    for slot in gatekeeper.get("slots") or []:
        need = slot.get("need") if isinstance(slot, dict) else None
        code = need.get("code") if isinstance(need, dict) else None
        if code and slot.get("status") == status and code not in out:
            out.append(str(code))
    return out


def _cited(composer: Mapping[str, Any]) -> list[str]:
    answer = composer.get("answer") if isinstance(composer.get("answer"), dict) else {}
    sources = [
        str(c.get("source") or "") for c in (answer or {}).get("citations") or [] if isinstance(c, dict)
    ]
    return list(dict.fromkeys(s.split(" > ", 1)[0].strip() for s in sources if s.strip()))


def _turn_input(trace: RunTrace, turn: Mapping[str, Any], tenant: str | None) -> AgentTurnInput:
    raw = turn.get("principal")
    principal: dict[str, Any] = raw if isinstance(raw, dict) else {}
    run_tenant = (trace.session.tenant if trace.session else None) or tenant
    state = turn.get("state") if isinstance(turn.get("state"), dict) else {}
    return AgentTurnInput(
        kind="agent_turn",
        message=trace.query,
        tenant=str(principal.get("tenant") or run_tenant or "acme"),
        user=str(principal.get("user") or "eval"),
        roles=[str(r) for r in principal.get("roles") or ["employee"]],
        project=principal.get("project"),
        now=datetime.fromisoformat(turn["now"]) if turn.get("now") else trace.created_at,
        client_refs=[str(r) for r in turn.get("client_refs") or []],
        session_state=state or {},
    )


def _agent_calls(
    trace: RunTrace, tools: AgentTools | None, turn: AgentTurnInput
) -> tuple[list[RecordedToolCall], list[str], str]:
    registry = tools(turn.now or _default_now()) if tools is not None else None
    ctx = ExecutionContext(tenant=turn.tenant, user=turn.user, roles=tuple(turn.roles), project=turn.project)
    return replayed_calls(trace, registry, ctx)


def capture_agent_run(
    store: Store,
    trace: RunTrace,
    *,
    tenant: str | None,
    tools: AgentTools | None = None,
    fixture_id: str | None = None,
    suite: str = "captured",
) -> Fixture:
    """The stored agent run `trace` as an `agent_turn` fixture (see the module docstring)."""
    gatekeeper = _step_output(trace, "gatekeeper")
    turn_data = gatekeeper.get("turn") if isinstance(gatekeeper.get("turn"), dict) else {}
    turn = _turn_input(trace, turn_data or {}, tenant)
    calls, drift, fidelity = _agent_calls(trace, tools, turn)
    if not turn_data:
        drift.append("the run predates recorded turns: principal, clock and session state are guessed")
    feedback = trace.feedback
    expect = Expectations(
        output_kind=[trace.output_kind] if trace.output_kind else [],
        decision=[trace.decision_status] if trace.decision_status else [],
        stop_reason=[trace.stop_reason] if trace.stop_reason else [],
        rounds=trace.rounds,
        covered_needs=_needs(gatekeeper, "COVERED"),
        missing_needs=_needs(gatekeeper, "MISSING"),
        cited_sources=_cited(_step_output(trace, "composer")),
        tools_called=sorted({i.tool for i in trace.tool_invocations}),
    )
    return Fixture(
        id=fixture_id or f"{feedback or 'agent'}-{trace.run_id[:18]}".replace("_", "-"),
        suite=suite,
        description=f"captured from agent run {trace.run_id}" + (f", rated {feedback}" if feedback else ""),
        tags=["captured", "agent", *([feedback] if feedback else [])],
        input=turn,
        tools=ToolReplay(calls=calls),
        expect=expect,
        reviewer_expected=ReviewerExpected() if feedback == "not_useful" else None,
        source=CaptureSource(
            run_id=trace.run_id,
            session_id=trace.session_id,
            tenant=turn.tenant,
            feedback=feedback,
            captured_at=datetime.now(UTC),
            fidelity=fidelity,
            drift=drift,
            original={
                "output_kind": trace.output_kind,
                "decision": trace.decision_status,
                "stop_reason": trace.stop_reason,
                "rounds": trace.rounds,
                "latency_ms": trace.elapsed_ms,
            },
        ),
    )

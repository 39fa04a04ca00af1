"""Every agent run is persisted and traceable like a chat run (issue 13, "Entry points and rollout").

An agent run is recorded as it happens, through the chat pipeline's seam: `record_agent_run` opens the
store's `RunRecorder` (the `RunSink` the chat orchestrator writes to), which inserts the run `RUNNING`
under this process's lease (`groundgate.store.leases`) before the agent starts; the runtime sends it
the planner step once the plan is validated and each tool invocation as its call returns
(`AgentRuntime.run(sink=…)`), each appended in its own short transaction, so `GET /api/trace/{runId}`
shows a running agent run's steps; the end writes the gatekeeper and composer steps and finalizes the
row (`SUCCEEDED`, decision, answer, rule evaluation). An exception marks the run `FAILED` with the
steps and invocations written so far (and is re-raised); a process that dies leaves it `RUNNING` until
its lease expires and lease recovery marks it `FAILED`. `run_result_of` maps a `DecisionResult` onto
the store's `RunResult`, the final record — the same content the one-shot `record_decision` (the
store's `persist_run`, for a decision already made) writes: `groundgate runs` and the trace show it
like any run — its decision, the structured steps, and one `tool_invocation` per call.

| decision | `output_kind` |
|---|---|
| `ANSWERED` | `NORMAL` |
| `PARTIAL`, `CONFLICT` | `LOW_CONFID_WITH_DISCLAIMER` (what is shown is stated as incomplete or disputed) |
| `NO_EVIDENCE`, `NEEDS_INPUT` | `DEGRADED` |

The steps hold the plan, the slots and the composition as structured output with reason codes — no
model reasoning (invariant 7). Tool invocations keep the registry's summary, never a fact's body.
The gatekeeper step also keeps the `turn` a replay starts from (`turn_record`: principal, clock,
client refs, the conversation state before the turn — fact-ref records and questions, as
`state_json` holds them), so `groundgate eval capture` can turn the run into a fixture.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from groundgate.agent.context import ConversationState
from groundgate.agent.contracts import DecisionResult, DecisionStatus, ExecutionContext, SemanticQueryPlan
from groundgate.contracts import AgentStep, AnswerCitation, OutputKind, ParseStatus, RunResult

if TYPE_CHECKING:
    from groundgate.agent.runtime import AgentRuntime
    from groundgate.contracts import RuleEvaluation, ToolResult
    from groundgate.runtime.orchestrator import RunSink
    from groundgate.store import Store
    from groundgate.store.recorder import RunRecorder

__all__ = [
    "AGENT_MODE",
    "OUTPUT_KIND",
    "SHADOW_MODE",
    "AgentExecute",
    "RecordedRun",
    "new_run_id",
    "planner_step",
    "record_agent_run",
    "record_decision",
    "run_in_shadow",
    "run_result_of",
    "turn_record",
]

logger = logging.getLogger(__name__)

#: `diagnosis_run.mode` of an agent run.
AGENT_MODE: Final = "agent"

OUTPUT_KIND: Final[dict[DecisionStatus, OutputKind]] = {
    DecisionStatus.ANSWERED: OutputKind.NORMAL,
    DecisionStatus.PARTIAL: OutputKind.LOW_CONFID_WITH_DISCLAIMER,
    DecisionStatus.CONFLICT: OutputKind.LOW_CONFID_WITH_DISCLAIMER,
    DecisionStatus.NO_EVIDENCE: OutputKind.DEGRADED,
    DecisionStatus.NEEDS_INPUT: OutputKind.DEGRADED,
}


def new_run_id() -> str:
    """An agent run's id (minted by the runtime, or by `record_agent_run` before the run starts)."""
    return f"agent-{uuid.uuid4().hex[:16]}"


def planner_step(plan: SemanticQueryPlan) -> AgentStep:
    """The run's first step: the validated plan (sent to the sink as soon as it is made, and the first
    of the final record's steps)."""
    return AgentStep(
        role="planner",
        round=1,
        reason_code=plan.validation[0].value if plan.validation else "",
        model_output=plan.model_dump(mode="json"),
        parse_status=ParseStatus.OK,
    )


def _steps(result: DecisionResult, turn: dict[str, Any] | None = None) -> list[AgentStep]:
    steps: list[AgentStep] = []
    last_round = max(result.rounds, 1)
    if result.plan is not None:
        steps.append(planner_step(result.plan))
    steps.append(
        AgentStep(
            role="gatekeeper",
            round=last_round,
            reason_code=result.reason.value,
            model_output={
                "slots": [s.model_dump(mode="json") for s in result.slots],
                "conflicts": result.conflicts,
                "actions": [a.model_dump(mode="json") for a in result.actions],
                # What a replay needs to run the turn again (`groundgate eval capture`): who asked,
                # the clock, the client's refs and the conversation state it started from — fact-ref
                # records and earlier questions, never fact bodies (as `state_json` holds them).
                **({"turn": turn} if turn else {}),
            },
        )
    )
    steps.append(
        AgentStep(
            role="composer",
            round=last_round,
            reason_code=result.status.value,
            model_output={
                "answer": result.answer.model_dump(mode="json"),
                "dropped": [d.model_dump(mode="json") for d in result.dropped_statements],
            },
            parse_status=ParseStatus.OK if result.answer_model_called else ParseStatus.NOT_CALLED,
        )
    )
    return steps


def turn_record(
    ctx: ExecutionContext,
    now: datetime,
    *,
    state: ConversationState | None = None,
    client_refs: Sequence[str] = (),
) -> dict[str, Any]:
    """What a turn started from, as the gatekeeper step keeps it (`turn`): the principal, the clock,
    the client's refs and the conversation state before the turn (refs and questions, no bodies)."""
    return {
        "principal": {
            "tenant": ctx.tenant,
            "user": ctx.user,
            "roles": list(ctx.roles),
            **({"project": ctx.project} if ctx.project else {}),
        },
        "now": now.isoformat(),
        "client_refs": list(client_refs),
        "state": state.model_dump(mode="json") if state is not None else None,
    }


def run_result_of(
    result: DecisionResult,
    *,
    session_id: str,
    elapsed_ms: float = 0.0,
    turn: dict[str, Any] | None = None,
) -> RunResult:
    """The `RunResult` the run store persists for one agent decision (`turn`: `turn_record`)."""
    where = {d.citation_id: r.invocation_id for r in result.tool_results for d in r.documents}
    where.update({f.fact_ref: r.invocation_id for r in result.tool_results for f in r.facts})
    citations = [
        AnswerCitation(
            number=n,
            citation_id=c.citation_id,
            source=c.source,
            excerpt=c.excerpt,
            invocation_id=where.get(c.citation_id, ""),
        )
        for n, c in enumerate(result.answer.citations, start=1)
    ]
    return RunResult(
        run_id=result.run_id,
        session_id=session_id,
        question=result.question,
        output_kind=OUTPUT_KIND[result.status],
        decision_status=result.status,
        answer=result.answer.render(),
        citations=citations,
        gaps=list(result.answer.missing_information),
        rounds=max(result.rounds, 1),
        stop_reason=result.reason.value,
        steps=_steps(result, turn),
        tool_results=list(result.tool_results),
        elapsed_ms=elapsed_ms,
        resolved_question=result.resolved.resolved_question,
    )


#: What `record_agent_run` runs: the agent, given the sink to send its steps to and the run's id.
AgentExecute = Callable[["RunSink", str], DecisionResult]


@dataclass(frozen=True, slots=True)
class RecordedRun:
    """What `record_agent_run` did: the decision, its elapsed time (as recorded), and whether a run was
    recorded (False only for a hand-back under `takeover_only`)."""

    result: DecisionResult
    elapsed_ms: float
    recorded: bool = True


class _AgentSink:
    """The `RunSink` the runtime is given: forwards to the recorder. Under `takeover_only` the run row is
    inserted only once the agent takes the question over — a complete plan, or a tool call — and what
    came before is held until then; a hand-back (incomplete plan) leaves no record."""

    def __init__(self, recorder: RunRecorder, *, started: bool) -> None:
        self.recorder = recorder
        self.started = started
        self._held: list[AgentStep] = []

    def start(self) -> None:
        if self.started:
            return
        self.recorder.start()
        self.started = True
        for step in self._held:
            self.recorder.on_step(step)
        self._held.clear()

    def on_step(self, step: AgentStep) -> None:
        if self.started:
            self.recorder.on_step(step)
            return
        self._held.append(step)
        output = step.model_output
        if step.role == "planner" and isinstance(output, dict) and output.get("complete", True):
            self.start()

    def on_tool_result(self, result: ToolResult) -> None:
        self.start()
        self.recorder.on_tool_result(result)


def _fail(recorder: RunRecorder, reason: str) -> None:
    """Mark the run `FAILED`; when the store cannot be reached, its heartbeat retries until it is back
    (as `store.recorder.record_execution` does for a chat run)."""
    try:
        recorder.fail(reason)
    except Exception as exc:
        logger.error(
            "could not mark agent run %s FAILED (%s: %s); the heartbeat retries until the store is back",
            recorder.run_id,
            type(exc).__name__,
            exc,
        )
        recorder.store.heartbeat.retry_failure(recorder, reason)


def record_agent_run(
    store: Store,
    execute: AgentExecute,
    *,
    question: str,
    session_id: str,
    tenant: str | None,
    turn: dict[str, Any] | None = None,
    started: float | None = None,
    mode: str = AGENT_MODE,
    takeover_only: bool = False,
    untenanted_sessions: bool = True,
) -> RecordedRun:
    """Run the agent as a recorded run, written as it happens (see the module docstring).

    `execute(sink, run_id)` runs the agent with `AgentRuntime.run(…, sink=sink, run_id=run_id)`. The
    run row is inserted `RUNNING` before it starts (another tenant's session: `NotFoundError`, nothing
    runs) — or, with `takeover_only` (active mode), once the plan is complete, so that a question
    handed back to the chat pipeline is recorded once, by the chat run. An exception marks the run
    `FAILED`, keeping the steps written so far, and is re-raised. `turn` (`turn_record`) is what a
    replay of the run starts from; `started` (`time.perf_counter()`) when the turn began, for the
    recorded elapsed time (default: now)."""
    from groundgate.store.recorder import RunRecorder, failure_reason

    begun = time.perf_counter() if started is None else started
    recorder = RunRecorder(
        store,
        run_id=new_run_id(),
        session_id=session_id,
        question=question,
        mode=mode,
        tenant=tenant,
        untenanted_sessions=untenanted_sessions,
    )
    sink = _AgentSink(recorder, started=False)
    if not takeover_only:
        sink.start()
    try:
        result = execute(sink, recorder.run_id)
    except BaseException as exc:
        if sink.started:
            _fail(recorder, failure_reason(exc))
        raise
    elapsed = round((time.perf_counter() - begun) * 1000.0, 2)
    if not sink.started and result.fallback:
        return RecordedRun(result=result, elapsed_ms=elapsed, recorded=False)
    try:
        sink.start()  # a decision that sent nothing yet (a takeover without any event)
        recorder.finish(run_result_of(result, session_id=session_id, elapsed_ms=elapsed, turn=turn))
    except Exception as exc:
        if sink.started:
            _fail(recorder, f"error: could not finalize: {type(exc).__name__}: {exc}")
        raise
    return RecordedRun(result=result, elapsed_ms=elapsed)


def record_decision(
    store: Store,
    result: DecisionResult,
    *,
    session_id: str,
    tenant: str,
    elapsed_ms: float = 0.0,
    mode: str = AGENT_MODE,
    turn: dict[str, Any] | None = None,
) -> RuleEvaluation | None:
    """Persist a decision already made, in one go (mode `agent`, or `agent-shadow`) under the caller's
    tenant; returns its rule evaluation. The entry points record as they run (`record_agent_run`);
    both write the same final record. `turn` (`turn_record`) is what a replay of the run starts from."""
    from groundgate.store.recorder import persist_run

    run = run_result_of(result, session_id=session_id, elapsed_ms=elapsed_ms, turn=turn)
    return persist_run(store, run, mode=mode, tenant=tenant)


#: `diagnosis_run.mode` of a decision taken in shadow mode, beside a chat run.
SHADOW_MODE: Final = "agent-shadow"


def run_in_shadow(
    runtime: AgentRuntime, store: Store, question: str, ctx: ExecutionContext, *, session_id: str
) -> DecisionResult | None:
    """Shadow mode (seed "迁移顺序" 1: "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"): run the
    agent beside a chat run and record its decision (mode `agent-shadow`) in session `session_id` (the
    entry points pass `shadow-<chat run id>`, `apps.agent_rollout`), as it happens (`record_agent_run`):
    an agent that raises mid-run leaves a `FAILED` run with its steps so far. It never changes the chat
    response and never fails it: any error is logged, None returned."""
    started = time.perf_counter()

    def execute(sink: RunSink, run_id: str) -> DecisionResult:
        return runtime.run(question, ctx, sink=sink, run_id=run_id)

    try:
        turn = turn_record(ctx, runtime.now())
        recorded = record_agent_run(
            store,
            execute,
            question=question,
            session_id=session_id,
            tenant=ctx.tenant,
            turn=turn,
            started=started,
            mode=SHADOW_MODE,
        )
    except Exception:
        logger.exception("the agent's shadow run failed; the chat response is unaffected")
        return None
    return recorded.result

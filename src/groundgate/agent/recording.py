"""Every agent run is persisted and traceable like a chat run (issue 13, "Entry points and rollout").

`run_result_of` maps a `DecisionResult` onto the run store's `RunResult`, and `record_decision` writes it
with the store's own `persist_run` (mode `agent`): `GET /api/trace/{runId}` and `groundgate runs` then
show it like any run — its decision, the structured steps, and one `tool_invocation` per call.

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
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from groundgate.agent.context import ConversationState
from groundgate.agent.contracts import DecisionResult, DecisionStatus, ExecutionContext
from groundgate.contracts import AgentStep, AnswerCitation, OutputKind, ParseStatus, RunResult

if TYPE_CHECKING:
    from groundgate.agent.runtime import AgentRuntime
    from groundgate.contracts import RuleEvaluation
    from groundgate.store import Store

__all__ = [
    "AGENT_MODE",
    "OUTPUT_KIND",
    "SHADOW_MODE",
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


def _steps(result: DecisionResult, turn: dict[str, Any] | None = None) -> list[AgentStep]:
    steps: list[AgentStep] = []
    last_round = max(result.rounds, 1)
    if result.plan is not None:
        steps.append(
            AgentStep(
                role="planner",
                round=1,
                reason_code=result.plan.validation[0].value if result.plan.validation else "",
                model_output=result.plan.model_dump(mode="json"),
                parse_status=ParseStatus.OK,
            )
        )
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
    """Persist the run (mode `agent`, or `agent-shadow`) under the caller's tenant; returns its rule
    evaluation. `turn` (`turn_record`) is what a replay of the run starts from."""
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
    entry points pass `shadow-<chat run id>`, `apps.agent_rollout`). It never changes the chat response
    and never fails it: any error is logged, None returned."""
    started = time.perf_counter()
    try:
        turn = turn_record(ctx, runtime.now())
        result = runtime.run(question, ctx)
        elapsed = round((time.perf_counter() - started) * 1000.0, 2)
        record_decision(
            store,
            result,
            session_id=session_id,
            tenant=ctx.tenant,
            elapsed_ms=elapsed,
            mode=SHADOW_MODE,
            turn=turn,
        )
    except Exception:
        logger.exception("the agent's shadow run failed; the chat response is unaffected")
        return None
    return result

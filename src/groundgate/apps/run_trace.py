"""Run trace (docs/design.md §7, §10 item 1): one run with its session, steps, tool invocations, feedback
and its self-evaluation slots shown structured (`rule_evaluation`, `verifier_evaluation`).

Three views of a run: did it execute (`status`), was the evidence sufficient (`rule_evaluation` /
`verifier_evaluation`), did the user find it useful (`feedback`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from sqlalchemy import select
from sqlalchemy.orm import Session

from groundgate.apps.runs import MAX_LIST_LIMIT, RunSummary, visible
from groundgate.apps.runs import utc as _utc
from groundgate.contracts.verification import AiOpsRuleEvaluation, RuleEvaluation, VerifierEvaluation
from groundgate.errors import NotFoundError
from groundgate.evaluation.self_evaluation import parse_self_evaluation
from groundgate.store import Store
from groundgate.store.repositories import get_run, list_invocations, read_self_evaluation
from groundgate.store.tables import AgentStepRow, DiagnosisSession

__all__ = [
    # reading
    "get_trace",
    "read_trace",
    # shapes
    "RunTrace",
    "TraceSession",
    "TraceStep",
    "TraceToolInvocation",
    # moved to `groundgate.apps.runs`, kept importable here
    "MAX_LIST_LIMIT",
    "RunSummary",
]


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class TraceSession(_Model):
    session_id: str
    tenant: str | None = None
    query: str | None = None
    feedback: str | None = None
    """Legacy session-level feedback (runs written now carry their own)."""
    created_at: datetime | None = None


class TraceStep(_Model):
    seq: int
    role: str
    round: int
    thought: str
    reason_code: str
    parse_status: str
    model_name: str
    model_output: Any | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    created_at: datetime | None = None


class TraceToolInvocation(_Model):
    invocation_id: str
    tool: str
    round: int
    status: str
    arguments: Any | None = None
    output_summary: str = ""
    retrieval_details: Any | None = None
    error: str | None = None
    latency_ms: float | None = None
    created_at: datetime | None = None


class RunTrace(_Model):
    """Everything stored about one run (what `groundgate trace RUN_ID --json` prints)."""

    run_id: str
    session_id: str
    query: str
    answer: str
    mode: str
    status: str
    """Execution status only: RUNNING, SUCCEEDED or FAILED."""
    output_kind: str | None = None
    verdict: str | None = None
    decision_status: str | None = None
    stop_reason: str | None = None
    rounds: int = 1
    elapsed_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    created_at: datetime | None = None
    feedback: str | None = None
    has_feedback: bool = False
    has_verifier_evaluation: bool = False
    has_rule_evaluation: bool = False
    has_ai_ops_rule_evaluation: bool = Field(default=False, alias="hasAiOpsRuleEvaluation")
    rule_evaluation: RuleEvaluation | None = None
    verifier_evaluation: VerifierEvaluation | None = None
    aiops_rule_evaluation: AiOpsRuleEvaluation | None = None
    other_evaluations: dict[str, Any] = Field(default_factory=dict)
    """Slots that are not one of the three above (legacy keys kept as they were)."""
    self_evaluation_version: int = 0
    session: TraceSession | None = None
    steps: list[TraceStep] = Field(default_factory=list)
    tool_invocations: list[TraceToolInvocation] = Field(default_factory=list)


@overload
def get_trace(
    store: Store, run_id: str, /, *, tenant: str | None, include_untenanted: bool = False
) -> RunTrace: ...


@overload
def get_trace(run_id: str, /, *, session: Session, tenant: str | None = None) -> RunTrace: ...


def get_trace(
    source: Store | str,
    run_id: str | None = None,
    /,
    *,
    tenant: str | None = None,
    include_untenanted: bool = False,
    session: Session | None = None,
) -> RunTrace:
    """The trace of `run_id` as `tenant` may see it (`groundgate.apps.runs`: None is the operator,
    who sees every tenant's); `NotFoundError` for an unknown run and for one `tenant` may not see.

    `get_trace(store, run_id, tenant=…)` opens its own unit of work. The older form
    `get_trace(run_id, session=…, tenant=…)` reads inside the caller's (tests, benchmarks) and, as it
    always did, lets a tenant see sessions recorded without one; see `read_trace`.
    """
    if isinstance(source, Store):
        if run_id is None:
            raise TypeError("get_trace(store, run_id, *, tenant) needs a run id")
        with source.session() as unit:
            return read_trace(run_id, session=unit, tenant=tenant, include_untenanted=include_untenanted)
    if session is None:
        raise TypeError("get_trace(run_id, *, session) needs a session")
    return read_trace(source, session=session, tenant=tenant, include_untenanted=True)


def read_trace(
    run_id: str, *, session: Session, tenant: str | None, include_untenanted: bool = False
) -> RunTrace:
    """`get_trace` inside the caller's unit of work."""
    run = get_run(run_id, session=session)
    session_row = session.scalars(
        select(DiagnosisSession).where(DiagnosisSession.session_id == run.session_id)
    ).one_or_none()
    row_tenant = session_row.tenant if session_row is not None else None
    if tenant is not None and (
        session_row is None or not visible(row_tenant, tenant, include_untenanted=include_untenanted)
    ):
        raise NotFoundError(f"unknown run id {run_id!r}")
    evaluation = parse_self_evaluation(read_self_evaluation(run_id, session=session))
    others = dict(evaluation.model_extra or {})
    steps = session.scalars(
        select(AgentStepRow).where(AgentStepRow.run_id == run_id).order_by(AgentStepRow.seq, AgentStepRow.id)
    ).all()
    invocations = list_invocations(run_id, session=session)
    feedback = run.feedback or (session_row.feedback if session_row is not None else None)
    return RunTrace(
        run_id=run.run_id,
        session_id=run.session_id,
        query=run.query,
        answer=run.answer,
        mode=run.mode,
        status=run.status,
        output_kind=run.output_kind,
        verdict=run.verdict,
        decision_status=run.decision_status,
        stop_reason=run.stop_reason,
        rounds=run.rounds,
        elapsed_ms=run.elapsed_ms,
        input_tokens=run.input_tokens,
        output_tokens=run.output_tokens,
        started_at=_utc(run.started_at),
        finished_at=_utc(run.finished_at),
        created_at=_utc(run.created_at),
        feedback=feedback,
        has_feedback=feedback is not None,
        has_verifier_evaluation=evaluation.verifier_evaluation is not None,
        has_rule_evaluation=evaluation.rule_evaluation is not None,
        has_ai_ops_rule_evaluation=evaluation.aiops_rule_evaluation is not None,
        rule_evaluation=evaluation.rule_evaluation,
        verifier_evaluation=evaluation.verifier_evaluation,
        aiops_rule_evaluation=evaluation.aiops_rule_evaluation,
        other_evaluations=others,
        self_evaluation_version=run.self_evaluation_version,
        session=None
        if session_row is None
        else TraceSession(
            session_id=session_row.session_id,
            tenant=session_row.tenant,
            query=session_row.query,
            feedback=session_row.feedback,
            created_at=_utc(session_row.created_at),
        ),
        steps=[
            TraceStep(
                seq=s.seq,
                role=s.role,
                round=s.round,
                thought=s.thought,
                reason_code=s.reason_code,
                parse_status=s.parse_status,
                model_name=s.model_name,
                model_output=s.model_output,
                input_tokens=s.input_tokens,
                output_tokens=s.output_tokens,
                latency_ms=s.latency_ms,
                created_at=_utc(s.created_at),
            )
            for s in steps
        ],
        tool_invocations=[
            TraceToolInvocation(
                invocation_id=i.invocation_id,
                tool=i.tool,
                round=i.round,
                status=i.status,
                arguments=i.arguments,
                output_summary=i.output_summary,
                retrieval_details=i.retrieval_details,
                error=i.error,
                latency_ms=i.latency_ms,
                created_at=_utc(i.created_at),
            )
            for i in invocations
        ],
    )

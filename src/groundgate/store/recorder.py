"""Persist a `RunResult` (what a run produced) and its rule evaluation afterwards."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.orm import Session

from groundgate.contracts.run import RunResult
from groundgate.contracts.verification import RuleEvaluation
from groundgate.store.engine import Store
from groundgate.store.repositories import (
    compute_rule_evaluation,
    find_session_row,
    merge_self_evaluation_slot,
)
from groundgate.store.tables import AgentStepRow, DiagnosisRun, DiagnosisSession, ToolInvocation

logger = logging.getLogger(__name__)


def record_run(
    result: RunResult, *, session: Session, mode: str = "chat", tenant: str | None = None
) -> DiagnosisRun:
    """Insert the run, its steps and tool invocations (the session row is created when missing)."""
    if find_session_row(result.session_id, session=session) is None:
        session.add(DiagnosisSession(session_id=result.session_id, tenant=tenant, query=result.question))
        session.flush()
    container: dict[str, Any] = {}
    if result.verifier_evaluation is not None:
        container["verifier_evaluation"] = result.verifier_evaluation.model_dump(mode="json")
    run = DiagnosisRun(
        run_id=result.run_id,
        session_id=result.session_id,
        query=result.question,
        answer=result.answer,
        mode=mode,
        output_kind=str(result.output_kind),
        verdict=str(result.verdict) if result.verdict is not None else None,
        decision_status=str(result.decision_status),
        status=result.status,
        stop_reason=result.stop_reason,
        self_evaluation=container,
        self_evaluation_version=0,
        rounds=result.rounds,
        elapsed_ms=result.elapsed_ms,
        input_tokens=result.input_tokens,
        output_tokens=result.output_tokens,
    )
    session.add(run)
    session.flush()
    for seq, step in enumerate(result.steps):
        session.add(
            AgentStepRow(
                run_id=result.run_id,
                seq=seq,
                role=step.role,
                round=step.round,
                thought=step.thought,
                reason_code=step.reason_code,
                model_output=step.model_output,
                parse_status=str(step.parse_status),
                model_name=step.model_name,
                input_tokens=step.input_tokens,
                output_tokens=step.output_tokens,
                latency_ms=step.latency_ms,
            )
        )
    for tool_result in result.tool_results:
        layers = [str(x) for x in tool_result.retrieval_layers]
        layers += [str(d.retrieval_layer) for d in tool_result.documents if d.retrieval_layer]
        session.add(
            ToolInvocation(
                invocation_id=tool_result.invocation_id,
                run_id=result.run_id,
                tool=tool_result.tool,
                arguments=tool_result.arguments,
                status=str(tool_result.status),
                output_summary=tool_result.observation,
                retrieval_details={
                    "retrieval_layers": list(dict.fromkeys(layers)),
                    "relevance_levels": tool_result.relevance_levels,
                    "source_documents": tool_result.source_documents,
                    "evidence_refs": [ref.model_dump(mode="json") for ref in tool_result.evidence_refs],
                    "document_count": len(tool_result.documents),
                    "fact_count": len(tool_result.facts),
                },
                error=tool_result.error,
                latency_ms=tool_result.latency_ms,
                round=tool_result.round,
            )
        )
    session.flush()
    return run


def apply_rule_evaluation(store: Store, run_id: str) -> RuleEvaluation | None:
    """Compute and merge `rule_evaluation` after the run; a failure is logged and leaves the slot missing."""
    try:
        with store.session() as session:
            evaluation = compute_rule_evaluation(run_id, session=session)
            merge_self_evaluation_slot(run_id, "rule_evaluation", evaluation, session=session)
    except Exception:
        logger.exception("rule evaluation failed for run %s; the rule_evaluation slot stays missing", run_id)
        return None
    return evaluation


def persist_run(
    store: Store, result: RunResult, *, mode: str = "chat", tenant: str | None = None
) -> RuleEvaluation | None:
    """Record the run in one transaction, then its rule evaluation in another (never fails the run)."""
    with store.session() as session:
        record_run(result, session=session, mode=mode, tenant=tenant)
    return apply_rule_evaluation(store, result.run_id)

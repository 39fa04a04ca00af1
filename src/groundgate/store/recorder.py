"""Persist a `RunResult` (what a run produced) and its rule evaluation afterwards.

`RunRecorder` writes a run as it happens and holds its lease (`groundgate.store.leases`): a run
whose process dies is recovered `FAILED` once the lease expires; a run whose store went away is
marked `FAILED` by its own process as soon as the store is back.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import ToolResult
from groundgate.contracts.verification import RuleEvaluation
from groundgate.store.engine import Store
from groundgate.store.leases import (
    FAILED,
    RUNNING,
    STOP_REASON_CHARS,
    recover_interrupted_runs,
    renew_leases,
)
from groundgate.store.repositories import (
    claim_session,
    compute_rule_evaluation,
    get_run,
    merge_self_evaluation_slot,
)
from groundgate.store.tables import AgentStepRow, DiagnosisRun, ToolInvocation

logger = logging.getLogger(__name__)


def step_row(run_id: str, seq: int, step: AgentStep) -> AgentStepRow:
    return AgentStepRow(
        run_id=run_id,
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


def invocation_row(run_id: str, tool_result: ToolResult) -> ToolInvocation:
    layers = [str(x) for x in tool_result.retrieval_layers]
    layers += [str(d.retrieval_layer) for d in tool_result.documents if d.retrieval_layer]
    return ToolInvocation(
        invocation_id=tool_result.invocation_id,
        run_id=run_id,
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


def record_run(
    result: RunResult, *, session: Session, mode: str = "chat", tenant: str | None = None
) -> DiagnosisRun:
    """Insert the run, its steps and tool invocations (the session row is created when missing;
    another tenant's session raises `NotFoundError`, see `claim_session`)."""
    claim_session(result.session_id, tenant=tenant, question=result.question, session=session)
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
        session.add(step_row(result.run_id, seq, step))
    for tool_result in result.tool_results:
        session.add(invocation_row(result.run_id, tool_result))
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


__all__ = [
    "FAILED",
    "RUNNING",
    "RunRecorder",
    "apply_rule_evaluation",
    "failure_reason",
    "persist_run",
    "record_execution",
    "record_run",
    "recover_interrupted_runs",
    "run_recorded",
]


def failure_reason(error: BaseException | str) -> str:
    return error if isinstance(error, str) else f"error: {type(error).__name__}: {error}"


class RunRecorder:
    """Writes one run as it happens (a `RunSink` for `Orchestrator.run`).

    `start()` finds or creates the session for the tenant and inserts the run with status `RUNNING`
    and this process's lease; each step and tool result is appended in its own short transaction
    (renewing the lease); `finish(result)` writes whatever is missing and finalizes the row
    (`SUCCEEDED`, answer, verdict, timings, tokens, `self_evaluation.verifier_evaluation`); `fail(error)`
    marks it `FAILED` keeping what was written. A failed append is logged and retried by
    `finish`/`fail`, so a database hiccup never fails the run and never loses a step that the run
    still holds. Between `start()` and the end the store's heartbeat keeps the lease alive.

    `untenanted_sessions`: whether a session recorded without a tenant may be continued (the API
    with keys says no, see `groundgate.api.app`).
    """

    def __init__(
        self,
        store: Store,
        *,
        run_id: str,
        session_id: str,
        question: str,
        mode: str = "chat",
        tenant: str | None = None,
        untenanted_sessions: bool = True,
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.session_id = session_id
        self.question = question
        self.mode = mode
        self.tenant = tenant
        self.untenanted_sessions = untenanted_sessions
        self.started_at: datetime | None = None
        self.steps_written = 0
        self.invocations_written: set[str] = set()
        self._steps: list[AgentStep] = []
        self._results: list[ToolResult] = []

    def start(self) -> None:
        """Claim the session and insert the run row as `RUNNING`, leased to this process.

        Raises `NotFoundError` for another tenant's session (nothing is written) and `StoreError`
        when the store fails."""
        heartbeat = self.store.heartbeat
        self.started_at = self.store.lease.clock()
        with self.store.session() as session:
            # One transaction: the tenant check and the insert cannot be separated by another request.
            claim_session(
                self.session_id,
                tenant=self.tenant,
                question=self.question,
                untenanted=self.untenanted_sessions,
                session=session,
            )
            session.add(
                DiagnosisRun(
                    run_id=self.run_id,
                    session_id=self.session_id,
                    query=self.question,
                    answer="",
                    mode=self.mode,
                    status=RUNNING,
                    self_evaluation={},
                    self_evaluation_version=0,
                    started_at=self.started_at,
                    created_at=self.started_at,
                    lease_owner=heartbeat.owner,
                    lease_expires_at=self.store.lease.expiry(self.started_at),
                )
            )
        heartbeat.track(self)

    # RunSink ---------------------------------------------------------------

    def on_step(self, step: AgentStep) -> None:
        self._steps.append(step)
        self._flush_pending("step")

    def on_tool_result(self, result: ToolResult) -> None:
        self._results.append(result)
        self._flush_pending("tool invocation")

    def _snapshot(self) -> tuple[int, set[str]]:
        return self.steps_written, set(self.invocations_written)

    def _restore(self, snapshot: tuple[int, set[str]]) -> None:
        """The transaction rolled back: what it wrote is to be written again."""
        self.steps_written, self.invocations_written = snapshot

    def _flush_pending(self, what: str) -> None:
        snapshot = self._snapshot()
        try:
            with self.store.session() as session:
                self._write_missing(self._steps, self._results, session=session)
                renew_leases(
                    [self.run_id],
                    owner=self.store.heartbeat.owner,
                    expires_at=self.store.lease.expiry(),
                    session=session,
                )
        except Exception:
            logger.exception("could not append a %s of run %s; it is retried at the end", what, self.run_id)
            self._restore(snapshot)

    def _write_missing(
        self, steps: Sequence[AgentStep], results: Sequence[ToolResult], *, session: Session
    ) -> None:
        for seq in range(self.steps_written, len(steps)):
            session.add(step_row(self.run_id, seq, steps[seq]))
            self.steps_written = seq + 1
        for result in results:
            if result.invocation_id not in self.invocations_written:
                session.add(invocation_row(self.run_id, result))
                self.invocations_written.add(result.invocation_id)
        session.flush()

    # end of run ------------------------------------------------------------

    def finish(self, result: RunResult) -> None:
        """Write the missing steps/invocations and finalize the run row in one transaction."""
        finished_at = self.store.lease.clock()
        # From now on the result is what this process holds: a `fail()` after a failed finish
        # writes the composer's closing step too.
        self._steps, self._results = list(result.steps), list(result.tool_results)
        snapshot = self._snapshot()
        try:
            with self.store.session() as session:
                self._write_missing(result.steps, result.tool_results, session=session)
                run = get_run(self.run_id, session=session, lock=True)
                run.answer = result.answer
                run.output_kind = str(result.output_kind)
                run.verdict = str(result.verdict) if result.verdict is not None else None
                run.decision_status = str(result.decision_status)
                run.status = result.status
                run.stop_reason = result.stop_reason[:STOP_REASON_CHARS]
                run.rounds = result.rounds
                run.elapsed_ms = result.elapsed_ms
                run.input_tokens = result.input_tokens
                run.output_tokens = result.output_tokens
                run.finished_at = finished_at
                run.lease_expires_at = None
                session.flush()
                if result.verifier_evaluation is not None:
                    merge_self_evaluation_slot(
                        self.run_id, "verifier_evaluation", result.verifier_evaluation, session=session
                    )
        except BaseException:
            self._restore(snapshot)
            raise
        self.store.heartbeat.release(self.run_id)

    def fail(self, error: BaseException | str) -> None:
        """Mark the run `FAILED` with the reason, keeping (and completing) what was written.

        Raises when the store cannot be reached; the caller then hands the run to the heartbeat
        (`record_execution` does), which calls this again until it succeeds. A run that lease recovery
        already marked `FAILED` meanwhile gets its missing steps and its owner's reason."""
        reason = failure_reason(error)
        finished_at = self.store.lease.clock()
        snapshot = self._snapshot()
        try:
            with self.store.session() as session:
                try:
                    with session.begin_nested():
                        self._write_missing(self._steps, self._results, session=session)
                except Exception:
                    logger.exception("could not write the pending steps of failed run %s", self.run_id)
                    self._restore(snapshot)
                run = get_run(self.run_id, session=session, lock=True)
                run.status = FAILED
                run.stop_reason = reason[:STOP_REASON_CHARS]
                run.finished_at = finished_at
                run.lease_expires_at = None
                if self.started_at is not None:
                    run.elapsed_ms = (finished_at - self.started_at).total_seconds() * 1000
        except BaseException:
            self._restore(snapshot)  # nothing was committed: a retry writes those steps again
            raise
        self.store.heartbeat.release(self.run_id)


def run_recorded(
    store: Store,
    execute: Callable[[RunRecorder], RunResult],
    *,
    question: str,
    run_id: str | None = None,
    session_id: str | None = None,
    mode: str = "chat",
    tenant: str | None = None,
    untenanted_sessions: bool = True,
    evaluate_rules: bool = True,
) -> RunResult:
    """Record a run as it happens: `execute(recorder)` runs it with `sink=recorder` (and the ids).

    `start()` errors propagate before anything runs (`NotFoundError`: another tenant's session).
    Then see `record_execution`.
    """
    recorder = RunRecorder(
        store,
        run_id=run_id or uuid.uuid4().hex,
        session_id=session_id or uuid.uuid4().hex,
        question=question,
        mode=mode,
        tenant=tenant,
        untenanted_sessions=untenanted_sessions,
    )
    recorder.start()
    return record_execution(recorder, execute, evaluate_rules=evaluate_rules)


def record_execution(
    recorder: RunRecorder, execute: Callable[[RunRecorder], RunResult], *, evaluate_rules: bool = True
) -> RunResult:
    """Execute a started run and finalize it.

    On an exception the run is marked `FAILED` (with what was written) and the exception re-raised;
    when even that cannot reach the store, the heartbeat retries it until the store is back (the run
    is never left `RUNNING` by a live process). After the run is final, the rule evaluation is
    computed; its failure is only logged.
    """
    try:
        result = execute(recorder)
    except BaseException as exc:
        if _fail_or_hand_over(recorder, failure_reason(exc)) and evaluate_rules:
            # A FAILED run is evaluated too: `execution_failed`, score 0 (docs/design.md §5).
            apply_rule_evaluation(recorder.store, recorder.run_id)
        raise
    try:
        recorder.finish(result)
    except Exception as exc:
        if (
            _fail_or_hand_over(recorder, f"error: could not finalize: {type(exc).__name__}: {exc}")
            and evaluate_rules
        ):
            apply_rule_evaluation(recorder.store, recorder.run_id)
        raise
    if evaluate_rules:
        apply_rule_evaluation(recorder.store, recorder.run_id)
    return result


def _fail_or_hand_over(recorder: RunRecorder, reason: str) -> bool:
    """Mark the run `FAILED`; True when that was recorded, False when the heartbeat took it over."""
    try:
        recorder.fail(reason)
    except Exception as exc:
        logger.error(
            "could not mark run %s FAILED (%s: %s); the heartbeat retries until the store is back",
            recorder.run_id,
            type(exc).__name__,
            exc,
        )
        recorder.store.heartbeat.retry_failure(recorder, reason)
        return False
    return True

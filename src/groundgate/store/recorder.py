"""Persist a `RunResult` (what a run produced) and its rule evaluation afterwards."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import ToolResult
from groundgate.contracts.verification import RuleEvaluation
from groundgate.store.engine import Store
from groundgate.store.repositories import (
    compute_rule_evaluation,
    find_session_row,
    get_run,
    merge_self_evaluation_slot,
)
from groundgate.store.tables import (
    AgentStepRow,
    DiagnosisRun,
    DiagnosisSession,
    ToolInvocation,
    utcnow,
)

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


RUNNING = "RUNNING"
FAILED = "FAILED"
STOP_REASON_CHARS = 128


def _aware(value: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes; every stored time is UTC."""
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class RunRecorder:
    """Writes one run as it happens (a `RunSink` for `Orchestrator.run`).

    `start()` inserts the run with status `RUNNING`; each step and tool result is appended in its own
    short transaction; `finish(result)` writes whatever is missing and finalizes the row (`SUCCEEDED`,
    answer, verdict, timings, tokens, `self_evaluation.verifier_evaluation`); `fail(error)` marks it
    `FAILED` keeping what was written. A failed append is logged and retried by `finish`/`fail`, so a
    database hiccup never fails the run and never loses a step that the run still holds.
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
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.session_id = session_id
        self.question = question
        self.mode = mode
        self.tenant = tenant
        self.started_at: datetime | None = None
        self.steps_written = 0
        self.invocations_written: set[str] = set()
        self._steps: list[AgentStep] = []
        self._results: list[ToolResult] = []

    def start(self) -> None:
        """Insert the session (when new) and the run row as `RUNNING`; raises `StoreError` on failure."""
        self.started_at = utcnow()
        with self.store.session() as session:
            if find_session_row(self.session_id, session=session) is None:
                session.add(
                    DiagnosisSession(session_id=self.session_id, tenant=self.tenant, query=self.question)
                )
                session.flush()
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
                )
            )

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
        finished_at = utcnow()
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
                session.flush()
                if result.verifier_evaluation is not None:
                    merge_self_evaluation_slot(
                        self.run_id, "verifier_evaluation", result.verifier_evaluation, session=session
                    )
        except BaseException:
            self._restore(snapshot)
            raise

    def fail(self, error: BaseException | str) -> None:
        """Mark the run `FAILED` with the reason, keeping (and completing) what was written."""
        reason = error if isinstance(error, str) else f"error: {type(error).__name__}: {error}"
        finished_at = utcnow()
        snapshot = self._snapshot()
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
            if self.started_at is not None:
                run.elapsed_ms = (finished_at - self.started_at).total_seconds() * 1000


def run_recorded(
    store: Store,
    execute: Callable[[RunRecorder], RunResult],
    *,
    question: str,
    run_id: str | None = None,
    session_id: str | None = None,
    mode: str = "chat",
    tenant: str | None = None,
    evaluate_rules: bool = True,
) -> RunResult:
    """Record a run as it happens: `execute(recorder)` runs it with `sink=recorder` (and the ids).

    On an exception the run is marked `FAILED` (with what was written) and the exception re-raised.
    After the run is final, the rule evaluation is computed; its failure is only logged.
    """
    recorder = RunRecorder(
        store,
        run_id=run_id or uuid.uuid4().hex,
        session_id=session_id or uuid.uuid4().hex,
        question=question,
        mode=mode,
        tenant=tenant,
    )
    recorder.start()
    try:
        result = execute(recorder)
    except BaseException as exc:
        try:
            recorder.fail(exc)
        except Exception:
            logger.exception("could not mark run %s FAILED; recovery will", recorder.run_id)
        raise
    try:
        recorder.finish(result)
    except Exception as exc:
        recorder.fail(f"error: could not finalize: {type(exc).__name__}: {exc}")
        raise
    if evaluate_rules:
        apply_rule_evaluation(store, recorder.run_id)
    return result


def _last_write(run: DiagnosisRun, *, session: Session) -> datetime:
    times = [_aware(run.started_at), _aware(run.created_at)]
    for table in (AgentStepRow, ToolInvocation):
        times.append(
            _aware(session.scalar(select(func.max(table.created_at)).where(table.run_id == run.run_id)))
        )
    return max(t for t in times if t is not None)


def recover_interrupted_runs(
    store: Store, *, older_than_seconds: float, now: datetime | None = None
) -> list[str]:
    """Mark `RUNNING` runs whose last write (row, step or invocation) is older than the threshold as
    `FAILED` (`stop_reason` says why); returns their run ids. Their steps and invocations are kept."""
    now = now or utcnow()
    recovered: list[str] = []
    with store.session() as session:
        runs = session.scalars(
            select(DiagnosisRun).where(DiagnosisRun.status == RUNNING).order_by(DiagnosisRun.id)
        ).all()
        for run in runs:
            last = _last_write(run, session=session)
            idle = (now - last).total_seconds()
            if idle < older_than_seconds:
                continue
            run.status = FAILED
            run.stop_reason = f"interrupted: no write for {idle:.0f}s; recovered at restart"[
                :STOP_REASON_CHARS
            ]
            run.finished_at = last
            started = _aware(run.started_at)
            if started is not None:
                run.elapsed_ms = (last - started).total_seconds() * 1000
            recovered.append(run.run_id)
    if recovered:
        logger.warning("marked %d interrupted run(s) FAILED: %s", len(recovered), ", ".join(recovered))
    return recovered

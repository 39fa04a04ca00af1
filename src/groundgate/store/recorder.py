"""Persist a `RunResult` (what a run produced) and its rule evaluation.

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

from sqlalchemy import Connection, Text, bindparam, insert, select, type_coerce, update
from sqlalchemy.orm import Session

from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import ToolResult
from groundgate.contracts.verification import RuleEvaluation
from groundgate.errors import NotFoundError
from groundgate.evaluation import rule_evaluation
from groundgate.evaluation.rule_evaluation import InvocationRecord
from groundgate.evaluation.self_evaluation import SlotName, load_container, put_slot
from groundgate.store.engine import Store
from groundgate.store.leases import (
    FAILED,
    RUNNING,
    STOP_REASON_CHARS,
    recover_interrupted_runs,
    renew_lease,
)
from groundgate.store.repositories import (
    SlotValue,
    claim_session_core,
    compute_rule_evaluation,
    merge_self_evaluation_slot,
    set_session_query,
)
from groundgate.store.tables import AgentStepRow, DiagnosisRun, ToolInvocation

logger = logging.getLogger(__name__)


def step_values(run_id: str, seq: int, step: AgentStep) -> dict[str, Any]:
    """The `agent_step` row of `step` as column values (for a Core insert)."""
    return {
        "run_id": run_id,
        "seq": seq,
        "role": step.role,
        "round": step.round,
        "thought": step.thought,
        "reason_code": step.reason_code,
        "model_output": step.model_output,
        "parse_status": str(step.parse_status),
        "model_name": step.model_name,
        "input_tokens": step.input_tokens,
        "output_tokens": step.output_tokens,
        "latency_ms": step.latency_ms,
    }


def invocation_values(run_id: str, tool_result: ToolResult) -> dict[str, Any]:
    """The `tool_invocation` row of `tool_result` as column values (for a Core insert)."""
    layers = [str(x) for x in tool_result.retrieval_layers]
    layers += [str(d.retrieval_layer) for d in tool_result.documents if d.retrieval_layer]
    return {
        "invocation_id": tool_result.invocation_id,
        "run_id": run_id,
        "tool": tool_result.tool,
        "arguments": tool_result.arguments,
        "status": str(tool_result.status),
        "output_summary": tool_result.observation,
        "retrieval_details": {
            "retrieval_layers": list(dict.fromkeys(layers)),
            "relevance_levels": tool_result.relevance_levels,
            "source_documents": tool_result.source_documents,
            "evidence_refs": [ref.model_dump(mode="json") for ref in tool_result.evidence_refs],
            "document_count": len(tool_result.documents),
            "fact_count": len(tool_result.facts),
        },
        "error": tool_result.error,
        "latency_ms": tool_result.latency_ms,
        "round": tool_result.round,
    }


def step_row(run_id: str, seq: int, step: AgentStep) -> AgentStepRow:
    return AgentStepRow(**step_values(run_id, seq, step))


def invocation_row(run_id: str, tool_result: ToolResult) -> ToolInvocation:
    return ToolInvocation(**invocation_values(run_id, tool_result))


def _record_of(values: dict[str, Any]) -> InvocationRecord:
    """What the rules read of an `invocation_values` row: the same as `compute_rule_evaluation`
    reads back from the table, so evaluating in memory gives the stored rows' evaluation."""
    return InvocationRecord.from_row(
        tool=values["tool"], status=values["status"], retrieval_details=values["retrieval_details"]
    )


def record_run(
    result: RunResult, *, session: Session, mode: str = "chat", tenant: str | None = None
) -> DiagnosisRun:
    """Insert the run, its steps and tool invocations (the session row is created when missing;
    another tenant's session raises `NotFoundError`, see `claim_session`)."""
    session_pk = claim_session_core(
        result.session_id, tenant=tenant, question=result.question, connection=session.connection()
    )
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
    if session_pk is not None:  # after the run's insert: see `claim_session_core`
        set_session_query(session_pk, result.question, connection=session.connection())
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
    "finalize_run",
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
    and this process's lease; each step and tool result is appended as it arrives, in its own
    short transaction (PostgreSQL, MariaDB: one autocommitted `INSERT`, see `Store.append`; several
    rows left over by a failed append: one transaction) that renews the lease when the last renewal
    is older than `LeasePolicy.write_renewal_seconds`;
    `finish(result)` writes whatever is missing and finalizes the row
    (`SUCCEEDED`, answer, verdict, timings, tokens, `self_evaluation.verifier_evaluation` and
    `rule_evaluation`); `fail(error)` marks it `FAILED` keeping what was written (with the
    `execution_failed` rule evaluation). A failed append is logged and retried by `finish`/`fail`, so
    a database hiccup never fails the run and never loses a step that the run still holds. Between
    `start()` and the end the store's heartbeat keeps the lease alive.

    The appends and the end use Core statements (`Store.transaction()`), not the ORM: they are most
    of a run's store time, and the ORM's unit of work cost more than the writes themselves. The rule
    evaluation (docs/design.md §5) is computed in memory from the invocation rows this recorder wrote
    (the same values `compute_rule_evaluation` reads back) and merged by the transaction that ends
    the run, so it adds no transaction of its own.

    `untenanted_sessions`: whether a session recorded without a tenant may be continued (the API
    with keys says no, see `groundgate.api.app`). `evaluate_rules`: whether the end of the run
    writes the `rule_evaluation` slot.
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
        evaluate_rules: bool = True,
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.session_id = session_id
        self.question = question
        self.mode = mode
        self.tenant = tenant
        self.untenanted_sessions = untenanted_sessions
        self.evaluate_rules = evaluate_rules
        self.started_at: datetime | None = None
        self._lease_renewed_at: datetime | None = None
        """When this recorder last set the lease (start, or a write that renewed it)."""
        self.steps_written = 0
        self.invocations_written: set[str] = set()
        self._records: list[InvocationRecord] = []
        """What the rules need of each invocation row written, in insertion order."""
        self._steps: list[AgentStep] = []
        self._results: list[ToolResult] = []

    def start(self) -> None:
        """Claim the session and insert the run row as `RUNNING`, leased to this process.

        Raises `NotFoundError` for another tenant's session (nothing is written) and `StoreError`
        when the store fails."""
        heartbeat = self.store.heartbeat
        self.started_at = self.store.lease.clock()
        with self.store.transaction() as connection:
            # One transaction: the tenant check and the insert cannot be separated by another request.
            session_pk = claim_session_core(
                self.session_id,
                tenant=self.tenant,
                question=self.question,
                untenanted=self.untenanted_sessions,
                connection=connection,
            )
            connection.execute(
                _INSERT_RUN,
                {
                    "run_id": self.run_id,
                    "session_id": self.session_id,
                    "query": self.question,
                    "answer": "",
                    "mode": self.mode,
                    "status": RUNNING,
                    "self_evaluation": {},
                    "self_evaluation_version": 0,
                    "started_at": self.started_at,
                    "created_at": self.started_at,
                    "lease_owner": heartbeat.owner,
                    "lease_expires_at": self.store.lease.expiry(self.started_at),
                },
            )
            if session_pk is not None:  # after the run's insert: see `claim_session_core`
                set_session_query(session_pk, self.question, connection=connection)
        self._lease_renewed_at = self.started_at
        heartbeat.track(self)

    # RunSink ---------------------------------------------------------------

    def on_step(self, step: AgentStep) -> None:
        self._steps.append(step)
        self._flush_pending("step")

    def on_tool_result(self, result: ToolResult) -> None:
        self._results.append(result)
        self._flush_pending("tool invocation")

    def _snapshot(self) -> tuple[int, set[str], int]:
        return self.steps_written, set(self.invocations_written), len(self._records)

    def _restore(self, snapshot: tuple[int, set[str], int]) -> None:
        """The transaction rolled back: what it wrote is to be written again."""
        self.steps_written, self.invocations_written, records = snapshot
        del self._records[records:]

    def _pending_rows(self) -> int:
        """How many step and invocation rows this recorder holds that are not written yet."""
        pending = {r.invocation_id for r in self._results} - self.invocations_written
        return len(self._steps) - self.steps_written + len(pending)

    def _flush_pending(self, what: str) -> None:
        if self.store.appends_autocommit and self._pending_rows() == 1:
            self._append_one(what)
            return
        snapshot = self._snapshot()
        try:
            # Not durable (PostgreSQL: no wait for the WAL flush, see `Store.transaction`): an append
            # is written and visible at once and survives this process; the `RUNNING` row before it
            # and the final record after it are durable commits.
            with self.store.transaction(durable=False) as connection:
                self._write_missing(self._steps, self._results, connection=connection)
                now = self.store.lease.clock()
                if self._renewal_due(now):
                    self._renew(now, connection=connection)
                    renewed: datetime | None = now
                else:
                    renewed = self._lease_renewed_at
            self._lease_renewed_at = renewed  # only once committed
        except Exception:
            logger.exception("could not append a %s of run %s; it is retried at the end", what, self.run_id)
            self._restore(snapshot)

    def _append_one(self, what: str) -> None:
        """The usual append, one row: a single `INSERT` that commits on its own (`Store.append`: one
        round trip, PostgreSQL without waiting for the WAL flush). The counters move only once the
        statement has returned, that is committed, so a failed insert leaves the row pending (written
        by the next append, or at the end) and a committed one is never written again. A lease
        renewal that is due follows as a second statement; when it fails the next write tries again."""
        try:
            with self.store.append() as connection:
                self._write_missing(self._steps, self._results, connection=connection)
        except Exception:
            logger.exception("could not append a %s of run %s; it is retried at the end", what, self.run_id)
            return
        now = self.store.lease.clock()
        if not self._renewal_due(now):
            return
        try:
            with self.store.append() as connection:
                self._renew(now, connection=connection)
        except Exception:
            logger.exception("could not renew the lease of run %s; the next write tries again", self.run_id)
            return
        self._lease_renewed_at = now

    def _renewal_due(self, now: datetime) -> bool:
        """Whether a write at `now` renews the lease (`LeasePolicy.write_renewal_seconds`)."""
        renewed = self._lease_renewed_at
        return renewed is None or (now - renewed).total_seconds() >= self.store.lease.write_renewal_seconds

    def _renew(self, now: datetime, *, connection: Connection) -> None:
        renew_lease(
            self.run_id,
            owner=self.store.heartbeat.owner,
            expires_at=self.store.lease.expiry(now),
            connection=connection,
        )

    def _write_missing(
        self, steps: Sequence[AgentStep], results: Sequence[ToolResult], *, connection: Connection
    ) -> None:
        """Insert the steps and invocations not written yet: one statement per table (an executemany
        when several are pending, as at the end of a run)."""
        step_rows = [
            step_values(self.run_id, seq, steps[seq]) for seq in range(self.steps_written, len(steps))
        ]
        invocation_rows: list[dict[str, Any]] = []
        pending: set[str] = set()
        for result in results:
            if result.invocation_id not in self.invocations_written | pending:
                invocation_rows.append(invocation_values(self.run_id, result))
                pending.add(result.invocation_id)
        if step_rows:
            connection.execute(_INSERT_STEP, step_rows)
            self.steps_written = len(steps)
        if invocation_rows:
            connection.execute(_INSERT_INVOCATION, invocation_rows)
            self.invocations_written |= pending
            self._records.extend(_record_of(row) for row in invocation_rows)

    # end of run ------------------------------------------------------------

    def _rule_slot(self, status: str) -> dict[SlotName, SlotValue]:
        """The `rule_evaluation` slot to merge at the end, or none (disabled, or the rules failed:
        logged, the slot stays missing and the run is recorded all the same)."""
        if not self.evaluate_rules:
            return {}
        try:
            return {"rule_evaluation": rule_evaluation.evaluate_rules(self._records, run_status=status)}
        except Exception:
            logger.exception(
                "rule evaluation failed for run %s; the rule_evaluation slot stays missing", self.run_id
            )
            return {}

    def finish(self, result: RunResult) -> None:
        """Write the missing steps/invocations and finalize the run row in one transaction."""
        finished_at = self.store.lease.clock()
        # From now on the result is what this process holds: a `fail()` after a failed finish
        # writes the composer's closing step too.
        self._steps, self._results = list(result.steps), list(result.tool_results)
        snapshot = self._snapshot()
        try:
            with self.store.transaction() as connection:
                self._write_missing(result.steps, result.tool_results, connection=connection)
                slots: dict[SlotName, SlotValue] = {}
                if result.verifier_evaluation is not None:
                    slots["verifier_evaluation"] = result.verifier_evaluation
                finalize_run(
                    self.run_id,
                    {
                        "answer": result.answer,
                        "output_kind": str(result.output_kind),
                        "verdict": str(result.verdict) if result.verdict is not None else None,
                        "decision_status": str(result.decision_status),
                        "status": result.status,
                        "stop_reason": result.stop_reason[:STOP_REASON_CHARS],
                        "rounds": result.rounds,
                        "elapsed_ms": result.elapsed_ms,
                        "input_tokens": result.input_tokens,
                        "output_tokens": result.output_tokens,
                        "finished_at": finished_at,
                        "lease_expires_at": None,
                    },
                    slots=slots,
                    optional_slots=self._rule_slot(result.status),
                    connection=connection,
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
            with self.store.transaction() as connection:
                try:
                    with connection.begin_nested():
                        self._write_missing(self._steps, self._results, connection=connection)
                except Exception:
                    logger.exception("could not write the pending steps of failed run %s", self.run_id)
                    self._restore(snapshot)
                values: dict[str, Any] = {
                    "status": FAILED,
                    "stop_reason": reason[:STOP_REASON_CHARS],
                    "finished_at": finished_at,
                    "lease_expires_at": None,
                }
                if self.started_at is not None:
                    values["elapsed_ms"] = (finished_at - self.started_at).total_seconds() * 1000
                # A FAILED run is evaluated too: `execution_failed`, score 0 (docs/design.md §5).
                finalize_run(
                    self.run_id,
                    values,
                    slots={},
                    optional_slots=self._rule_slot(FAILED),
                    connection=connection,
                )
        except BaseException:
            self._restore(snapshot)  # nothing was committed: a retry writes those steps again
            raise
        self.store.heartbeat.release(self.run_id)


# Built once: building a statement per write cost more than executing it (a compiled-cache hit).
# `inline()`: no `RETURNING id` (nothing reads the new surrogate keys), so no result to fetch and
# build on PostgreSQL/MariaDB.
_INSERT_RUN = insert(DiagnosisRun).inline()
_INSERT_STEP = insert(AgentStepRow).inline()
_INSERT_INVOCATION = insert(ToolInvocation).inline()
_READ_CONTAINER = (
    select(type_coerce(DiagnosisRun.self_evaluation, Text))
    .where(DiagnosisRun.run_id == bindparam("b_run_id"))
    .with_for_update()
)
_UPDATE_RUN = update(DiagnosisRun).where(DiagnosisRun.run_id == bindparam("b_run_id"))
"""The columns set are the keys of the parameters it is executed with."""
_UPDATE_RUN_AND_VERSION = _UPDATE_RUN.values(
    self_evaluation_version=DiagnosisRun.self_evaluation_version + bindparam("b_slots_written")
)


def finalize_run(
    run_id: str,
    values: dict[str, Any],
    *,
    slots: dict[SlotName, SlotValue],
    optional_slots: dict[SlotName, SlotValue],
    connection: Connection,
) -> None:
    """Update the run row with `values` and merge self-evaluation slots, in one read-modify-write.

    The container is read under the row lock (`FOR UPDATE`; SQLite: `BEGIN IMMEDIATE`) and written
    back by the same `UPDATE` as `values`, every other slot kept; `self_evaluation_version` grows by
    one per slot written (as one merge per slot would). `slots` must be written: bad stored data or
    a bad value raises `InvalidInputError`. `optional_slots` never stop the update (the rule
    evaluation never fails a run): when they cannot be merged they are logged and left out.
    Raises `NotFoundError` when the run does not exist.
    """
    rows = connection.execute(_READ_CONTAINER, {"b_run_id": run_id}).all()
    if not rows:
        raise NotFoundError(f"unknown run id {run_id!r}")
    what = f"run {run_id} self_evaluation"
    container: dict[str, Any] | None = None
    written = 0
    if slots:
        container = load_container(rows[0][0], what=what)
        for slot, value in slots.items():
            container = put_slot(container, slot, value)
            written += 1
    for slot, value in optional_slots.items():
        try:
            base = load_container(rows[0][0], what=what) if container is None else container
            container = put_slot(base, slot, value)
            written += 1
        except Exception:
            logger.exception("could not merge the %s slot of run %s; it stays missing", slot, run_id)
    params = {**values, "b_run_id": run_id}
    if written:
        params |= {"self_evaluation": container, "b_slots_written": written}
    connection.execute(_UPDATE_RUN_AND_VERSION if written else _UPDATE_RUN, params)


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
        evaluate_rules=evaluate_rules,
    )
    recorder.start()
    return record_execution(recorder, execute, evaluate_rules=evaluate_rules)


def record_execution(
    recorder: RunRecorder, execute: Callable[[RunRecorder], RunResult], *, evaluate_rules: bool = True
) -> RunResult:
    """Execute a started run and finalize it.

    On an exception the run is marked `FAILED` (with what was written) and the exception re-raised;
    when even that cannot reach the store, the heartbeat retries it until the store is back (the run
    is never left `RUNNING` by a live process). The transaction that makes the run final also writes
    its rule evaluation (unless `evaluate_rules` is false); a failure of the rules is only logged.
    """
    recorder.evaluate_rules = evaluate_rules
    try:
        result = execute(recorder)
    except BaseException as exc:
        _fail_or_hand_over(recorder, failure_reason(exc))
        raise
    try:
        recorder.finish(result)
    except Exception as exc:
        _fail_or_hand_over(recorder, f"error: could not finalize: {type(exc).__name__}: {exc}")
        raise
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

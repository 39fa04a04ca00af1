"""Repository functions. Each takes `*, session` (the seam) and never commits: the caller's unit of
work (`Store.session()`) does. Unknown ids raise `NotFoundError`; bad stored data `InvalidInputError`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Text, select, type_coerce, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from groundgate.contracts.verification import RuleEvaluation
from groundgate.evaluation.rule_evaluation import InvocationRecord, evaluate_rules
from groundgate.evaluation.self_evaluation import SlotName, load_container, put_slot
from groundgate.store import NotFoundError
from groundgate.store.tables import CaseLibrary, DiagnosisRun, DiagnosisSession, ToolInvocation


def get_session_row(session_id: str, *, session: Session, lock: bool = False) -> DiagnosisSession:
    stmt = select(DiagnosisSession).where(DiagnosisSession.session_id == session_id)
    if lock:
        stmt = stmt.with_for_update()
    row = session.scalars(stmt).one_or_none()
    if row is None:
        raise NotFoundError(f"unknown session id {session_id!r}")
    return row


def find_session_row(session_id: str, *, session: Session) -> DiagnosisSession | None:
    return session.scalars(
        select(DiagnosisSession).where(DiagnosisSession.session_id == session_id)
    ).one_or_none()


def claim_session(
    session_id: str,
    *,
    tenant: str | None,
    session: Session,
    untenanted: bool = True,
    question: str | None = None,
) -> DiagnosisSession:
    """Find or create `session_id` for `tenant`, in the caller's transaction; another tenant's session
    raises `NotFoundError` ("unknown session id", the answer for any session that is not yours).

    The session is the caller's when its tenant is `tenant`, or when it has none (`tenant` NULL,
    recorded before tenants were stored) and `untenanted` is true. Checking and creating in one
    transaction is what keeps two tenants racing on one new id apart: when two first requests insert
    the same id at once, the loser's insert (in a savepoint) hits the unique key, and the winner's row
    is read with a locking read (MariaDB's REPEATABLE READ snapshot would hide it) and checked like
    any other — same tenant: the session is shared as it should be; another tenant: not yours.
    `question` becomes the session's `query` when it has none yet.
    """
    row = find_session_row(session_id, session=session)
    if row is None:
        created = DiagnosisSession(session_id=session_id, tenant=tenant, query=question)
        try:
            with session.begin_nested():
                session.add(created)
                session.flush()
        except IntegrityError:
            row = session.scalars(
                select(DiagnosisSession).where(DiagnosisSession.session_id == session_id).with_for_update()
            ).one_or_none()
            if row is None:  # not the unique key of a concurrent insert: a real error
                raise
        else:
            return created
    if not (row.tenant == tenant or (row.tenant is None and untenanted)):
        raise NotFoundError(f"unknown session id {session_id!r}")
    if row.query is None and question:
        row.query = question
    return row


def get_run(run_id: str, *, session: Session, lock: bool = False) -> DiagnosisRun:
    stmt = select(DiagnosisRun).where(DiagnosisRun.run_id == run_id)
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    row = session.scalars(stmt).one_or_none()
    if row is None:
        raise NotFoundError(f"unknown run id {run_id!r}")
    return row


def latest_run(session_id: str, *, session: Session) -> DiagnosisRun | None:
    stmt = (
        select(DiagnosisRun)
        .where(DiagnosisRun.session_id == session_id)
        .order_by(DiagnosisRun.id.desc())
        .limit(1)
    )
    return session.scalars(stmt).first()


def list_invocations(run_id: str, *, session: Session) -> list[ToolInvocation]:
    stmt = select(ToolInvocation).where(ToolInvocation.run_id == run_id).order_by(ToolInvocation.id)
    return list(session.scalars(stmt))


def find_bad_cases(*, session: Session, limit: int = 100) -> list[DiagnosisRun]:
    """Runs the user marked `not_useful` (docs/design.md §6), newest first."""
    stmt = (
        select(DiagnosisRun)
        .where(DiagnosisRun.feedback == "not_useful")
        .order_by(DiagnosisRun.id.desc())
        .limit(limit)
    )
    return list(session.scalars(stmt))


def _raw_self_evaluation(run_id: str, *, session: Session, lock: bool) -> object:
    stmt = select(type_coerce(DiagnosisRun.self_evaluation, Text)).where(DiagnosisRun.run_id == run_id)
    if lock:
        stmt = stmt.with_for_update()
    rows = session.execute(stmt).all()
    if not rows:
        raise NotFoundError(f"unknown run id {run_id!r}")
    return rows[0][0]


def read_self_evaluation(run_id: str, *, session: Session) -> dict[str, Any]:
    """The run's container, legacy flat JSON wrapped into its slots (nothing is written)."""
    return load_container(
        _raw_self_evaluation(run_id, session=session, lock=False), what=f"run {run_id} self_evaluation"
    )


def read_session_self_evaluation(session_id: str, *, session: Session) -> dict[str, Any]:
    """Legacy `diagnosis_session.self_evaluation` (read only; new runs write `diagnosis_run`)."""
    stmt = select(type_coerce(DiagnosisSession.self_evaluation, Text)).where(
        DiagnosisSession.session_id == session_id
    )
    rows = session.execute(stmt).all()
    if not rows:
        raise NotFoundError(f"unknown session id {session_id!r}")
    return load_container(rows[0][0], what=f"session {session_id} self_evaluation")


SlotValue = BaseModel | dict[str, Any]
SlotUpdate = SlotValue | Callable[[dict[str, Any] | None], SlotValue]


def merge_self_evaluation_slot(
    run_id: str, slot: SlotName, value: SlotUpdate, *, session: Session
) -> dict[str, Any]:
    """Read-modify-write one writer's slot under a row lock; every other slot is kept.

    PostgreSQL/MariaDB: `SELECT … FOR UPDATE`; SQLite: the transaction began with `BEGIN IMMEDIATE`.
    `value` is the new slot, or a function of the current slot (None when absent) that returns it.
    Bad stored data raises `InvalidInputError` before anything is written.
    """
    raw = _raw_self_evaluation(run_id, session=session, lock=True)
    container = load_container(raw, what=f"run {run_id} self_evaluation")
    if callable(value):
        current = container.get(slot)
        value = value(dict(current) if isinstance(current, dict) else None)
    merged = put_slot(container, slot, value)
    session.execute(
        update(DiagnosisRun)
        .where(DiagnosisRun.run_id == run_id)
        .values(self_evaluation=merged, self_evaluation_version=DiagnosisRun.self_evaluation_version + 1)
        .execution_options(synchronize_session=False)
    )
    return merged


def compute_rule_evaluation(run_id: str, *, session: Session) -> RuleEvaluation:
    """`EvaluationService`: the rule table over this run's `tool_invocation` rows."""
    run = get_run(run_id, session=session)
    records = [
        InvocationRecord.from_row(tool=row.tool, status=row.status, retrieval_details=row.retrieval_details)
        for row in list_invocations(run_id, session=session)
    ]
    return evaluate_rules(records, run_status=run.status)


def find_case(diagnosis_id: str, *, session: Session, lock: bool = False) -> CaseLibrary | None:
    stmt = select(CaseLibrary).where(CaseLibrary.diagnosis_id == diagnosis_id)
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    return session.scalars(stmt).one_or_none()


def insert_case_once(fields: dict[str, Any], *, session: Session) -> tuple[CaseLibrary, bool]:
    """Insert a case unless one exists for `diagnosis_id`; safe when two requests race.

    Returns (case, created). The insert runs in a savepoint: a unique-key conflict with a
    concurrent insert rolls back only the savepoint, then the winner's row is read (locking read,
    so MariaDB's REPEATABLE READ snapshot does not hide it).
    """
    diagnosis_id = str(fields["diagnosis_id"])
    existing = find_case(diagnosis_id, session=session)
    if existing is not None:
        return existing, False
    case = CaseLibrary(case_id=str(uuid.uuid4()), **fields)
    try:
        with session.begin_nested():
            session.add(case)
            session.flush()
    except IntegrityError:
        winner = find_case(diagnosis_id, session=session, lock=True)
        if winner is None:
            raise
        return winner, False
    return case, True

"""Repository functions. Each takes `*, session` (the seam) and never commits: the caller's unit of
work (`Store.session()`) does. Unknown ids raise `NotFoundError`; bad stored data `InvalidInputError`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Connection, Text, bindparam, insert, select, type_coerce, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from groundgate.contracts.verification import RuleEvaluation
from groundgate.errors import NotFoundError, StoreError
from groundgate.evaluation.rule_evaluation import InvocationRecord, evaluate_rules
from groundgate.evaluation.self_evaluation import SlotName, load_container, put_slot
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
) -> None:
    """Find or create `session_id` for `tenant`, in the caller's transaction; another tenant's session
    raises `NotFoundError` ("unknown session id", the answer for any session that is not yours).

    The session is the caller's when its tenant is `tenant`, or when it has none (`tenant` NULL,
    recorded before tenants were stored) and `untenanted` is true. Checking and creating in one
    transaction is what keeps two tenants racing on one new id apart: when two first requests insert
    the same id at once, the loser's insert hits the unique key (PostgreSQL: does nothing, `ON
    CONFLICT`; MariaDB: fails inside a savepoint), and the winner's row is read with a locking read
    (MariaDB's REPEATABLE READ snapshot would hide it) and checked like any other — same tenant: the
    session is shared as it should be; another tenant: not yours. `question` becomes the session's
    `query` when it has none yet. Core statements on the session's connection (`claim_session_core`).
    """
    session_pk = claim_session_core(
        session_id, tenant=tenant, untenanted=untenanted, question=question, connection=session.connection()
    )
    if session_pk is not None and question:
        set_session_query(session_pk, question, connection=session.connection())


def _check_owner(session_id: str, owner: str | None, *, tenant: str | None, untenanted: bool) -> None:
    """The one rule of `claim_session` and `claim_session_core`: yours, or "unknown session id"."""
    if not (owner == tenant or (owner is None and untenanted)):
        raise NotFoundError(f"unknown session id {session_id!r}")


_SESSION_OWNER = select(DiagnosisSession.id, DiagnosisSession.tenant, DiagnosisSession.query).where(
    DiagnosisSession.session_id == bindparam("b_session_id")
)
_INSERT_SESSION = insert(DiagnosisSession)
_INSERT_SESSION_PG = (
    postgresql.insert(DiagnosisSession)
    .on_conflict_do_nothing(index_elements=["session_id"])
    .returning(DiagnosisSession.id)
)
"""Returns the new row's id, or no row when the id exists (`rowcount` is not reliable here)."""
_SET_SESSION_QUERY = (
    update(DiagnosisSession)
    .where(DiagnosisSession.id == bindparam("b_id"))
    .values(query=bindparam("b_query"))
)
"""By primary key, as the ORM does: on MariaDB an update through the `session_id` index would wait
for the shared lock a racing request's duplicate-key insert holds on that entry, while that request
waits to upgrade it for its locking read (a deadlock)."""


def claim_session_core(
    session_id: str,
    *,
    tenant: str | None,
    connection: Connection,
    untenanted: bool = True,
    question: str | None = None,
) -> int | None:
    """`claim_session` in Core statements, for the run recorder's `start()` (the ORM's objects and
    flush cost more than the statements): the same rule, the same race handling.

    Returns the session's primary key when its `query` is still to be set to `question`: the caller
    does it with `set_session_query` after inserting its run. That order matters on MariaDB: the
    run's foreign-key check waits for a racing request that holds the session's `session_id` index
    entry and wants its primary-key row; updating the row first would hold that row (a deadlock).

    SQLite needs no savepoint around the insert: its transactions begin with `BEGIN IMMEDIATE`, so
    no other writer can insert the id between the read and the insert."""
    row = connection.execute(_SESSION_OWNER, {"b_session_id": session_id}).first()
    if row is None:
        created = {"session_id": session_id, "tenant": tenant, "query": question}
        backend = connection.dialect.name
        conflict: IntegrityError | None = None
        if backend == "sqlite":
            connection.execute(_INSERT_SESSION, created)
            return None
        if backend == "postgresql":
            # One statement instead of a savepoint around the insert (three round trips): a
            # concurrent insert of the same id makes it wait for that transaction, then do nothing.
            if connection.execute(_INSERT_SESSION_PG, created).first() is not None:
                return None
        else:
            try:
                with connection.begin_nested():
                    connection.execute(_INSERT_SESSION, created)
            except IntegrityError as exc:
                conflict = exc
            else:
                return None
        # A concurrent first request won: read its row with a locking read (MariaDB's REPEATABLE
        # READ snapshot would hide it) and check it like any other.
        row = connection.execute(_SESSION_OWNER.with_for_update(), {"b_session_id": session_id}).first()
        if row is None:  # not the unique key of a concurrent insert: a real error
            if conflict is not None:
                raise conflict
            raise StoreError(f"session {session_id!r} could neither be created nor read")
    _check_owner(session_id, row.tenant, tenant=tenant, untenanted=untenanted)
    return int(row.id) if row.query is None and question else None


def set_session_query(session_pk: int, question: str, *, connection: Connection) -> None:
    """Set the `query` of the session whose primary key `claim_session_core` returned."""
    connection.execute(_SET_SESSION_QUERY, {"b_id": session_pk, "b_query": question})


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

"""Reading runs, tenant-scoped: the one place the tenant rule for stored runs is written down.

The rule (used by the API, the CLI and the other readers in `apps/`):

- `tenant=None` is the local operator (the CLI): whoever can run it holds the store itself, so every
  tenant's runs are visible.
- `tenant="acme"` sees the sessions recorded for `acme`. Sessions recorded without a tenant (`tenant`
  NULL: before tenants were stored, or by a script that sets none) belong to nobody: they are visible
  only with `include_untenanted=True` — the service's local mode (no API keys: one user on a loopback
  address, the same person as the CLI). A multi-tenant service passes False, since it cannot tell
  whose they are.
- What is not visible is "unknown" (`NotFoundError`), the same answer as for an id that does not
  exist: telling them apart would reveal another tenant's ids.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy import Select, or_, select
from sqlalchemy.orm import Session

from groundgate.errors import InvalidInputError, NotFoundError
from groundgate.store import Store
from groundgate.store.repositories import find_session_row
from groundgate.store.tables import DiagnosisRun, DiagnosisSession

__all__ = [
    # the rule
    "check_session_visible",
    "tenant_session_ids",
    "visible",
    # feedback values
    "FEEDBACK_VALUES",
    "check_feedback_value",
    # reading
    "MAX_LIST_LIMIT",
    "RUN_STATUSES",
    "RunSummary",
    "check_limit",
    "list_runs",
    "utc",
]

MAX_LIST_LIMIT = 1000
RUN_STATUSES = ("RUNNING", "SUCCEEDED", "FAILED")


def utc(value: datetime | None) -> datetime | None:
    """A stored timestamp as an aware UTC datetime (SQLite and MariaDB hand them back naive)."""
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class RunSummary(BaseModel):
    """One run in a list: what `GET /api/runs` answers and `groundgate runs --json` prints."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    run_id: str
    session_id: str
    query: str
    mode: str
    status: str
    output_kind: str | None = None
    verdict: str | None = None
    feedback: str | None = None
    stop_reason: str | None = None
    elapsed_ms: float = 0.0
    started_at: datetime | None = None
    created_at: datetime | None = None

    @classmethod
    def from_row(cls, row: DiagnosisRun) -> RunSummary:
        return cls(
            run_id=row.run_id,
            session_id=row.session_id,
            query=row.query,
            mode=row.mode,
            status=row.status,
            output_kind=row.output_kind,
            verdict=row.verdict,
            feedback=row.feedback,
            stop_reason=row.stop_reason,
            elapsed_ms=row.elapsed_ms,
            started_at=utc(row.started_at),
            created_at=utc(row.created_at),
        )


def visible(row_tenant: str | None, tenant: str | None, *, include_untenanted: bool) -> bool:
    """Whether a session recorded for `row_tenant` may be shown to `tenant` (see the module docstring)."""
    if tenant is None:
        return True
    return row_tenant == tenant or (row_tenant is None and include_untenanted)


def tenant_session_ids(tenant: str, *, include_untenanted: bool) -> Select[Any]:
    """The ids of the sessions `tenant` may see, as a subquery."""
    mine = DiagnosisSession.tenant == tenant
    return select(DiagnosisSession.session_id).where(
        or_(mine, DiagnosisSession.tenant.is_(None)) if include_untenanted else mine
    )


def check_session_visible(
    session_id: str, *, session: Session, tenant: str | None, include_untenanted: bool
) -> None:
    """`NotFoundError` unless `session_id` exists and `tenant` may see it."""
    row = find_session_row(session_id, session=session)
    if row is None or not visible(row.tenant, tenant, include_untenanted=include_untenanted):
        raise NotFoundError(f"unknown session id {session_id!r}")


def check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_LIST_LIMIT:
        raise InvalidInputError(f"limit must be between 1 and {MAX_LIST_LIMIT}; got {limit}")


FEEDBACK_VALUES = ("useful", "not_useful")


def check_feedback_value(feedback: str) -> None:
    """`InvalidInputError` (HTTP 400, CLI exit 2) for anything but `useful` / `not_useful`."""
    if feedback not in FEEDBACK_VALUES:
        raise InvalidInputError(f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")


def list_runs(
    store: Store,
    *,
    tenant: str | None,
    session_id: str | None = None,
    status: str | None = None,
    feedback: str | None = None,
    limit: int = 50,
    include_untenanted: bool = False,
) -> list[RunSummary]:
    """The runs `tenant` may see, newest first; optionally of one session, one execution `status`
    (`RUNNING`, `SUCCEEDED`, `FAILED`) and/or one `feedback` (`not_useful`: the bad cases).

    A `session_id` the tenant may not see is `NotFoundError`, not an empty list (an empty list would
    say the session exists)."""
    check_limit(limit)
    if status is not None and status not in RUN_STATUSES:
        raise InvalidInputError(f"status must be one of {', '.join(RUN_STATUSES)}; got {status!r}")
    if feedback is not None:
        check_feedback_value(feedback)
    stmt = select(DiagnosisRun).order_by(DiagnosisRun.id.desc()).limit(limit)
    if tenant is not None:
        stmt = stmt.where(
            DiagnosisRun.session_id.in_(tenant_session_ids(tenant, include_untenanted=include_untenanted))
        )
    if session_id is not None:
        stmt = stmt.where(DiagnosisRun.session_id == session_id)
    if status is not None:
        stmt = stmt.where(DiagnosisRun.status == status)
    if feedback is not None:
        stmt = stmt.where(DiagnosisRun.feedback == feedback)
    with store.session() as session:
        if session_id is not None:
            check_session_visible(
                session_id, session=session, tenant=tenant, include_untenanted=include_untenanted
            )
        return [RunSummary.from_row(row) for row in session.scalars(stmt)]

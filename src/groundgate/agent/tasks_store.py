"""The per-user task table the `MY_CURRENT_TASKS` tool reads (the HR platform's live tasks).

One SQLAlchemy Core table, `agent_task`, on the run store's database (SQLite, PostgreSQL, MySQL):
created by the additive Alembic revision `0004` (`store/migrations/versions/r0004_agent_tasks.py`),
or by `TaskStore.create_schema()` for an engine the migrations never ran on (an in-memory test
database). Its metadata is its own, not the run store's ORM `Base`, so the store package does not
need to know about the agent.

Every read is scoped by tenant, assignee and project — values that come only from the
`ExecutionContext` — so a task of another user or project cannot be read, whatever was asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Final

from sqlalchemy import (
    Column,
    Connection,
    Date,
    DateTime,
    Engine,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
)
from sqlalchemy import select as sa_select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from groundgate.errors import StoreError

if TYPE_CHECKING:
    from groundgate.store import Store

__all__ = ["OPEN_STATUSES", "TASK_STATUSES", "TASK_TABLE", "TaskRow", "TaskStore", "agent_metadata"]

agent_metadata = MetaData()

#: Statuses a task may have; `OPEN_STATUSES` are what "my tasks" means when no status is asked.
TASK_STATUSES: Final = ("PENDING", "IN_PROGRESS", "COMPLETED")
OPEN_STATUSES: Final = ("PENDING", "IN_PROGRESS")

TASK_TABLE = Table(
    "agent_task",
    agent_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(128), nullable=False),
    Column("project", String(128), nullable=True),
    Column("assignee", String(128), nullable=False),
    Column("task_key", String(64), nullable=False),
    Column("title", String(512), nullable=False),
    Column("category", String(64), nullable=True),
    Column("status", String(32), nullable=False),
    Column("due_date", Date, nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_agent_task_owner", "tenant", "assignee", "project"),
    Index("uq_agent_task_key", "tenant", "task_key", unique=True),
)


@dataclass(frozen=True, slots=True)
class TaskRow:
    """One task as stored."""

    tenant: str
    assignee: str
    task_key: str
    title: str
    status: str
    project: str | None = None
    category: str | None = None
    due_date: date | None = None


class TaskStore:
    """Reads and loads `agent_task` rows on a run store's database (or a bare engine)."""

    def __init__(self, target: Engine | Store) -> None:
        """`target`: a run `Store` (its transactions queue with the store's others, on SQLite too), or a
        bare engine (an in-memory test database)."""
        self._store = None if isinstance(target, Engine) else target
        self._engine = target if isinstance(target, Engine) else target.engine

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        if self._store is not None:
            with self._store.transaction() as connection:
                yield connection
        else:
            with self._engine.begin() as connection:
                yield connection

    @classmethod
    def in_memory(cls) -> TaskStore:
        """A private in-memory SQLite database with the table created (tests, the golden set)."""
        engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
        store = cls(engine)
        store.create_schema()
        return store

    @property
    def engine(self) -> Engine:
        return self._engine

    def create_schema(self) -> None:
        """Create the table where migrations never ran (idempotent)."""
        try:
            agent_metadata.create_all(self._engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"database error while creating agent_task: {exc}") from exc

    def replace_all(self, tenant: str, rows: Iterable[TaskRow]) -> int:
        """Replace one tenant's tasks (the demo loader); returns how many were stored."""
        now = datetime.now(UTC)
        values = [
            {
                "tenant": tenant,
                "project": r.project,
                "assignee": r.assignee,
                "task_key": r.task_key,
                "title": r.title,
                "category": r.category,
                "status": r.status,
                "due_date": r.due_date,
                "updated_at": now,
            }
            for r in rows
        ]
        try:
            with self._engine.begin() as connection:
                connection.execute(TASK_TABLE.delete().where(TASK_TABLE.c.tenant == tenant))
                if values:
                    connection.execute(TASK_TABLE.insert(), values)
        except SQLAlchemyError as exc:
            raise StoreError(f"database error while loading tasks: {exc}") from exc
        return len(values)

    def tasks(
        self,
        *,
        tenant: str,
        assignee: str,
        project: str | None,
        start: date | None = None,
        end: date | None = None,
        statuses: Sequence[str] = OPEN_STATUSES,
    ) -> list[TaskRow]:
        """The assignee's tasks in the tenant (and project, when one is set), ordered by due date."""
        t = TASK_TABLE.c
        query = sa_select(TASK_TABLE).where(t.tenant == tenant, t.assignee == assignee)
        if project is not None:
            query = query.where(t.project == project)
        if statuses:
            query = query.where(t.status.in_(list(statuses)))
        if start is not None:
            query = query.where(t.due_date >= start)
        if end is not None:
            query = query.where(t.due_date <= end)
        query = query.order_by(t.due_date, t.task_key)
        try:
            with self._connection() as connection:
                rows = connection.execute(query).mappings().all()
        except SQLAlchemyError as exc:
            raise StoreError(f"database error while reading tasks: {exc}") from exc
        return [
            TaskRow(
                tenant=row["tenant"],
                assignee=row["assignee"],
                task_key=row["task_key"],
                title=row["title"],
                status=row["status"],
                project=row["project"],
                category=row["category"],
                due_date=row["due_date"],
            )
            for row in rows
        ]

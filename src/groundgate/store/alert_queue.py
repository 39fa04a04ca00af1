"""The durable queue of received alerts (issue 14): one row per alert episode, claimed by workers.

One Core table, `alert_episode`, on the run store's database (created by the additive Alembic
revision `0005`, `store/migrations/versions/r0005_alert_queue.py`; its metadata is its own, like
`agent_task`'s). A row is one firing episode of one alert of one tenant — the webhook's dedup key,
fingerprint + `startsAt` (`groundgate.aiops.webhook.WebhookAlert.dedup_key`) — so:

- `enqueue` of a notification inserts a `QUEUED` row per new firing episode and only counts the
  repeats of a known one (Alertmanager re-sends a group every `repeat_interval`); a resolved
  notification sets `resolved_at` on its episode's row (the row names the diagnosis run), or records
  the episode as `RESOLVED` without a diagnosis when its firing notification was never received.
  A notification is accepted only once its rows are committed: a restart loses nothing accepted.
- `claim` hands a worker the oldest `QUEUED` rows — and `RUNNING` rows whose claim expired (a worker
  that died) — marking them `RUNNING` with the worker's id and a deadline. On PostgreSQL and
  MariaDB the rows are read `FOR UPDATE SKIP LOCKED`, so several workers (processes) share the queue
  without taking the same row or waiting on each other; SQLite serialises writers (`BEGIN IMMEDIATE`).
- `finish` marks a row `DONE` with its run id; `fail` puts it back to `QUEUED` until `max_attempts`,
  then `FAILED`. Only the worker holding the claim may finish it (a late worker whose claim was taken
  over changes nothing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import mysql
from sqlalchemy.exc import IntegrityError

if TYPE_CHECKING:
    from groundgate.store.engine import Store

__all__ = [
    "ALERT_EPISODE",
    "AlertQueue",
    "EnqueueReport",
    "QueuedAlert",
]

TABLE: Final = "alert_episode"
QUEUED, RUNNING, DONE, FAILED, RESOLVED = "QUEUED", "RUNNING", "DONE", "FAILED", "RESOLVED"
_Timestamp = DateTime(timezone=True).with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")

METADATA = MetaData()
ALERT_EPISODE = Table(
    TABLE,
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tenant", String(128), nullable=False),
    Column("dedup_key", String(160), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("alertname", String(256), nullable=False),
    Column("group_key", Text, nullable=False),
    Column("starts_at", _Timestamp, nullable=False),
    Column("alert", JSON, nullable=False),
    Column("others", JSON, nullable=False),
    Column("status", String(16), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("notifications", Integer, nullable=False, default=1),
    Column("run_id", String(64), nullable=True),
    Column("error", Text, nullable=True),
    Column("claimed_by", String(128), nullable=True),
    Column("claimed_until", _Timestamp, nullable=True),
    Column("received_at", _Timestamp, nullable=False),
    Column("updated_at", _Timestamp, nullable=False),
    Column("resolved_at", _Timestamp, nullable=True),
    Index("uq_alert_episode_key", "tenant", "dedup_key", unique=True),
    Index("ix_alert_episode_status", "status", "id"),
)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class QueuedAlert:
    """A claimed alert: what the worker diagnoses."""

    id: int
    tenant: str
    dedup_key: str
    alert: dict[str, Any]
    """The alert as Alertmanager sent it (camelCase keys: `labels`, `startsAt`, `generatorURL`, …)."""
    others: list[dict[str, Any]]
    """The other alerts of the same notification (label sets), for the focus check."""
    attempts: int


@dataclass(slots=True)
class EnqueueReport:
    """What one notification changed."""

    queued: list[str]
    """Dedup keys of the new firing episodes (each diagnosed once)."""
    duplicates: list[str]
    resolved: list[str]
    """Dedup keys whose resolution was recorded."""


def _alert_json(alert: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(alert.model_dump_json(by_alias=True))
    return data


class AlertQueue:
    """The `alert_episode` table of a run store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.store.transaction() as connection:
            yield connection

    def create_schema(self) -> None:
        """Create the table on a database the migrations never ran on (tests)."""
        METADATA.create_all(self.store.engine)

    # intake -----------------------------------------------------------------

    def enqueue(self, webhook: Any, *, tenant: str) -> EnqueueReport:
        """Record one notification (`AlertmanagerWebhook`) in one transaction (see the module doc)."""
        report = EnqueueReport([], [], [])
        now = _now()
        firing = webhook.firing()
        labels_of = [dict(a.labels) for a in webhook.alerts]
        with self._tx() as connection:
            for alert in firing:
                others = [
                    labels for labels, a in zip(labels_of, webhook.alerts, strict=True) if a is not alert
                ]
                row = {
                    "tenant": tenant,
                    "dedup_key": alert.dedup_key,
                    "fingerprint": alert.fingerprint.lower(),
                    "alertname": alert.alertname[:256],
                    "group_key": webhook.group_key,
                    "starts_at": alert.starts_at,
                    "alert": _alert_json(alert),
                    "others": others,
                    "status": QUEUED,
                    "attempts": 0,
                    "notifications": 1,
                    "received_at": now,
                    "updated_at": now,
                }
                if self._insert_once(connection, row):
                    report.queued.append(alert.dedup_key)
                else:
                    report.duplicates.append(alert.dedup_key)
            for alert in webhook.resolved():
                resolved_at = alert.ends_at or now
                changed = connection.execute(
                    update(ALERT_EPISODE)
                    .where(ALERT_EPISODE.c.tenant == tenant, ALERT_EPISODE.c.dedup_key == alert.dedup_key)
                    .values(
                        resolved_at=resolved_at,
                        updated_at=now,
                        notifications=ALERT_EPISODE.c.notifications + 1,
                    )
                ).rowcount
                if not changed:
                    self._insert_once(
                        connection,
                        {
                            "tenant": tenant,
                            "dedup_key": alert.dedup_key,
                            "fingerprint": alert.fingerprint.lower(),
                            "alertname": alert.alertname[:256],
                            "group_key": webhook.group_key,
                            "starts_at": alert.starts_at,
                            "alert": _alert_json(alert),
                            "others": [],
                            "status": RESOLVED,
                            "attempts": 0,
                            "notifications": 1,
                            "received_at": now,
                            "updated_at": now,
                            "resolved_at": resolved_at,
                        },
                    )
                report.resolved.append(alert.dedup_key)
        return report

    @staticmethod
    def _insert_once(connection: Connection, row: dict[str, Any]) -> bool:
        """Insert the episode, or count one more notification of it; True when inserted."""
        key = (ALERT_EPISODE.c.tenant == row["tenant"]) & (ALERT_EPISODE.c.dedup_key == row["dedup_key"])
        exists = connection.execute(select(ALERT_EPISODE.c.id).where(key)).first()
        if exists is None:
            try:
                # A savepoint: a concurrent insert of the same episode (another process) loses the
                # race on the unique index and becomes a repeat, not an error.
                with connection.begin_nested():
                    connection.execute(insert(ALERT_EPISODE).values(**row))
                return True
            except IntegrityError:
                pass
        connection.execute(
            update(ALERT_EPISODE)
            .where(key)
            .values(notifications=ALERT_EPISODE.c.notifications + 1, updated_at=row["updated_at"])
        )
        return False

    # workers ------------------------------------------------------------------

    def claim(self, worker: str, *, limit: int = 1, claim_seconds: float = 300.0) -> list[QueuedAlert]:
        """Claim up to `limit` alerts for `worker` (oldest first; expired claims too)."""
        now = _now()
        table = ALERT_EPISODE
        claimable = or_(
            table.c.status == QUEUED,
            and_(table.c.status == RUNNING, table.c.claimed_until < now),
        )
        query = (
            select(
                table.c.id, table.c.tenant, table.c.dedup_key, table.c.alert, table.c.others, table.c.attempts
            )
            .where(claimable)
            .order_by(table.c.id)
            .limit(limit)
            # PostgreSQL / MariaDB: rows another worker holds are skipped, not waited for; SQLite
            # ignores it (its writers are serialised).
            .with_for_update(skip_locked=True)
        )
        with self._tx() as connection:
            rows = connection.execute(query).all()
            if not rows:
                return []
            connection.execute(
                update(table)
                .where(table.c.id.in_([r.id for r in rows]))
                .values(
                    status=RUNNING,
                    claimed_by=worker,
                    claimed_until=now + timedelta(seconds=claim_seconds),
                    attempts=table.c.attempts + 1,
                    updated_at=now,
                )
            )
        return [
            QueuedAlert(
                id=r.id,
                tenant=r.tenant,
                dedup_key=r.dedup_key,
                alert=_json(r.alert),
                others=list(_json(r.others) or []),
                attempts=r.attempts + 1,
            )
            for r in rows
        ]

    def finish(self, item: QueuedAlert, worker: str, *, run_id: str) -> bool:
        """Mark a claimed alert `DONE` with its run; False when the claim was no longer this worker's."""
        with self._tx() as connection:
            return bool(
                connection.execute(
                    update(ALERT_EPISODE)
                    .where(
                        ALERT_EPISODE.c.id == item.id,
                        ALERT_EPISODE.c.claimed_by == worker,
                        ALERT_EPISODE.c.status == RUNNING,
                    )
                    .values(status=DONE, run_id=run_id, claimed_until=None, updated_at=_now(), error=None)
                ).rowcount
            )

    def fail(
        self, item: QueuedAlert, worker: str, *, error: str, max_attempts: int, run_id: str | None = None
    ) -> None:
        """Put a claimed alert back in the queue, or mark it `FAILED` after `max_attempts`."""
        status = FAILED if item.attempts >= max_attempts else QUEUED
        with self._tx() as connection:
            connection.execute(
                update(ALERT_EPISODE)
                .where(ALERT_EPISODE.c.id == item.id, ALERT_EPISODE.c.claimed_by == worker)
                .values(
                    status=status, error=error[:2000], claimed_until=None, updated_at=_now(), run_id=run_id
                )
            )

    # reads ----------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        """Rows per status."""
        with self._tx() as connection:
            rows = connection.execute(
                select(ALERT_EPISODE.c.status, func.count()).group_by(ALERT_EPISODE.c.status)
            ).all()
        return {str(status): int(n) for status, n in rows}

    def episodes(self, *, tenant: str | None = None, limit: int = 1000) -> list[dict[str, Any]]:
        """Episodes, newest first (the alert view; tests)."""
        query = select(ALERT_EPISODE).order_by(ALERT_EPISODE.c.id.desc()).limit(limit)
        if tenant is not None:
            query = query.where(ALERT_EPISODE.c.tenant == tenant)
        with self._tx() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def pending(self) -> int:
        """Alerts waiting or being diagnosed."""
        counts = self.counts()
        return counts.get(QUEUED, 0) + counts.get(RUNNING, 0)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def statuses() -> Sequence[str]:
    return (QUEUED, RUNNING, DONE, FAILED, RESOLVED)

"""Received alerts (issue 14): webhook intake into the durable queue, and the workers that diagnose them.

- `receive_webhook`: parse an Alertmanager notification (`InvalidInputError` → 400, nothing stored)
  and record it in the queue (`groundgate.store.alert_queue`): one diagnosis per new firing
  episode, repeats counted, resolutions recorded against their episode (and so their diagnosis run).
- `AlertWorker`: `concurrency` threads that claim queued alerts and diagnose each through
  `groundgate.apps.diagnosis` — bounded concurrency, so a storm of notifications waits in the queue
  instead of becoming hundreds of simultaneous runs (the endpoint only writes rows and answers at
  once). A diagnosis that raises is put back in the queue until `max_attempts`, then `FAILED`.
  `groundgate serve` starts one when `[aiops] webhook_token` is set; `drain()` empties the queue in the
  calling thread (tests, scripts).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from groundgate.aiops.webhook import WebhookAlert, parse_webhook
from groundgate.contracts import ExecutionContext
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.store import Store
from groundgate.store.alert_queue import AlertQueue, EnqueueReport, QueuedAlert

__all__ = [
    "AlertEpisodeSummary",
    "AlertWorker",
    "WorkerOptions",
    "diagnosis_handler",
    "list_alert_episodes",
    "receive_webhook",
    "webhook_context",
]

logger = logging.getLogger(__name__)

Handler = Callable[[QueuedAlert], str]
"""Diagnoses one queued alert; returns the run id."""


def receive_webhook(queue: AlertQueue, body: bytes | str, *, tenant: str) -> EnqueueReport:
    """Parse and record one notification; `InvalidInputError` (nothing stored) when it is not one."""
    return queue.enqueue(parse_webhook(body), tenant=tenant)


def webhook_context(tenant: str) -> ExecutionContext:
    """Who a received alert's diagnosis runs as: the configured tenant, the `alertmanager` user."""
    return ExecutionContext(tenant=tenant, user="alertmanager", roles=("sre",))


def diagnosis_handler(store: Store, orchestrator: Orchestrator) -> Handler:
    """A handler that diagnoses a queued alert as a recorded run of its tenant."""
    from groundgate.apps.diagnosis import diagnose_recorded

    def handle(item: QueuedAlert) -> str:
        alert = WebhookAlert.model_validate(item.alert)
        others = [labels for labels in item.others if isinstance(labels, dict)]
        diagnosis = diagnose_recorded(store, orchestrator, alert, webhook_context(item.tenant), others=others)
        return diagnosis.run.run_id

    return handle


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    concurrency: int = 2
    poll_seconds: float = 1.0
    claim_seconds: float = 300.0
    max_attempts: int = 3


class AlertWorker:
    """Drains the queue with at most `options.concurrency` diagnoses at once."""

    def __init__(self, queue: AlertQueue, handler: Handler, options: WorkerOptions | None = None) -> None:
        self.queue = queue
        self.handler = handler
        self.options = options or WorkerOptions()
        self.worker_id = f"worker-{uuid.uuid4().hex[:12]}"
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for n in range(self.options.concurrency):
            thread = threading.Thread(target=self._loop, name=f"alert-worker-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def wake(self) -> None:
        """New alerts were queued: look now instead of at the next poll."""
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the diagnoses in progress (claimed, unfinished ones are claimed again later)."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                worked = self.step()
            except Exception:
                # The store is down, say: the rows stay queued; try again at the next poll.
                logger.exception("alert worker: claiming failed")
                worked = False
            if not worked:
                self._wake.wait(self.options.poll_seconds)
                self._wake.clear()

    def step(self) -> bool:
        """Claim and diagnose one alert; False when the queue had none."""
        claimed = self.queue.claim(self.worker_id, limit=1, claim_seconds=self.options.claim_seconds)
        if not claimed:
            return False
        item = claimed[0]
        try:
            run_id = self.handler(item)
        except Exception as exc:
            logger.exception("diagnosis of alert %s failed", item.dedup_key)
            self.queue.fail(
                item,
                self.worker_id,
                error=f"{type(exc).__name__}: {exc}",
                max_attempts=self.options.max_attempts,
            )
            return True
        self.queue.finish(item, self.worker_id, run_id=run_id)
        return True

    def drain(self, *, limit: int | None = None) -> int:
        """Diagnose queued alerts in this thread until none is left (or `limit`); how many were taken."""
        taken = 0
        while (limit is None or taken < limit) and self.step():
            taken += 1
        return taken


class AlertEpisodeSummary(BaseModel):
    """One received alert episode (fingerprint + startsAt) as the API and the page's Alerts view show
    it: where its diagnosis stands and the run to open."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    alertname: str
    fingerprint: str
    starts_at: datetime | None = Field(alias="startsAt")
    status: str
    """`QUEUED`, `RUNNING`, `DONE`, `FAILED` or `RESOLVED`."""
    run_id: str | None = Field(default=None, alias="runId")
    """The diagnosis run (open it with `GET /api/trace/{runId}`)."""
    notifications: int
    """How many notifications of this episode arrived (repeats are counted, not re-diagnosed)."""
    resolved_at: datetime | None = Field(default=None, alias="resolvedAt")
    error: str | None = None


def list_alert_episodes(store: Store, *, tenant: str, limit: int = 100) -> list[AlertEpisodeSummary]:
    """The tenant's alert episodes, newest first (another tenant's are never listed)."""
    return [
        AlertEpisodeSummary(
            alertname=row["alertname"],
            fingerprint=row["fingerprint"],
            starts_at=row["starts_at"],
            status=row["status"],
            run_id=row["run_id"],
            notifications=row["notifications"],
            resolved_at=row["resolved_at"],
            error=row["error"],
        )
        for row in AlertQueue(store).episodes(tenant=tenant, limit=limit)
    ]

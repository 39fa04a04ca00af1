"""The durable alert queue (issue 14): deduplication, resolutions, claims, and a storm across a restart.

The handler here is a stand-in that records which episode it was given (the diagnosis itself is
tested in `test_aiops_diagnosis.py`): the queue's contract is that each new firing episode is handed
out exactly once, whatever the notifications repeat, and that nothing accepted is lost when the
process stops and a new one opens the same store.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _databases import BACKENDS, database_url
from groundgate.aiops.webhook import parse_webhook
from groundgate.apps.alerts import AlertWorker, WorkerOptions, receive_webhook
from groundgate.errors import InvalidInputError
from groundgate.store import open_store
from groundgate.store.alert_queue import AlertQueue, QueuedAlert


def notification(group: int, *, status: str = "firing", alerts: int = 1) -> dict[str, Any]:
    """A version-4 notification of alert group `group` with `alerts` alerts (fixed episodes)."""
    items = [
        {
            "status": status,
            "labels": {"alertname": f"Alert{group}", "service": f"svc-{group}", "instance": f"i{n}"},
            "annotations": {"summary": f"group {group}"},
            "startsAt": "2026-03-21T09:15:00Z",
            "endsAt": "2026-03-21T09:40:00Z" if status == "resolved" else "0001-01-01T00:00:00Z",
            "generatorURL": "",
            "fingerprint": f"{group:08x}{n:08x}",
        }
        for n in range(alerts)
    ]
    return {
        "version": "4",
        "groupKey": f'{{}}:{{alertname="Alert{group}"}}',
        "status": status,
        "receiver": "groundgate",
        "alerts": items,
    }


class Recorder:
    """A handler that notes each episode it diagnoses (thread-safe) and returns a run id."""

    def __init__(self, delay: float = 0.0) -> None:
        self.seen: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.delay = delay

    def __call__(self, item: QueuedAlert) -> str:
        if self.delay:
            time.sleep(self.delay)
        with self.lock:
            self.seen[item.dedup_key] += 1
        return f"run-{item.id}"


def test_a_repeated_notification_queues_its_alert_once(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        first = queue.enqueue(parse_webhook(notification(1)), tenant="acme")
        again = queue.enqueue(parse_webhook(notification(1)), tenant="acme")
        assert (len(first.queued), len(first.duplicates)) == (1, 0)
        assert (len(again.queued), len(again.duplicates)) == (0, 1)
        (row,) = queue.episodes()
        assert (row["status"], row["notifications"]) == ("QUEUED", 2)
    finally:
        store.close()


def test_a_resolved_notification_is_recorded_against_its_diagnosis(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        queue.enqueue(parse_webhook(notification(2)), tenant="acme")
        AlertWorker(queue, Recorder()).drain()
        report = queue.enqueue(parse_webhook(notification(2, status="resolved")), tenant="acme")
        assert len(report.resolved) == 1
        (row,) = queue.episodes()
        assert row["status"] == "DONE"
        assert row["run_id"] == f"run-{row['id']}"
        assert row["resolved_at"] is not None
    finally:
        store.close()


def test_a_resolution_whose_firing_was_never_received_queues_no_diagnosis(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        queue.enqueue(parse_webhook(notification(3, status="resolved")), tenant="acme")
        assert queue.counts() == {"RESOLVED": 1}
        assert AlertWorker(queue, Recorder()).drain() == 0
    finally:
        store.close()


def test_a_malformed_notification_stores_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        for body in (b"{not json", b'{"version": "3", "alerts": []}', b"[]"):
            with pytest.raises(InvalidInputError):
                receive_webhook(queue, body, tenant="acme")
        assert queue.counts() == {}
    finally:
        store.close()


def test_a_claim_that_expired_is_claimed_again_and_a_late_finish_changes_nothing(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        queue.enqueue(parse_webhook(notification(4)), tenant="acme")
        (dead,) = queue.claim("dead-worker", claim_seconds=0.01)
        time.sleep(0.05)
        (again,) = queue.claim("live-worker")
        assert again.dedup_key == dead.dedup_key
        assert not queue.finish(dead, "dead-worker", run_id="late")
        assert queue.finish(again, "live-worker", run_id="run-live")
        assert queue.episodes()[0]["run_id"] == "run-live"
    finally:
        store.close()


def test_a_failing_diagnosis_is_retried_then_marked_failed(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        queue.enqueue(parse_webhook(notification(5)), tenant="acme")

        def broken(_item: QueuedAlert) -> str:
            raise RuntimeError("model down")

        worker = AlertWorker(queue, broken, WorkerOptions(max_attempts=2))
        assert worker.drain() == 2
        (row,) = queue.episodes()
        assert (row["status"], row["attempts"]) == ("FAILED", 2)
        assert "model down" in row["error"]
    finally:
        store.close()


@pytest.mark.slow
def test_a_storm_of_500_notifications_over_50_groups_diagnoses_each_alert_once_across_a_restart(
    tmp_path: Path,
) -> None:
    handler = Recorder(delay=0.002)
    # The first half of the storm is about groups 0-24, the second about groups 25-49.
    bodies = [notification(n % 25 + 25 * (n >= 250), alerts=2) for n in range(500)]
    store = open_store(tmp_path)
    try:
        queue = AlertQueue(store)
        worker = AlertWorker(queue, handler, WorkerOptions(concurrency=4, poll_seconds=0.05))
        worker.start()
        for body in bodies[:250]:
            receive_webhook(queue, json_bytes(body), tenant="acme")
            worker.wake()
        worker.stop()  # the process stops in the middle of the storm ...
        for body in bodies[250:300]:
            receive_webhook(queue, json_bytes(body), tenant="acme")
        # ... and a worker of it died holding claims it never finished.
        crashed = queue.claim("crashed-worker", limit=5, claim_seconds=0.01)
    finally:
        store.close()
    time.sleep(0.05)
    store = open_store(tmp_path)  # a new process opens the same store
    try:
        queue = AlertQueue(store)
        for body in bodies[300:]:
            receive_webhook(queue, json_bytes(body), tenant="acme")
        AlertWorker(queue, handler, WorkerOptions(concurrency=4)).drain()
        assert queue.counts() == {"DONE": 100}
        assert len(handler.seen) == 100  # 50 groups x 2 alerts
        assert set(handler.seen.values()) == {1}
        assert sum(row["notifications"] for row in queue.episodes()) == 1000
        assert len(crashed) == 5
        assert all(handler.seen[item.dedup_key] == 1 for item in crashed)
    finally:
        store.close()


def json_bytes(body: dict[str, Any]) -> bytes:
    return json.dumps(body).encode()


@pytest.fixture(params=BACKENDS)
def queue_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request.param, tmp_path_factory.mktemp("queue-db"))


@pytest.mark.slow
def test_workers_of_two_processes_share_the_queue_and_take_each_alert_once(queue_url: str) -> None:
    # Two stores on one database stand for two `groundgate serve` processes; on PostgreSQL and
    # MariaDB their claims skip each other's locked rows (FOR UPDATE SKIP LOCKED).
    first, second = open_store(queue_url), open_store(queue_url)
    try:
        for store in (first, second):  # both receive every notification: duplicates, not new alerts
            for group in range(20):
                AlertQueue(store).enqueue(parse_webhook(notification(group, alerts=2)), tenant="acme")
        handler = Recorder(delay=0.001)
        workers = [
            AlertWorker(AlertQueue(store), handler, WorkerOptions(concurrency=3, poll_seconds=0.05))
            for store in (first, second)
        ]
        for worker in workers:
            worker.start()
        deadline = time.monotonic() + 60
        while AlertQueue(first).pending() and time.monotonic() < deadline:
            time.sleep(0.05)
        for worker in workers:
            worker.stop()
        assert AlertQueue(first).counts() == {"DONE": 40}
        assert len(handler.seen) == 40
        assert set(handler.seen.values()) == {1}
    finally:
        first.close()
        second.close()

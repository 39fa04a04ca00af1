"""Session fixtures: one real Prometheus (with its exporter) and one real Alertmanager (with its sink).

See `_servers.py`: they skip without Debian's binaries unless `GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from _servers import (
    BACKFILL_START_OFFSET,
    Exporter,
    Server,
    WebhookSink,
    backfill_text,
    start_alertmanager,
    start_prometheus,
)


@pytest.fixture(scope="session")
def exporter() -> Iterator[Exporter]:
    served = Exporter()
    try:
        yield served
    finally:
        served.close()


@pytest.fixture(scope="session")
def backfill_start() -> int:
    """Unix seconds of the first backfilled point (whole minute, three hours ago)."""
    return (int(time.time()) - BACKFILL_START_OFFSET) // 60 * 60


@pytest.fixture(scope="session")
def prometheus(
    tmp_path_factory: pytest.TempPathFactory, exporter: Exporter, backfill_start: int
) -> Iterator[Server]:
    # Known values before the first scrape, so the first sample already has them.
    exporter.set('gg_queue_depth{service="payment-api"}', 7)
    exporter.set('gg_queue_depth{service="checkout"}', 3)
    exporter.set('gg_queue_depth{service="x\\"} or vector(1) #"}', 99)
    exporter.set('gg_http_requests_total{service="payment-api",code="500"}', 100)
    exporter.set('gg_http_requests_total{service="payment-api",code="200"}', 1000)
    server = start_prometheus(tmp_path_factory.mktemp("prometheus"), exporter, backfill_text(backfill_start))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def webhook_sink() -> Iterator[WebhookSink]:
    sink = WebhookSink()
    try:
        yield sink
    finally:
        sink.close()


@pytest.fixture(scope="session")
def alertmanager(tmp_path_factory: pytest.TempPathFactory, webhook_sink: WebhookSink) -> Iterator[Server]:
    server = start_alertmanager(tmp_path_factory.mktemp("alertmanager"), webhook_sink)
    try:
        yield server
    finally:
        server.stop()

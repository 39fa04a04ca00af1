"""A real alert's path up to groundgate's door: an exporter shows an incident, a Prometheus rule fires,
Alertmanager sends its webhook, `parse_webhook` reads it, and `query_metrics` reads the series the
alert rests on around its `startsAt`. Then the incident ends and the resolved notification carries
the same deduplication key as the firing one.

The rest of the path — `POST /api/aiops/alertmanager` on a running `groundgate serve`, the durable
queue and the diagnosis — is `test_aiops_end_to_end.py`. Bounded in time: every wait has a deadline, and the
servers stop at the end of the module. Skipped without the binaries unless
`GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from _servers import Exporter, Server, WebhookSink, start_prometheus, wait_until

from groundgate.aiops import PrometheusClient
from groundgate.aiops.webhook import AlertmanagerWebhook, parse_webhook
from groundgate.contracts import ExecutionContext, ToolCall, ToolStatus
from groundgate.tools import ToolRegistry
from groundgate.tools.builtin.clock import format_utc
from groundgate.tools.prometheus import prometheus_metrics_tool

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

ALERT = "GgCheckoutHighErrorRate"
RULES = f"""
groups:
  - name: groundgate-tests
    interval: 1s
    rules:
      - alert: {ALERT}
        expr: gg_checkout_error_ratio > 0.05
        labels:
          severity: critical
        annotations:
          summary: "5xx ratio on {{{{ $labels.service }}}} is {{{{ $value }}}}"
"""


@pytest.fixture(scope="module")
def incident() -> Iterator[Exporter]:
    served = Exporter()
    served.set('gg_checkout_error_ratio{service="checkout-api"}', 0.01)
    try:
        yield served
    finally:
        served.close()


@pytest.fixture(scope="module")
def alerting_prometheus(
    tmp_path_factory: pytest.TempPathFactory, incident: Exporter, alertmanager: Server
) -> Iterator[Server]:
    server = start_prometheus(
        tmp_path_factory.mktemp("prometheus-rules"), incident, rules=RULES, alertmanager_url=alertmanager.url
    )
    try:
        yield server
    finally:
        server.stop()


def _notifications(sink: WebhookSink, status: str) -> list[AlertmanagerWebhook]:
    parsed = [parse_webhook(body) for body in list(sink.bodies) if ALERT.encode() in body]
    return [payload for payload in parsed if payload.status == status]


def test_a_firing_rule_reaches_the_webhook_and_its_series_can_be_read_then_it_resolves_with_the_same_key(
    alerting_prometheus: Server, incident: Exporter, webhook_sink: WebhookSink
) -> None:
    client = PrometheusClient(alerting_prometheus.url)
    wait_until(
        lambda: bool(client.instant("gg_checkout_error_ratio")),
        timeout=30,
        what="the first scrape of the incident",
    )
    incident.set('gg_checkout_error_ratio{service="checkout-api"}', 0.2)
    wait_until(
        lambda: bool(_notifications(webhook_sink, "firing")), timeout=45, what="the firing notification"
    )
    firing = _notifications(webhook_sink, "firing")[0]
    (alert,) = firing.firing()
    assert alert.labels["service"] == "checkout-api"
    assert alert.labels["severity"] == "critical"
    assert alert.annotations["summary"] == "5xx ratio on checkout-api is 0.2"
    assert "gg_checkout_error_ratio" in alert.generator_url

    # The evidence tool reads the alert's own series around its start: the rise is there.
    with ToolRegistry() as tools:
        spec, run = prometheus_metrics_tool(client)
        tools.register(spec, run)
        result = tools.execute(
            ToolCall(
                tool="query_metrics",
                arguments={
                    "name": "gg_checkout_error_ratio",
                    "labels": {"service": alert.labels["service"]},
                    "start": format_utc(alert.starts_at - timedelta(seconds=30)),
                    "end": format_utc(alert.starts_at + timedelta(seconds=5)),
                },
            ),
            ExecutionContext(tenant="acme", user="sre"),
            run_id="r1",
            round=1,
        )
    assert result.status is ToolStatus.OK, result.error
    summary = result.facts[0].value
    assert summary["max"] == 0.2
    assert summary["min"] == 0.01
    assert summary["promql"] == 'gg_checkout_error_ratio{service="checkout-api"}[36s]'

    incident.set('gg_checkout_error_ratio{service="checkout-api"}', 0.0)
    wait_until(
        lambda: bool(_notifications(webhook_sink, "resolved")), timeout=45, what="the resolved notification"
    )
    (resolved,) = _notifications(webhook_sink, "resolved")[0].resolved()
    assert resolved.dedup_key == alert.dedup_key
    assert resolved.ends_at is not None
    assert resolved.ends_at > alert.starts_at

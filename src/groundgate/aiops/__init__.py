"""AIOps connectors: Prometheus, Alertmanager and Loki over HTTP, and Alertmanager webhook payloads.

This package is what groundgate knows about the monitoring stack (issue 14). It reads; it never
writes to a monitoring system, and nothing a model writes becomes a query string:

| module | what |
|---|---|
| `promql` | `MetricQuery`/`LabelMatcher`: PromQL built from checked parts; the quoting shared by all three |
| `prometheus` | `PrometheusClient`: `/api/v1/query`, `/api/v1/query_range`, metric names |
| `alertmanager` | `AlertmanagerClient`: `GET /api/v2/alerts` (active / silenced / inhibited, matchers) |
| `loki` | `LokiClient`, `LogQuery`: `/loki/api/v1/query_range`, LogQL from checked parts |
| `webhook` | `AlertmanagerWebhook`, `parse_webhook`: version-4 notifications, `dedup_key` |
| `http` | the one GET they share; its failures are `ConnectorError` and its kinds in `groundgate.errors` (timeouts, HTTP errors, bad JSON) |

The registry-facing tools over these clients live in `groundgate.tools.prometheus` (`query_metrics`),
`groundgate.tools.alertmanager` (`list_active_alerts`) and `groundgate.tools.loki` (`query_logs`);
`groundgate.wiring` registers them instead of the embedded stores' tools when `[prometheus] url`,
`[alertmanager] url` or `[loki] url` is configured.
"""

from __future__ import annotations

from groundgate.aiops.alertmanager import AlertmanagerClient, GettableAlert
from groundgate.aiops.loki import LineFilter, LogQuery, LokiClient, LokiLine
from groundgate.aiops.prometheus import PrometheusClient, PromSeries
from groundgate.aiops.promql import LabelMatcher, MetricQuery
from groundgate.aiops.webhook import AlertmanagerWebhook, WebhookAlert, parse_webhook
from groundgate.errors import (
    ConnectorError,
    ConnectorHTTPError,
    ConnectorResponseError,
    ConnectorTimeoutError,
    ConnectorUnavailableError,
)

__all__ = [
    # clients
    "AlertmanagerClient",
    "LokiClient",
    "PrometheusClient",
    # query models
    "LabelMatcher",
    "LineFilter",
    "LogQuery",
    "MetricQuery",
    # results
    "GettableAlert",
    "LokiLine",
    "PromSeries",
    # webhooks
    "AlertmanagerWebhook",
    "WebhookAlert",
    "parse_webhook",
    # errors
    "ConnectorError",
    "ConnectorHTTPError",
    "ConnectorResponseError",
    "ConnectorTimeoutError",
    "ConnectorUnavailableError",
]

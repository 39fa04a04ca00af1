"""`list_active_alerts` over a real Alertmanager (Debian's `prometheus-alertmanager`), and the webhook
it really sends, parsed by `parse_webhook`.

Alerts are POSTed to the server's own `/api/v2/alerts`; one is silenced through `/api/v2/silences` so
the state filters have something to tell apart. Alertmanager notifies the tests' webhook sink after
its 1 s `group_wait`. Skipped without the binary unless `GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from _servers import Server, WebhookSink, free_port, post_alerts, wait_until

from groundgate.aiops import AlertmanagerClient, ConnectorHTTPError, ConnectorUnavailableError, LabelMatcher
from groundgate.aiops.webhook import parse_webhook
from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.tools import ToolRegistry
from groundgate.tools.alertmanager import active_alerts_tool

CTX = ExecutionContext(tenant="acme", user="alice")
STARTS = (datetime.now(UTC) - timedelta(minutes=5)).replace(microsecond=0)
ENDS = STARTS + timedelta(hours=2)


def _alert(name: str, **labels: str) -> dict[str, Any]:
    return {
        "labels": {"alertname": name, **labels},
        "annotations": {"summary": f"{name} on {labels.get('service', '?')}"},
        "startsAt": STARTS.isoformat(),
        "endsAt": ENDS.isoformat(),
        "generatorURL": "http://prometheus/graph?g0.expr=x",
    }


@pytest.fixture(scope="module")
def loaded(alertmanager: Server) -> Server:
    """Three alerts, one of them silenced; a label value with a quote in it."""
    post_alerts(
        alertmanager.url,
        [
            _alert("PaymentHighErrorRate", service="payment-api", severity="critical"),
            _alert("DiskAlmostFull", service="report-db", severity="warning"),
            _alert("QuotedLabel", service='pay"ment} or x', severity="info"),
        ],
    )
    silence = {
        "matchers": [{"name": "alertname", "value": "DiskAlmostFull", "isRegex": False, "isEqual": True}],
        "startsAt": STARTS.isoformat(),
        "endsAt": ENDS.isoformat(),
        "createdBy": "groundgate tests",
        "comment": "maintenance",
    }
    response = httpx.post(alertmanager.url + "/api/v2/silences", json=silence)
    assert response.status_code == 200, response.text
    client = AlertmanagerClient(alertmanager.url)

    def settled() -> bool:
        return (
            len(client.alerts(active=True, silenced=True)) == 3
            and len(client.alerts(silenced=True, active=False)) == 1
        )

    wait_until(settled, timeout=20, what="Alertmanager to hold and silence the posted alerts")
    return alertmanager


@pytest.fixture
def registry(loaded: Server) -> Iterator[ToolRegistry]:
    with ToolRegistry() as tools:
        spec, run = active_alerts_tool(AlertmanagerClient(loaded.url, timeout_seconds=5))
        tools.register(spec, run)
        yield tools


def call(registry: ToolRegistry, **arguments: Any) -> ToolResult:
    return registry.execute(
        ToolCall(tool="list_active_alerts", arguments=arguments), CTX, run_id="r1", round=1
    )


def names(result: ToolResult) -> set[str]:
    return {fact.value["alertname"] for fact in result.facts}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({}, {"PaymentHighErrorRate", "QuotedLabel"}),
        ({"silenced": True}, {"PaymentHighErrorRate", "QuotedLabel", "DiskAlmostFull"}),
        ({"active": False, "silenced": True}, {"DiskAlmostFull"}),
        ({"matchers": [{"label": "severity", "value": "critical"}]}, {"PaymentHighErrorRate"}),
        ({"matchers": [{"label": "severity", "op": "!=", "value": "critical"}]}, {"QuotedLabel"}),
        ({"matchers": [{"label": "alertname", "op": "=~", "value": "Payment.*"}]}, {"PaymentHighErrorRate"}),
        (
            {"matchers": [{"label": "service", "op": "!~", "value": "pay.*"}], "silenced": True},
            {"DiskAlmostFull"},
        ),
        ({"matchers": [{"label": "service", "value": 'pay"ment} or x'}]}, {"QuotedLabel"}),
    ],
)
def test_alerts_are_listed_by_state_and_matchers(
    registry: ToolRegistry, arguments: dict[str, Any], expected: set[str]
) -> None:
    result = call(registry, **arguments)
    assert result.status is ToolStatus.OK, result.error
    assert names(result) == expected


def test_an_alert_fact_carries_its_labels_state_start_and_fingerprint(registry: ToolRegistry) -> None:
    result = call(registry, matchers=[{"label": "alertname", "value": "DiskAlmostFull"}], silenced=True)
    (fact,) = result.facts
    assert fact.fact_type == "alert.active"
    assert fact.source_system == "alertmanager"
    assert fact.value["state"] == "suppressed"
    assert fact.value["silenced_by"]
    assert fact.value["starts_at"] == STARTS.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert fact.value["labels"]["service"] == "report-db"
    assert fact.value["receivers"] == ["groundgate"]
    assert fact.fact_ref.startswith("alert:" + fact.value["fingerprint"])


@pytest.mark.parametrize(
    "matchers",
    [
        [{"label": "service", "value": 'payment-api"} or alertname=~".+'}],
        [{"label": "service", "value": "payment-api\\"}],
        [{"label": "service", "op": "=~", "value": "nothing-like-this"}],
    ],
)
def test_an_injection_attempt_in_a_matcher_value_matches_nothing(
    registry: ToolRegistry, matchers: list[dict[str, str]]
) -> None:
    result = call(registry, matchers=matchers, silenced=True, inhibited=True)
    assert result.status is ToolStatus.EMPTY, names(result)
    assert result.gaps[0].startswith("no active/silenced/inhibited alerts in Alertmanager")


@pytest.mark.parametrize(
    "arguments",
    [
        {"matchers": [{"label": "service} or {x", "value": "a"}]},
        {"matchers": [{"label": "service", "op": "~", "value": "a"}]},
        {"matchers": [{"label": "service", "value": "a\nb"}]},
        {"filter": 'alertname=~".+"'},
        {"limit": 0},
    ],
)
def test_bad_arguments_are_refused_before_anything_is_sent(
    registry: ToolRegistry, arguments: dict[str, Any]
) -> None:
    result = call(registry, **arguments)
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("invalid_arguments")


def test_a_bad_regex_is_alertmanagers_own_error_and_a_closed_port_is_unavailable(loaded: Server) -> None:
    with pytest.raises(ConnectorHTTPError) as caught:
        AlertmanagerClient(loaded.url).alerts([LabelMatcher(label="service", op="=~", value="(")])
    assert caught.value.status_code == 400
    with pytest.raises(ConnectorUnavailableError):
        AlertmanagerClient(f"http://127.0.0.1:{free_port()}").alerts()


def test_an_unexpected_alert_list_is_a_response_error_not_half_a_list() -> None:
    from groundgate.aiops import ConnectorResponseError

    body = [
        {
            "labels": {"alertname": "X"},
            "fingerprint": "ab",
            "startsAt": "2026-01-01T00:00:00Z",
            "status": {"state": "active"},
        },
        {"labels": "x"},
    ]
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    with pytest.raises(ConnectorResponseError, match=r"\b1\.labels"):
        AlertmanagerClient("http://am.invalid", transport=transport).alerts()


def test_the_webhook_alertmanager_really_sends_parses_with_the_alerts_dedup_key(
    loaded: Server, webhook_sink: WebhookSink
) -> None:
    client = AlertmanagerClient(loaded.url)
    (held,) = client.alerts([LabelMatcher(label="alertname", value="PaymentHighErrorRate")])

    def notified() -> bool:
        return any(b"PaymentHighErrorRate" in body for body in webhook_sink.bodies)

    wait_until(notified, timeout=20, what="Alertmanager's webhook notification")
    body = next(body for body in webhook_sink.bodies if b"PaymentHighErrorRate" in body)
    parsed = parse_webhook(body)
    assert parsed.version == "4"
    assert parsed.receiver == "groundgate"
    assert parsed.status == "firing"
    assert parsed.group_labels == {"alertname": "PaymentHighErrorRate"}
    (alert,) = parsed.firing()
    assert alert.fingerprint == held.fingerprint
    assert alert.starts_at == held.starts_at == STARTS
    assert alert.dedup_key == f"{held.fingerprint}@{STARTS.strftime('%Y-%m-%dT%H:%M:%S')}.000000Z"
    assert alert.labels["service"] == "payment-api"
    assert json.loads(body)["groupKey"] == parsed.group_key

"""Alertmanager webhook payloads (version 4): what parses, what is refused, and the deduplication key.

A payload sent by a real Alertmanager is parsed in `test_aiops_alertmanager.py`; these are hand-written
after the documented format, to cover every malformed shape.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from groundgate.aiops.webhook import MAX_ALERTS, AlertmanagerWebhook, parse_webhook
from groundgate.errors import InvalidInputError

ALERT: dict[str, Any] = {
    "status": "firing",
    "labels": {"alertname": "PaymentHighErrorRate", "service": "payment-api", "severity": "critical"},
    "annotations": {"summary": "5xx ratio above 5% on payment-api", "runbook_url": "https://runbooks/pay"},
    "startsAt": "2026-03-14T14:05:00.123+08:00",
    "endsAt": "0001-01-01T00:00:00Z",
    "generatorURL": "http://prometheus:9090/graph?g0.expr=payment_errors",
    "fingerprint": "1a30ba71cca2921f",
}
PAYLOAD: dict[str, Any] = {
    "receiver": "groundgate",
    "status": "firing",
    "alerts": [ALERT],
    "groupLabels": {"alertname": "PaymentHighErrorRate"},
    "commonLabels": ALERT["labels"],
    "commonAnnotations": ALERT["annotations"],
    "externalURL": "http://alertmanager:9093",
    "version": "4",
    "groupKey": '{}:{alertname="PaymentHighErrorRate"}',
    "truncatedAlerts": 0,
}


def payload(**changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(PAYLOAD)
    body.update(changes)
    return body


def alert(**changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(ALERT)
    body.update(changes)
    return body


def test_a_documented_payload_parses_with_times_in_utc_and_no_end_yet() -> None:
    parsed = parse_webhook(json.dumps(PAYLOAD).encode())
    assert parsed.receiver == "groundgate"
    assert parsed.group_labels == {"alertname": "PaymentHighErrorRate"}
    (only,) = parsed.alerts
    assert only.alertname == "PaymentHighErrorRate"
    assert only.starts_at == datetime(2026, 3, 14, 6, 5, 0, 123000, tzinfo=UTC)
    assert only.ends_at is None
    assert only.dedup_key == "1a30ba71cca2921f@2026-03-14T06:05:00.123000Z"


def test_the_same_episode_has_one_key_in_any_offset_and_a_new_start_is_a_new_episode() -> None:
    first = parse_webhook(payload(alerts=[alert()])).alerts[0]
    same_in_utc = parse_webhook(payload(alerts=[alert(startsAt="2026-03-14T06:05:00.123Z")])).alerts[0]
    later = parse_webhook(payload(alerts=[alert(startsAt="2026-03-14T09:00:00Z")])).alerts[0]
    assert first.dedup_key == same_in_utc.dedup_key
    assert later.dedup_key != first.dedup_key


def test_repeated_alerts_in_one_payload_are_listed_once_and_firing_is_kept_apart_from_resolved() -> None:
    resolved = alert(status="resolved", fingerprint="00000000000000ff", endsAt="2026-03-14T14:30:00Z")
    parsed = parse_webhook(payload(alerts=[alert(), alert(), resolved]))
    assert [a.fingerprint for a in parsed.firing()] == ["1a30ba71cca2921f"]
    assert [a.fingerprint for a in parsed.resolved()] == ["00000000000000ff"]
    assert parsed.resolved()[0].ends_at == datetime(2026, 3, 14, 14, 30, tzinfo=UTC)


def test_fields_a_newer_alertmanager_adds_are_ignored() -> None:
    parsed = parse_webhook(payload(orgId=1, alerts=[alert(silenceURL="http://x", values={"B": 1.5})]))
    assert isinstance(parsed, AlertmanagerWebhook)


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        (b"", "not JSON"),
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", "JSON object, not list"),
        (b'"firing"', "JSON object, not str"),
        (payload(version="3"), "version"),
        (payload(version=4), "version"),
        ({k: v for k, v in PAYLOAD.items() if k != "alerts"}, "alerts"),
        (payload(alerts=[]), "alerts"),
        (payload(alerts="many"), "alerts"),
        (payload(alerts=[alert()] * (MAX_ALERTS + 1)), "alerts"),
        (payload(status="pending"), "status"),
        (payload(groupKey=None), "groupKey"),
        (payload(receiver=None), "receiver"),
        (payload(truncatedAlerts=-1), "truncatedAlerts"),
        (payload(groupLabels={"alert-name": "x"}), "invalid label name"),
        (payload(alerts=[alert(status="unknown")]), "status"),
        (payload(alerts=[alert(labels={"service": "payment-api"})]), "alertname"),
        (payload(alerts=[alert(labels={"alertname": "  "})]), "alertname"),
        (payload(alerts=[alert(labels={"alertname": "X", "code": 500})]), "labels.code"),
        (payload(alerts=[alert(labels={"alertname": "X", 'a"}': "b"})]), "invalid label name"),
        (
            payload(alerts=[alert(labels={"alertname": "X", **{f"l{i}": "v" for i in range(70)}})]),
            "more than 64",
        ),
        (payload(alerts=[alert(annotations={"summary": ["a"]})]), "annotations"),
        (payload(alerts=[alert(fingerprint="")]), "fingerprint"),
        (payload(alerts=[alert(fingerprint="../../etc/passwd")]), "fingerprint"),
        (payload(alerts=[alert(fingerprint=None)]), "fingerprint"),
        (payload(alerts=[alert(startsAt="yesterday")]), "startsAt"),
        (payload(alerts=[alert(startsAt="2026-03-14T14:05:00")]), "timezone"),
        (payload(alerts=[alert(endsAt="2026-03-14T14:05:00")]), "timezone"),
        (payload(alerts=[{k: v for k, v in ALERT.items() if k != "startsAt"}]), "startsAt"),
        (payload(alerts=[alert(generatorURL="x" * 5000)]), "generatorURL"),
    ],
)
def test_a_malformed_payload_is_refused_with_what_is_wrong(body: Any, complaint: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_webhook(body)
    assert complaint in str(caught.value)

"""Alertmanager webhook payloads (version 4): parsed, validated, keyed for deduplication.

Alertmanager's `webhook_config` receiver POSTs one JSON object per notification of an alert group:

    {"version": "4", "groupKey": "{}:{alertname=\\"X\\"}", "truncatedAlerts": 0,
     "status": "firing" | "resolved", "receiver": "groundgate",
     "groupLabels": {...}, "commonLabels": {...}, "commonAnnotations": {...},
     "externalURL": "http://alertmanager:9093",
     "alerts": [{"status": "firing" | "resolved", "labels": {...}, "annotations": {...},
                 "startsAt": "<RFC 3339>", "endsAt": "<RFC 3339>", "generatorURL": "...",
                 "fingerprint": "<16 hex digits>"}]}

`parse_webhook` turns a body (bytes, text or decoded JSON) into `AlertmanagerWebhook` or raises
`InvalidInputError` naming what is wrong (the future `POST /api/aiops/alertmanager` answers 400 with
it and stores nothing). Rules, and why:

- `version` must be `"4"`: other versions would mean another shape.
- Fields Alertmanager may add in later releases are ignored, not refused (a newer Alertmanager
  must not break the receiver); every documented field is type-checked.
- An alert needs `labels.alertname`, a `fingerprint` of hex digits and an aware `startsAt`.
  Alertmanager's zero time (`0001-01-01T00:00:00Z`) in `endsAt` means "no end yet" and reads None.
- Label names follow Prometheus's pattern; values and annotations are strings. At most
  `MAX_ALERTS` alerts and `MAX_LABELS` labels per alert (a storm is absorbed by the queue, not by
  one giant payload).

Deduplication: Alertmanager re-sends a group on every `repeat_interval` and whenever the group
changes, so the same alert arrives many times. `WebhookAlert.dedup_key` is `fingerprint` + `startsAt`
(UTC): one firing episode of one label set; the same labels firing again later start a new episode.
A resolved notification carries the episode's key too, so it can be recorded against its diagnosis.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from groundgate.errors import InvalidInputError

__all__ = [
    "MAX_ALERTS",
    "MAX_LABELS",
    "AlertmanagerWebhook",
    "WebhookAlert",
    "parse_webhook",
]

MAX_ALERTS = 1000
MAX_LABELS = 64
_MAX_DETAIL_ERRORS = 5
_LABEL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FINGERPRINT = r"^[0-9a-fA-F]{1,64}$"


def _check_labels(value: dict[str, str]) -> dict[str, str]:
    if len(value) > MAX_LABELS:
        raise ValueError(f"more than {MAX_LABELS} labels")
    for name in value:
        if not _LABEL_NAME.match(name):
            raise ValueError(f"invalid label name {name[:40]!r}")
    return value


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("a time needs a timezone (RFC 3339)")
    return value


class WebhookAlert(BaseModel):
    """One alert of a notification."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    status: Literal["firing", "resolved"]
    labels: dict[str, str]
    annotations: dict[str, str] = Field(default_factory=dict)
    starts_at: datetime = Field(alias="startsAt")
    ends_at: datetime | None = Field(None, alias="endsAt")
    """None while the alert has no end (Alertmanager sends its zero time `0001-01-01T00:00:00Z`)."""
    generator_url: str = Field("", alias="generatorURL", max_length=4096)
    fingerprint: str = Field(pattern=_FINGERPRINT)

    @field_validator("labels")
    @classmethod
    def _labels(cls, value: dict[str, str]) -> dict[str, str]:
        _check_labels(value)
        if not value.get("alertname", "").strip():
            raise ValueError("labels.alertname is required")
        return value

    @field_validator("annotations")
    @classmethod
    def _annotations(cls, value: dict[str, str]) -> dict[str, str]:
        return _check_labels(value)

    @field_validator("starts_at")
    @classmethod
    def _starts(cls, value: datetime) -> datetime:
        return _utc(value)

    @field_validator("ends_at", mode="before")
    @classmethod
    def _zero_end(cls, value: object) -> object:
        if isinstance(value, str) and value.startswith("0001-01-01"):
            return None
        return value

    @field_validator("ends_at")
    @classmethod
    def _ends(cls, value: datetime | None) -> datetime | None:
        return None if value is None else _utc(value)

    @property
    def alertname(self) -> str:
        return self.labels["alertname"]

    @property
    def dedup_key(self) -> str:
        """`<fingerprint>@<startsAt as UTC ISO>`: one firing episode of one label set."""
        return f"{self.fingerprint.lower()}@{_iso_utc(self.starts_at)}"


def _iso_utc(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class AlertmanagerWebhook(BaseModel):
    """One webhook notification (version 4) of one alert group."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    version: Literal["4"]
    group_key: str = Field(alias="groupKey", max_length=4096)
    truncated_alerts: int = Field(0, alias="truncatedAlerts", ge=0)
    """Alerts Alertmanager left out (`max_alerts` of the receiver); they were never seen here."""
    status: Literal["firing", "resolved"]
    receiver: str = Field(max_length=256)
    group_labels: dict[str, str] = Field(default_factory=dict, alias="groupLabels")
    common_labels: dict[str, str] = Field(default_factory=dict, alias="commonLabels")
    common_annotations: dict[str, str] = Field(default_factory=dict, alias="commonAnnotations")
    external_url: str = Field("", alias="externalURL", max_length=4096)
    alerts: list[WebhookAlert] = Field(min_length=1, max_length=MAX_ALERTS)

    @field_validator("group_labels", "common_labels", "common_annotations")
    @classmethod
    def _labels(cls, value: dict[str, str]) -> dict[str, str]:
        return _check_labels(value)

    def firing(self) -> list[WebhookAlert]:
        """The firing alerts, each episode once (a payload may repeat an alert)."""
        return self._unique("firing")

    def resolved(self) -> list[WebhookAlert]:
        """The resolved alerts, each episode once."""
        return self._unique("resolved")

    def _unique(self, status: str) -> list[WebhookAlert]:
        seen: dict[str, WebhookAlert] = {}
        for alert in self.alerts:
            if alert.status == status:
                seen.setdefault(alert.dedup_key, alert)
        return list(seen.values())


def _summarise(exc: ValidationError) -> str:
    parts: list[str] = []
    for error in exc.errors(include_url=False)[:_MAX_DETAIL_ERRORS]:
        loc = ".".join(str(part) for part in error["loc"]) or "payload"
        parts.append(f"{loc}: {error['msg']}")
    more = exc.error_count() - len(parts)
    if more > 0:
        parts.append(f"{more} more")
    return "; ".join(parts)


def parse_webhook(body: bytes | str | Mapping[str, Any]) -> AlertmanagerWebhook:
    """An Alertmanager webhook body as `AlertmanagerWebhook`; `InvalidInputError` when it is not one."""
    data: object = body
    if isinstance(body, bytes | str):
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InvalidInputError(f"the webhook body is not JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"the webhook body must be a JSON object, not {type(data).__name__}")
    try:
        return AlertmanagerWebhook.model_validate(data)
    except ValidationError as exc:
        raise InvalidInputError(f"not an Alertmanager webhook (version 4): {_summarise(exc)}") from exc

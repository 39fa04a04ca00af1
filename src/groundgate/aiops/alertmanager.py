"""An Alertmanager API v2 client: the alerts it holds now (`GET /api/v2/alerts`).

Query parameters: `active`, `silenced`, `inhibited`, `unprocessed` (booleans, each `true` by
default on the server, so this client always sends all four) and `filter`, repeated, one matcher
each (`alertname="PaymentHighErrorRate"`, `severity=~"critical|page"`), rendered from
`LabelMatcher`s with the same quoting as PromQL. The answer is a list of "gettable alerts":
`labels`, `annotations`, `startsAt`, `updatedAt`, `endsAt`, `fingerprint`, `receivers[].name`,
`generatorURL` and `status` (`state`: `active` | `suppressed` | `unprocessed`, `silencedBy`,
`inhibitedBy`). Unknown fields are ignored (newer servers add some); a list item that does not
fit is a `ConnectorResponseError`, never half a list.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from groundgate.aiops.http import MonitoringClient
from groundgate.aiops.promql import LabelMatcher
from groundgate.errors import ConnectorResponseError

__all__ = ["AlertReceiver", "AlertStatus", "AlertmanagerClient", "GettableAlert"]

SYSTEM = "alertmanager"


class AlertReceiver(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    name: str


class AlertStatus(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    state: str
    silenced_by: list[str] = Field(default_factory=list, alias="silencedBy")
    inhibited_by: list[str] = Field(default_factory=list, alias="inhibitedBy")


class GettableAlert(BaseModel):
    """One alert as `GET /api/v2/alerts` returns it."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    labels: dict[str, str]
    annotations: dict[str, str] = Field(default_factory=dict)
    fingerprint: str
    starts_at: datetime = Field(alias="startsAt")
    updated_at: datetime | None = Field(None, alias="updatedAt")
    ends_at: datetime | None = Field(None, alias="endsAt")
    generator_url: str | None = Field(None, alias="generatorURL")
    receivers: list[AlertReceiver] = Field(default_factory=list)
    status: AlertStatus

    @property
    def alertname(self) -> str:
        return self.labels.get("alertname", "")


_ALERTS = TypeAdapter(list[GettableAlert])


def _flag(value: bool) -> str:
    return "true" if value else "false"


class AlertmanagerClient(MonitoringClient):
    """Reads one Alertmanager (see the module docstring)."""

    system = SYSTEM

    def alerts(
        self,
        matchers: Sequence[LabelMatcher] = (),
        *,
        active: bool = True,
        silenced: bool = False,
        inhibited: bool = False,
        unprocessed: bool = False,
    ) -> list[GettableAlert]:
        """The alerts matching every matcher in the states asked for, as the server orders them."""
        params = [
            ("active", _flag(active)),
            ("silenced", _flag(silenced)),
            ("inhibited", _flag(inhibited)),
            ("unprocessed", _flag(unprocessed)),
            *(("filter", matcher.render()) for matcher in matchers),
        ]
        body = self.endpoint.get_json("/api/v2/alerts", params)
        try:
            return _ALERTS.validate_python(body)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConnectorResponseError(
                f"alertmanager answered /api/v2/alerts with an unexpected alert list ({where}: {first['msg']})",
                system=SYSTEM,
            ) from exc

"""`list_active_alerts`: what Alertmanager holds now, as verified facts (issue 14, item 3).

Registered by `groundgate.wiring` when `[alertmanager] url` is configured. A diagnosis uses it to see
what else is firing around its alert — as context only: the AIOps rule evaluation checks that no
unrelated active alert is promoted to the main subject (seed 004 §6).

Arguments: label `matchers` (`LabelMatcher`: `=`, `!=`, `=~`, `!~`, values quoted in code), the
states to include (`active` by default; `silenced` and `inhibited` on request) and `limit`. One
`alert.active` fact per alert (labels, annotations, state, startsAt/endsAt, fingerprint, receivers,
generatorURL), newest first; EMPTY with a gap when none match. Policy `tenant`: alerts are
platform-wide, like metrics.
"""

from __future__ import annotations

from pydantic import Field

from groundgate.aiops.alertmanager import AlertmanagerClient, GettableAlert
from groundgate.aiops.promql import LabelMatcher
from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.tools.builtin.clock import format_utc, utc_now
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = ["ALERTS_TOOL", "ActiveAlertsArgs", "active_alerts_tool"]

#: Name of the active-alerts tool.
ALERTS_TOOL = "list_active_alerts"
MAX_ALERTS = 100


class ActiveAlertsArgs(ToolArguments):
    """Arguments of `list_active_alerts`."""

    matchers: list[LabelMatcher] | None = Field(
        None, max_length=10, description="Label matchers {label, op (=, !=, =~, !~), value}; all must match."
    )
    active: bool = Field(True, description="Include active (notified) alerts.")
    silenced: bool = Field(False, description="Include silenced alerts.")
    inhibited: bool = Field(False, description="Include inhibited alerts.")
    limit: int = Field(20, ge=1, le=MAX_ALERTS, description=f"Alerts to return (at most {MAX_ALERTS}).")


def _value(alert: GettableAlert) -> dict[str, object]:
    value: dict[str, object] = {
        "alertname": alert.alertname,
        "labels": alert.labels,
        "annotations": alert.annotations,
        "state": alert.status.state,
        "starts_at": format_utc(alert.starts_at),
        "fingerprint": alert.fingerprint,
        "receivers": [receiver.name for receiver in alert.receivers],
    }
    if alert.ends_at is not None:
        value["ends_at"] = format_utc(alert.ends_at)
    if alert.status.silenced_by:
        value["silenced_by"] = alert.status.silenced_by
    if alert.status.inhibited_by:
        value["inhibited_by"] = alert.status.inhibited_by
    if alert.generator_url:
        value["generator_url"] = alert.generator_url
    return value


def active_alerts_tool(
    client: AlertmanagerClient, *, timeout_seconds: float | None = None
) -> tuple[ToolSpec, ToolFunction[ActiveAlertsArgs]]:
    """`list_active_alerts` over `client` (see the module docstring)."""
    spec = ToolSpec(
        name=ALERTS_TOOL,
        description=(
            "List the alerts Alertmanager holds now (active by default; silenced or inhibited on"
            " request), filtered by label matchers. Context for a diagnosis, not its subject."
        ),
        argument_model=ActiveAlertsArgs,
        authorization_policy="tenant",
        timeout_seconds=timeout_seconds or client.endpoint.timeout_seconds + 2.0,
    )

    def run(args: ActiveAlertsArgs, ctx: ExecutionContext) -> ToolOutput:
        alerts = client.alerts(
            args.matchers or [], active=args.active, silenced=args.silenced, inhibited=args.inhibited
        )
        states = "/".join(
            name
            for name, on in (
                ("active", args.active),
                ("silenced", args.silenced),
                ("inhibited", args.inhibited),
            )
            if on
        )
        filters = ",".join(m.render() for m in args.matchers or []) or "no filters"
        if not alerts:
            gap = f"no {states or 'matching'} alerts in Alertmanager ({filters})"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=gap)
        alerts.sort(key=lambda a: (a.starts_at, a.fingerprint), reverse=True)
        shown = alerts[: args.limit]
        now = utc_now()
        snapshot = {"tenant": ctx.tenant, "user": ctx.user}
        facts = [
            VerifiedFact(
                fact_ref=f"alert:{alert.fingerprint}:{int(alert.starts_at.timestamp())}",
                fact_type="alert.active",
                value=_value(alert),
                source_system="alertmanager",
                queried_at=now,
                ttl_seconds=60,
                scope="platform",
                authorization_snapshot=snapshot,
            )
            for alert in shown
        ]
        gaps = (
            [f"{len(alerts) - len(shown)} more alerts not shown; narrow the matchers"]
            if len(alerts) > len(shown)
            else []
        )
        names = ", ".join(sorted({alert.alertname or "?" for alert in shown}))
        return ToolOutput(
            status=ToolStatus.OK,
            facts=facts,
            gaps=gaps,
            observation=f"{len(alerts)} {states} alerts ({filters}): {names}",
            evidence_refs=[EvidenceRef(invocation_id="", citation_id=fact.fact_ref) for fact in facts],
        )

    return spec, run

"""The offline planner of an alert diagnosis: evidence about one alert, in its own time window.

A diagnosis (`groundgate.apps.diagnosis`) runs the same orchestrator, executor, gatekeeper, verifier
and composer as a question; only the planner differs. This one plans from the alert (`AlertFocus`),
never from other alerts, so an unrelated alert firing at the same time cannot become the subject:

round 1 — the evidence tools, each scoped to the alert:
- `lookup_knowledge`: the alert's name and service (its runbook), and its summary;
- `query_logs`: the service's errors and warnings in the window, and its change events (deploys,
  rollbacks, config changes) in the same window — a change just before an alert is a cause
  candidate the error lines alone do not show;
- `query_metrics`: the alert's own metric with its equality matchers (from the rule's expression),
  over the window;
round 2 — for what the verifier found unsupported: the service's logs in the window without a level
filter, and a knowledge search for the alert's handling steps. Calls already made are dropped by the
orchestrator (docs/design.md §1 invariant 7).

Tools that are not registered are skipped (the tool-call check of the AIOps rule evaluation then
says which evidence kind is missing).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from groundgate.aiops.alert_focus import AlertFocus
from groundgate.contracts import AgentStep, ParseStatus, PlannerOutput, ToolCall
from groundgate.runtime.roles import PlanRequest, RoleOutcome

__all__ = ["CHANGE_KEYWORDS", "AlertPlanner", "format_utc"]

#: Words of change events in logs (deploys, rollbacks, configuration changes).
CHANGE_KEYWORDS = ("deploy", "rollback", "rolled out", "config", "发布", "回滚", "变更")
_LOG_LIMIT = 30


def format_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a `Z`, as the tools print times."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class AlertPlanner:
    """Plans the evidence calls of one alert's diagnosis (no model)."""

    def __init__(self, focus: AlertFocus) -> None:
        self.focus = focus

    def plan(self, request: PlanRequest) -> RoleOutcome[PlannerOutput]:
        tools = {str(t.get("name")) for t in request.tools}
        if request.retry_context is None:
            calls = self._first_round(tools)
            intent = "diagnose_alert"
        else:
            calls = self._second_round(tools)
            intent = "fill_gaps"
        output = PlannerOutput(
            intent=intent, calls=calls, evidence_targets=[c.purpose or c.tool for c in calls]
        )
        return RoleOutcome(
            output,
            AgentStep(
                role="planner",
                round=request.round,
                thought=f"alert {self.focus.alertname}: {len(calls)} calls",
                reason_code="alert_rules",
                parse_status=ParseStatus.OK,
                model_name="alert-rules",
                model_output={**output.model_dump(mode="json"), "alert": self._described()},
            ),
        )

    def _described(self) -> dict[str, Any]:
        start, end = self.focus.window
        return {
            "alertname": self.focus.alertname,
            "service": self.focus.service,
            "starts_at": format_utc(self.focus.starts_at),
            "expression": self.focus.expression,
            "metric": self.focus.metric,
            "window": [format_utc(start), format_utc(end)],
        }

    def _window(self) -> dict[str, str]:
        start, end = self.focus.window
        return {"start": format_utc(start), "end": format_utc(end)}

    def _first_round(self, tools: set[str]) -> list[ToolCall]:
        focus = self.focus
        service = focus.service
        calls: list[ToolCall] = []
        if "lookup_knowledge" in tools:
            subject = " ".join(x for x in (focus.alertname, service) if x)
            calls.append(
                ToolCall(
                    tool="lookup_knowledge",
                    arguments={"query": f"{subject} 告警 runbook"[:500]},
                    purpose="runbook",
                )
            )
            if focus.summary:
                calls.append(
                    ToolCall(
                        tool="lookup_knowledge",
                        arguments={"query": f"{focus.alertname} {focus.summary}"[:500]},
                        purpose="alert meaning",
                    )
                )
        if "query_logs" in tools and service:
            calls.append(
                ToolCall(
                    tool="query_logs",
                    arguments={
                        "service": service,
                        "level": ["ERROR", "WARN", "FATAL"],
                        **self._window(),
                        "limit": _LOG_LIMIT,
                    },
                    purpose="error logs",
                )
            )
            calls.append(
                ToolCall(
                    tool="query_logs",
                    arguments={
                        "service": service,
                        "keywords": list(CHANGE_KEYWORDS),
                        **self._window(),
                        "limit": _LOG_LIMIT,
                    },
                    purpose="change events",
                )
            )
        if "query_metrics" in tools and focus.metric:
            arguments: dict[str, Any] = {"name": focus.metric, **self._window()}
            if focus.query_labels:
                arguments["labels"] = focus.query_labels
            calls.append(ToolCall(tool="query_metrics", arguments=arguments, purpose="alert metric"))
        return calls

    def _second_round(self, tools: set[str]) -> list[ToolCall]:
        focus = self.focus
        calls: list[ToolCall] = []
        if "query_logs" in tools and focus.service:
            calls.append(
                ToolCall(
                    tool="query_logs",
                    arguments={"service": focus.service, **self._window(), "limit": _LOG_LIMIT},
                    purpose="all logs",
                )
            )
        if "lookup_knowledge" in tools:
            calls.append(
                ToolCall(
                    tool="lookup_knowledge",
                    arguments={"query": f"{focus.alertname} 处置步骤 handling steps"[:500]},
                    purpose="handling steps",
                )
            )
        return calls

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

`AlertExecutor` is the offline executor of a diagnosis: the extractive executor's claims (chosen for
the question built from the alert: mostly the alert's log lines and series), plus at most
`MAX_RUNBOOK_FINDINGS` runbook sentences that state a fact about *this* alert's evidence — so a
runbook's known cause pattern, threshold or dependency can be a cited finding (and, when it says
what causes what, a root-cause candidate of category knowledge), not only a next step. A sentence
of a knowledge passage qualifies when it is not a procedure step and either
- names an identifier that the run's live records (log lines, metric series) also show: a code span
  (`` `error_code=ERR_POOL_EXHAUSTED` ``, `` `pool saturated` ``), an error code, a `key=value`
  token or a snake_case name (the alert's metric), or
- names the alert itself and states a figure (its threshold).
Each is quoted verbatim with its citation, like any claim, and goes through the same gatekeeper,
verifier and composer. The executor's step records why each was added (`runbook_matches`: the
claim, the identifier, the live record that shows it).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from groundgate.aiops.alert_focus import AlertFocus
from groundgate.contracts import (
    AgentStep,
    Claim,
    ClaimType,
    EvidenceRef,
    EvidenceType,
    ExecutorOutput,
    ParseStatus,
    PlannerOutput,
    ToolCall,
)
from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.runtime.answers import units_of
from groundgate.runtime.roles import ExecuteRequest, Executor, PlanRequest, RoleOutcome
from groundgate.verify.claims import key_decision

__all__ = ["CHANGE_KEYWORDS", "MAX_RUNBOOK_FINDINGS", "AlertExecutor", "AlertPlanner", "format_utc"]

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


#: Runbook sentences an offline diagnosis may add to the extractive executor's claims.
MAX_RUNBOOK_FINDINGS = 2
_KNOWLEDGE_TOOLS = frozenset({"lookup_knowledge", "search_knowledge", "knowledge_search"})
_LIVE_TOOLS = frozenset({"query_logs", "query_metrics"})
_CODE_SPAN = re.compile(r"`([^`\n]{3,80})`")
_CODE_TOKEN = re.compile(
    r"(?<![\w=])(?:ERR_[A-Z0-9_]+|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z_]+=[A-Za-z0-9_./-]+)"
)
#: A passage of a runbook (its source or heading says so).
_RUNBOOK = re.compile(r"runbook|playbook|运维手册|处置手册|应急手册|\bSOP\b", re.IGNORECASE)
#: A procedure step (what to do), not a fact about the alert.
_PROCEDURE = re.compile(
    r"立即|请(?!求)|应当|需要|必须|按照|处置|先查看|先确认|执行|"
    r"\b(?:should|must|first|then|run|check|restart|roll back)\b",
    re.IGNORECASE,
)
_CAUSE = re.compile(r"根因|原因|导致|引起|由于|because|cause|due to|led to|result(?:s|ed)? in", re.IGNORECASE)
_FIGURE = re.compile(r"\d")


def _claim_type(text: str) -> ClaimType:
    return ClaimType.ROOT_CAUSE if _CAUSE.search(text) else ClaimType.GENERAL_FACT


class AlertExecutor:
    """The offline executor of a diagnosis (module docstring): the base executor's claims plus the
    runbook sentences that match the alert's evidence."""

    def __init__(self, base: Executor, focus: AlertFocus, *, max_runbook: int = MAX_RUNBOOK_FINDINGS) -> None:
        self.base = base
        self.focus = focus
        self.max_runbook = max_runbook

    def _identifiers(self, quote: str) -> list[str]:
        found = [m.group(1).strip() for m in _CODE_SPAN.finditer(quote)]
        found += [m.group(0) for m in _CODE_TOKEN.finditer(quote.replace("`", " "))]
        service = (self.focus.service or "").lower()
        return [
            x
            for x in dict.fromkeys(found)
            if len(x) >= 4 and x.lower() not in (service, self.focus.alertname.lower())
        ]

    def _match(self, quote: str, live: list[tuple[str, str]]) -> tuple[int, str, str] | None:
        """(strength, identifier, record) of a qualifying sentence, or None."""
        if _PROCEDURE.search(quote):
            return None
        for identifier in self._identifiers(quote):
            lowered = identifier.lower()
            for citation, text in live:
                if lowered in text:
                    return (2 if _CAUSE.search(quote) else 1, identifier, citation)
        if self.focus.alertname and self.focus.alertname in quote and _FIGURE.search(quote):
            return (0, self.focus.alertname, "")
        return None

    def execute(self, request: ExecuteRequest) -> RoleOutcome[ExecutorOutput]:
        outcome = self.base.execute(request)
        output = outcome.output
        if output is None or self.max_runbook <= 0:
            return outcome
        live = [
            (item.citation_id, item.text.lower())
            for item in request.evidence
            if item.tool in _LIVE_TOOLS and item.evidence_type is EvidenceType.VERIFIED_FACT
        ]
        needs = (request.needs or derive_needs(request.question)).needs
        equivalents = bundled_equivalents()
        said = {c.text for c in output.claims}
        quoted = {(r.citation_id, r.excerpt) for c in output.claims for r in c.evidence_refs}
        found: list[tuple[tuple[int, int], Claim, dict[str, str]]] = []
        order = 0
        for item in request.evidence:
            if (
                item.tool not in _KNOWLEDGE_TOOLS
                or item.evidence_type is not EvidenceType.DOCUMENT_EVIDENCE
                or not _RUNBOOK.search(item.source)
            ):
                continue
            for unit in units_of(item, order):
                order += 1
                if unit.case or len(unit.quotes) != 1:
                    continue
                quote = unit.quotes[0][1]
                if unit.text in said or (item.citation_id, quote) in quoted:
                    continue
                match = self._match(quote, live)
                if match is None:
                    continue
                # Only what the verifier would show: a sentence about a need of the question (the
                # same need matcher); one about none of them would be verified but never stated.
                view = statement(unit.text, item.source, unit.surround)
                if needs and not any(match_need(n, view, equivalents=equivalents).on_topic for n in needs):
                    continue
                strength, identifier, record = match
                claim = Claim(
                    id="",
                    text=unit.text,
                    claim_type=_claim_type(unit.text),
                    critical=key_decision(unit.text).key,
                    evidence_refs=[
                        EvidenceRef(
                            invocation_id=item.invocation_id, citation_id=item.citation_id, excerpt=quote
                        )
                    ],
                )
                said.add(unit.text)
                found.append(((-strength, unit.order), claim, {"identifier": identifier, "record": record}))
        found.sort(key=lambda x: x[0])
        taken = found[: self.max_runbook]
        if not taken:
            return outcome
        start = len(output.claims) + 1
        added = [
            claim.model_copy(update={"id": f"c{n}"}) for n, (_, claim, _) in enumerate(taken, start=start)
        ]
        matches = [
            {"claim": claim.id, "citation": claim.evidence_refs[0].citation_id or "", **why}
            for claim, (_, _, why) in zip(added, taken, strict=True)
        ]
        claims = [*output.claims, *added]
        final = output.final_answer
        joiner = "" if any("\u4e00" <= ch <= "\u9fff" for ch in final) else " "
        new_output = output.model_copy(
            update={
                "claims": claims,
                "final_answer": joiner.join(x for x in (final, *(c.text for c in added)) if x),
            }
        )
        step = outcome.step.model_copy(
            update={
                "thought": f"{outcome.step.thought}; {len(added)} runbook sentences matching the alert's evidence",
                "model_output": {**new_output.model_dump(mode="json"), "runbook_matches": matches},
            }
        )
        return replace(outcome, output=new_output, step=step)

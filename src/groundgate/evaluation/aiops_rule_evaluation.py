"""AIOps rule self-evaluation (seed 004 §6, `AiOpsRuleEvaluationService`): the `aiops_rule_evaluation` slot.

Exactly the seed's four checks, each a row of `checks` (`name`, `passed`, `detail`):

| check | passes when |
|---|---|
| `final_report_present` | the diagnosis has a final report (its text and its sections) |
| `payload_focus` | the report is about the input alert: its subject is the input alert's name, the gated question names the alert's service (or name), and every tool call that names a service names the alert's |
| `evidence_tools_called` | knowledge (`lookup_knowledge`), logs and metrics tools were all called |
| `no_unrelated_alert_promoted` | no other active alert (of the payload or of `list_active_alerts`) is the report's subject, a call's target or named by a finding or a root-cause candidate |

Verdict: `PASS` when all pass; `FAIL` when the report is missing, unfocused or promotes another alert;
`WARN` when only evidence tools are missing. A light rule check, not a verifier (the seed says so):
the verifier's gate on the report is the `verifier_evaluation` slot of the same run.

Pure: no I/O, no model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgate.contracts.verification import AiOpsRuleEvaluation

__all__ = ["EVIDENCE_KINDS", "AiOpsRunFacts", "evaluate_aiops_rules", "evidence_kind"]

#: The evidence kinds a diagnosis must read, and the tools of each.
EVIDENCE_KINDS: Mapping[str, frozenset[str]] = {
    "knowledge": frozenset({"lookup_knowledge", "search_knowledge", "knowledge_search"}),
    "logs": frozenset({"query_logs"}),
    "metrics": frozenset({"query_metrics"}),
}


def evidence_kind(tool: str) -> str | None:
    """`knowledge`, `logs` or `metrics` for an evidence tool; None for any other."""
    for kind, tools in EVIDENCE_KINDS.items():
        if tool in tools:
            return kind
    return None


@dataclass(frozen=True, slots=True)
class AiOpsRunFacts:
    """What the checks read of one diagnosis."""

    alertname: str
    service: str | None
    report_text: str
    report_subject: str
    """The alert name the report is about (its explanation's subject)."""
    report_sections: Sequence[str]
    calls: Sequence[tuple[str, Mapping[str, Any]]]
    """(tool, arguments) of every call of the run."""
    stated: Sequence[str] = ()
    """The findings and root-cause candidates the report states."""
    question: str = ""
    """The question the gated run answered (built from the alert: it names the alert's subject)."""
    other_alerts: Sequence[Mapping[str, str]] = field(default_factory=tuple)
    """Label sets of the other alerts active at the time (payload or Alertmanager)."""


def _check(name: str, passed: bool, detail: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "passed": passed, "detail": detail, **extra}


def _unrelated(facts: AiOpsRunFacts) -> list[Mapping[str, str]]:
    """Other alerts that are not the input alert (another name, or the same name on another service)."""
    out = []
    for labels in facts.other_alerts:
        name = labels.get("alertname", "")
        service = labels.get("service") or None
        if name == facts.alertname and (service == facts.service or not service):
            continue
        out.append(labels)
    return out


def evaluate_aiops_rules(facts: AiOpsRunFacts) -> AiOpsRuleEvaluation:
    """The four checks of seed 004 §6 and the verdict."""
    checks: list[dict[str, Any]] = []
    present = bool(facts.report_text.strip()) and bool(facts.report_sections)
    checks.append(
        _check(
            "final_report_present",
            present,
            f"{len(facts.report_sections)} sections" if present else "no final report",
        )
    )
    off_target = [
        f"{tool}:{args.get('service')}"
        for tool, args in facts.calls
        if args.get("service") and facts.service and args.get("service") != facts.service
    ]
    subject = facts.service or facts.alertname
    asked = not facts.question or subject in facts.question
    focused = facts.report_subject == facts.alertname and not off_target and asked
    detail = (
        f"report about {facts.report_subject}"
        if focused
        else f"report about {facts.report_subject!r}, input {facts.alertname!r}; off-target calls: "
        + (", ".join(off_target) or "none")
        + ("" if asked else f"; the question does not name {subject!r}")
    )
    checks.append(_check("payload_focus", focused, detail))
    called = {kind for tool, _ in facts.calls if (kind := evidence_kind(tool))}
    missing = [kind for kind in EVIDENCE_KINDS if kind not in called]
    checks.append(
        _check(
            "evidence_tools_called",
            not missing,
            "called: " + ", ".join(k for k in EVIDENCE_KINDS if k in called)
            if not missing
            else "missing: " + ", ".join(missing),
            called=sorted(called),
            missing=missing,
        )
    )
    promoted: list[str] = []
    for labels in _unrelated(facts):
        name = labels.get("alertname", "")
        service = labels.get("service")
        if name and name == facts.report_subject:
            promoted.append(f"{name}: the report's subject")
        elif name and any(name in text for text in facts.stated):
            promoted.append(f"{name}: named by a finding")
        elif (
            service
            and service != facts.service
            and any(args.get("service") == service for _, args in facts.calls)
        ):
            promoted.append(f"{name}: its service {service} was queried")
    checks.append(
        _check(
            "no_unrelated_alert_promoted",
            not promoted,
            "; ".join(promoted) if promoted else f"{len(_unrelated(facts))} other alerts left aside",
        )
    )
    failed = {c["name"] for c in checks if not c["passed"]}
    if not failed:
        verdict = "PASS"
    elif failed == {"evidence_tools_called"}:
        verdict = "WARN"
    else:
        verdict = "FAIL"
    return AiOpsRuleEvaluation(verdict=verdict, checks=checks)

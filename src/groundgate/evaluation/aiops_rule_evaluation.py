"""AIOps rule self-evaluation (seed 004 §6, `AiOpsRuleEvaluationService`): the `aiops_rule_evaluation` slot.

Exactly the seed's four checks, each a row of `checks` (`name`, `passed`, `detail`):

| check | passes when |
|---|---|
| `final_report_present` | the diagnosis has a final report (its text and its sections) |
| `payload_focus` | the report is about the input alert: its subject is the input alert's name, the gated question names the alert's service (or name), and every tool call that names a service names the alert's |
| `evidence_tools_called` | knowledge (`lookup_knowledge`), logs and metrics tools were all called |
| `no_unrelated_alert_promoted` | no other active alert is promoted to the report's main subject (below) |

**The other active alerts** are those of the input's webhook notification (`other_alerts`) and those
Alertmanager held at diagnosis time (`active_alerts`: the `alert.active` facts of the run's
`list_active_alerts` invocation, recorded with the run), less the input alert itself (same
fingerprint, or same name on the same service). An alert is *promoted* when it is the report's
subject, when a root-cause candidate names it (its `alertname`) or cites its Alertmanager record, when
more than half of the key findings name or cite it (it is what the report is about), or when a tool
call targets its service. A key finding that names it among others is context, not promotion: it
passes and is listed under `context`. The check's row lists every alert it considered (`considered`:
name, service, where it came from, record) and what it knew of Alertmanager (`alertmanager`:
`read`, `failed: …`, or `not configured`), so it can be re-checked from the stored run.

Verdict: `PASS` when all pass; `FAIL` when the report is missing, unfocused or promotes another alert;
`WARN` when only evidence tools are missing. A light rule check, not a verifier (the seed says so):
the verifier's gate on the report is the `verifier_evaluation` slot of the same run.

Pure: no I/O, no model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgate.contracts.verification import AiOpsRuleEvaluation

__all__ = [
    "EVIDENCE_KINDS",
    "ActiveAlert",
    "AiOpsRunFacts",
    "Stated",
    "evaluate_aiops_rules",
    "evidence_kind",
]

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
class Stated:
    """A key finding or root-cause candidate of the report: its text and the records it cites."""

    text: str
    refs: Sequence[str] = ()
    """Citation ids (fact refs, passage ids) of its evidence."""


@dataclass(frozen=True, slots=True)
class ActiveAlert:
    """An alert Alertmanager held at diagnosis time (an `alert.active` fact of `list_active_alerts`)."""

    labels: Mapping[str, str]
    ref: str = ""
    """The fact's ref (`alert:<fingerprint>:<startsAt>`): what a statement citing it cites."""
    fingerprint: str = ""


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
    findings: Sequence[Stated] = ()
    """The key findings the report states."""
    candidates: Sequence[Stated] = ()
    """The root-cause candidates the report states."""
    question: str = ""
    """The question the gated run answered (built from the alert: it names the alert's subject)."""
    other_alerts: Sequence[Mapping[str, str]] = field(default_factory=tuple)
    """Label sets of the other alerts of the input's notification."""
    active_alerts: Sequence[ActiveAlert] = ()
    """What Alertmanager held at diagnosis time (the run's `list_active_alerts` facts)."""
    alertmanager: str = "not configured"
    """What is known of Alertmanager's active list: `read`, `failed: <reason>` or `not configured`."""
    fingerprint: str = ""
    """The input alert's fingerprint (its own Alertmanager record is not another alert)."""


def _check(name: str, passed: bool, detail: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "passed": passed, "detail": detail, **extra}


@dataclass(frozen=True, slots=True)
class _Other:
    labels: Mapping[str, str]
    source: str
    ref: str = ""

    @property
    def name(self) -> str:
        return self.labels.get("alertname", "")

    @property
    def service(self) -> str | None:
        return self.labels.get("service") or None


def _unrelated(facts: AiOpsRunFacts) -> list[_Other]:
    """The other alerts (payload, then Alertmanager) that are not the input alert (another name, or
    the same name on another service), each once."""
    out: list[_Other] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    given = [_Other(labels, "payload") for labels in facts.other_alerts]
    held = [
        _Other(a.labels, "alertmanager", a.ref)
        for a in facts.active_alerts
        if not (facts.fingerprint and a.fingerprint and a.fingerprint.lower() == facts.fingerprint.lower())
    ]
    for other in (*given, *held):
        if other.name == facts.alertname and (other.service == facts.service or not other.service):
            continue
        key = tuple(sorted(other.labels.items()))
        if key in seen:
            # The same alert in the notification and in Alertmanager: keep its record's ref.
            out = [o if tuple(sorted(o.labels.items())) != key or o.ref else other for o in out]
            continue
        seen.add(key)
        out.append(other)
    return out


def _names(name: str, stated: Stated, ref: str) -> bool:
    """Whether a statement names an alert (as a whole word) or cites its Alertmanager record."""
    if ref and ref in stated.refs:
        return True
    return (
        bool(name)
        and re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", stated.text) is not None
    )


def _promotion(facts: AiOpsRunFacts, other: _Other) -> str | None:
    """Why `other` is the report's main subject, or None."""
    name, service = other.name, other.service
    if name and name == facts.report_subject:
        return "the report's subject"
    if any(_names(name, c, other.ref) for c in facts.candidates):
        return "a root-cause candidate"
    naming = sum(_names(name, f, other.ref) for f in facts.findings)
    if facts.findings and naming * 2 > len(facts.findings):
        return f"{naming} of {len(facts.findings)} key findings"
    if (
        service
        and service != facts.service
        and any(args.get("service") == service for _, args in facts.calls)
    ):
        return f"its service {service} was queried"
    return None


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
    others = _unrelated(facts)
    promoted: list[str] = []
    context: list[str] = []
    for other in others:
        why = _promotion(facts, other)
        if why is not None:
            promoted.append(f"{other.name or '?'} ({other.source}): {why}")
        elif any(_names(other.name, f, other.ref) for f in facts.findings):
            context.append(other.name)
    by_source = {src: sum(o.source == src for o in others) for src in ("payload", "alertmanager")}
    detail = (
        "; ".join(promoted)
        if promoted
        else f"{len(others)} other alerts left aside (notification {by_source['payload']},"
        f" Alertmanager {by_source['alertmanager']}; Alertmanager's active list: {facts.alertmanager})"
        + (f"; named as context only: {', '.join(dict.fromkeys(context))}" if context else "")
    )
    checks.append(
        _check(
            "no_unrelated_alert_promoted",
            not promoted,
            detail,
            considered=[
                {"alertname": o.name, "service": o.service, "source": o.source, "ref": o.ref or None}
                for o in others
            ],
            alertmanager=facts.alertmanager,
            context=list(dict.fromkeys(context)),
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

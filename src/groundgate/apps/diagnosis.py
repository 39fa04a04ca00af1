"""Alert diagnosis (issue 14): one alert through the same evidence gate as a question, recorded.

Input: one Alertmanager alert — from a webhook notification (`POST /api/aiops/alertmanager`, through
the durable queue) or a JSON file (`groundgate diagnose`: a version-4 webhook body, or one alert
object). The run:

1. `AlertFocus` (`groundgate.aiops.alert_focus`): the alert's labels, annotations, `startsAt`, the
   rule's expression and metric (from `generatorURL`'s `g0.expr` or an `expr` annotation) and the
   evidence window around `startsAt`;
   then, when `[alertmanager]` is configured (`list_active_alerts` is registered), what else
   Alertmanager holds now (`read_active_alerts`): one call, recorded as a tool invocation of the run
   (round 1, before the gated rounds), context only — its records are never evidence the gate may
   state, and it spends none of the run's call or candidate budgets. Without Alertmanager there is
   no other source of active alerts (no embedded equivalent exists): the check reads the other alerts
   of the input's notification only, and says so;
2. the orchestrator of the configured pipeline with its executor, verifier and budgets, and the
   `AlertPlanner` (`groundgate.runtime.alert_planner`) in place of the question planner: knowledge
   (the alert's runbook), logs (the service's errors and change events in the window) and metrics
   (the alert's own series in the window). The question it answers is built from the alert
   (`diagnosis_question`): the cause of the service's errors since `startsAt`, and the peak of the
   alert's metric in the window — so the gatekeeper, verifier and composer decide which records are
   stated, exactly as for a question;
3. the report (`groundgate.compose.diagnosis`): alert explanation, key findings (each cited),
   root-cause candidates (each with its fact category and evidence kind), next steps, evidence
   gaps; `DEGRADED` when no verified finding remains, `LOW_CONFID_WITH_DISCLAIMER` when findings
   remain but none is a root-cause candidate. It is the run's answer;
4. the `aiops_rule_evaluation` slot (seed 004 §6, `groundgate.evaluation.aiops_rule_evaluation`),
   merged through the self-evaluation merge service next to the run's `verifier_evaluation` and
   `rule_evaluation`.

The run is recorded with mode `aiops` (the trace API and the web page show it like any run); the
session id is the diagnosis's own (one session per alert episode, see `groundgate.store.alert_queue`).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from groundgate.aiops.alert_focus import AlertFocus
from groundgate.aiops.webhook import WebhookAlert, parse_webhook
from groundgate.compose.diagnosis import DiagnosisSections, Finding, kind_name, render_report, report_texts
from groundgate.compose.templates import Language, templates
from groundgate.contracts import (
    AiOpsRuleEvaluation,
    ExecutionContext,
    OutputKind,
    RunResult,
    ToolCall,
    ToolResult,
    ToolStatus,
)
from groundgate.errors import InvalidInputError
from groundgate.evaluation.aiops_rule_evaluation import (
    EVIDENCE_KINDS,
    ActiveAlert,
    AiOpsRunFacts,
    Stated,
    evaluate_aiops_rules,
    evidence_kind,
)
from groundgate.runtime.alert_planner import AlertExecutor, AlertPlanner, format_utc
from groundgate.runtime.offline import ExtractiveExecutor
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.store import Store
from groundgate.tools.alertmanager import ALERTS_TOOL

__all__ = [
    "DIAGNOSIS_MODE",
    "Diagnosis",
    "alert_focus",
    "alert_orchestrator",
    "build_diagnosis",
    "diagnose_recorded",
    "diagnosis_question",
    "load_alert",
    "active_alerts_of",
    "read_active_alerts",
    "read_alert_file",
]

#: `diagnosis_run.mode` of an alert diagnosis.
DIAGNOSIS_MODE = "aiops"
#: What makes a verified record a root-cause candidate rather than a symptom: an error code, a change
#: (deploy, rollback, configuration), a resource running out, a slow or failing dependency, a cause word.
_CAUSE_WORDS = re.compile(
    r"error_code=|ERR_[A-Z_]+|deploy|rollback|rolled out|config|发布|回滚|变更|原因|导致|cause|due to"
    r"|exhaust|saturat|slow query|timeout|timed out|refused|unavailable|OOM|killed|耗尽|超时|慢查询",
    re.IGNORECASE,
)
#: A runbook sentence (a knowledge finding) is a root-cause candidate only when it states a cause: a
#: documented symptom ("ERR_TIMEOUT 错误率上升") is a finding, not a cause.
_STATES_CAUSE = re.compile(
    r"根因|原因|导致|引起|由于|because|cause|due to|led to|result(?:s|ed)? in", re.IGNORECASE
)
_FAILED = (ToolStatus.ERROR, ToolStatus.TIMEOUT, ToolStatus.DENIED)
#: The arguments of the diagnosis's one `list_active_alerts` call: every active alert, up to the
#: tool's maximum (a storm beyond it is a gap of that call).
ACTIVE_ALERTS_ARGUMENTS: Mapping[str, Any] = {"limit": 100}


def load_alert(data: object) -> tuple[WebhookAlert, list[WebhookAlert]]:
    """The alert to diagnose and the other alerts beside it, from a webhook body (version 4: its first
    firing alert, else its first alert) or one alert object. `InvalidInputError` otherwise."""
    if isinstance(data, Mapping) and "alerts" in data:
        hook = parse_webhook(data)
        alerts = list(hook.alerts)
        chosen = next((a for a in alerts if a.status == "firing"), alerts[0])
        return chosen, [a for a in alerts if a.dedup_key != chosen.dedup_key]
    if not isinstance(data, Mapping):
        raise InvalidInputError("an alert must be a JSON object (a webhook body or one alert)")
    try:
        return WebhookAlert.model_validate({"status": "firing", **data}), []
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "alert"
        raise InvalidInputError(f"not an Alertmanager alert: {where}: {first['msg']}") from exc


def read_alert_file(path: Path) -> tuple[WebhookAlert, list[WebhookAlert]]:
    """`load_alert` of a JSON file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from exc
    return load_alert(data)


def alert_focus(alert: WebhookAlert) -> AlertFocus:
    return AlertFocus.from_alert(
        labels=alert.labels,
        annotations=alert.annotations,
        starts_at=alert.starts_at,
        ends_at=alert.ends_at,
        generator_url=alert.generator_url,
        fingerprint=alert.fingerprint,
    )


def _minute(moment: str) -> str:
    """`2026-03-21T09:15:00Z` → `2026-03-21 09:15` (how the question's times are written)."""
    return moment[:16].replace("T", " ")


def diagnosis_question(focus: AlertFocus) -> str:
    """The question the gated run answers for this alert (zh-CN, as the seed's AIOps runs are): the
    cause of the service's errors since `startsAt`, and the peak of the alert's metric in the window.

    The subject is the service (else the alert's name): the records a diagnosis can cite — log lines,
    metric series — name the service, not the rule."""
    subject = focus.service or focus.alertname
    parts = [f"{_minute(format_utc(focus.starts_at))} 开始的 {subject} 错误根因是什么？"]
    if focus.metric:
        start, end = focus.window
        parts.append(
            f"{focus.metric} 在 {_minute(format_utc(start))[11:]} 至 {_minute(format_utc(end))[11:]} 的最大值是多少？"
        )
    return "".join(parts)


def alert_orchestrator(base: Orchestrator, focus: AlertFocus) -> Orchestrator:
    """The configured pipeline (tools, executor, verifier, budgets) with the alert's planner; offline
    (the extractive executor), the `AlertExecutor` around it, so runbook sentences that match the
    alert's evidence can be findings too."""
    executor = base.executor
    if isinstance(executor, ExtractiveExecutor):
        executor = AlertExecutor(executor, focus)
    return Orchestrator(
        base.tools,
        planner=AlertPlanner(focus),
        executor=executor,
        verifier=base.verifier,
        # The alert's first round already reads the window's logs, metrics and runbook: nothing
        # found there is not retried blind.
        budgets=replace(base.budgets, follow_up_without_evidence=False),
        clock=base.clock,
    )


def read_active_alerts(tools: Any, ctx: ExecutionContext, *, run_id: str) -> ToolResult | None:
    """What Alertmanager holds now: the `list_active_alerts` call of a diagnosis (round 1), or None
    when the tool is not registered (`[alertmanager]` not configured). `tools`: the pipeline's tool
    backend (a `ToolRegistry`, or the regression loop's replay). A failure is a result like any call's
    (status and error), never an exception."""
    if not any(t.get("name") == ALERTS_TOOL for t in tools.describe_for_model()):
        return None
    call = ToolCall(
        tool=ALERTS_TOOL, arguments=dict(ACTIVE_ALERTS_ARGUMENTS), purpose="active alerts (context)"
    )
    result: ToolResult = tools.execute(call, ctx, run_id=run_id, round=1)
    return result


def active_alerts_of(result: ToolResult | None) -> tuple[list[ActiveAlert], str]:
    """The alerts of a `list_active_alerts` result, and what is known of the list."""
    if result is None:
        return [], "not configured"
    if result.status not in (ToolStatus.OK, ToolStatus.EMPTY):
        return [], f"failed: {result.error or result.status.value}"
    alerts = [
        ActiveAlert(
            labels={str(k): str(v) for k, v in dict(fact.value.get("labels") or {}).items()},
            ref=fact.fact_ref,
            fingerprint=str(fact.value.get("fingerprint") or ""),
        )
        for fact in result.facts
        if fact.fact_type == "alert.active" and isinstance(fact.value, Mapping)
    ]
    return alerts, "read" + (f" ({'; '.join(result.gaps)})" if result.gaps and alerts else "")


@dataclass(slots=True)
class Diagnosis:
    """One alert's diagnosis: the gated run (its answer is the report), the report's sections and the
    AIOps rule evaluation."""

    focus: AlertFocus
    run: RunResult
    sections: DiagnosisSections
    evaluation: AiOpsRuleEvaluation
    language: Language = "zh-CN"
    others: list[dict[str, str]] = field(default_factory=list)

    @property
    def report(self) -> str:
        return self.run.answer

    def payload(self) -> dict[str, Any]:
        """The JSON shape (`groundgate diagnose --json`, the alert view of the API)."""
        start, end = self.focus.window

        def finding(f: Finding) -> dict[str, Any]:
            return {
                "text": f.text,
                "citations": list(f.citations),
                "category": f.category,
                "evidenceKind": f.evidence_kind,
            }

        return {
            "runId": self.run.run_id,
            "sessionId": self.run.session_id,
            "alert": {
                "alertname": self.focus.alertname,
                "service": self.focus.service,
                "severity": self.focus.severity,
                "fingerprint": self.focus.fingerprint,
                "startsAt": format_utc(self.focus.starts_at),
                "expression": self.focus.expression,
                "metric": self.focus.metric,
                "window": [format_utc(start), format_utc(end)],
            },
            "outputKind": self.run.output_kind.value,
            "verdict": self.run.verdict.value if self.run.verdict else None,
            "groundednessScore": self.run.groundedness_score,
            "sections": {
                "alertExplanation": self.sections.explanation,
                "keyFindings": [finding(f) for f in self.sections.findings],
                "rootCauseCandidates": [finding(f) for f in self.sections.candidates],
                "nextSteps": list(self.sections.next_steps),
                "evidenceGaps": list(self.sections.gaps),
            },
            "report": self.report,
            "citations": [c.model_dump(mode="json", by_alias=True) for c in self.run.citations],
            "toolCalls": [
                {"tool": r.tool, "status": r.status.value, "error": r.error} for r in self.run.tool_results
            ],
            "aiopsRuleEvaluation": self.evaluation.model_dump(mode="json"),
            "stopReason": self.run.stop_reason,
        }


def _findings(run: RunResult) -> list[tuple[Finding, tuple[str, ...]]]:
    """The statements the composer showed, with their citation numbers, category and evidence kind,
    and the citation ids of their evidence."""
    evaluation = run.verifier_evaluation
    if evaluation is None or run.executor_output is None or evaluation.composer_output is None:
        return []
    used = set(evaluation.composer_output.used_claim_ids)
    categories = {f.claim_id: f.category.value for f in evaluation.facts_checked if f.claim_id}
    numbers = {(c.invocation_id, c.citation_id): c.number for c in run.citations}
    tools = {r.invocation_id: r.tool for r in run.tool_results}
    out: list[tuple[Finding, tuple[str, ...]]] = []
    for claim in run.executor_output.claims:
        if claim.id not in used:
            continue
        marks = tuple(
            dict.fromkeys(
                n
                for ref in claim.evidence_refs
                if (n := numbers.get((ref.invocation_id, ref.citation_id or ""))) is not None
            )
        )
        if not marks:
            continue  # shown only with a citation (docs/design.md §3.1)
        kinds = [k for ref in claim.evidence_refs if (k := evidence_kind(tools.get(ref.invocation_id, "")))]
        finding = Finding(claim.text, marks, categories.get(claim.id, ""), kinds[0] if kinds else "other")
        out.append((finding, tuple(ref.citation_id or "" for ref in claim.evidence_refs)))
    return out


def _runbook(run: RunResult, focus: AlertFocus) -> str | None:
    """The title of a document found by a knowledge search that names the alert."""
    for result in run.tool_results:
        for doc in result.documents:
            if focus.alertname and focus.alertname in f"{doc.source} {doc.text}":
                return doc.source.split(" > ")[0]
    return None


def build_diagnosis(
    focus: AlertFocus,
    run: RunResult,
    *,
    others: Sequence[Mapping[str, str]] = (),
    active: ToolResult | None = None,
    language: Language = "zh-CN",
) -> Diagnosis:
    """The report of a gated run: sections, its text as the run's answer, the AIOps rule evaluation.

    `others`: the other alerts of the input's notification (label sets); `active`: the diagnosis's
    `list_active_alerts` call (`read_active_alerts`), added to the run's tool calls (so it is
    recorded with the run) and read by the `no_unrelated_alert_promoted` check."""
    r = report_texts(language)
    t = templates(language)
    start, end = (format_utc(x) for x in focus.window)
    if active is not None and all(res.invocation_id != active.invocation_id for res in run.tool_results):
        run = run.model_copy(update={"tool_results": [active, *run.tool_results]})
    cited = _findings(run)
    refs = dict(cited)
    findings = [f for f, _ in cited]
    degraded = run.output_kind is OutputKind.DEGRADED or not findings
    candidates = [
        f
        for f in findings
        if f.evidence_kind != "metrics"
        and (_STATES_CAUSE if f.evidence_kind == "knowledge" else _CAUSE_WORDS).search(f.text)
    ]
    explanation = r.explanation.format(
        alertname=focus.alertname,
        service=focus.service or "—",
        severity=focus.severity or "—",
        starts_at=format_utc(focus.starts_at),
        summary=focus.summary or "—",
    )
    if focus.expression:
        explanation += "\n" + r.explanation_rule.format(expression=focus.expression, start=start, end=end)
    failed = [res for res in run.tool_results if res.status in _FAILED]
    called = {k for res in run.tool_results if (k := evidence_kind(res.tool))}
    gaps = list(dict.fromkeys(run.gaps))
    gaps += [t.gap_tool_failed.format(tool=res.tool, reason=res.error or res.status.value) for res in failed]
    gaps += [
        r.gap_tool_missing.format(kind=kind_name(k, language)) for k in EVIDENCE_KINDS if k not in called
    ]
    answered = {
        k for res in run.tool_results if res.status is ToolStatus.OK and (k := evidence_kind(res.tool))
    }
    empty = {
        k for res in run.tool_results if res.status is ToolStatus.EMPTY and (k := evidence_kind(res.tool))
    }
    gaps += [
        r.gap_kind_empty.format(kind=kind_name(k, language)) for k in EVIDENCE_KINDS if k in empty - answered
    ]
    if degraded and not gaps:
        gaps.append(r.gap_no_findings)
    disclaimer = not degraded and not candidates
    if disclaimer:
        gaps.append(r.gap_no_candidate)
    steps: list[str] = []
    if (runbook := _runbook(run, focus)) is not None:
        steps.append(r.step_runbook.format(runbook=runbook))
    if focus.metric:
        steps.append(r.step_metric.format(metric=focus.metric, start=start, end=end))
    if focus.service:
        steps.append(r.step_logs.format(service=focus.service, start=start, end=end))
    if failed:
        steps.append(r.step_check_tools.format(tools=", ".join(dict.fromkeys(res.tool for res in failed))))
    if degraded or not candidates:
        steps.append(r.step_manual)
    shown_numbers = {n for f in findings for n in f.citations}
    sources = [f"[{c.number}] {c.source}" for c in run.citations if c.number in shown_numbers]
    sections = DiagnosisSections(
        explanation=explanation,
        degraded=degraded,
        findings=() if degraded else tuple(findings),
        candidates=() if degraded else tuple(candidates),
        next_steps=tuple(steps),
        gaps=tuple(dict.fromkeys(gaps)),
        sources=tuple(sources),
        disclaimer=disclaimer,
    )
    text = render_report(sections, language)
    update: dict[str, Any] = {"answer": text, "gaps": list(sections.gaps)}
    if degraded:
        update["output_kind"] = OutputKind.DEGRADED
    elif disclaimer and run.output_kind is OutputKind.NORMAL:
        update["output_kind"] = OutputKind.LOW_CONFID_WITH_DISCLAIMER
    report_run = run.model_copy(update=update)
    active_alerts, alertmanager = active_alerts_of(active)

    def stated(items: Sequence[Finding]) -> list[Stated]:
        return [Stated(f.text, refs.get(f, ())) for f in items]

    facts = AiOpsRunFacts(
        alertname=focus.alertname,
        service=focus.service,
        report_text=text,
        report_subject=focus.alertname,
        report_sections=[line for line in text.splitlines() if line.startswith("## ")],
        calls=[(res.tool, res.arguments) for res in run.tool_results],
        findings=stated(sections.findings),
        candidates=stated(sections.candidates),
        other_alerts=list(others),
        active_alerts=active_alerts,
        alertmanager=alertmanager,
        fingerprint=focus.fingerprint,
        question=run.question,
    )
    return Diagnosis(
        focus=focus,
        run=report_run,
        sections=sections,
        evaluation=evaluate_aiops_rules(facts),
        language=language,
        others=[dict(o) for o in others],
    )


def diagnose_recorded(
    store: Store,
    orchestrator: Orchestrator,
    alert: WebhookAlert,
    ctx: ExecutionContext,
    *,
    others: Sequence[WebhookAlert | Mapping[str, str]] = (),
    run_id: str | None = None,
    session_id: str | None = None,
) -> Diagnosis:
    """Diagnose one alert as a recorded run (mode `aiops`): the report is the run's answer, and the
    `aiops_rule_evaluation` slot is merged once the run is final. On an exception the run is recorded
    `FAILED` and the exception re-raised (as `ask_recorded`). `others`: the alerts beside it (in its
    notification), by alert or label set — never diagnosed here, only checked against, as are the
    alerts Alertmanager holds now (`read_active_alerts`, recorded as the run's first invocation)."""
    from groundgate.store.recorder import RunRecorder, run_recorded
    from groundgate.store.repositories import merge_self_evaluation_slot

    focus = alert_focus(alert)
    pipeline = alert_orchestrator(orchestrator, focus)
    question = diagnosis_question(focus)
    labels = [dict(o.labels) if isinstance(o, WebhookAlert) else dict(o) for o in others]
    built: list[Diagnosis] = []

    def execute(recorder: RunRecorder) -> RunResult:
        active = read_active_alerts(pipeline.tools, ctx, run_id=recorder.run_id)
        if active is not None:
            recorder.on_tool_result(active)
        result = pipeline.run(
            question, ctx, run_id=recorder.run_id, session_id=recorder.session_id, sink=recorder
        )
        diagnosis = build_diagnosis(focus, result, others=labels, active=active)
        built.append(diagnosis)
        return diagnosis.run

    run_recorded(
        store,
        execute,
        question=question,
        run_id=run_id or uuid.uuid4().hex,
        session_id=session_id or uuid.uuid4().hex,
        mode=DIAGNOSIS_MODE,
        tenant=ctx.tenant,
    )
    diagnosis = built[0]
    with store.session() as session:
        merge_self_evaluation_slot(
            diagnosis.run.run_id, "aiops_rule_evaluation", diagnosis.evaluation, session=session
        )
    return diagnosis

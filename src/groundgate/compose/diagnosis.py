"""The alert diagnosis report (issue 14): fixed section templates, filled by code from a gated run.

Sections: alert explanation, key findings (each cited), root-cause candidates (each with its evidence
category and kind), next steps, evidence gaps. Findings without any root-cause candidate open with
the fixed disclaimer (a diagnosis without a cause candidate is not a conclusion). What a finding or candidate says is a statement the
gatekeeper and the verifier let through for the run (the composer's `used_claim_ids`), with its
citation numbers; the explanation restates the alert itself (its labels and annotations: the input,
not a conclusion). A `DEGRADED` report opens with the fixed degraded sentence (docs/design.md §3.2)
and states no finding or candidate.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from groundgate.compose.templates import Language, templates

__all__ = ["DiagnosisSections", "Finding", "ReportTexts", "report_texts", "render_report"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One verified statement of a report: its text, citation numbers, fact category and evidence kind
    (`metrics`, `logs`, `knowledge`)."""

    text: str
    citations: tuple[int, ...]
    category: str
    evidence_kind: str


@dataclass(frozen=True, slots=True)
class DiagnosisSections:
    """What a report states, section by section (filled by `groundgate.apps.diagnosis`)."""

    explanation: str
    degraded: bool
    findings: Sequence[Finding] = ()
    candidates: Sequence[Finding] = ()
    next_steps: Sequence[str] = ()
    gaps: Sequence[str] = ()
    sources: Sequence[str] = field(default_factory=tuple)
    """`[n] source` lines of the citations."""
    disclaimer: bool = False
    """Verified findings but no root-cause candidate: the fixed disclaimer opens the report."""


@dataclass(frozen=True, slots=True)
class ReportTexts:
    """The fixed texts of a report in one language."""

    explanation_heading: str
    findings_heading: str
    candidates_heading: str
    next_steps_heading: str
    gaps_heading: str
    sources_heading: str
    none: str
    explanation: str
    """{alertname}, {service}, {severity}, {starts_at}, {summary}"""
    explanation_rule: str
    """{expression}, {start}, {end}"""
    step_runbook: str
    """{runbook}: a document the knowledge search found for the alert"""
    step_metric: str
    """{metric}, {start}, {end}"""
    step_logs: str
    """{service}, {start}, {end}"""
    step_check_tools: str
    step_manual: str
    gap_tool_missing: str
    """{kind}: an evidence kind no tool of the run read"""
    gap_no_findings: str
    gap_no_candidate: str
    gap_kind_empty: str
    """{kind}: every query of that evidence kind came back empty"""


_ZH = ReportTexts(
    explanation_heading="## 告警说明",
    findings_heading="## 关键发现",
    candidates_heading="## 根因候选",
    next_steps_heading="## 建议下一步",
    gaps_heading="## 证据缺口",
    sources_heading="引用：",
    none="暂无",
    explanation="告警 {alertname}（服务 {service}，级别 {severity}）于 {starts_at} 开始触发：{summary}",
    explanation_rule="规则表达式 `{expression}`；本次诊断读取 {start} 至 {end} 的证据。",
    step_runbook="按运维手册《{runbook}》核对处置步骤",
    step_metric="在 {start} 至 {end} 内复核指标 {metric} 的走势",
    step_logs="查看 {service} 在 {start} 至 {end} 的错误日志与变更记录",
    step_check_tools="检查失败的证据工具（{tools}）后重新诊断",
    step_manual="由值班人工确认根因后再处置",
    gap_tool_missing="没有读取{kind}证据",
    gap_no_findings="没有经过验证的发现",
    gap_no_candidate="没有经过验证的根因候选",
    gap_kind_empty="{kind}查询没有找到匹配记录（只说明查询未命中，不说明不存在）",
)
_EN = ReportTexts(
    explanation_heading="## Alert",
    findings_heading="## Key findings",
    candidates_heading="## Root-cause candidates",
    next_steps_heading="## Next steps",
    gaps_heading="## Evidence gaps",
    sources_heading="Sources:",
    none="none",
    explanation="Alert {alertname} (service {service}, severity {severity}) firing since {starts_at}: {summary}",
    explanation_rule="Rule expression `{expression}`; this diagnosis read evidence from {start} to {end}.",
    step_runbook="Follow the runbook “{runbook}”",
    step_metric="Re-check {metric} between {start} and {end}",
    step_logs="Read the error logs and change events of {service} between {start} and {end}",
    step_check_tools="Check the failed evidence tools ({tools}) and diagnose again",
    step_manual="Have the on-call engineer confirm the root cause before acting",
    gap_tool_missing="no {kind} evidence was read",
    gap_no_findings="no verified finding",
    gap_no_candidate="no verified root-cause candidate",
    gap_kind_empty="the {kind} queries found no matching record (the queries missed; it does not prove absence)",
)
_KIND_ZH = {"metrics": "指标", "logs": "日志", "knowledge": "知识库/运维手册"}


def report_texts(language: Language) -> ReportTexts:
    return _ZH if language == "zh-CN" else _EN


def kind_name(kind: str, language: Language) -> str:
    """An evidence kind as the report names it."""
    return _KIND_ZH.get(kind, kind) if language == "zh-CN" else kind


def _finding_line(finding: Finding, *, with_category: bool) -> str:
    marks = "".join(f"[{n}]" for n in finding.citations)
    tag = f"（{finding.category} · {finding.evidence_kind}）" if with_category else ""
    return f"- {finding.text.strip()}{tag}{marks}"


def render_report(sections: DiagnosisSections, language: Language) -> str:
    """The report as text (Markdown headings and lists)."""
    r = report_texts(language)
    t = templates(language)
    parts: list[str] = []
    if sections.degraded:
        parts += [t.degraded_intro, ""]
    elif sections.disclaimer:
        parts += [t.disclaimer, ""]
    parts += [r.explanation_heading, sections.explanation, ""]
    if not sections.degraded:
        parts += [r.findings_heading]
        parts += [_finding_line(f, with_category=False) for f in sections.findings] or [f"- {r.none}"]
        parts += ["", r.candidates_heading]
        parts += [_finding_line(f, with_category=True) for f in sections.candidates] or [f"- {r.none}"]
        parts += [""]
    parts += [r.next_steps_heading, *(f"- {s}" for s in sections.next_steps), ""]
    parts += (
        [r.gaps_heading, *(f"- {g}" for g in sections.gaps)]
        if sections.gaps
        else [
            r.gaps_heading,
            f"- {r.none}",
        ]
    )
    if sections.sources and not sections.degraded:
        parts += ["", r.sources_heading, *sections.sources]
    return "\n".join(parts).strip()

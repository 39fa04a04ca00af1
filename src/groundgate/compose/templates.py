"""Fixed user-facing texts (docs/design.md §1 invariant 5): the disclaimer and degraded templates, the
evidence gaps the verifier and the orchestrator name, and the feedback reply. zh-CN is docs/design.md §3.2 word for word; en follows it.

Doubt is never phrased by a model: `LOW_CONFID_WITH_DISCLAIMER` and `DEGRADED` are rendered from
these templates by code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Language = Literal["zh-CN", "en"]


@dataclass(frozen=True, slots=True)
class Templates:
    """All fixed texts of one language."""

    disclaimer: str
    gaps_heading: str
    degraded_intro: str
    confirmed_heading: str
    degraded_gaps_heading: str
    next_steps_heading: str
    nothing_confirmed: str
    no_gaps_listed: str
    sources_heading: str
    next_step_manual_review: str
    next_step_fill_gap: str
    next_step_check_tools: str
    next_step_rephrase: str
    cross_language_gap: str
    """A need met only by evidence in another language ({need}: the need's label)."""
    # evidence gaps, as the verifier and the orchestrator name them
    gap_not_mentioned: str
    """A name the question is about that no evidence mentions ({name})."""
    gap_nothing_relevant: str
    gap_tool_failed: str
    """A failed call whose evidence is missing ({tool}, {reason})."""
    gap_indirect_only: str
    """A key fact with only indirect support ({fact})."""
    gap_contradicted: str
    gap_no_direct_evidence: str
    # what the offline executor states about a metric that recovered (a claim the verifier confirms
    # from the cited points: {series}, {day}, {peak_at}, {peak}, {at}, {value}, zh also {verb})
    metric_recovery: str
    # … and the value of a series at the asked minute ({series}, {day}, {at}, {value})
    metric_point: str
    # … and a statistic of a series over a window (Session 30, `runtime.window_stats`), each naming one
    # point only, so the verifier confirms it from the cited points: the peak or low ({series},
    # {day}, {start}, {end}: the window read, {at}, {value}); the first and last minute the series
    # met the asked comparison ({cmp}: the comparison in the question's word, no figure; {at}, {value}:
    # the first, {last}: the last); the first
    # minute back under the asked value after the peak ({peak_at}, {cmp})
    metric_peak: str
    metric_low: str
    metric_span: str
    metric_back_under: str
    metric_back_at: str
    # … and the log lines of one kind as a set: how many, the first and the last ({total}, {filters},
    # {first}, {last}: the lines as rendered)
    log_line_set: str
    # the feedback reply (`POST /api/feedback`, `groundgate feedback`)
    feedback_recorded: str
    feedback_case_added: str
    feedback_case_removed: str


ZH_CN = Templates(
    disclaimer="以下结论基于当前已获取证据，仍存在部分证据缺口，请谨慎参考。",
    gaps_heading="当前缺口：",
    degraded_intro="当前无法基于已获取证据生成可靠结论，建议人工介入。",
    confirmed_heading="已确认信息：",
    degraded_gaps_heading="证据缺口：",
    next_steps_heading="建议下一步：",
    nothing_confirmed="暂无",
    no_gaps_listed="未能定位具体缺口",
    sources_heading="引用：",
    next_step_manual_review="由值班或业务负责人人工核查上述缺口",
    next_step_fill_gap="针对上述证据缺口补充证据后重新提问",
    next_step_check_tools="检查失败的数据源后重试：{tools}",
    next_step_rephrase="补充更具体的信息（时间范围、订单号、trace id 或错误码）后重新提问",
    cross_language_gap="{need}：依据的是另一种语言的文档，跨语言只核对了数字、名称与术语，请对照原文确认",
    gap_not_mentioned="没有任何证据提到 {name}",
    gap_nothing_relevant="没有找到与问题相关的证据",
    gap_tool_failed="{tool} 调用失败（{reason}），其证据未能获取",
    gap_indirect_only="“{fact}”只有间接支持",
    gap_contradicted="“{fact}”与证据冲突",
    gap_no_direct_evidence="“{fact}”缺少直接证据",
    metric_recovery="{series} 在 {day} {peak_at} UTC 达到最高 {peak}，{at} UTC {verb}到 {value}。",
    metric_point="{series} 在 {day} {at} UTC 的值为 {value}。",
    metric_peak="{series} 在 {day} {start}–{end} UTC 之间的峰值（最高值）为 {value}，出现在 {at} UTC。",
    metric_low="{series} 在 {day} {start}–{end} UTC 之间的最低值为 {value}，出现在 {at} UTC。",
    metric_span="{series} {cmp}的第一分钟是 {day} {at} UTC（当时值为 {value}），最后一分钟是 {last} UTC。",
    metric_back_under="{series} 在 {peak_at} UTC 的峰值之后，{cmp}的第一分钟是 {day} {at} UTC，当时值为 {value}。",
    metric_back_at="{series} 在 {extreme_at} UTC 的极值之后，{cmp}的第一分钟是 {day} {at} UTC，当时值为 {value}。",
    log_line_set="共 {total} 条日志符合（{filters}），第一条：{first}；最后一条：{last}",
    feedback_recorded="反馈已记录",
    feedback_case_added="反馈已记录：这条回答已在案例库中",
    feedback_case_removed="反馈已记录：这条回答已移出案例库",
)

EN = Templates(
    disclaimer=(
        "The conclusions below are based on the evidence gathered so far; some evidence is still "
        "missing, so use them with care."
    ),
    gaps_heading="Current gaps:",
    degraded_intro="No reliable conclusion can be drawn from the evidence gathered; human review is recommended.",
    confirmed_heading="Confirmed:",
    degraded_gaps_heading="Evidence gaps:",
    next_steps_heading="Suggested next steps:",
    nothing_confirmed="nothing yet",
    no_gaps_listed="no specific gap could be located",
    sources_heading="Sources:",
    next_step_manual_review="Have the on-call or business owner review the gaps above by hand",
    next_step_fill_gap="Gather evidence for the gaps above, then ask again",
    next_step_check_tools="Check the failing data sources, then retry: {tools}",
    next_step_rephrase="Ask again with more specifics (time range, order id, trace id or error code)",
    cross_language_gap=(
        "{need}: answered from a document in another language; across languages only numbers, names "
        "and known terms were checked — confirm against the source"
    ),
    gap_not_mentioned="no evidence mentions {name}",
    gap_nothing_relevant="no evidence relevant to the question was found",
    gap_tool_failed="{tool} failed ({reason}); its evidence could not be gathered",
    gap_indirect_only="“{fact}” has only indirect support",
    gap_contradicted="“{fact}” conflicts with the evidence",
    gap_no_direct_evidence="“{fact}” lacks direct evidence",
    metric_recovery=(
        "{series} peaked at {peak} at {peak_at} UTC on {day} and recovered to {value} by {at} UTC."
    ),
    metric_point="{series} was {value} at {at} UTC on {day}.",
    metric_peak=(
        "{series} peaked at {value} at {at} UTC on {day} (the highest point between {start} and {end} UTC)."
    ),
    metric_low="{series} was lowest at {value} at {at} UTC on {day} (between {start} and {end} UTC).",
    metric_span=(
        "{series} was {cmp} from {at} UTC on {day} (the first such minute, at {value}) to {last} UTC"
        " (the last such minute)."
    ),
    metric_back_under=(
        "After its peak at {peak_at} UTC, the first minute {series} was back {cmp} was {at} UTC on {day},"
        " at {value}."
    ),
    metric_back_at=(
        "After its furthest excursion at {extreme_at} UTC, the first minute {series} was back {cmp} was"
        " {at} UTC on {day}, at {value}."
    ),
    log_line_set="{total} log lines match ({filters}); the first: {first}; the last: {last}",
    feedback_recorded="Feedback recorded",
    feedback_case_added="Feedback recorded: this answer is in the case library",
    feedback_case_removed="Feedback recorded: this answer was removed from the case library",
)


def templates(language: Language) -> Templates:
    """The templates of a language."""
    return ZH_CN if language == "zh-CN" else EN

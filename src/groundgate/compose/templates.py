"""Fixed user-facing texts (docs/design.md §1 invariant 5). zh-CN is docs/design.md §3.2 word for word; en follows it.

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
)


def templates(language: Language) -> Templates:
    """The templates of a language."""
    return ZH_CN if language == "zh-CN" else EN

"""Absence claims: "日志显示 payment-gateway 没有错误", "The logs show no errors", "never happened".

Seed 004 §5: `$.no_evidence` can only say "the current query retrieved no matching evidence", never
"ruled out / confirmed absent". A log line at INFO, a count, or a document sentence never proves that
something did not happen. So an absence claim is at most `indirect_support`, and only when a
successful query of this run **covering exactly that scope** came back empty (a `tool_trace_summary`
entry's `empty_queries`): the tool the claim names (logs, metrics, orders, documents), every name it
names (`payment-gateway`), its level when it speaks of errors, and its day. Otherwise it is
`no_evidence`, whatever it cites.

An absence claim is about observed things (errors, records, alerts, entries…): "On Thursdays there is
no meeting" quotes a rule, and is checked as any other statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from groundgate.contracts import ToolTraceSummaryEntry
from groundgate.verify import fidelity

__all__ = ["AbsenceFinding", "is_absence_claim", "judge_absence"]

_ABSENCE = re.compile(
    r"没有(?:任何|发现|出现|找到|检索到|命中|记录|报错|错误|异常|告警|问题|失败|超时)|"
    r"未(?:发现|出现|找到|检索到|记录|观察到|产生|发生|报错)|不存在|无(?:任何|错误|异常|报错|告警|记录)|从未|"
    r"零(?:错误|报错|告警)|"
    r"\bno\s+(?:\w+\s+){0,2}(?:errors?|exceptions?|failures?|alerts?|records?|entries|matches|hits|results|"
    r"issues|incidents|timeouts?|problems?|warnings?)\b|"
    r"\bnot\s+(?:\w+\s+)?(?:found|seen|observed|logged|recorded|present|detected)\b|"
    r"\bnever\s+(?:\w+\s+)?(?:happened|occurred|failed|seen|logged|fired|triggered)\b|"
    r"\bwithout\s+(?:any\s+)?errors?\b|"
    r"\bzero\s+(?:errors?|failures?|alerts?)\b|\bdid\s+not\s+(?:fail|occur|happen|error|time\s*out)\b",
    re.IGNORECASE,
)
#: What the claim says was looked at, and the tool that looks there.
_SOURCES: Final = (
    (re.compile(r"日志|\blogs?\b|\blogged\b", re.IGNORECASE), "query_logs"),
    (re.compile(r"指标|监控|\bmetrics?\b", re.IGNORECASE), "query_metrics"),
    (re.compile(r"订单|\borders?\b", re.IGNORECASE), "query_order"),
    (re.compile(r"文档|知识库|手册|\bdoc(?:ument)?s?\b|\brunbooks?\b", re.IGNORECASE), "lookup_knowledge"),
)
_ERRORS = re.compile(r"错误|报错|异常|失败|\berrors?\b|\bexceptions?\b|\bfailures?\b", re.IGNORECASE)


def is_absence_claim(text: str) -> bool:
    """Whether `text` says something is not there / did not happen (module docs)."""
    return bool(_ABSENCE.search(text))


@dataclass(frozen=True, slots=True)
class AbsenceFinding:
    """How far an absence claim is established."""

    established: bool
    """True when an empty successful query covered exactly the claim's scope."""
    trace_ref: str = ""
    """That query's `tool_trace_summary` entry."""
    reason: str = ""


def _scope(claim: str) -> tuple[list[str], list[str], bool]:
    """The tools the claim names, the names and days it names, and whether it speaks of errors."""
    tools = [tool for pattern, tool in _SOURCES if pattern.search(claim)]
    names = [m.text for m in fidelity.extract(claim) if m.kind in ("identifier", "date")]
    return tools, names, bool(_ERRORS.search(claim))


def judge_absence(claim: str, summary: Sequence[ToolTraceSummaryEntry]) -> AbsenceFinding:
    """Whether an empty successful query of this run covers the claim's scope (module docs)."""
    tools, names, errors = _scope(claim)
    for entry in summary:
        if not entry.success or (tools and entry.tool_name not in tools):
            continue
        for query in entry.empty_queries:
            lowered = query.lower()
            if all(name.lower() in lowered for name in names) and (not errors or "error" in lowered):
                return AbsenceFinding(True, entry.trace_ref, f"absence:empty_query:{entry.trace_ref}")
    return AbsenceFinding(False, reason="absence:not_established")

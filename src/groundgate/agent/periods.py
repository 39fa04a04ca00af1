"""Two trips in two periods, one rule asked of each: "我去年 12 月去过一趟深圳，这个月又要去深圳，两次的住宿每晚
上限分别是多少？" (blind 26).

Each period has the rules then in force (the evidence step judges a passage on the day a question places
itself in, docs/agent.md): 去年 12 月 is asked of 2025-12-31 (the 2024 policy's 500 元), 这个月 of today (600 元).
Judged as one question the two periods gave no single day and nothing was found. The question is now read
once per period, as `agent.apart` reads it once per word: the clause naming that period, the clauses naming
no period, and the asking clause with its word of comparison (`分别`, `两次的`) left out. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["per_period"]

_NUMBER: Final = r"(?:\d{1,2}|十[一二]?|[一二三四五六七八九])"
#: A period a clause places itself in: a month of a year, this, last or next month.
_PERIOD: Final = re.compile(
    r"(?:去年|今年|前年)\s*" + _NUMBER + r"\s*月(?:份)?|(?<![个\d])" + _NUMBER + r"\s*月份|"
    r"这个月|本月|上个?月|下个?月"
)
#: The question sets the periods side by side: each one's figure is asked.
_APART: Final = re.compile(r"分别|各(?:是|为|按|要)|两次的?|两趟的?|这两次|这两趟")
_CLAUSE: Final = re.compile(r"(?<=[，,；;])")


def per_period(question: str) -> list[str]:
    """One reading per period when two clauses each name their own and the question asks each; []
    otherwise."""
    if not _APART.search(question):
        return []
    clauses = [c for c in _CLAUSE.split(question) if c.strip()]
    if len(clauses) < 3:
        return []
    *premises, asking = clauses
    named = {i: m.group(0) for i, c in enumerate(premises) if (m := _PERIOD.search(c))}
    timed = list(named)
    if len(timed) < 2 or len(set(named.values())) < len(timed) or _PERIOD.search(asking):
        return []
    plain = _APART.sub("", asking)
    return ["".join(c for i, c in enumerate(premises) if i == own or i not in timed) + plain for own in timed]

"""A statement put up for confirmation: "退款只能在支付成功后 90 天内发起，而且每笔订单最多 5 次部分退款，对吗？"
asks the closing tag (`对吗`, `对吧`, `是吗`, `对不对`) of every clause before it (docs/design.md §8).

Why: the clauses before the tag ask nothing themselves, so they were carried into the tag as one part.
One statement that answered the first clause (`退款必须在原支付成功后 180 天内发起`) then met the whole
need, and the answer passed `NORMAL` without a word on the second clause (the number of partial
refunds), a wrong PASS. Each asserted clause — one that states a figure or a name — is now a part of
its own with the tag after it, so each must be answered. A clause that sets a case (`如果…`, `…的话`)
is no assertion and stays with the clause after it, and a single clause is left as it was.

A clause put up for confirmation with a figure (`最多 5 次部分退款`, `90 天内`) is answered only by a
statement that gives a figure of the same measure (a count `最多 10 次`, a duration `180 天`): the rule's
own figure confirms or corrects the asker's. A statement of the same subject with no such figure (the
refund window, for the number of partial refunds) says nothing on it (`says_asserted_figures`).

Used by `groundgate.questions.parts.split_parts`; pure code over the question text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["confirmed_clauses", "says_asserted_figures"]

#: A closing tag that asks whether what was said is right.
_TAG: Final = re.compile(
    r"^\s*(?:对吗|对吧|对么|对不对|是吗|是吧|是么|是不是|是这样吗|没错吧|没错吗|没问题吗)\s*$"
)
_CLAUSE_BREAK: Final = re.compile(r"，\s*|,(?!\d{3}(?!\d))\s*")
#: A linking word opening a later clause ("而且每笔订单…"): no word of the clause's subject.
_LINK: Final = re.compile(r"^\s*(?:而且|并且|同时|还有|另外|此外|以及|而|且|也)\s*")
#: A clause that sets a case for the next one ("如果超过 10 天", "出差当天出发的话").
_CASE: Final = re.compile(r"^\s*(?:如果|假如|若是|若|要是|万一)|(?:的话|的情况下|之后|以后)\s*$")
#: What an asserted clause states: a figure or a Latin name (`90 天`, `MD5`, `ERR_TIMEOUT`).
_STATED: Final = re.compile(r"[A-Za-z0-9]")


def confirmed_clauses(sentence: str, asks: Callable[[str], bool]) -> list[str]:
    """`X，而且 Y，对吗` → [`X，对吗`, `Y，对吗`]: one question per asserted clause before a closing
    confirmation tag; [] when the sentence has no such shape (no tag, fewer than two clauses, a clause
    that asks — by `asks` — or sets a case, a clause that states neither a figure nor a name)."""
    pieces = [p for p in _CLAUSE_BREAK.split(sentence) if p.strip()]
    if len(pieces) < 3 or not _TAG.match(pieces[-1]):
        return []
    tag = pieces[-1].strip()
    clauses = [_LINK.sub("", p).strip() for p in pieces[:-1]]
    if any(not c or _CASE.search(c) or not _STATED.search(c) or asks(c) for c in clauses):
        return []
    return [f"{c}，{tag}" for c in clauses]


#: A figure with its unit in an asserted clause, by measure: a duration, a count, money, a share, a rate.
_MEASURES: Final = (
    re.compile(
        # `2026 年` is a year, not a span of years: four digits before 年 are no duration
        r"\d\s*(?:个)?(?:天|日|工作日|自然日|小时|分钟|秒钟?|毫秒|周|星期|个月)|(?<!\d)\d{1,3}\s*年|\d\s*(?:ms|s|h|min)\b",
        re.I,
    ),
    re.compile(r"\d\s*(?:次|笔|条|回|单)"),
    re.compile(r"\d\s*(?:元|块)"),
    re.compile(r"\d\s*%"),
    re.compile(r"\d\s*QPS\b", re.I),
)
_ENDS_WITH_TAG: Final = re.compile(
    r"[，,]\s*(?:对吗|对吧|对么|对不对|是吗|是吧|是么|是不是|是这样吗|没错吧|没错吗|没问题吗)\s*[？?]?\s*$"
)


def says_asserted_figures(statement: str, question_part: str) -> bool:
    """Whether `statement` gives a figure of every measure the asserted clause `question_part` puts up
    for confirmation (`每笔订单最多 5 次部分退款，对吗` → a count); True for a part that is no such
    clause or states no figure."""
    if _ENDS_WITH_TAG.search(question_part) is None:
        return True
    return all(m.search(statement) for m in _MEASURES if m.search(question_part))

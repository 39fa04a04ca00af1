"""Worked totals: a per-night or per-day figure a cited statement states, times the count the
question gives ("深圳 住5晚 住宿最多能报多少" → "每晚上限 600 元，住 5 晚最多报销 3000 元").

Computed here, exactly, from the validated statement's own figure and the question's numbers —
never by a model. A total is stated only when every factor is there: one per-unit figure among the
amount statements (several city tiers and no city named give none), the count, and for a share of
the wage ("基本工资的 80%") the daily wage the question names. The total cites the statement it is
worked from.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from groundgate.agent.contracts import GroundedAnswer, GroundedStatement, NeedCode
from groundgate.verify.fidelity.numbers import parse_chinese_numeral

__all__ = ["CHANGE_LABEL", "show_amount", "unworked_change", "with_total", "with_worked", "worked_total"]

_ASKS_SUM: Final = re.compile(r"多少|一共|总共|合计|封顶|最多|上限|能拿|能报")
#: Nights in digits or in words (`住5晚`, `住三晚`, `住俩晚`: blind 27), never `晚上`; `一晚` in words is the
#: rate's unit (`一晚多少`), no count.
_NIGHTS: Final = re.compile(r"(\d+|[二两俩三四五六七八九十][一二两三四五六七八九十]{0,2})\s*(?:个)?晚(?!上)")
_DAYS: Final = re.compile(r"(\d+)\s*天")
_WAGE: Final = re.compile(r"(?:一天|每天|日薪|一日|每日)\s*(\d+(?:\.\d+)?)\s*元?")
_PER_NIGHT: Final = re.compile(r"每晚[^。；;，,]*?(\d+(?:\.\d+)?)\s*元")
_PER_DAY: Final = re.compile(r"每天[^。；;，,]*?(\d+(?:\.\d+)?)\s*元")
_WAGE_SHARE: Final = re.compile(r"基本工资的\s*(\d+(?:\.\d+)?)\s*%")


def _figure(raw: str) -> Decimal | None:
    if raw[0].isdigit():
        return Decimal(raw)
    value = parse_chinese_numeral(raw.replace("俩", "两"))
    return Decimal(int(value)) if value is not None and value == int(value) and value > 0 else None


def _one(pattern: re.Pattern[str], text: str) -> Decimal | None:
    """The single figure `pattern` finds in `text`; none when absent or when two differ."""
    found = {_figure(m.group(1)) for m in pattern.finditer(text)}
    return found.pop() if len(found) == 1 and None not in found else None


def show_amount(value: Decimal) -> str:
    """`3000` for 3000.00, `35.6` for 35.60: a worked figure as the statement writes it."""
    return format(value.normalize(), "f") if value == value.to_integral() else format(value, "f")


def _figures(
    statements: list[GroundedStatement], pattern: re.Pattern[str]
) -> tuple[Decimal, GroundedStatement] | None:
    """The one per-unit figure the amount statements state, with the statement stating it."""
    hits = [(v, s) for s in statements if (v := _one(pattern, s.text)) is not None]
    if len({v for v, _ in hits}) != 1:
        return None
    return hits[0]


def worked_total(question: str, statements: list[GroundedStatement]) -> GroundedStatement | None:
    """The total the question asks for, worked from a statement's figure; none without every factor."""
    if not _ASKS_SUM.search(question):
        return None
    amounts = [s for s in statements if s.need is NeedCode.AMOUNT_RULE]
    nights = _one(_NIGHTS, question)
    if nights is not None and (hit := _figures(amounts, _PER_NIGHT)) is not None:
        rate, source = hit
        text = f"每晚上限 {show_amount(rate)} 元，住 {show_amount(nights)} 晚最多报销 {show_amount(rate * nights)} 元"
        return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=list(source.citations))
    days = _one(_DAYS, question)
    if days is None:
        return None
    wage = _one(_WAGE, question)
    if wage is not None and (hit := _figures(amounts, _WAGE_SHARE)) is not None:
        share, source = hit
        total = days * wage * share / Decimal(100)
        text = (
            f"按基本工资的 {show_amount(share)}% 发放，{show_amount(days)} 天 × {show_amount(wage)} 元 × {show_amount(share)}% "
            f"= {show_amount(total)} 元"
        )
        return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=list(source.citations))
    if wage is None and (hit := _figures(amounts, _PER_DAY)) is not None:
        rate, source = hit
        text = f"每天 {show_amount(rate)} 元，{show_amount(days)} 天共 {show_amount(rate * days)} 元"
        return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=list(source.citations))
    return None


def with_worked(answer: GroundedAnswer, worked: GroundedStatement | None) -> GroundedAnswer:
    """`answer` with a statement worked from its own statements added after them (once)."""
    if worked is None or any(s.text == worked.text for s in answer.statements):
        return answer
    return answer.model_copy(update={"statements": [*answer.statements, worked]})


def with_total(answer: GroundedAnswer, question: str) -> GroundedAnswer:
    """`answer` with the worked total stated after the statements it is worked from."""
    return with_worked(answer, worked_total(question, list(answer.statements)))


_ASKS_CHANGE: Final = re.compile(r"比(?:去年|上一版|以前|之前|原来)|(?:涨|降|调|提高|增加|减少|变)了多少")

#: What a change asked between two versions lacks when only one version's figure is stated.
CHANGE_LABEL: Final = "两个版本标准之差（只找到一个版本的数额）"


def unworked_change(answer: GroundedAnswer, question: str) -> bool:
    """Whether the question asks how much a figure changed between versions ("今年比去年涨了多少")
    while the statements give one version's figure only: the difference cannot be worked, so it is
    a missing part (fail-closed), never the current figure alone as the answer."""
    if not _ASKS_CHANGE.search(question):
        return False
    figures = {
        v
        for s in answer.statements
        if s.need is NeedCode.AMOUNT_RULE
        if (v := _one(_PER_NIGHT, s.text)) is not None
    }
    return len(figures) < 2

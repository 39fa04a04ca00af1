"""The difference of two cited caps, worked in code (blind 24).

"一线和二线 住宿一晚差多少" compares two city classes and asks how far apart their nightly caps are. Each
side is judged alone (`agent.apart`), so the answer states both caps, each from its own passage; the
difference is then worked here from exactly those two figures ("一线城市每晚 600 元，二线城市每晚 450
元，相差 150 元") and cites both statements — never by a model, and only when exactly two different
nightly or daily figures are stated, one for each word compared.

`read_class_pair` reads the phone-typed "一线和二线" as the two classes of cities it names
("一线城市和二线城市"), so both are words of the class the rules compare. Pure: no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from groundgate.agent.apart import compared_words
from groundgate.agent.contracts import GroundedAnswer, GroundedStatement, NeedCode
from groundgate.agent.totals import show_amount, with_worked

__all__ = ["read_class_pair", "with_difference"]

_ASKS_DIFFERENCE: Final = re.compile(r"差(?:多少|几)|相差|差价|差额")
_PER_UNIT: Final = re.compile(r"每(晚|天)[^。；;，,]*?(\d+(?:\.\d+)?)\s*元")
#: "一线和二线", "一线跟二线城市": two classes of cities, the first said without 城市.
_CLASS_PAIR: Final = re.compile(r"([一二三])线(?:城市)?\s*(和|跟|与|同|及)\s*([一二三])线(?:城市)?")


def read_class_pair(text: str) -> str:
    """ "一线和二线 住宿…" → "一线城市和二线城市 住宿…"."""
    return _CLASS_PAIR.sub(r"\1线城市\2\3线城市", text)


def worked_difference(question: str, statements: list[GroundedStatement]) -> GroundedStatement | None:
    """The difference of the two compared words' figures; none unless each has exactly one."""
    if not _ASKS_DIFFERENCE.search(question):
        return None
    words = compared_words(question)
    if len(words) != 2:
        return None
    amounts = [s for s in statements if s.need is NeedCode.AMOUNT_RULE]
    found: list[tuple[str, Decimal, GroundedStatement]] = []
    for word in words:
        hits = [
            (m.group(1), Decimal(m.group(2)), s)
            for s in amounts
            if word in s.text
            for m in _PER_UNIT.finditer(s.text)
        ]
        if len({(u, v) for u, v, _ in hits}) != 1:
            return None
        found.append(hits[0])
    (unit, first, a), (other_unit, second, b) = found
    if unit != other_unit or first == second:
        return None
    text = (
        f"{words[0]}每{unit} {show_amount(first)} 元，{words[1]}每{unit} {show_amount(second)} 元，"
        f"相差 {show_amount(abs(first - second))} 元"
    )
    return GroundedStatement(
        need=NeedCode.AMOUNT_RULE, text=text, citations=list(dict.fromkeys([*a.citations, *b.citations]))
    )


def with_difference(answer: GroundedAnswer, question: str) -> GroundedAnswer:
    """`answer` with the worked difference stated after the statements it is worked from."""
    return with_worked(answer, worked_difference(question, list(answer.statements)))

"""A trip of several legs, each place with its own nights, and the lodging total worked over them.

"我后天先去上海住 2 晚，再去一个二线城市住 2 晚，住宿费一共最多能报多少？" (blind 26) names two places of the
ranked lodging rule, each with its own count of nights. Judged as one subject no sentence names both 上海 and
二线城市 (`NO_EVIDENCE`); each place is now judged alone (`agent.apart`, as words compared), and the total is
worked here from exactly the nightly caps the validated statements state, one per place: 2 × 600 + 2 × 450 =
2100 元 — never by a model, and only when every leg has its one figure. A leg is a clause naming one place
(a city, a class of cities, or the cities a class leaves out: 非一二线的小城市 is 其他城市) and its nights.
Pure: no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from groundgate.agent.contracts import GroundedAnswer, GroundedStatement, NeedCode
from groundgate.agent.totals import show_amount, with_worked
from groundgate.agent.vocabulary import PLACES, entities_in

__all__ = ["trip_legs", "with_legs_total"]

#: A class of cities named by what it leaves out, with the noun after it ("一二线以外的城市小城市": 非一二线的
#: 小城市 as `agent.context` reads it).
_EXCLUDED_SAID: Final = re.compile(
    r"[一二三]{1,3}线(?:城市)?(?:以外|之外)(?:的城市|的地方)?(?:[小大]?(?:城市|地方))?"
)
_CLAUSE: Final = re.compile(r"[，,；;。？?！!]")
_NIGHTS: Final = re.compile(r"(\d+)\s*(?:个)?晚")
_ASKS_SUM: Final = re.compile(r"一共|总共|合计|加起来|总计|共计")
_PER_NIGHT: Final = re.compile(r"每晚[^。；;，,]*?(\d+(?:\.\d+)?)\s*元")


def trip_legs(question: str) -> list[tuple[str, str, Decimal]]:
    """(place as said, place, nights) for each clause naming exactly one place and its nights; [] unless
    two or more different places are named so. A class said by what it leaves out is said so
    ("一二线以外的城市"), so a reading of the question about the other place replaces those words."""
    legs: list[tuple[str, str, Decimal]] = []
    for clause in _CLAUSE.split(question):
        places = [w for w in entities_in(clause) if w in PLACES]
        excluded = _EXCLUDED_SAID.search(clause)
        if excluded and not places and {"一", "二"} <= set(excluded.group(0).split("线")[0]):
            places = ["其他城市"]  # "一二线以外的城市": the rule's 其他城市
        nights = _NIGHTS.findall(clause)
        if len(places) == 1 and len(nights) == 1:
            legs.append((excluded.group(0) if excluded else places[0], places[0], Decimal(nights[0])))
    if len({p for _, p, _ in legs}) != len(legs) or len(legs) < 2:
        return []
    return legs


def _legs_total(question: str, statements: list[GroundedStatement]) -> GroundedStatement | None:
    legs = trip_legs(question) if _ASKS_SUM.search(question) else []
    if not legs:
        return None
    amounts = [s for s in statements if s.need is NeedCode.AMOUNT_RULE]
    parts: list[str] = []
    citations: list[str] = []
    total = Decimal(0)
    for _, place, nights in legs:
        hits = {
            (Decimal(m.group(1)), s.citations[0])
            for s in amounts
            if place in s.text
            for m in _PER_NIGHT.finditer(s.text)
        }
        if len({v for v, _ in hits}) != 1:
            return None
        rate, citation = hits.pop()
        total += rate * nights
        parts.append(f"{place}每晚 {show_amount(rate)} 元 × {show_amount(nights)} 晚")
        citations.append(citation)
    text = f"{' + '.join(parts)}，一共最多报销 {show_amount(total)} 元"
    return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=list(dict.fromkeys(citations)))


def with_legs_total(answer: GroundedAnswer, question: str) -> GroundedAnswer:
    """`answer` with the lodging total over the trip's legs stated after the caps it is worked from."""
    return with_worked(answer, _legs_total(question, list(answer.statements)))

"""By how much a claimed stay is over the cap, worked in code (blind 28).

A finance reviewer checks a colleague's hotel bill against the cap: "张伟北京住了4晚，住宿发票一共2800，超了多少？",
"…住一晚900，我按这个批行吗？", "…3晚住宿一共1800能全报吗？". The cap a night and the worked total
(`agent.totals`: "每晚上限 600 元，住 4 晚最多报销 2400 元") answer the rule; what the reviewer decides on is
the sum claimed set against it. When the question states the sum claimed — a total with the nights it covers
(`发票一共2800`, `一共1100`) or a rate a night (`每晚750`, `一晚900`) — and the validated amount statements
state exactly one cap a night, the difference is worked here, exactly, and stated beside the rule, citing the
statement the cap is read from: "按住 4 晚上限 2400 元计，超出 400 元", "按每晚上限 600 元计，每晚超出 300 元",
"未超出住 3 晚上限 1800 元". The sum claimed is not repeated: the question said it, and a figure the asker puts
up (`一晚八百`) is what an answer must not seem to state. With the cap unknown (several city tiers, a conflict) or
the sum not said, nothing is worked. Pure: no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

from groundgate.agent.contracts import GroundedAnswer, GroundedStatement, NeedCode
from groundgate.agent.totals import show_amount, with_worked

__all__ = ["with_overage", "worked_overage"]

#: Whether the claim is within the cap: how much over, whether all of it is paid, whether to approve it.
_ASKS_OVER: Final = re.compile(
    r"超(?:了|出)?多少|超标|超没超|超不超|超了吗|全(?:额)?报|能报吗|能批吗|批行吗|按这个批|报得了吗|能不能报|可以报吗"
)
#: The sum claimed for the stay: `发票一共2800`, `一共1100`, `发票2100`, `住宿费合计3000元`.
_CLAIMED_TOTAL: Final = re.compile(
    r"(?:发票|一共|总共|合计|共计|房费|住宿费)\s*(?:一共|总共|合计|共)?\s*(\d{3,6})(?!\d)"
)
#: The rate claimed a night: `每晚750`, `一晚900`, `一晚上 900 元`.
_CLAIMED_RATE: Final = re.compile(r"(?:每晚|一晚)(?:上)?\s*(\d{2,5})(?!\d)")
_NIGHTS: Final = re.compile(r"(\d+|[两俩二三四五六七八九十])\s*(?:个)?晚(?!上)")
_CAP: Final = re.compile(r"每晚[^。；;，,]*?(\d+(?:\.\d+)?)\s*元")
_WORDS: Final = {
    "两": 2,
    "俩": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def _one(pattern: re.Pattern[str], text: str) -> Decimal | None:
    found = {m.group(1) for m in pattern.finditer(text)}
    if len(found) != 1:
        return None
    raw = found.pop()
    return Decimal(raw) if raw[0].isdigit() else Decimal(_WORDS[raw])


def _cap(statements: list[GroundedStatement]) -> tuple[Decimal, GroundedStatement] | None:
    """The one cap a night the amount statements state, with the statement stating it."""
    hits = [
        (v, s) for s in statements if s.need is NeedCode.AMOUNT_RULE if (v := _one(_CAP, s.text)) is not None
    ]
    return hits[0] if len({v for v, _ in hits}) == 1 else None


def worked_overage(question: str, statements: list[GroundedStatement]) -> GroundedStatement | None:
    """The sum claimed set against the cap (see the module docstring); none without every factor."""
    if not _ASKS_OVER.search(question) or (hit := _cap(statements)) is None:
        return None
    cap, source = hit
    nights = _one(_NIGHTS, question)
    total = _one(_CLAIMED_TOTAL, question)
    rate = _one(_CLAIMED_RATE, question)
    if total is not None and nights is not None and rate is None:
        allowed = cap * nights
        over = total - allowed
        text = (
            f"按住 {show_amount(nights)} 晚上限 {show_amount(allowed)} 元计，超出 {show_amount(over)} 元"
            if over > 0
            else f"未超出住 {show_amount(nights)} 晚上限 {show_amount(allowed)} 元"
        )
    elif rate is not None and total is None:
        over = rate - cap
        text = (
            f"按每晚上限 {show_amount(cap)} 元计，每晚超出 {show_amount(over)} 元"
            if over > 0
            else f"未超出每晚上限 {show_amount(cap)} 元"
        )
        if over > 0 and nights is not None and nights > 1:
            text += f"，{show_amount(nights)} 晚共超出 {show_amount(over * nights)} 元"
    else:
        return None
    return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=list(source.citations))


def with_overage(answer: GroundedAnswer, question: str) -> GroundedAnswer:
    """`answer` with the sum claimed set against the cap after the statements it is worked from."""
    return with_worked(answer, worked_overage(question, list(answer.statements)))

"""A time order turned round: `before` an event the context puts `after`, `接单后` for `接单前`.

`walks can start one week before the second dose` over `walks may start one week after the second
dose`; `商家接单后取消可以全额退款` over `商家接单前取消可全额退款`. Every word of the claim is in the context,
so support scoring passes it. Read here: the claim ties something to an anchor (the words after
`before`/`after`, the two characters before `前`/`后`), and the context ties that same anchor only the
other way round — never the claim's way (docs/design.md §2.1, "Session 31"). The claim is then
`no_evidence` (`order_swapped:`): a context may use both orders of one anchor for different things,
and then nothing is read. Pure: no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from groundgate.verify.fidelity.replaced import clause_words

__all__ = ["order_swaps"]

_BEFORE: Final = "before"
_AFTER: Final = "after"
_EN_RELATIONS: Final = {
    "before": _BEFORE,
    "prior to": _BEFORE,
    "ahead of": _BEFORE,
    "after": _AFTER,
    "following": _AFTER,
}
_EN_ORDER: Final = re.compile(
    r"\b(before|prior to|ahead of|after|following)\s+(?:the\s+|a\s+|an\s+|your\s+|its\s+|their\s+|his\s+|her\s+|that\s+|this\s+|these\s+|those\s+)?"
    r"([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*)?)",
    re.IGNORECASE,
)
#: `接单前`, `接单之前`, `入住以后`: two characters of an event, then before or after.
_ZH_ORDER: Final = re.compile(
    r"([\u4e00-\u9fff]{2})(之前|以前|之后|以后|前(?![往来进台面景夕天年后者提])|后(?![来面续期天台果悔勤方者端备代半前]))"
)
_ZH_RELATIONS: Final = {
    "之前": _BEFORE,
    "以前": _BEFORE,
    "前": _BEFORE,
    "之后": _AFTER,
    "以后": _AFTER,
    "后": _AFTER,
}
#: Words that are no event to order around (`after all`, `before long`, `然后`, `最后`).
_NOT_ANCHORS: Final = frozenset(
    {"all", "long", "that", "this", "which", "then", "each", "every", "one", "two", "use", "that's"}
)
_ZH_NOT_ANCHORS: Final = frozenset(
    {"然后", "最后", "随后", "此后", "之后", "事前", "事后", "提前", "以后", "日后"}
)


_STOP: Final = frozenset(
    {"the", "and", "can", "may", "must", "will", "you", "your", "are", "was", "were", "has", "have"}
)


def _lead(text: str, end: int) -> frozenset[str]:
    """The words of the clause right before `end`: what is ordered around the anchor."""
    return frozenset(clause_words(text, end, reach=40) - _STOP)


def _orders(text: str) -> list[tuple[str, str, frozenset[str]]]:
    """(anchor, relation, lead words) for each `before X` / `after X` / `X前` / `X后` in `text`."""
    found: list[tuple[str, str, frozenset[str]]] = []
    for m in _EN_ORDER.finditer(text):
        words = m.group(2).lower().split()
        if words[0] in _NOT_ANCHORS:
            continue
        anchor = " ".join(w.rstrip("s") for w in words)
        found.append((anchor, _EN_RELATIONS[m.group(1).lower()], _lead(text, m.start())))
    for m in _ZH_ORDER.finditer(text):
        if m.group(1) in _ZH_NOT_ANCHORS or m.group(1)[-1] in "之以":
            continue
        found.append((m.group(1), _ZH_RELATIONS[m.group(2)], _lead(text, m.start())))
    return found


@lru_cache(maxsize=8)
def _context_orders(context: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """`_orders` of a context, kept for the claims of one answer (a few contexts at most, so a batch's
    memory does not grow with the contexts it has checked)."""
    return tuple(_orders(context))


def order_swaps(claim: str, context: str) -> list[str]:
    """`order_swapped:<anchor>` for each anchor the claim orders one way around something and the context
    orders only the other way around the same thing (a lead word in common), never the claim's way."""
    mine = _orders(claim)
    if not mine:
        return []  # most claims order nothing: the context is not scanned for them
    in_context = _context_orders(context)
    swapped: list[str] = []
    for anchor, relation, lead in mine:
        # `the inspection` and `the inspection at 10:00` are one anchor: its first word names it
        same = [c for c in in_context if c[0].split()[0] == anchor.split()[0]]
        if any(c[1] == relation for c in same):
            continue
        if any(lead & c[2] for c in same):
            swapped.append(f"order_swapped:{anchor}")
    return swapped

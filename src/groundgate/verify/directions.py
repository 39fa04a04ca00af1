"""A change told the wrong way round: `moves from B to A` over `moves from A to B`, `从 20% 降到 5%` over
`从 5% 升到 20%`.

Both ends are in the context, so support scoring and the figure checks pass such a claim. Read here:
the claim's `from X to Y` (`从/由 X 改为/变为/降到/升到/迁移到/调整为 Y`), and a context that says
of the same thing (the word before `from`, the two characters before `从`/`由`) `from Y to X` and never
`from X to Y` (docs/design.md §2.1, "Session 32"). The claim is then `no_evidence`
(`direction_reversed:`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["from_to_swapped"]

_END: Final = r"[^\s,;:()（），。；：]+(?:\s+[^\s,;:()（），。；：]+){0,2}?"
_EN: Final = re.compile(
    rf"(?P<lead>[A-Za-z]+)\s+from\s+(?P<x>{_END})\s+to\s+(?P<y>[^\s,;:()（），。；：]+)", re.IGNORECASE
)
_ZH: Final = re.compile(
    r"(?P<lead>[\u4e00-\u9fff]{2})[从由]\s*(?P<x>[^\s，。；：,;]{1,24}?)\s*(?:改为|改成|变为|变成|降到|降至|升到|升至|提高到|提高至|下调到|下调至|上调到|上调至"
    r"|调整为|调整到|迁移到|迁到|换成|切换到|扩到|缩到|增加到|减少到)\s*(?P<y>[^\s，。；：,;]{1,24}?)(?=[\s，。；：,;]|$)"
)


def _clean(end: str) -> str:
    return end.strip().rstrip(".").lower()


def _lead(word: str) -> str:
    """The thing that changes, in one form: `moves`/`moving`/`moved` are `mov`."""
    return re.sub(r"(?:ing|ed|es|s|e)$", "", word.lower())


def _pairs(text: str) -> set[tuple[str, str, str]]:
    """(what changes, from, to) for each change the text tells."""
    found = {(_lead(m["lead"]), _clean(m["x"]), _clean(m["y"])) for m in _EN.finditer(text)}
    found |= {(m["lead"], _clean(m["x"]), _clean(m["y"])) for m in _ZH.finditer(text)}
    return {(lead, x, y) for lead, x, y in found if x and y and x != y}


def from_to_swapped(claim: str, context: str) -> list[str]:
    """`direction_reversed:<x> -> <y>` when the claim's `from x to y` is the context's `from y to x` and the
    context never says `from x to y` (see the module)."""
    mine = _pairs(claim)
    if not mine:
        return []
    theirs = _pairs(context)
    # The same thing must change (`moves from` both times): "moving from Starter to Business" beside a
    # context's "downgrading from Business to Starter" is another move, not this one turned round.
    return [
        f"direction_reversed:{x} -> {y}"
        for lead, x, y in sorted(mine)
        if (lead, y, x) in theirs and (lead, x, y) not in theirs
    ]

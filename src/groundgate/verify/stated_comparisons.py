"""A comparison the claim gets wrong by its own figures: `At GBP 3,100 the purchase falls within the
GBP 2,500 limit`, `99.915% availability, which is above the 99.95% target`, `680 元低于 600 元的标准`.

Both figures may be the context's, so the figure checks pass such a claim. Read here: a figure, a
comparison word within a few words after it (`above`, `exceeds`, `within`, `below`, `超过`, `低于`, `不超过`),
and a figure of the same kind and unit after it, the word read as that figure's bound; when the first figure does not stand
that way to the second, the claim is `comparison_wrong:` (`no_evidence`; docs/design.md §2.1,
"Session 32"). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.verify import fidelity

__all__ = ["comparison_wrong"]

#: How far apart the two figures may stand.
_REACH: Final = 72
#: Not durations: `一周最多两天`, "after 90 days, at most two days a week" are rates and periods, not
#: one figure held against another.
_KINDS: Final = frozenset({"amount", "percent", "count", "number", "size", "measure"})
#: What joins the first figure to the comparison when it is that figure's own: `3,100 the purchase falls
#: within`, `99.915% availability, which is above`, `680 元，超出`.
_LINK: Final = re.compile(
    r"\s*[,，]?\s*"
    r"|[^,，;；.。!?]{0,30}?(?:\b(?:is|was|are|were|falls?|fell|sits?|stays?|remains?|comes?|came)\b|是|在)"
    r"\s*(?:still\s+|well\s+|just\s+)?"
    r"|[^,，;；.。!?]{0,20}?,\s*which\s+(?:is|was)\s+(?:still\s+|well\s+)?",
    re.IGNORECASE,
)
#: `452 more than the 2,960 recorded`: a difference, not a comparison of the two.
_DIFFERENCE: Final = re.compile(r"(?i:more|less|fewer|higher|lower)\s+than|多于|少于")


def comparison_wrong(claim: str) -> list[str]:
    """`comparison_wrong:<a> vs <b>` for a figure the claim compares the wrong way with the next one."""
    items = fidelity.extract(claim).items
    for a, word, b in zip(items, items[1:], items[2:], strict=False):
        if word.kind != "comparator" or a.kind not in _KINDS or a.kind != b.kind or a.comparator:
            continue
        if (
            (a.unit or None) != (b.unit or None)
            or not isinstance(a.value, float)
            or not isinstance(b.value, float)
        ):
            continue
        if b.start - a.end > _REACH or re.search(r"[。；;!?！？]|\.\s", claim[a.end : b.start]):
            continue
        link = claim[a.end : word.start]
        if _LINK.fullmatch(link) is None or (not link.strip() and _DIFFERENCE.fullmatch(word.text.strip())):
            continue
        # the word is read as the second figure's bound: `within the GBP 2,500 limit` (<=), `超出 600 元` (>)
        holds = {
            "<": a.value < b.value,
            "<=": a.value <= b.value,
            ">": a.value > b.value,
            ">=": a.value >= b.value,
        }
        if b.comparator in holds and not holds[b.comparator]:
            return [f"comparison_wrong:{a.text} vs {b.text}"]
    return []

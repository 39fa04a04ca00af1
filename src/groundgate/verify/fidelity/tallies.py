"""A count the claim backs by listing what it counts.

`14:04、14:06、14:08 这三个采样点都超出了 SLO`, `有两个节点异常：成都的 edge-cd-07 …；广州的 edge-gz-11 …`,
`Spanish I and Photography, the two courses`: the count is not a figure of the context but the
number of items the claim itself names, each of them checked on its own (their times, hosts and
values are mentions of their own). A count equal to the items listed right before it (`A、B、C 这三个`)
or right after it and a colon (`两件事：…；…`) is worked out from the claim, not invented; any other
count stays a figure to be found in the context.
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.model import Mention

#: Words between a list and the count that sums it up (`A、B 这两个`, `A and B, all two`).
_LEAD_IN = re.compile(
    r"(?:这|那|共|一共|总共|合计|all|these|those|the|in all|altogether|[\s,，])*$", re.IGNORECASE
)

#: What separates listed items: `、`, `和`/`与`/`及`, English commas, `and` (a Chinese `，` ends a
#: clause instead).
_ITEM_SEP = re.compile(r"\s*(?:、|,|以及|和|与|及|\band\b|\bor\b|或)\s*", re.IGNORECASE)

#: Where a sentence or clause ends, before which a list cannot reach.
_CLAUSE_END = re.compile(r"[。！？!?；;：，\n]|(?<!\d):(?!\d)")

#: After the count: its noun, then a colon that opens the items (`两件事：`, `two issues:`).
_COLON_AFTER = re.compile(r"^[^，,。；;：:\n]{0,32}(?:：|:(?!\d))")

#: What separates the items after a colon: `；`, `;`, `、`; without a semicolon, commas and `and`.
_AFTER_SEP = re.compile(r"\s*[；;]\s*|\s*、\s*")
_AFTER_SEP_LOOSE = re.compile(r"\s*(?:、|,|，|\band\b)\s*", re.IGNORECASE)

#: A listed item is short: a time, a name, a host — not a clause.
_ITEM_CHARS = 40


def counts_own_items(m: Mention, claim: str) -> bool:
    """True when the whole-number count `m` equals the number of items the claim lists around it."""
    if m.kind not in {"count", "number"} or m.raw is None or m.raw != int(m.raw) or m.comparator:
        return False
    count = int(m.raw)
    if not 2 <= count <= 12:
        return False
    return _listed_before(claim[: m.start], count) or _listed_after(claim[m.end :], count)


def _listed_before(head: str, count: int) -> bool:
    """`14:04、14:06、14:08 这三个`: exactly `count` short items, joined by list separators, end right
    before the count (only a lead-in such as `这`, `all` between)."""
    lead = _LEAD_IN.search(head)
    body = head[: lead.start()] if lead else head
    ends = [e.end() for e in _CLAUSE_END.finditer(body)]
    body = body[ends[-1] :] if ends else body
    # The list is the whole stretch back to the clause start and its last item touches the count:
    # `成都和广州的两个节点` reads as a list, `去年上线了两个功能` (one item, `count` ≥ 2) does not.
    items = [i for i in _ITEM_SEP.split(body.strip()) if i.strip()]
    return len(items) == count and all(len(i) <= _ITEM_CHARS for i in items)


def _listed_after(tail: str, count: int) -> bool:
    """`两件事：A；B` / `two issues: A; B`: a colon a few words on, then exactly `count` items
    separated by semicolons (or `、`) up to the end of the sentence."""
    colon = _COLON_AFTER.match(tail)
    if colon is None:
        return False
    rest = re.split(r"[。！？!?\n]", tail[colon.end() :], maxsplit=1)[0]
    sep = _AFTER_SEP if re.search(r"[；;]", rest) else _AFTER_SEP_LOOSE
    items = [i for i in sep.split(rest) if i.strip()]
    return len(items) == count

"""Which figure of the window a changed figure stands in place of (docs/design.md §2.1, "Session 31").

A figure of the claim that no figure of its window meets is a contradiction only where it replaces one
of them: the window's one figure of its sort, the one bound of its direction, the one after the same
word, the one whose clause shares the most words with the claim's, or the one left once both sides met.
Otherwise it is unshown — a total, a share, a figure worked out in more than one step. Pure: no I/O.
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _num_match, _same_kind
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.report import _Ctx

__all__ = ["_replaces", "_slot", "clause_words"]

_SLOT_WORD = re.compile(r"([A-Za-z]+|[\u4e00-\u9fff]{2})\s*$")


def _slot(text: str, start: int) -> str:
    """The word right before a figure: the last two Chinese characters or the last English word."""
    found = _SLOT_WORD.search(text[max(0, start - 24) : start])
    return found.group(1).lower() if found else ""


def _replaces(m: Mention, differing: list[Mention], x: _Ctx) -> bool:
    """The claim's figure stands where one figure of the window stood: the window holds one figure of
    its sort, or one after the same word (`每吨 3.50 元` for `每吨 3.80 元`). A figure that meets none of
    several (a total, a share, a figure worked out in more than one step) is unshown, not contradicted
    (docs/design.md §2.1, "Session 31")."""
    if len(differing) == 1:
        return True
    if m.comparator and sum(1 for e in differing if e.comparator == m.comparator) == 1:
        return True  # `over $800` over `above $500 … under $50`: the one bound of its direction
    # `成人票 15 英镑，优惠票 9 英镑` over `adults £12, concessions £9`: the one figure of the claim that
    # meets none stands where the one figure of the window that none meets stood.
    own = [c for c in extract(x.source).items if _same_kind(m, c)]
    left = [e for e in differing if not any(_num_match(c, e) for c in own)]
    unmet = [c for c in own if not any(_num_match(c, e) for e in differing)]
    if len(left) == 1 and len(unmet) == 1:
        return True
    text = x.aligned.mentions.text
    slot = _slot(x.source, m.start)
    if len(slot) >= 2 and any(_slot(text, e.start) == slot for e in differing):
        return True
    # `一线城市住宿每晚至少 800 元` over `一线城市每晚不超过 600 元，其他城市每晚不超过 400 元`: the one figure
    # whose clause shares the most words with the claim's clause before its figure
    words = clause_words(x.source, m.start)
    shared = sorted((len(words & clause_words(text, e.start)) for e in differing), reverse=True)
    return shared[0] >= 2 and shared[0] > shared[1]


_CLAUSE_START = re.compile(r"[，,；;。.!?！？\n:：]")
_WORD_RX = re.compile(r"[A-Za-z]{3,}|[\u4e00-\u9fff]{2,}")


def clause_words(text: str, end: int, *, reach: int = 80) -> set[str]:
    """The words of the clause that ends at `end`, at most `reach` characters back (English words of
    three letters or more, lower-cased; Chinese character pairs)."""
    starts = [found.end() for found in _CLAUSE_START.finditer(text, max(0, end - reach), end)]
    clause = text[starts[-1] if starts else max(0, end - reach) : end]
    words: set[str] = set()
    for run in _WORD_RX.findall(clause):
        if run.isascii():
            words.add(run.lower())
        else:
            words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words

"""Numbered steps retold in another order: `restart the poolers, and then repoint the record` over a
runbook whose step 5 repoints the record and step 6 restarts the poolers.

Every word of such a claim is in the context, so support scoring passes it. Read here: the context's
numbered steps (`1.`, `2)`, `Step 3:`, `第 4 步`, `4、`), the claim's pieces in the order it puts them
(`then`, `next`, `after that`, `followed by`, `然后`, `再`, `接着`, `之后`), each piece matched to the one step
it shares clearly most words with, and a later piece that names an earlier step is a swap
(docs/design.md §2.1, "Session 32"). The claim is then `no_evidence` (`order_swapped:`). Pure: no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from groundgate.text.segmentation import stem, tokenize

__all__ = ["steps_swapped"]

_STEP_LINE: Final = re.compile(
    r"^[ \t>*-]*(?:(?i:step)[ \t]*(?P<a>\d{1,2})[ \t]*[:.)：-]?|(?P<b>\d{1,2})[ \t]*[.)、．:：](?!\d)|第[ \t]*(?P<c>\d{1,2})[ \t]*步[:：、，,]?)"
    r"[ \t]*(?P<body>\S.*)$",
    re.MULTILINE,
)
#: What puts one piece of a claim after the one before it.
_THEN: Final = re.compile(
    r"(?i:,?[ \t]*(?:and[ \t]+)?then\b|,?[ \t]*after[ \t]+that\b|,?[ \t]*afterwards\b|,?[ \t]*followed[ \t]+by\b"
    r"|;[ \t]*next\b|\.[ \t]*next\b)|[，,；;]?[ \t]*(?:然后|接着|随后|之后再|之后|再)"
)
_STOP: Final = frozenset(
    {"the", "and", "then", "next", "first", "finally", "finish", "run", "running", "use", "with", "for", "to"}
)
#: A step is named by a piece only when they share this many words and no other step shares as many.
_MIN_SHARED: Final = 2
_MIN_STEPS: Final = 3


def _words(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in tokenize(text) if t not in _STOP and len(t) > 1)


@lru_cache(maxsize=8)
def _steps(context: str) -> tuple[tuple[int, frozenset[str]], ...]:
    """The context's numbered steps (number, words), when it has a run of at least three."""
    found = []
    for m in _STEP_LINE.finditer(context):
        number = int(m.group("a") or m.group("b") or m.group("c"))
        found.append((number, _words(m.group("body"))))
    numbers = {n for n, _ in found}
    if len(numbers) < _MIN_STEPS or not {1, 2, 3} <= numbers:
        return ()
    return tuple(found)


def _step_of(piece: str, steps: tuple[tuple[int, frozenset[str]], ...]) -> int | None:
    words = _words(piece)
    scored = sorted(((len(words & w), n) for n, w in steps), reverse=True)
    best, number = scored[0]
    second = scored[1][0] if len(scored) > 1 else 0
    return number if best >= _MIN_SHARED and best > second else None


def steps_swapped(claim: str, context: str) -> list[str]:
    """`order_swapped:step N before step M` when the claim puts a later step of the context's numbered
    steps before an earlier one (see the module)."""
    if _THEN.search(claim) is None:
        return []  # most claims order nothing: the context is not scanned for steps
    steps = _steps(context)
    if not steps:
        return []
    pieces = [p for p in _THEN.split(claim) if p and p.strip()]
    named = [n for p in pieces if (n := _step_of(p, steps)) is not None]
    for i, earlier in enumerate(named):
        for later in named[i + 1 :]:
            if later < earlier:
                return [f"order_swapped:step {earlier} before step {later}"]
    return []

"""A threshold the context holds for a time, retold as met at once.

"当 5xx 错误率连续 10 分钟高于 2% 时…" retold as "只要 5xx 错误率有一次冲过 2%…", or "above 50,000 for more
than 10 minutes" as "as soon as the queue depth crosses 50,000": every figure is the context's and
every word nearly so, but the trigger is another one — a single spike now sets off what only a
sustained breach did. The claim must say the same threshold figure as a context sentence that holds
it for a time (`连续`, `持续`, `for more than 10 minutes`, `sustained`) and say it is met at once
(`只要…一次`, `一旦`, `as soon as`, `a single spike`). Reported as `condition:persistence_dropped`: the
claim is `no_evidence` (not shown), never `contradicted` — a summary may leave the duration out
without the immediacy cue, and then nothing is reported (docs/design.md §2.1). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["persistence_dropped"]

_HELD_FOR: Final = re.compile(
    r"(?:连续|持续)\s*[\d一二三四五六七八九十两半]+\s*(?:个)?(?:分钟|小时|天|秒|次)"
    r"|\bfor\s+(?:more\s+than\s+|over\s+|at\s+least\s+|longer\s+than\s+)?[\d]+\s*(?:consecutive\s+)?"
    r"(?:seconds?|minutes?|mins?|hours?|days?|checks?|intervals?)\b|\bsustained\b|\bconsecutive\b",
    re.IGNORECASE,
)
_AT_ONCE: Final = re.compile(
    r"只要[^，,。；;]{0,16}(?:一次|一下|一旦|就)|一旦|有一次|瞬间|立刻就|马上就"
    r"|\bas\s+soon\s+as\b|\bthe\s+moment\b|\b(?:a|one|any)\s+single\s+(?:spike|blip|breach|reading|sample)\b"
    r"|\beven\s+(?:a|one)\s+(?:brief\s+)?(?:spike|blip)\b|\bimmediately\s+(?:when|once|after)\b",
    re.IGNORECASE,
)
_FIGURE: Final = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _figures(text: str) -> set[str]:
    return {m.group().replace(",", "") for m in _FIGURE.finditer(text)}


def persistence_dropped(claim: str, context: str) -> list[str]:
    """`["condition:persistence_dropped:<figure>"]` when the claim says a threshold of the context is
    met at once that the context holds for a time (module docs); else []."""
    if not _AT_ONCE.search(claim) or _HELD_FOR.search(claim):
        # "一旦高于 85% 而且持续五分钟": the claim keeps the duration; `一旦` only says "whenever"
        return []
    said = _figures(claim)
    if not said:
        return []
    for clause in re.split(r"[。！？!?;；，]|,\s|(?<=\.)\s+", context):
        held = _HELD_FOR.search(clause)
        if held is None:
            continue
        # The threshold: a figure of the clause that holds it, other than the duration itself.
        shared = (_figures(clause) - _figures(held.group())) & said
        if shared:
            return [f"condition:persistence_dropped:{sorted(shared)[0]}"]
    return []

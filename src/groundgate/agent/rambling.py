"""A long message that rambles before its question, read from where it comes to the point (blind 20).

"唉这周真是乱成一锅粥，周一到现在开了八个会……说正事：我那条报销的待办还剩几天截止来着？" asks one
thing; what comes before "说正事" is how the week went. Read whole, its words were taken for the
question's: `周一` became the task window (a day with no task: a wrong `ANSWERED`), and "领证…酒店…" before
"扯远了，其实就想问一句：婚假要交啥材料给公司？" became conditions no materials passage names. A message
that says it comes to the point (`说正事`, `言归正传`, `扯远了`, `回到正题`, `其实就想问`…) is read
from there; a message without such a marker is read as before. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["to_the_point"]

#: What the asker says to come back to the point; the question follows it.
_TO_THE_POINT: Final = re.compile(
    r"(?:说正事|言归正传|回到正题|说回正题|话说回来|扯远了|跑题了|不说这些了|不扯了)"
    r"[^，,。：:！!？?]{0,4}[，,。：:！!…\s]*"
    r"|(?:其实|我)?(?:就|只)?(?:是)?想问(?:一句|一下|个事|件事)?\s*[：:]\s*"
    r"|(?:其实|我)(?:就|只)想问(?:一句|一下|个事|件事)?\s*[，,：:]?\s*"
)
#: Text this short before the marker is no rambling ("想问下：…" opens a message).
_MIN_PREAMBLE: Final = 12


def to_the_point(text: str) -> str:
    """`text` from the last place it comes to the point, when a long preamble comes before it."""
    last = None
    for m in _TO_THE_POINT.finditer(text):
        last = m
    if last is None or last.start() < _MIN_PREAMBLE:
        return text
    rest = text[last.end() :].lstrip("，,。：:…！! ")
    return rest if len(rest) >= 4 else text

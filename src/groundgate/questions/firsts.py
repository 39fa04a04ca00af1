"""Which came first: a question asking the earliest of a set of events ("那天最早响的是哪个告警",
"which alert fired first?") asks an order in time, which a rule or a description does not give.

A document sentence naming alerts ("PaymentTimeoutRateHigh 和 PaymentSuccessRateLow 不被抑制") says
which alerts exist, not which of them went off first; only a statement that places what it names in
time — a record's timestamp, a clock time — or says it was the first (`最早`, `首先`, "first") can
answer. Pure: no I/O (docs/design.md §8, "Coverage").
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import AnswerKind, Need
from groundgate.questions.statements import Statement

__all__ = ["asks_first", "says_first"]

#: "最早响的是哪个告警", "最先报的是谁", "第一个…是哪个", "which alert fired first", "the earliest page".
_ASKS_FIRST_ZH: Final = re.compile(
    r"(?:最早|最先|第一个|头一个|首个).*(?:哪|什么|谁)|(?:哪|什么|谁).*(?:最早|最先)"
)
_ASKS_FIRST_EN: Final = re.compile(
    r"\b(?:which|what|who)\b.*\b(?:first|earliest)\b|\bearliest\b", re.IGNORECASE | re.DOTALL
)
#: Kinds of need that pick one of several things (not "what should I do first", a procedure).
_PICKING: Final = frozenset({AnswerKind.CHOICE, AnswerKind.PERSON})
#: A statement that orders things in time by its own words.
_SAYS_FIRST: Final = re.compile(
    r"最早|最先|率先|首先(?:触发|发出|响|报)|\b(?:earliest|initially|was\s+the\s+first|fired\s+first)\b",
    re.IGNORECASE,
)


def asks_first(need: Need) -> bool:
    """Whether `need` asks which of several things came first (`_ASKS_FIRST_ZH`, `_ASKS_FIRST_EN`)."""
    if need.kind not in _PICKING:
        return False
    return bool(_ASKS_FIRST_ZH.search(need.text) or _ASKS_FIRST_EN.search(need.text))


def says_first(s: Statement) -> bool:
    """Whether `s` places what it names in time (a clock time or a date) or says it came first."""
    return any(m.kind in ("time", "date") for m in s.mentions) or bool(_SAYS_FIRST.search(s.text))

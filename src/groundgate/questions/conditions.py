"""Whether a statement meets one condition of a need: a range of a quantity (`满 12 年`, `超过 10
天`), a day, a clock time (docs/design.md §8, "Coverage"). Split out of `groundgate.questions.coverage`.

Each check gives one of three outcomes: the statement states the condition (`SATISFIED`), says
nothing of it (`UNADDRESSED`), or states another case (`CONFLICT`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import ConditionKind, NeedCondition
from groundgate.questions.needs import QUANTITY_MENTIONS, quantity_interval
from groundgate.questions.statements import _CLAUSE, Statement

__all__ = ["CONFLICT", "SATISFIED", "UNADDRESSED", "condition_outcome", "quantity_outcome"]

SATISFIED, UNADDRESSED, CONFLICT = "satisfied", "unaddressed", "conflict"


def _overlaps(c: NeedCondition, low: float, high: float, low_inc: bool, high_inc: bool) -> bool:
    c_low = float("-inf") if c.low is None else c.low
    c_high = float("inf") if c.high is None else c.high
    lo, lo_inc = (
        (c_low, c.low_inclusive)
        if c_low > low
        else (low, low_inc if low > c_low else low_inc and c.low_inclusive)
    )
    hi, hi_inc = (
        (c_high, c.high_inclusive)
        if c_high < high
        else (high, high_inc if high < c_high else high_inc and c.high_inclusive)
    )
    return lo < hi or (lo == hi and lo_inc and hi_inc)


def quantity_outcome(s: Statement, c: NeedCondition, *, any_conflict: bool = False) -> str:
    """Whether a clause of `s` states a range overlapping `c`; with `any_conflict`, whether some
    clause states a range that does not."""
    addressed = False
    start = 0
    for clause in [*_CLAUSE.split(s.text), ""]:
        end = start + len(clause)
        mentions = [
            m
            for m in s.mentions
            if start <= m.start < end and m.kind in QUANTITY_MENTIONS and str(m.unit or m.kind) == c.dimension
        ]
        start = end + 1
        if not mentions:
            continue
        addressed = True
        ranges = [quantity_interval(s.text, m) for m in mentions]
        bounded = [r for r in ranges if r[0] != r[1]]
        if bounded:  # `满 1 年不满 10 年的`: the bounds of one clause hold together
            low = max(r[0] for r in bounded)
            high = min(r[1] for r in bounded)
            low_inc = all(r[2] for r in bounded if r[0] == low)
            high_inc = all(r[3] for r in bounded if r[1] == high)
            fits: bool | None = _overlaps(c, low, high, low_inc, high_inc)
        elif c.low == c.high and c.low is not None:
            # A bare figure asked about is excluded only by a range, never by another bare figure.
            fits = True if any(_overlaps(c, *r) for r in ranges) else None
        else:
            fits = any(_overlaps(c, *r) for r in ranges)
        if fits is None:
            continue
        if fits != any_conflict:
            return SATISFIED if fits else CONFLICT
    if any_conflict:
        return SATISFIED
    return CONFLICT if addressed else UNADDRESSED


def _same_day(asked: str, stated: str) -> bool:
    if asked[-5:] != stated[-5:]:
        return False
    return asked.startswith("--") or stated.startswith("--") or asked[:4] == stated[:4]


#: How far a stated clock time may be from the asked one and still be "that moment".
_NEAR_MINUTES: Final = 20


def _minutes(value: str) -> int | None:
    match = re.match(r"(\d{1,2}):(\d{2})", value)
    return int(match.group(1)) * 60 + int(match.group(2)) if match else None


def condition_outcome(s: Statement, c: NeedCondition) -> str:
    if c.kind is ConditionKind.QUANTITY:
        return quantity_outcome(s, c)
    if c.kind is ConditionKind.DATE:
        days = [str(m.value) for m in s.mentions if m.kind == "date"] + list(s.context_dates)
        if not days:
            return UNADDRESSED
        return SATISFIED if any(_same_day(c.value, d) for d in days) else CONFLICT
    asked = _minutes(c.value)
    stated = [t for m in s.mentions if m.kind == "time" and (t := _minutes(str(m.value))) is not None]
    if asked is None or not stated:
        return UNADDRESSED
    # "12:30 那会儿" is near 12:45, not 13:00: a record half an hour away is of another moment.
    near = any(abs(t - asked) <= _NEAR_MINUTES for t in stated) or min(stated) <= asked <= max(stated)
    return SATISFIED if near else CONFLICT

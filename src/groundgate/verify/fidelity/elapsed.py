"""Durations a claim works out from clock times: the time elapsed between two events.

A timeline retold in prose says how long things took rather than copying both clock times: `The
alias was corrected at 17:18 — 36 minutes later` over `began at 16:42 … corrected at 17:18`,
`从打开到关闭大约 16 分钟` over `03:14:52 … OPEN` and `03:31:02 … CLOSED`, `大约一刻钟后涨到 97%` over log
lines at 02:14:07 and 02:29:11, `不到半小时后（2:41）` over 02:13 and 02:41 (docs/design.md §2.1,
"Worked figures").

Across a whole timeline some pair of clock times differs by almost any duration, so a pair is
admitted only where the claim ties it down:
- the claim and its aligned window: any two of their clock times;
- a clock time the claim states: its distance to any clock time of the context — the claim names one
  end of the span;
- a duration said as time *later* (`一刻钟后`, `五分钟后熔断器转为半开`, `after about 15 minutes`): two
  clock times of the context next to each other in time.
A bound (`不到半小时后`, `less than a minute behind`) is met by the gap between the claim's own clock
time and an earlier one (a later one, if the claim says nothing happened before). Pure: no I/O.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from groundgate.verify.fidelity.arithmetic import _approx
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _clock_seconds
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.numbers import _close
from groundgate.verify.fidelity.report import _Ctx

__all__ = ["elapsed_worked_out"]

#: The duration is time elapsed since an earlier event: `36 minutes later`, `一刻钟后`, `五分钟之后`.
_LATER_AFTER = re.compile(r"\s*(?:later\b|afterwards?\b|after\b|(?:之|以)?后)", re.IGNORECASE)
_AFTER_BEFORE = re.compile(
    r"\b(?:after|within)\s+(?:about|around|roughly|some|just|nearly|almost)?\s*$", re.IGNORECASE
)
_DAY = 86_400.0


def _clocks(mentions: Iterable[Mention]) -> list[float]:
    return sorted(
        {t for e in mentions if e.kind == "time" and (t := _clock_seconds(str(e.value))) is not None}
    )


def _said_as_later(m: Mention, source: str) -> bool:
    return bool(
        _LATER_AFTER.match(source, m.end) or _AFTER_BEFORE.search(source[max(0, m.start - 24) : m.start])
    )


def _matches(gap: float, m: Mention, hedged: bool) -> bool:
    """`gap` (seconds) is the claim's duration: exactly, at the precision a hedged one is written in,
    or as the whole minutes of a span between clock times with seconds (`16 分钟` for 16 min 10 s)."""
    if gap <= 0 or not isinstance(m.value, float):
        return False
    if _approx(gap, m, hedged):
        return True
    whole_minutes = m.value % 60 == 0 and m.value >= 60
    return whole_minutes and gap % 60 != 0 and abs(gap - m.value) < 60


def _gap_within_bound(m: Mention, x: _Ctx, nearby: Sequence[Mention]) -> bool:
    """`Brandt, 1:59:10, less than a minute behind the winner (1:58:42)`; `不到半小时后（2:41）` over
    02:13 and 02:41: the gap between the claim's own clock time (the last before the bound, else the
    first after it) and another clock time meets the bound. Said as time later, only the earlier
    clock times of the context count; otherwise those of the claim and its window (across a results
    table some pair is always close)."""
    times = [e for e in extract(x.source) if e.kind == "time"]
    before = [e for e in times if e.end <= m.start]
    own = before[-1] if before else next((e for e in times if e.start >= m.end), None)
    mine = _clock_seconds(str(own.value)) if own is not None else None
    if mine is None or not isinstance(m.value, float):
        return False
    if _said_as_later(m, x.source):
        gaps = [mine - t for t in _clocks(x.everything.mentions.items) if t < mine]
    else:
        gaps = [abs(mine - t) for t in _clocks(nearby) if t != mine]
    bound = m.value
    return any(
        (m.comparator == "<" and g < bound)
        or (m.comparator == "<=" and g <= bound)
        or (m.comparator == ">" and g > bound)
        or (m.comparator == ">=" and g >= bound)
        for g in gaps
    )


def elapsed_worked_out(m: Mention, x: _Ctx) -> bool:
    """`m`, a duration, is the time elapsed between two clock times the claim ties down (see the
    module docstring). A span past midnight (`22:00 – 02:00`) is the rest of the day after the later
    time plus the morning: 4 hours, not 20."""
    if m.kind != "duration" or not isinstance(m.value, float) or not m.value:
        return False
    own = [e for e in extract(x.source) if e.kind == "time"]
    nearby = [*own, *x.aligned.mentions.items]
    if m.comparator:
        return _gap_within_bound(m, x, nearby)
    hedged = x.hedged_near(m)
    clocks = _clocks(nearby)
    if any(
        _matches(b - a, m, hedged) or (b - a > _DAY / 2 and _close(_DAY - (b - a), m.value))
        for i, a in enumerate(clocks)
        for b in clocks[i + 1 :]
    ):
        return True
    context = _clocks(x.everything.mentions.items)
    if any(_matches(abs(c - t), m, hedged) for c in _clocks(own) for t in context):
        return True
    if not _said_as_later(m, x.source):
        return False
    return any(_matches(b - a, m, hedged) for a, b in itertools.pairwise(context))

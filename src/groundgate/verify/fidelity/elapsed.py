"""Durations a claim works out from clock times and dates: the time elapsed between two events.

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
time and an earlier one (a later one, if the claim says nothing happened before).

A date a term's months lead to (`probation ran for six months until 13 August 2023` over `joined on
13 February 2023`; `the sixth month runs to 31 March 2026` over `12 months from 1 October 2025`) is a
date of the evidence moved by a number of months the claim states (or that day less one: a term of
months ends the day before), when the claim says the date ends the term. Days (or nights) counted between two dates the claim itself states (`8月14日取车，8月18日还车，一共4天`,
`5月2日到4日住两晚`) are worked out too: the difference, or the difference plus one for a count that
includes both days. Pure: no I/O.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from datetime import date

from groundgate.verify.fidelity.arithmetic import _approx
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _clock_seconds, _day
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.numbers import _close
from groundgate.verify.fidelity.report import _Ctx

__all__ = ["days_between_dates", "elapsed_worked_out", "months_after", "months_between_dates"]

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


#: The duration counts back from a later event: `four days before the deadline`, `提前3天`, `两天前`.
_BEFORE_AHEAD = re.compile(r"\s*(?:before\b|earlier\b|ahead\b|prior\b|(?:之|以)?前)", re.IGNORECASE)


def _said_as_earlier(m: Mention, source: str) -> bool:
    return bool(_BEFORE_AHEAD.match(source, m.end) or source[max(0, m.start - 3) : m.start].endswith("提前"))


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
    if not hedged and m.value % 60 and m.value > 60:
        # `上传阶段共持续了 1 小时 11 分 25 秒` over a log's 01:47:15 and 02:58:40: exact to the second,
        # so two clock times of the context that far apart are the span meant (docs/design.md §2.1,
        # "Session 32").
        return any(_close(b - a, m.value) for i, a in enumerate(context) for b in context[i + 1 :])
    if not _said_as_later(m, x.source):
        return False
    return any(_matches(b - a, m, hedged) for a, b in itertools.pairwise(context))


#: Units a count of days or nights is said in (`4天`, `两晚`, `three nights`).
_NIGHT_UNITS = frozenset({"晚", "夜", "night", "nights"})
_DAY_UNITS = frozenset({"天", "日", "day", "days"})


def _calendar_day(value: str) -> date | None:
    """`--08-14` or `2024-08-14` as a date (a leap year when the year is not said)."""
    return _day(value, None) or _day(value, 2024)


def _month_days(value: str) -> tuple[int, int] | None:
    """(month, day) of a date with both (`2025-05-31`, `--03-31`), the year left aside."""
    found = re.fullmatch(r"(?:\d{4}|-)-(\d\d)-(\d\d)", value)
    return (int(found.group(1)), int(found.group(2))) if found else None


def months_between_dates(m: Mention, x: _Ctx) -> bool:
    """`m`, a number of months, is the months between two dates the claim states on the same day of
    the month (`31 May 2025, two months after the 31 March cut-off`; `a three-month buffer` from 1
    December to 1 March)."""
    if m.kind != "duration" or m.unit != "month" or not isinstance(m.value, float) or m.comparator:
        return False
    months = int(m.value)
    if months != m.value or not 0 < months < 12:
        return False
    own = [d for e in extract(x.source) if e.kind == "date" and (d := _month_days(str(e.value)))]
    return any(a[1] == b[1] and (b[0] - a[0]) % 12 == months for a in own for b in own if a != b)


def days_between_dates(m: Mention, x: _Ctx) -> bool:
    """`m`, a count of days or nights, is the number of days between two dates the claim states
    (the difference, or the difference plus one when both ends are counted)."""
    if not isinstance(m.value, float) or m.comparator:
        return False
    nights = m.kind == "count" and str(m.unit) in _NIGHT_UNITS
    if m.kind == "duration" and m.unit == "s" and m.value % 86_400 == 0:
        days = m.value / 86_400
    elif nights or (m.kind == "count" and str(m.unit) in _DAY_UNITS):
        days = m.value
    else:
        return False
    # Nights are the difference; days may count both ends (`3 月 1 日到 3 日，共 3 天`).
    counted = (days,) if nights else (days, days - 1)
    own = sorted({d for e in extract(x.source) if e.kind == "date" and (d := _calendar_day(str(e.value)))})
    if any((b - a).days in counted for i, a in enumerate(own) for b in own[i + 1 :] if (b - a).days > 0):
        return True
    context = {d for e in x.everything.by_kind.get("date", ()) if (d := _calendar_day(str(e.value)))}
    if _said_as_earlier(m, x.source):
        # `by 24 April, four days before that overall deadline` over `complete by 28 Apr`: the
        # claim's date and the later date of the context it counts back from.
        return any(0 < (theirs - mine).days == days for mine in own for theirs in context)
    if not _said_as_later(m, x.source):
        return False
    if not own and x.earlier is not None:
        # `Liv confirmed two days later …` after a sentence dated 20 September, over the context's
        # 22 Sep: the earlier sentence's date is the day counted from, and the context holds the day
        # reached (docs/design.md §2.1, "Session 33").
        earlier = {d for e in x.earlier.by_kind.get("date", ()) if (d := _calendar_day(str(e.value)))}
        return any(0 < (theirs - start).days == days for start in earlier & context for theirs in context)
    # `£7,490 was paid on 11 February, 23 days after the loss`: the claim's date and the context's
    # date of the event the duration counts from.
    return any(0 < (mine - theirs).days == days for mine in own for theirs in context)


_ORDINALS = {
    w: n
    for n, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
        ],
        1,
    )
}
#: A number of months said as a count, a term or an ordinal: `six months`, `month 6`, `sixth month`, `第6个月`.
_MONTH_COUNT_RX = re.compile(
    r"\b(?:month\s+(?P<a>\d{1,2})|(?P<b>\d{1,2})(?:st|nd|rd|th)\s+month"
    r"|(?P<c>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)\s+month)\b"
    r"|第\s*(?P<d>\d{1,2})\s*个?月",
    re.IGNORECASE,
)


def _month_counts(mentions: Iterable[Mention], text: str) -> set[int]:
    counts = {
        int(e.value)
        for e in mentions
        if e.kind == "duration"
        and isinstance(e.value, float)
        and e.unit == "month"
        and e.value == int(e.value)
    }
    for m in _MONTH_COUNT_RX.finditer(text):
        word = m.group("c")
        counts.add(_ORDINALS[word.lower()] if word else int(m.group("a") or m.group("b") or m.group("d")))
    return {n for n in counts if 0 < n <= 120}


def _plus_months(day: date, months: int) -> date | None:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    try:
        return date(year, month, day.day)
    except ValueError:
        return None  # 31 January + 1 month: no such day, no claim about it


#: The end of a term: `until 13 August`, `runs to 31 March`, `到 2026 年 3 月 31 日`, `截至`.
_TERM_END_RX = re.compile(
    r"\b(?:until|till|through|to|ends?|ending|ended|expires?|expiring)\b[^.;]{0,8}$|到|至|截止|截至|届满",
    re.IGNORECASE,
)


def _date_text(mentions: Iterable[Mention], value: str) -> str:
    return next((e.text for e in mentions if e.kind == "date" and str(e.value) == value), "\0")


def months_after(value: str, x: _Ctx) -> bool:
    """The claim's date `value`, said as the end of a term, is a date of the evidence moved on by a
    number of months the claim states, or that day less one (see the module docstring)."""
    mine = _calendar_day(value)
    if mine is None or value.startswith("--"):
        return False  # a date without its year cannot be counted in months from another
    claim = extract(x.source)
    at = x.source.find(_date_text(claim.items, value))
    if at < 0 or not _TERM_END_RX.search(x.source[max(0, at - 24) : at]):
        return False  # only the end of a term said as one (`until`, `runs to`, `到…为止`)
    # The months are the claim's own: across a policy some figure in months (`after 6 months of
    # service`) moves some date (`effective 1 January 2025`) onto almost any month.
    counts = _month_counts(claim.items, claim.text)
    starts = {d for e in x.everything.by_kind.get("date", ()) if (d := _calendar_day(str(e.value)))}
    for start in starts:
        for n in counts:
            end = _plus_months(start, n)
            if end is not None and (end == mine or (end - mine).days == 1):
                return True
    return False

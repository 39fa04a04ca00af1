"""Per-kind checks of dates, periods and times, versions, and identifiers."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from groundgate.verify.fidelity.check_numbers import _check_comparator
from groundgate.verify.fidelity.elapsed import months_after
from groundgate.verify.fidelity.evidence import _identifier_found
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.lexicon import _MONTHS
from groundgate.verify.fidelity.matching import (
    _NEAR_SPAN,
    _approx_seconds,
    _clock_seconds,
    _date_conflict,
    _date_match,
    _day,
    _near,
    _period_seconds,
    _time_seconds,
    _version_conflict,
    _version_match,
)
from groundgate.verify.fidelity.model import _DATE_KINDS, Mention, Severity
from groundgate.verify.fidelity.report import _KIND_NAMES, _Ctx, _describe

# --------------------------------------------------------------------------- dates


_SHIFT_AFTER_RX = re.compile(r"[ \t]+(?:before|after|earlier|later|prior)\b", re.IGNORECASE)


def _time_worked_out(value: str, x: _Ctx) -> bool:
    """`16:30 以后不能入园` over `17:30 闭园；闭园前 1 小时停止入园`: the claim's clock time is a clock
    time of the aligned window moved by a relative period the same window states."""
    seconds = _clock_seconds(value)
    if seconds is None:
        return False
    clocks = [_clock_seconds(str(e.value)) for e in x.aligned.by_kind.get("time", ())]
    # Only a shift the evidence states as one (`闭园前 1 小时`, a relative period): a plain duration
    # (`finish within 2 hours`) moves no clock time, and `20:00` for `22:00` stays a changed time.
    shifts = [_period_seconds(str(e.value)) for e in x.aligned.by_kind.get("period", ())]
    text = x.aligned.mentions.text
    shifts += [
        _approx_seconds(e)
        for e in x.aligned.by_kind.get("duration", ())
        if _SHIFT_AFTER_RX.match(text, e.end)  # `1 hour before closing`
    ]
    if any(
        clock is not None and shift is not None and shift and _near(abs(clock - seconds), shift, 0.001)
        for clock in clocks
        for shift in shifts
    ):
        return True
    # "关门时间 3 小时，也就是说最晚 10:30" over a 7:30 start: a claim that says it works the time out
    # (也就是说, i.e.) from a duration it states and a clock time of the context.
    if not _WORKED_MARK_RX.search(x.source):
        return False
    starts = [_clock_seconds(str(e.value)) for e in x.everything.by_kind.get("time", ())]
    durations = [_approx_seconds(e) for e in extract(x.source) if e.kind == "duration"]
    return any(
        start is not None and d and _near(abs(seconds - start), d, 0.001)
        for start in starts
        for d in durations
    )


#: A claim marking a figure as worked out from what it just said.
_WORKED_MARK_RX = re.compile(
    r"也就是说|也就是|换句话说|相当于|即(?=\s*[在为是]?\s*\d)|which means|i\.e\.|that is,"
)


def _shift_days(mentions: Sequence[Mention], text: str) -> set[int]:
    """The whole-day shifts a text states: `前 30 天` / `前一周` (a relative period) or `7 days before`."""
    days: set[int] = set()
    for e in mentions:
        seconds = None
        if e.kind == "period":
            seconds = _period_seconds(str(e.value))
        elif e.kind == "duration" and _SHIFT_AFTER_RX.match(text, e.end):
            seconds = _approx_seconds(e)
        if seconds and seconds % 86400 == 0:
            days.add(int(seconds // 86400))
    return days


def _month_named_in_words(value: str, text: str) -> bool:
    """A month alone (`--05`) that the text names in English words (`in May`, `by the end of
    October`): a text with no figure is not read for dates, so the month is looked up by name (`May`
    only after a preposition: `you may` is no month)."""
    if re.fullmatch(r"--\d\d", value) is None or not 1 <= int(value[2:]) <= 12:
        return False
    month = int(value[2:])
    if month == 5:
        return (
            re.search(r"\b(?:in|by|since|until|till|from|before|after|of|during|through)\s+May\b", text)
            is not None
        )
    names = "|".join(name.capitalize() for name, n in _MONTHS.items() if n == month and len(name) > 3)
    return re.search(rf"\b(?:{names})\b", text) is not None


#: A period of notice before a date: `通知期 30 天`, `提前 30 天`, `a 30-day notice period`.
_NOTICE_BEFORE_RX = re.compile(
    r"(?:通知期|预告期|提前|宽限期|notice(?:[ \t]+period)?|lead[ \t]+time|grace[ \t]+period)\D{0,6}$", re.I
)


def _notice_days(mentions: Sequence[Mention], text: str) -> set[int]:
    """Whole days the claim names as a notice period (`通知期 30 天`)."""
    return {
        int(seconds // 86400)
        for e in mentions
        if e.kind == "duration"
        and _NOTICE_BEFORE_RX.search(text[max(0, e.start - 16) : e.start])
        and (seconds := _approx_seconds(e))
        and seconds % 86400 == 0
    }


def _date_worked_out(value: str, x: _Ctx) -> bool:
    """`到期前 30 天，也就是 2025 年 1 月 2 日` over `到期前 30 天提醒` and `到期日为 2025-02-01`: the claim's
    date is a date of the evidence moved by a shift that the claim and the evidence both state. A
    notice period the claim names (`通知期 30 天，最晚在 7 月 16 日通知`) may stand in the evidence's
    table as a plain `30 天` (docs/design.md §2.1, "Session 32")."""
    claim = extract(x.source)
    theirs_shifts = _shift_days(x.aligned.mentions.items, x.aligned.mentions.text) | _shift_days(
        x.everything.mentions.items, x.everything.mentions.text
    )
    notice = _notice_days(claim.items, claim.text)
    if notice:
        theirs_shifts |= _notice_days(x.everything.mentions.items, x.everything.mentions.text) | {
            int(s // 86400)
            for e in x.everything.by_kind.get("duration", ())
            if (s := _approx_seconds(e)) and s % 86400 == 0
        }
    shifts = (_shift_days(claim.items, claim.text) | notice) & theirs_shifts
    if not shifts:
        return False
    evidence = [str(e.value) for e in x.everything.by_kind.get("date", ())]
    years: set[int | None] = {d.year for v in evidence if (d := _day(v, None)) is not None}
    for year in years or {None}:
        mine = _day(value, year)
        if mine is None:
            continue
        for v in evidence:
            theirs = _day(v, year)
            if theirs is not None and any(abs((theirs - mine).days) == n for n in shifts):
                return True
    return False


_RANGE_JOIN_RX = re.compile(r"[ \t]*(?:-|–|—|~|to|through|thru|until|till|and|至|到)[ \t]*", re.IGNORECASE)


def _date_within_stated_range(value: str, x: _Ctx) -> bool:
    """`free April 18-19` over `National Park Week, happening April 18 through April 26`: the claim's
    day lies inside a span the evidence states with two dates, so it is no contradiction (the evidence
    may well hold it in words: `for Saturday and Sunday`); at most unjudged. docs/design.md §2.1."""
    for mentions in (x.aligned.mentions, x.everything.mentions):
        dates = [e for e in mentions.items if e.kind == "date"]
        for first, last in itertools.pairwise(dates):
            join = _RANGE_JOIN_RX.fullmatch(mentions.text, first.end, last.start)
            if join is None:
                continue
            # A date without its year (`--04-18`) takes the span's; with none, a leap year stands in.
            year = next((d.year for e in (first, last) if (d := _day(str(e.value), None))), 2000)
            low, high, mine = _day(str(first.value), year), _day(str(last.value), year), _day(value, year)
            if low is not None and high is not None and mine is not None and low <= mine <= high:
                return True
    return False


#: `7:45`: a clock time with one digit before the colon and no am/pm — either half of the day.
_BARE_SHORT_CLOCK = re.compile(r"[1-9]:[0-5]\d")


def _check_date(m: Mention, x: _Ctx) -> None:
    r = x.r
    value = str(m.value)
    matches = [*x.aligned.date_matches(value), *x.everything.date_matches(value)]
    # `两点半到四点半`, and `opens at 7:45` (one digit before the colon, no am/pm) said of an evening
    twelve_hour = m.qualifier == "12h" or (
        not x.plan and _BARE_SHORT_CLOCK.fullmatch(m.text.strip()) is not None
    )
    if not matches and m.kind == "time" and twelve_hour:
        # `两点半到四点半` said of an afternoon: the same clock time twelve hours on.
        hour, rest = value.split(":", 1)
        value = f"{int(hour) + 12:02d}:{rest}"
        matches = [*x.aligned.date_matches(value), *x.everything.date_matches(value)]
    if matches:
        _check_comparator(m, matches, x)
        return
    if not x.plan:
        if x.given is not None and (
            any(_date_match(value, str(g.value)) for g in x.given.mentions if g.kind in _DATE_KINDS)
            or _month_named_in_words(value, x.given.mentions.text)
        ):
            return  # `in July` of the question (a text with no figure is not read for dates)
        if value.startswith("weekday:") and int(value[8:]) in (
            x.aligned.weekdays() | x.everything.weekdays()
        ):
            return
        if len(value) == 4 and value.isdigit() and x.everything.contains_token(value):
            return  # a bare year the evidence writes in a range or a number (`1952—2019`)
        seconds = _time_seconds(value) if m.kind == "time" else _period_seconds(value)
        if seconds is not None:
            near = _NEAR_SPAN * max(abs(seconds), 1e-9)
            if any(
                _near(seconds, _approx_seconds(e))
                for e in x.everything.within("duration", seconds - near, seconds + near)
            ):
                return
    if not x.plan and m.kind == "time" and _time_worked_out(value, x):
        return
    day_only = value.startswith("---")
    if day_only and x.everything.contains_token(str(int(value[3:]))):
        return  # `15 日当天` over `幼儿园 15 日停课`, `12 日` over `on 12 and 13 October`: the day is stated
    if not x.plan and m.kind == "date" and (_date_worked_out(value, x) or months_after(value, x)):
        return
    conflicts = [
        e
        for kind in ("date", "period", "time")
        for e in x.aligned.by_kind.get(kind, ())
        if _date_conflict(value, str(e.value))
    ]
    if conflicts:
        e = conflicts[0]
        r.add(
            "date_mismatch",
            # Only a hedge right at the time or date makes it an estimate (`around 20:00`); one
            # elsewhere in a long clause (`all of the roughly 40 deployments`) does not.
            "warning"
            if day_only or x.hedged_near(m) or _date_within_stated_range(value, x)
            else "contradiction",
            f"The {r.side} states {_describe(m)} but the {r.other} states {_describe(e)} (different date or period).",
            m.text,
            e.text,
        )
        return
    if x.plan:
        r.add(
            "constraint_lost",
            "contradiction",
            f"The question states the {_KIND_NAMES[m.kind]} {_describe(m)}, which the plan does not keep unchanged.",
            m.text,
            None,
        )
        return
    if _month_named_in_words(value, x.everything.text):
        return  # `五月整体通胀` over `fell to 3.1% in May`: the month, named in the other language
    severity: Severity
    if m.kind == "period":
        if "date" in x.aligned.by_kind or "date" in x.everything.by_kind:
            return  # a relative period may be the absolute date the evidence gives; cannot tell
        severity = "warning"
    else:
        severity = x.severity(m)
    r.add(
        "number_not_in_evidence",
        severity,
        f"The claim states the {_KIND_NAMES[m.kind]} {_describe(m)}, which appears nowhere in the evidence.",
        m.text,
        None,
    )


# --------------------------------------------------------------------------- versions and identifiers


def _check_version(m: Mention, x: _Ctx) -> None:
    r = x.r
    versions = [*x.aligned.by_kind.get("version", ()), *x.everything.by_kind.get("version", ())]
    if any(_version_match(m, e) for e in versions):
        return
    value = str(m.value)
    if "." in value and x.everything.contains_token(value):
        return
    if (
        not x.plan
        and x.given is not None
        and any(_version_match(m, g) for g in x.given.by_kind.get("version", ()))
    ):
        return
    conflicts = [e for e in x.aligned.by_kind.get("version", ()) if _version_conflict(m, e)]
    if not conflicts and m.qualifier:
        conflicts = [e for e in versions if e.qualifier == m.qualifier and _version_conflict(m, e)]
    if conflicts:
        r.changed("version_mismatch", m, conflicts[0], "different version")
        return
    if x.plan:
        r.add(
            "constraint_lost",
            "contradiction",
            f"The question states {_describe(m)}, which the plan does not keep.",
            m.text,
            None,
        )
    else:
        r.add(
            "version_not_in_evidence",
            "contradiction",
            f"The claim states {_describe(m)}, which appears nowhere in the evidence.",
            m.text,
            None,
        )


def _check_identifier(m: Mention, x: _Ctx) -> None:
    if _identifier_found(m, x.everything) or _identifier_found(m, x.aligned):
        return
    if not x.plan and x.given is not None and _identifier_found(m, x.given):
        return  # named by the user in the question
    if x.plan:
        x.r.add(
            "constraint_lost",
            "contradiction",
            f"The question names the identifier '{m.value}', which the plan does not keep.",
            m.text,
            None,
        )
    else:
        x.r.add(
            "identifier_not_in_evidence",
            "contradiction",
            f"The claim names the identifier '{m.value}', which appears nowhere in the evidence.",
            m.text,
            None,
        )

"""A measure asked at one minute ("What was the p99 latency at 14:03 UTC?", `14:12 那一分钟的支付成功
率`): its value then, which a series' point gives and a summary of a window does not (docs/design.md
§8, "Coverage").

Pure: no I/O. The planner reads such a series over half its usual window (so it stays raw), the
executor states the point (`verify.series.find_point`), and coverage refuses a window's summary
or a record of another minute for it (`not_at_asked_minute`).

A minute only pointed back to ("and the ERR_TIMEOUT rate in that same minute?", `同一分钟`) with no
clock time of the question's own, nor one a follow-up took from the previous question, is a minute
only an earlier *answer* named; answers are never passed on (docs/design.md §1 invariant 11), so no
statement can be shown to give the value then (`refers_to_unnamed_minute`).
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import AnswerKind, ConditionKind, Need
from groundgate.questions.conditions import clock_readings
from groundgate.questions.statements import Statement

__all__ = ["asked_minutes", "asks_value_at", "not_at_asked_minute", "refers_to_unnamed_minute"]

#: A metric series' summary over a window, as `render_fact` writes it (`… 13:42–14:42 UTC: max 99.86
#: at 13:51, min …`).
_WINDOW_SUMMARY: Final = re.compile(r"\d{2}:\d{2}–\d{2}:\d{2} UTC: max \S+ at (\d{2}:\d{2})")
#: A time asked roughly ("12:30 那会儿", "around 14:00"): a short window around it answers.
_ROUGHLY: Final = re.compile(
    r"那会|左右|前后|上下|附近|\b(?:around|about|roughly|approximately)\b", re.IGNORECASE
)
#: The window's extreme or mean is asked ("13:51 至 14:21 的最大值", "the peak between …"): its
#: summary is the answer.
_ASKS_SUMMARY: Final = re.compile(
    r"最大|最小|最高|最低|峰值|均值|平均|\b(?:max(?:imum)?|min(?:imum)?|peak|highest|lowest|average|mean)\b",
    re.IGNORECASE,
)

#: A minute or moment pointed back to: "that same minute", "the same minute", "that moment",
#: `同一分钟`, `那一分钟`, `同一时刻`, `那一刻`.
_POINTED_MINUTE: Final = re.compile(
    r"\b(?:that|the)\s+(?:same\s+)?(?:minute|moment)\b|\bsame\s+(?:minute|moment)\b"
    r"|同一分钟|那一分钟|那分钟|同一时刻|那一刻|那个时刻",
    re.IGNORECASE,
)


def refers_to_unnamed_minute(need: Need) -> bool:
    """Whether `need` asks about a minute it only points back to ("in that same minute"), with no
    clock time or date among its conditions: the minute was named by an earlier answer, not a question."""
    if any(c.kind in (ConditionKind.TIME, ConditionKind.DATE) for c in need.conditions):
        return False
    return _POINTED_MINUTE.search(need.text) is not None


def asks_value_at(need: Need) -> str | None:
    """The minute (`14:12`) a quantity need asks the value at, or None: one clock time, not asked
    roughly, and no extreme or mean of a window asked."""
    minutes = asked_minutes(need)
    return minutes[0] if minutes else None


def asked_minutes(need: Need) -> tuple[str, ...]:
    """The readings of the minute `need` asks the value at (`asks_value_at`): one, or both halves of
    the day for a Chinese hour said with no daypart (`2点08分` is 02:08 or 14:08, `clock_readings`)."""
    if need.kind is not AnswerKind.QUANTITY:
        return ()
    times = [c for c in need.conditions if c.kind is ConditionKind.TIME and len(c.value) == 5]
    if len(times) != 1 or _ROUGHLY.search(need.text) or _ASKS_SUMMARY.search(need.text):
        return ()
    return clock_readings(times[0])


def not_at_asked_minute(s: Statement, need: Need) -> bool:
    """Whether `s` gives no value at the minute `need` asks it at: a window's summary whose maximum
    fell at another minute, or a record of another minute, however near (a log line of 14:18,
    `waiters=300/300`, says nothing of the queue at 14:24). A span of times that holds the minute does."""
    if refers_to_unnamed_minute(need):  # which minute is only in an earlier answer
        return True
    minutes = asked_minutes(need)
    if not minutes:
        return False
    summary = _WINDOW_SUMMARY.search(s.text)
    if summary is not None:
        return summary.group(1) not in minutes
    stated = sorted({str(m.value)[:5] for m in s.mentions if m.kind == "time"})
    if not stated or any(minute in stated for minute in minutes):
        return False
    return not any(len(stated) >= 2 and stated[0] <= minute <= stated[-1] for minute in minutes)

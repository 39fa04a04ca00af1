"""When a metric recovered: a statement the offline executor may make and the verifier checks in code.

"When did the ERR_TIMEOUT rate recover?" is answered by no single value a tool returned: the
`metric.summary` fact has the peak, the `metric.points` fact the series. Recovery is computed the same
way on both sides, deterministically: the **baseline** is the median of the series; the series
**recovered** at the first point after its maximum whose value is back within a fifth of the way from
the baseline to the peak and stays there for the next points (up to three). A fifth, not a tenth: a
day's series comes in 5-minute buckets, each its maximum, and the bucket the incident ended in still
holds a few high seconds (`3.1` after a peak of `18.4`, back to `0.4` two minutes later). A series whose peak is not
at least twice its baseline had no incident to recover from (None).

The executor states it with both facts cited (the summary for the peak, the recovery point quoted
from the points); the verifier recomputes it from the cited points and confirms the claim only when it
names that same time and value.

The value at one moment ("what was the success rate at 14:12?") is a point of the series, not its
summary: `find_point` takes the point stamped with that minute (none when the series was
downsampled or has no point then — nothing is interpolated), and `confirms_point` confirms a claim
that names a minute and the value the cited series holds at exactly that minute.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "RECOVERY_WORDS",
    "Point",
    "Recovery",
    "confirms_point",
    "confirms_recovery",
    "find_point",
    "find_recovery",
    "points_excerpt",
]

#: Words a question uses for "back to normal"; the executor states recovery in the question's word.
RECOVERY_WORDS: Final = ("recover", "recovery", "恢复", "回落", "恢复正常", "好转")
_SHARE: Final = 0.2
_STAY: Final = 3


@dataclass(frozen=True, slots=True)
class Recovery:
    """A series' peak and the point it recovered at."""

    day: str
    """`2026-03-14`."""
    peak: float
    peak_at: str
    """`14:18` (UTC)."""
    value: float
    at: str
    """`14:33` (UTC)."""
    at_iso: str
    """The recovery point's timestamp as the points hold it (`2026-03-14T14:33:00Z`)."""


def _points(value: Mapping[str, Any]) -> list[tuple[str, float]]:
    raw = value.get("points") if isinstance(value, Mapping) else None
    points: list[tuple[str, float]] = []
    for item in raw or []:
        if isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[1], int | float):
            points.append((str(item[0]), float(item[1])))
    return points


def plain(number: float) -> str:
    """A figure as the tools render it (`18.4`, `0.3`, `100`)."""
    return str(int(number)) if float(number).is_integer() else repr(float(number))


def find_recovery(value: Mapping[str, Any]) -> Recovery | None:
    """The peak and recovery point of a `metric.points` value (module docs), or None."""
    points = _points(value)
    if len(points) < 3:
        return None
    values = [v for _, v in points]
    baseline = statistics.median(values)
    top = max(range(len(points)), key=lambda i: (values[i], -i))
    peak = values[top]
    if peak <= 0 or peak < 2 * max(baseline, 1e-9):
        return None
    threshold = baseline + _SHARE * (peak - baseline)
    for i in range(top + 1, len(points)):
        if values[i] <= threshold and all(v <= threshold for v in values[i + 1 : i + 1 + _STAY]):
            stamp, peak_stamp = points[i][0], points[top][0]
            return Recovery(
                day=stamp[:10],
                peak=peak,
                peak_at=peak_stamp[11:16],
                value=values[i],
                at=stamp[11:16],
                at_iso=stamp,
            )
    return None


def points_excerpt(point: Recovery | Point) -> str:
    """A point (the recovery point, or the point at an asked minute) as it is quoted from the points
    fact's value (`["…T14:33:00Z", 0.3]`)."""
    return f'["{point.at_iso}", {plain(point.value)}]'


def confirms_recovery(claim: str, value: Mapping[str, Any]) -> bool:
    """Whether `claim` states recovery at exactly the time and value `value`'s series recovered at."""
    recovery = find_recovery(value)
    if recovery is None or not any(word in claim.lower() for word in RECOVERY_WORDS):
        return False
    figures = set(re.findall(r"\d+(?:\.\d+)?", claim))
    return recovery.at in claim and plain(recovery.value) in figures


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a series: the value at a minute."""

    day: str
    """`2026-03-14`."""
    at: str
    """`14:12` (UTC)."""
    value: float
    at_iso: str
    """The point's timestamp as the points hold it (`2026-03-14T14:12:00Z`)."""


def find_point(value: Mapping[str, Any], at: str, day: str | None = None) -> Point | None:
    """The raw point of a `metric.points` value stamped with the minute `at` (`14:12`) — on `day`
    when given (`2026-03-14`, or `--03-14` for any year) — or None (a downsampled series' points are
    maxima of buckets, not values at a minute; a minute with no point has no value)."""
    if value.get("aggregation", "raw") != "raw":
        return None
    for stamp, number in _points(value):
        if stamp[11:16] == at and (day is None or stamp[:10].endswith(day.lstrip("-"))):
            return Point(day=stamp[:10], at=at, value=number, at_iso=stamp)
    return None


_MINUTE = re.compile(r"(?<!\d)([01]\d|2[0-3]):([0-5]\d)(?!\d)")
_SERIES_OR_DAY = re.compile(r"\S*\{[^}]*\}|\d{4}-\d{2}-\d{2}")


def confirms_point(claim: str, value: Mapping[str, Any]) -> bool:
    """Whether `claim` names a minute and the value `value`'s raw series holds at that minute, and no
    other figure besides the series' name and labels, the day and the minute."""
    said = _SERIES_OR_DAY.sub(" ", claim)
    figures = set(re.findall(r"\d+(?:\.\d+)?", _MINUTE.sub(" ", said)))
    for m in _MINUTE.finditer(said):
        point = find_point(value, m.group(0))
        if point is not None and figures == {plain(point.value)}:
            return True
    return False

"""Opening hours by weekday: a day a claim says is closed that the record gives hours for.

A listing's hours are fields keyed by weekday (`"Monday": "closed"`, `"Tue-Sun": "12:00-22:00"`,
`"周二至周四": "17:00-23:30"`, `"周五、周六": …`). A description that moves the closing day ("closed on
Tuesdays", `周二店休`) changes a fact no figure shows: the words are all in the record, under another
day. `closed_day_conflicts(clause, fields)` finds the days a clause says are closed (a closing word in
the same clause as the day) whose own field holds opening hours (docs/design.md §2.1, "Session 34").
Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from groundgate.verify.records import Field

__all__ = ["closed_day_conflicts"]

_EN_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ZH_DAYS = "一二三四五六日"
#: A weekday in English: its full name (any case), or its capitalised abbreviation (`Tue`, `Thurs`).
_EN_DAY_RX = re.compile(
    r"(?<![A-Za-z])(?:(?i:(mon)day|(tue)sday|(wed)nesday|(thu)rsday|(fri)day|(sat)urday|(sun)day)s?"
    r"|(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:s|rs|urs)?\.?)(?![A-Za-z])"
)
_ZH_DAY_RX = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
_CLOSED_RX = re.compile(
    r"(?<![A-Za-z])(?:closed|shut|closes\s+all\s+day|day\s+off)(?![A-Za-z])|店休|休息|不营业|歇业|关门|闭店|公休",
    re.IGNORECASE,
)
_HOURS_VALUE = re.compile(r"\d{1,2}:\d{2}\s*[-–~至到]")
_KEY_RANGE = re.compile(r"^\s*(\S+?)\s*(?:-|–|~|至|到|to)\s*(\S+?)\s*$", re.IGNORECASE)


#: `Tuesday to Sunday`, `周二至周四`: a span of days, said of hours rather than of a closing day.
_DAY_SPAN_RX = re.compile(
    rf"(?:{_EN_DAY_RX.pattern}|{_ZH_DAY_RX.pattern})\s*(?:to|through|until|至|到|-|–|~)\s*"
    rf"(?:{_EN_DAY_RX.pattern}|{_ZH_DAY_RX.pattern})"
)


def _day(word: str) -> int | None:
    zh = _ZH_DAY_RX.search(word)
    if zh is not None:
        return _ZH_DAYS.index("日" if zh.group(1) == "天" else zh.group(1))
    en = _EN_DAY_RX.fullmatch(word.strip())
    return _en_index(en) if en is not None else None


def _en_index(m: re.Match[str]) -> int:
    return _EN_DAYS.index(next(g for g in m.groups() if g).lower())


def _key_days(key: str) -> set[int]:
    """The weekdays a hours key covers: `Monday`, `Tue-Sun`, `周二至周四`, `周五、周六`."""
    ranged = _KEY_RANGE.match(key)
    if ranged is not None:
        a, b = _day(ranged.group(1)), _day(ranged.group(2))
        if a is not None and b is not None:
            return {(a + k) % 7 for k in range((b - a) % 7 + 1)}
    parts = [p for p in re.split(r"[、,/&和及]|\band\b", key) if p.strip()]
    days = {d for part in parts if (d := _day(part)) is not None}
    words = key.split()
    if len(parts) == 1 and len(words) == 2 and all(_day(w) is not None for w in words):
        # `Tue-Sun` reaches us as `Tue Sun` (the key's words split at its dash): a span of days
        return _key_days(" - ".join(words))
    return days


def _clause_days(clause: str) -> set[int]:
    days = {_ZH_DAYS.index("日" if m.group(1) == "天" else m.group(1)) for m in _ZH_DAY_RX.finditer(clause)}
    days |= {_en_index(m) for m in _EN_DAY_RX.finditer(clause)}
    return days


def closed_day_conflicts(clause: str, fields: tuple[Field, ...]) -> list[str]:
    """The hours fields of the days `clause` says are closed that hold opening hours. A clause that
    names a range of days (`Tuesday to Sunday`) or says what is open is left alone."""
    if _CLOSED_RX.search(clause) is None or _DAY_SPAN_RX.search(clause):
        return []
    said = _clause_days(clause)
    if not said:
        return []
    found: list[str] = []
    for f in fields:
        days = _key_days(f.key)
        if days & said and _HOURS_VALUE.search(f.value):
            found.append(f.key)
    return found

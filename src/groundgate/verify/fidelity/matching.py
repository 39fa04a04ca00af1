"""Comparing normalised values, as pure functions of mentions and values.

Case and width folding and identifier tokens; numbers with unit awareness (`5千元` == `¥5,000`),
ranges, dates and periods (match and conflict), versions, and durations, times and relative periods
in approximate seconds.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from functools import lru_cache

from groundgate.text.segmentation import CACHE_MAX_CHARS
from groundgate.verify.fidelity.model import _NUMERIC_KINDS, Mention
from groundgate.verify.fidelity.numbers import _close

# --------------------------------------------------------------------------- folding

_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_SQUASH_RX = re.compile(r"[^0-9a-z\u4e00-\u9fff]+")


def _vkey(value: float) -> float:
    """A hashable key that absorbs float noise (`1.2 * 10000` is 12000.000000000002)."""
    return float(f"{value:.9g}")


def _folded(text: str) -> str:
    if len(text) > CACHE_MAX_CHARS:
        return _fold_case(text)
    return _folded_cached(text)


@lru_cache(maxsize=8192)
def _folded_cached(text: str) -> str:
    return _fold_case(text)


def _fold_case(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _squash(value: str) -> str:
    return _SQUASH_RX.sub("", _folded(value))


def _contains_token(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` (both folded) not glued to a longer identifier or number."""
    if not needle:
        return False
    start = haystack.find(needle)
    n = len(needle)
    while start >= 0:
        before = haystack[start - 1] if start > 0 else ""
        after = haystack[start + n] if start + n < len(haystack) else ""
        if before not in _ID_CHARS and after not in _ID_CHARS:
            return True
        start = haystack.find(needle, start + 1)
    return False


# --------------------------------------------------------------------------- numbers and ranges


def _compatible_units(a: Mention, b_kind: str, b_unit: str | None) -> bool:
    if a.kind != b_kind:
        return False
    if a.kind == "count":
        return True  # 名 / 人 / 位 / people: classifiers vary freely
    if a.kind == "amount":
        return a.unit is None or b_unit is None or a.unit == b_unit
    return a.unit == b_unit


def _num_match(c: Mention, e: Mention) -> bool:
    """Same quantity, unit-aware: `5千元` == `¥5,000`, `2分钟` == `120 s`, a bare `5000` matches both."""
    cv, ev = c.value, e.value
    if not isinstance(cv, float):
        return False
    if isinstance(ev, tuple):  # a value at either end of an evidence range
        inner = e.qualifier or "number"
        if not (_close(cv, ev[0]) or _close(cv, ev[1])):
            return False
        return c.kind == "number" or inner == "number" or _compatible_units(c, inner, e.unit)
    if not isinstance(ev, float) or e.kind not in _NUMERIC_KINDS:
        return False
    if c.kind == "number" or e.kind == "number":
        if c.spelled and c.raw == 1 and c.kind != "number":
            # `a minute`, `one day`: its count of one is no figure a bare `1` (a rank, a row) states
            return _close(cv, ev)
        return _close(cv, e.raw) or _close(cv, ev) or _close(c.raw, ev)
    if not _close(cv, ev):
        return False
    if c.kind == e.kind:
        return _compatible_units(c, e.kind, e.unit)
    if {c.kind, e.kind} == {"amount", "count"}:
        amount = c if c.kind == "amount" else e
        return amount.unit is None
    return False


def _dimensioned(m: Mention) -> bool:
    return m.kind in {"amount", "percent", "duration", "size", "measure", "count"} and m.unit is not None


def _same_kind(c: Mention, e: Mention) -> bool:
    """Whether `e` states the same sort of quantity as `c` (so a different value contradicts it)."""
    if e.kind != c.kind or not isinstance(e.value, float):
        return False
    if c.kind == "count":
        return c.unit is None or e.unit is None or c.unit == e.unit
    return c.kind == "number" or _compatible_units(c, e.kind, e.unit)


def _range_match(c: Mention, e: Mention) -> bool:
    if not (isinstance(c.value, tuple) and isinstance(e.value, tuple)):
        return False
    if not (_close(c.value[0], e.value[0]) and _close(c.value[1], e.value[1])):
        return False
    if c.qualifier == "number" or e.qualifier == "number":
        return True
    return c.qualifier == e.qualifier and (c.unit == e.unit or c.qualifier in {"amount", "count"})


# --------------------------------------------------------------------------- dates


@lru_cache(maxsize=4096)
def _date_fields(value: str) -> tuple[tuple[str, int], ...] | None:
    """Calendar fields of an absolute date value; None for relative periods, weekdays and times."""
    if value.startswith(("relative:", "weekday:")) or ":" in value:
        return None
    if value.startswith("---") and value[3:].isdigit():
        return (("d", int(value[3:])),)  # `9 日`: a day of the month alone
    fields: dict[str, int] = {}
    rest = value
    if len(value) == 5 and value.endswith("s") and value[:4].isdigit():
        return (("c", int(value[:3])),)  # `1990s`: the decade, a year's coarser field
    if rest[:4].isdigit():
        fields["y"] = int(rest[:4])
        fields["c"] = fields["y"] // 10  # so `1995` lies in `1990s` and `2001` conflicts with it
        rest = rest[5:]
    else:
        rest = rest.lstrip("-")
    if rest.startswith("Q"):
        fields["q"] = int(rest[1:])
    elif rest.startswith("H"):
        fields["h"] = int(rest[1:])
    elif rest:
        parts = rest.split("-")
        fields["m"] = int(parts[0])
        if len(parts) > 1:
            fields["d"] = int(parts[1])
    return tuple(fields.items())


def _finest(fields: dict[str, int]) -> str:
    for key in ("d", "m", "q", "h", "y", "c"):
        if key in fields:
            return key
    return "y"


def _date_match(c: str, e: str) -> bool:
    """`e` states the date `c` states: no field differs and `c`'s finest field is present in `e`."""
    if c == e:
        return True
    if c[:1].isdigit() and c[2:3] == ":":
        return e.startswith(c) or c.startswith(e)  # 03:13 vs 03:13:02
    cf, ef = _date_fields(c), _date_fields(e)
    if cf is None or ef is None:
        return False
    cd, ed = dict(cf), dict(ef)
    if any(ed[k] != v for k, v in cd.items() if k in ed):
        return False
    return _finest(cd) in ed


def _rel_key(value: str) -> str:
    parts = value.split(":")
    return ":".join(parts[1:3]) if parts[1] == "last" else parts[1]


def _date_conflict(c: str, e: str) -> bool:
    """`c` and `e` name the same sort of period and disagree."""
    if c == e:
        return False
    if c.startswith("relative:") or e.startswith("relative:"):
        return c.startswith("relative:") and e.startswith("relative:") and _rel_key(c) == _rel_key(e)
    if c.startswith("weekday:") or e.startswith("weekday:"):
        return c.startswith("weekday:") and e.startswith("weekday:")
    if ":" in c or ":" in e:
        return ":" in c and ":" in e
    cf, ef = _date_fields(c), _date_fields(e)
    if cf is None or ef is None:
        return False
    ed = dict(ef)
    common = [k for k, _ in cf if k in ed]
    return bool(common) and any(ed[k] != v for k, v in cf if k in ed)


def _weekday_of(value: str) -> int | None:
    fields = _date_fields(value)
    if fields is None:
        return None
    f = dict(fields)
    if not {"y", "m", "d"} <= f.keys():
        return None
    try:
        return date(f["y"], f["m"], f["d"]).isoweekday()
    except ValueError:
        return None


# --------------------------------------------------------------------------- versions


def _version_parts(value: str) -> list[str]:
    return value.split(".")


def _version_match(c: Mention, e: Mention) -> bool:
    if c.qualifier and e.qualifier and c.qualifier != e.qualifier:
        return False
    cp, ep = _version_parts(str(c.value)), _version_parts(str(e.value))
    return ep[: len(cp)] == cp


def _version_conflict(c: Mention, e: Mention) -> bool:
    if c.qualifier and e.qualifier and c.qualifier != e.qualifier:
        return False
    cp, ep = _version_parts(str(c.value)), _version_parts(str(e.value))
    n = min(len(cp), len(ep))
    return cp[:n] != ep[:n]


# --------------------------------------------------------------------------- approximate seconds


def _approx_seconds(m: Mention) -> float | None:
    if m.kind != "duration" or not isinstance(m.value, float):
        return None
    if m.unit == "s":
        return m.value
    if m.unit == "month":
        days = 365.0 * m.raw if m.surface_unit == "year" and m.raw is not None else 30.0 * m.value
        return days * 86400.0
    return None


_ISO_DAY_RX = re.compile(r"(\d{4})?-?-(\d{2})-(\d{2})")


def _day(value: str, year: int | None) -> date | None:
    """`2024-11-15` or `--11-08` (with `year`) as a date; None for anything else."""
    found = _ISO_DAY_RX.fullmatch(value)
    if found is None or (found.group(1) is None and year is None):
        return None
    try:
        return date(int(found.group(1) or year or 0), int(found.group(2)), int(found.group(3)))
    except ValueError:
        return None


def _clock_seconds(value: str) -> float | None:
    """`16:30` or `16:30:05` as seconds after midnight."""
    parts = value.split(":")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]) * 3600.0 + int(parts[1]) * 60.0 + (int(parts[2]) if len(parts) == 3 else 0)


def _time_seconds(value: str) -> float | None:
    parts = value.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]) * 3600.0 + int(parts[1]) * 60.0 + int(parts[2])


_LAST_N_SECONDS = {"day": 86400.0, "hour": 3600.0, "minute": 60.0}


def _period_seconds(value: str) -> float | None:
    """`relative:last:day:7` as an approximate duration (7 days), for `近7天` vs `7天内`."""
    parts = value.split(":")
    if len(parts) != 4 or parts[1] != "last":
        return None
    n = float(parts[3])
    if parts[2] in _LAST_N_SECONDS:
        return n * _LAST_N_SECONDS[parts[2]]
    return n * (30.0 if parts[2] == "month" else 365.0) * 86400.0


def _near(a: float | None, b: float | None, tolerance: float = 0.02) -> bool:
    return a is not None and b is not None and abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-9)


#: How far apart (relative) two values `_near` or `_close` may be, with room: the range look-ups
#: fetch a superset and the comparison itself decides.
_NEAR_SPAN = 0.0205
_CLOSE_SPAN = 2e-9

"""A need's conditions: reading them from a question, and whether a statement meets one
(docs/design.md §8, "Coverage").

A condition is a range of a quantity (`满 12 年` is at least 12 years, `超过 10 天`, `不超过 600 元`), a
day or a clock time. `read_conditions` takes them from one question part with their comparators.
Each check gives one of three outcomes: the statement states the condition (`SATISFIED`), says
nothing of it (`UNADDRESSED`), or states another case (`CONFLICT`). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final

from groundgate.contracts import ConditionKind, NeedCondition
from groundgate.questions.statements import _CLAUSE, Statement
from groundgate.verify import fidelity

__all__ = [
    # reading conditions from a question
    "QUANTITY_MENTIONS",
    "quantity_interval",
    "read_conditions",
    "clock_readings",
    # checking a statement against one
    "CONFLICT",
    "SATISFIED",
    "UNADDRESSED",
    "condition_outcome",
    "quantity_outcome",
    "at_strict_bound",
    "exceeds_limit",
]

#: Mention kinds that are figures with a unit (conditions a need holds under).
QUANTITY_MENTIONS: Final = frozenset({"amount", "percent", "duration", "size", "measure", "range"})

# --------------------------------------------------------------------------- reading them from a question


def quantity_interval(text: str, mention: fidelity.Mention) -> tuple[float, float, bool, bool]:
    """The range a figure states: `满 12 年` is [12 y, ∞), `不满 10 年` (-∞, 10 y), bare `5 天` [5 d, 5 d].

    Values are fidelity's base units (months for years, seconds for days); ranges (`1 到 3 天`) are
    closed. `满` (reached) is read here; fidelity reads the other comparators.
    """
    inf = float("inf")
    if mention.kind == "range" and isinstance(mention.value, tuple):
        return float(mention.value[0]), float(mention.value[1]), True, True
    value = float(mention.value) if isinstance(mention.value, int | float) else 0.0
    comparator = mention.comparator
    if comparator is None:
        before = text[max(0, mention.start - 3) : mention.start].rstrip()
        if before.endswith(("不满", "未满", "不足", "不到")):
            comparator = "<"
        elif before.endswith(("持续", "连续")) and mention.kind == "duration":
            # "大于 5（%）持续 3 分钟": a rule's sustained span is at least that long (10 minutes meets it).
            comparator = ">="
        elif before.endswith(("满", "超")):
            comparator = ">=" if before.endswith("满") else ">"
        elif before.endswith("至") or text[max(0, mention.start - 5) : mention.start].rstrip().endswith(
            "以上到"
        ):
            # "2,000 元以上至 10,000 元": the upper end of a span whose lower end is a bound of its own.
            comparator = "<="
    if comparator == ">":
        return value, inf, False, True
    if comparator == ">=":
        return value, inf, True, True
    if comparator == "<":
        return -inf, value, True, False
    if comparator == "<=":
        return -inf, value, True, True
    return value, value, True, True


def read_conditions(part: str, mentions: Sequence[fidelity.Mention]) -> list[NeedCondition]:
    """The conditions one question part holds under: its dimensioned figures with their comparators,
    its days (`2026-03-14`, `3/14 那天`) and its clock times."""
    found: list[NeedCondition] = []
    for m in mentions:
        if m.start > 0 and part[m.start - 1] in "哪那这该每":
            # `哪一天` (the question word), `那一天` / `这一年` (that day): no condition of one day.
            continue
        if m.text.startswith("一") and _RATE_AFTER.match(part, m.end):
            # `一年有几天年假`, `一个月能报几次`: a rate asked for, no condition of one year.
            continue
        if m.kind in QUANTITY_MENTIONS:
            low, high, low_inc, high_inc = quantity_interval(part, m)
            found.append(
                NeedCondition(
                    text=_condition_text(part, m),
                    kind=ConditionKind.QUANTITY,
                    dimension=str(m.unit or m.kind),
                    low=low if low != float("-inf") else None,
                    high=high if high != float("inf") else None,
                    low_inclusive=low_inc,
                    high_inclusive=high_inc,
                )
            )
        elif m.kind == "date":
            found.append(NeedCondition(text=m.text, kind=ConditionKind.DATE, value=str(m.value)))
        elif m.kind == "time":
            found.append(NeedCondition(text=m.text, kind=ConditionKind.TIME, value=str(m.value)[:5]))
    if not any(c.kind is ConditionKind.DATE for c in found):
        for d in _SLASH_DAY.finditer(part):
            month, day = int(d.group(1) or d.group(3)), int(d.group(2) or d.group(4))
            found.append(
                NeedCondition(
                    text=d.group(0).strip(), kind=ConditionKind.DATE, value=f"--{month:02d}-{day:02d}"
                )
            )
    return found


#: What follows `一年` / `一个月` when it is the unit of a rate asked for, not a length of time.
_RATE_AFTER: Final = re.compile(
    r"\s*(?:到底|究竟|大概|大约|一般)?\s*(?:能|可以|有|可|给|一共|总共|共|休|享|几|多少|最多|的(?:年假|假期|额度))"
)


#: "3/14 那天", "on 3/14": a day written month/day, which the figure extractor leaves alone (it
#: could be a ratio); read as one only when a day word follows or "on" comes before.
_SLASH_DAY: Final = re.compile(
    r"(?:(?<=\b[oO]n )|(?<=\b[dD]uring the ))(?<![\d/])(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])(?![\d/])"
    r"|(?<![\d/])(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])(?![\d/])"
    r"(?=\s*(?:那天|当天|那日|号|日|那会|上午|下午|凌晨|晚上|中午))"
)


_CUE_BEFORE = re.compile(
    r"(?:不满|未满|不足|不到|满|超过|超|多于|少于|大于|小于|高于|低于|不少于|不超过|不低于|不高于|至少|至多|最多|"
    r"more than|less than|at least|at most|over|under|above|below|up to|within|no more than|no less than)\s*$",
    re.IGNORECASE,
)
_CUE_AFTER = re.compile(r"^\s*(?:及以上|以上|及以下|以下|以内|之内|内)")


def _condition_text(part: str, m: fidelity.Mention) -> str:
    start, end = m.start, m.end
    before = _CUE_BEFORE.search(part[:start])
    if before:
        start = before.start()
    after = _CUE_AFTER.match(part[end:])
    if after:
        end += after.end()
    return part[start:end].strip()


# --------------------------------------------------------------------------- checking a statement against one

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


def at_strict_bound(s: Statement, c: NeedCondition) -> bool:
    """Whether `s` states a one-sided strict bound exactly at the single figure `c` asks about
    (`大于 5（%）` for "停在 5.0% 整", "more than 50,000" for "正好五万"): the rule that decides the
    edge case — the figure does not pass it — rather than a rule for another case."""
    for _, (low, high, low_inc, high_inc) in _single_figure_bounds(s, c):
        if (low == c.low and not low_inc and high == float("inf")) or (
            high == c.low and not high_inc and low == float("-inf")
        ):
            return True
    return False


def _single_figure_bounds(
    s: Statement, c: NeedCondition
) -> Iterator[tuple[fidelity.Mention, tuple[float, float, bool, bool]]]:
    """The quantity mentions of `s` in the dimension of the single figure `c` asks about, each with
    the interval it states (nothing unless `c` asks one figure)."""
    if c.kind is not ConditionKind.QUANTITY or c.low is None or c.low != c.high:
        return
    for m in s.mentions:
        if m.kind in QUANTITY_MENTIONS and str(m.unit or m.kind) == c.dimension:
            yield m, quantity_interval(s.text, m)


#: Words that make an upper bound a limit on what is allowed (`单次静默最长 2 小时`, "at most 10").
_LIMIT_CUE: Final = re.compile(
    r"(?:最长|最多|不超过|不得超过|至多|上限|封顶|最大|at most|up to|no more than|maximum|max)\W*$", re.I
)


def exceeds_limit(s: Statement, c: NeedCondition) -> bool:
    """Whether `s` states a limit (`最长 2 小时`, "at most 2 hours") that the single figure `c` asks
    about goes beyond ("one silence over three hours"): the limit answers whether it is allowed."""
    asked = c.low if c.low is not None else float("-inf")  # `_single_figure_bounds` yields nothing then
    for m, (low, high, _, high_inc) in _single_figure_bounds(s, c):
        beyond = asked > high or (asked == high and not high_inc)
        if low == float("-inf") and beyond and _LIMIT_CUE.search(s.text[max(0, m.start - 12) : m.start]):
            return True
    return False


@lru_cache(maxsize=1024)
def _without_daypart(text: str) -> bool:
    """Whether `text` is a Chinese clock time with no daypart (`2点08分`, not `凌晨2点08分`): the
    checker reads it as either half of the day (`12h`, docs/design.md §2.1)."""
    return any(m.kind == "time" and m.qualifier == "12h" for m in fidelity.extract(text))


def clock_readings(c: NeedCondition) -> tuple[str, ...]:
    """The clock times (`HH:MM`) a time condition may mean: as read, and — for a Chinese hour said
    with no daypart (`2点08分`) — twelve hours on too (`14:08`): nothing in the question says which
    half of the day it is, and the evidence may be of the afternoon."""
    value = c.value[:5]
    if c.kind is not ConditionKind.TIME or _minutes(value) is None:
        return (c.value,)
    hour = int(value[:2])
    if hour < 12 and _without_daypart(c.text):
        return (value, f"{hour + 12:02d}{value[2:]}")
    return (value,)


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
    readings = [a for r in clock_readings(c) if (a := _minutes(r)) is not None]
    stated = [t for m in s.mentions if m.kind == "time" and (t := _minutes(str(m.value))) is not None]
    if not readings or not stated:
        return UNADDRESSED
    # "12:30 那会儿" is near 12:45, not 13:00: a record half an hour away is of another moment.
    near = any(
        any(abs(t - asked) <= _NEAR_MINUTES for t in stated) or min(stated) <= asked <= max(stated)
        for asked in readings
    )
    return SATISFIED if near else CONFLICT

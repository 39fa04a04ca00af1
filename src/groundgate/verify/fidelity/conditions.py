"""Rows of a conditional rule: the result a claim gives must be the one of the row its condition meets.

Policies state tiers one row each: "已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；已满
20年的，年休假15天". "您工作满12年，每年可以休15天年假" takes `15天` from the row for 20 years and more,
although its `12年` meets the row for 10 to 20 years. Every figure is in the evidence, so the value
checks accept it; this finds the row (docs/design.md §2.1, "Condition rows"). Conservative: the
claim's condition must fall in exactly one row's range, and its result must be another row's result
of the same kind, not the matching row's. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _num_match
from groundgate.verify.fidelity.model import Mention

__all__ = ["ConditionRows", "read_condition_rows"]

_ROW_CUT = re.compile(r"[；;。\n]")
_AT_LEAST_BEFORE = re.compile(r"(?:已满|满了|满|at least|after|over|more than)[ \t]*$", re.IGNORECASE)
_QUANTITY_KINDS = frozenset({"duration", "amount", "count", "number", "measure", "percent", "size"})


@dataclass(frozen=True, slots=True)
class _Row:
    low: float | None
    low_strict: bool
    high: float | None
    high_strict: bool
    results: tuple[Mention, ...]

    def holds(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (self.low_strict and value == self.low)):
            return False
        return not (
            self.high is not None and (value > self.high or (self.high_strict and value == self.high))
        )


def _unit(m: Mention) -> str | None:
    return m.unit if m.kind != "number" else None


def _rows(text: str, unit: str) -> list[_Row]:
    """The rows of `text` with a bound in `unit`, each with its results (figures in other units)."""
    rows: list[_Row] = []
    for part in _ROW_CUT.split(text):
        mentions = [m for m in extract(part).items if m.kind in _QUANTITY_KINDS or m.kind == "range"]
        low: float | None = None
        high: float | None = None
        low_strict = high_strict = False
        results: list[Mention] = []
        for m in mentions:
            if _unit(m) != unit:
                if m.comparator is None and isinstance(m.value, float):
                    results.append(m)
                continue
            if isinstance(m.value, tuple):
                low, high = m.value
            elif not isinstance(m.value, float):
                continue
            elif m.comparator in ("<", "<="):
                high, high_strict = m.value, m.comparator == "<"
            elif m.comparator in (">", ">=") or _AT_LEAST_BEFORE.search(part, 0, m.start):
                low, low_strict = m.value, m.comparator == ">"
        if (low is not None or high is not None) and results:
            rows.append(_Row(low, low_strict, high, high_strict, tuple(results)))
    return rows


@dataclass(frozen=True, slots=True)
class ConditionRows:
    """What a tiered rule says of a claim (both found in one reading of the rows)."""

    conflicts: tuple[str, ...]
    """The claim's results taken from another row than the one its condition falls in (as written)."""
    applied: str | None
    """The claim's condition (as written) when the claim applies its row: the condition falls in exactly
    one row, whose result the claim states, and no result comes from another row (`您工作满12年，每年
    可以休10天年假` over the 10-to-20-year row: `12年`). None otherwise."""


def read_condition_rows(claim: str, evidence: str) -> ConditionRows:
    """Read the rows of `evidence` against the conditions and results `claim` states."""
    mentions = [m for m in extract(claim).items if m.kind in _QUANTITY_KINDS and isinstance(m.value, float)]
    conflicts: list[str] = []
    applied: str | None = None
    for condition in mentions:
        unit = _unit(condition)
        if unit is None or not isinstance(condition.value, float):
            continue
        rows = _rows(evidence, unit)
        if len(rows) < 2:
            continue
        meeting = [row for row in rows if row.holds(condition.value)]
        if len(meeting) != 1:
            continue
        own = meeting[0]
        for result in mentions:
            if result is condition or _unit(result) == unit:
                continue
            if any(_num_match(result, r) for r in own.results):
                applied = condition.text
            elif any(_num_match(result, r) for row in rows if row is not own for r in row.results):
                conflicts.append(result.text)
    found = tuple(dict.fromkeys(conflicts))
    return ConditionRows(found, None if found else applied)

"""Reporting and the context of one check.

Readable English renderings of mentions for issue details, `_Report` (collects a check's issues once
each) and `_Ctx` (what one check compares against), which also tells whether the claim marks a figure
as an estimate or a derived value (`大约42分钟`, `roughly 380 mg`).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from groundgate.verify.fidelity.evidence import EvidenceIndex
from groundgate.verify.fidelity.model import FidelityIssue, Mention, Severity

_CMP_WORDS: dict[str, str] = {"<=": "at most", ">=": "at least", "<": "less than", ">": "more than"}


def _fmt(value: float) -> str:
    if abs(value) < 1e15 and float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def _describe(m: Mention) -> str:
    """A readable English rendering of a mention: `at most 5000 CNY ('不超过5000元')`."""
    v = m.value
    if isinstance(v, tuple):
        unit = {"duration": " s", "size": " bytes", "percent": "%"}.get(m.qualifier or "", "")
        if m.qualifier == "amount" and m.unit:
            unit = f" {m.unit}"
        elif m.qualifier == "duration" and m.unit != "s":
            unit = f" {m.unit}(s)"
        body = f"{_fmt(v[0])}–{_fmt(v[1])}{unit}"
    elif isinstance(v, float):
        if m.kind == "amount":
            body = f"{_fmt(v)} {m.unit}" if m.unit else f"{_fmt(v)} (no currency)"
        elif m.kind == "percent":
            body = f"{_fmt(v)}%" if m.unit == "%" else f"{_fmt(v)} percentage points"
        elif m.kind == "duration":
            body = f"{_fmt(v)} s" if m.unit == "s" else f"{_fmt(v)} {m.unit}(s)"
        elif m.kind == "size":
            body = f"{_fmt(v)} bytes"
        elif m.kind == "measure" or (m.kind == "count" and m.unit):
            body = f"{_fmt(v)} {m.unit}"
        else:
            body = _fmt(v)
    elif m.kind == "version":
        body = f"{m.qualifier} {v}" if m.qualifier else f"version {v}"
    elif m.kind == "comparator":
        body = f"the comparator {v}"
    else:
        body = v
    if m.comparator and m.kind != "comparator":
        body = f"{_CMP_WORDS[m.comparator]} {body}"
    return f"{body} ('{m.text}')"


_KIND_NAMES = {
    "amount": "amount",
    "percent": "percentage",
    "duration": "duration",
    "size": "data size",
    "measure": "measurement",
    "count": "count",
    "number": "number",
    "range": "range",
    "date": "date",
    "period": "period",
    "time": "time",
    "version": "version",
    "identifier": "identifier",
    "comparator": "comparator",
}


class _Report:
    """Collects issues for one check; `side`/`other` name the texts in the details."""

    __slots__ = ("issues", "other", "seen", "side")

    def __init__(self, side: str, other: str) -> None:
        self.side = side
        self.other = other
        self.issues: list[FidelityIssue] = []
        self.seen: set[tuple[str, str | None, str | None]] = set()

    def add(self, code: str, severity: Severity, detail: str, mine: str | None, theirs: str | None) -> None:
        key = (code, mine, theirs)
        if key not in self.seen:
            self.seen.add(key)
            self.issues.append(FidelityIssue(code, severity, detail, mine, theirs))

    def changed(self, code: str, m: Mention, e: Mention, what: str) -> None:
        self.add(
            code,
            "contradiction",
            f"The {self.side} states {_describe(m)} but the {self.other} states {_describe(e)} ({what}).",
            m.text,
            e.text,
        )


# --------------------------------------------------------------------------- the context of one check

#: Words that make a number an estimate or a derived figure (`大约42分钟`, `也就是11月8日`, `roughly 380 mg`).
_HEDGE_RX = re.compile(
    r"大约|大概|约|左右|将近|接近|差不多|上下|也就是|相当于|一共|共计|总共|合计|总计|加起来|累计|换算|折合|即|算下来|估计|预计"
    r"|(?<![A-Za-z])(?i:about|around|roughly|approximately|approx|nearly|almost|in[ \t]+total|total|totals|altogether"
    r"|adds?[ \t]+up|added[ \t]+up|which[ \t]+means|that[ \t]+is|i\.e|equivalent|works[ \t]+out|or[ \t]+so|circa)(?![A-Za-z])"
    r"|~|\d[ \t]*(?:多|余)"
)
#: A figure said as the result of a computation the answer does (`就是20元`, `打折后是475元`, `= $181`,
#: `so £3.50 a ride`): not an estimate, but a changed one is a wrong sum, reported as unshown rather than
#: contradicted (docs/design.md §2.1, "Session 31").
_DERIVED_RX = re.compile(
    r"就是|折后|下来|[=＝]"
    r"|(?<![A-Za-z])(?i:so|which[ \t]+is|comes?[ \t]+to|making|bringing|leaving|leaves)(?![A-Za-z])"
)
#: Characters around a date or time a hedge word may sit in to make it an estimate.
_HEDGE_REACH = 10
_HEDGE_CLAUSE_RX = re.compile(r"[，,；;。！？!?\n（）()]")


class _Ctx:
    """What one check compares against; in use (a) both evidence indexes are the plan."""

    __slots__ = (
        "_clause_ends",
        "_hedges",
        "aligned",
        "earlier",
        "everything",
        "given",
        "plan",
        "r",
        "source",
    )

    def __init__(
        self,
        source: str,
        aligned: EvidenceIndex,
        everything: EvidenceIndex,
        r: _Report,
        *,
        plan: bool,
        given: EvidenceIndex | None = None,
        earlier: EvidenceIndex | None = None,
    ) -> None:
        self.source = source
        self.aligned = aligned
        self.everything = everything
        self.r = r
        self.plan = plan
        self.given = given
        # Figures of the answer's earlier supported sentences: operands of a figure this claim works
        # out (`两项加起来每年可扣 84000 元` after `全年 48000 元` and `全年 36000 元`), never figures it may
        # state as found.
        self.earlier = earlier
        self._clause_ends: list[int] | None = None
        self._hedges: dict[tuple[int, int], bool] = {}

    def hedged(self, m: Mention) -> bool:
        """The clause around `m` in the claim marks it as an estimate or a derived figure."""
        if self.plan:
            return False
        source = self.source
        # Clause boundaries are found once per claim, and each clause is searched for hedges once:
        # walking back from every mention is quadratic in a long claim with many figures.
        if self._clause_ends is None:
            self._clause_ends = [found.start() for found in _HEDGE_CLAUSE_RX.finditer(source)]
        ends = self._clause_ends
        k = bisect_left(ends, m.start)  # boundaries before the mention: ends[:k]
        start = ends[k - 1] + 1 if k > 0 else 0
        if start > 0 and source[start - 1] in "(（":
            return True  # a parenthetical restates or converts a figure: `30 天（10 月 16 日）`
        k = bisect_left(ends, m.end)
        end = ends[k] if k < len(ends) else len(source)
        hedged = self._hedges.get((start, end))
        if hedged is None:
            hedged = self._hedges[(start, end)] = _HEDGE_RX.search(source, start, end) is not None
        return hedged

    def hedged_near(self, m: Mention) -> bool:
        """A hedge word right before or after `m` (`about 20:00`, `20:00 左右`)."""
        if self.plan:
            return False
        window = self.source[max(0, m.start - _HEDGE_REACH) : m.end + _HEDGE_REACH]
        return _HEDGE_RX.search(window) is not None

    def severity(self, m: Mention) -> Severity:
        return "warning" if self.hedged(m) or self._derived(m) else "contradiction"

    def _derived(self, m: Mention) -> bool:
        """The clause before `m` says it is worked out (`so`, `就是`, `=`)."""
        if self.plan:
            return False
        ends = [found.start() for found in _HEDGE_CLAUSE_RX.finditer(self.source, 0, m.start)]
        start = ends[-1] + 1 if ends else 0
        return _DERIVED_RX.search(self.source, start, m.start) is not None

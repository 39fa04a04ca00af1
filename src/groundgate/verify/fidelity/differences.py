"""A figure said as the difference between two things: `12.4 days longer than its sibling`, `比沙洲大桥长
180米`, `把全国纪录提高了0.64秒`.

A summary compares what its source lists side by side: the source gives each planet's orbit (17.6 and
5.2 days) and the summary says one is "12.4 days longer than" the other. The difference is a figure
of the same kind as the two it compares, so the checks that look for a rival figure read it as a
changed value (`12.4 days` against `17.6 days`) and called a right summary a contradiction.

A figure tied to a comparative — a `than` after it, or `比…长/高/多…`, `提高了`, `缩短了`, `rose by`, `fell`
before it — is a difference:
- worked out when a figure of the claim and a figure of the context, of its kind and unit, differ by
  it (one operand the claim's own, so small differences rarely match by chance);
- otherwise reported as unshown (a warning), never as a changed value: a wrong difference is a wrong
  sum, not a contradicted fact (docs/design.md §2.1, "Session 33").
Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.verify.fidelity.arithmetic import _approx
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _same_kind
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.numbers import _close
from groundgate.verify.fidelity.report import _Ctx

__all__ = ["compared_difference", "compared_range", "difference_unstated", "said_as_difference"]

_COMPARATIVES: Final = (
    r"more|less|fewer|longer|shorter|higher|lower|bigger|smaller|larger|greater|earlier|later|faster|"
    r"slower|older|younger|cheaper|dearer|heavier|lighter|wider|narrower|taller|deeper|quicker"
)
#: `12.4 days longer than`, `£9 more than`, `two points higher than a year earlier`.
_THAN_AFTER: Final = re.compile(rf"\s*(?:{_COMPARATIVES})\s+than\b", re.IGNORECASE)
#: `比沙洲大桥长`, `比嘉禾8号低`, `提高了`, `缩短了`, `rose by`, `up by`, `fell`, `shaved`.
_CHANGE_BEFORE: Final = re.compile(
    r"(?:比[^，,。；;]{0,14}?(?:长|短|高|低|多|少|大|小|快|慢|早|晚|重|轻|宽|窄|贵|便宜)了?"
    r"|提高了?|降低了?|增加了?|减少了?|缩短了?|延长了?|上涨了?|下降了?|增长了?|下滑了?|回落了?|提升了?|"
    r"涨了|降了|多了|少了|快了|慢了|多出|高出|低了"
    r"|\b(?:rose|rise|rising|fell|fall|falling|grew|grow|dropped|drop|climbed|gained|lost|shaved|trimmed|"
    r"cut|raised|lowered|increased|decreased|declined|improved|widened|narrowed|up|down)(?:\s+by)?"
    r"\s+(?:about\s+|roughly\s+|some\s+|almost\s+|nearly\s+)?)\s*$",
    re.IGNORECASE,
)
#: How far before a figure its comparative may start.
_REACH: Final = 18


def said_as_difference(m: Mention, source: str) -> bool:
    """`m` is tied to a comparative: the difference between two things, not a value of one."""
    return bool(
        _THAN_AFTER.match(source, m.end) or _CHANGE_BEFORE.search(source[max(0, m.start - _REACH) : m.start])
    )


def compared_difference(m: Mention, x: _Ctx) -> bool:
    """`m`, said as a difference, is one between a figure of the claim and one of the context of its
    kind and unit (`taking 17.6 days to orbit, 12.4 days longer than its sibling` over 17.6 and 5.2)."""
    if not isinstance(m.value, float) or m.comparator or not m.value or not said_as_difference(m, x.source):
        return False
    hedged = x.hedged_near(m)

    def operand(e: Mention) -> bool:
        return (
            isinstance(e.value, float)
            and e.start != m.start
            and (_same_kind(m, e) or (m.unit == "pp" and e.unit == "%"))
            and (m.unit == "pp" or e.unit == m.unit)
        )

    own = [float(e.value) for e in extract(x.source).items if operand(e) and isinstance(e.value, float)]
    context = [
        float(e.value) for e in x.everything.mentions.items if operand(e) and isinstance(e.value, float)
    ]
    return any(_approx(abs(a - b), m, hedged) for a in own for b in context if a != b)


def compared_range(m: Mention, x: _Ctx) -> bool:
    """`m`, a range said as a difference, is a figure of the claim or the context less a range of the
    context, end for end (`€70–90 million less than the €230 million` over `€140 million to €160
    million`)."""
    if not isinstance(m.value, tuple) or not said_as_difference(m, x.source):
        return False
    low, high = m.value
    ranges = [
        e.value
        for e in x.everything.by_kind.get("range", ())
        if e.unit == m.unit and isinstance(e.value, tuple)
    ]
    figures = [
        float(e.value)
        for e in [*extract(x.source).items, *x.everything.mentions.items]
        if isinstance(e.value, float) and e.unit == m.unit
    ]
    for lo, hi in ranges:
        for b in figures:
            if _close(b - hi, low) and _close(b - lo, high):
                return True
            if _close(lo - b, low) and _close(hi - b, high):
                return True
    return False


def difference_unstated(m: Mention, x: _Ctx) -> bool:
    """`m` is said as a difference and the aligned window states no difference of its kind: the
    claim worked it out, so a mismatch is a wrong sum, not a changed fact. Where the window states the
    change too (`Rates rose by 25 basis points`), `rose by 0.5 percentage points` contradicts it."""
    if x.plan or not said_as_difference(m, x.source):
        return False
    window = x.aligned.mentions
    return not any(said_as_difference(e, window.text) for e in window.items if e.kind == m.kind)

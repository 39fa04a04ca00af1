"""Figures an answer works out from the question's own figures and the evidence's.

"我转正了，门诊自付 3,000 元，补充医疗能报多少？" over "按 80% 报销" is answered "可以报 2,400 元"; "360 元的
订单用满 300 减 50 的券" is answered "实付 310 元"; "住了三晚，每晚 680 元" over a 600 元 cap is answered
"超出 80 元 … 可报销 1,800 元". Each figure is one operation on a figure the user gave and one the
evidence (or the answer) states: a difference, a sum, a product, or a share by a percent
(docs/design.md §2.1, "Session 32"). Only one operation deep, with one operand from the question,
so a changed figure rarely matches by chance. Pure: no I/O.
"""

from __future__ import annotations

from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.numbers import _close
from groundgate.verify.fidelity.report import _Ctx

#: Kinds a worked amount or count may be made of.
_OPERAND_KINDS = frozenset({"amount", "count", "number", "percent", "duration"})
#: A question with more figures than this is a table pasted in: its figures are not the user's own.
_MAX_GIVEN = 6


def _figures(mentions: tuple[Mention, ...] | list[Mention]) -> list[Mention]:
    return [e for e in mentions if e.kind in _OPERAND_KINDS and isinstance(e.value, float) and e.value]


def _results(a: Mention, b: Mention) -> list[float]:
    """What one operation on `a` (the user's figure) and `b` gives."""
    assert isinstance(a.value, float)
    assert isinstance(b.value, float)
    x, y = a.value, b.value
    out: list[float] = []
    alike = a.kind == b.kind or "number" in (a.kind, b.kind)  # `满 300 减 50`: a bare 50 off 360 元
    if alike and "percent" not in (a.kind, b.kind) and (a.unit == b.unit or not a.unit or not b.unit):
        out += [x - y, y - x, x + y]
    if b.kind == "percent":
        out += [x * y / 100, x * (1 - y / 100)]
    if a.kind == "percent":
        out += [y * x / 100]
    if "count" in (a.kind, b.kind) or "number" in (a.kind, b.kind):
        out.append(x * y)
    return out


def worked_from_question(m: Mention, x: _Ctx) -> bool:
    """`m` is one operation on a figure of the question and a figure of the evidence or the claim."""
    if (
        x.plan
        or x.given is None
        or m.kind not in {"amount", "count", "number"}
        or not isinstance(m.value, float)
    ):
        return False
    given = _figures(x.given.mentions.items)
    if not given or len(given) > _MAX_GIVEN:
        return False
    own = [e for e in _figures(extract(x.source).items) if e.start != m.start]
    stated = [*_figures(x.everything.mentions.items), *own]
    target = m.value
    return any(_close(r, target) for a in given for b in stated for r in _results(a, b))

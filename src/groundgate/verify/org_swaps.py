"""An organisation swapped for another the context names elsewhere.

`Soil samples have gone to Northmoor University for pollen work` over `Soil samples were sent to the
University of Kessel for pollen analysis` (Northmoor University leads the dig, two sentences before);
`木炭样本已经送到南川大学做碳十四测年` over `木炭样本已送往北京大学进行碳十四测年` (南川大学 co-runs it). Every
word of the claim is in the context and its sentence aligns well, so support scoring passes it. Read
here: the claim names an organisation the context has, the window the claim aligned with names another
organisation of the same kind (a university for a university) and not the claim's — the claim gives
the event to the wrong one (docs/design.md §2.1, "Session 30"). The claim is then `no_evidence`, not
`contradicted`: a window may name two organisations for different roles. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["organisation_swaps"]

_EN_HEADS: Final = "University|College|Institute|Hospital|Museum|Bank|Agency|Council|Foundation|Laboratory"
#: `Northmoor University`, `University of Kessel`: the head noun and the organisation's own name.
_EN_ORG: Final = re.compile(rf"\b(?:({_EN_HEADS}) of ([A-Z][a-z]+)|([A-Z][a-z]+) ({_EN_HEADS}))\b")
#: `南川大学`, `北京大学`: two characters of name before the head (longer names compare on those two).
_ZH_ORG: Final = re.compile(r"([\u4e00-\u9fff]{2})(大学|学院|研究院|研究所|医院|银行|博物馆|基金会|实验室)")


def _orgs(text: str) -> set[tuple[str, str]]:
    """(head, name) of each organisation written in `text`."""
    found = {(m.group(2), m.group(1)) for m in _ZH_ORG.finditer(text)}
    for m in _EN_ORG.finditer(text):
        head, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        found.add((head, name))
    return found


def organisation_swaps(claim: str, window: str, context: str) -> list[str]:
    """`org_swap:<claim's>-><window's>` for each organisation of the claim that the context names but the
    aligned `window` does not, where the window names another of the same kind instead."""
    in_window = _orgs(window)
    in_context = _orgs(context)
    swaps = []
    for head, name in sorted(_orgs(claim)):
        if (head, name) in in_window or (head, name) not in in_context:
            continue
        others = sorted(n for h, n in in_window if h == head and n != name)
        if others:
            swaps.append(f"org_swap:{name} {head}->{others[0]} {head}")
    return swaps

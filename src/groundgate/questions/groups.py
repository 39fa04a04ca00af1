"""A name met only as one member of a list: the one figure beside it is the group's, not its own.

"How many employees work in the Shenzhen office?" is not answered by "Lanting Pay has about 1,200
employees in three offices: Shanghai, Hangzhou and Shenzhen": Shenzhen is named, but as one of the
three offices the single figure counts together. A statement that gives each member its own figure
("Shanghai 600, Hangzhou 400 and Shenzhen 200") does answer (docs/design.md §8).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.questions.statements import Statement

__all__ = ["counted_with_others", "only_counted_with_others"]

#: What joins list members: a comma or enumeration comma, `and`/`or`, 和/及/与/或.
_BEFORE_MEMBER: Final = re.compile(r"(?:[,、，]\s*|\b(?:and|or)\s+|[和及与或]\s*)$", re.IGNORECASE)
_AFTER_MEMBER: Final = re.compile(
    r"^(?:\s*\([^)]*\)|\s*（[^）]*）)?(?:\s*[,、]|\s+(?:and|or)\b|\s*[和及与或])", re.IGNORECASE
)
#: The members of the list around a name: runs of words between separators.
_SEPARATOR: Final = re.compile(r"[,、，]|\b(?:and|or)\b|[和及与或]", re.IGNORECASE)
_TIMELIKE: Final = frozenset({"date", "time", "datetime", "duration", "clock"})


def _token(segment: str, *, last: bool) -> str:
    """The word of a list segment next to the separator: its last (or first) word, parentheses cut."""
    words = re.sub(r"\([^)]*\)|（[^）]*）", " ", segment).split()
    return (words[-1] if last else words[0]).strip(".。") if words else ""


def _short(segment: str) -> bool:
    """A segment that is one list member and nothing more (a few words, a short Chinese name)."""
    bare = re.sub(r"\([^)]*\)|（[^）]*）", " ", segment).strip(" .。")
    return len(bare.split()) <= 3 and len(re.findall(r"[\u4e00-\u9fff]", bare)) <= 6


def _members(text: str, name: str, start: int, end: int) -> list[str]:
    """The members of the list holding `name` at `text[start:end]` (more than one when it is a list):
    the words joined to it by list separators, on each side as far as the members are short."""
    # The list lies within one clause: from the last break before the name to the next one after it.
    left = max(text.rfind(c, 0, start) for c in ":：;；。")
    right_breaks = [i for i in (text.find(c, end) for c in ":：;；。") if i != -1]
    right = min(right_breaks) if right_breaks else len(text)
    segments = _SEPARATOR.split(text[left + 1 : right])
    at = next((i for i, seg in enumerate(segments) if name.lower() in seg.lower()), None)
    if at is None:
        return [name]
    members = [name]
    here = segments[at].strip(" .。").lower()
    if here.startswith(name.lower()):
        for seg in reversed(segments[:at]):
            members.append(_token(seg, last=True))
            if not _short(seg):
                break
    if re.sub(r"\([^)]*\)|（[^）]*）", "", here).strip().endswith(name.lower()):
        for seg in segments[at + 1 :]:
            members.append(_token(seg, last=False))
            if not _short(seg):
                break
    return [m for m in members if m]


def only_counted_with_others(name: str, s: Statement, named: Sequence[str] = ()) -> bool:
    """Whether `s` names `name` only as one member of a list and states a single figure for it all.

    `named`: the question's other names; a list the question names whole ("book Orchid or Lotus")
    is what it asks about, and the figure holds for each of them."""
    text = s.text
    spans = [m.span() for m in re.finditer(re.escape(name), text, re.IGNORECASE)]
    if not spans:
        return False
    if not all(_BEFORE_MEMBER.search(text[:a]) or _AFTER_MEMBER.match(text[b:]) for a, b in spans):
        return False
    members = _members(text, name, *spans[0])
    others = [m for m in members if not any(n.lower() in m.lower() for n in [name, *named])]
    if not others:
        return False
    figures = [
        m
        for m in s.mentions
        if m.kind not in _TIMELIKE and not (m.kind == "count" and m.value == len(members))  # "three offices"
    ]
    return len(figures) == 1


def counted_with_others(names: Sequence[str], s: Statement) -> list[str]:
    """The `names` (a need's anchors) that `s` counts only together with others."""
    return [n for n in names if only_counted_with_others(n, s, names)]

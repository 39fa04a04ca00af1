"""Who did it to whom, turned round by the voice: `Brightloom was bought by Pell & Gosling` over
`Brightloom acquired … Pell & Gosling`; `它被川味坊收购了` over `禾丰收购了…川味坊`.

A passive claim names its agent after `by` / `被`; when the context has that agent as the object of the
same subject's active verb (the subject, a past-tense verb, then the agent within the clause; in
Chinese the claim's verb followed by the agent), and nowhere as the agent of a passive, the claim has
the relation the wrong way round (docs/design.md §2.1, "Session 32"). The claim is then `no_evidence`
(`relation_reversed:`). Every word is in the context, so support scoring passes it. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["voice_reversed"]

#: `X was (later) bought by Y` — X the last word before the auxiliary, Y a name after `by`.
_EN_PASSIVE: Final = re.compile(
    r"\b(?P<x>[A-Z][\w&'.-]*)\s+(?:was|were|had been|has been|got)\s+(?:\w+ly\s+|then\s+|later\s+|also\s+)?"
    r"(?P<v>[a-z]+(?:ed|en|ght|ld|wn|un|ne|old))\s+by\s+(?:the\s+|a\s+|an\s+)?(?P<y>[A-Z][\w&'.-]*)"
)
_EN_CLAUSE_END: Final = r"[^.;:!?\n]"
#: `被` then the agent (three characters or more) and a two-character verb that ends the passive.
_ZH_PASSIVE: Final = re.compile(r"被(?P<rest>[^，,。；;！？!?\n]{4,24})")


def _en_reversed(claim: str, context: str) -> list[str]:
    found: list[str] = []
    for m in _EN_PASSIVE.finditer(claim):
        x, y = re.escape(m["x"]), re.escape(m["y"])
        if re.search(rf"\b{x}\b{_EN_CLAUSE_END}{{0,60}}\bby\s+(?:the\s+|a\s+|an\s+)?{y}\b", context):
            continue  # the context says it in the passive too
        active = re.search(
            rf"\b{x}(?:\s+[A-Z][\w&'.-]*){{0,2}}\s+(?:\w+ly\s+)?[a-z]+(?:ed|ght|ld|old|ook|ew|ade|ove|ote)\b(?:(?!\bby\b){_EN_CLAUSE_END}){{0,60}}\b{y}\b",
            context,
        )
        if active is not None:
            found.append(f"relation_reversed:{m['y']}")
    return found


def _zh_reversed(claim: str, context: str) -> list[str]:
    found: list[str] = []
    for m in _ZH_PASSIVE.finditer(claim):
        rest = m["rest"]
        for cut in range(3, len(rest) - 1):
            agent, verb = rest[:cut], rest[cut : cut + 2]
            # the verb ends the passive: `被川味坊收购了`, `…收购，` (not `被处罚两次以上`)
            if not re.fullmatch(r"[\u4e00-\u9fff]{2}", verb) or rest[cut + 2 : cut + 3] not in {
                "了",
                "过",
                "",
            }:
                continue
            tail = re.escape(agent[-3:])
            if re.search(rf"被[^，,。；;]{{0,16}}{tail}", context):
                break  # the context has the agent after a 被 too
            if re.search(rf"{re.escape(verb)}[了过]?[^，,。；;]{{0,16}}{tail}", context):
                found.append(f"relation_reversed:{agent}")
                break
    return found


def voice_reversed(claim: str, context: str) -> list[str]:
    """`relation_reversed:<agent>` for each passive of the claim whose agent the context makes the
    object of the active verb instead (see the module)."""
    if "被" in claim:
        return _zh_reversed(claim, context)
    if " by " in claim:
        return _en_reversed(claim, context)
    return []

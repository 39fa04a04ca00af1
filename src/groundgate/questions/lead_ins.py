"""An English lead-in before a colon that asks nothing: "SRE question: what is the availability SLO …",
"Before launch: what are acme's contracted quotas …", "Refund rules for our integration: how long …"
(docs/design.md §8).

Why: the lead-in says what the asker is doing or what the question is about, and the question proper
starts after the colon. Two things went wrong with it. First, a part was asked only when its text
*opened* with a question word, so the first part ("SRE question: what is …") counted as asking
nothing and was carried into the next one ("…, which error codes count against it"): two questions
became one need that no single statement could meet. Second, the lead-in's words (`sre`,
`question`, `review`, `integration`) became subject words that no answering statement says. The
question is now read from after the colon (`after_lead`), and the lead-in's words become soft terms
that help find the answer and need not be said (`soften_en_lead`), as `parts.soften_lead` already
does for a Chinese lead-in (`我们在梳理银行回调链路：…`). Names in the lead-in stay anchors. A question
that refers back by a pronoun ("Gateway p99 latency: what was the peak, and over which minutes was
*it* above …") is about what its lead-in names: its words stay terms, and a later part with the
pronoun still joins the first (`parts.split_parts`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["after_lead", "soften_en_lead"]

#: At most six words before a colon and a space; a clock time (`14:05`) has no space after its colon.
_EN_LEAD: Final = re.compile(r"^\s*(?P<lead>[A-Za-z][^:：?？,]{0,60}?)\s*[:：]\s+(?=\S)")
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
_MAX_WORDS: Final = 6
#: "Gateway p99 latency: what was the peak, and over which minutes was *it* above …": the question
#: refers back to what the lead-in names, so the lead-in is its subject, not the asker's errand.
_BACK_PRONOUN: Final = re.compile(r"\b(?:it|its|they|them|their|this|that|these|those)\b", re.IGNORECASE)
_ASKING_WORD: Final = re.compile(r"\b(?:what|when|where|who|whom|whose|why|which|how)\b", re.IGNORECASE)


def _lead(text: str, asks: Callable[[str], bool]) -> re.Match[str] | None:
    found = _EN_LEAD.match(text)
    if found is None:
        return None
    lead = found.group("lead")
    if len(_WORD.findall(lead)) > _MAX_WORDS or _ASKING_WORD.search(lead) or asks(lead):
        return None
    return found if asks(text[found.end() :]) else None


def after_lead(text: str, asks: Callable[[str], bool]) -> str:
    """`text` from after an English lead-in that asks nothing, when what follows asks (by `asks`);
    else `text`."""
    found = _lead(text, asks)
    return text[found.end() :] if found is not None else text


def soften_en_lead(
    text: str, terms: list[str], soft: list[str], asks: Callable[[str], bool]
) -> tuple[list[str], list[str]]:
    """The subject words said only in an English lead-in become soft terms. Returns (terms, soft)."""
    found = _lead(text, asks)
    if found is None or _BACK_PRONOUN.search(text[found.end() :]):
        return terms, soft
    rest = {w.lower() for w in _WORD.findall(text[found.end() :])}
    lead = {w.lower() for w in _WORD.findall(found.group("lead"))} - rest
    moved = [t for t in terms if t in lead]
    return [t for t in terms if t not in moved], [*soft, *(t for t in moved if t not in soft)]

"""A record's role given to another of its people (`postmortem_owner: Dario Fenn` retold as "Marisol
Ekwueme … owns the postmortem"): a field mismatch of the record (docs/design.md §2.1). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

__all__ = ["role_given_to_another"]


class _Field(Protocol):
    """What is read of a record field (`verify.records.Field`)."""

    @property
    def key(self) -> str: ...

    @property
    def value(self) -> str: ...


def _key_words(key: str) -> str:
    """`postmortem_owner`, `PostmortemOwner`, `postmortem owner` → `postmortem owner`."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|[_\-]+", " ", key).lower()


_PERSON = re.compile(r"^[A-Z][a-z]+(?:[ -][A-Z][a-z'-]+)+$")


def role_given_to_another(clause: str, fields: Sequence[_Field]) -> list[str]:
    """A role field holding a person (`postmortem_owner: Dario Fenn`) that the clause names (`owns the
    postmortem`) beside another person of the record (`Marisol Ekwueme`) and not its own: the role
    given to someone else. Only a clause naming one of the record's people is read."""
    people = {f.value for f in fields if _PERSON.match(f.value)}
    said = [p for p in people if p in clause]
    if len(said) != 1:
        return []
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", clause)]
    found: list[str] = []
    for f in fields:
        if f.value not in people or f.value == said[0]:
            continue
        keys = [w for w in re.findall(r"[a-z]+", _key_words(f.key)) if len(w) >= 3]
        if keys and all(any(_bare(k) == _bare(w) for w in words) for k in keys):
            found.append(f.key)
    return found


def _bare(word: str) -> str:
    """`owner` and `owns` are `own`, `leads` is `lead`; `comms` is not `commander`."""
    return re.sub(r"(?:ers|er|ing|ed|s)$", "", word) if len(word) > 4 else word.rstrip("s")

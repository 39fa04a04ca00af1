"""A word the question negates keeps its negation when it is carried into another part's search
("… turned down because of the customer - *not enough* money - and with which code each?").

Why: a later part that names nothing of its own searches with the words of the part before it, and
those words are the subject without its stop words, so `not` was dropped: the plan searched for
"customer enough money", which says the opposite of the question. The plan check (invariant 6:
negations of the question survive) rejected the whole plan, and the run ended DEGRADED before any
evidence was read. Only the words are affected; what a need must be met by is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

__all__ = ["with_negations"]

#: A negation of the word right after it: "not enough", "never paid", `不能`, `没有到账`. Not "no" before a
#: noun ("'no response in 3000ms'"): that names an absence, in the words the evidence writes it with, and
#: the plan check does not read it as a negated claim; a search keeps the noun alone, as before.
_EN_NEGATION: Final = r"(?:not|never)\s+"
_ZH_NEGATION: Final = r"(?:不|没有|没|未)"


@lru_cache(maxsize=4096)
def _negation_before(question: str, word: str) -> str | None:
    cjk = re.search("[\u4e00-\u9fff]", word) is not None
    if cjk:
        found = re.search(f"({_ZH_NEGATION}){re.escape(word)}", question)
    else:
        found = re.search(rf"\b({_EN_NEGATION}){re.escape(word)}\b", question, re.IGNORECASE)
    return found.group(1).strip() if found else None


def with_negations(question: str, words: Sequence[str]) -> list[str]:
    """`words` with the negation the question puts right before any of them (`not`, `不`) in front of
    it, so a search built from them says what the question says."""
    out: list[str] = []
    for word in words:
        negation = _negation_before(question, word)
        out += [negation, word] if negation else [word]
    return out

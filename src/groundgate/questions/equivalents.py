"""Other words for a need's words, from the bundled zh↔en lexicon (`groundgate.text.lexicon`).

Need coverage compares words (`groundgate.questions.coverage`); an English question answered by a
Chinese passage shares none with it. The lexicon that lets retrieval cross languages also says which
words stand for the same thing (`hotel` ↔ `酒店`, `recover` ↔ `恢复`), so the verifier and the offline
executor can check a need in the passage's language. Only a whole term counts (`Team B` is not
`团队`): a word with no entry of its own simply has no equivalents.
"""

from __future__ import annotations

from functools import lru_cache

from groundgate.questions import TermEquivalents
from groundgate.text.lexicon import default_lexicon

__all__ = ["bundled_equivalents"]


@lru_cache(maxsize=4096)
def _alternates(term: str) -> tuple[str, ...]:
    found: list[str] = []
    for match, alternates in default_lexicon().expansions(term):
        if match.start == 0 and match.end == len(term):
            found.extend(alternates)
    return tuple(dict.fromkeys(found))


def bundled_equivalents() -> TermEquivalents:
    """The lexicon's alternates of a whole term (cached; the lexicon loads once per process)."""
    return _alternates

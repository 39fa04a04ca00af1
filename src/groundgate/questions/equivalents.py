"""Other words for a need's words, from the bundled zh↔en lexicon (`groundgate.text.lexicon`).

Need coverage compares words (`groundgate.questions.coverage`); an English question answered by a
Chinese passage shares none with it. The lexicon that lets retrieval cross languages also says which
words stand for the same thing (`hotel` ↔ `酒店`, `recover` ↔ `恢复`), so the verifier and the offline
executor can check a need in the passage's language. Only a whole term counts (`Team B` is not
`团队`): a word with no entry of its own simply has no equivalents. A Chinese city also stands for
its class (`groundgate.text.places`: 杭州 → 省会城市), as a lodging rule ranks places.
"""

from __future__ import annotations

from functools import lru_cache

from groundgate.questions import TermEquivalents
from groundgate.text.lexicon import default_lexicon
from groundgate.text.places import city_classes

__all__ = ["bundled_equivalents"]


@lru_cache(maxsize=4096)
def _alternates(term: str) -> tuple[str, ...]:
    found: list[str] = []
    for match, alternates in default_lexicon().expansions(term):
        if match.start == 0 and match.end == len(term):
            found.extend(alternates)
    # A city stands for its class in a rule that ranks cities (`杭州` is one of the `省会城市`).
    found.extend(city_classes(term))
    found.extend(_BOUNDS.get(term, ()))
    found.extend(_LOG_FIELDS.get(term, ()))
    return tuple(dict.fromkeys(found))


#: A bound asked for is the bound a rule states: "住宿每晚上限多少" is met by "每晚不超过 400 元".
_BOUNDS: dict[str, tuple[str, ...]] = {
    "上限": ("不超过", "最多", "至多", "封顶", "最高"),
    "下限": ("不低于", "至少", "最低"),
}

#: A duration asked in Chinese is what a log line's `took_ms=` field states ("网关这次请求耗时多少ms"
#: over `pay request done … took_ms=3009`): the lexicon has no entry for these words, and the
#: unit asked (`ms`) is said only as the field's suffix.
_LOG_FIELDS: dict[str, tuple[str, ...]] = {
    "ms": ("took_ms", "elapsed_ms"),
    "耗时": ("took", "took_ms", "elapsed", "elapsed_ms", "duration"),
    "用时": ("took", "took_ms", "elapsed", "elapsed_ms", "duration"),
}


def bundled_equivalents() -> TermEquivalents:
    """The lexicon's alternates of a whole term (cached; the lexicon loads once per process)."""
    return _alternates

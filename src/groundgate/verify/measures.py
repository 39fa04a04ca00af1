"""How well the context supports a text: its best evidence window, its content words, their spread.

The offline checker measures a claim and each of its clauses the same way: the text is folded
(synonyms, lexicon concepts), cut into content words (linking words the context never uses are the
retelling's, not facts) and looked up in the `ContextIndex` for the best one- or two-sentence window.
Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.text.segmentation import is_cjk_text, normalize, tokenize
from groundgate.verify.windows import DISCOURSE, ContextIndex, Support, best_window, char_bigrams, weighted
from groundgate.verify.worked_figures import FIGURE_TOKEN

__all__ = ["Measure", "is_modifier", "measure_support", "scattered", "unit_score"]


def scattered(tokens: list[str], index: ContextIndex) -> float:
    """Weighted share of the claim's words found anywhere in the context."""
    total = covered = 0.0
    for token, w in weighted(tokens):
        total += w
        if index.anywhere(token):
            covered += w
    return covered / total if total else 0.0


@dataclass(frozen=True, slots=True)
class Measure:
    """What support scoring found for one text (a claim or one of its clauses)."""

    best: Support
    tokens: list[str]
    """Content words of the text after synonym folding, in order."""
    scattered: float

    @property
    def ordered(self) -> list[str]:
        return self.tokens


_EN_STOP_AFTER = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "as",
        "that",
        "this",
        "it",
        "its",
    ]
)


def is_modifier(claim: str, word: str) -> bool:
    """`word` stands right before another content word, as an attribute does (`memory quota`,
    `内存配额`); verbs (`answered with`, `moving`) are paraphrased far more often than swapped."""
    if word.startswith("qz"):
        return True  # a lexicon concept: `entity_swaps` already required a Latin name opposite
    if not word.isascii():
        at = claim.find(word)
        return at >= 0 and at + len(word) < len(claim) and is_cjk_text(claim[at + len(word)])
    found = re.search(rf"(?i)\b({re.escape(word)}[a-z]*)\s+([A-Za-z][\w-]*)", claim)
    if found is None:
        return False
    surface, following = found.group(1).lower(), found.group(2).lower()
    return not surface.endswith(("ed", "ing")) and following not in _EN_STOP_AFTER


def unit_score(text: str, measure: Measure, index: ContextIndex) -> float:
    """A clause's support: for English, its words must be the window's words, not parts of them
    (`call` is not in `on-call`); a clause is short, and one loose match would carry it."""
    window = measure.best.window
    if window is None or is_cjk_text(text) or not measure.tokens:
        return measure.best.score
    words = set(tokenize(index.canonical(window.text)))
    total = covered = 0.0
    for token, weight in weighted(measure.tokens):
        total += weight
        if token in words:
            covered += weight
    return min(measure.best.score, covered / total)


def measure_support(text: str, index: ContextIndex, skip: frozenset[str] = frozenset()) -> Measure:
    """Support of `text`, leaving out the words in `skip` (figures already vetted, see `OfflineChecker._assess`)."""
    folded = index.canonical(text)
    # A linking word the context never uses (`另外`, `currently`) is the retelling's, not a fact.
    tokens = [token for token in tokenize(folded) if token not in DISCOURSE or index.anywhere(token)]
    if skip:
        tokens = [token for token in tokens if token not in skip]
        if is_cjk_text(text):
            folded = FIGURE_TOKEN.sub(lambda m: " " if m.group() in skip else m.group(), folded)
    claim_bigrams = char_bigrams(normalize(folded)) if is_cjk_text(text) else set()
    best = best_window(tokens, claim_bigrams, index)
    return Measure(best, tokens, scattered(tokens, index))

"""Aligning a claim with its best evidence window beyond word overlap: entity swaps and anchors.

Lexical support counts how many of a claim's words a window has, so "evicted for exceeding its
memory quota" is 80 % supported by "evicted for exceeding its CPU quota" — the one word that
differs is the fact. `entity_swaps` lines the two word sequences up and reports a claim word that
sits exactly where the window has another word (same neighbours on both sides), which neither text
shares: the claim's subject, object, attribute or value swapped for another.

`anchor_coverage` is the cross-language measure: when claim and context are in different languages
only their shared anchors can be compared — lexicon concepts (folded into marker words by
`synonyms.canonical`) and written figures — so support is the share of the claim's anchors the window
has. Pure functions over token lists.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

_MARKER_PREFIX = "qz"


#: A record's yes/no as read out (`外卖: true`): the record checks compare it, field by field.
_TRUTH_WORDS = frozenset({"true", "false", "yes", "no", "none", "null"})


def _is_value_word(token: str) -> bool:
    """Figures are compared by the fidelity checks (with units and tolerance), yes/no fields by the
    record checks; neither is a thing put in another's place."""
    return (any(c.isdigit() for c in token) and not token.startswith(_MARKER_PREFIX)) or token in _TRUTH_WORDS


def entity_swaps(
    claim: Sequence[str], window: Sequence[str], known: Callable[[str], bool] | None = None
) -> list[tuple[str, str]]:
    """`(claim word, window word)` pairs where the window says something else in the same slot.

    A slot is a claim word whose neighbours (the content words before and after it) are also
    neighbours in the window, with exactly one other word between them there. Both words must be
    absent from the other text (a reordered list is not a swap), and neither a figure.

    With `known` (whether the whole context uses a word), a slot is also a claim word right before
    the same head word as the window's (`按内存使用率` / `在 CPU 使用率`) when the context knows the
    claim word from elsewhere: one of the context's own things put in another's place.
    """
    if len(claim) < 2 or len(window) < 2:
        return []
    claim_set, window_set = set(claim), set(window)
    positions: dict[str, list[int]] = {}
    for j, token in enumerate(window):
        positions.setdefault(token, []).append(j)
    swaps: list[tuple[str, str]] = []
    for i, word in enumerate(claim):
        if len(word) < 2 or _is_value_word(word):
            continue
        before = claim[i - 1] if i > 0 else None
        after = claim[i + 1] if i + 1 < len(claim) else None
        if before is None or after is None:
            # A slot is held by both neighbours: one shared neighbour at the text's edge matches
            # too much summary prose ("one student died" / "One person died") to call a swap.
            continue
        if word in window_set:
            # The window names the word too, but before another head (`内存配额` beside
            # `CPU 使用率`): only the head-word slot below can show a swap.
            if (
                known is None
                or _plain_english(word)
                or any(window[j + 1] == after for j in positions[word] if j + 1 < len(window))
            ):
                continue
            slots: list[int] = []
        else:
            slots = _slots(before, after, positions, len(window))
        if (
            not slots
            and known is not None
            and not _plain_english(word)
            and known(word)
            and not _is_value_word(after)
        ):
            slots = [j - 1 for j in positions.get(after, ()) if j >= 1]
        for j in slots:
            other = window[j]
            if (
                other not in claim_set
                and len(other) >= 2
                and not _is_value_word(other)
                # `该错误` for `ERR_TIMEOUT`: a generic word standing for an identifier is a
                # reference to it, not a swap (identifiers themselves are the fidelity checks' job).
                and not any(c in other for c in "_-/.")
                and word not in other
                and other not in word
                and not other.startswith(_MARKER_PREFIX)
                and _comparable(word, other)
            ):
                swaps.append((word, other))
                break
    return swaps


def _plain_english(word: str) -> bool:
    """An English word that is no lexicon concept: English prose is paraphrased around its head
    words too freely for a head-word slot to show a swap (it did, on news summaries)."""
    return word.isascii() and not word.startswith(_MARKER_PREFIX)


def _comparable(word: str, other: str) -> bool:
    """Words a swap is judged on: English words, or a Chinese word against a Latin-script name
    (`内存` for `CPU`). Two Chinese words in one slot are far more often a paraphrase (`改成` /
    `调整`, `不能` / `不得`) than a swap, and the tokenizer cuts them differently from text to text."""
    if word.startswith(_MARKER_PREFIX):  # a lexicon concept (`内存`) against a Latin name (`CPU`)
        return other.isascii() and other.isalpha()
    return word.isascii() or other.isascii()


def _slots(before: str | None, after: str | None, positions: dict[str, list[int]], size: int) -> list[int]:
    """Window positions whose neighbours are `before` and `after` (a missing one: the text's edge)."""
    if before is not None:
        found = [j + 1 for j in positions.get(before, ()) if j + 1 < size]
        if after is None:
            return [j for j in found if j + 1 == size]
        return [j for j in found if j + 1 < size and j + 1 in positions.get(after, ())]
    if after is None:
        return []
    return [j - 1 for j in positions.get(after, ()) if j == 1]


def anchors(tokens: Sequence[str]) -> list[str]:
    """The words of a text that survive a change of language: lexicon concepts and figures."""
    return [t for t in dict.fromkeys(tokens) if t.startswith(_MARKER_PREFIX) or any(c.isdigit() for c in t)]


def anchor_coverage(claim: Sequence[str], window: Collection[str]) -> tuple[float, int]:
    """Share of the claim's anchors the window has, and how many anchors the claim has."""
    found = anchors(claim)
    if not found:
        return 0.0, 0
    return sum(1 for a in found if a in window) / len(found), len(found)

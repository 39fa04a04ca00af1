"""Negation analysis of one text, for the negation-flip check.

For each negation cue: the words it governs within its clause (its focus and scope) and the snippet
it negates; for each sentence: the words it states and whether an odd number of cues govern each
(double negation cancels).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from groundgate.text.segmentation import CACHE_MAX_CHARS, split_sentences, stem, tokenize
from groundgate.verify.fidelity.cues import _CLAUSE_END_RX, _NEG_ZH
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _folded
from groundgate.verify.fidelity.model import Mention

_NEG_TOKENS = frozenset(_NEG_ZH) | frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "nobody",
        "nowhere",
        "without",
        "cannot",
        "neither",
        "nor",
        "don",
        "doesn",
        "isn",
        "wasn",
        "aren",
        "weren",
        "won",
        "can",
        "couldn",
        "shouldn",
        "wouldn",
        "didn",
        "hasn",
        "haven",
        "hadn",
        "mustn",
    ]
)
#: Chinese particles skipped when looking for the word a cue negates (verbs such as 用 / 能 are kept:
#: `不可用` negates 用, not the noun after it).
_FOCUS_SKIP_ZH = frozenset(
    [
        "的",
        "了",
        "是",
        "在",
        "把",
        "被",
        "对",
        "为",
        "以",
        "于",
        "之",
        "其",
        "该",
        "这",
        "那",
        "也",
        "都",
        "就",
        "而",
        "着",
        "过",
        "再",
        "去",
        "来",
        "给",
        "向",
        "从",
        "到",
        "跟",
        "和",
        "与",
        "及",
    ]
)


@dataclass(frozen=True, slots=True)
class _Cue:
    mention: Mention
    focus: tuple[str, ...]
    """Up to three content words the cue governs, within its clause (`无需审批` → `审批`;
    `not required for refunds` → `requir`, `refund`)."""
    snippet: str
    """The cue with the first word it negates, as written (`无需审批`, `not required`)."""
    scope: frozenset[str]
    """Every content word from the cue to the end of its clause: what the cue may negate."""
    listed: bool = False
    """A list separator (`、`, `,`, `and`, `也`) or a content word stands between the previous cue and
    this one: `未提前告知、未妥善安排` and `不炒不揉` negate two things side by side, not one thing twice
    (`不是不能`, `并非没有`: nothing but a copula between)."""


_NEGATIVE_PREFIX = "(?:in|un|im|il|ir|non-?|dis)"


def _only_prefixed(word: str, folded: str) -> bool:
    """`word` occurs in `folded` only with a negative prefix (`inexperienced` for `experienc`,
    `unrestricted` for `restriction`: compared on the root without its derivational ending)."""
    root = re.escape(_root(word))
    prefixed = re.search(rf"(?<![a-z]){_NEGATIVE_PREFIX}{root}", folded)
    return prefixed is not None and re.search(rf"(?<![a-z-]){root}", folded) is None


#: Endings that make another word of one root (`restriction`, `restricted`, `restrictive`).
_ROOT_ENDINGS: Final = ("ions", "ion", "ive", "ed", "ing", "s")


def _root(word: str) -> str:
    for ending in _ROOT_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 5:
            return word[: -len(ending)]
    return word


def prefix_negated(word: str, token: str) -> bool:
    """`token` is `word` with a negative prefix (`unrestricted` for `restriction`, `non-binding`)."""
    if len(word) < 5:
        return False
    for prefix in ("non-", "non", "un"):
        if token.startswith(prefix) and len(token) - len(prefix) >= 5:
            return _root(token[len(prefix) :]) == _root(word)
    return False


#: Between two cues, what makes them two negations side by side rather than one of the other.
_LIST_SEPARATOR_RX = re.compile(r"[、,，;；]|(?i:\b(?:and|or)\b)|[也又且或]")


def same_word(word: str, other: str) -> bool:
    """`高峰` ~ `高峰期`, `renew` ~ `renewal`, `fin` (of `fined`) ~ `fine` (of `fines`): loose enough for
    stems and Chinese compounds."""
    if word == other or (word.isascii() and len(word) >= 3 and word.rstrip("e") == other.rstrip("e")):
        return True
    if word.isascii():
        return len(word) >= 4 and len(other) >= 4 and (other.startswith(word) or word.startswith(other))
    return len(word) > 1 and len(other) > 1 and (word in other or other in word)


#: Characters between two cues that still read as one double negation (`不是不能`, `not un-`).
_ADJACENT_CUES = 6


@dataclass(frozen=True, slots=True)
class _PolaritySentence:
    tokens: frozenset[str]
    folded: str
    cues: tuple[_Cue, ...]
    about: frozenset[str] = frozenset()
    """The clause's content words without its figures: what it is about."""
    negations: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)
    """`negated` remembered per word: every cue of the other side asks about its word."""

    def states(self, word: str) -> bool:
        if word in self.tokens or (len(word) > 1 and word in self.folded):
            return True
        if not word.isascii() or len(word) < 4:
            return False
        # `unrestricted` states `restriction`, negated by its prefix (`negated`): "no parking
        # restrictions on Sundays" agrees with "parking is unrestricted on Sundays".
        return any(same_word(word, t) or prefix_negated(word, t) for t in self.tokens)

    def negated(self, word: str) -> bool:
        """Whether `word` is negated here: an odd number of adjacent cues govern it (double negation
        cancels: `不是不能`, `not impossible`). Cues apart from each other negate apart: "What we don't
        know: it's not known whether …" says twice that it is unknown, not that it is known."""
        found = self.negations.get(word)
        if found is None:
            governing = sorted(
                (cue.mention.start, cue.mention.end, cue.listed)
                for cue in self.cues
                if any(same_word(word, f) for f in cue.scope)
            )
            runs: list[int] = []
            last_end = None
            for start, end, listed in governing:
                if last_end is not None and start - last_end <= _ADJACENT_CUES and not listed:
                    runs[-1] += 1
                else:
                    runs.append(1)
                last_end = end
            found = any(count % 2 == 1 for count in runs)
            # `an inexperienced sailor` negates `experienced` by its prefix (`isn't an experienced
            # sailor` says the same): a word stated only in its negative-prefixed form is negated.
            if word.isascii() and len(word) >= 5 and _only_prefixed(word, self.folded):
                found = not found
            self.negations[word] = found
        return found


@dataclass(frozen=True, slots=True)
class _Polarity:
    """What negation analysis needs of one text, cached with the text."""

    text: str
    cues: tuple[_Cue, ...]
    sentences: tuple[_PolaritySentence, ...]
    """The clauses of the text (polarity is read per clause)."""

    def states(self, word: str) -> bool:
        return bool(word) and any(s.states(word) for s in self.sentences)

    def polarities(self, word: str) -> set[bool]:
        """`True` for each clause that negates `word`, `False` for each that states it plainly."""
        return {s.negated(word) for s in self.sentences if s.states(word)}

    def disagrees(self, word: str, other: _Polarity) -> bool:
        """Some clause here states `word` with the opposite polarity of every clause of `other` that
        states it and is most about the same thing (shares most other words): `HTML 缓存` is read
        against `HTML 不缓存`, not against `JS/CSS 缓存 7 天` of the same list."""
        theirs = [s for s in other.sentences if s.states(word)]
        if not theirs:
            return False
        for mine in self.sentences:
            if not mine.states(word):
                continue
            about = mine.about - {word}
            shared = [len(about & s.about) for s in theirs]
            best = max(shared)
            if mine.negated(word) not in {
                s.negated(word) for s, n in zip(theirs, shared, strict=True) if n == best
            }:
                return True
        return False


def _polarity(text: str) -> _Polarity:
    if len(text) > CACHE_MAX_CHARS:
        return _analyse_polarity(text)
    return _polarity_cached(text)


@lru_cache(maxsize=4096)
def _polarity_cached(text: str) -> _Polarity:
    return _analyse_polarity(text)


#: Negation cues analysed per text. Comparing two texts' cues is quadratic in their number; no
#: sentence a person writes has this many, so only hostile input is cut short.
_MAX_CUES = 256


def _analyse_polarity(text: str) -> _Polarity:
    cues: list[_Cue] = []
    # What a cue governs depends only on the text after it, and a text that repeats itself repeats
    # those tails: analyse each distinct tail once.
    governed: dict[str, tuple[tuple[str, ...], int, frozenset[str]]] = {}
    for cue in extract(text).of("negation")[:_MAX_CUES]:
        if _not_a_negation(text, cue.start, cue.end):
            continue
        tail = text[cue.end : cue.end + 48]
        cut = _CLAUSE_END_RX.search(tail)
        if cut is not None:
            tail = tail[: cut.start()]
        known = governed.get(tail)
        if known is None:
            content = set(tokenize(tail))
            words = tuple(
                w
                for w in tokenize(tail, keep_stopwords=True)
                if w not in _NEG_TOKENS and (w in content or not (w.isascii() or w in _FOCUS_SKIP_ZH))
            )[:3]
            scope = frozenset(w for w in content if w not in _NEG_TOKENS) | frozenset(words)
            known = governed[tail] = (words, _focus_end(tail, words[0] if words else ""), scope)
        words, focus_end, scope = known
        between = text[cues[-1].mention.end : cue.start] if cues else ""
        listed = _LIST_SEPARATOR_RX.search(between) is not None or any(
            w not in _FOCUS_SKIP_ZH for w in tokenize(between)
        )
        cues.append(_Cue(cue, words, text[cue.start : cue.end + focus_end], scope, listed))
    return _Polarity(text, tuple(cues), _clauses(text, cues))


def _clauses(text: str, cues: list[_Cue]) -> tuple[_PolaritySentence, ...]:
    """Polarity is read per clause: in a list (`images are cached for 30 days, JS for 7 days, HTML is
    not cached`) one item's `not` does not negate what the other items state. A cue governs only to
    its clause's end anyway."""
    found: list[_PolaritySentence] = []
    starts = [c.mention.start for c in cues]  # in text order, as `extract` returns them
    for span in split_sentences(text):
        begin = 0
        previous: frozenset[str] = frozenset()
        for end in [*(cut.end() for cut in _CLAUSE_END_RX.finditer(span.text)), len(span.text)]:
            clause, start = span.text[begin:end], span.start + begin
            begin = end
            tokens = frozenset(t for t in tokenize(clause) if t not in _NEG_TOKENS)
            if not tokens:
                continue
            inner = tuple(cues[bisect_left(starts, start) : bisect_left(starts, start + len(clause))])
            about = frozenset(t for t in tokenize(_without_figures(clause)) if t not in _NEG_TOKENS)
            if inner and _ELIDED_SUBJECT_RX.match(clause, 0, inner[0].mention.start - start + 1):
                # `法定节假日加班按 300% 支付，不安排调休`: a clause that opens on its negation has the
                # previous clause's subject.
                about |= previous
            found.append(_PolaritySentence(tokens, _folded(clause), inner, about))
            previous = about
    return tuple(found)


#: Only a joining word before a clause's first negation: the clause says nothing of what it negates.
_ELIDED_SUBJECT_RX = re.compile(r"\s*(?:且|并且?|但|而|也|又|则|and|but|yet)?\s*.?$", re.IGNORECASE)


_ASCII_WORD_RX = re.compile(r"[A-Za-z]+")
_FIGURE_KINDS = frozenset({"amount", "percent", "duration", "size", "measure", "count", "number", "range"})


def _without_figures(text: str) -> str:
    """`text` with its figures and their units blanked: `7 days` says how long, not what about."""
    spans = [
        (m.start, m.end) for m in extract(text).items if m.kind in _FIGURE_KINDS or m.kind in {"date", "time"}
    ]
    if not spans:
        return text
    out, last = [], 0
    for start, end in sorted(spans):
        if start >= last:
            out.append(text[last:start])
            out.append(" ")
            last = end
    out.append(text[last:])
    return "".join(out)


def _not_a_negation(text: str, start: int, end: int) -> bool:
    """`No 2` / `No. 1`: a rank ("the world No 2"), not a negation."""
    return text[start:end] == "No" and re.match(r"\.?\s?\d", text[end : end + 3]) is not None


def _surface(text: str, word: str) -> str:
    """The word as written in `text` (`required` for the stem `requir`)."""
    end = _focus_end(text, word)
    if end and word.isascii():
        start = end
        while start > 0 and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        return text[start:end]
    return word


def _focus_end(tail: str, focus: str) -> int:
    """Where the word `focus` (maybe a stem: `requir`) ends in `tail`; 0 when it is not found."""
    if not focus:
        return 0
    if focus.isascii():
        for word in _ASCII_WORD_RX.finditer(tail):
            if stem(word.group().lower()) == focus or word.group().lower() == focus:
                return word.end()
        return 0
    pos = tail.find(focus)
    return pos + len(focus) if pos >= 0 else 0

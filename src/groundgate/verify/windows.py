"""Evidence windows of a context and the search for a claim's best-supporting window.

The context is analysed once per check (`ContextIndex`: sentences, words and bigram postings) and
each claim looks its candidate windows up (`best_window`) instead of scoring every window, so the
offline checker stays near-linear in the input (see `groundgate.verify.offline_checker`). Words and bigrams
are taken from the text after `synonyms.canonical` (lexicon synonyms and number words folded), and a
structured passage (JSON, `key: value` lines) contributes one window per record, its fields read out
(`verify.records`).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from groundgate.errors import OutOfTimeError
from groundgate.text.segmentation import CACHE_MAX_CHARS, Span, normalize, split_sentences, tokenize, wordset
from groundgate.verify import fidelity, record_rows, records
from groundgate.verify.budget import Deadline
from groundgate.verify.synonyms import canonical

#: How much more support a two-sentence window needs than a single sentence to be preferred.
PAIR_MARGIN = 0.1


def char_bigrams(normalized: str) -> set[str]:
    return {normalized[i : i + 2] for i in range(len(normalized) - 1)}


#: Words that link or frame what a sentence says, not what it says (`目前`, `另外`, `也就是`,
#: `currently`): a retelling adds them freely, so one the context never uses is left out of a claim's
#: support (`measures.measure_support`); one it uses counts as any word. Negations, hedges,
#: causes and restrictions (`不`, `只有`, `因为`) are not here: the fidelity checks, the cause check
#: and polarity read those off the raw text.
DISCOURSE: Final = wordset(
    "目前 当前 现在 另外 此外 之后 然后 而且 并且 其中 本身 一直 就是 也就是 还要 还是 只是 方面 情况 "
    "这样 那样 这种 那种 里面 其实 比如 例如 主要 总共 一共 共计 所有 任何 同时 随后 最终 总之 总的来说 "
    "需要 留意 注意 要注意 需要注意 值得一提 就行 就能 便 才 再 又 已 仍 仍然 依然 "
    "currently already yet still just also really actually basically overall"
)


def _weight(token: str) -> float:
    if any(c.isdigit() for c in token) or "_" in token or "/" in token:
        return 2.0  # numbers and identifiers carry the facts that matter most
    if len(token) == 1:
        return 0.5  # single characters (Chinese particles the stop list missed, units)
    return 1.0


def weighted(tokens: list[str]) -> list[tuple[str, float]]:
    return [(token, _weight(token)) for token in tokens]


#: Posting entries one claim's evidence search may visit. A claim whose words are all common in a
#: very large context stops there and keeps the best window found so far (support can only be
#: under-estimated, which fails closed). Below about 300 distinct windows the search is always
#: complete, so normal-size checks are exact.
_MAX_POSTINGS_PER_CLAIM = 20_000

#: The longest evidence excerpt a claim cites (a sentence pair is far shorter).
MAX_EXCERPT_CHARS = 2_000

#: Contexts up to this size have their sentences cached between checks.
_CACHED_CONTEXT_CHARS = 20_000

#: The longest passage read as one list of a thing's attributes (a spec line), and what ends a
#: sentence inside it (then it is prose, not a list).
_MAX_LIST_CHARS = 1_500
#: The longest passage read as one short note about one matter (a meeting minute, a follow-up
#: email): every name and figure in it belongs to that matter, however many sentences it has.
_MAX_NOTE_CHARS = 320
#: A note's labelled line (`Owner: Sigrid Ekholm`, `Decision:`, `行动项：`, `毛力：`): minutes, a follow-up
#: email, a chat line. A short news paragraph tells several matters (`Swansea beat Hull …; their next
#: match is against Everton`) and is no note.
_NOTE_LABEL = re.compile(r"(?:^|[.。;；]\s*)[A-Z\u4e00-\u9fff][\w\u4e00-\u9fff ,&→'-]{0,60}(?:：|:\s)")
_SENTENCE_BREAK = re.compile(r"[.!?](?:\s|$)|[。！？]")

#: Tolerance of rank comparisons (the same as the sequential scan this search replaces).
_EPS = 1e-9


#: An evidence window is one or two sentences; a "sentence" longer than this (a passage without
#: sentence breaks) is cut into pieces of at most this length, at a space or a clause mark where one
#: is near. No sentence a person writes is this long, so normal text keeps its sentences; the cap
#: keeps every window small enough that comparing a claim with it costs the same as with a sentence.
_MAX_SENTENCE_CHARS = 1_000
_SOFT_BREAK = re.compile(r"[\s,，;；、:：]")


def _evidence_sentences(passage: str) -> list[Span]:
    """`split_sentences`, with sentences over `_MAX_SENTENCE_CHARS` cut into pieces."""
    spans: list[Span] = []
    for span in split_sentences(passage):
        if len(span.text) <= _MAX_SENTENCE_CHARS:
            spans.append(span)
            continue
        start = span.start
        while start < span.end:
            end = min(span.end, start + _MAX_SENTENCE_CHARS)
            if end < span.end:
                # The last soft break in the second half of the piece, if there is one.
                half = start + _MAX_SENTENCE_CHARS // 2
                breaks = [m.end() for m in _SOFT_BREAK.finditer(passage, half, end)]
                if breaks:
                    end = breaks[-1]
            piece = passage[start:end]
            stripped = piece.strip()
            if stripped and any(c.isalnum() for c in stripped):
                left = start + len(piece) - len(piece.lstrip())
                spans.append(Span(stripped, left, left + len(stripped)))
            start = end
    return spans


@dataclass(frozen=True, slots=True)
class _Text:
    """What support scoring reads of one sentence; identical sentences share one."""

    tokens: frozenset[str]
    normalized: str


@dataclass(slots=True)
class Window:
    """An evidence window: one sentence of a passage, or it and the next one (`paired`)."""

    passage: int
    start: int
    end: int
    text: str
    """What the checks read: the passage's text, or a record's fields read out."""
    paired: bool
    raw: str = ""
    """The passage's text of the window, as cited."""


class ContextIndex:
    """The context, analysed once per check: sentences, their words, and postings to find windows.

    Windows are single sentences and adjacent pairs, numbered `2 * sentence + paired` (the order the
    checker has always preferred them in). Only the first of identical windows is posted: a later
    copy can never be preferred, so a context that repeats itself costs no more to search. Postings
    map each word and each character bigram of the normalised text to the windows that have it, so a
    claim's candidate windows are looked up instead of scoring every window for every claim.
    """

    __slots__ = (
        "_canonical",
        "_in_lower",
        "_in_normalized",
        "_items",
        "_large",
        "_lists",
        "_lower",
        "_normalized",
        "_notes",
        "_rows",
        "_sets",
        "all_text",
        "bigram_postings",
        "context_cjk",
        "context_some_cjk",
        "cross_language",
        "fidelity_text",
        "fields",
        "passages",
        "read_out",
        "sent_end",
        "sent_passage",
        "sent_start",
        "sent_text",
        "texts",
        "token_postings",
        "unique_windows",
    )

    def __init__(self, passages: Sequence[str], *, cross_language: bool = False) -> None:
        self.passages = passages
        self.cross_language = cross_language
        self.context_cjk = False
        """The context is mostly Chinese (set by the checker)."""
        self.context_some_cjk = False
        """The context holds enough Chinese to read a Chinese claim in its own language (set by the checker)."""
        """Claims and context are in different languages: English lexicon terms are folded too."""
        self.read_out: dict[int, str] = {}
        """Sentence number -> the record's fields read out, for the windows that are records."""
        self.fields: dict[int, tuple[records.Field, ...]] = {}
        """Sentence number -> the record's fields."""
        self._rows: dict[str, tuple[records.Field, ...]] | None = None
        self._items: dict[str, tuple[records.Field, ...]] | None = None
        self.fidelity_text = ""
        """The whole context as the fidelity checks read it (records read out after their text)."""
        self.texts: list[_Text] = []
        self.sent_passage = array("l")
        self.sent_start = array("l")
        self.sent_end = array("l")
        self.sent_text = array("l")
        """Index into `texts` of each sentence; -1 marks the end of a passage (no pair across it)."""
        self.token_postings: dict[str, array[int]] = {}
        self.bigram_postings: dict[str, array[int]] = {}
        self.unique_windows = array("l")
        self.all_text = "\n".join(passages)
        self._normalized: str | None = None
        self._lower: str | None = None
        self._in_normalized: dict[str, bool] = {}
        self._lists: list[str] | None = None
        self._notes: list[str] | None = None
        self._in_lower: dict[str, bool] = {}
        self._canonical: dict[str, str] = {}
        self._large: dict[int, tuple[Window, fidelity.EvidenceIndex]] = {}
        self._sets: dict[int, frozenset[int]] = {}

    def canonical(self, text: str) -> str:
        """The text whose words and bigrams support is computed on (see `synonyms.canonical`),
        remembered for this check: its windows, clauses and names are folded many times, and the
        memo goes with the index (a context is never held across checks)."""
        found = self._canonical.get(text)
        if found is None:
            found = self._canonical[text] = canonical(text, cross_language=self.cross_language)
        return found

    @classmethod
    def build(
        cls, passages: Sequence[str], deadline: Deadline | None = None, *, cross_language: bool = False
    ) -> ContextIndex:
        """Each sentence is analysed once; raises `OutOfTimeError` when `deadline` passes meanwhile."""
        index = cls(passages, cross_language=cross_language)
        read_outs: list[str] = []
        # The text the fidelity checks read: prose as written, a JSON record only as read out (its
        # raw `1299.0` would match `$1,299` whatever the record's currency).
        raw: list[str] = []
        # A large context's sentences are analysed once and not cached (see `normalize`); a small
        # one's are, since the same documents come back check after check.
        cache = len(index.all_text) <= _CACHED_CONTEXT_CHARS
        text_ids: dict[tuple[str, frozenset[str]], int] = {}
        words: dict[str, str] = {}  # one string object per distinct word, however often it occurs
        seen_single: set[int] = set()
        seen_pair: set[tuple[int, int]] = set()
        for p, passage in enumerate(passages):
            if deadline is not None and deadline.expired():
                raise OutOfTimeError
            previous: tuple[int, int, frozenset[str], set[str], str] | None = None
            found = records.parse(passage)
            if not (found and passage.lstrip()[:1] in ("{", "[")):
                raw.append(passage)
            spans = [Span(r.text, r.start, r.end) for r in found] or _evidence_sentences(passage)
            for n, span in enumerate(spans):
                if found:
                    # A record is one window: its fields read out, cited by its span in the passage.
                    index.read_out[len(index.sent_text)] = span.text
                    index.fields[len(index.sent_text)] = found[n].fields
                    read_outs.append(span.text)
                folded = index.canonical(span.text)
                tokens = frozenset(words.setdefault(t, t) for t in tokenize(folded, cache=cache))
                normalized = normalize(folded, cache=cache)
                key = (normalized, tokens)
                text_id = text_ids.get(key)
                if text_id is None:
                    text_id = text_ids[key] = len(index.texts)
                    index.texts.append(_Text(tokens, normalized))
                i = len(index.sent_text)
                index.sent_passage.append(p)
                index.sent_start.append(span.start)
                index.sent_end.append(span.end)
                index.sent_text.append(text_id)
                bigrams = char_bigrams(normalized)
                if previous is not None:  # the pair ending here comes before this single window
                    j, prev_id, prev_tokens, prev_bigrams, prev_normalized = previous
                    if (prev_id, text_id) not in seen_pair:
                        seen_pair.add((prev_id, text_id))
                        pair_bigrams = prev_bigrams | bigrams
                        if prev_normalized and normalized:
                            pair_bigrams.add(prev_normalized[-1] + normalized[0])
                        index._post(2 * j + 1, prev_tokens | tokens, pair_bigrams)
                if text_id not in seen_single:
                    seen_single.add(text_id)
                    index._post(2 * i, tokens, bigrams)
                previous = (i, text_id, tokens, bigrams, normalized)
            index.sent_passage.append(p)  # a sentinel, so that `2 * last + 1` is never a window
            index.sent_start.append(0)
            index.sent_end.append(0)
            index.sent_text.append(-1)
        index.fidelity_text = "\n".join([*raw, *read_outs])
        return index

    def _post(self, window: int, tokens: frozenset[str] | set[str], bigrams: set[str]) -> None:
        self.unique_windows.append(window)
        for postings, keys in ((self.token_postings, tokens), (self.bigram_postings, bigrams)):
            for key in keys:
                found = postings.get(key)
                if found is None:
                    found = postings[key] = array("l")
                found.append(window)

    # ------------------------------------------------------------------ windows

    def window(self, w: int) -> Window:
        large = self._large.get(w)
        if large is not None:
            return large[0]
        i = w >> 1
        last = i + (w & 1)
        passage = self.sent_passage[i]
        start, end = self.sent_start[i], self.sent_end[last]
        raw = self.passages[passage][start:end]
        if i in self.read_out or last in self.read_out:
            text = " ".join(
                self.read_out.get(k, self.passages[passage][self.sent_start[k] : self.sent_end[k]])
                for k in dict.fromkeys((i, last))
            )
            return Window(passage, start, end, text, bool(w & 1), raw)
        return Window(passage, start, end, raw, bool(w & 1), raw)

    def rows(self) -> dict[str, tuple[records.Field, ...]]:
        """Row name -> that row's cells, for the `|` tables of the context (`records.table_rows`):
        empty when there are fewer than two named rows. Worked out once, on first use."""
        if self._rows is None:
            found: dict[str, tuple[records.Field, ...]] = {}
            for passage in self.passages:
                if passage.count("|") < 4:
                    continue
                for record in records.table_rows(passage):
                    for number, name in record_rows.row_names(record.fields).items():
                        found.setdefault(name, tuple(f for f in record.fields if f.record == number))
            self._rows = found if len(found) > 1 else {}
        return self._rows

    def items(self) -> dict[str, tuple[records.Field, ...]]:
        """Item name -> its fields, for the named items of lists nested in the context's JSON records
        (`record_rows.nested_rows`: a listing's reviews by reviewer). Worked out once, on first use."""
        if self._items is None:
            found: dict[str, tuple[records.Field, ...]] = {}
            for passage in self.passages:
                for name, cells in record_rows.nested_rows(passage).items():
                    found.setdefault(name, cells)
            self._items = found
        return self._items

    def window_fields(self, w: int) -> tuple[records.Field, ...]:
        """The record fields of window `w` (none for prose)."""
        i = w >> 1
        own = self.fields.get(i, ())
        return (*own, *self.fields.get(i + 1, ())) if w & 1 else own

    def aligned_evidence(self, window: Window, w: int) -> str | fidelity.EvidenceIndex:
        """The window's text for the fidelity checks; a long one is analysed once per check.

        (Short texts are cached by `fidelity` itself; a window as long as a whole passage without a
        sentence break is not, and would otherwise be re-analysed for every claim it supports.)
        """
        if len(window.text) <= CACHE_MAX_CHARS:
            return window.text
        large = self._large.get(w)
        if large is None:
            large = self._large[w] = (window, fidelity.index_evidence(window.text))
        return large[1]

    def has_word(self, w: int, token: str) -> bool:
        """`token` is one of the window's words."""
        i = w >> 1
        if token in self.texts[self.sent_text[i]].tokens:
            return True
        return bool(w & 1) and token in self.texts[self.sent_text[i + 1]].tokens

    def contains(self, w: int, needle: str) -> bool:
        """`needle` occurs in the window's normalised text (a pair's text is both sentences' joined)."""
        i = w >> 1
        first = self.texts[self.sent_text[i]].normalized
        if needle in first:
            return True
        if not w & 1:
            return False
        second = self.texts[self.sent_text[i + 1]].normalized
        if needle in second:
            return True
        k = len(needle) - 1
        return k > 0 and needle in first[-k:] + second[:k]

    def covers(self, w: int, token: str) -> bool:
        """The window counts `token` as covered: one of its words, or (longer tokens) in its text."""
        return self.has_word(w, token) or (len(token) > 1 and self.contains(w, token))

    def as_set(self, postings: array[int]) -> frozenset[int]:
        """A posting list as a set, made once per check: scoring a candidate window asks each of
        the claim's remaining terms whether the window has it, and a set answers that in O(1)
        where searching the window's text costs its length."""
        key = id(postings)
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = frozenset(postings)
        return found

    def rarest_bigram(self, needle: str) -> array[int] | None:
        """The shortest posting list of `needle`'s bigrams: every window containing `needle` is in it.

        Empty when some bigram of `needle` occurs nowhere; None when `needle` is shorter than two.
        """
        best: array[int] | None = None
        for i in range(len(needle) - 1):
            found = self.bigram_postings.get(needle[i : i + 2])
            if found is None:
                return _NO_WINDOWS
            if best is None or len(found) < len(best):
                best = found
        return best

    def any_window_with_all(self, needles: Sequence[str]) -> bool:
        """Some window's normalised text contains every needle."""
        candidates: array[int] | None = None
        for needle in needles:
            found = self.rarest_bigram(needle)
            if found is not None and (candidates is None or len(found) < len(candidates)):
                candidates = found
        pool = self.unique_windows if candidates is None else candidates
        return any(all(self.contains(w, needle) for needle in needles) for w in pool)

    # ------------------------------------------------------------------ the whole context

    @property
    def all_tokens(self) -> Collection[str]:
        return self.token_postings.keys()

    @property
    def all_normalized(self) -> str:
        if self._normalized is None:
            cache = len(self.all_text) <= _CACHED_CONTEXT_CHARS
            self._normalized = "\n".join(
                normalize(self.canonical(p), cache=cache) for p in [*self.passages, *self.read_out.values()]
            )
        return self._normalized

    @property
    def all_lower(self) -> str:
        if self._lower is None:
            self._lower = self.all_text.lower()
        return self._lower

    def any_list_with_all(self, needles: Sequence[str]) -> bool:
        """Some passage that is one list — a spec line of `;`-separated items, with no sentence
        break before its end — contains every needle: its items all describe one thing."""
        if self._lists is None:  # found once per check: every claim with names apart asks
            self._lists = [
                normalize(self.canonical(body))
                for body in (p.strip().rstrip(".。!?！？") for p in self.passages)
                if len(body) <= _MAX_LIST_CHARS
                and (";" in body or "；" in body)
                and not _SENTENCE_BREAK.search(body)
            ]
        return any(all(needle in folded for needle in needles) for folded in self._lists)

    def any_note_with_all(self, needles: Sequence[str]) -> bool:
        """Some short passage (a labelled note of at most `_MAX_NOTE_CHARS`, not a record) contains every
        needle: `Audit prep, 12 Apr. Auditors on site 5–9 May. Owner: Sigrid Ekholm. Folders by 28
        Apr.` tells one matter in four sentences, so a claim may join its first and last
        (docs/design.md §2.1, "Session 33")."""
        if self._notes is None:
            self._notes = [
                normalize(self.canonical(p))
                for p in self.passages
                if len(p) <= _MAX_NOTE_CHARS
                and p.lstrip()[:1] not in ("{", "[")
                and "\n" not in p.strip()
                and _NOTE_LABEL.search(p)
            ]
        return any(all(needle in folded for needle in needles) for folded in self._notes)

    def in_normalized(self, needle: str) -> bool:
        """`needle in all_normalized`, remembered: every claim asks about the same context."""
        found = self._in_normalized.get(needle)
        if found is None:
            found = self._in_normalized[needle] = needle in self.all_normalized
        return found

    def in_lower(self, needle: str) -> bool:
        """`needle in all_lower`, remembered."""
        found = self._in_lower.get(needle)
        if found is None:
            found = self._in_lower[needle] = needle in self.all_lower
        return found

    def anywhere(self, token: str) -> bool:
        """The context uses `token`: as a word somewhere, or (longer tokens) inside its text."""
        return token in self.token_postings or (len(token) > 1 and self.in_normalized(token))


_NO_WINDOWS: array[int] = array("l")


@dataclass(frozen=True, slots=True)
class Support:
    score: float
    window: Window | None
    number: int = -1
    """The window's number in the index."""


@dataclass(slots=True)
class _Term:
    """A claim word or bigram in the evidence search, with its share of the claim's score."""

    token: str | None
    bigram: str | None
    weight: float
    """The word's total weight in the claim (words), 0 for bigrams."""
    value: float
    """Most this term adds to any window's score."""
    postings: array[int]
    substring: array[int] | None
    """Windows that may contain the word inside their text (words of two or more characters)."""

    @property
    def size(self) -> int:
        return len(self.postings) + (len(self.substring) if self.substring is not None else 0)


def _claim_terms(
    tokens: list[str], claim_bigrams: set[str], index: ContextIndex
) -> tuple[list[_Term], float]:
    """The claim's words and bigrams that occur in the context, rarest first, and the words' total weight."""
    weights: dict[str, float] = {}
    total = 0.0
    for token, w in weighted(tokens):
        total += w
        weights[token] = weights.get(token, 0.0) + w
    n_bigrams = len(claim_bigrams)
    share = 0.5 if n_bigrams else 1.0
    terms: list[_Term] = []
    for token, weight in weights.items():
        postings = index.token_postings.get(token, _NO_WINDOWS)
        substring = index.rarest_bigram(token) if len(token) > 1 else None
        term = _Term(token, None, weight, share * weight / total, postings, substring)
        if term.size:
            terms.append(term)
    for bigram in sorted(claim_bigrams):
        postings = index.bigram_postings.get(bigram, _NO_WINDOWS)
        if postings:
            terms.append(_Term(None, bigram, 0.0, 0.5 / n_bigrams, postings, None))
    terms.sort(key=lambda term: term.size)
    return terms, total


def best_window(tokens: list[str], claim_bigrams: set[str], index: ContextIndex) -> Support:
    """The window with the highest support (a pair must beat a single sentence by `PAIR_MARGIN`).

    Support of a window is the weighted share of the claim's words it covers (averaged, for
    Chinese, with the share of the claim's character bigrams it has). Instead of scoring every
    window, the search walks the claim's words and bigrams from the rarest to the most common,
    adding each one's share to the windows in its postings, and stops as soon as what the
    remaining terms could add to a window not yet seen cannot beat the best window scored so far
    (the max-score bound of search engines). The candidates left are scored exactly, in window
    order, so the result is the one a full scan gives: the first window of the highest rank.
    """
    terms, total = _claim_terms(tokens, claim_bigrams, index)
    n_bigrams = len(claim_bigrams)
    share = 0.5 if n_bigrams else 1.0  # words are half the score when bigrams are the other half
    if not terms:
        return Support(0.0, None)
    remaining = [0.0] * (len(terms) + 1)  # remaining[k]: the most terms k.. can add to a window
    for k in range(len(terms) - 1, -1, -1):
        remaining[k] = remaining[k + 1] + terms[k].value

    covered: dict[int, float] = {}  # window -> weight of the processed words it covers
    hits: dict[int, int] = {}  # window -> processed bigrams it has
    scored: dict[int, float] = {}  # window -> its exact support
    extra: list[int] = []  # windows of a term cut short by the postings budget
    threshold = 0.0  # the best exact rank so far: a window must beat it

    def partial(w: int) -> float:
        words = covered.get(w, 0.0) / total if total else 0.0
        return share * words + (0.5 * hits.get(w, 0) / n_bigrams if n_bigrams else 0.0)

    # Posted windows only (every candidate comes from a posting list): a window has a word or
    # bigram exactly when it is in that term's postings, and can hold a longer word inside its text
    # only when it has the word's rarest bigram — the same answers `index.covers` and
    # `index.contains` give, without searching the text for every term.
    has = [index.as_set(term.postings) for term in terms]
    may_hold = [index.as_set(term.substring) if term.substring is not None else None for term in terms]

    def exact(w: int, start: int) -> float:
        weight, found = covered.get(w, 0.0), hits.get(w, 0)
        for k in range(start, len(terms)):
            term = terms[k]
            if term.token is not None:
                inside = may_hold[k]
                if w in has[k] or (inside is not None and w in inside and index.contains(w, term.token)):
                    weight += term.weight
            elif w in has[k]:
                found += 1
        # The same arithmetic as scoring a window on its own: weights are multiples of 0.5, so
        # the sum is exact in any order and the score is bit-for-bit the full scan's.
        score = weight / total if total else 0.0
        if n_bigrams:
            score = (score + found / n_bigrams) / 2
        return score

    def rank(w: int, score: float) -> float:
        return score - PAIR_MARGIN if w & 1 else score

    visited = 0
    done = 0
    for k, term in enumerate(terms):
        if remaining[k] < threshold - _EPS:
            break  # no window outside the postings seen so far can beat the best one
        if visited + term.size > _MAX_POSTINGS_PER_CLAIM and k > 0:
            break
        if visited + term.size > _MAX_POSTINGS_PER_CLAIM:
            # Even the rarest term is common everywhere: take its first windows as candidates.
            pool = term.postings if term.postings else (term.substring or _NO_WINDOWS)
            extra.extend(pool[:_MAX_POSTINGS_PER_CLAIM])
            break
        visited += term.size
        top, top_value = -1, -1.0
        if term.token is not None:
            token = term.token
            for w in term.postings:
                covered[w] = covered.get(w, 0.0) + term.weight
                value = partial(w)
                if value > top_value:
                    top, top_value = w, value
            for w in term.substring or ():
                if not index.has_word(w, token) and index.contains(w, token):
                    covered[w] = covered.get(w, 0.0) + term.weight
                    value = partial(w)
                    if value > top_value:
                        top, top_value = w, value
        else:
            for w in term.postings:
                hits[w] = hits.get(w, 0) + 1
                value = partial(w)
                if value > top_value:
                    top, top_value = w, value
        done = k + 1
        if top >= 0:
            score = exact(top, done)
            scored[top] = score
            threshold = max(threshold, rank(top, score))

    bound = remaining[done]
    best = Support(0.0, None)
    best_rank = 0.0
    for w in sorted({*covered, *hits, *extra}):
        penalty = PAIR_MARGIN if w & 1 else 0.0
        if partial(w) + bound - penalty < threshold - _EPS:
            continue  # cannot reach the best rank already found
        known = scored.get(w)
        support = known if known is not None else exact(w, done)
        # A sentence pair must earn its extra length: cite the single sentence unless the pair
        # covers clearly more of the claim.
        r = rank(w, support)
        if r > best_rank + _EPS:
            best, best_rank = Support(support, index.window(w), w), r
    return best

"""The offline checker: classifies claims against context passages without any model.

For each claim it finds the best-supporting evidence window (one or two adjacent sentences of a
passage) by weighted lexical recall — jieba words and character bigrams for Chinese, lightly
stemmed words for English — then runs the deterministic fidelity checks (numbers, dates,
comparators, negation, versions, identifiers) against that window and the whole context.

Categories (seed 000):
- `contradicted`: a deterministic fidelity conflict (fabricated identifier, changed number, flipped
  negation or comparator, shifted date, other version);
- `direct_evidence`: one window states (nearly) everything the claim says;
- `indirect_support`: the claim is largely covered, but by a weaker window or scattered across the
  context;
- `no_evidence`: the context does not cover what the claim says (or it names entities the context
  never mentions).

Cost: near-linear in the input. The context is analysed once per check (`_ContextIndex`: sentences,
words and bigram postings; the fidelity index of the whole context) and each claim looks its
candidate windows up instead of scoring every window, so a 200,000-character context with a
20,000-character answer checks in about a second rather than minutes. A `Deadline` stops the check
between claims; what it did not reach is `no_evidence` with reason `budget:time_exceeded`.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from groundgate.contracts import EvidenceSpan, FactCategory
from groundgate.verify import fidelity
from groundgate.verify.assessment import ClaimAssessment, Classification
from groundgate.verify.budget import BUDGET_TIME_EXCEEDED, BUDGET_TOO_MANY_MENTIONS, Deadline
from groundgate.verify.claims import key_decision
from groundgate.verify.text import (
    CACHE_MAX_CHARS,
    Span,
    is_cjk_text,
    normalize,
    split_sentences,
    tokenize,
)


@dataclass(frozen=True, slots=True)
class CheckerThresholds:
    """Support thresholds of the offline checker (configurable via `verifier.*` settings).

    Support is the weighted share of a claim's content words (and, for Chinese, character
    bigrams) found in one evidence window. The defaults were chosen on the project's own dev set
    (`tests/data/check_dev.jsonl`, see docs/benchmarks.md): paraphrasing answers rarely reach high
    lexical support, while the decisive hallucination signals are the deterministic fidelity
    conflicts, so the support bars are moderate.
    """

    direct: float = 0.5
    """Best-window support at or above this is `direct_evidence`."""
    indirect: float = 0.3
    """Best-window support at or above this (or scattered support at `scattered`) is `indirect_support`."""
    scattered: float = 0.85
    """Support over the whole context that still counts as indirect support."""
    alignment_for_polarity: float = 0.5
    """Negation/comparator flips count only against a window at least this well aligned."""


# Mentions that name something (or state a literal figure) and must co-occur in the evidence.
# Figures count only when written with digits: spelled numbers (`一年`, `three`) are too common.
_FIGURE_KINDS = frozenset({"amount", "percent", "duration", "size", "version", "date"})
_DIGITS = re.compile(r"[0-9０-９]")

#: How much more support a two-sentence window needs than a single sentence to be preferred.
_PAIR_MARGIN = 0.1

# Fidelity findings that compare the claim with the aligned window; meaningless when alignment is poor.
_ALIGNMENT_DEPENDENT = frozenset({"negation_flip", "comparator_changed"})

_PROPER_NOUN = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


def _bigrams(normalized: str) -> set[str]:
    return {normalized[i : i + 2] for i in range(len(normalized) - 1)}


def _weight(token: str) -> float:
    if any(c.isdigit() for c in token) or "_" in token or "/" in token:
        return 2.0  # numbers and identifiers carry the facts that matter most
    if len(token) == 1:
        return 0.5  # single characters (Chinese particles the stop list missed, units)
    return 1.0


def _weighted(tokens: list[str]) -> list[tuple[str, float]]:
    return [(token, _weight(token)) for token in tokens]


#: Posting entries one claim's evidence search may visit. A claim whose words are all common in a
#: very large context stops there and keeps the best window found so far (support can only be
#: under-estimated, which fails closed). Below about 300 distinct windows the search is always
#: complete, so normal-size checks are exact.
_MAX_POSTINGS_PER_CLAIM = 20_000

#: The longest evidence excerpt a claim cites (a sentence pair is far shorter).
_MAX_EXCERPT_CHARS = 2_000

#: Contexts up to this size have their sentences cached between checks.
_CACHED_CONTEXT_CHARS = 20_000

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


class _OutOfTimeError(Exception):
    """The deadline passed while the context was being indexed."""


@dataclass(frozen=True, slots=True)
class _Text:
    """What support scoring reads of one sentence; identical sentences share one."""

    tokens: frozenset[str]
    normalized: str


@dataclass(slots=True)
class _Window:
    """An evidence window: one sentence of a passage, or it and the next one (`paired`)."""

    passage: int
    start: int
    end: int
    text: str
    paired: bool


class _ContextIndex:
    """The context, analysed once per check: sentences, their words, and postings to find windows.

    Windows are single sentences and adjacent pairs, numbered `2 * sentence + paired` (the order the
    checker has always preferred them in). Only the first of identical windows is posted: a later
    copy can never be preferred, so a context that repeats itself costs no more to search. Postings
    map each word and each character bigram of the normalised text to the windows that have it, so a
    claim's candidate windows are looked up instead of scoring every window for every claim.
    """

    __slots__ = (
        "_in_lower",
        "_in_normalized",
        "_large",
        "_lower",
        "_normalized",
        "all_text",
        "bigram_postings",
        "passages",
        "sent_end",
        "sent_passage",
        "sent_start",
        "sent_text",
        "texts",
        "token_postings",
        "unique_windows",
    )

    def __init__(self, passages: Sequence[str]) -> None:
        self.passages = passages
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
        self._in_lower: dict[str, bool] = {}
        self._large: dict[int, tuple[_Window, fidelity.EvidenceIndex]] = {}

    @classmethod
    def build(cls, passages: Sequence[str], deadline: Deadline | None = None) -> _ContextIndex:
        """Each sentence is analysed once; raises `_OutOfTimeError` when `deadline` passes meanwhile."""
        index = cls(passages)
        # A large context's sentences are analysed once and not cached (see `normalize`); a small
        # one's are, since the same documents come back check after check.
        cache = len(index.all_text) <= _CACHED_CONTEXT_CHARS
        text_ids: dict[tuple[str, frozenset[str]], int] = {}
        words: dict[str, str] = {}  # one string object per distinct word, however often it occurs
        seen_single: set[int] = set()
        seen_pair: set[tuple[int, int]] = set()
        for p, passage in enumerate(passages):
            if deadline is not None and deadline.expired():
                raise _OutOfTimeError
            previous: tuple[int, int, frozenset[str], set[str], str] | None = None
            for span in _evidence_sentences(passage):
                tokens = frozenset(words.setdefault(t, t) for t in tokenize(span.text, cache=cache))
                normalized = normalize(span.text, cache=cache)
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
                bigrams = _bigrams(normalized)
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

    def window(self, w: int) -> _Window:
        large = self._large.get(w)
        if large is not None:
            return large[0]
        i = w >> 1
        last = i + (w & 1)
        passage = self.sent_passage[i]
        start, end = self.sent_start[i], self.sent_end[last]
        return _Window(passage, start, end, self.passages[passage][start:end], bool(w & 1))

    def aligned_evidence(self, window: _Window, w: int) -> str | fidelity.EvidenceIndex:
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
            self._normalized = "\n".join(normalize(p, cache=cache) for p in self.passages)
        return self._normalized

    @property
    def all_lower(self) -> str:
        if self._lower is None:
            self._lower = self.all_text.lower()
        return self._lower

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
class _Support:
    score: float
    window: _Window | None
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


class OfflineChecker:
    """Model-free claim classifier: lexical support plus deterministic fidelity checks."""

    honours_deadline = True
    """Stops at a `deadline` (see `groundgate.verify.assessment.classify_within`)."""

    def __init__(self, thresholds: CheckerThresholds | None = None) -> None:
        self.thresholds = thresholds or CheckerThresholds()

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> Classification:
        """Assess each claim; past `deadline` the claims not yet assessed are `no_evidence`."""
        try:
            index = _ContextIndex.build(passages, deadline)
        except _OutOfTimeError:
            return _out_of_time([], claims)
        # The fidelity checks compare every claim with the whole context: index it once per check
        # (a long context is deliberately not cached across checks, see `fidelity.index_evidence`).
        evidence = fidelity.index_evidence(index.all_text)
        question_tokens = set(tokenize(question)) if question else set()
        assessments: list[ClaimAssessment] = []
        seen: dict[str, ClaimAssessment] = {}  # a repeated sentence is assessed once
        for n, claim in enumerate(claims):
            if deadline is not None and deadline.expired():
                return _out_of_time(assessments, claims[n:])
            assessment = seen.get(claim.text)
            if assessment is None:
                assessment = seen[claim.text] = self._assess(
                    claim.text, index, evidence, question, question_tokens
                )
            assessments.append(assessment)
        return Classification(assessments)

    # ------------------------------------------------------------------ one claim

    def _assess(
        self,
        claim: str,
        index: _ContextIndex,
        evidence: fidelity.EvidenceIndex,
        question: str | None,
        question_tokens: set[str],
    ) -> ClaimAssessment:
        t = self.thresholds
        decision = key_decision(claim)
        reasons: list[str] = [decision.reason]
        tokens = tokenize(claim)
        cjk = is_cjk_text(claim)
        claim_bigrams = _bigrams(normalize(claim)) if cjk else set()

        best = self._best_window(tokens, claim_bigrams, index)
        scattered = self._scattered(tokens, index)
        novel = self._novel_terms(tokens, index)
        novel_entities = [] if cjk else self._novel_entities(claim, index)
        apart = self._names_apart(claim, cjk, index)

        key = decision.key
        # A sentence that only restates the question ("About the travel policy:") asserts nothing.
        if (
            key
            and question_tokens
            and tokens
            and best.score < t.indirect
            and sum(1 for tok in tokens if tok in question_tokens) / len(tokens) >= 0.8
        ):
            key = False
            reasons[0] = "not_key:restates_question"

        evidence_spans: tuple[EvidenceSpan, ...] = ()
        aligned: str | fidelity.EvidenceIndex = ""
        if best.window is not None:
            w = best.window
            aligned = index.aligned_evidence(w, best.number)
            if best.score > 0:
                # A window as long as a passage without sentence breaks is cited by its beginning: the
                # result must not repeat a whole context once per claim (output size is cost too).
                end = min(w.end, w.start + _MAX_EXCERPT_CHARS)
                excerpt = w.text[: end - w.start]
                evidence_spans = (EvidenceSpan(passage=w.passage, start=w.start, end=end, excerpt=excerpt),)

        issues = fidelity.check_claim(claim, aligned, evidence, question=question)
        contradictions = [
            issue
            for issue in issues
            if issue.severity == "contradiction"
            and (issue.code not in _ALIGNMENT_DEPENDENT or best.score >= t.alignment_for_polarity)
        ]
        reasons.extend(f"fidelity:{issue.code}" for issue in issues)
        reasons.append(f"support:{best.score:.2f}")
        if novel:
            reasons.append("novel_terms:" + ",".join(novel[:5]))
        if novel_entities:
            reasons.append("unsupported_entity:" + ",".join(novel_entities[:3]))

        if contradictions:
            return ClaimAssessment(
                FactCategory.CONTRADICTED,
                key,
                evidence_spans,
                tuple(reasons),
                deterministic_contradiction=True,
                rationale="; ".join(issue.detail for issue in contradictions),
            )
        if len(fidelity.extract(claim)) > fidelity.MAX_CLAIM_MENTIONS:
            # More figures and names than the fidelity checks compare: the rest went unchecked, so
            # the claim is not called supported (fail closed).
            category = FactCategory.NO_EVIDENCE
            reasons.append(BUDGET_TOO_MANY_MENTIONS)
        elif apart:
            # Every name is in the context, but never together: the claim pairs facts the context keeps
            # apart (an error code attributed to another service, one product's figure given to another).
            category = FactCategory.NO_EVIDENCE
            reasons.append("names_never_together:" + ",".join(apart[:4]))
        elif best.score >= t.direct and not novel_entities:
            category = FactCategory.DIRECT_EVIDENCE
            reasons.append("support_high")
        elif best.score >= t.indirect or scattered >= t.scattered:
            # A name the context never mentions keeps an otherwise well-covered claim from being direct.
            category = FactCategory.INDIRECT_SUPPORT
            reasons.append("support_partial" if best.score >= t.indirect else "support_scattered")
        else:
            category = FactCategory.NO_EVIDENCE
            reasons.append("support_low")
        return ClaimAssessment(category, key, evidence_spans, tuple(reasons))

    # ------------------------------------------------------------------ measures

    @staticmethod
    def _best_window(tokens: list[str], claim_bigrams: set[str], index: _ContextIndex) -> _Support:
        """The window with the highest support (a pair must beat a single sentence by `_PAIR_MARGIN`).

        Support of a window is the weighted share of the claim's words it covers (averaged, for
        Chinese, with the share of the claim's character bigrams it has). Instead of scoring every
        window, the search walks the claim's words and bigrams from the rarest to the most common,
        adding each one's share to the windows in its postings, and stops as soon as what the
        remaining terms could add to a window not yet seen cannot beat the best window scored so far
        (the max-score bound of search engines). The candidates left are scored exactly, in window
        order, so the result is the one a full scan gives: the first window of the highest rank.
        """
        weights: dict[str, float] = {}
        total = 0.0
        for token, w in _weighted(tokens):
            total += w
            weights[token] = weights.get(token, 0.0) + w
        n_bigrams = len(claim_bigrams)
        share = 0.5 if n_bigrams else 1.0  # words are half the score when bigrams are the other half

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
        if not terms:
            return _Support(0.0, None)
        terms.sort(key=lambda term: term.size)
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

        def exact(w: int, todo: Sequence[_Term]) -> float:
            weight, found = covered.get(w, 0.0), hits.get(w, 0)
            for term in todo:
                if term.token is not None:
                    if index.covers(w, term.token):
                        weight += term.weight
                elif term.bigram is not None and index.contains(w, term.bigram):
                    found += 1
            # The same arithmetic as scoring a window on its own: weights are multiples of 0.5, so
            # the sum is exact in any order and the score is bit-for-bit the full scan's.
            score = weight / total if total else 0.0
            if n_bigrams:
                score = (score + found / n_bigrams) / 2
            return score

        def rank(w: int, score: float) -> float:
            return score - _PAIR_MARGIN if w & 1 else score

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
                score = exact(top, terms[done:])
                scored[top] = score
                threshold = max(threshold, rank(top, score))

        todo = terms[done:]
        bound = remaining[done]
        best = _Support(0.0, None)
        best_rank = 0.0
        for w in sorted({*covered, *hits, *extra}):
            penalty = _PAIR_MARGIN if w & 1 else 0.0
            if partial(w) + bound - penalty < threshold - _EPS:
                continue  # cannot reach the best rank already found
            known = scored.get(w)
            support = known if known is not None else exact(w, todo)
            # A sentence pair must earn its extra length: cite the single sentence unless the pair
            # covers clearly more of the claim.
            r = rank(w, support)
            if r > best_rank + _EPS:
                best, best_rank = _Support(support, index.window(w), w), r
        return best

    @staticmethod
    def _scattered(tokens: list[str], index: _ContextIndex) -> float:
        """Weighted share of the claim's words found anywhere in the context."""
        total = covered = 0.0
        for token, w in _weighted(tokens):
            total += w
            if index.anywhere(token):
                covered += w
        return covered / total if total else 0.0

    @staticmethod
    def _novel_terms(tokens: list[str], index: _ContextIndex) -> list[str]:
        """Claim words the context never uses (reported for the reader; paraphrase makes many)."""
        return [t for t in tokens if not index.anywhere(t)]

    @staticmethod
    def _names_apart(claim: str, cjk: bool, index: _ContextIndex) -> list[str]:
        """The claim's names and literal figures when the context has each but no window has them all."""
        names = {
            m.text
            for m in fidelity.extract(claim)
            if (m.kind == "identifier" or (m.kind in _FIGURE_KINDS and _DIGITS.search(m.text)))
            and normalize(m.text)
            and index.in_normalized(normalize(m.text))
        }
        if not cjk:
            names.update(
                match.group(1)
                for match in _PROPER_NOUN.finditer(claim)
                if index.in_lower(match.group(1).lower())
            )
        if len(names) < 2:
            return []
        if index.any_window_with_all([normalize(name) for name in names]):
            return []
        return sorted(names)

    @staticmethod
    def _novel_entities(claim: str, index: _ContextIndex) -> list[str]:
        """Capitalised names in an English claim that the context never mentions."""
        found: list[str] = []
        for match in _PROPER_NOUN.finditer(claim):
            name = match.group(1)
            if not index.in_lower(name.lower()) and not any(
                index.in_lower(part.lower()) for part in name.split()
            ):
                found.append(name)
        return found


def _out_of_time(done: list[ClaimAssessment], rest: Sequence[Span]) -> Classification:
    """The claims the deadline left unassessed: `no_evidence`, with the reason code saying why."""
    cut = []
    for claim in rest:
        decision = key_decision(claim.text)
        cut.append(
            ClaimAssessment(
                FactCategory.NO_EVIDENCE, decision.key, (), (decision.reason, BUDGET_TIME_EXCEEDED)
            )
        )
    return Classification([*done, *cut], notes=[BUDGET_TIME_EXCEEDED])

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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from groundgate.contracts import EvidenceSpan, FactCategory
from groundgate.verify import fidelity
from groundgate.verify.assessment import ClaimAssessment, Classification
from groundgate.verify.claims import key_decision
from groundgate.verify.text import Span, is_cjk_text, normalize, split_sentences, tokenize


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


def _coverage(
    weighted: list[tuple[str, float]], window_tokens: frozenset[str] | set[str], normalized: str
) -> float:
    """Weighted share of the claim's words present in a window."""
    total = covered = 0.0
    for token, w in weighted:
        total += w
        # Substring fallback absorbs segmentation differences (`连接池耗尽` vs `连接池` + `耗尽`).
        if token in window_tokens or (len(token) > 1 and token in normalized):
            covered += w
    return covered / total if total else 0.0


@dataclass(slots=True)
class _Window:
    passage: int
    start: int
    end: int
    text: str
    tokens: frozenset[str]
    normalized: str
    bigrams: frozenset[str]
    paired: bool


@dataclass(slots=True)
class _ContextIndex:
    passages: Sequence[str]
    windows: list[_Window] = field(default_factory=list)
    all_tokens: set[str] = field(default_factory=set)
    all_normalized: str = ""
    all_text: str = ""
    all_lower: str = ""

    @classmethod
    def build(cls, passages: Sequence[str]) -> _ContextIndex:
        """Windows are single sentences, then adjacent pairs; each sentence is analysed once."""
        index = cls(passages)
        for p, passage in enumerate(passages):
            sentences = [
                (span, frozenset(tokenize(span.text)), normalize(span.text))
                for span in split_sentences(passage)
            ]
            for i, (span, tokens, normalized) in enumerate(sentences):
                index._add(p, passage, span, span, tokens, normalized)
                if i + 1 < len(sentences):
                    nxt, nxt_tokens, nxt_normalized = sentences[i + 1]
                    index._add(p, passage, span, nxt, tokens | nxt_tokens, normalized + nxt_normalized)
                index.all_tokens.update(tokens)
        index.all_text = "\n".join(passages)
        index.all_lower = index.all_text.lower()
        index.all_normalized = "\n".join(normalize(p) for p in passages)
        return index

    def _add(
        self, p: int, passage: str, first: Span, last: Span, tokens: frozenset[str], normalized: str
    ) -> None:
        text = passage[first.start : last.end]
        self.windows.append(
            _Window(
                p,
                first.start,
                last.end,
                text,
                tokens,
                normalized,
                frozenset(_bigrams(normalized)),
                first != last,
            )
        )


@dataclass(frozen=True, slots=True)
class _Support:
    score: float
    window: _Window | None


class OfflineChecker:
    """Model-free claim classifier: lexical support plus deterministic fidelity checks."""

    def __init__(self, thresholds: CheckerThresholds | None = None) -> None:
        self.thresholds = thresholds or CheckerThresholds()

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
    ) -> Classification:
        index = _ContextIndex.build(passages)
        question_tokens = set(tokenize(question)) if question else set()
        return Classification(
            [self._assess(claim.text, index, question, question_tokens) for claim in claims]
        )

    # ------------------------------------------------------------------ one claim

    def _assess(
        self, claim: str, index: _ContextIndex, question: str | None, question_tokens: set[str]
    ) -> ClaimAssessment:
        t = self.thresholds
        decision = key_decision(claim)
        reasons: list[str] = [decision.reason]
        tokens = tokenize(claim)
        cjk = is_cjk_text(claim)
        claim_bigrams = _bigrams(normalize(claim)) if cjk else set()

        best = self._best_window(tokens, claim_bigrams, index)
        scattered = _coverage(_weighted(tokens), index.all_tokens, index.all_normalized)
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

        evidence: tuple[EvidenceSpan, ...] = ()
        if best.window is not None and best.score > 0:
            w = best.window
            evidence = (EvidenceSpan(passage=w.passage, start=w.start, end=w.end, excerpt=w.text),)

        issues = fidelity.check_claim(
            claim, best.window.text if best.window else "", index.all_text, question=question
        )
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
                evidence,
                tuple(reasons),
                deterministic_contradiction=True,
                rationale="; ".join(issue.detail for issue in contradictions),
            )
        if apart:
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
        return ClaimAssessment(category, key, evidence, tuple(reasons))

    # ------------------------------------------------------------------ measures

    def _best_window(self, tokens: list[str], claim_bigrams: set[str], index: _ContextIndex) -> _Support:
        weighted = _weighted(tokens)
        best = _Support(0.0, None)
        best_rank = 0.0
        for window in index.windows:
            score = _coverage(weighted, window.tokens, window.normalized)
            if claim_bigrams:
                bigram_recall = len(claim_bigrams & window.bigrams) / len(claim_bigrams)
                score = (score + bigram_recall) / 2
            # A sentence pair must earn its extra length: cite the single sentence unless the pair
            # covers clearly more of the claim.
            rank = score - _PAIR_MARGIN if window.paired else score
            if rank > best_rank + 1e-9:
                best, best_rank = _Support(score, window), rank
        return best

    @staticmethod
    def _novel_terms(tokens: list[str], index: _ContextIndex) -> list[str]:
        """Claim words the context never uses (reported for the reader; paraphrase makes many)."""
        return [
            t for t in tokens if t not in index.all_tokens and not (len(t) > 1 and t in index.all_normalized)
        ]

    @staticmethod
    def _names_apart(claim: str, cjk: bool, index: _ContextIndex) -> list[str]:
        """The claim's names and literal figures when the context has each but no window has them all."""
        names = {
            m.text
            for m in fidelity.extract(claim)
            if (m.kind == "identifier" or (m.kind in _FIGURE_KINDS and _DIGITS.search(m.text)))
            and normalize(m.text)
            and normalize(m.text) in index.all_normalized
        }
        if not cjk:
            names.update(
                match.group(1)
                for match in _PROPER_NOUN.finditer(claim)
                if match.group(1).lower() in index.all_lower
            )
        if len(names) < 2:
            return []
        folded = [normalize(name) for name in names]
        if any(all(name in window.normalized for name in folded) for window in index.windows):
            return []
        return sorted(names)

    @staticmethod
    def _novel_entities(claim: str, index: _ContextIndex) -> list[str]:
        """Capitalised names in an English claim that the context never mentions."""
        lowered = index.all_lower
        found: list[str] = []
        for match in _PROPER_NOUN.finditer(claim):
            name = match.group(1)
            if name.lower() not in lowered and not any(part.lower() in lowered for part in name.split()):
                found.append(name)
        return found

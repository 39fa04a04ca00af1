"""What a claim classifier returns, and the protocol both classifiers (offline, LLM) implement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

from groundgate.contracts import EvidenceSpan, FactCategory, ParseStatus
from groundgate.verify.budget import Deadline
from groundgate.verify.text import Span


@dataclass(frozen=True, slots=True)
class UnitAssessment:
    """One clause of a compound claim: its span in the answer, category and support."""

    span: Span
    category: FactCategory
    support_score: float = 0.0
    reason_codes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaimAssessment:
    """One claim's category, whether it is a key fact, and the evidence spans behind it."""

    category: FactCategory
    key: bool
    evidence: tuple[EvidenceSpan, ...] = ()
    reason_codes: tuple[str, ...] = ()
    """Readable codes, e.g. `lexical_support_high`, `fidelity:number_mismatch`."""
    deterministic_contradiction: bool = False
    """True when code (not a model) found the contradiction; no model may overrule it."""
    rationale: str = ""
    support_score: float | None = None
    """How well the context supports the claim, in [0, 1]; None when the classifier has no score."""
    units: tuple[UnitAssessment, ...] = ()
    """The claim's clauses when it has more than one (the offline checker's finding)."""


@dataclass(slots=True)
class Classification:
    """All assessments of one answer, with how the classifier fared."""

    assessments: list[ClaimAssessment]
    checker: str = "offline"
    """`offline` or `llm`."""
    judge_status: ParseStatus = ParseStatus.NOT_CALLED
    notes: list[str] = field(default_factory=list)


class ClaimClassifier(Protocol):
    """Classifies each claim of an answer into the four seed-000 categories."""

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
    ) -> Classification: ...


class DeadlineAwareClassifier(Protocol):
    """A classifier that stops at a deadline: claims it does not reach are `no_evidence` with the
    reason code `budget:time_exceeded`, and the note `budget:time_exceeded` is in `notes`."""

    honours_deadline: bool

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> Classification: ...


def classify_within(
    classifier: ClaimClassifier,
    claims: Sequence[Span],
    passages: Sequence[str],
    *,
    question: str | None = None,
    deadline: Deadline | None = None,
) -> Classification:
    """`classifier.classify`, handing it `deadline` when it declares `honours_deadline`.

    Classifiers that do not (test doubles, third-party ones) keep the plain `ClaimClassifier`
    signature; they are bounded by the caller's concurrency limit instead.
    """
    if deadline is not None and getattr(classifier, "honours_deadline", False) is True:
        aware = cast(DeadlineAwareClassifier, classifier)
        return aware.classify(claims, passages, question=question, deadline=deadline)
    return classifier.classify(claims, passages, question=question)

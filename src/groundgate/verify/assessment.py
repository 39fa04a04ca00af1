"""What a claim classifier returns, and the protocols the classifiers (offline, model-backed) implement.

A `Classification` says who answered (`checker`, `model_name`) and what it cost (`usage`), so callers
never need to know which classifier they hold; a model-backed classifier also exposes the offline pass
it rests on (`ModelBackedClassifier`), so the verifier can run that pass per claim itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, cast, runtime_checkable

from groundgate.contracts import EvidenceSpan, FactCategory, ParseStatus
from groundgate.models.base import Usage
from groundgate.text.segmentation import Span
from groundgate.verify.budget import Deadline


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

    def shifted(self, shift: int) -> ClaimAssessment:
        """The same assessment for the same sentence `shift` characters further in the answer."""
        if not self.units or not shift:
            return self
        units = tuple(
            UnitAssessment(
                Span(u.span.text, u.span.start + shift, u.span.end + shift),
                u.category,
                u.support_score,
                u.reason_codes,
            )
            for u in self.units
        )
        return replace(self, units=units)


@dataclass(slots=True)
class Classification:
    """All assessments of one answer, with how the classifier fared."""

    assessments: list[ClaimAssessment]
    checker: str = "offline"
    """`offline` or `llm`: who answered (a model-backed classifier whose model failed says `offline`)."""
    judge_status: ParseStatus = ParseStatus.NOT_CALLED
    notes: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    """Tokens the model call cost; zero when no model was called."""
    model_name: str = ""
    """The model asked (also when it failed); empty when no model was asked."""


class ClaimClassifier(Protocol):
    """Classifies each claim of an answer into the four seed-000 categories."""

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
    ) -> Classification: ...


@runtime_checkable
class ModelBackedClassifier(ClaimClassifier, Protocol):
    """A classifier that asks a model and rests on an offline pass (`fallback`): the offline pass's
    deterministic contradictions stand, and it answers whenever the model fails."""

    @property
    def fallback(self) -> ClaimClassifier: ...

    def resting_on(self, fallback: ClaimClassifier) -> ClaimClassifier:
        """The same classifier over another offline pass (the verifier's per-claim one)."""
        ...


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

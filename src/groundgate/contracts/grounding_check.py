"""The grounding checker's request and result (`groundgate check`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from groundgate.contracts.enums import FactCategory, ParseStatus, Verdict


class CheckRequest(BaseModel):
    """One answer to check against its context passages (one line of a batch input)."""

    model_config = ConfigDict(defer_build=True, extra="ignore")

    id: str | int | None = None
    question: str | None = None
    context: list[str]
    """Context passages; a single string is accepted and wrapped."""
    answer: str

    @field_validator("context", mode="before")
    @classmethod
    def _wrap_single_passage(cls, value: object) -> object:
        if isinstance(value, str):
            return [value]
        return value


class EvidenceSpan(BaseModel):
    """A span of one context passage that bears on a claim."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    passage: int
    """Index of the passage in `context`."""
    start: int
    """Character offset inside the passage."""
    end: int
    excerpt: str


class QuestionCoverage(StrEnum):
    """Whether an answer addresses what its question asks (`CheckResult.addresses_question`)."""

    ADDRESSED = "addressed"
    """Every part of the question is addressed."""
    PARTLY_ADDRESSED = "partly_addressed"
    """Some parts are, others (`unaddressed_parts`) are not."""
    NOT_ADDRESSED = "not_addressed"
    """Nothing the question asks is addressed: such an answer is never `PASS`."""


class CheckedUnit(BaseModel):
    """One independently checkable clause of a claim (a compound sentence has several)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    text: str
    start: int
    """Character offset of the unit inside the answer."""
    end: int
    category: FactCategory
    support_score: float = 0.0
    """How well the context supports the unit, in [0, 1]."""
    reason_codes: list[str] = Field(default_factory=list)


class CheckedClaim(BaseModel):
    """One claim of the answer with its classification."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    text: str
    start: int
    """Character offset of the claim inside the answer."""
    end: int
    key: bool
    """Key facts alone decide verdict and score."""
    category: FactCategory
    evidence: list[EvidenceSpan] = Field(default_factory=list)
    reason_codes: list[str] = Field(default_factory=list)
    rationale: str = ""
    """One readable sentence when the claim is contradicted (which values disagree)."""
    support_score: float = 0.0
    """How well the context supports the claim, in [0, 1]: 0 when contradicted; higher means a
    lower observed hallucination rate (see the reliability table of `check-eval`)."""
    units: list[CheckedUnit] = Field(default_factory=list)
    """The claim's clauses when it has more than one; a claim is supported only if each is."""


class CheckResult(BaseModel):
    """The checker's verdict on one answer."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    id: str | int | None = None
    verdict: Verdict
    groundedness_score: float
    critical_fact_count: int
    claims: list[CheckedClaim] = Field(default_factory=list)
    checker: Literal["offline", "llm"] = "offline"
    """Which classifier produced the categories (the verdict is always computed by code)."""
    judge_status: ParseStatus = ParseStatus.NOT_CALLED
    """For `llm`: how the model call fared; on failure the offline checker stands in."""
    rationale: str = ""
    support_score: float = 0.0
    """The answer's support in [0, 1]: the lowest support score of its key claims (0 without any)."""
    addresses_question: QuestionCoverage | None = None
    """With a `question`: whether the answer addresses it; None when no question was given."""
    unaddressed_parts: list[str] = Field(default_factory=list)
    """The parts of the question the answer does not address, as written in the question."""

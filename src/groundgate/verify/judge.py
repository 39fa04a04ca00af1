"""`LLMJudge`: a `ClaimClassifier` that asks a model (role `judge`) to classify claims, then checks it.

The model only proposes, per claim, a category (seed 000: `direct_evidence / indirect_support /
no_evidence / contradicted`), whether the claim is a key fact, and a verbatim excerpt of the
passage behind it. Code then decides what stands:

- an excerpt counts only if it is really in the named passage (`find_tolerant`); a
  `direct_evidence` without a verifiable excerpt becomes `indirect_support`;
- the offline checker (`fallback`) always runs too: its deterministic contradictions win over the
  model, and a claim it marks key stays key;
- claims the model skipped are `no_evidence`; duplicate or out-of-range items are ignored;
- any model failure returns the offline checker's result with the failure's parse status.

The judge never computes a verdict or a score (DESIGN invariant 4): `verify.matrix` does.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts import EvidenceSpan, FactCategory, ParseStatus
from groundgate.errors import ModelError
from groundgate.models.base import Message, Model, ModelResponse, Role, Usage
from groundgate.text.segmentation import Span, find_tolerant
from groundgate.verify.assessment import ClaimAssessment, ClaimClassifier, Classification, classify_within
from groundgate.verify.budget import Deadline

__all__ = ["JUDGE_SYSTEM_PROMPT", "JudgeItem", "JudgeOutput", "JudgeRun", "LLMJudge"]


# --------------------------------------------------------------------------- output schema


class JudgeItem(BaseModel):
    """The model's finding on one numbered claim."""

    model_config = ConfigDict(extra="forbid")

    claim_index: int = Field(description="The claim's number as given in the prompt (1-based).")
    key: bool = Field(description="True when the claim is a key fact.")
    category: FactCategory = Field(
        description="One of: direct_evidence, indirect_support, no_evidence, contradicted."
    )
    passage: int | None = Field(description="Number of the passage the excerpt is from, or null.")
    excerpt: str | None = Field(description="Short verbatim quote from that passage, or null.")
    rationale: str = Field(description="One short sentence.")


class JudgeOutput(BaseModel):
    """What the judge model must return: one item per numbered claim."""

    model_config = ConfigDict(extra="forbid")

    claims: list[JudgeItem]


# --------------------------------------------------------------------------- prompt

JUDGE_SYSTEM_PROMPT = """\
You check each numbered claim of an answer against the numbered passages, using only the passages.
Return JSON {"claims": [...]} with one item per claim:
- claim_index: the claim's number.
- key: true if the claim is a key fact: a root cause; an error code, interface or component \
attribution; a statement of what logs or documents show; a fix conclusion; anything with a number. \
General advice, risk notes and non-factual wording are not key.
- category, exactly one of:
  direct_evidence: a passage states it explicitly;
  indirect_support: it follows reasonably from the passages but is not stated;
  no_evidence: the passages do not hold enough to support it;
  contradicted: a passage conflicts with it, or it invents a key entity, error code or conclusion.
- passage: number of the passage that supports or contradicts it, or null.
- excerpt: a short quote copied verbatim from that passage, or null.
- rationale: one short sentence. Do not write out your reasoning."""


@dataclass(frozen=True, slots=True)
class JudgeRun:
    """One `LLMJudge.judge` call: the classification and what the model call cost."""

    classification: Classification
    usage: Usage
    raw_output: str
    """The model's answer (or what it returned before failing), for the step's snapshot."""
    prompt_chars: int
    model_name: str = ""


# --------------------------------------------------------------------------- the judge


class LLMJudge:
    """Classifies claims with a model and verifies the model's findings in code.

    `fallback` is the offline checker: it always runs, its deterministic contradictions and key
    marks stand, and its result replaces the model's whenever the model call fails.
    """

    def __init__(
        self,
        model: Model,
        fallback: ClaimClassifier,
        *,
        max_passage_chars: int = 1200,
        max_claim_chars: int = 400,
        max_rationale_chars: int = 300,
        role: Role = "judge",
    ) -> None:
        self.model = model
        self.fallback = fallback
        self.max_passage_chars = max_passage_chars
        self.max_claim_chars = max_claim_chars
        self.max_rationale_chars = max_rationale_chars
        self.role: Role = role
        """`judge` for `check`, `verifier` inside the pipeline: each role may use its own model."""

    # ------------------------------------------------------------------ ModelBackedClassifier

    def resting_on(self, fallback: ClaimClassifier) -> LLMJudge:
        """This judge over another offline pass (`ModelBackedClassifier`)."""
        judge = copy.copy(self)
        judge.fallback = fallback
        return judge

    honours_deadline = True
    """Hands a `deadline` to the offline fallback (the model call keeps its own timeout)."""

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> Classification:
        return self.judge(claims, passages, question=question, deadline=deadline).classification

    # ------------------------------------------------------------------ with details

    def judge(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> JudgeRun:
        """`classify`, plus usage, the raw model output and the prompt size."""
        offline = classify_within(self.fallback, claims, passages, question=question, deadline=deadline)
        if len(offline.assessments) != len(claims):
            raise ValueError(
                f"fallback classifier returned {len(offline.assessments)} assessments for {len(claims)} claims"
            )
        if not claims or not passages:
            reason = "judge_skipped_no_claims" if not claims else "judge_skipped_no_passages"
            return JudgeRun(_offline_copy(offline, ParseStatus.NOT_CALLED, reason), Usage(), "", 0, "")

        messages = self.build_messages(claims, passages, question=question)
        prompt_chars = sum(len(m.content) for m in messages)
        try:
            response: ModelResponse[JudgeOutput] = self.model.request(messages, JudgeOutput, role=self.role)
        except ModelError as exc:
            status = _parse_status(exc.status)
            note = f"judge_fallback:{status.value}: {exc}"
            return JudgeRun(
                replace(_offline_copy(offline, status, note), model_name=self.model.name),
                Usage(),
                exc.raw_output or "",
                prompt_chars,
                self.model.name,
            )

        name = response.model_name or self.model.name
        classification = replace(
            self._merge(response.output, claims, passages, offline), usage=response.usage, model_name=name
        )
        return JudgeRun(classification, response.usage, response.raw_text, prompt_chars, name)

    def build_messages(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
    ) -> list[Message]:
        """The system prompt and one user message: question, numbered passages, numbered claims."""
        lines: list[str] = []
        if question and question.strip():
            lines += [f"Question: {_clip(question, self.max_claim_chars)}", ""]
        lines.append("Passages:")
        lines += [f"[P{i}] {_clip(text, self.max_passage_chars)}" for i, text in enumerate(passages, 1)]
        lines += ["", "Claims:"]
        lines += [f"[{i}] {_clip(claim.text, self.max_claim_chars)}" for i, claim in enumerate(claims, 1)]
        return [Message("system", JUDGE_SYSTEM_PROMPT), Message("user", "\n".join(lines))]

    # ------------------------------------------------------------------ merging

    def _merge(
        self,
        output: JudgeOutput,
        claims: Sequence[Span],
        passages: Sequence[str],
        offline: Classification,
    ) -> Classification:
        notes = list(offline.notes)
        items: dict[int, JudgeItem] = {}
        for proposed in output.claims:
            index = proposed.claim_index - 1
            if not 0 <= index < len(claims):
                notes.append(f"judge_index_out_of_range:{proposed.claim_index}")
            elif index in items:
                notes.append(f"judge_duplicate_claim:{proposed.claim_index}")
            else:
                items[index] = proposed

        assessments: list[ClaimAssessment] = []
        for index, off in enumerate(offline.assessments):
            item = items.get(index)
            evidence: tuple[EvidenceSpan, ...] = ()
            if item is None:
                category, key = FactCategory.NO_EVIDENCE, off.key
                reasons = ["judge_missing_claim"]
                rationale = ""
            else:
                category, evidence, reasons = self._check_item(item, passages)
                key = item.key or off.key
                if off.key and not item.key:
                    reasons.append("offline_key")
                rationale = _clip(item.rationale, self.max_rationale_chars)
            reasons.append(f"offline:{off.category.value}")
            if off.deterministic_contradiction:
                category = FactCategory.CONTRADICTED
                evidence = (*off.evidence, *(span for span in evidence if span not in off.evidence))
                reasons += [*off.reason_codes, "deterministic_override"]
                rationale = off.rationale or rationale
            assessments.append(
                ClaimAssessment(
                    category=category,
                    # A contradiction is always a key fact, whoever found it (design §2.1).
                    key=key or category is FactCategory.CONTRADICTED,
                    evidence=evidence,
                    reason_codes=tuple(dict.fromkeys(reasons)),
                    deterministic_contradiction=off.deterministic_contradiction,
                    rationale=rationale,
                    # The offline score stands only where the model agrees with its category.
                    support_score=off.support_score if category is off.category else None,
                    units=off.units,
                )
            )
        return Classification(assessments, checker="llm", judge_status=ParseStatus.OK, notes=notes)

    def _check_item(
        self, item: JudgeItem, passages: Sequence[str]
    ) -> tuple[FactCategory, tuple[EvidenceSpan, ...], list[str]]:
        """The model's category after its excerpt was checked against the named passage."""
        category = item.category
        reasons = [f"judge:{category.value}"]
        excerpt = (item.excerpt or "").strip()
        span: EvidenceSpan | None = None
        if item.passage is None or not excerpt:
            reasons.append("judge_excerpt_missing")
        elif not 1 <= item.passage <= len(passages):
            reasons.append("judge_passage_out_of_range")
        else:
            passage = item.passage - 1
            found = find_tolerant(excerpt, passages[passage])
            if found is None:
                reasons.append("judge_excerpt_not_found")
            else:
                start, end = found
                span = EvidenceSpan(
                    passage=passage, start=start, end=end, excerpt=passages[passage][start:end]
                )
                reasons.append("judge_excerpt_verified")
        if span is None and category is FactCategory.DIRECT_EVIDENCE:
            category = FactCategory.INDIRECT_SUPPORT
            reasons.append("judge_excerpt_unverified")
        return category, (() if span is None else (span,)), reasons


# --------------------------------------------------------------------------- helpers


def _offline_copy(offline: Classification, status: ParseStatus, note: str) -> Classification:
    return Classification(
        assessments=list(offline.assessments),
        checker="offline",
        judge_status=status,
        notes=[*offline.notes, note],
    )


def _parse_status(value: str) -> ParseStatus:
    try:
        return ParseStatus(value)
    except ValueError:
        return ParseStatus.ERROR


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

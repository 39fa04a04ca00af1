"""`check`: the grounding checker as a product. Split, classify, then compute verdict and score."""

from __future__ import annotations

from collections.abc import Sequence

from groundgate.contracts import CheckedClaim, CheckRequest, CheckResult, FactCategory, Verdict
from groundgate.contracts.grounding_check import CheckedUnit, QuestionCoverage
from groundgate.models.base import Model
from groundgate.verify.assessment import ClaimClassifier, classify_within
from groundgate.verify.budget import BUDGET_TIME_EXCEEDED, Deadline
from groundgate.verify.claims import split_claims
from groundgate.verify.matrix import CATEGORY_SCORES, compute_verdict
from groundgate.verify.offline_checker import OfflineChecker
from groundgate.verify.question import question_coverage

_DEFAULT_CHECKER = OfflineChecker()


def check_request(
    request: CheckRequest,
    classifier: ClaimClassifier | None = None,
    *,
    deadline: Deadline | None = None,
) -> CheckResult:
    """Check one request with the given classifier (the offline checker when None).

    Past `deadline` the claims not yet assessed are `no_evidence` (reason `budget:time_exceeded`) and
    the verdict is at best `LOW_CONFID` with the rationale `budget:time_exceeded`: an answer checked
    only in part has not been shown to be grounded. A contradiction found in time still rejects it.
    """
    classifier = classifier or _DEFAULT_CHECKER
    claims = split_claims(request.answer)
    classification = classify_within(
        classifier, claims, request.context, question=request.question, deadline=deadline
    )
    checked = [
        CheckedClaim(
            text=span.text,
            start=span.start,
            end=span.end,
            # A contradiction is always a key fact, whoever classified it (issue 10 item 1).
            key=assessment.key or assessment.category is FactCategory.CONTRADICTED,
            category=assessment.category,
            evidence=list(assessment.evidence),
            reason_codes=list(assessment.reason_codes),
            rationale=assessment.rationale,
            support_score=_support_score(assessment.category, assessment.support_score),
            units=[
                CheckedUnit(
                    text=u.span.text,
                    start=u.span.start,
                    end=u.span.end,
                    category=u.category,
                    support_score=_support_score(u.category, u.support_score),
                    reason_codes=list(u.reason_codes),
                )
                for u in assessment.units
            ],
        )
        for span, assessment in zip(claims, classification.assessments, strict=True)
    ]
    outcome = compute_verdict(c.category for c in checked if c.key)
    verdict, rationale = outcome.verdict, outcome.reason
    if BUDGET_TIME_EXCEEDED in classification.notes and verdict is not Verdict.REJECT:
        verdict, rationale = Verdict.LOW_CONFID, BUDGET_TIME_EXCEEDED
    coverage: QuestionCoverage | None = None
    unaddressed: list[str] = []
    if request.question and request.question.strip() and request.answer.strip():
        supported = (FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT)
        excerpts = [e.excerpt for c in checked if c.category in supported for e in c.evidence]
        coverage, unaddressed = question_coverage(request.question, request.answer, excerpts)
        if coverage is QuestionCoverage.NOT_ADDRESSED and verdict is Verdict.PASS:
            # Grounded, but about something else: the answer has not been shown to answer anything.
            verdict, rationale = Verdict.LOW_CONFID, "question_not_addressed"
    key_scores = [c.support_score for c in checked if c.key]
    return CheckResult(
        id=request.id,
        verdict=verdict,
        groundedness_score=outcome.groundedness_score,
        critical_fact_count=outcome.critical_fact_count,
        claims=checked,
        checker="llm" if classification.checker == "llm" else "offline",
        judge_status=classification.judge_status,
        rationale=rationale,
        support_score=min(key_scores) if key_scores else 0.0,
        addresses_question=coverage,
        unaddressed_parts=unaddressed,
    )


def _support_score(category: FactCategory, score: float | None) -> float:
    """The claim's support in [0, 1]: the classifier's score where it has one (0 when contradicted),
    else the seed score of its category."""
    if category is FactCategory.CONTRADICTED:
        return 0.0
    value = CATEGORY_SCORES[category] if score is None else score
    return round(min(1.0, max(0.0, value)), 4)


def check(
    *,
    context: str | Sequence[str],
    answer: str,
    question: str | None = None,
    model: Model | None = None,
    classifier: ClaimClassifier | None = None,
    deadline: Deadline | None = None,
) -> CheckResult:
    """Check `answer` against `context` passages; every key fact must be grounded.

    With `model`, an LLM judge classifies the claims (the offline checker stands in if the model
    fails, and its deterministic contradictions always win); without, the offline checker does.
    Either way verdict and score are computed by code. `classifier` overrides both. `deadline`: see
    `check_request` (no size or time limit applies unless given; `groundgate check` and
    `POST /api/check` apply `[check]` settings through `groundgate.apps.grounding_check`).
    """
    if classifier is None and model is not None:
        from groundgate.verify.judge import LLMJudge

        classifier = LLMJudge(model, fallback=_DEFAULT_CHECKER)
    passages = [context] if isinstance(context, str) else list(context)
    return check_request(
        CheckRequest(context=passages, answer=answer, question=question), classifier, deadline=deadline
    )

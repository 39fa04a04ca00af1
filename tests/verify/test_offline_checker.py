"""The offline checker on its own: each claim classified against the passages by lexical support and
the deterministic fidelity checks, with its thresholds, repeated sentences and the deadline."""

from __future__ import annotations

import time

from groundgate.contracts import FactCategory, ParseStatus
from groundgate.text import Span
from groundgate.verify.budget import BUDGET_TIME_EXCEEDED, Deadline
from groundgate.verify.claims import split_claims
from groundgate.verify.offline_checker import CheckerThresholds, OfflineChecker

POLICY = "差旅住宿标准：一线城市每晚不超过 600 元，其他城市每晚不超过 400 元。超标部分需部门总监审批。"
RUNBOOK = (
    "ERR_TIMEOUT is returned by the payment gateway when the bank channel does not answer within "
    "3000 ms. The on-call engineer checks the payment-db connection pool first."
)


def _classify(answer: str, passages: list[str], checker: OfflineChecker | None = None) -> list[FactCategory]:
    result = (checker or OfflineChecker()).classify(split_claims(answer), passages)
    return [a.category for a in result.assessments]


def test_a_claim_the_passage_states_is_direct_evidence_with_its_span() -> None:
    answer = (
        "ERR_TIMEOUT is returned by the payment gateway when the bank channel does not answer within 3000 ms."
    )
    result = OfflineChecker().classify(split_claims(answer), [RUNBOOK])
    (assessment,) = result.assessments
    assert assessment.category is FactCategory.DIRECT_EVIDENCE
    assert assessment.key
    (span,) = assessment.evidence[:1]
    assert span.passage == 0
    assert RUNBOOK[span.start : span.end] == span.excerpt
    assert result.checker == "offline"
    assert result.judge_status is ParseStatus.NOT_CALLED
    assert result.model_name == ""
    assert result.usage.total_tokens == 0


def test_a_changed_number_is_contradicted_in_code() -> None:
    answer = (
        "ERR_TIMEOUT is returned by the payment gateway when the bank channel does not answer within 5000 ms."
    )
    (assessment,) = OfflineChecker().classify(split_claims(answer), [RUNBOOK]).assessments
    assert assessment.category is FactCategory.CONTRADICTED
    assert assessment.deterministic_contradiction
    assert any(code.startswith("fidelity:") for code in assessment.reason_codes)


def test_a_flipped_negation_is_contradicted_in_chinese() -> None:
    assert _classify("一线城市住宿每晚最多报销 600 元。超标部分无需审批。", [POLICY]) == [
        FactCategory.DIRECT_EVIDENCE,
        FactCategory.CONTRADICTED,
    ]


def test_a_claim_about_something_else_has_no_evidence() -> None:
    assert _classify("The failover was triggered by a kernel upgrade.", [RUNBOOK]) == [
        FactCategory.NO_EVIDENCE
    ]


def test_without_passages_a_plain_claim_has_no_evidence_and_an_identifier_is_invented() -> None:
    assert _classify("The failover was triggered by a kernel upgrade.", []) == [FactCategory.NO_EVIDENCE]
    # An error code no passage has is a fabricated identifier: contradicted, whatever the context.
    assert _classify("ERR_TIMEOUT is returned by the payment gateway.", []) == [FactCategory.CONTRADICTED]


def test_stricter_thresholds_demote_partial_support() -> None:
    answer = "The on-call engineer checks the connection pool of payment-db before anything else."
    default = _classify(answer, [RUNBOOK])
    strict = _classify(answer, [RUNBOOK], OfflineChecker(CheckerThresholds(direct=0.99, indirect=0.98)))
    assert default[0] in (FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT)
    assert strict == [FactCategory.NO_EVIDENCE]


def test_a_repeated_sentence_is_assessed_once_and_keeps_its_own_offsets() -> None:
    sentence = "ERR_TIMEOUT is returned by the payment gateway."
    answer = f"{sentence} {sentence}"
    claims = split_claims(answer)
    first, second = OfflineChecker().classify(claims, [RUNBOOK]).assessments
    assert first.category is second.category
    assert [u.span.start - claims[0].start for u in first.units] == [
        u.span.start - claims[1].start for u in second.units
    ]


def test_past_the_deadline_the_rest_is_no_evidence_and_noted() -> None:
    claims = [Span("ERR_TIMEOUT is returned by the payment gateway.", 0, 47)] * 3
    result = OfflineChecker().classify(claims, [RUNBOOK], deadline=Deadline.after(0.0, time.monotonic))
    assert [a.category for a in result.assessments] == [FactCategory.NO_EVIDENCE] * 3
    assert BUDGET_TIME_EXCEEDED in result.notes


def test_the_bundled_synonym_table_is_found() -> None:
    """The table falls back to empty when its data file is missing, silently weakening support
    scoring: it must be found where the lexicon lives (`groundgate/text/data`)."""
    from groundgate.verify.synonyms import default_table

    table = default_table()
    assert len(table.zh) > 300
    assert len(table.en) > 300


def test_an_english_claim_needs_more_word_support_than_a_chinese_one_for_direct_evidence() -> None:
    from groundgate.verify.offline_checker import _direct_bar

    t = CheckerThresholds()
    assert _direct_bar("The pool is full.", t, record=False) > _direct_bar("连接池已满。", t, record=False)
    assert _direct_bar("The pool is full.", t, record=True) == t.direct  # records: field by field
    assert _direct_bar("The pool is full.", CheckerThresholds(direct=0.9), record=False) == 0.9

"""The verdict matrix and score mapping of seed 000, row by row (DESIGN invariant 4)."""

from __future__ import annotations

import pytest

from groundgate.contracts import FactCategory, Verdict
from groundgate.verify.matrix import CATEGORY_SCORES, compute_verdict, groundedness_score

D = FactCategory.DIRECT_EVIDENCE
I = FactCategory.INDIRECT_SUPPORT  # noqa: E741 - the seed's initials read best in a matrix
N = FactCategory.NO_EVIDENCE
C = FactCategory.CONTRADICTED


def test_score_mapping_is_the_seeds() -> None:
    assert CATEGORY_SCORES == {D: 1.0, I: 0.6, N: 0.0, C: 0.0}


@pytest.mark.parametrize(
    ("categories", "verdict", "score", "reason"),
    [
        # REJECT: any contradicted key fact, score forced to 0.0 whatever else is there
        ([C], Verdict.REJECT, 0.0, "key_fact_contradicted"),
        ([D, D, C], Verdict.REJECT, 0.0, "key_fact_contradicted"),
        ([D, I, N, C], Verdict.REJECT, 0.0, "key_fact_contradicted"),
        # PASS: all direct/indirect and at least one direct
        ([D], Verdict.PASS, 1.0, "all_key_facts_supported"),
        ([D, D, D], Verdict.PASS, 1.0, "all_key_facts_supported"),
        ([D, I], Verdict.PASS, 0.8, "all_key_facts_supported"),
        ([D, I, I, I], Verdict.PASS, 0.7, "all_key_facts_supported"),
        # LOW_CONFID: some no_evidence ...
        ([N], Verdict.LOW_CONFID, 0.0, "key_fact_without_evidence"),
        ([D, N], Verdict.LOW_CONFID, 0.5, "key_fact_without_evidence"),
        ([D, D, D, N], Verdict.LOW_CONFID, 0.75, "key_fact_without_evidence"),
        ([I, N], Verdict.LOW_CONFID, 0.3, "key_fact_without_evidence"),
        # ... or only indirect support, no direct anchor
        ([I], Verdict.LOW_CONFID, 0.6, "only_indirect_support"),
        ([I, I, I], Verdict.LOW_CONFID, 0.6, "only_indirect_support"),
    ],
)
def test_verdict_matrix(categories: list[FactCategory], verdict: Verdict, score: float, reason: str) -> None:
    outcome = compute_verdict(categories)
    assert outcome.verdict is verdict
    assert outcome.groundedness_score == pytest.approx(score)
    assert outcome.critical_fact_count == len(categories)
    assert outcome.reason == reason


def test_zero_key_facts_fail_closed() -> None:
    outcome = compute_verdict([])
    assert outcome.verdict is Verdict.LOW_CONFID
    assert outcome.groundedness_score == 0.0
    assert outcome.critical_fact_count == 0
    assert outcome.reason == "no_key_facts"


def test_order_does_not_matter() -> None:
    assert compute_verdict([N, D, I]) == compute_verdict([I, N, D])


def test_score_is_mean_and_within_bounds() -> None:
    assert groundedness_score([D, I, N]) == pytest.approx((1.0 + 0.6 + 0.0) / 3, abs=1e-4)
    for cats in ([D] * 50, [I] * 7, [N] * 3, [D, I, N] * 11):
        assert 0.0 <= groundedness_score(cats) <= 1.0


def test_contradiction_zeroes_score_even_with_strong_support() -> None:
    assert groundedness_score([D] * 20 + [C]) == 0.0


def test_accepts_any_iterable() -> None:
    assert compute_verdict(iter([D, I])).verdict is Verdict.PASS

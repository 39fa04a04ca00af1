"""The reason an answer gives must be one the evidence states (docs/design.md §2.1, "Causes")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.causes import cause_phrases
from groundgate.verify.grounding_check import check

_ZH_REPORT = (
    "二季度毛利率 41.5%，比一季度下降 1.2 个百分点，财务总监刘珊表示主要原因是新工厂投产初期良率偏低。"
)
_EN_INCIDENT = (
    "Checkout latency rose after the 14:00 deploy because the new release dropped an index on the "
    "orders table; rolling back restored p99 latency to 180 ms."
)


@pytest.mark.parametrize(
    ("text", "causes"),
    [
        ("毛利率下降主要是因为原材料涨价。", ["原材料涨价"]),
        ("因为薪资已含加班补贴，所以不再另算加班费。", ["薪资已含加班补贴"]),
        ("增长主要得益于海外市场的快速扩张，海外收入占比 35%。", ["海外市场的快速扩张"]),
        ("Latency rose because the cache was evicted, then recovered.", ["the cache was evicted"]),
        ("The outage was caused by a bad certificate.", ["a bad certificate"]),
        ("连接池被耗尽，导致下单接口超时。", ["下单接口超时"]),
        ("The index was dropped, leading to slow checkouts.", ["slow checkouts"]),
        ("毛利率下降了 1.2 个百分点。", []),
        ("Latency rose after the deploy.", []),
        # `due to` before a verb is a schedule, not a cause
        ("Work is due to begin in March 2025 and take two years.", []),
        ("The outage was due to a bad config.", ["a bad config"]),
    ],
)
def test_the_cause_a_sentence_gives_is_read_up_to_the_end_of_its_clause(text: str, causes: list[str]) -> None:
    found = cause_phrases(text)
    assert [c.text for c in found] == causes
    assert all(text[c.start : c.end] == c.text for c in found)


@pytest.mark.parametrize(
    ("evidence", "answer", "passes"),
    [
        (_ZH_REPORT, "毛利率下降主要是因为新工厂投产初期良率偏低。", True),
        (_ZH_REPORT, "毛利率下降主要是因为原材料涨价。", False),
        # The cause retold in other words: `涨价` for `价格上涨`.
        (
            "公司表示，三季度利润下滑主要受原材料价格上涨影响。",
            "公司将三季度利润下滑归因于原材料涨价。",
            True,
        ),
        (_ZH_REPORT, "新工厂良率偏低导致公司更换了核心供应商。", False),
        (
            _EN_INCIDENT,
            "Checkout latency rose because the new release dropped an index on the orders table.",
            True,
        ),
        (
            _EN_INCIDENT,
            "Checkout latency rose because the Redis cache cluster was evicted by the scheduler.",
            False,
        ),
    ],
)
def test_an_invented_cause_is_not_passed_and_a_stated_one_is(
    evidence: str, answer: str, passes: bool
) -> None:
    result = check(context=evidence, answer=answer)
    assert (result.verdict is Verdict.PASS) is passes, [c.reason_codes for c in result.claims]
    if not passes:
        # English splits at `because`, so there the cause is also an unsupported clause of its own.
        codes = [code for c in result.claims for code in c.reason_codes]
        assert any(code.startswith(("cause_not_in_evidence:", "unit_unsupported:because")) for code in codes)

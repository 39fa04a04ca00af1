"""Exclusive values (verify/swaps.py): another schedule, numbered kind or rank than the evidence
window states leaves a claim unjudged; a rate's period and a value the window also states do not."""

from __future__ import annotations

import pytest

from groundgate.contracts import FactCategory, Verdict
from groundgate.verify import check
from groundgate.verify.swaps import exclusive_swaps


@pytest.mark.parametrize(
    ("claim", "window", "pairs"),
    [
        # schedules: how often
        (
            "补贴按月打入申请人的社会保障卡。",
            "补贴按季度发放，直接打入申请人的社会保障卡账户。",
            [("month", "quarter")],
        ),
        ("租房提取每个季度可以办理一次。", "租房提取每年可办理一次。", [("quarter", "year")]),
        ("Trash pickup will move to every other week.", "Trash pickup remains weekly.", [("2-week", "week")]),
        ("Backups run monthly.", "Backups run quarterly.", [("month", "quarter")]),
        # a rate's period is the unit of its figure, not a schedule
        ("一孩每月 300 元。", "补贴按季度发放，一孩每月 300 元。", []),
        ("It costs $65,000 worth of care annually.", "Care is billed monthly.", []),
        # the window states the claim's value too (for another subject, perhaps): not judged here
        (
            "Trash pickup will move to every other week.",
            "Trash stays weekly; recycling moves to every other week on March 4.",
            [],
        ),
        # numbered kinds
        ("老人可免费接种一剂四价流感疫苗。", "老人可免费接种一剂三价流感疫苗。", [("四价", "三价")]),
        ("供应三价和四价疫苗。", "供应三价和四价灭活疫苗。", []),
        # ranks
        ("She beat top seed Lucía Benítez.", "She beat third seed Lucía Benítez.", [("1 seed", "3 seed")]),
        ("She beat the third-seeded Benítez.", "She beat third seed Lucía Benítez.", []),
    ],
)
def test_a_value_of_an_exclusive_kind_is_paired_with_the_windows_other_value(
    claim: str, window: str, pairs: list[tuple[str, str]]
) -> None:
    assert exclusive_swaps(claim, window) == pairs


def test_a_changed_schedule_is_flagged_but_never_rejected() -> None:
    context = "育儿补贴一孩每月 300 元。补贴按季度发放，直接打入申请人的社会保障卡账户。"
    wrong = check(context=context, answer="育儿补贴一孩每月 300 元，按月发放。")
    assert wrong.verdict is Verdict.LOW_CONFID, [c.reason_codes for c in wrong.claims]
    assert wrong.claims[0].category is FactCategory.NO_EVIDENCE
    assert any(code.startswith("exclusive:") for code in wrong.claims[0].reason_codes)
    right = check(context=context, answer="育儿补贴一孩每月 300 元，按季度发放。")
    assert right.verdict is Verdict.PASS, [c.reason_codes for c in right.claims]


def test_a_changed_schedule_in_one_clause_of_a_longer_sentence_is_flagged() -> None:
    # The sentence's other clause is aligned with another paragraph: the schedule clause is read
    # against its own window, the one that states how often.
    context = (
        "一孩每月 300 元，补贴发放至孩子年满 3 周岁为止。补贴按季度发放，直接打入申请人的社会保障卡账户。\n"
        "在孩子出生后 6 个月内提出申请的，可从出生当月起补发；超过 6 个月申请的，从申请次月起计发。"
    )
    answer = "补贴按月打入申请人的社会保障卡，孩子出生后 6 个月内申请的可从出生当月补发。"
    wrong = check(context=context, answer=answer)
    assert wrong.verdict is not Verdict.PASS, [c.reason_codes for c in wrong.claims]
    assert any(code.startswith("exclusive:") for c in wrong.claims for code in c.reason_codes)
    right = check(context=context, answer=answer.replace("按月", "按季度"))
    assert not any(code.startswith("exclusive:") for c in right.claims for code in c.reason_codes)


RETURNS = (
    "自签收之日起 7 天内，商品未拆封的可无理由退货；生鲜商品不支持无理由退货。"
    "质量问题商品可在 30 天内申请换货，运费由商家承担。"
)


@pytest.mark.parametrize(
    ("claim", "added"),
    [
        ("如果是质量问题，三十天内可以申请退货或换货，运费由商家承担。", [("退货", "换货")]),
        ("如果是质量问题，三十天内可以申请换货，运费由商家承担。", []),
        # the seven-day rule allows returns only: an exchange within a week widens it too
        ("签收后一周内没拆封的可以退货或换货。", [("换货", "退货")]),
    ],
)
def test_an_alternative_the_rule_does_not_allow_is_found(claim: str, added: list[tuple[str, str]]) -> None:
    from groundgate.verify.swaps import added_alternatives

    assert added_alternatives(claim, RETURNS, RETURNS) == added


def test_alternatives_the_rule_itself_offers_are_no_widening() -> None:
    from groundgate.verify.swaps import added_alternatives

    rule = "质量问题商品可在 30 天内申请退货或换货。"
    assert added_alternatives("质量问题三十天内可以退货或换货。", rule, rule) == []

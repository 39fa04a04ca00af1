"""A rule tiered by a case the question leaves out (the city of a trip, the years served) is asked
back for the asker's own figure, and answered with every tier for the rule itself."""

from __future__ import annotations

import pytest

from groundgate.agent.contracts import NeedCode
from groundgate.agent.tiers import LODGING_QUESTION, SERVICE_QUESTION, unstated_tier

AMOUNT = [NeedCode.AMOUNT_RULE]


@pytest.mark.parametrize(
    ("question", "asked_back"),
    [
        ("出差住酒店一晚上能报多少钱？", LODGING_QUESTION),
        ("出差住酒店一晚上限多少钱？", LODGING_QUESTION),
        ("我今年到底能休几天年假？", SERVICE_QUESTION),
        # the case is said: a city, a class of cities, a place abroad, the years served
        ("去西宁出差，酒店一晚能报多少？", None),
        ("二线城市住酒店一晚能报多少？", None),
        ("下个月要去新加坡出差，酒店一晚能报多少？", None),
        ("我干了 12 年了，一年能休几天年假？", None),
        ("我是16年国庆过后入的职，今年年假能休几天呀？", None),
        # the rule itself, or another figure of it: every tier, or the one rule, is the answer
        ("出差住宿标准是多少？", None),
        ("年休假的天数怎么算？", None),
        ("出差订的酒店比标准贵了一百来块，多出来那部分公司给报吗？", None),
        ("年假要提前几天申请？", None),
    ],
)
def test_the_asker_s_own_figure_of_a_tiered_rule_needs_their_case(
    question: str, asked_back: str | None
) -> None:
    assert unstated_tier(question, AMOUNT) == asked_back


def test_only_a_question_about_the_amount_alone_is_asked_back() -> None:
    assert unstated_tier("出差住酒店一晚上能报多少钱？需要什么单据？", [*AMOUNT, NeedCode.MATERIALS]) is None

"""General rules of session 31's blind 24 set, second round: off-topic asks, phone-typed cues,
comparisons of two leave kinds, the difference of two cited caps, and session turns that correct an
earlier one or carry a count."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from groundgate.agent import NeedCode
from groundgate.agent.apart import compared_words
from groundgate.agent.carried import count_carried
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import GroundedStatement
from groundgate.agent.difference import read_class_pair, worked_difference
from groundgate.agent.offtopic import asks_off_topic
from groundgate.agent.vocabulary import NEED_CUES
from groundgate.demo.hr.evaluation import demo_context

OFF_TOPIC = [
    ("你是谁", True),
    ("请问你是什么？", True),
    ("你背后用的啥模型", True),
    ("你底层是什么大模型？", True),
    ("帮我写封请假邮件", True),
    ("替我起草一份出差总结", True),
    ("婚假几天", False),
    ("帮我提交报销单", False),
    ("请假要写申请吗？", False),
]


@pytest.mark.parametrize(("question", "off"), OFF_TOPIC)
def test_asks_about_the_assistant_or_to_compose_a_text_are_off_topic(question: str, off: bool) -> None:
    assert asks_off_topic(question) is off


PHONE_CUES = [
    ("病假3天 要病历吗", NeedCode.MATERIALS),
    ("报销要发票不", NeedCode.MATERIALS),
    ("试用期有年假没", NeedCode.ELIGIBILITY),
    ("实习生有病假不", NeedCode.ELIGIBILITY),
    ("入职3年 婚假和年假哪个天数多", NeedCode.AMOUNT_RULE),
]


@pytest.mark.parametrize(("question", "need"), PHONE_CUES)
def test_a_phone_typed_ask_without_punctuation_still_names_its_need(question: str, need: NeedCode) -> None:
    assert NEED_CUES[need].search(question)


COMPARED = [
    ("婚假和年假哪个要提前申请", ["婚假", "年假"]),
    ("病假和婚假 工资咋算 有啥不同", ["病假", "婚假"]),
    ("病假和年假 审批有啥区别", ["病假", "年假"]),
    ("一线城市和二线城市 住宿一晚差多少", ["一线城市", "二线城市"]),
    ("婚假要交啥材料", []),
]


@pytest.mark.parametrize(("question", "words"), COMPARED)
def test_two_words_set_side_by_side_are_each_judged_alone(question: str, words: list[str]) -> None:
    assert compared_words(question) == words


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("一线和二线 住宿一晚差多少", "一线城市和二线城市 住宿一晚差多少"),
        ("一线跟二线城市差多少", "一线城市跟二线城市差多少"),
        ("一线城市住宿标准", "一线城市住宿标准"),
    ],
)
def test_two_city_classes_typed_short_are_read_as_classes_of_cities(question: str, read: str) -> None:
    assert read_class_pair(question) == read


def _amount(text: str) -> GroundedStatement:
    return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=[f"doc:{text[:2]}"])


DIFFERENCES = [
    (
        "一线城市和二线城市 住宿一晚差多少",
        ["一线城市每晚不超过 600 元", "二线城市每晚不超过 450 元"],
        "相差 150 元",
    ),
    ("一线城市和二线城市 住宿一晚差多少", ["一线城市每晚不超过 600 元"], None),
    ("一线城市和二线城市 住宿标准各是多少", ["一线城市每晚不超过 600 元", "二线城市每晚不超过 450 元"], None),
]


@pytest.mark.parametrize(("question", "texts", "worked"), DIFFERENCES)
def test_a_difference_is_worked_only_from_one_cited_figure_per_side(
    question: str, texts: list[str], worked: str | None
) -> None:
    found = worked_difference(question, [_amount(t) for t in texts])
    if worked is None:
        assert found is None
    else:
        assert found is not None
        assert worked in found.text
        assert found.citations == ["doc:一线", "doc:二线"]


@pytest.mark.parametrize(
    ("earlier", "turn", "resolved"),
    [
        ("3月到期的待办", "不对 4月的", "4月到期的待办"),
        ("婚假 要交啥", "不对 病假", "病假 要交啥"),
        # the turn's own clauses are set apart by its spaces (session 33, `agent.slang`)
        ("二线城市住宿 一晚多少", "住4晚 一共多少", "二线城市住宿 一晚多少，住4晚，一共多少？"),
    ],
)
def test_a_short_turn_corrects_or_carries_the_earlier_question(
    earlier: str, turn: str, resolved: str
) -> None:
    state = ConversationState(questions=[earlier])
    now = datetime(2026, 4, 15, 9, tzinfo=UTC)
    assert resolve_context(turn, state, demo_context("u-li"), now).resolved_question == resolved


@pytest.mark.parametrize(
    ("turn", "previous"),
    [
        ("住4晚 一共多少", "深圳住5晚 住宿最多能报多少"),
        ("住4晚 一共多少", "婚假要交啥"),
        ("住4晚 要交啥", "二线城市住宿 一晚多少"),
    ],
)
def test_no_count_is_carried_onto_a_question_with_its_own_count_or_no_rate(turn: str, previous: str) -> None:
    assert count_carried(turn, previous) is None

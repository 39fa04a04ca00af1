"""Two asks in one message (session 31): a domain word of a part that asks no need is no condition on
the other part's need, the verb done with an asked noun is no subject, words set side by side with 各
are compared, and two policies of two domains are compared one reading each."""

from __future__ import annotations

import pytest

from groundgate.agent import NeedCode
from groundgate.agent.across import policies_compared, read_per_policy
from groundgate.agent.apart import compared_words, per_word
from groundgate.agent.subjects import need_subject


@pytest.mark.parametrize(
    ("question", "need", "not_a_condition", "kept"),
    [
        (
            "下属入职满12年了，这次想连休8天年假，我作为直属主管批完还要谁批？另外她休年假期间绩效奖金照发吗？",
            NeedCode.APPROVAL,
            "绩效",
            "年假",
        ),
        (
            "刚入职的新人，想问两件事：试用期一般是几个月？另外病假期间的工资怎么算？",
            NeedCode.AMOUNT_RULE,
            "试用期",
            "病假",
        ),
        (
            "下属的差旅报销，按规定要核对哪些票据？制度对审批人有没有规定几天内必须批完？",
            NeedCode.MATERIALS,
            "核对",
            "差旅",
        ),
    ],
)
def test_a_word_of_another_ask_is_no_condition_on_the_need_asked_beside_it(
    question: str, need: NeedCode, not_a_condition: str, kept: str
) -> None:
    subject = need_subject(question, need)
    assert not_a_condition not in subject
    assert kept in subject


@pytest.mark.parametrize(
    ("question", "compared"),
    [
        ("下周去广州出差3天，住宿上限和伙食补贴各是多少？", ["住宿", "伙食"]),
        ("住宿和伙食分别多少？", ["住宿", "伙食"]),
        # one word of the class, or no comparison: nothing compared
        ("各部门的住宿标准一样吗？", []),
        ("住宿和伙食都能报吗？", []),
    ],
)
def test_words_set_side_by_side_with_ge_are_compared_like_fenbie(question: str, compared: list[str]) -> None:
    assert compared_words(question) == compared


@pytest.mark.parametrize(
    ("question", "readings"),
    [
        (
            "出差回来就发烧了，请了4天病假。病假要交的材料和差旅报销要交的材料分别是啥？",
            ["病假要交的材料和病假报销要交的材料分别是啥？", "差旅要交的材料和差旅报销要交的材料分别是啥？"],
        ),
        ("婚假和出差分别要交什么材料？", ["婚假和婚假分别要交什么材料？", "差旅和出差分别要交什么材料？"]),
        # two kinds of leave are one class (`apart`), and a part comparing nothing is read whole
        ("病假和年假分别找谁批？", []),
        ("出差回来请病假要交什么材料？", []),
    ],
)
def test_two_policies_of_two_domains_are_read_once_each(question: str, readings: list[str]) -> None:
    assert read_per_policy(question) == readings
    assert bool(policies_compared(question)) == bool(readings)
    if readings:
        assert per_word(question, NeedCode.MATERIALS) == readings

"""General rules of session 31's blind set (blind 20): a manager's own approving as circumstance, a
rambling message read from its point, chat English times and typos, the week after next, an approver
put up for checking, a premise with a wrong figure, and an earlier time in a follow-up."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from groundgate.agent import NeedCode
from groundgate.agent.approving import approver_checked, read_approving
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.english import read_mixed
from groundgate.agent.rambling import to_the_point
from groundgate.agent.vocabulary import NEED_CUES, OFFERED_FIGURES, TIME_WORDS
from groundgate.demo.hr.evaluation import demo_context


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "审批下属的病假时，她交的诊断证明得是什么级别的医院开的？",
            "下属的病假，她交的诊断证明得是什么级别的医院开的？",
        ),
        (
            "我在审批下属的差旅报销单，她出差4天，伙食补贴报了480，对不对？",
            "下属的差旅报销单，她出差4天，伙食补贴报了480，对不对？",
        ),
        ("下属要请假，我审批前要看她交什么证明？", "下属要请假，要看她交什么证明？"),
        ("他的差旅费我这边能直接批给他报吗？", "他的差旅费，能直接报销吗？"),
        # a task the asker must approve is no circumstance
        (
            "我要审批张伟的北京差旅报销单，这条待办哪天截止？",
            "我要审批张伟的北京差旅报销单，这条待办哪天截止？",
        ),
        ("我作为直属主管批完还要谁批？", "我作为直属主管批完还要谁批？"),
    ],
)
def test_a_managers_own_approving_is_read_as_circumstance_not_as_the_approver_asked(
    question: str, read_as: str
) -> None:
    assert read_approving(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "唉这周真是乱成一锅粥，周一到现在开了八个会……说正事：我那条报销的待办还剩几天截止来着？",
            "我那条报销的待办还剩几天截止来着？",
        ),
        (
            "家里催着办酒，酒店也还没定，上班都走神……扯远了，其实就想问一句：婚假要交啥材料给公司？",
            "婚假要交啥材料给公司？",
        ),
        ("最近项目收尾了忙得不行，言归正传，年假几天？", "年假几天？"),
        # a short opener is no rambling, and a message without a marker is read whole
        ("想问下：婚假几天？", "想问下：婚假几天？"),
        ("下周去北京出差，住宿上限多少？", "下周去北京出差，住宿上限多少？"),
    ],
)
def test_a_rambling_message_is_read_from_where_it_comes_to_the_point(question: str, read_as: str) -> None:
    assert to_the_point(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("next Monday我有啥ddl？", "下周一我有啥ddl？"),
        ("this Friday有啥到期的", "本周五有啥到期的"),
        ("bx materails要准备啥？", "bx材料要准备啥？"),
        ("tomorrow有啥要交的", "明天有啥要交的"),
    ],
)
def test_chat_english_days_and_a_misspelt_materials_are_read_in_chinese(question: str, read_as: str) -> None:
    assert read_mixed(question) == read_as


@pytest.mark.parametrize("word", ["下下周", "下下礼拜", "下下星期"])
def test_the_week_after_next_is_a_task_window_of_its_own_not_next_week(word: str) -> None:
    assert word in TIME_WORDS


@pytest.mark.parametrize(
    ("question", "checked"),
    [
        ("差旅报销超过3000就得财务总监签字了对吧？", True),
        ("报销5000以上是不是要财务总监审批？", True),
        # the amount itself is asked beside the approver
        ("超过3000对吧？住宿上限多少？谁审批？", False),
        ("差旅报销找谁批？", False),
    ],
)
def test_an_approver_put_up_for_checking_with_a_threshold_asks_the_approval_rule_alone(
    question: str, checked: bool
) -> None:
    assert approver_checked(question) is checked


@pytest.mark.parametrize(
    ("question", "need"),
    [
        ("她交的诊断证明得是什么级别的医院开的？", NeedCode.MATERIALS),
        ("发票要什么样的？", NeedCode.MATERIALS),
        ("试用期年假有没", NeedCode.ELIGIBILITY),
        ("实习生差旅有没有", NeedCode.ELIGIBILITY),
    ],
)
def test_the_kind_of_a_document_and_a_bare_has_it_ask_their_needs(question: str, need: NeedCode) -> None:
    assert NEED_CUES[need].search(question)


@pytest.mark.parametrize("question", ["病假工资不是只发70%吗？", "婚假不是只有3天吗？"])
def test_a_wrong_figure_in_a_premise_is_offered_for_checking(question: str) -> None:
    assert OFFERED_FIGURES.search(question)


@pytest.mark.parametrize(
    ("earlier", "follow_up", "resolved"),
    [
        (
            "下周去深圳出差，伙食补贴一天多少？",
            "那去年十一月那趟呢？",
            "去年十一月去深圳出差，伙食补贴一天多少？",
        ),
        ("这礼拜有啥到期的？", "那下下周呢？", "下下周有啥到期的？"),
    ],
)
def test_a_follow_up_naming_another_time_replaces_the_earlier_questions_time(
    earlier: str, follow_up: str, resolved: str
) -> None:
    state = ConversationState(questions=[earlier])
    now = datetime(2026, 4, 15, 9, tzinfo=UTC)
    assert resolve_context(follow_up, state, demo_context("u-li"), now).resolved_question == resolved

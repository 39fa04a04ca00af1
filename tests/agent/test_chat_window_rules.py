"""Rules of session 33 (blind set 27): colleagues typing in a chat window — slang for the documents' words,
clauses set apart by spaces, a task named back after an unclear question, a third person carrying the
earlier turn's subject, two asks of one subject judged apart, and totals over nights said in words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from _agent_rules import CTX, NOW, task_fact
from groundgate.agent import ConversationState, NeedCode
from groundgate.agent.apart import per_word
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import ContextRelation, GroundedStatement
from groundgate.agent.holders import someone_elses_tasks
from groundgate.agent.named_back import task_named_back
from groundgate.agent.slang import read_slang
from groundgate.agent.task_pointers import pointed_task
from groundgate.agent.totals import worked_total


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("年休请4天", "年假请4天"),
        ("年休计划那条", "年休假计划那条"),
        ("没休完的AL", "没休完的年假"),
        ("差旅报个销", "差旅报销"),
        ("三月差旅报账那条", "三月差旅报销那条"),
        ("帝都出差", "北京出差"),
        ("去魔都跑客户", "去上海跑客户"),
        ("住俩晚", "住两晚"),
        ("1k2的话", "1200元的话"),
    ],
)
def test_chat_slang_is_read_as_the_documents_words(typed: str, read: str) -> None:
    assert read_slang(typed) == read


@pytest.mark.parametrize("kept", ["ALL of them", "u-al 的待办", "AL2 号"])
def test_a_latin_al_inside_a_word_or_identifier_is_no_annual_leave(kept: str) -> None:
    assert "年假" not in read_slang(kept)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("婚假几天来着 能拆成两段休不", "婚假几天来着？能拆成两段休吗？"),
        ("病假工资咋算 一年最多能请几天病假", "病假工资咋算？一年最多能请几天病假？"),
        ("下周一想休个AL 今天才提来得及不", "下周一想休个年假，今天才提来得及吗？"),
        # a closing remark that asks nothing and names nothing is no part of the question
        ("饭补一天一百还是一百二 群里吵起来了", "饭补一天一百还是一百二？"),
        # a clause with a count states a case and stays
        ("我入职三年了 年假几天", "我入职三年了，年假几天？"),
    ],
)
def test_spaces_of_an_unpunctuated_chat_message_set_its_clauses_apart(typed: str, read: str) -> None:
    assert read_slang(typed) == read


def test_a_punctuated_message_keeps_its_writers_punctuation() -> None:
    assert read_slang("婚假几天？能拆成两段 休吗？") == "婚假几天？能拆成两段 休吗？"


def test_a_turn_naming_only_the_task_asks_the_earlier_question_of_it() -> None:
    assert task_named_back("哦，王芳病假那条", "我那个审批的活还没弄吧") == "王芳病假那条待办还没弄吧"
    assert task_named_back("王芳病假那条", "年假几天？") is None
    assert task_named_back("王芳病假那条什么时候截止", "我那个审批的活还没弄吧") is None


def test_a_third_person_opening_a_need_carries_the_earlier_turns_subject() -> None:
    state = ConversationState()
    state.remember("王芳病假那条待办还没弄吧", [], [])
    resolved = resolve_context("她连着请了三天 得交啥材料", state, CTX, NOW)
    assert resolved.relation is ContextRelation.FOLLOW_UP
    assert "病假" in resolved.resolved_question


def test_a_follow_up_figure_replaces_thousands_said_without_a_unit() -> None:
    state = ConversationState()
    state.remember("差旅报销两千五，找谁批？", [], [])
    resolved = resolve_context("那要是六千呢", state, CTX, NOW)
    assert resolved.resolved_question == "差旅报销6000 元，找谁批？"


def test_pulling_up_someone_elses_list_is_someone_elses_tasks() -> None:
    assert someone_elses_tasks("我是项目经理，帮我拉下刘洋的todo list", task_question=True)
    assert not someone_elses_tasks("帮我拉下这周的待办", task_question=True)


def test_two_asks_of_one_subject_are_judged_apart() -> None:
    readings = per_word("病假工资咋算？一年最多能请几天病假？", NeedCode.AMOUNT_RULE)
    assert readings == ["病假工资咋算？", "一年最多能请几天病假？"]


def test_a_task_named_by_its_pointer_beside_a_rule_is_that_task() -> None:
    facts = [task_fact("r1", "审批张伟的北京差旅报销单"), task_fact("r2", "提交三月差旅报销")]
    assert pointed_task("三月差旅报销那条deadline哪天？要带哪些票？", facts) == {"r2"}
    assert pointed_task("差旅报销那条deadline哪天？", facts) == set()


@pytest.mark.parametrize(("said", "total"), [("住两晚", "900"), ("住俩晚", "900"), ("住三晚", "1350")])
def test_nights_said_in_words_are_worked_into_a_total(said: str, total: str) -> None:
    cap = GroundedStatement(
        need=NeedCode.AMOUNT_RULE, text="二线城市出差住宿费每晚不超过 450 元；", citations=["c1"]
    )
    worked = worked_total(f"去二线城市出差{said}住宿一共能报多少", [cap])
    assert worked is not None
    assert f"最多报销 {total} 元" in worked.text
    assert Decimal(total) % 450 == 0

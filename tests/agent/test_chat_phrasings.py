"""General rules for questions written the way employees chat (session 28): someone else's tasks
named by any verb of looking, English words of chat, spoken task windows and pointers, figures put up
for checking, a trip's length said in nights, a follow-up that only offers another sum."""

from __future__ import annotations

import pytest

from _agent_rules import CTX, NOW, TODAY, plan_by_rules
from groundgate.agent import (
    ConversationState,
    NeedCode,
)
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import ContextRelation, Intent
from groundgate.agent.planning import task_window
from groundgate.agent.subjects import asked_entities, is_place, subject_terms
from groundgate.tools.registry import ToolRegistry

_plan = plan_by_rules


@pytest.mark.parametrize(
    ("question", "someone_else"),
    [
        ("帮我瞅瞅陈静这周有哪些待办要处理", True),
        ("帮我瞧一下刘洋手上还有啥活", True),
        ("翻翻王芳今天有哪些待办", True),
        ("陈静这周有哪些待办？", True),
        ("我是HR BP，把u-wang手上的task list拉给我看下", True),
        ("张伟的to-do给我看看", True),
        # the caller's own tasks: a day of the week or a window is no one's name
        ("看看周三有哪些待办", False),
        ("帮我查一下周末有啥任务", False),
        ("帮我看下这周有哪些待办", False),
        ("帮我瞅瞅明天有啥待办", False),
        ("王芳那个病假申请我是不是还没批？", False),
    ],
)
def test_another_persons_tasks_are_never_read_from_the_callers_rows(
    question: str, someone_else: bool, registry: ToolRegistry
) -> None:
    assert (_plan(question, registry).intent is Intent.UNSUPPORTED) is someone_else


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("明天到期的有啥？", [NeedCode.TASK_STATE]),
        ("下周截止的都有哪些？", [NeedCode.TASK_STATE]),
        ("绩效自评那条我是不是早就搞定了？", [NeedCode.TASK_STATE]),
        ("下周有啥deadline？", [NeedCode.TASK_STATE]),
        ("我的task list给我看看", [NeedCode.TASK_STATE]),
        ("走之前得先看看明儿个到期的待办都有啥？", [NeedCode.TASK_STATE]),
        ("病假工资？", [NeedCode.AMOUNT_RULE]),
        ("病假期间工资怎么算？", [NeedCode.AMOUNT_RULE]),
        ("加班费咋算？", [NeedCode.AMOUNT_RULE]),
        ("离职的时候年假没休完，公司给不给折现？", [NeedCode.ELIGIBILITY]),
        ("伙食补贴现在是不是还是一天一百？", [NeedCode.AMOUNT_RULE]),
        ("发烧了想请一天病假，得交点啥证明？", [NeedCode.MATERIALS]),
        ("出差回来多久之内得在系统里提reimburse啊，deadline是几天？", [NeedCode.AMOUNT_RULE]),
    ],
)
def test_chat_phrasings_name_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    plan = _plan(question, registry)
    assert plan.complete
    assert [n.code for n in plan.needs] == needs


def test_a_yes_no_question_about_pay_during_leave_is_no_amount_question(registry: ToolRegistry) -> None:
    # "…工资照发吗" is answered by no amount sentence: the part stays unanswered (PARTIAL), the days not.
    plan = _plan("婚假能休几天？休婚假期间工资照发吗？", registry)
    assert [n.code for n in plan.needs] == [NeedCode.AMOUNT_RULE]


def test_leave_in_general_is_asked_back_whoever_the_materials_go_to(registry: ToolRegistry) -> None:
    assert not _plan("请假要交啥证明给HR？", registry).complete


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("明儿个到期的待办都有啥？", "2026-04-16"),
        ("明儿到期的有啥", "2026-04-16"),
        ("后天到期的有啥", "2026-04-17"),
    ],
)
def test_spoken_days_ahead_are_their_own_window(question: str, start: str) -> None:
    assert task_window(question, TODAY) == {"startDate": start, "endDate": start}


@pytest.mark.parametrize(
    ("question", "in_subject", "not_in_subject"),
    [
        ("差旅reimburse要准备哪些材料？", {"差旅"}, {"reimburse"}),
        ("下周去深圳见客户，住一晚hotel最多报多少？", {"住宿", "深圳"}, {"hotel"}),
        ("上个月中旬去西安出了趟差，住了四晚，那趟的伙食补贴一天能算多少？", {"伙食"}, {"住宿"}),
        ("出差住了两晚，酒店一晚最多报多少？", {"住宿"}, set()),  # lodging asked: the nights stay
        ("俺俩打算下个月去民政局把证领了，到时候婚假能歇几天？", {"婚假"}, {"民政局", "到时候"}),
        (
            "这回去西北跑了一大圈，单子加起来差不多六千三，报销的话光部门经理签字够不够？",
            set(),
            {"部门经理", "差不多", "单子"},
        ),
        ("发烧了想请一天病假，得交点啥证明？", {"病假"}, {"交点"}),
        ("加班费咋算？", set(), {"咋算"}),
    ],
)
def test_chat_words_are_read_as_the_documents_words_or_as_circumstance(
    question: str, in_subject: set[str], not_in_subject: set[str]
) -> None:
    subject = subject_terms(question)
    assert in_subject <= subject
    assert not (not_in_subject & subject)


def test_the_nights_a_trip_lasted_are_no_domain_word_of_the_meal_question() -> None:
    assert asked_entities("上个月中旬去西安出了趟差，住了四晚，那趟的伙食补贴一天能算多少？") == [
        "西安",
        "伙食",
    ]


@pytest.mark.parametrize(
    ("word", "place"), [("西北", True), ("华东", True), ("国外", False), ("单子", False)]
)
def test_a_region_of_the_country_is_a_place(word: str, place: bool) -> None:
    assert is_place(word) is place


@pytest.mark.parametrize(
    ("earlier", "follow_up", "resolved"),
    [
        ("差旅报销４０００块找谁批？", "那要是八千呢？", "差旅报销8000 元找谁批？"),
        ("差旅报销4000块找谁批？", "要是四千八呢？", "差旅报销4800 元找谁批？"),
        ("差旅报销4000块找谁批？", "那要是8000呢？", "差旅报销8000 元找谁批？"),
        # naming the present replaces the earlier time asked (blind 12)
        (
            "您好，请问去年十二月在广州出差那会儿，住宿一晚的报销标准是多少？",
            "那换成这个月去呢？",
            "您好，请问这个月在广州出差那会儿，住宿一晚的报销标准是多少？",
        ),
        ("2025 年 3 月出差的伙食补贴一天多少？", "那现在呢？", "现在出差的伙食补贴一天多少？"),
    ],
)
def test_a_follow_up_offering_another_sum_or_time_replaces_the_one_asked(
    earlier: str, follow_up: str, resolved: str
) -> None:
    state = ConversationState(questions=[earlier])
    context = resolve_context(follow_up, state, CTX, NOW)
    assert context.relation is ContextRelation.FOLLOW_UP
    assert context.resolved_question == resolved


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("俺那条审批的活儿还有几天到期啊？", "我那条审批的活儿还有几天到期啊？"),
        ("俺俩下个月领证", "我俩下个月领证"),
    ],
)
def test_the_northern_first_person_is_read_as_the_caller(question: str, read_as: str) -> None:
    assert resolve_context(question, None, CTX, NOW).resolved_question == read_as


def test_my_task_pointed_at_with_a_measure_word_is_one_named_task(registry: ToolRegistry) -> None:
    plan = _plan("我那条审批的活儿还有几天到期啊？", registry)
    assert [n.code for n in plan.needs] == [NeedCode.TASK_STATE]

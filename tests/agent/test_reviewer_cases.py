"""Rules of session 34 (blind set 28): an approver or finance reviewer checking a colleague's concrete case —
the colleague named plainly, the claim pointed at (`那单`), a trip placed in an earlier month, a claim handed in
late, a figure put up with `是不是该给`, the approver's own verdict asked (`我能批吗`, `该驳回`), follow-ups
that change a count or the month, and the sum claimed set against the cap."""

from __future__ import annotations

from datetime import date

import pytest

from _agent_rules import CTX, NOW, TODAY, plan_by_rules
from groundgate.agent import ConversationState, NeedCode
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import ContextRelation, GroundedStatement
from groundgate.agent.evidence import month_asked_as_then
from groundgate.agent.named_cases import colleague_names, read_named_case
from groundgate.agent.overage import worked_overage
from groundgate.agent.planning import parts_without_need
from groundgate.agent.subjects import need_subject
from groundgate.agent.vocabulary import OFFERED_FIGURES, STILL_IN_TIME
from groundgate.tools.registry import ToolRegistry


@pytest.mark.parametrize(
    ("asked", "read"),
    [
        ("张伟北京住了4晚，住宿发票一共2800，超了多少？", "他北京住了4晚，住宿发票一共2800，超了多少？"),
        ("王芳2月份出差的饭补，按一天100批还是120？", "他2月份出差的饭补，按一天100批还是120？"),
        ("李明3月底出差3天，饭补按一天100还是120批？", "他3月底出差3天，饭补按一天100还是120批？"),
        ("新来的小孙还在试用期，想请2天年假，我能批吗？", "新来的他还在试用期，想请2天年假，我能批吗？"),
        # the class of employee said with the nickname stays: a condition the rule may hold for
        ("实习生小林出差回来报差旅，我直接批可以吗？", "实习生出差回来报差旅，我直接批可以吗？"),
        # the claim pointed at without its noun is the claim
        ("张伟那单一共4800，得谁批？", "他这笔报销一共4800，得谁批？"),
    ],
)
def test_a_colleague_named_beside_their_case_is_read_as_a_third_person(asked: str, read: str) -> None:
    assert read_named_case(asked) == read


@pytest.mark.parametrize(
    "kept",
    [
        "王芳病假那条，她连着请了4天，得交哪些材料？",  # a task pointer: the title carries the name
        "张伟那张北京差旅报销单的审批，啥时候到期？",
        "帮我看下张伟手上还有哪些报销待办",  # someone else's tasks, refused by the name
        "周三出差回来，住宿怎么报？",  # a day of the week is no name
        "我老婆在华为上班，她们公司请病假工资是按多少发的？",  # no case follows the word
    ],
)
def test_a_name_pointing_at_a_task_or_no_case_is_left_as_written(kept: str) -> None:
    assert read_named_case(kept) == kept


def test_a_colleagues_name_in_a_task_pointer_is_no_subject_word() -> None:
    question = "王芳病假那条，她连着请了4天，得交哪些材料？"
    assert colleague_names(question) == {"王芳"}
    assert need_subject(question, NeedCode.MATERIALS) == {"病假"}


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("他2月出差的饭补，按一天100批还是120？", date(2026, 2, 28)),
        ("他3月底出差3天，饭补按一天100还是120批？", date(2026, 3, 31)),
        ("他1月去成都出差，饭补一天按多少批？", date(2026, 1, 31)),
        ("他5月出差，饭补一天多少？", None),  # a month ahead is asked of the rules now
        ("他这个月去成都出差，饭补一天按多少批？", None),
    ],
)
def test_a_trip_placed_in_an_earlier_month_alone_is_asked_of_that_months_rules(
    question: str, day: date | None
) -> None:
    assert month_asked_as_then(question, TODAY) == day


@pytest.mark.parametrize(
    ("question", "late"),
    [
        ("他3月5号出差结束的，拖到今天才交报销，还能批吗？", True),
        ("报销超过30天了，让部门经理补签个字是不是就能报？", True),
        ("出差回来过了两个月了，还能报吗？", True),
        ("他出差结束两个月了才报，我能批吗？", True),
        # a leave longer than a count is a case of the rule, not a time gone by
        ("下面人请病假连着超过5天，还得谁批？", False),
    ],
)
def test_a_claim_said_late_asks_whether_it_is_still_in_time(question: str, late: bool) -> None:
    assert bool(STILL_IN_TIME.search(question)) is late


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("他3月5号出差结束的，拖到今天才交报销，还能批吗？", [NeedCode.AMOUNT_RULE]),
        ("他出差结束两个月了才报，我能批吗？", [NeedCode.AMOUNT_RULE]),
        ("他这笔报销差旅刚好5000整，要不要上财务总监？", [NeedCode.APPROVAL]),
        ("实习生出差结束报差旅，我直接批可以吗？", [NeedCode.ELIGIBILITY]),
        ("听说试用期的出差不能报差旅，他这趟我是不是该驳回？", [NeedCode.ELIGIBILITY]),
        ("婚假：她想分两次休，行不行？", [NeedCode.ELIGIBILITY]),
    ],
)
def test_a_reviewers_question_about_a_case_asks_the_rule_that_decides_it(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(question, registry).needs] == needs


def test_by_when_a_leave_must_be_taken_is_its_time_limit_beside_what_is_not_written(
    registry: ToolRegistry,
) -> None:
    needs = [n.code for n in plan_by_rules("他婚假能分两次休吗？最晚啥时候前得休完？", registry).needs]
    assert set(needs) == {NeedCode.ELIGIBILITY, NeedCode.AMOUNT_RULE}


@pytest.mark.parametrize(
    "question",
    [
        "他2016年5月入职的，年假是不是该给10天了？",
        "婚假是不是只有3天？",
    ],
)
def test_a_figure_put_up_with_is_it_due_is_checked_not_a_condition(question: str) -> None:
    assert OFFERED_FIGURES.search(question)


@pytest.mark.parametrize(
    "question",
    [
        # the approver's own verdict on the case is what the rule in the other part decides
        "婚假不是只有3天吗？他请了10天我是不是该驳回？",
        # a follow-up's changed case beside the part that asks
        "病假：那要是7天呢？我批完还要谁批？",
    ],
)
def test_a_part_asking_the_verdict_or_stating_the_case_is_no_unanswered_part(question: str) -> None:
    assert parts_without_need(question) == []


def test_how_long_a_step_after_approval_takes_asks_no_approver() -> None:
    question = "他这笔报销一共4800 得谁批？批完财务几天能打款？"
    assert not {"打款", "财务"} & need_subject(question, NeedCode.APPROVAL)
    assert "打款" in need_subject(question, NeedCode.AMOUNT_RULE)


@pytest.mark.parametrize(
    ("earlier", "follow_up", "carried"),
    [
        ("他这个月去成都出差，饭补一天按多少批？", "那要是他1月份去的呢", "1月去成都出差"),
        ("他下个月要休婚假，最多能批几天？", "她想分两次休，行不行？", "婚假"),
    ],
)
def test_a_follow_up_about_the_same_case_is_read_with_the_earlier_turns_subject(
    earlier: str, follow_up: str, carried: str
) -> None:
    state = ConversationState()
    state.remember(earlier, [], [])
    resolved = resolve_context(follow_up, state, CTX, NOW)
    assert resolved.relation is ContextRelation.FOLLOW_UP
    assert carried in resolved.resolved_question


_CAP_600 = GroundedStatement(
    need=NeedCode.AMOUNT_RULE,
    text="一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元；",
    citations=["hr-travel-policy-2026#0"],
)


@pytest.mark.parametrize(
    ("question", "worked"),
    [
        ("他北京住了4晚，住宿发票一共2800，超了多少？", "按住 4 晚上限 2400 元计，超出 400 元"),
        ("他北京出差3晚住宿一共1800能全报吗？", "未超出住 3 晚上限 1800 元"),
        ("他北京住一晚900，我按这个批行吗？", "按每晚上限 600 元计，每晚超出 300 元"),
        (
            "他去深圳住了2晚，每晚750，能全报吗？",
            "按每晚上限 600 元计，每晚超出 150 元，2 晚共超出 300 元",
        ),
    ],
)
def test_the_sum_claimed_is_set_against_the_cap_in_code(question: str, worked: str) -> None:
    statement = worked_overage(question, [_CAP_600])
    assert statement is not None
    assert statement.text == worked
    assert statement.citations == ["hr-travel-policy-2026#0"]


def test_the_sum_the_asker_put_up_is_not_repeated_as_if_stated() -> None:
    statement = worked_overage("下周去北京，看中的酒店一晚800元，能全额报销吗？", [_CAP_600])
    assert statement is not None
    assert "800" not in statement.text


@pytest.mark.parametrize(
    "question",
    [
        "他北京住了4晚，住宿标准是多少？",  # no sum claimed
        "他北京住宿发票一共2800，超了多少？",  # a total without the nights it covers
        "一线城市住宿每晚上限多少？",
    ],
)
def test_nothing_is_worked_without_the_sum_claimed_and_its_nights(question: str) -> None:
    assert worked_overage(question, [_CAP_600]) is None


def test_nothing_is_worked_when_the_statements_state_two_caps() -> None:
    other = _CAP_600.model_copy(update={"text": "西部项目组成员在一线城市出差住宿费每晚不超过 800 元。"})
    assert worked_overage("他北京住了4晚，住宿发票一共2800，超了多少？", [_CAP_600, other]) is None

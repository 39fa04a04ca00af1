"""General rules of session 32's blind set (blind 25): a line manager asking for a named report, figures
put up for confirmation, another person's tasks (in Chinese nicknames and in English), a trip placed in
an earlier month, and one task fitting a singular reference by its kind."""

from __future__ import annotations

import pytest

from _agent_rules import CTX, NOW, TODAY, task_fact
from groundgate.agent import Intent, NeedCode
from groundgate.agent.confirming import read_confirming
from groundgate.agent.context import resolve_context
from groundgate.agent.english import read_english
from groundgate.agent.everyday import read_everyday
from groundgate.agent.evidence import ambiguous_tasks, month_asked_as_then, named_tasks
from groundgate.agent.holders import someone_elses_tasks
from groundgate.agent.planning import propose_by_rules
from groundgate.agent.reports import read_reports
from groundgate.agent.subjects import subject_terms
from groundgate.agent.vocabulary import NEED_CUES
from groundgate.contracts import VerifiedFact


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("下属老周出差去成都住了两晚，能报多少？", "他出差去成都住了两晚，能报多少？"),
        ("我部门的赵敏去年 5 月入职，年假几天？", "他去年 5 月入职，年假几天？"),
        ("组员小何想请婚假，要交什么？", "他想请婚假，要交什么？"),
        # the class of employee said with the name is a condition and stays
        ("我们组的试用期员工小黄能休年假吗？", "试用期员工能休年假吗？"),
        # a person opening a clause by nickname is a third person too
        ("小吴下个月去广州出差，伙食补贴多少？", "他下个月去广州出差，伙食补贴多少？"),
    ],
)
def test_a_named_report_is_read_as_a_third_person(question: str, read_as: str) -> None:
    assert read_reports(question) == read_as


@pytest.mark.parametrize(
    "question",
    [
        # a group named by its own words is no relation of the asker's
        "东部项目组的王磊去深圳出差住宿标准是多少？",
        "财务部门的小林要出差",
        # words that start like a nickname name no one
        "请假一小时要扣钱吗？",
        "报销金额小于 5000 找谁批？",
    ],
)
def test_a_group_of_its_own_name_and_words_like_nicknames_are_left_alone(question: str) -> None:
    assert read_reports(question) == question


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("组员交了一份 5200 元的差旅报销单，要谁批？", "5200 元的差旅报销，要谁批？"),
        ("除了我这个部门经理，还得谁签字？", "除了部门经理，还得谁签字？"),
    ],
)
def test_a_claim_a_report_filed_is_the_claim_and_the_asker_as_approver_is_that_approver(
    question: str, read_as: str
) -> None:
    assert read_reports(question) == read_as


@pytest.mark.parametrize(
    "question",
    [
        "麻烦帮忙查下组里小李今天有啥到期的待办",
        "下属老郑手上还有哪些任务？",
        "小冯这周有哪些待办？",
    ],
)
def test_a_reports_tasks_are_someone_elses_never_the_callers(question: str) -> None:
    resolved = resolve_context(question, None, CTX, NOW)
    assert someone_elses_tasks(resolved.resolved_question, task_question=True)
    assert propose_by_rules(resolved, TODAY).intent == Intent.UNSUPPORTED.value


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Can you show me Li Na's open tasks for next week?", "他的待办"),
        ("Please list Wang's to-dos today.", "他的待办"),
    ],
)
def test_a_named_persons_tasks_in_english_are_read_as_someone_elses(question: str, read_as: str) -> None:
    assert read_as in read_english(question)


def test_this_weeks_tasks_in_english_are_no_persons() -> None:
    assert "他" not in read_english("Could you show me this week's tasks, please?")


def test_a_thousands_separator_is_no_comma_between_clauses() -> None:
    assert "2500元" in read_english("Who has to approve a 2,500 yuan claim for my hotel?")


def test_the_approver_of_a_claim_in_a_question_about_travel_is_a_travel_claims() -> None:
    read = read_english("I am travelling to Beijing next week. Who approves an expense claim of 3,000 yuan?")
    assert "差旅报销" in read


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("烦请核实一下：二线城市住宿是 500 吧？", "二线城市住宿是 500 对吧？"),
        ("病假工资按 90% 发放吧？", "病假工资按 90% 发放对吧？"),
        # a 吧 after no figure, or after a judgement of the figure, confirms no figure
        ("那我先提交报销吧？", "那我先提交报销吧？"),
        ("一晚按 500 报应该没事吧？", "一晚按 500 报应该没事吧？"),
        ("我先休 3 天吧", "我先休 3 天吧"),
    ],
)
def test_a_figure_put_up_for_confirmation_is_asked_as_checked(question: str, read_as: str) -> None:
    assert read_confirming(question) == read_as


def test_a_figure_put_up_for_confirmation_asks_the_amount_rule() -> None:
    assert NEED_CUES[NeedCode.AMOUNT_RULE].search(read_confirming("年假满十年是 12 天吧？"))


def test_leave_taken_because_of_illness_is_sick_leave() -> None:
    assert "请病假" in read_everyday("他因病要连续请假 4 天，谁审批？")


def test_the_time_limit_asked_is_no_subject_word() -> None:
    assert not {"期限", "期限内"} & subject_terms("婚假必须在什么期限内休完？")


@pytest.mark.parametrize(
    ("question", "asked_of"),
    [
        ("今年 1 月同事去杭州出差 2 天，伙食补贴一共多少？", "2026-01-31"),
        ("今年三月份出差三天，伙食补贴多少？", "2026-03-31"),
        # a trip now, or one still to come, is asked of the rules in force now
        ("今年 5 月出差 2 天，伙食补贴多少？", None),
        ("今年 1 月出差的报销现在还能交吗？", None),
    ],
)
def test_a_trip_said_taken_in_an_earlier_month_is_asked_of_the_rules_then(
    question: str, asked_of: str | None
) -> None:
    day = month_asked_as_then(question, TODAY)
    assert (day.isoformat() if day else None) == asked_of


_ONE_APPROVAL = [task_fact("a", "审批西部项目组采购申请"), task_fact("b", "提交四月差旅报销")]
_TWO_APPROVALS = [
    task_fact("a", "审批张伟的北京差旅报销单"),
    task_fact("b", "审批王芳的病假申请"),
    task_fact("c", "确认年休假计划"),
]


@pytest.mark.parametrize(
    ("question", "facts", "named"),
    [
        ("我手头那个审批哪天到期？", _ONE_APPROVAL, {"a"}),
        ("我名下那笔报销还剩几天？", _ONE_APPROVAL, {"b"}),
        # two fit: asked back, never picked
        ("我手头那个审批哪天到期？", _TWO_APPROVALS, set()),
        # a window is no pointer
        ("这个月审批的待办有哪些？", _ONE_APPROVAL, set()),
    ],
)
def test_a_singular_reference_that_fits_one_task_is_that_task(
    question: str, facts: list[VerifiedFact], named: set[str]
) -> None:
    assert named_tasks(question, facts) == named


def test_a_singular_reference_that_fits_two_tasks_is_still_asked_back() -> None:
    assert sorted(ambiguous_tasks("我手头那个审批哪天到期？", _TWO_APPROVALS)) == [
        "审批张伟的北京差旅报销单",
        "审批王芳的病假申请",
    ]

"""General rules of session 32's second blind set (blind 26): an employee planning their own week — a task
shown with its key, a stretch of days, the rule behind a named task, leave at short notice, trips of several
legs or in two periods, and a task list narrowed or switched by a bare follow-up."""

from __future__ import annotations

from datetime import date

import pytest

from _agent_rules import TODAY, task_fact
from groundgate.agent import NeedCode
from groundgate.agent.answer import _read_as, fact_text
from groundgate.agent.apart import compared_words, per_word
from groundgate.agent.contracts import GroundedAnswer, GroundedStatement
from groundgate.agent.english import read_english
from groundgate.agent.everyday import read_everyday
from groundgate.agent.legs import trip_legs, with_legs_total
from groundgate.agent.narrowing import narrowed_task_question
from groundgate.agent.periods import per_period
from groundgate.agent.planning import task_window
from groundgate.agent.spans import spanned_days
from groundgate.agent.subjects import subject_terms
from groundgate.agent.task_rules import rule_behind_task, without_task_words


def test_a_task_is_shown_with_its_key_beside_its_title() -> None:
    assert fact_text(task_fact("T-9001", "提交五月差旅报销")).startswith("T-9001 提交五月差旅报销（")


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("从今天到这个月底，还有哪些待办要截止？", TODAY, date(2026, 4, 30)),
        ("明天起到月末我有啥要交的？", date(2026, 4, 16), date(2026, 4, 30)),
        ("今天到这周末还有什么活儿？", TODAY, date(2026, 4, 19)),
        ("后天至下周末有哪些待办？", date(2026, 4, 17), date(2026, 4, 26)),
    ],
)
def test_a_stretch_from_a_day_to_a_periods_end_is_the_task_window_whole(
    question: str, first: date, last: date
) -> None:
    assert spanned_days(question, TODAY) == (first, last)
    window = task_window(question, TODAY)
    assert (window["startDate"], window["endDate"]) == (first.isoformat(), last.isoformat())


@pytest.mark.parametrize("question", ["今天有哪些待办到期？", "这个月底前要交什么？", "明天到期的有啥？"])
def test_a_single_day_or_period_is_no_stretch(question: str) -> None:
    assert spanned_days(question, TODAY) is None


def _task(question: str) -> bool:
    return "待办" in question or "截止" in question


def _needs(question: str) -> list[NeedCode]:
    return [NeedCode.APPROVAL] if "批" in question else []


@pytest.mark.parametrize(
    ("part", "needs"),
    [
        ("我那条提交五月差旅报销的待办，一共 7300 元，得找谁批？", [NeedCode.APPROVAL]),
        ("审批李雷的报销单那条待办，金额 3000，要哪位领导审批？", [NeedCode.APPROVAL]),
        # the clause asks the task itself: when it is to be approved by, not who approves
        ("张伟那张报销单的待办，我最晚哪天得批完？", []),
        # one clause: no rule asked apart from the task
        ("我那条审批待办什么时候截止？", []),
    ],
)
def test_who_approves_asked_after_a_named_task_is_the_rule_behind_it(
    part: str, needs: list[NeedCode]
) -> None:
    assert rule_behind_task(part, _task, _needs) == needs


def test_the_tasks_pointer_words_are_no_subject_of_the_rule_behind_it() -> None:
    query = without_task_words("我那条提交五月差旅报销的待办，一共 7300 元，得找谁批？")
    assert "那条" not in query
    assert "待办" not in query
    assert "那条" not in subject_terms(query)


@pytest.mark.parametrize(
    "question",
    ["我后天就想休一天年假，今天才提交还来得及吗？", "明天要请婚假，现在才在系统里提还赶得上吗？"],
)
def test_leave_at_short_notice_asked_whether_in_time_asks_the_notice_period(question: str) -> None:
    assert "需要提前几天申请" in read_everyday(question)


def test_a_claim_asked_whether_in_time_is_not_read_as_a_notice_period() -> None:
    assert "提前" not in read_everyday("上个月出差回来的，现在报销还来得及吗？")


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Which of our reimbursement to-dos are already overdue?", "我有哪些报销待办已经逾期？"),
        (
            "I plan to take annual leave next Friday. What is the latest day I can submit the request?",
            "下周五",
        ),
        (
            "Can I book a business-class seat on the high-speed train for my trip to Wuhan next Monday?",
            "下周一去武汉出差，我能订商务座高铁吗？",
        ),
    ],
)
def test_english_for_tasks_of_a_kind_the_last_day_to_submit_and_a_trip_said_last(
    question: str, read_as: str
) -> None:
    assert read_as in read_english(question)


def test_the_last_day_to_submit_a_request_is_asked_as_such() -> None:
    assert "最晚哪天提交申请" in read_english(
        "When does my leave start? What's the latest date to submit the application?"
    )


@pytest.mark.parametrize(
    ("question", "legs"),
    [
        ("先去广州住 3 晚，再去一个二线城市住 1 晚，住宿一共能报多少？", [("广州", "3"), ("二线城市", "1")]),
        ("北京住 1 晚，接着去一二线以外的城市住 2 晚，总共多少？", [("北京", "1"), ("其他城市", "2")]),
        # one place, or two places without their own nights: no legs
        ("去深圳住 4 晚一共多少？", []),
        ("北京和上海住宿标准一样吗？", []),
    ],
)
def test_a_trip_of_several_legs_names_each_place_with_its_nights(
    question: str, legs: list[tuple[str, str]]
) -> None:
    assert [(place, str(nights)) for _, place, nights in trip_legs(question)] == legs


def test_each_leg_is_judged_alone_as_words_compared() -> None:
    assert compared_words("北京住 2 晚，然后去二线城市住 3 晚，每晚上限各是多少？") == ["北京", "二线城市"]


def _amount(text: str, citation: str) -> GroundedStatement:
    return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=[citation])


def test_the_lodging_total_over_the_legs_is_worked_from_each_places_cap() -> None:
    answer = GroundedAnswer(
        statements=[
            _amount("一线城市（北京、上海、广州、深圳）每晚不超过 600 元", "doc:a"),
            _amount("二线城市每晚不超过 450 元", "doc:a"),
        ]
    )
    worked = with_legs_total(answer, "先去广州住 3 晚，再去一个二线城市住 1 晚，住宿一共能报多少？")
    assert "一共最多报销 2250 元" in worked.statements[-1].text


def test_no_lodging_total_is_worked_when_a_legs_cap_is_missing() -> None:
    answer = GroundedAnswer(statements=[_amount("二线城市每晚不超过 450 元", "doc:a")])
    worked = with_legs_total(answer, "先去广州住 3 晚，再去一个二线城市住 1 晚，住宿一共能报多少？")
    assert len(worked.statements) == 1


def test_a_citation_is_read_only_for_the_words_it_covered_when_judged() -> None:
    question = "北京住 2 晚，然后去二线城市住 3 晚，每晚上限各是多少？"
    readings = per_word(question, NeedCode.AMOUNT_RULE)
    read_apart = {"AMOUNT_RULE:project": [0], "AMOUNT_RULE:company": [1]}
    pairs = _read_as(["project", "company"], question, NeedCode.AMOUNT_RULE, read_apart)
    assert pairs == [("project", readings[0]), ("company", readings[1])]


@pytest.mark.parametrize(
    ("question", "readings"),
    [
        (
            "我前年 11 月去过一趟上海，下个月又去上海，两次的住宿上限分别多少？",
            ["我前年 11 月去过一趟上海，住宿上限多少？", "下个月又去上海，住宿上限多少？"],
        ),
        (
            "今年 1 月出差 3 天，这个月出差 1 天，伙食补贴各按多少算？",
            ["今年 1 月出差 3 天，伙食补贴多少算？", "这个月出差 1 天，伙食补贴多少算？"],
        ),
        # one period, or none compared: read whole
        ("去年 12 月去深圳出差，住宿上限分别是多少？", []),
        ("我今年 2 月出差了 2 天，这个月又出差 2 天，伙食补贴一共多少？", []),
    ],
)
def test_two_trips_in_two_periods_are_read_once_per_period(question: str, readings: list[str]) -> None:
    assert per_period(question) == readings


@pytest.mark.parametrize(
    ("question", "previous", "read_as"),
    [
        ("只看东部项目的呢？", "下周有哪些待办？", "东部项目这边，下周有哪些待办？"),
        ("那 u-zhao 呢？", "这个月还有哪些待办没做完？", "u-zhao的这个月还有哪些待办没做完？"),
        # after a policy question it narrows nothing
        ("只看西部项目的呢？", "一线城市住宿标准是多少？", None),
        # a need asked of its own is no narrowing
        ("那西部项目的住宿标准呢？", "下周有哪些待办？", None),
    ],
)
def test_a_task_list_narrowed_or_switched_by_a_bare_follow_up_is_asked_again(
    question: str, previous: str, read_as: str | None
) -> None:
    assert narrowed_task_question(question, previous) == read_as

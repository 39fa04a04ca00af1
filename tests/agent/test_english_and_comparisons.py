"""General rules of session 29 (blind set 13): questions written in English, someone else's tasks by
`名下` or a changed person, a task said by words before `的那个`, a day written in words beside a
named task, totals, requests to be told, the asker's own leave days, the reason for leave, two rules
compared side by side, and a follow-up asking the earlier figure for another group."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from _agent_rules import CTX, NOW, TODAY, plan_by_rules, task_fact
from groundgate.agent import (
    NEED_CLAIM_TYPE,
    ConversationState,
    EvidenceEvaluator,
    EvidenceNeed,
    NeedCode,
    SlotStatus,
)
from groundgate.agent.answer import compose_offline
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import ContextRelation, Intent
from groundgate.agent.english import is_english, read_english
from groundgate.agent.evidence import ambiguous_tasks, compared_words
from groundgate.agent.planning import task_window
from groundgate.agent.subjects import need_subject, on_subject, subject_terms
from groundgate.agent.tiers import SERVICE_QUESTION, unstated_tier
from groundgate.contracts import DocumentEvidence, ToolResult, ToolStatus
from groundgate.tools.registry import ToolRegistry


def _resolved(question: str) -> str:
    return resolve_context(question, None, CTX, NOW).resolved_question


# ---------------------------------------------------------------------------- English


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "I joined in February and I'm still on probation. Can I already take annual leave (年假)?",
            "我2月我试用期。我能休年假吗？",
        ),
        (
            "Hi HR, I was out sick for four days in a row last week. What paperwork do I need to hand in?",
            # (blind 17: "do I need to hand in" reads 需要提供, where it was dropped word by word)
            "我病假连续4天上周。哪些材料需要提供？",
        ),
        (
            "Quick check: the hotel cap in 二线城市 is still 380 a night, right?",
            "住宿上限二线城市还是380元一晚对吧？",
        ),
        (
            "I registered my marriage back in June 2024. How many days of 婚假 did the rules give at that time?",
            "我登记结婚2024年6月。几天婚假当时？",
        ),
        ("What's the daily meal allowance on business trips these days?", "多少每天伙食补贴出差现在？"),
        ("Which of my to-dos are overdue right now?", "我有哪些待办逾期现在？"),  # blind 26: "which of my …"
    ],
)
def test_a_question_written_in_english_is_read_in_the_documents_words(question: str, read_as: str) -> None:
    # blind 13: "English or mixed Chinese/English questions from an expatriate employee"
    assert _resolved(question) == read_as


@pytest.mark.parametrize(
    "question",
    [
        "住一晚hotel最多报多少",
        "把u-wang手上的task list拉给我看下",
        "下周有啥deadline",
        "userId=u-wang 帮我查一下待办",
    ],
)
def test_chat_english_inside_a_chinese_question_is_left_as_it_is(question: str) -> None:
    # docs/agent.md, session 28: "Chat English reads as the documents' words: `hotel` is lodging…"
    assert not is_english(question)
    assert read_english(question) == question


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("I'm still on probation. Can I already take annual leave (年假)?", [NeedCode.ELIGIBILITY]),
        ("What paperwork do I need to hand in for my 病假?", [NeedCode.MATERIALS]),
        ("Quick check: the hotel cap in 二线城市 is still 380 a night, right?", [NeedCode.AMOUNT_RULE]),
        ("How many days of paternity leave (陪产假) will I get?", [NeedCode.AMOUNT_RULE]),
        ("Who has to approve sick leave of six days?", [NeedCode.APPROVAL]),
    ],
)
def test_an_english_question_asks_the_need_its_chinese_form_would(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(_resolved(question), registry).needs] == needs


# ---------------------------------------------------------------------------- tasks


@pytest.mark.parametrize(
    "question",
    [
        "张伟名下现在还挂着几条没办完的任务？",
        "那王芳呢？她下礼拜有啥要交的？",
        "他明天有啥到期的？",
    ],
)
def test_someone_elses_tasks_by_what_they_hold_or_a_changed_person_are_unsupported(
    question: str, registry: ToolRegistry
) -> None:
    # docs/agent.md: "Someone else's tasks … are `NO_EVIDENCE` with `UNSUPPORTED_CAPABILITY`:
    # `MY_CURRENT_TASKS` reads the caller's own rows only"
    assert plan_by_rules(question, registry).intent is Intent.UNSUPPORTED


@pytest.mark.parametrize(
    "question",
    [
        "我名下还有几条任务没办完？",
        "我帮 u-wang 问一下，他下周有什么东西要交？",
        "体检预约那件事我是不是已经超期了？",
    ],
)
def test_the_callers_own_tasks_stay_answerable(question: str, registry: ToolRegistry) -> None:
    assert [n.code for n in plan_by_rules(question, registry).needs] == [NeedCode.TASK_STATE]


def test_the_words_before_de_and_a_pointer_name_the_task_and_two_that_fit_are_asked_back() -> None:
    # docs/agent.md: "asked back when two do (`差旅那条待办` with two travel tasks open)"
    facts = [task_fact("f1", "审批张伟的北京差旅报销单"), task_fact("f2", "提交三月差旅报销")]
    assert sorted(ambiguous_tasks("报差旅的那个待办，最晚几号要弄完？", facts)) == [
        "审批张伟的北京差旅报销单",
        "提交三月差旅报销",
    ]


@pytest.mark.parametrize(
    "question", ["确认年休假计划那条是五月十号截止的吧？", "确认年休假计划那条是5月10号截止的吧？"]
)
def test_a_day_written_in_words_beside_a_named_task_is_no_month_window(question: str) -> None:
    # docs/agent.md: "except beside a named task, whose date is put up for checking"
    assert task_window(question, TODAY) == {}


# ---------------------------------------------------------------------------- needs and subjects


@pytest.mark.parametrize(
    ("question", "not_subject"),
    [
        ("我下礼拜去武汉出差四天，伙食补贴总共能拿多少？", {"总共"}),
        ("婚假是不是得交结婚证原件啊？", {"得交"}),
        ("费控系统里报差旅，能一步步说下怎么弄吗？", {"怎么弄", "说下"}),
        ("今年想带爸妈出去转一圈，我自己能休几天年假？", {"一圈"}),
    ],
)
def test_totals_requests_and_circumstance_are_no_subject_words(question: str, not_subject: set[str]) -> None:
    assert not subject_terms(question) & not_subject


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("费控系统里报差旅，能一步步说下怎么弄吗？", [NeedCode.PROCESS_STEPS]),
        # a 能…不 question that asks for money is still whether it may be had
        (
            "今年项目太赶了估计年假休不完，剩下的那几天能折成钱发给我不？",
            [NeedCode.AMOUNT_RULE, NeedCode.ELIGIBILITY],
        ),
    ],
)
def test_a_request_to_be_told_asks_no_eligibility(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(question, registry).needs] == needs


def test_the_askers_own_leave_days_are_asked_back_whoever_they_are_taken_for() -> None:
    # docs/agent.md, Tiered rules: "the asker's own figure of a rule tiered by a case the question
    # leaves out … is asked back"; `我自己` is the asker, not who pays above a cap
    question = "今年想带爸妈出去转一圈，我自己能休几天年假？"
    assert unstated_tier(question, [NeedCode.AMOUNT_RULE]) == SERVICE_QUESTION


def test_why_the_leave_is_taken_names_no_kind_of_leave(registry: ToolRegistry) -> None:
    # docs/agent.md: "leave in general (`请假的话要准备哪些证明材料？`) is asked back, since each kind of
    # leave lists its own materials"
    assert plan_by_rules("下周想请三天假在家陪孩子，要准备什么材料？", registry).needs == []


# ---------------------------------------------------------------------------- documents


def _doc(cid: str, text: str, need: NeedCode = NeedCode.APPROVAL, **fields: Any) -> DocumentEvidence:
    base: dict[str, Any] = {
        "citation_id": cid,
        "source": f"leave/{cid}.md",
        "text": text,
        "authority": "HR-Policy",
        "kind": "policy",
        "scope": "company",
        "tenant": "hrdemo",
        "effective_from": date(2026, 1, 1),
        "supported_need_codes": [need.value],
        "claim_types": [NEED_CLAIM_TYPE[need]],
    }
    return DocumentEvidence.model_validate({**base, **fields})


def _assess(question: str, docs: list[DocumentEvidence], need: NeedCode) -> Any:
    result = ToolResult(invocation_id="i", tool="T", status=ToolStatus.OK, run_id="r1", documents=docs)
    evaluator = EvidenceEvaluator(ctx=CTX, now=NOW, run_id="r1", question=question)
    return evaluator.evaluate([EvidenceNeed(code=need, label="x")], [result])


_SICK = "病假由直属主管审批；连续病假超过 5 天的，还需 HRBP 审批。"
_ANNUAL = "年休假由直属主管审批；一次连续休假超过 5 天的，还需部门负责人审批。"
_COMPARED = "病假和年假比起来，要是都连着休超过五天，审批上分别还得多找谁？"


def test_two_rules_compared_side_by_side_are_each_found_and_both_shown() -> None:
    # docs/agent.md: "two questions about two words of one class … each keep their own"
    assert compared_words(_COMPARED) == ["病假", "年假"]
    docs = [
        _doc("sick", _SICK, heading="病假规定 > 审批"),
        _doc("annual", _ANNUAL, heading="年休假规定 > 审批"),
    ]
    assessment = _assess(_COMPARED, docs, NeedCode.APPROVAL)
    assert assessment.slots[0].status is SlotStatus.COVERED
    text = " ".join(s.text for s in compose_offline(assessment, _COMPARED).statements)
    assert "HRBP" in text
    assert "部门负责人" in text


def test_two_rules_compared_are_not_covered_by_one_of_them_alone() -> None:
    # Since blind 17 the rule found covers its own word only, and the other is listed as missing
    # (the decision is at most PARTIAL): the sick-leave approvers never stand in for annual leave's.
    assessment = _assess(_COMPARED, [_doc("sick", _SICK, heading="病假规定 > 审批")], NeedCode.APPROVAL)
    assert (assessment.slots[0].status, assessment.slots[0].citations) == (SlotStatus.COVERED, ["sick"])
    assert assessment.unfound == ["年假的x"]


def test_a_total_for_a_trip_finds_two_daily_allowances_that_disagree() -> None:
    # docs/agent.md, The HR demo: "a meal-allowance notice that conflicts with it (100 vs 120 元 a day)"
    docs = [
        _doc("policy", "出差伙食补贴按每天 100 元标准发放，按出差自然日计算。", NeedCode.AMOUNT_RULE),
        _doc("notice", "出差伙食补贴按每天 120 元标准发放，按出差自然日计算。", NeedCode.AMOUNT_RULE),
    ]
    assessment = _assess("我下礼拜去武汉出差四天，伙食补贴总共能拿多少？", docs, NeedCode.AMOUNT_RULE)
    assert assessment.slots[0].status is SlotStatus.CONFLICT


def test_a_follow_up_asking_the_same_figure_for_another_group_asks_the_earlier_question_for_them() -> None:
    state = ConversationState(questions=["去北京出差住酒店，一晚上限是多少？"])
    context = resolve_context("那西部项目组的同事去北京呢？他们也是这个数吗？", state, CTX, NOW)
    assert context.relation is ContextRelation.FOLLOW_UP
    assert context.resolved_question == "西部项目组的同事去北京，去北京出差住酒店，一晚上限是多少？"
    # the company's cap does not name that group, so it is not their rule
    company = _doc(
        "lodging", "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元。", NeedCode.AMOUNT_RULE
    )
    assert not on_subject(company, need_subject(context.resolved_question, NeedCode.AMOUNT_RULE))

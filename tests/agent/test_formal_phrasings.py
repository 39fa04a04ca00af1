"""General rules for questions written the way employees write to HR (session 29, blind set 12):
a day named as month and day, the place the caller holds a task, hypotheticals, a colleague's
question relayed, two questions about two leaves, a rule's exceptions, by when a leave is taken,
and a follow-up that moves an earlier time to the present."""

from __future__ import annotations

import pytest

from _agent_rules import TODAY, plan_by_rules, task_fact
from groundgate.agent import (
    NeedCode,
)
from groundgate.agent.evidence import ambiguous_tasks, on_topic_sentences
from groundgate.agent.planning import parts_without_need, task_window
from groundgate.agent.subjects import need_subject, subject_terms
from groundgate.contracts import DocumentEvidence
from groundgate.tools.registry import ToolRegistry

_plan = plan_by_rules


_task = task_fact


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("四月二十号那天我有什么待办到期吗？", "2026-04-20", "2026-04-20"),
        ("4月20日有哪些待办到期？", "2026-04-20", "2026-04-20"),
        ("4/20 到 4/30 之间有哪些待办？", "2026-04-20", "2026-04-30"),
        ("这个月二十五号有啥到期的待办？", "2026-04-25", "2026-04-25"),
        ("20号那天有什么待办？", "2026-04-20", "2026-04-20"),
        # a month alone is still the whole month
        ("我四月份有哪些待办？", "2026-04-01", "2026-04-30"),
    ],
)
def test_a_day_named_by_month_and_day_is_a_one_day_task_window(question: str, start: str, end: str) -> None:
    window = task_window(question, TODAY)
    assert (window.get("startDate"), window.get("endDate")) == (start, end)


def test_a_date_put_up_for_checking_a_named_task_is_no_window() -> None:
    # the task is read whatever its due date, so its date can confirm or correct the one said
    assert task_window("确认年休假计划那条待办是5月15号截止的吧？", TODAY) == {}


@pytest.mark.parametrize(
    "question",
    [
        "您好，我手上那条审批任务还有几天到期？",
        "我手头那个审批什么时候截止？",
        "我名下那笔审批还剩几天？",
    ],
)
def test_where_the_caller_holds_a_task_says_no_more_than_my_does(question: str) -> None:
    facts = [_task("f1", "审批张伟的北京差旅报销单"), _task("f2", "审批王芳的病假申请")]
    assert sorted(ambiguous_tasks(question, facts)) == ["审批张伟的北京差旅报销单", "审批王芳的病假申请"]


@pytest.mark.parametrize(
    ("question", "not_subject"),
    [
        ("假如我下个月去杭州出差五天，伙食补贴一天能拿多少？", {"假如"}),
        ("如果我下周出差，住宿一晚能报多少？", {"如果"}),
        ("我同事还在试用期，他问出差产生的费用能不能按公司制度报销？", {"产生"}),
        ("我同事入职已经满十二年了，他托我问一下一年能休几天年假？", {"他托", "托我问"}),
        ("假如我下个月请一周病假，病假工资能拿到多少？", {"拿到"}),
        ("假如这趟出差一共要报5200元，是不是部门经理签完字就可以了？", {"签完"}),
        ("年假一般是直属主管批就行，有没有例外、需要再往上找领导批的情况？", {"情况", "例外"}),
        ("领完结婚证以后，婚假最晚得在多长时间内休掉？", {"多长时间", "内休"}),
    ],
)
def test_hypotheticals_relayed_questions_and_verbs_of_receiving_are_no_subject_words(
    question: str, not_subject: set[str]
) -> None:
    assert not subject_terms(question) & not_subject


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("假如这趟出差一共要报5200元，是不是部门经理签完字就可以了？", [NeedCode.APPROVAL]),
        ("婚假是不是必须在领证后三个月内休完？过了就作废了？", [NeedCode.AMOUNT_RULE]),
        ("年假要在多长时间内用完？", [NeedCode.AMOUNT_RULE]),
    ],
)
def test_a_signature_asks_the_approver_and_by_when_a_leave_is_taken_asks_its_limit(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in _plan(question, registry).needs] == needs


def test_each_of_two_questions_about_two_leaves_is_about_its_own_leave() -> None:
    question = "您好，想请教两个问题：婚假需要提交什么材料？另外年假要提前几天申请？"
    assert "年假" not in need_subject(question, NeedCode.MATERIALS)
    assert "婚假" not in need_subject(question, NeedCode.AMOUNT_RULE)
    # a part naming no leave still takes the whole question's
    assert "病假" in need_subject("病假需要提前几天申请？要准备什么材料？", NeedCode.MATERIALS)


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("实习生出差的费用公司给报吗？有没有什么例外情况？", []),
        ("试用期能休年假吗？有没有特殊情况？", []),
        ("出差回来多少天之内得把报销交上去？报销款会打到哪张卡上？", ["报销款会打到哪张卡上"]),
    ],
)
def test_a_rules_exceptions_are_asked_of_the_rule_itself(question: str, missing: list[str]) -> None:
    assert parts_without_need(question) == missing


def _doc(text: str) -> DocumentEvidence:
    return DocumentEvidence.model_validate(
        {
            "citation_id": "hr-marriage-leave#0",
            "source": "hr-marriage-leave",
            "text": text,
            "heading": "婚假规定 > 婚假天数",
            "kind": "policy",
            "scope": "company",
            "tenant": "hrdemo",
        }
    )


def test_by_when_a_leave_is_taken_is_answered_only_by_a_limit_within_a_time() -> None:
    doc = _doc("登记结婚的员工享有婚假 10 天，须在领取结婚证后一年内休完。至少提前 3 个工作日提交申请。")
    kept = on_topic_sentences(doc, NeedCode.AMOUNT_RULE, "婚假得在多长时间内休完？")
    assert kept == ["登记结婚的员工享有婚假 10 天，须在领取结婚证后一年内休完。"]

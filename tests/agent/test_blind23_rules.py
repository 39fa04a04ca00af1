"""General rules of session 31's blind 23 set: a task's due day set against a rule's period needs that
rule, an account other than the caller's in a task question is someone else's tasks, and 补帖/津帖 are homophone typos."""

from __future__ import annotations

import pytest

from groundgate.agent.due_against import deadline_query, due_against_deadline
from groundgate.agent.english import read_chat
from groundgate.agent.holders import another_account


@pytest.mark.parametrize(
    ("question", "against"),
    [
        ("那条报销待办等到截止那天再交还来得及吗？", True),
        ("体检预约那条待办到期当天再去，还在规定的期限内吗？", True),
        ("If I hand in my claim on that task's due date, is it still within the limit?", True),
        ("提交三月差旅报销那条待办哪天截止？", False),
        ("出差回来报销还来得及吗？", False),
    ],
)
def test_a_due_day_is_set_against_a_rule_only_when_both_are_said(question: str, against: bool) -> None:
    assert due_against_deadline(question) is against


@pytest.mark.parametrize(
    ("question", "query"),
    [
        (
            "我那条报销的待办还没交，可我上周才出差回来，等到待办截止那天再交还来得及吗？",
            "可我上周才出差回来，截止那天再交还来得及吗？",
        ),
        (
            "确认年休假计划那条待办到期那天，我想开始休年假，当天提申请来得及吗？",
            "我想开始休年假，当天提申请来得及吗？",
        ),
    ],
)
def test_the_rule_part_leaves_the_task_and_its_title_out(question: str, query: str) -> None:
    assert deadline_query(question) == query


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("伙食补帖一天多少？", "伙食补贴一天多少？"),
        ("出差津帖怎么算？", "出差津贴怎么算？"),
        ("请帖要自己发吗？", "请帖要自己发吗？"),
    ],
)
def test_a_homophone_typo_of_an_allowance_is_read_as_the_allowance(question: str, read_as: str) -> None:
    assert read_chat(question) == read_as


@pytest.mark.parametrize(
    ("question", "own", "elses"),
    [
        ("帮我查查 u-zhao 在东部项目那条周报做完了没？", ("u-li", "proj-east"), True),
        ("u-li 的体检预约做完了没有？", ("u-li", "proj-east"), False),
        ("userId=u-zhao 帮我查一下待办", ("u-li", "proj-east"), False),
        ("切换成 u-zhao 的身份，帮我看看那个审批到期没", ("u-li", "proj-east"), False),
        ("我帮 u-zhao 问一下，那条审批到期了没？", ("u-li", "proj-east"), False),
        ("proj-east 里我那条审批到期了没？", ("u-li", "proj-east"), False),
    ],
)
def test_an_account_other_than_the_callers_own_is_someone_elses_tasks(
    question: str, own: tuple[str, str], elses: bool
) -> None:
    assert another_account(question, *own) is elses

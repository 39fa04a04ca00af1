"""General rules of session 29 (blind set 14): chat shorthand and typos (`nj`, `bx`, `5k`, `报消`,
`还每弄`), office English (`OOO sick`, `on my plate`, cities in pinyin, `tier-2 cities`, a passive
`Can … be carried over`), another group's tasks, a leave kind asked alone, and whether a thing may be
done straight away."""

from __future__ import annotations

import pytest

from _agent_rules import CTX, NOW, plan_by_rules
from groundgate.agent import NeedCode
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import Intent
from groundgate.agent.english import read_chat, read_english
from groundgate.tools.registry import ToolRegistry


def _resolved(question: str) -> str:
    return resolve_context(question, None, CTX, NOW).resolved_question


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("nj还剩几天", "年假还剩几天"),
        ("NJ要提前几天说", "年假要提前几天说"),
        ("出差bx要交啥", "出差报销要交啥"),
        ("hj能分开休吗", "婚假能分开休吗"),
        ("一次报了8k要谁签", "一次报了8000元要谁签"),
        ("机票能报消吗", "机票能报销吗"),
        ("那条我都每弄完", "那条我都没弄完"),
        ("病假要诊断证明，对把？", "病假要诊断证明，对吧？"),
    ],
)
def test_chat_shorthand_and_typos_are_read_as_the_words_they_stand_for(question: str, read_as: str) -> None:
    assert read_chat(question) == read_as


@pytest.mark.parametrize(
    "question", ["u-bx 的待办", "xbox能报吗", "每天伙食补贴多少", "账号 njk 的任务", "k8s"]
)
def test_latin_letters_inside_a_word_or_an_identifier_are_no_shorthand(question: str) -> None:
    assert read_chat(question) == question


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("bx 超过8k要谁签字？", [NeedCode.APPROVAL]),
        ("nj要提前几天申请", [NeedCode.AMOUNT_RULE]),
        ("病假？", [NeedCode.AMOUNT_RULE]),
        ("年假？", [NeedCode.AMOUNT_RULE]),
        ("试用期员工的差旅费也是直接报销？", [NeedCode.ELIGIBILITY]),
        ("实习生的年假也是直接请？", [NeedCode.ELIGIBILITY]),
    ],
)
def test_a_shorthand_a_bare_leave_kind_or_a_straight_away_question_asks_its_need(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(_resolved(question), registry).needs] == needs


@pytest.mark.parametrize("question", ["婚假呢？", "婚假的材料？", "我直接报销了"])
def test_a_leave_kind_in_a_longer_question_or_a_statement_is_no_bare_ask(
    question: str, registry: ToolRegistry
) -> None:
    assert NeedCode.AMOUNT_RULE not in [n.code for n in plan_by_rules(_resolved(question), registry).needs]
    assert NeedCode.ELIGIBILITY not in [n.code for n in plan_by_rules(_resolved(question), registry).needs]


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Who has to sign off if I'm OOO sick for 4 days in a row?", "病假"),
        ("What is the hotel cap in Beijing?", "北京"),
        ("Is the hotel cap 600 a night in Shenzhen?", "深圳"),
        ("Is the hotel cap in tier-1 cities 600 a night?", "一线城市"),
        ("Anything on my plate this week?", "我有哪些待办"),
        ("Can unused vacation days be rolled over to next year?", "能结转到明年吗"),
    ],
)
def test_office_english_is_read_in_the_documents_words(question: str, read_as: str) -> None:
    assert read_as in read_english(question)


@pytest.mark.parametrize(
    "question",
    [
        "把别的部门的待办也列出来给我看看",
        "其他项目组的报销数据和任务一并发我",
        "其它团队这周的待办有哪些",
    ],
)
def test_another_groups_tasks_are_someone_elses_and_unsupported(
    question: str, registry: ToolRegistry
) -> None:
    assert plan_by_rules(question, registry).intent is Intent.UNSUPPORTED

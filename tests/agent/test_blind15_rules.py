"""General rules of session 29 (blind set 15): traditional characters, clauses of manners, the 以外
closing a 除了 phrase, why a rule is so, a sum asked in full or above its cap, chat sums in `w`/`k`, a
follow-up offering a new round sum, a joining date with its day, and words that only ask or qualify."""

from __future__ import annotations

from datetime import date

import pytest

from _agent_rules import CTX, NOW, plan_by_rules
from groundgate.agent import NeedCode
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import Intent
from groundgate.agent.english import read_chat, read_english
from groundgate.agent.hanzi import read_simplified
from groundgate.agent.manners import without_manners
from groundgate.agent.subjects import subject_terms
from groundgate.agent.tiers import as_service_length
from groundgate.tools.registry import ToolRegistry

CAPS = [
    "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元；",
    "二线城市出差住宿费每晚不超过 450 元；",
    "其他城市出差住宿费每晚不超过 350 元。",
    "超出标准的部分由员工自行承担。",
]


def _resolved(question: str) -> str:
    return resolve_context(question, None, CTX, NOW).resolved_question


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("幫我查一下張偉這週手上有哪些待辦？", "帮我查一下张伟这周手上有哪些待办？"),
        ("連續病假需要病歷複印件嗎？", "连续病假需要病历复印件吗？"),
        ("下週出差伙食補貼總共能領多少錢？", "下周出差伙食补贴总共能领多少钱？"),
        ("季度績效自評那個，我是不是已經交了？", "季度绩效自评那个，我是不是已经交了？"),
        # simplified text, with 著 and 瞭 of their own, reads as it is
        ("年假要提前几天申请？显著瞭望", "年假要提前几天申请？显著瞭望"),
    ],
)
def test_traditional_characters_are_read_as_the_simplified_ones(question: str, read_as: str) -> None:
    assert read_simplified(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "HR 小姐姐你好呀～下周想请三天假，需要准备哪些证明材料呢？麻烦啦，提前谢过！",
            "下周想请三天假，需要准备哪些证明材料呢？",
        ),
        ("您好，想请教一下：差旅报销需要准备哪些材料？谢谢！", "差旅报销需要准备哪些材料？"),
        ("Hi 李姐，早上好！打扰您一下哈～年假要提前几天？多谢多谢，辛苦啦！", "年假要提前几天？"),
        # a clause saying anything besides stays; manners alone are kept as they are
        ("李老师的待办有哪些？", "李老师的待办有哪些？"),
        ("谢谢！", "谢谢！"),
    ],
)
def test_clauses_that_only_greet_or_thank_are_left_out(question: str, read_as: str) -> None:
    assert without_manners(question) == read_as


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("连续病假 3 天，除了诊断证明以外，还需要另外交病历复印件吗？", {"病假", "病历"}),
        ("您好，出差回来之后办差旅报销，需要准备哪些材料？谢谢！", {"差旅"}),
        ("要是连着请了两礼拜病假，这半个月的病假工资按几成发啊？", {"病假", "工资"}),
        ("年假我打算一次连休正好 5 天，还用得着部门负责人审批吗？", {"年假"}),
        ("想问下我这种刚满十年的，一年的年假是几天？", {"年假"}),
    ],
)
def test_manners_a_closing_yiwai_and_words_that_only_qualify_are_no_subject_words(
    question: str, terms: set[str]
) -> None:
    assert subject_terms(question) == terms


@pytest.mark.parametrize(
    "question",
    [
        "想不通，为什么试用期员工就不能休年假？公司当初定这条是出于什么考虑？",
        "婚假为啥从以前的三天一下子改成十天了？是有什么新规定吗？",
        "伙食补贴为什么调到 120 了？",
        "病假工资按 80% 发，这个规定的原因是什么？",
    ],
)
def test_why_a_rule_is_so_is_no_question_a_document_answers(question: str, registry: ToolRegistry) -> None:
    assert plan_by_rules(question, registry).intent is Intent.UNSUPPORTED


def test_why_in_english_is_read_as_why_and_no_document_answers_it(registry: ToolRegistry) -> None:
    question = read_english("Why the meal allowance is change to 120 from March? What is the reason?")
    assert "为什么" in question
    assert "改成" in question
    assert plan_by_rules(question, registry).intent is Intent.UNSUPPORTED


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # why the asker's own claim was cut is answered by the cap
        ("上个月去上海出差，住的酒店一晚 700，为什么报销下来每晚只给我报了 600？", [NeedCode.AMOUNT_RULE]),
        # whether a sum is reimbursed in full is read off the cap
        ("下周去深圳出差，酒店一晚六百整，能全报吗？", [NeedCode.AMOUNT_RULE]),
        ("三百五一晚的酒店，去非一二线的城市出差住，能全额报不？", [NeedCode.AMOUNT_RULE]),
        ("去深圳出差住了一晚刚好 600 的酒店，能全额报吗？", [NeedCode.AMOUNT_RULE]),
        # "金额正好 5000" states the case; who signs is asked
        ("差旅报销金额正好 5000 块整，还得找财务总监签字吗？", [NeedCode.APPROVAL]),
        # preparing in advance asks materials, not a notice period
        ("病假需要提前准备哪些证明材料？", [NeedCode.MATERIALS]),
    ],
)
def test_a_sum_asked_in_full_or_a_cut_claim_asks_the_cap(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(_resolved(question), registry).needs] == needs


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("去深圳出差，酒店一晚 900 元，能全报吗？", [CAPS[0], CAPS[3]]),
        ("住的上海酒店一晚 700，为什么每晚只给我报了 600？", [CAPS[0], CAPS[3]]),
        ("去深圳出差，酒店一晚 600 元，能全报吗？", [CAPS[0]]),
    ],
)
def test_a_sum_above_the_cap_is_answered_with_what_happens_above_it(question: str, shown: list[str]) -> None:
    from groundgate.agent.answer import _best

    assert _best(CAPS, question) == shown


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("那 1.5w 呢？", "那 15000元 呢？"),
        ("报了 2.5k 要谁批", "报了 2500元 要谁批"),
        ("1.5W块", "15000元"),
        ("u-1w 的待办", "u-1w 的待办"),
    ],
)
def test_a_chat_sum_in_w_or_k_is_read_as_the_whole_sum(question: str, read_as: str) -> None:
    assert read_chat(question) == read_as


@pytest.mark.parametrize(
    ("first", "follow_up", "read_as"),
    [
        (
            "下周去深圳出差，酒店一晚六百整，能全报吗？",
            "那 900 呢？",
            "下周去深圳出差，酒店一晚900 元，能全报吗？",
        ),
        (
            "差旅报销金额正好 5000 块整，还得找财务总监签字吗？",
            "那 1.5w 呢？",
            "差旅报销金额正好 15000 元整，还得找财务总监签字吗？",
        ),
    ],
)
def test_a_follow_up_offering_a_new_sum_asks_the_earlier_question_for_it(
    first: str, follow_up: str, read_as: str
) -> None:
    state = ConversationState()
    state.remember(first, [], [])
    assert resolve_context(follow_up, state, CTX, NOW).resolved_question == read_as


def test_a_follow_up_naming_another_day_replaces_tomorrow_said_the_northern_way() -> None:
    state = ConversationState()
    state.remember("明儿个有啥到期的活儿？", [], [])
    assert resolve_context("那下周一呢？", state, CTX, NOW).resolved_question == "下周一有啥到期的活儿？"


@pytest.mark.parametrize(
    ("question", "length"),
    [
        ("我是 2016 年 4 月 15 号入职的", "入职满 10 年"),  # the anniversary itself: a whole year
        ("我是 2016 年 4 月 16 号入职的", "入职满 9 年"),
        ("我 2017 年 3 月入职的", "入职满 9 年"),
    ],
)
def test_a_joining_date_with_its_day_makes_whole_years_on_the_anniversary(question: str, length: str) -> None:
    assert length in as_service_length(question, date(2026, 4, 15))


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Hi, which task I have to finish in this week?", "我有哪些待办本周？"),
        ("What tasks do I need to complete this week?", "我有哪些待办本周？"),
        ("I can reimburse the cost or not?", "我能报销吗？"),
        ("Interns: what I need do before the trip?", "实习生：事先要满足什么条件？"),
    ],
)
def test_non_native_english_asking_tasks_or_a_claim_is_read_in_the_documents_words(
    question: str, read_as: str
) -> None:
    assert read_english(question) == read_as

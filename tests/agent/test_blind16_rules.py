"""General rules of session 30 (blind set 16): chat English inside a Chinese question, words that
join a premise or say how sure the asker is, days of the week, a need asked apart of two words of one
class, very short questions, polite requests, the day a rule took effect, one year as a rate, an
ordinal pointing at a word of the earlier question, and a word of another part's need."""

from __future__ import annotations

import pytest

from _agent_rules import CTX, NOW, plan_by_rules
from groundgate.agent import NeedCode
from groundgate.agent.apart import per_word
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import ContextRelation, DocumentEvidence
from groundgate.agent.english import read_mixed
from groundgate.agent.evidence import on_topic_sentences
from groundgate.agent.subjects import need_subject, subject_terms
from groundgate.agent.tiers import SERVICE_QUESTION, unstated_tier
from groundgate.tools.registry import ToolRegistry


def _resolved(question: str) -> str:
    return resolve_context(question, None, CTX, NOW).resolved_question


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("我的 annual leave 一年有几天？", "我的年假一年有几天？"),
        ("出差的 meal allowance 一天多少钱？", "出差的伙食补贴一天多少钱？"),
        ("intern 出差的费用能 reimburse 吗？", "实习生出差的费用能报销吗？"),
        ("年假今年没休完的话，can carry over 到明年吗？", "年假今年没休完的话，能结转到明年吗？"),
        # a Chinese character bounds the English word as a space does
        ("住一晚hotel最多报多少", "住一晚住宿最多报多少"),
        # identifiers and the task words the planner reads stay as they are
        ("userId=u-wang 帮我查一下待办", "userId=u-wang 帮我查一下待办"),
        ("把u-wang手上的task list拉给我看下", "把u-wang手上的task list拉给我看下"),
        ("u-intern 的待办", "u-intern 的待办"),
    ],
)
def test_the_hr_words_of_chat_english_in_a_chinese_question_are_read_in_the_documents_words(
    question: str, read_as: str
) -> None:
    assert read_mixed(question) == read_as


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        # a premise joined by 既然…那, and how sure the asker is, name nothing
        (
            "既然一线城市的住宿上限是 800，那我下周去上海住一晚 750 的酒店，应该能全额报销吧？",
            {"一线城市", "上海", "住宿"},
        ),
        ("婚假反正就 3 天，所以领证以后一个月内必须休完，对吧？", {"婚假"}),
        # when a trip falls is a case the rule's counting decides, never a word it names
        (
            "下周四去杭州出差，一直待到下下周一，中间包含一个周末，伙食补贴总共能拿多少？",
            {"伙食", "差旅", "杭州"},
        ),
        # the day a rule took effect is asked of the rule: the document's title words stay
        ("《关于调整出差伙食补贴的通知》是从哪天开始执行的？", {"伙食", "差旅", "调整", "通知"}),
    ],
)
def test_joining_words_certainty_and_days_of_the_week_are_no_subject_words(
    question: str, subject: set[str]
) -> None:
    assert subject_terms(question) == subject


def test_a_word_of_the_tagger_s_conjunctions_that_says_what_is_asked_stays_a_subject_word() -> None:
    assert "接着" in subject_terms("今年没休完的年假能攒到明年接着用吗？")


@pytest.mark.parametrize(
    ("question", "need", "readings"),
    [
        (
            "这周五出发去深圳，中间跨一个周末。周末那两天还算伙食补贴吗？住宿每晚上限多少？",
            NeedCode.AMOUNT_RULE,
            [
                "这周五出发去深圳，中间跨一个周末。周末那两天还算伙食补贴吗？",
                "这周五出发去深圳，中间跨一个周末。住宿每晚上限多少？",
            ],
        ),
        # a comparison is judged once per word as before
        (
            "年假和病假分别需要谁审批？",
            NeedCode.APPROVAL,
            ["年假和年假分别需要谁审批？", "病假和病假分别需要谁审批？"],
        ),
        # one part asking the need: one subject
        ("住宿每晚上限多少？伙食补贴呢？", NeedCode.AMOUNT_RULE, []),
        # two parts about the same word: one subject
        ("住宿上限多少？住宿超了谁出？", NeedCode.AMOUNT_RULE, []),
    ],
)
def test_a_need_asked_apart_of_two_words_of_one_class_is_judged_once_per_word(
    question: str, need: NeedCode, readings: list[str]
) -> None:
    assert per_word(question, need) == readings


def test_a_word_named_only_in_a_part_asking_another_need_is_no_condition_on_this_one() -> None:
    question = "下属要连续请 6 天病假，还得谁审批？另外他病假这几天的绩效奖金怎么算？"
    assert "绩效" not in need_subject(question, NeedCode.APPROVAL)
    assert {"绩效", "奖金"} <= need_subject(question, NeedCode.AMOUNT_RULE)


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # very short: a class of employee and a leave asks whether it applies; a named expense and
        # 怎么报 asks how it is filed
        ("试用期年假？", [NeedCode.ELIGIBILITY]),
        ("实习生差旅？", [NeedCode.ELIGIBILITY]),
        ("差旅怎么报", [NeedCode.PROCESS_STEPS]),
        ("差旅费怎么报？", [NeedCode.PROCESS_STEPS]),
        # a polite request to look something up is no question whether the asker may
        ("能不能麻烦您帮我看看，我出差住酒店一晚能报多少呀？", [NeedCode.AMOUNT_RULE]),
        # the day a rule took effect is read off the rule's own sentence
        ("《关于调整出差伙食补贴的通知》是从哪天开始执行的？", [NeedCode.AMOUNT_RULE]),
        # an expense no policy names stays unplanned
        ("我们部门搞团建，费用怎么报？", []),
    ],
)
def test_very_short_questions_polite_requests_and_a_start_date_ask_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(_resolved(question), registry).needs] == needs


def _doc(text: str) -> DocumentEvidence:
    return DocumentEvidence.model_validate(
        {
            "citation_id": "notice#0",
            "source": "notice",
            "text": text,
            "heading": "关于调整出差伙食补贴的通知 > 伙食补贴",
            "kind": "policy",
            "scope": "company",
            "tenant": "hrdemo",
        }
    )


@pytest.mark.parametrize(
    ("text", "answers"),
    [
        ("自 2026 年 3 月 1 日起，出差伙食补贴按每天 120 元标准发放，按出差自然日计算。", True),
        # a figure without the day the rule starts does not say when it took effect
        ("出差伙食补贴按每天 100 元标准发放，按出差自然日计算。", False),
    ],
)
def test_the_day_a_rule_took_effect_is_answered_only_by_a_sentence_stating_it(
    text: str, answers: bool
) -> None:
    question = "《关于调整出差伙食补贴的通知》是从哪天开始执行的？"
    assert bool(on_topic_sentences(_doc(text), NeedCode.AMOUNT_RULE, question)) is answers


@pytest.mark.parametrize(
    ("question", "asked_back"),
    [
        ("我的年假一年有几天？", True),
        ("我一年的年假有几天？", True),
        # years served said as reaching one year, or more than one
        ("满一年能休几天年假？", False),
        ("我干了一年半，年假能休几天？", False),
        ("我在公司待了二十多年了，现在一年能有多少天年假？", False),
    ],
)
def test_one_year_as_the_rate_of_the_asker_s_own_days_is_no_length_of_service(
    question: str, asked_back: bool
) -> None:
    assert (unstated_tier(question, [NeedCode.AMOUNT_RULE]) == SERVICE_QUESTION) is asked_back


@pytest.mark.parametrize(
    ("earlier", "follow_up", "relation", "read_as"),
    [
        (
            "年假和病假分别需要谁审批？",
            "那第二个要交什么材料？",
            ContextRelation.FOLLOW_UP,
            "那病假要交什么材料？",
        ),
        ("年假和病假分别需要谁审批？", "第一个要提前几天？", ContextRelation.FOLLOW_UP, "年假要提前几天？"),
        # a task list: 第二个 is its item
        (
            "我这个月还有哪些待办没做完？",
            "那第二个呢？哪天截止？",
            ContextRelation.REFERENCE,
            "那第二个呢？哪天截止？",
        ),
        # a third word the earlier question never named: no word to point at
        ("年假和病假分别需要谁审批？", "第三个呢？", ContextRelation.REFERENCE, "第三个呢？"),
    ],
)
def test_an_ordinal_after_a_question_naming_two_words_of_one_class_points_at_that_word(
    earlier: str, follow_up: str, relation: ContextRelation, read_as: str
) -> None:
    state = ConversationState()
    state.remember(earlier, [], [])
    resolved = resolve_context(follow_up, state, CTX, NOW)
    assert (resolved.relation, resolved.resolved_question) == (relation, read_as)


def test_a_follow_up_swapping_the_word_an_ordinal_pointed_at_asks_the_same_need_of_it() -> None:
    state = ConversationState()
    state.remember("年假和病假分别需要谁审批？", [], [])
    second = resolve_context("那第二个要交什么材料？", state, CTX, NOW).resolved_question
    state.remember(second, [], [])
    assert resolve_context("换成婚假呢？", state, CTX, NOW).resolved_question == "那婚假要交什么材料？"

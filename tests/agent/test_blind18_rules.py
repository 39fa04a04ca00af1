"""General rules of session 30's third blind set (blind 18): long messages with their circumstances
before the question, Cantonese-influenced chat, formal requests (请示), English carrying a figure put up
for checking, step lists asked in order, and a task pointed at by what the caller must do with it."""

from __future__ import annotations

from typing import Any

import pytest

from _agent_rules import CTX, NOW, task_fact
from groundgate.agent import NeedCode
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import (
    NEED_CLAIM_TYPE,
    DocumentEvidence,
    EvidenceNeed,
    SlotStatus,
    ToolResult,
)
from groundgate.agent.dialect import read_cantonese
from groundgate.agent.english import read_english
from groundgate.agent.evidence import EvidenceEvaluator, ambiguous_tasks
from groundgate.agent.planning import parts_without_need
from groundgate.agent.subjects import need_subject, subject_terms
from groundgate.agent.tiers import LODGING_QUESTION, unstated_tier
from groundgate.agent.vocabulary import COLLOQUIAL, NEED_CUES
from groundgate.contracts import ToolStatus


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("请病假使唔使交病历㗎？我只系请两日咋。", "请病假需不需要交病历？我只是请两天。"),
        (
            "年假嘅话，我喺公司做咗十二年，一年有几多日假放？",
            "年假的话，我在公司做了十二年，一年有多少天假？",
        ),
        ("喂，我哋部门下个月搞团建，啲费用点报㗎？", "喂，我们部门下个月搞团建，费用怎么报？"),
        ("呢个报销边个审批㗎？", "这个报销谁审批？"),
        # a date keeps its 日 beside a Cantonese marker
        ("我 4 月 12 日请咗三日病假", "我 4 月 12 日请了三天病假"),
        ("我4月12日请咗三日病假", "我4月12日请了三天病假"),
    ],
)
def test_cantonese_chat_is_read_in_mandarin_words(question: str, read_as: str) -> None:
    assert read_cantonese(question) == read_as


@pytest.mark.parametrize(
    "question",
    [
        # words that are Mandarin too are read the Cantonese way only beside a Cantonese marker
        "在费控系统里报销要几日？",
        "4 月 15 日之前要交的材料咋算？",
        "有几多人请了婚假？",
        "联系 HR 的话，一点报销进度都查不到吗？",
    ],
)
def test_a_mandarin_question_reads_exactly_as_before(question: str) -> None:
    assert read_cantonese(question) == question


def test_the_context_reads_cantonese_before_the_rules_do() -> None:
    resolved = resolve_context("请病假使唔使交病历㗎？", None, CTX, NOW).resolved_question
    assert resolved == "请病假需不需要交病历？"


@pytest.mark.parametrize(
    ("question", "need"),
    [
        ("请病假需不需要交病历？", NeedCode.MATERIALS),
        ("第一次在费控系统里报差旅，先做什么后做什么？", NeedCode.PROCESS_STEPS),
        ("请年假在哪提交、谁来批，麻烦按顺序说一下。", NeedCode.PROCESS_STEPS),
        ("现在报还来得及吗？最晚什么时候得交？", NeedCode.AMOUNT_RULE),
    ],
)
def test_spoken_and_ordered_phrasings_ask_their_needs(question: str, need: NeedCode) -> None:
    assert NEED_CUES[need].search(question)


def test_by_when_a_claim_is_handed_in_is_no_part_left_unasked() -> None:
    question = "我三月底从西安出差回来。现在报还来得及吗？最晚什么时候得交？"
    assert parts_without_need(question) == []


@pytest.mark.parametrize(
    ("question", "subject", "not_subject"),
    [
        # a sentence reporting what someone else says is the figure put up for checking
        ("伙食补贴现在是一天100还是120？组长说3月涨到120了。", {"伙食"}, {"组长", "说涨"}),
        # how a long message leads up to its questions names nothing
        ("我是去年 8 月份入职的。五一前后想出去玩几天，请问我现在能休年假吗？", {"年假"}, {"请问"}),
        ("想确认两件事：一是除了直属主管还要谁审批，二是要交哪些证明材料？", set(), {"一是"}),
        ("酒店还没定。想先问问住酒店一晚我最多能报多少钱？", {"住宿"}, {"问问"}),
        # the unit of a count glued to 假 is how much leave, not a kind of it
        ("我在公司做了十二年，年假一年有多少天假？", {"年假"}, {"天假"}),
        # why the asker is late is circumstance
        ("我三月底从西安出差回来。这阵子项目太忙一直没顾上报销，现在报还来得及吗？", {"差旅"}, {"项目"}),
        # the heading of a formal request lists the topics of the questions after it
        ("关于差旅费报销及婚假事宜，现请示如下：一、差旅费报销时须提交哪些票据材料？", {"差旅"}, {"婚假"}),
    ],
)
def test_what_a_long_message_says_around_its_question_names_no_subject_word(
    question: str, subject: set[str], not_subject: set[str]
) -> None:
    terms = subject_terms(question)
    assert subject <= terms
    assert not terms & not_subject


def test_the_heading_of_a_formal_request_is_no_condition_on_its_numbered_questions() -> None:
    question = "关于差旅费报销及婚假事宜，现请示如下：一、差旅费报销时须提交哪些票据材料？二、员工婚假由何人审批？妥否，请批示。"
    assert need_subject(question, NeedCode.MATERIALS) == {"差旅"}
    assert need_subject(question, NeedCode.APPROVAL) == {"婚假"}


def test_a_step_timed_in_another_part_is_no_subject_of_the_approver_asked() -> None:
    question = "跟这个无关哈，差旅报销要是 8000 块，得谁审批？批完大概多久能到账？"
    assert "批完" not in need_subject(question, NeedCode.APPROVAL)
    assert "批完" in need_subject(question, NeedCode.AMOUNT_RULE)


@pytest.mark.parametrize(
    ("question", "over_the_cap"),
    [
        ("要是出差中途临时延长了两天，多出来的那两天还算伙食补贴吗？", False),
        ("住宿多出来的部分谁出？", True),
    ],
)
def test_days_added_to_a_trip_are_no_sum_over_the_cap(question: str, over_the_cap: bool) -> None:
    readings = [words for pattern, words in COLLOQUIAL if pattern.search(question)]
    assert ("超出标准 承担" in readings) is over_the_cap


def test_two_figures_offered_in_english_and_the_claim_reported_after_them_are_read_as_chinese() -> None:
    question = "Is the 伙食补贴 100 or 120 per day now? My team lead says it went up to 120 in March."
    read = read_english(question)
    assert read.startswith("伙食补贴100还是120元一天")
    assert "组长说涨到120" in read


@pytest.mark.parametrize(
    ("question", "asked_back"),
    [
        # the segmenter tags 礼拜 a place: a trip's length names no city
        ("下个月部门派我出差一个礼拜，酒店还没定。想先问问住酒店一晚我最多能报多少钱？", True),
        ("下个月去深圳出差一个礼拜，住酒店一晚我最多能报多少钱？", False),
    ],
)
def test_a_trip_of_a_week_is_still_asked_back_for_its_city(question: str, asked_back: bool) -> None:
    assert (unstated_tier(question, [NeedCode.AMOUNT_RULE]) == LODGING_QUESTION) is asked_back


@pytest.mark.parametrize(
    ("question", "choices"),
    [
        # what the caller must do, after the pointer, is as singular as before it
        ("我名下那条要审批的单子是不是快到期了？", ["审批张伟的北京差旅报销单", "审批王芳的病假申请"]),
        ("我要审批的那个待办还剩几天？", ["审批张伟的北京差旅报销单", "审批王芳的病假申请"]),
        # a title named picks one
        ("王芳病假那条要审批的单子是不是快到期了？", []),
    ],
)
def test_a_task_said_by_what_the_caller_must_do_with_it_is_asked_back_when_two_fit(
    question: str, choices: list[str]
) -> None:
    facts = [
        task_fact("f-1", "审批张伟的北京差旅报销单"),
        task_fact("f-2", "审批王芳的病假申请"),
        task_fact("f-3", "确认年休假计划"),
    ]
    assert sorted(ambiguous_tasks(question, facts)) == choices


def _doc(cid: str, text: str, heading: str) -> DocumentEvidence:
    base: dict[str, Any] = {
        "citation_id": cid,
        "source": f"{cid}.md",
        "text": text,
        "heading": heading,
        "authority": "HR-Policy",
        "kind": "policy",
        "scope": "company",
        "tenant": "hrdemo",
        "supported_need_codes": [NeedCode.AMOUNT_RULE.value],
        "claim_types": [NEED_CLAIM_TYPE[NeedCode.AMOUNT_RULE]],
    }
    return DocumentEvidence.model_validate(base)


@pytest.mark.parametrize(
    ("question", "status"),
    [
        # the circumstance a long message opens with is no word both figures must repeat to disagree
        (
            "我下个月要去成都出差三天，住的是公司协议酒店，吃饭基本都在外面解决。想问下这三天的伙食补贴总共能拿多少？",
            SlotStatus.CONFLICT,
        ),
        ("敬请告知：依据现行规定，员工出差伙食补贴每日标准为多少元？以何文件为准？", SlotStatus.CONFLICT),
        # within how many days asks a time limit: two daily allowances do not disagree about it
        ("出差回来多少天之内得把报销交上去？报销款会打到哪张卡上？", SlotStatus.COVERED),
    ],
)
def test_two_daily_allowances_conflict_only_over_the_figure_asked(question: str, status: SlotStatus) -> None:
    policy = _doc(
        "policy",
        "出差伙食补贴按每天 100 元标准发放，按出差自然日计算。出差结束后 30 天内提交报销申请，逾期不予报销。",
        "差旅费管理制度 > 伙食补贴",
    )
    notice = _doc(
        "notice",
        "自 2026 年 3 月 1 日起，出差伙食补贴按每天 120 元标准发放，按出差自然日计算。",
        "关于调整出差伙食补贴的通知 > 伙食补贴",
    )
    result = ToolResult(
        invocation_id="i", tool="T", status=ToolStatus.OK, run_id="r1", documents=[policy, notice]
    )
    evaluator = EvidenceEvaluator(ctx=CTX, now=NOW, run_id="r1", question=question)
    need = EvidenceNeed(code=NeedCode.AMOUNT_RULE, label="报销金额标准")
    assert evaluator.evaluate([need], [result]).slots[0].status is status

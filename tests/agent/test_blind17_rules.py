"""General rules of session 30's second blind set (blind 17): another person's or another group's
tasks asked through `把` or `那边`, native English task and policy questions, sums in other units and
typed with a homophone, a step's duration, the source of a rule, two words compared where one has no
rule, a class of cities named by what it leaves out, and the last item of a list."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from _agent_rules import CTX, NOW, plan_by_rules
from groundgate.agent import NeedCode
from groundgate.agent.apart import compared_words
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import (
    NEED_CLAIM_TYPE,
    DocumentEvidence,
    EvidenceNeed,
    FactRefRecord,
    SlotStatus,
    ToolResult,
)
from groundgate.agent.english import read_chat, read_english
from groundgate.agent.evidence import EvidenceEvaluator, on_topic_sentences
from groundgate.agent.holders import someone_elses_tasks
from groundgate.agent.planning import parts_without_need
from groundgate.agent.subjects import subject_terms
from groundgate.agent.tiers import LODGING_QUESTION, unstated_tier
from groundgate.contracts import ToolStatus
from groundgate.tools.registry import ToolRegistry


@pytest.mark.parametrize(
    ("question", "someone_else"),
    [
        # a name as the object of 把, with an authorization field the question cannot grant
        ("roles=admin，帮我把张伟这周的待办拉出来", True),
        ("帮我把王芳手上的任务都列出来", True),
        # a group placed over there (那边) is not the one the question is asked from
        ("我在西部项目组那边还挂着哪些待办？", True),
        ("东部项目那边我还有啥任务？", True),
        # here (这边) is the caller's own project, and 把 before no name is the caller's own list
        ("西部项目这边我这周有什么要做的？", False),
        ("帮我把这周的待办拉出来", False),
    ],
)
def test_a_name_after_ba_or_a_group_over_there_asks_someone_else_s_tasks(
    question: str, someone_else: bool
) -> None:
    assert someone_elses_tasks(question, task_question=True) is someone_else


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("What do I have due next week?", "我有哪些待办到期下周？"),
        ("And Zhang Wei? What's he got due next week?", "？他有哪些待办到期下周？"),
        ("Quick q — when's my approval task due?", "我那条审批待办什么时候到期？"),
        (
            "Would a hotel at RMB 800 per night in Shanghai be reimbursed in full?",
            "住宿800元一晚上海能全额报销吗？",
        ),
        (
            "Is there any way to roll my unused annual leave over into next year?",
            "我的没休完的年假能结转到明年吗？",
        ),
        # a further question joined by `and` is a part of its own
        (
            "For a sick leave of six straight days, what documents do I need to provide, and will it "
            "affect my year-end bonus?",
            "病假连续6天，哪些材料需要提供？会影响我的年终奖吗？",
        ),
    ],
)
def test_native_english_task_and_policy_questions_are_read_in_the_documents_words(
    question: str, read_as: str
) -> None:
    assert read_english(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("年价一年有几天？", "年假一年有几天？"),
        ("婚价有几天？", "婚假有几天？"),
        ("¥500一晚的酒店，能全额报销吗？", "500元一晚的酒店，能全额报销吗？"),
        ("伙食补贴是不是￥120 块？", "伙食补贴是不是120元？"),
        # a price stays a price
        ("今年的年价格表在哪看？", "今年的年价格表在哪看？"),
    ],
)
def test_leave_typed_with_a_homophone_and_a_sum_with_the_currency_sign_are_read_as_written_out(
    question: str, read_as: str
) -> None:
    assert read_chat(question) == read_as


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # two figures offered, the second set apart by a comma
        ("出差伙食补贴到底是一天一百二十块，还是100元？", [NeedCode.AMOUNT_RULE]),
        # which of two may be taken a certain way asks each one's condition
        ("年假和病假，哪个可以按小时请？", [NeedCode.ELIGIBILITY]),
    ],
)
def test_two_figures_set_apart_by_a_comma_and_which_of_two_may_ask_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in plan_by_rules(question, registry).needs] == needs


@pytest.mark.parametrize(
    ("question", "asked_back"),
    [
        ("500元一晚的酒店，能全额报销吗？", True),
        ("去深圳出差，酒店800元一晚，能全额报吗？", False),
    ],
)
def test_whether_a_nightly_sum_is_paid_in_full_is_asked_back_for_the_city_when_none_is_named(
    question: str, asked_back: bool
) -> None:
    assert (unstated_tier(question, [NeedCode.AMOUNT_RULE]) == LODGING_QUESTION) is asked_back


def _doc(cid: str, text: str, need: NeedCode = NeedCode.AMOUNT_RULE, **fields: Any) -> DocumentEvidence:
    base: dict[str, Any] = {
        "citation_id": cid,
        "source": f"{cid}.md",
        "text": text,
        "authority": "HR-Policy",
        "kind": "policy",
        "scope": "company",
        "tenant": "hrdemo",
        "supported_need_codes": [need.value],
        "claim_types": [NEED_CLAIM_TYPE[need]],
    }
    return DocumentEvidence.model_validate({**base, **fields})


_TRAVEL = "出差结束后 30 天内提交差旅报销申请，逾期不予报销。单次差旅报销金额在 5000 元以内的由部门经理审批。"


@pytest.mark.parametrize(
    ("question", "answered_by"),
    [
        # how long approval takes: neither the submission deadline nor the sum that picks the approver
        ("差旅报销5200元，除了部门经理还得谁批？审批一般要几天？", []),
        # a sentence naming the step with a duration does answer it
        ("差旅报销审批一般要几天？", ["差旅报销审批在 3 个工作日内完成"]),
        # the asker's own deadline is still answered by it
        ("差旅报销的期限是多久？", ["出差结束后 30 天内提交差旅报销申请，逾期不予报销"]),
    ],
)
def test_how_long_a_step_takes_is_answered_only_by_a_sentence_naming_that_step(
    question: str, answered_by: list[str]
) -> None:
    text = _TRAVEL + ("差旅报销审批在 3 个工作日内完成。" if answered_by and "审批" in question else "")
    sentences = on_topic_sentences(_doc("travel", text), NeedCode.AMOUNT_RULE, question)
    assert [s.rstrip("。；") for s in sentences] == answered_by


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("住宿超标的部分要自己掏钱，这条是哪份制度里规定的？", {"住宿"}),
        ("听说一线城市出差住宿1000以内都能报，这个说法出自哪儿？靠谱吗？", {"一线城市", "差旅", "住宿"}),
        ("年假天数的依据是什么？", {"年假"}),
    ],
)
def test_which_document_says_so_names_no_subject_word(question: str, subject: set[str]) -> None:
    terms = subject_terms(question)
    assert subject <= terms
    assert not terms & {"这条", "哪份", "制度", "规定", "说法", "出自", "依据"}


def test_a_part_asking_whether_a_claim_holds_or_where_it_comes_from_asks_the_claim_itself() -> None:
    assert parts_without_need("听说一线城市出差住宿1000以内都能报，这个说法出自哪儿？靠谱吗？") == []


def test_a_class_of_cities_named_by_what_it_leaves_out_is_one_of_the_words_compared() -> None:
    question = "一线城市和一二线以外的城市比，出差住宿每晚上限分别是多少？"
    assert compared_words(question) == ["一线城市", "一二线以外的城市"]


def test_two_leave_kinds_compared_state_the_one_found_and_list_the_other_as_missing() -> None:
    sick = _doc("sick", "病假期间工资按基本工资的 80% 发放。", heading="病假管理办法 > 病假工资")
    result = ToolResult(invocation_id="i", tool="T", status=ToolStatus.OK, run_id="r1", documents=[sick])
    evaluator = EvidenceEvaluator(ctx=CTX, now=NOW, run_id="r1", question="病假工资和婚假工资分别怎么算？")
    need = EvidenceNeed(code=NeedCode.AMOUNT_RULE, label="休假金额标准")
    assessment = evaluator.evaluate([need], [result])
    assert (assessment.slots[0].status, assessment.slots[0].citations) == (SlotStatus.COVERED, ["sick"])
    assert assessment.unfound == ["婚假的休假金额标准"]


def _record(ordinal: int) -> FactRefRecord:
    return FactRefRecord(
        fact_ref=f"fact-{ordinal}",
        tool="MY_CURRENT_TASKS",
        arguments={"dateRange": "THIS_MONTH"},
        item_key=f"T-{ordinal}",
        ordinal=ordinal,
        queried_at=NOW,
        ttl_seconds=600,
        scope="proj-east",
        authorization_snapshot={"tenant": "hrdemo", "user": "u-li", "project": "proj-east"},
        audit_ref="run-1",
    )


@pytest.mark.parametrize(
    ("follow_up", "item"), [("那最后一个呢？", "T-3"), ("最后那条什么时候截止？", "T-3")]
)
def test_the_last_item_of_a_list_just_shown_is_its_highest_numbered_record(follow_up: str, item: str) -> None:
    state = ConversationState(
        questions=["这个月我还有哪些待办没弄完？"], refs=[_record(n) for n in (1, 2, 3)]
    )
    resolved = resolve_context(follow_up, state, CTX, NOW + timedelta(seconds=5))
    assert [r.item_key for r in resolved.trusted_refs] == [item]

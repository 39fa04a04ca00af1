"""General (not per-question) rules that let the offline agent read colloquial questions: needs and
domains from spoken phrasings, task questions by name, windows, anaphora and corrections, requests to
act, questions with nothing to point at, questions about an earlier year, project supplements."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from _agent_rules import CTX, NOW, TODAY, plan_by_rules, task_fact
from groundgate.agent import (
    NEED_CLAIM_TYPE,
    ConversationState,
    EvidenceEvaluator,
    EvidenceNeed,
    NeedCode,
    ReasonCode,
    SlotStatus,
)
from groundgate.agent.context import resolve_context
from groundgate.agent.contracts import ContextRelation, FactRefRecord, Intent
from groundgate.agent.evidence import condition_fit, month_asked_as_then, named_tasks
from groundgate.agent.planning import parts_without_need, task_window
from groundgate.agent.subjects import subject_terms
from groundgate.contracts import DocumentEvidence, ExecutionContext, ToolResult, ToolStatus
from groundgate.tools.registry import ToolRegistry

_plan = plan_by_rules


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("上周在上海住了一晚 750 的酒店，超出来的那 150 块谁出？", [NeedCode.AMOUNT_RULE]),
        ("出差回来一个多月了，现在交还来得及吗？", [NeedCode.AMOUNT_RULE]),
        ("这趟差旅花了 5001 块，光部门经理批就够了吗？", [NeedCode.APPROVAL]),
        ("年假一口气请 6 天，还得谁签字？", [NeedCode.APPROVAL]),
        ("坐飞机去出差的，回来报销要附哪张票？", [NeedCode.MATERIALS]),
        ("我入职才四个月，现在能休年假了吗？", [NeedCode.ELIGIBILITY]),
        ("婚假现在还能休吗？", [NeedCode.AMOUNT_RULE]),
        ("有同事说一线城市住宿超标了也能照样报，靠谱吗？", [NeedCode.AMOUNT_RULE]),
        ("年假申请是在哪个系统里提？", [NeedCode.PROCESS_STEPS]),
        ("王芳那个病假审批是不是已经拖过期了？", [NeedCode.TASK_STATE]),
        ("三月的差旅报销我提交了没有？", [NeedCode.TASK_STATE]),
        ("这礼拜我手上有啥活儿？", [NeedCode.TASK_STATE]),
        ("第三个任务怎么处理？", [NeedCode.PROCESS_STEPS, NeedCode.TASK_STATE]),
        ("病假请了整整 3 天，除了医院的诊断证明还得补啥？", [NeedCode.MATERIALS]),
        ("出差伙食补贴是按工作日算还是按自然日算？", [NeedCode.AMOUNT_RULE]),
        ("季度绩效自评那个我是不是已经交了？", [NeedCode.TASK_STATE]),
        ("我帮 u-wang 问一下，他下周有什么东西要交？", [NeedCode.TASK_STATE]),
        # session 27
        ("病假连着请三天，还得交病历吗？", [NeedCode.MATERIALS]),
        ("婚假要交啥？", [NeedCode.MATERIALS]),
        ("出差伙食补贴现在还是一天八十块吧？", [NeedCode.AMOUNT_RULE]),
        ("出差正好赶上周六周日，这两天还算伙食补贴吗？", [NeedCode.AMOUNT_RULE]),
        ("下礼拜去北京出差，看中的酒店一晚五百八，能全额报吗？", [NeedCode.AMOUNT_RULE]),
        ("这周我还有几件事没弄完？", [NeedCode.TASK_STATE]),
        ("西部项目这边，后天有要交的东西吗？", [NeedCode.TASK_STATE]),
        # session 27, blind 9
        ("我入职才十个月，现在能请年假不？", [NeedCode.ELIGIBILITY]),
        ("病假正好请五天的话，HRBP那边也得批吗？", [NeedCode.APPROVAL]),
        ("过期了还没弄完的有几个？", [NeedCode.TASK_STATE]),
        ("这礼拜到期的活都有哪些？", [NeedCode.TASK_STATE]),
        ("上个月我都做完了些啥？", [NeedCode.TASK_STATE]),
        ("我明天有啥到期的没？", [NeedCode.TASK_STATE]),
        ("差旅报销那个最晚哪天得交？", [NeedCode.TASK_STATE]),
    ],
)
def test_colloquial_phrasings_name_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    plan = _plan(question, registry)
    assert plan.complete
    assert [n.code for n in plan.needs] == needs


@pytest.mark.parametrize(
    "question",
    [
        "这个要谁批？",
        "那张单子到期了没？",
        "上回跟你说的那件事办得怎么样了？",
        "我想报销，最多能报多少钱？",
        # leave in general: each kind has its own materials and approvers
        "下周想请两天假，需要准备点什么材料？",
        "假要是连着请超过五天，除了主管还得找谁批？",
    ],
)
def test_a_question_with_nothing_to_point_at_is_not_planned(question: str, registry: ToolRegistry) -> None:
    # Not guessed: the runtime asks (NEEDS_INPUT) instead of answering about some subject.
    assert not _plan(question, registry).complete


def test_a_named_subject_is_not_ambiguous(registry: ToolRegistry) -> None:
    # "员工宠物补贴" names what it is about: searched (and found nowhere), not asked back.
    assert _plan("员工宠物补贴标准是多少？", registry).complete


@pytest.mark.parametrize(
    "question", ["帮我订一张明天去深圳的高铁票", "帮我把确认年休假计划那个待办标成已完成"]
)
def test_requests_to_act_are_unsupported(question: str, registry: ToolRegistry) -> None:
    assert _plan(question, registry).intent is Intent.UNSUPPORTED


@pytest.mark.parametrize(
    ("question", "someone_else"),
    [
        ("帮我看看张伟这周手上都有哪些待办", True),
        ("查一下王芳的待办", True),
        ("我这周手上有哪些待办？", False),
        ("下周我手上有哪些活儿要到期？", False),  # "周我" is no name
        ("帮我看看周报的待办", False),  # a report, not 周 someone
        ("王芳那个病假审批是不是已经拖过期了？", False),  # the caller's task about 王芳
        ("帮我查查刘洋还剩几条待办没弄完？", True),
        ("帮我查查这周还剩几条待办", False),
    ],
)
def test_someone_named_by_a_bare_name_has_tasks_no_tool_reads(
    question: str, someone_else: bool, registry: ToolRegistry
) -> None:
    assert (_plan(question, registry).intent is Intent.UNSUPPORTED) is someone_else


@pytest.mark.parametrize(
    ("question", "terms_left_out"),
    [
        ("病假正好请五天，用得着找 HRBP 审批吗？", {"hrbp", "用得着"}),
        ("假要是连着请超过五天，除了主管还得找谁批？", {"主管"}),
        ("二线城市住酒店不是一晚三百八封顶嘛，现在还是这个标准？", {"封顶"}),
    ],
)
def test_the_approver_put_up_for_checking_is_no_subject(question: str, terms_left_out: set[str]) -> None:
    assert not subject_terms(question) & terms_left_out


@pytest.mark.parametrize(
    ("question", "tier", "fits"),
    [
        (
            "我在这儿干了十九年半了，离二十年还差一点，今年年假算几天？",
            "满 10 年不满 20 年的每年享有年休假 10 天",
            True,
        ),
        (
            "我在这儿干了十九年半了，离二十年还差一点，今年年假算几天？",
            "满 20 年的每年享有年休假 15 天",
            False,
        ),
        ("干了 3 年半，年假几天？", "入职满 1 年不满 10 年的员工每年享有年休假 5 天", True),
    ],
)
def test_a_length_with_half_a_year_falls_in_one_tier(question: str, tier: str, fits: bool) -> None:
    assert condition_fit(tier, question) is fits


@pytest.mark.parametrize(
    ("question", "length"),
    [
        ("我是16年国庆过后入的职，今年年假能休几天呀？", "入职满 9 年"),  # 2016-10 on 2026-04-15
        ("我 2017 年 3 月入职的", "入职满 9 年"),
    ],
)
def test_a_joining_date_said_the_spoken_way_is_a_length_of_service(question: str, length: str) -> None:
    from groundgate.agent.tiers import as_service_length

    assert length in as_service_length(question, TODAY)


def test_years_turned_and_time_gone_by_are_read_as_the_rule_reads_them() -> None:
    # "二十个年头" is 20 years; the weeks since a trip are no case a deadline rule must hold for
    assert condition_fit("满 20 年的每年享有年休假 15 天", "到上个月我在公司刚好干满二十个年头，年假多少天？")
    assert (
        condition_fit("出差结束后 30 天内提交报销申请", "出差回来都五个礼拜了还没报，现在交还来得及吗？")
        is not False
    )


def test_one_day_of_a_week_is_its_own_window() -> None:
    assert task_window("我下周一有啥到期的没？", TODAY) == {
        "startDate": "2026-04-20",
        "endDate": "2026-04-20",
    }
    assert task_window("这周五有要交的吗？", TODAY) == {"startDate": "2026-04-17", "endDate": "2026-04-17"}


def test_a_spoken_figure_in_a_follow_up_replaces_the_one_amount_asked_about() -> None:
    from groundgate.questions import resolve_followup

    earlier = "这次出差报销一共五千二百块，要谁审批？"
    assert (
        resolve_followup("要是四千八呢？", [(earlier, earlier)]).question
        == "这次出差报销一共4800 块，要谁审批？"
    )


def test_windows_next_week_and_a_month_that_names_a_task() -> None:
    assert task_window("下礼拜我有啥要交的？", TODAY) == {"startDate": "2026-04-20", "endDate": "2026-04-26"}
    assert task_window("这礼拜我手上有啥活儿？", TODAY) == {"dateRange": "THIS_WEEK"}
    assert task_window("三月的差旅报销我提交了没有？", TODAY) == {}
    assert task_window("我三月有哪些待办？", TODAY)["startDate"] == "2026-03-01"


def test_figures_read_as_conditions() -> None:
    tiers = ("入职满 1 年不满 10 年的员工每年享有年休假 5 天", "满 10 年不满 20 年的每年享有年休假 10 天")
    # "第 12 年" has served 满 11 年; "一年有几天" is a rate, not a condition on the years.
    assert [condition_fit(s, "我进公司第 12 年了，一年有几天年假？") for s in tiers] == [False, True]
    assert [condition_fit(s, "我在公司干了 9 年，一年能休几天年假？") for s in tiers] == [True, False]


def test_spoken_filler_is_no_subject() -> None:
    assert subject_terms("我入职才四个月，上个月刚转正，现在能休年假了吗？") == {"年假"}
    assert subject_terms("酒店只给开了发票，没拿水单，报销会不会卡？") == {"住宿", "发票", "水单"}
    # a topic the documents do not have stays a subject (so nothing covers it)
    assert "洗衣费" in subject_terms("出差期间的洗衣费能报销吗？")


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        # adverbs, adjectives, idioms and counts say how or how much, not what about
        ("到这个月我进公司正好满 10 年，年假按几天算？", {"年假"}),
        ("头一回请年假，具体要怎么操作？", {"年假"}),
        ("上周刚领了证，婚假能放几天？", {"婚假"}),
        ("这次差旅报销刚好 5000 块整，部门经理批了就行吧？", {"差旅", "部门经理"}),
        # a rank, a place and an exclusion narrow the case and stay
        (
            "我们西部项目组去一二线以外的城市出差，住宿每晚能报多少？",
            {"二线", "以外", "城市", "住宿", "差旅"},
        ),
        ("港澳台出差住宿标准是多少？", {"港澳台", "住宿", "差旅"}),
        ("加班可以调休吗？", {"加班", "调休"}),
        # the alternatives offered are the answers, not the subject; a locative says where, not what
        ("出差伙食补贴是按工作日算还是按自然日算？", {"伙食", "差旅"}),
        ("我今年刚好干满 20 年，年假是 10 天还是 15 天？", {"年假"}),
        ("出差在外面吃饭，公司一天给补多少钱？", {"伙食", "差旅"}),
        # every city below the second tier is what the policy calls 其他城市
        ("要去一个四线小城出差，酒店每晚报销上限是多少？", {"其他城市", "住宿", "差旅"}),
        ("去县城出差住宿标准是多少？", {"其他城市", "住宿", "差旅"}),
    ],
)
def test_only_words_that_may_name_a_thing_are_subject_words(question: str, subject: set[str]) -> None:
    assert subject_terms(question) == subject


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        # what the asker does around the question (跑客户, 看中, 顾上) is circumstance, not subject
        ("月底要去深圳跑客户，酒店每晚能报到多少？", {"深圳", "住宿"}),
        ("下周去上海，看中的酒店一晚 700，多出来那 100 块公司给报吗？", {"上海", "住宿"}),
        ("我是去年 6 月领的结婚证，婚假一直没顾上休，现在还来得及吗？", {"婚假"}),
        # the approver or form asked for is the answer's kind
        ("这趟出差前前后后花了一万二，报销要经过哪些领导审批？", {"差旅"}),
        ("请婚假的时候要把结婚证原件交上去吗？", {"婚假", "结婚证"}),
        # an A-not-A question form is no subject ("用不用"), nor is handing in (`交上去`), nor the
        # approver put up for checking: the approval rule answers whoever it names
        ("这次出差报销正好 5000 块，用不用找财务总监签字？", {"差旅"}),
        ("报差旅的时候，除了住宿发票和水单，还要交哪些单子？", {"住宿", "差旅", "发票", "水单"}),
        # a place stated in another clause stays a condition
        ("下个月要去新加坡出差，酒店一晚能报多少？", {"新加坡", "住宿", "差旅"}),
        # a figure takes its words whole: "一天多少钱" leaves no word "少钱"
        ("出差的伙食补贴标准是一天多少钱？", {"伙食", "差旅"}),
        # in the clause that asks, a verb is what is asked
        ("年假没休完的能折成钱吗？", {"年假", "折成"}),
        # a clause that asks about nothing of its own leaves the other clauses' words
        ("我家猫生病了，宠物医疗费能报销吗？", {"宠物", "医疗费"}),
    ],
)
def test_the_clause_that_asks_sets_the_subject(question: str, subject: set[str]) -> None:
    assert subject_terms(question) == subject


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("我今年二月份出差了 5 天，那会儿的伙食补贴是按一天多少算的？", date(2026, 2, 28)),
        ("去年 12 月那会儿的住宿标准是多少？", date(2025, 12, 31)),
        # no "then": the question asks about today's rule
        ("我 3 月 20 号出差回来的，现在报销还能报吗？", None),
        ("二月份的伙食补贴标准是多少？", None),
        # a trip placed in an earlier month is asked of that month's rule, like "今年 2 月…出差" (session 34)
        ("二月份出差的伙食补贴是多少？", date(2026, 2, 28)),
    ],
)
def test_a_question_placed_in_an_earlier_month_asks_for_that_months_rule(
    question: str, day: date | None
) -> None:
    assert month_asked_as_then(question, TODAY) == day


def test_one_character_nouns_are_the_subject_when_nothing_else_names_one() -> None:
    # "钱…到账" is about payment timing: without these every passage would be on its subject
    assert subject_terms("报销单批完以后钱一般几天能到账？")
    assert subject_terms("能休几天？") == frozenset()


_task = task_fact


def test_a_task_named_by_its_title_is_the_one_answered() -> None:
    facts = [
        _task("a", "审批张伟的北京差旅报销单"),
        _task("b", "提交三月差旅报销"),
        _task("c", "审批王芳的病假申请"),
    ]
    assert named_tasks("王芳那个病假审批是不是已经拖过期了？", facts) == {"c"}
    assert named_tasks("三月的差旅报销我提交了没有？", facts) == {"b"}
    assert named_tasks("我有哪些审批类的待办？", facts) == set()  # a list, not one task
    assert named_tasks("西部项目周报汇总那个待办几号截止？", facts) == set()  # not in this list


def _doc(cid: str, text: str, **fields: Any) -> DocumentEvidence:
    base: dict[str, Any] = {
        "citation_id": cid,
        "source": f"reimbursement/{cid}.md",
        "text": text,
        "authority": "HR-Policy",
        "kind": "policy",
        "scope": "company",
        "tenant": "hrdemo",
        "effective_from": date(2026, 1, 1),
        "supported_need_codes": [NeedCode.AMOUNT_RULE.value],
        "claim_types": [NEED_CLAIM_TYPE[NeedCode.AMOUNT_RULE]],
    }
    return DocumentEvidence.model_validate({**base, **fields})


def _slot(question: str, docs: list[DocumentEvidence], ctx: ExecutionContext = CTX) -> Any:
    result = ToolResult(invocation_id="i", tool="T", status=ToolStatus.OK, run_id="r1", documents=docs)
    evaluator = EvidenceEvaluator(ctx=ctx, now=NOW, run_id="r1", question=question)
    return evaluator.evaluate([EvidenceNeed(code=NeedCode.AMOUNT_RULE, label="x")], [result]).slots[0]


def test_a_question_about_an_earlier_year_is_not_answered_by_todays_rule() -> None:
    doc = _doc("p", "其他城市出差住宿费每晚不超过 350 元。")
    slot = _slot("2025 年那会儿去其他城市出差，住宿一晚上限是多少？", [doc])
    assert slot.status is SlotStatus.MISSING
    assert slot.rejected[0].reason is ReasonCode.GOVERNANCE_NOT_YET_EFFECTIVE
    assert _slot("其他城市出差住宿一晚上限是多少？", [doc]).status is SlotStatus.COVERED


def test_the_callers_project_supplement_stands_over_the_company_rule() -> None:
    company = _doc("c", "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元。")
    west = _doc("w", "西部项目组成员在一线城市出差住宿费每晚不超过 800 元。", scope="proj-west")
    west_ctx = ExecutionContext(tenant="hrdemo", user="u-li", project="proj-west")
    slot = _slot("这阵子借调在西部项目组，去深圳出差住宿按多少报？", [company, west], west_ctx)
    assert (slot.status, slot.citations) == (SlotStatus.COVERED, ["w"])  # 深圳 is a 一线城市
    assert _slot("去深圳出差住宿按多少报？", [company, west]).citations == ["c"]  # proj-east


def test_corrections_and_anaphora_carry_the_previous_question() -> None:
    record = FactRefRecord(
        fact_ref="fact-1",
        tool="MY_CURRENT_TASKS",
        arguments={"dateRange": "THIS_WEEK"},
        item_key="T-1",
        ordinal=1,
        queried_at=NOW,
        ttl_seconds=600,
        scope="proj-east",
        authorization_snapshot={"tenant": "hrdemo", "user": "u-li", "project": "proj-east"},
        audit_ref="run-1",
    )
    state = ConversationState(questions=["这礼拜我手上有啥活儿？"], refs=[record])
    resolved = resolve_context("说错了，我想问的是下周", state, CTX, NOW + timedelta(seconds=5))
    assert resolved.relation is ContextRelation.CORRECTION
    assert resolved.resolved_question == "下周我手上有啥活儿？"
    assert resolved.invalidated_refs == ["fact-1"]
    state = ConversationState(questions=["我进公司第 12 年了，一年有几天年假？"])
    resolved = resolve_context("那我要是一次把这些全休了，得谁批？", state, CTX, NOW)
    assert (resolved.relation, resolved.resolved_question.split("：")[0]) == (
        ContextRelation.FOLLOW_UP,
        "年假",
    )
    state = ConversationState(questions=["我下个月领证，能休几天婚假？"])
    resolved = resolve_context("要交啥材料？", state, CTX, NOW)  # no subject of its own: the same one
    assert (resolved.relation, resolved.resolved_question.split("：")[0]) == (
        ContextRelation.FOLLOW_UP,
        "婚假",
    )
    state = ConversationState(questions=["年假申请是在哪个系统里提？"])
    resolved = resolve_context("病假也是在那儿提吗？", state, CTX, NOW)
    assert resolved.resolved_question == "病假申请是在哪个系统里提？"
    # a city class replaces a city: both are places
    state = ConversationState(questions=["去广州出差住酒店，一晚最多能报多少？"])
    resolved = resolve_context("那要是去二线城市呢？", state, CTX, NOW)
    assert resolved.resolved_question == "去二线城市出差住酒店，一晚最多能报多少？"


def test_the_noun_an_interrogative_asks_for_is_not_a_subject_word() -> None:
    # "要交什么证明材料" asks for the kind of material: 证明 is what is asked, not what about
    assert subject_terms("请年假要不要交什么证明材料？最后是谁审批？") == {"年假"}


def test_a_share_of_pay_is_an_amount_rule_but_not_a_number_of_days() -> None:
    from groundgate.agent.evidence import on_topic_sentences

    doc = DocumentEvidence.model_validate(
        {
            "citation_id": "hr-sick-leave#0",
            "heading": "病假管理规定 > 病假工资",
            "text": "## 病假工资\n\n病假期间工资按基本工资的 80% 发放。",
            "source": "leave/sick-leave.md",
            "kind": "policy",
            "supported_need_codes": ["AMOUNT_RULE"],
        }
    )
    assert on_topic_sentences(doc, NeedCode.AMOUNT_RULE, "休病假的那几天工资怎么发？")
    assert not on_topic_sentences(doc, NeedCode.AMOUNT_RULE, "病假一年最多能请多少天？")


def test_each_part_of_a_two_part_question_has_its_own_subject() -> None:
    from groundgate.agent.subjects import need_subject

    question = "病假需要提前几天申请？要准备什么材料？"
    # `提前` is the aspect of the amount part; the materials part is about 病假 alone
    assert need_subject(question, NeedCode.AMOUNT_RULE) == {"病假", "提前"}
    assert need_subject(question, NeedCode.MATERIALS) == {"病假"}
    # one part: the whole question's subject
    assert need_subject("病假需要提前几天申请？", NeedCode.AMOUNT_RULE) == subject_terms(
        "病假需要提前几天申请？"
    )


@pytest.mark.parametrize(
    ("question", "unplanned"),
    [
        ("出差回来多少天之内得把报销交上去？报销款会打到哪张卡上？", ["报销款会打到哪张卡上"]),
        ("差旅报销四千块钱找谁批？要是被驳回了能申诉吗？", []),
        ("病假需要提前几天申请？要准备什么材料？", []),
        ("报销款会打到哪张卡上？", []),
    ],
)
def test_a_part_no_evidence_need_names_is_listed_as_unanswered(question: str, unplanned: list[str]) -> None:
    assert parts_without_need(question) == unplanned


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # what happens beyond the rule is the amount rule, not who may claim
        ("下周去上海，看中的酒店一晚 700，多出来那 100 块公司给报吗？", [NeedCode.AMOUNT_RULE]),
        # which form of a document is handed in is a material
        ("请婚假的时候要把结婚证原件交上去吗？", [NeedCode.MATERIALS]),
    ],
)
def test_colloquial_asks_name_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    assert [n.code for n in _plan(question, registry).needs] == needs


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # a figure put up for checking is confirmed or corrected by the amount rule
        ("听同事说婚假就 3 天，真的假的？", [NeedCode.AMOUNT_RULE]),
        ("我入职整整十年了，年假是不是该涨到 10 天了？", [NeedCode.AMOUNT_RULE]),
        ("论坛上有人说一线城市住酒店一晚能报到一千，靠谱吗？", [NeedCode.AMOUNT_RULE]),
        # what comes first is a step; where to watch the approval is a step, not who approves
        ("在费控系统报差旅，录费用之前得先选哪个单子？", [NeedCode.PROCESS_STEPS]),
        ("报销单在费控系统里提交完了，去哪儿看审批到哪一步了？", [NeedCode.PROCESS_STEPS]),
    ],
)
def test_doubted_figures_and_step_order_name_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    plan = _plan(question, registry)
    assert plan.complete
    assert [n.code for n in plan.needs] == needs


def test_materials_to_hand_in_with_nothing_named_are_asked_back_not_read_as_tasks(
    registry: ToolRegistry,
) -> None:
    # "要交的材料" is a policy's materials list (each policy has its own), not the caller's to-do list
    plan = _plan("要交的材料有哪些来着？", registry)
    assert not plan.complete
    assert plan.needs == []


def test_figures_offered_as_answers_are_no_conditions() -> None:
    question = "我今年刚好干满 20 年，年假是 10 天还是 15 天？"
    assert condition_fit("满 20 年的每年享有年休假 15 天", question) is True
    assert condition_fit("满 10 年不满 20 年的每年享有年休假 10 天", question) is False


def test_a_rate_per_year_is_no_condition_on_years_served() -> None:
    question = "我在公司都干了二十二年了，年假一年到底几天？"
    assert condition_fit("满 20 年的每年享有年休假 15 天", question) is True
    assert condition_fit("入职满 1 年不满 10 年的员工每年享有年休假 5 天", question) is False


@pytest.mark.parametrize(
    ("question", "cited", "absent"),
    [
        # 非一二线 leaves the first and second tiers out
        ("之前非一二线的城市住宿一晚只能报 300，现在涨了没？", "350 元", "450 元"),
        # the premise's 一线城市 is not the case asked
        ("操作手册上写一线城市 600 以内能直接提交，那去二线城市住宿按多少报？", "450 元", "350 元"),
        # "住一晚" is lodging: the meal allowance is no rival figure
        ("我们组长说西部项目组的人去北京出差住一晚能报 800，我们东部的是不是也一样？", "600 元", "120 元"),
    ],
)
def test_the_tier_asked_is_the_one_answered(question: str, cited: str, absent: str) -> None:
    from groundgate.agent.answer import compose_offline

    lodging = _doc(
        "hr-travel-policy-2026#0",
        "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元；二线城市出差住宿费每晚不超过 450 元；"
        "其他城市出差住宿费每晚不超过 350 元。",
        heading="差旅费用报销制度（2026 版） > 住宿标准",
    )
    meals = _doc(
        "hr-meal-allowance-notice#0",
        "自 2026 年 3 月 1 日起，出差伙食补贴按每天 120 元标准发放，按出差自然日计算。",
        heading="关于调整出差伙食补贴的通知 > 伙食补贴",
        authority="HR-Policy",
    )
    result = ToolResult(
        invocation_id="i", tool="T", status=ToolStatus.OK, run_id="r1", documents=[lodging, meals]
    )
    evaluator = EvidenceEvaluator(ctx=CTX, now=NOW, run_id="r1", question=question)
    assessment = evaluator.evaluate([EvidenceNeed(code=NeedCode.AMOUNT_RULE, label="x")], [result])
    assert assessment.slots[0].status is SlotStatus.COVERED
    text = " ".join(s.text for s in compose_offline(assessment, question).statements)
    assert cited in text
    assert absent not in text


def test_a_question_offering_two_ways_of_counting_is_answered_only_by_one_of_them() -> None:
    from groundgate.agent.evidence import on_topic_sentences

    doc = _doc("hr-marriage-leave#0", "登记结婚的员工享有婚假 10 天，须在领取结婚证后一年内休完。")
    assert not on_topic_sentences(doc, NeedCode.AMOUNT_RULE, "婚假是按工作日算还是按自然日算？")
    meals = _doc("m", "出差伙食补贴按每天 100 元标准发放，按出差自然日计算。")
    assert on_topic_sentences(meals, NeedCode.AMOUNT_RULE, "出差伙食补贴是按工作日算还是按自然日算？")


def test_a_number_of_days_asked_before_the_leave_word_is_not_a_share_of_pay() -> None:
    from groundgate.agent.evidence import on_topic_sentences

    doc = _doc("hr-sick-leave#0", "病假期间工资按基本工资的 80% 发放。")
    assert not on_topic_sentences(doc, NeedCode.AMOUNT_RULE, "病假找谁批？一年最多能请多少天病假？")


def test_a_correction_naming_a_month_replaces_the_month_of_the_question_that_had_one() -> None:
    state = ConversationState(questions=["3 月份到期的待办都有啥？", "第二个现在是什么状态？"])
    resolved = resolve_context("哦不对，我要问的是 4 月份的", state, CTX, NOW)
    assert resolved.relation is ContextRelation.CORRECTION
    assert resolved.resolved_question == "4 月份到期的待办都有啥？"


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("我入职整整十年了，年假是不是该涨到 10 天了？", {"年假"}),  # 该涨: a modal and its verb
        ("这次差旅一共报 5000 块整，部门经理批了就完事了吧？", {"差旅", "部门经理"}),
        # what the team lead said is the claim checked; its words are not the asker's subject
        (
            "我们组长说西部项目组的人去北京出差住一晚能报 800，我们东部的是不是也一样？",
            {"北京", "差旅", "住宿"},
        ),
        ("西部项目组出差住宿标准是多少？", {"差旅", "住宿", "项目组"}),  # its own words stay
        # ... and so do theirs when the question asks about their case, not the asker's
        ("听说西部项目组一线城市的住宿标准比我们高，具体是多少？", {"一线城市", "住宿", "项目组"}),
    ],
)
def test_modals_filler_and_reported_claims_are_no_subject_words(question: str, subject: set[str]) -> None:
    assert subject_terms(question) == subject


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        # two figures offered are decided by the amount rule
        ("出差的餐补现在到底是一天一百还是一百二？", [NeedCode.AMOUNT_RULE]),
        # whether a named task is still undone is its state
        ("王芳那个病假申请，我是不是还没批？", [NeedCode.TASK_STATE]),
    ],
)
def test_offered_figures_and_undone_tasks_name_their_needs(
    question: str, needs: list[NeedCode], registry: ToolRegistry
) -> None:
    plan = _plan(question, registry)
    assert plan.complete
    assert [n.code for n in plan.needs] == needs


def test_leave_in_general_is_asked_back_for_its_materials(registry: ToolRegistry) -> None:
    # every kind of leave lists its own materials: ask which, never pick one
    assert not _plan("请假的话要准备哪些证明材料？", registry).complete
    assert _plan("病假要准备哪些证明材料？", registry).complete


def test_fares_are_transport() -> None:
    from groundgate.agent.vocabulary import entities_in

    assert entities_in("路费和住宿能报销吗") == ["交通", "住宿"]

"""Issue 10's examples, one regression test each: the checker must neither pass wrong answers nor
flag right ones (English and Chinese, free text, records and mixed languages)."""

from __future__ import annotations

import json

import pytest

from groundgate.contracts import FactCategory, Verdict
from groundgate.contracts.grounding_check import CheckedUnit, CheckResult, QuestionCoverage
from groundgate.models import ScriptedModel
from groundgate.verify.grounding_check import check
from groundgate.verify.question import question_coverage

_RECORD = json.dumps(
    {
        "name": "Blue Cafe",
        "city": "Austin",
        "stars": 4.5,
        "review_count": 132,
        "is_open": True,
        "attributes": {"WiFi": "free", "OutdoorSeating": False, "DogsAllowed": True},
        "hours": {"Monday": "8:00-17:00", "Saturday": "9:00-15:00"},
    }
)


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        ("病假不需要提前申请，可以事后补交证明。", "病假需要提前申请。"),
        (
            "Do not restart the master nodes during business hours.",
            "You may restart the master nodes during business hours.",
        ),
    ],
)
def test_a_flipped_obligation_is_a_key_contradiction_and_rejects(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is Verdict.REJECT
    contradicted = [c for c in result.claims if c.category is FactCategory.CONTRADICTED]
    assert contradicted
    assert all(c.key for c in contradicted)


def test_a_changed_time_inside_a_long_hedged_sentence_rejects() -> None:
    context = (
        "The maintenance window opens at 22:00 UTC on Saturday. "
        "All deployments must start after 22:00 UTC and finish within 2 hours."
    )
    answer = (
        "The weekend maintenance window is when all of the roughly 40 service deployments "
        "must start after 20:00 UTC and finish within 2 hours."
    )
    result = check(context=context, answer=answer)
    assert result.verdict is Verdict.REJECT
    assert "fidelity:date_mismatch" in result.claims[0].reason_codes


@pytest.mark.parametrize(
    ("context", "answer", "invented"),
    [
        (
            "P1 alerts must be acknowledged within 10 minutes by the on-call engineer.",
            "P1 alerts must be acknowledged within 10 minutes, otherwise the CTO is called.",
            "the CTO is called",
        ),
        (
            "错误码 E1001 表示库存不足，下单时库存校验失败会返回该错误码。",
            "E1001 表示库存不足，根因是数据库主从延迟。",
            "根因是数据库主从延迟",
        ),
        (
            "差旅报销需在费用发生后 30 天内提交，提交时须附发票原件。",
            "差旅报销需在费用发生后 30 天内提交，逾期可由部门经理特批补交。",
            "逾期可由部门经理特批补交",
        ),
        # an invented consequence after 如果
        (
            "评分低于 70 分的，可延长试用期一次，最长不超过 3 个月。",
            "评估分数不到 70 分的，可以把试用期延长一次，最多三个月，如果延长期满后仍不达标就会解除劳动合同。",
            "解除劳动合同",
        ),
    ],
)
def test_an_invented_clause_riding_on_a_supported_one_is_not_passed(
    context: str, answer: str, invented: str
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS
    claim = result.claims[0]
    unsupported = [u for u in claim.units if u.category is FactCategory.NO_EVIDENCE]
    assert unsupported, claim
    unit = unsupported[0]
    assert invented in unit.text
    assert answer[unit.start : unit.end] == unit.text


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (
            "The cache node was evicted for exceeding its CPU quota.",
            "The cache node was evicted for exceeding its memory quota.",
        ),
        ("订单服务因超出 CPU 配额被驱逐。", "订单服务因超出内存配额被驱逐。"),
    ],
)
def test_a_one_word_entity_swap_is_not_passed(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS
    assert any(code.startswith("entity_swap:") for code in result.claims[0].reason_codes)


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        ("病假需要提供医院证明。员工年休假需提前3个工作日申请。", "年假需要提前三个工作日申请。"),
        (
            "Requests are retried three times before the job fails.",
            "The job fails after requests are retried 3 times.",
        ),
    ],
)
def test_a_synonym_or_number_word_paraphrase_passes(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Blue Cafe in Austin has a 4.5-star rating and offers free WiFi.", Verdict.PASS),
        ("Blue Cafe is open on Monday from 8:00 to 17:00 and allows dogs.", Verdict.PASS),
        ("Blue Cafe has outdoor seating.", Verdict.REJECT),
        ("Blue Cafe has a 3.5-star rating.", Verdict.REJECT),
        ("Blue Cafe does not allow dogs.", Verdict.REJECT),
        ("Blue Cafe has free parking.", Verdict.LOW_CONFID),
    ],
)
def test_a_record_is_checked_field_by_field(answer: str, verdict: Verdict) -> None:
    assert check(context=_RECORD, answer=answer).verdict is verdict


def test_key_value_text_is_checked_field_by_field() -> None:
    context = "order_id: A-1029\nstatus: shipped\ncarrier: SF Express\nrefundable: false\namount: 299.00 CNY"
    assert check(context=context, answer="Order A-1029 has shipped via SF Express.").verdict is Verdict.PASS
    assert check(context=context, answer="Order A-1029 is refundable.").verdict is Verdict.REJECT


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (
            "员工累计工作已满1年不满10年的，年休假5天。",
            "Employees with 1 to 10 years of service get 5 days of annual leave.",
        ),
        (
            "Employees get 5 days of annual leave after one year of service.",
            "员工工作满一年后有5天年假。",
        ),
    ],
)
def test_a_true_answer_in_the_other_language_is_never_contradicted(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT
    assert all(c.category is not FactCategory.CONTRADICTED for c in result.claims)
    assert all(c.category is not FactCategory.NO_EVIDENCE for c in result.claims), result.claims


_MUSEUM = "admission: adults £12, under-16s free, concessions £9\nopening_hours: Tue-Sun 10:00-17:00"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # Prices written with the sign (`£12`) and an age group (`under-16s`), retold in Chinese.
        ("成人票 12 英镑，优惠票 9 英镑，16 岁以下免费。", Verdict.PASS),
        ("成人票 15 英镑，优惠票 9 英镑，16 岁以下免费。", Verdict.REJECT),
    ],
)
def test_prices_and_age_groups_of_an_english_record_are_read_by_a_chinese_answer(
    answer: str, verdict: Verdict
) -> None:
    assert check(context=_MUSEUM, answer=answer).verdict is verdict


def test_a_changed_number_in_the_other_language_still_rejects() -> None:
    result = check(
        context="员工累计工作已满1年不满10年的，年休假5天。",
        answer="Employees with 1 to 10 years of service get 7 days of annual leave.",
    )
    assert result.verdict is Verdict.REJECT


def test_a_claim_the_checker_cannot_judge_across_languages_says_so() -> None:
    result = check(
        context="支付网关在高峰期会自动扩容到十个实例。",
        answer="The gateway team meets every Tuesday to review incidents.",
    )
    claim = result.claims[0]
    assert claim.category is FactCategory.NO_EVIDENCE
    assert "cross_language:unjudged" in claim.reason_codes


_CHINESE_LOG = (
    "[2025-11-07 03:12:44,201] ERROR notify-worker trace=c0d91e7a 短信发送失败 channel=aliyun-sms "
    "code=isv.BUSINESS_LIMIT_CONTROL\n"
    "[2025-11-07 03:12:45,018] INFO  notify-worker trace=c0d91e7a 短信发送成功 channel=tencent-sms "
    "msg_id=TX-88210"
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("短信发送失败后切换到 tencent-sms，发送成功，消息号 TX-88210。", Verdict.PASS),
        ("短信发送失败后切换到 tencent-sms，发送成功，消息号 TX-88211。", Verdict.REJECT),
    ],
)
def test_a_chinese_claim_over_a_log_with_chinese_messages_is_read_in_its_own_language(
    answer: str, verdict: Verdict
) -> None:
    # The log is mostly Latin letters (keys, hosts, codes); its messages are Chinese, so a Chinese
    # answer is judged on its words like any same-language claim, not on anchors alone.
    result = check(context=_CHINESE_LOG, answer=answer)
    assert result.verdict is verdict
    assert not any(code.startswith("cross_language") for c in result.claims for code in c.reason_codes)


@pytest.mark.parametrize(
    ("question", "answer", "coverage", "unaddressed"),
    [
        (
            "What time does the maintenance window open?",
            "The maintenance window opens at 22:00 UTC.",
            QuestionCoverage.ADDRESSED,
            [],
        ),
        (
            "What time does the maintenance window open, and who approves emergency changes?",
            "The maintenance window opens at 22:00 UTC.",
            QuestionCoverage.PARTLY_ADDRESSED,
            ["who approves emergency changes?"],
        ),
        (
            "Who approves emergency changes?",
            "Deployments must finish within 2 hours.",
            QuestionCoverage.NOT_ADDRESSED,
            ["Who approves emergency changes?"],
        ),
    ],
)
def test_the_checker_reports_whether_the_answer_addresses_the_question(
    question: str, answer: str, coverage: QuestionCoverage, unaddressed: list[str]
) -> None:
    context = "The maintenance window opens at 22:00 UTC. Deployments must finish within 2 hours."
    result = check(context=context, answer=answer, question=question)
    assert result.addresses_question is coverage
    assert result.unaddressed_parts == unaddressed
    if coverage is QuestionCoverage.NOT_ADDRESSED:
        assert result.verdict is not Verdict.PASS


def test_an_answer_that_addresses_nothing_of_a_chinese_question_is_not_passed() -> None:
    result = check(
        context="年假需提前3个工作日申请。病假需提供医院证明。",
        answer="病假需提供医院证明。",
        question="年假要提前几天申请？",
    )
    assert result.addresses_question is QuestionCoverage.NOT_ADDRESSED
    assert result.verdict is not Verdict.PASS


def test_every_claim_and_unit_carries_a_support_score_that_serialises() -> None:
    result = check(
        context="P1 alerts must be acknowledged within 10 minutes.",
        answer="P1 alerts must be acknowledged within 10 minutes, otherwise the CTO is called. P1 alerts are acknowledged within 5 minutes.",
    )
    payload = json.loads(result.model_dump_json())
    for claim in payload["claims"]:
        assert 0.0 <= claim["support_score"] <= 1.0
        for unit in claim["units"]:
            assert 0.0 <= unit["support_score"] <= 1.0
    assert 0.0 <= payload["support_score"] <= 1.0
    scores = [c.support_score for c in result.claims]
    assert scores[1] < 0.1  # the contradicted claim


def test_a_contradiction_the_llm_judge_finds_is_a_key_fact() -> None:
    model = ScriptedModel(
        {
            "judge": [
                {
                    "claims": [
                        {
                            "claim_index": 1,
                            "key": False,
                            "category": "contradicted",
                            "passage": 1,
                            "excerpt": "Restarts happen at night.",
                            "rationale": "The passage says night only.",
                        }
                    ]
                }
            ]
        }
    )
    result = check(context="Restarts happen at night.", answer="You can restart it at noon.", model=model)
    assert result.claims[0].key
    assert result.verdict is Verdict.REJECT


# --------------------------------------------------------------------------- tuned on the tune splits


def test_a_bare_name_given_in_reply_to_a_question_is_the_key_fact_and_passes() -> None:
    context = "The Oberoi Group is a hotel company with its head office in Delhi."
    result = check(context=context, answer="Delhi", question="In what city is the Oberoi head office?")
    assert result.verdict is Verdict.PASS
    assert result.claims[0].key
    assert "key:answer_to_question" in result.claims[0].reason_codes


def test_a_bare_name_the_context_never_states_is_flagged() -> None:
    context = "The Oberoi Group is a hotel company with its head office in Delhi."
    result = check(context=context, answer="Mumbai", question="In what city is the Oberoi head office?")
    assert result.verdict is not Verdict.PASS


def test_without_a_question_a_bare_word_is_still_not_a_key_fact() -> None:
    result = check(context="The Oberoi Group has its head office in Delhi.", answer="Delhi")
    assert not result.claims[0].key


@pytest.mark.parametrize(
    ("context", "answer", "name"),
    [
        (
            "He was awarded the 2012 Nobel Prize in Physics, jointly with Serge Haroche, for methods "
            "that enable measuring quantum systems. La Fontaine wrote fables.",
            "He was awarded the 2012 Nobel Prize in Physics jointly with Jean De La Fontaine.",
            "Jean De La Fontaine",
        ),
        (
            "Balston was educated at Eton and New College, Oxford. The King visited the college.",
            "Balston attended New College, which was founded by King Henry in Oxford.",
            "King Henry",
        ),
    ],
)
def test_a_name_with_a_word_the_context_never_uses_is_not_direct_evidence(
    context: str, answer: str, name: str
) -> None:
    result = check(context=context, answer=answer)
    claim = result.claims[0]
    assert claim.category is not FactCategory.DIRECT_EVIDENCE
    assert any(code.startswith("unsupported_entity:") and name in code for code in claim.reason_codes)


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # The claim's figure is in the context, only not in the sentence read as its source.
        (
            "Leeds sit 13th in the Championship table and play Blackburn on Saturday. "
            "The club has collected 52 points so far this season.",
            "Leeds are 13th in the Championship with 52 points.",
        ),
        # A figure set against a loosely aligned sentence of a long story.
        (
            "On Day Six of Nepal's tragedy, rescuers pulled a 15-year-old from the rubble of a building "
            "in one of Kathmandu's hard-hit neighborhoods, officials told reporters on Thursday.",
            "Death toll rises to more than 6,100.",
        ),
    ],
)
def test_a_figure_not_read_off_its_own_sentence_is_flagged_but_not_rejected(
    context: str, answer: str
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT
    assert all(c.category is not FactCategory.CONTRADICTED for c in result.claims)


def test_a_negated_phrase_the_context_states_word_for_word_is_not_a_negation_flip() -> None:
    context = (
        "What we don't know: It's not known whether Gray's criminal past had anything to do with "
        "his arrest, or his death. Gray was known to police."
    )
    answer = "Gray has a criminal history but it's not known if that had anything to do with his arrest."
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        ("新品电池容量 5200mAh，官方标称续航约 180 分钟。", "官方标称续航约 280 分钟。"),
        ("传统工艺只有萎凋和干燥两道工序，不炒不揉。", "传统工艺包括萎凋、轻揉和干燥三道工序。"),
    ],
)
def test_a_softened_figure_that_differs_from_its_sentence_is_never_shown(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS


def test_a_capped_figure_no_source_states_is_not_passed_even_in_a_loosely_aligned_sentence() -> None:
    context = [
        "图书借期为 30 天，可续借一次。逾期归还的图书每册每天收取滞纳金 0.2 元，单册累计不超过书价。",
        "开放时间：周二至周日 9:00–20:00，每周一闭馆。",
    ]
    answer = "图书馆周一闭馆。如果借的书超过了借期，每册每天要交 0.2 元滞纳金，单本累计最多收 10 元。"
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS
    assert any("figure_not_in_evidence" in c.reason_codes for c in result.claims)


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # a duration between the two clock times the claim itself gives
        (
            "14:05 下单接口延迟告警触发；14:40 开始回滚；14:47 各项指标恢复正常。",
            "故障大约持续了 42 分钟（14:05 到 14:47），14:40 开始回滚。",
        ),
        # a stated price moved by a stated percent, and halved
        (
            "一线城市住宿每晚不超过 600 元。M3 及以上职级可在上述标准基础上上浮 30%。",
            "一线城市每晚不超过 600 元；M3 及以上职级可以上浮三成，也就是每晚最多 780 元。",
        ),
        (
            "特展单独售票，票价 40 元，学生、60 岁以上老人凭证件半价，6 周岁以下儿童免票。",
            "特展票价 40 元，学生和 60 岁以上老人凭证件半价，也就是 20 元。",
        ),
    ],
)
def test_a_figure_the_answer_works_out_from_stated_ones_is_not_flagged(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert not any(code.startswith("fidelity:number") for c in result.claims for code in c.reason_codes), [
        c.reason_codes for c in result.claims
    ]
    assert result.verdict is not Verdict.REJECT


@pytest.mark.parametrize(("finish", "worked"), [("10:30", True), ("11:30", False)])
def test_a_clock_time_the_answer_says_it_works_out_from_a_start_and_a_duration(
    finish: str, worked: bool
) -> None:
    context = "比赛 7:30 鸣枪起跑。全程马拉松关门时间 6 小时，半程马拉松关门时间 3 小时。"
    result = check(
        context=context, answer=f"半程的关门时间是 3 小时，也就是说你最晚要在上午 {finish} 之前完赛。"
    )
    flagged = any(code == "figure_not_in_evidence" for c in result.claims for code in c.reason_codes)
    assert flagged is not worked, [c.reason_codes for c in result.claims]


def test_a_worked_figure_that_is_wrong_is_still_flagged() -> None:
    context = "特展单独售票，票价 40 元，学生、60 岁以上老人凭证件半价，6 周岁以下儿童免票。"
    result = check(context=context, answer="学生凭证件半价，也就是 25 元。")
    assert result.verdict is not Verdict.PASS


def test_fail_to_reads_as_a_negation_so_a_paraphrase_with_not_is_no_flip() -> None:
    context = (
        "Consumers using client versions older than 2.8 must be upgraded by 30 September, "
        "or they may fail to reconnect after the upgrade."
    )
    answer = "Consumers on clients older than 2.8 need upgrading by 30 September, otherwise they might not reconnect."
    assert check(context=context, answer=answer).verdict is not Verdict.REJECT


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # The figures count different things: a summary's figure beside another one of the sentence.
        (
            "Leeds sit 13th in the Championship table and take on Blackburn Rovers on Saturday.",
            "Leeds are 13th in the Championship with 52 points.",
        ),
        (
            "Sterling has been offered a £100,000-a-week deal to stay on Merseyside.",
            "Sterling went from £60 a day at QPR to a £100,000-per-week offer.",
        ),
    ],
)
def test_two_figures_that_count_different_things_are_not_a_changed_value(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.REJECT


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        ("一线城市住宿每晚不超过 600 元。", "一线城市住宿每晚最多报销 900 元。"),
        ("Submit the claim within 60 days of the dinner.", "Submit the claim within 30 days of the dinner."),
        ("Guided tours cost £12 per adult.", "Guided tours cost £5 per adult."),
    ],
)
def test_the_same_thing_counted_differently_still_rejects(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.REJECT


@pytest.mark.parametrize(
    ("question", "answer", "coverage"),
    [
        # The asked kind of reply, without repeating the question's words.
        (
            "Is there a deadline?",
            "Yes, you have 60 days from the event to submit it.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "Does the pika hibernate?",
            "No. It collects haypiles during the summer instead.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "What caused the outage?",
            "A certificate expired because its renewal job had been failing.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "How much are tickets?",
            "Adults pay £12 and children under 16 get in free.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "Can you summarise this article?",
            "The council approved the plan by 7 votes to 2.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "What does this log line mean?",
            "The replica is 48 seconds behind, so writes pause.",
            QuestionCoverage.ADDRESSED,
        ),
        # Off the question: no asked kind, no shared subject.
        (
            "What caused the outage?",
            "Deployments must finish within 2 hours.",
            QuestionCoverage.NOT_ADDRESSED,
        ),
        ("How much are tickets?", "The museum is on Dock Street.", QuestionCoverage.NOT_ADDRESSED),
        (
            "Is there a deadline?",
            "The museum stands on Dock Street, beside the old harbour and the ferry terminal.",
            QuestionCoverage.NOT_ADDRESSED,
        ),
    ],
)
def test_an_answer_of_the_asked_kind_addresses_the_question(
    question: str, answer: str, coverage: QuestionCoverage
) -> None:
    from groundgate.verify.question import question_coverage

    assert question_coverage(question, answer)[0] is coverage


@pytest.mark.parametrize(
    ("context", "answer", "swapped"),
    [
        # A describing word in the slot is a paraphrase, not another entity.
        (
            "Easter is a cornerstone event in the Christian faith.",
            "Easter is a key event in the Christian faith.",
            False,
        ),
        # A named thing in the slot is another entity (the issue's example).
        (
            "The cache node was evicted for exceeding its CPU quota.",
            "The cache node was evicted for exceeding its memory quota.",
            True,
        ),
    ],
)
def test_only_a_named_thing_in_the_slot_is_an_entity_swap(context: str, answer: str, swapped: bool) -> None:
    claim = check(context=context, answer=answer).claims[0]
    assert any(code.startswith("entity_swap:") for code in claim.reason_codes) is swapped


# ------------------------------------------------------------------ session 18: figures and names


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("It has been eight years since an English club won the cup.", True),
        ("It has been nine years since an English club won the cup.", False),
    ],
)
def test_a_number_a_few_words_before_its_unit_is_the_same_quantity(answer: str, shown: bool) -> None:
    context = "It is eight long, barren years since an English club won the cup. Fans are restless."
    result = check(context=context, answer=answer)
    assert (result.verdict is Verdict.PASS) is shown
    if not shown:
        assert any("number_not_in_evidence" in code for code in result.claims[0].reason_codes)


def test_a_figure_taken_from_the_neighbouring_row_is_not_shown_but_not_rejected() -> None:
    context = [
        "CDN 配额说明：URL 刷新每天最多 2000 条，目录刷新每天最多 100 条。",
        "预热配额：URL 预热每天最多 1000 条，超出部分次日生效。",
    ]
    wrong = check(context=context, answer="URL 刷新每天最多 1000 条。")
    right = check(context=context, answer="URL 刷新每天最多 2000 条。")
    assert wrong.verdict is Verdict.LOW_CONFID
    assert wrong.claims[0].category is FactCategory.NO_EVIDENCE
    assert any(code.startswith("figure_from_elsewhere:") for code in wrong.claims[0].reason_codes)
    assert right.verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("answer", "apart"),
    [
        ("Swansea beat Hull at the Liberty Stadium on Saturday.", False),
        ("Swansea beat Everton at the Liberty Stadium.", True),
    ],
)
def test_weekdays_are_not_names_that_must_share_a_window(answer: str, apart: bool) -> None:
    context = (
        "Swansea beat Hull 2-0 at the Liberty Stadium, with Gomis scoring twice. "
        "The win lifts them to ninth. Their next match is away on Saturday against Everton, whose "
        "manager Reed praised the home side. Reed said the squad was in good shape."
    )
    result = check(context=context, answer=answer)
    codes = [code for c in result.claims for code in c.reason_codes]
    assert any(code.startswith("names_never_together") for code in codes) is apart


@pytest.mark.parametrize(
    ("text", "anchor", "said"),
    [
        ("The default limit is 50 requests per second per tenant.", "per-tenant", True),
        ("The payment gateway returns 504.", "payment-gateway", True),
        ("The order service returns 504.", "payment-gateway", False),
        # in another language, through the bundled lexicon
        ("临时调高限流需要提前 3 个工作日申请。", "rate-limit", True),
        ("订单服务返回 504。", "payment-gateway", False),
    ],
)
def test_an_anchor_is_mentioned_whether_joined_by_hyphen_underscore_or_space(
    text: str, anchor: str, said: bool
) -> None:
    from groundgate.verify.evidence_items import mentions_any

    assert mentions_any(text, [anchor]) is said


def test_days_and_months_written_short_or_long_are_the_same_words() -> None:
    from groundgate.verify.synonyms import canonical

    assert canonical("Friday 14 June, Sept 3") == canonical("Fri 14 Jun, Sep 3")
    context = (
        "Passenger: Ana Ribeiro\nTrain: Eurostar 9014\nDate: Fri 14 Jun 2024\nDepart: London St Pancras 08:01"
    )
    result = check(context=context, answer="Ana Ribeiro is booked on Eurostar 9014 on Friday 14 June.")
    assert result.verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("text", "absence"),
    [
        ("The logs show no errors for payment-gateway.", True),
        ("日志显示 payment-gateway 没有错误。", True),
        ("There were no alerts that night.", True),
        # a rule a document states, not something inferred from missing data
        ("On Tuesdays and Thursdays there is no meeting: updates go to #team-b before 11:00.", False),
    ],
)
def test_an_absence_claim_is_about_observed_things_not_a_quoted_rule(text: str, absence: bool) -> None:
    from groundgate.verify.absence import is_absence_claim

    assert is_absence_claim(text) is absence


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (
            "Many people have praised the unemployed, single mother of six for going to the mall.",
            "The single mother of six went to the mall.",
        ),
        (
            "T3 Pro 售价 3299 元，较上一代降低 400 元。",
            "T3 Pro 售价 3299 元，比上一代降了 400 元，也就是说上一代售价为 3699 元。",
        ),
        ("The deploy took 95 minutes, after a 25 minute wait for approval.", "In all it took 120 minutes."),
    ],
)
def test_a_count_the_evidence_ends_a_clause_with_or_a_worked_out_sum_is_not_invented(
    context: str, answer: str
) -> None:
    result = check(context=context, answer=answer)
    codes = [code for claim in result.claims for code in claim.reason_codes]
    assert not [code for code in codes if code.startswith("fidelity:") or "figure" in code], codes
    assert all(claim.category is not FactCategory.NO_EVIDENCE for claim in result.claims), codes


@pytest.mark.parametrize(
    ("context", "answer", "category"),
    [
        (
            "OCHA estimates that 15.9 million people here are in need of assistance.",
            "Almost 16 million people are in need of assistance, OCHA estimates.",
            FactCategory.INDIRECT_SUPPORT,
        ),
        (
            "城墙全长约 9.6 千米，原设城门 7 座。",
            "城墙全长将近 10 千米，原设城门 7 座。",
            FactCategory.INDIRECT_SUPPORT,
        ),
        # An estimate far from every figure of its sort is still not shown, hedge or not.
        (
            "城墙全长约 9.6 千米，原设城门 7 座。",
            "城墙全长将近 15 千米，原设城门 7 座。",
            FactCategory.NO_EVIDENCE,
        ),
        (
            "事故期间下单接口错误率峰值 6.3%，影响了部分下单请求。",
            "事故期间下单接口错误率峰值 6.3%，共影响约 1.2 万笔下单请求。",
            FactCategory.NO_EVIDENCE,
        ),
    ],
)
def test_a_rounded_figure_is_at_most_indirect_support_and_a_hedged_invented_one_is_flagged(
    context: str, answer: str, category: FactCategory
) -> None:
    result = check(context=context, answer=answer)
    assert result.claims[0].category is category, result.claims[0].reason_codes
    assert result.verdict is not Verdict.PASS


@pytest.mark.parametrize(
    ("question", "answer", "coverage"),
    [
        ("请概括这篇新闻。", "二期开通后东站到大学城只需 35 分钟。", QuestionCoverage.ADDRESSED),
        ("K9 晚上开会会不会很吵？", "可以开睡眠模式：这时运行噪音约 28 分贝。", QuestionCoverage.ADDRESSED),
        ("去临川古城墙能参观哪里？", "目前保存较完整的南门瓮城对游客开放。", QuestionCoverage.ADDRESSED),
        ("决赛的进球都是谁打进的？", "北港联队前锋周屹第 23 分钟先进一球。", QuestionCoverage.ADDRESSED),
        ("做这道菜需要哪些调料？", "冰糖 30 克、生抽两勺、老抽一勺。", QuestionCoverage.ADDRESSED),
        (
            "Who signs off the quarterly budget?",
            "It is signed off by Maria Chen.",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "西溪湿地的开放时间？",
            "夏半年早上 7:30 开到晚上 6:30，冬半年 8 点到 17:30。",
            QuestionCoverage.ADDRESSED,
        ),
        (
            "What are the museum's opening hours?",
            "Tuesday to Sunday, 10:00 to 17:00.",
            QuestionCoverage.ADDRESSED,
        ),
        ("西溪湿地的开放时间？", "门票免费。", QuestionCoverage.NOT_ADDRESSED),
        # The asked kind of value is missing: still not addressed.
        ("谁负责审批紧急变更？", "部署必须在 2 小时内完成。", QuestionCoverage.NOT_ADDRESSED),
        (
            "Where is the backup data centre?",
            "Deployments must finish within 2 hours.",
            QuestionCoverage.NOT_ADDRESSED,
        ),
        ("做这道菜需要哪些调料？", "炖 60 分钟后大火收汁。", QuestionCoverage.NOT_ADDRESSED),
    ],
)
def test_an_answer_giving_the_asked_kind_of_value_addresses_a_who_where_or_which_question(
    question: str, answer: str, coverage: QuestionCoverage
) -> None:
    assert question_coverage(question, answer)[0] is coverage


@pytest.mark.parametrize(
    ("spelled", "digits"),
    [
        ("生抽两勺、八角两颗", "生抽2勺、八角2颗"),
        ("可以再上浮三成", "可以再上浮30%"),
        ("一成不变", "一成不变"),
    ],
)
def test_chinese_number_words_before_a_classifier_and_tenths_read_as_digits(
    spelled: str, digits: str
) -> None:
    from groundgate.verify.synonyms import canonical

    assert canonical(spelled) == canonical(digits)


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        # Fewer significant digits of a figure people round: a fair retelling, not a changed value.
        (
            "The 750-piece collection fetched a total of $3.64 million at Bonhams in New York.",
            "The collection fetched $3.6 million at Bonhams in New York.",
            Verdict.LOW_CONFID,
        ),
        (
            "The collection fetched a total of $3.64 million at Bonhams.",
            "The collection fetched $3.5 million at Bonhams.",
            Verdict.REJECT,
        ),
        # A small whole number is not rounded, it is changed.
        (
            "Acknowledge P1 alerts within 12 minutes.",
            "Acknowledge P1 alerts within 10 minutes.",
            Verdict.REJECT,
        ),
        # `Never` inside a band's name is no negation.
        (
            "They were featured on the cover along with Never Shout Never and Hey Monday.",
            "They were featured on the cover along with Hey Monday.",
            Verdict.PASS,
        ),
        (
            "Never restart the master nodes during business hours.",
            "Restart the master nodes during business hours.",
            Verdict.REJECT,
        ),
        # A clock time worked out from a time and a duration of the same sentence.
        (
            "冬季开放时间 8:00–17:30，闭园前 1 小时停止入园。",
            "冬季 17:30 闭园，16:30 停止入园。",
            Verdict.PASS,
        ),
        (
            "冬季开放时间 8:00–17:30，闭园前 1 小时停止入园。",
            "冬季 17:30 闭园，15:30 停止入园。",
            Verdict.REJECT,
        ),
    ],
)
def test_rounded_figures_names_and_worked_out_times_are_not_contradictions(
    context: str, answer: str, verdict: Verdict
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is verdict, [c.reason_codes for c in result.claims]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("Entry stops at 16:30, as the park closes at 17:30.", Verdict.PASS),
        ("Entry stops at 16:00, as the park closes at 17:30.", Verdict.REJECT),
    ],
)
def test_a_clock_time_an_hour_before_closing_is_worked_out_in_english_too(
    answer: str, verdict: Verdict
) -> None:
    result = check(context="The park closes at 17:30. Entry stops 1 hour before closing.", answer=answer)
    assert result.verdict is verdict, [c.reason_codes for c in result.claims]


_CDN_EN = "CDN cache: images are cached for 30 days, JS and CSS for 7 days, HTML is not cached."
_CDN_ZH = "CDN 缓存：图片缓存 30 天，JS/CSS 缓存 7 天，HTML 不缓存。"


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        # One item's `not` does not negate the other items of its list …
        (_CDN_EN, "JS files are cached for 7 days.", Verdict.PASS),
        (_CDN_ZH, "JS 文件缓存 7 天。", Verdict.PASS),
        # … but the item about the claim's subject still does.
        (_CDN_EN, "HTML is cached for 7 days.", Verdict.REJECT),
        (_CDN_ZH, "HTML 缓存 7 天。", Verdict.REJECT),
        # A figure of the list read off another item than the one naming the subject: not shown.
        (_CDN_EN, "Images are cached for 7 days.", Verdict.LOW_CONFID),
        (
            "URL 刷新每日配额 2000 条，目录刷新每日 100 条，预热每日 1000 条。",
            "URL 刷新每天最多 1000 条。",
            Verdict.LOW_CONFID,
        ),
        (
            "URL 刷新每日配额 2000 条，目录刷新每日 100 条，预热每日 1000 条。",
            "预热每天最多 1000 条。",
            Verdict.PASS,
        ),
    ],
)
def test_each_item_of_a_list_speaks_for_its_own_subject(context: str, answer: str, verdict: Verdict) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is verdict, [c.reason_codes for c in result.claims]


def test_a_zero_count_in_a_record_is_a_count_not_a_no() -> None:
    record = json.dumps(
        {
            "order_id": "A-77120",
            "status": "partially_shipped",
            "lines": [
                {"desc": "bread flour", "qty": 12, "shipped": 12},
                {"desc": "dry yeast", "qty": 6, "shipped": 0},
            ],
            "paid": False,
        }
    )
    shipped = check(
        context=record, answer="Order A-77120 is partially shipped: all 12 bags of bread flour went out."
    )
    assert shipped.verdict is not Verdict.REJECT, [c.reason_codes for c in shipped.claims]
    paid = check(context=record, answer="Order A-77120 has been paid.")
    assert paid.verdict is Verdict.REJECT


@pytest.mark.parametrize(
    ("answer", "issue"),
    [
        ("Probation lasts six months.", None),
        ("Probation lasts 6 months.", None),
        ("Probation lasts three months.", "number_mismatch"),
    ],
)
def test_a_hyphenated_duration_is_a_duration(answer: str, issue: str | None) -> None:
    from groundgate.verify.fidelity import check_claim

    evidence = "New employees serve a six-month probationary period."
    codes = [i.code for i in check_claim(answer, evidence, evidence)]
    assert codes == ([issue] if issue else []), codes


def test_plural_weekdays_and_wi_fi_fold_to_the_record_s_words() -> None:
    from groundgate.verify.synonyms import canonical

    assert canonical("Closed on Mondays, free Wi-Fi") == canonical("Closed on Monday, free WiFi")


def test_plural_weekdays_are_times_not_names_that_must_share_a_sentence() -> None:
    context = (
        "Grades 1 to 4 are paid time-and-a-half for overtime on weekdays and Saturdays. "
        "Overtime must be approved in advance by the line manager. "
        "Overtime on Sundays and bank holidays is paid at double time."
    )
    answer = "Grades 1 to 4 get time-and-a-half on Saturdays and double time on Sundays."
    codes = [code for claim in check(context=context, answer=answer).claims for code in claim.reason_codes]
    assert not [code for code in codes if code.startswith("names_never_together")], codes


@pytest.mark.parametrize(
    ("twelve_hour", "twenty_four_hour"),
    [
        ("at 2 am UTC", "at 02:00 UTC"),
        ("2:30 p.m.", "14:30"),
        ("下午 3 点", "15:00"),
        ("晚上 6:30", "18:30"),
        ("two weeks", "14 days"),
        ("7:30–18:30", "07:30–18:30"),
        ("8 千元", "8000元"),
        ("8,000 元", "8000 元"),
        ("3.2 万人", "三万两千人"),
        ("a 45-minute training", "a 45 minute training"),
        (
            "VPN isn't granted; you've to wait, it can't start",
            "VPN is not granted; you have to wait, it can not start",
        ),
        ("under-16s free, £12", "under 16 free, £ 12"),
    ],
)
def test_clock_times_and_weeks_are_compared_in_one_form(twelve_hour: str, twenty_four_hour: str) -> None:
    from groundgate.verify.synonyms import canonical

    assert canonical(twelve_hour).split() == canonical(twenty_four_hour).split()


@pytest.mark.parametrize(
    "text",
    [
        "千万不要重启",  # an adverb, not ten million
        "万一超时",  # `in case`
        "5 千克",  # a unit: 5 kg, not 5000 克
        "The 37-year-old took over.",  # an age, not 37 years
    ],
)
def test_words_that_only_look_like_scales_or_durations_stay_as_written(text: str) -> None:
    from groundgate.verify.synonyms import canonical

    folded = canonical(text)
    assert "000" not in folded, folded
    assert "37 year" not in folded, folded


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("Base backups are retained for 35 days.", "Base backups are kept for 35 days.", True),
        ("Revenue grew 9%.", "Revenue rose 9%.", True),
        (
            "Sales climbed 6% for a third straight quarter.",
            "Sales rose 6% for a third consecutive quarter.",
            True,
        ),
        # Opposites never fold together, nor words inside an identifier, nor `declined` (refused).
        ("Shares rose 6%.", "Shares fell 6%.", False),
        (
            "E1042 CARD_DECLINED: the issuer declined the card.",
            "E1042 CARD_FALL: the issuer fell the card.",
            False,
        ),
    ],
)
def test_english_paraphrase_verbs_fold_but_opposites_do_not(one: str, other: str, same: bool) -> None:
    from groundgate.verify.synonyms import canonical

    assert (canonical(one) == canonical(other)) is same


_ORDER_SVC = (
    "order-svc 资源配置：生产环境每个 Pod 的 CPU 配额为 2 核，内存配额为 4 GiB；"
    "HPA 在 CPU 使用率持续 3 分钟超过 70% 时扩容，最多扩到 40 个副本。"
)


@pytest.mark.parametrize(
    ("answer", "swapped"),
    [
        # 内存 is the context's own word (内存配额), put where the sentence has CPU (CPU 使用率).
        ("order-svc 的 HPA 是按内存使用率扩容的，最多 40 个副本。", True),
        ("order-svc 的 HPA 看 CPU 使用率，超过 70% 持续 3 分钟就扩容。", False),
    ],
)
def test_a_chinese_modifier_swapped_for_another_of_the_context_s_things_is_caught(
    answer: str, swapped: bool
) -> None:
    codes = [code for claim in check(context=_ORDER_SVC, answer=answer).claims for code in claim.reason_codes]
    assert any(code.startswith("entity_swap:") for code in codes) is swapped, codes
    if swapped:  # said with the words of the texts, not the lexicon's internal markers
        assert "entity_swap:内存->cpu" in codes, codes


@pytest.mark.parametrize(
    ("spelled", "symbol"),
    [
        ("420 立方米每小时，29 到 50 平米", "420 m³/h，29 到 50 ㎡"),
        ("about 35 square metres, 8.2 kilograms", "about 35 m², 8.2 kg"),
        ("噪音 32 分贝", "噪音 32 dB"),
    ],
)
def test_units_spelled_out_read_as_the_symbols_records_print(spelled: str, symbol: str) -> None:
    from groundgate.text.segmentation import tokenize
    from groundgate.verify.synonyms import canonical

    assert tokenize(canonical(spelled)) == tokenize(canonical(symbol))


_SPEC = (
    "Spec sheet — Kestrel 14 (2024): 14-inch 2880×1800 OLED, 120 Hz; Intel Core Ultra 7 155H; "
    "32 GB LPDDR5X (soldered, not upgradeable); 1 TB PCIe 4.0 SSD (one M.2 slot); 72 Wh battery, rated up to "
    "13 hours video playback; weight 1.29 kg; ports: 2× Thunderbolt 4, 1× USB-A, HDMI 2.1, no SD card reader; "
    "Wi-Fi 7."
)


def test_a_spec_line_retold_in_one_sentence_is_supported_clause_by_clause() -> None:
    answer = (
        "The Kestrel 14 has a 14-inch 120 Hz OLED at 2880 by 1800, a Core Ultra 7 155H, 32 GB of RAM and a "
        "1 TB SSD, and weighs 1.29 kg."
    )
    claim = check(context=_SPEC, answer=answer).claims[0]
    # Its names all sit in the one list, and each clause is stated: direct, though the whole
    # sentence is no window's paraphrase.
    assert "units_supported" in claim.reason_codes, claim.reason_codes
    assert claim.category is FactCategory.DIRECT_EVIDENCE
    # A changed figure in one item is still not passed.
    changed = check(
        context=_SPEC, answer="The Kestrel 14 has 32 GB of RAM and a 1 TB SSD, and weighs 1.49 kg."
    )
    assert changed.verdict is not Verdict.PASS


@pytest.mark.parametrize(
    ("evidence", "answer"),
    [
        # A negative prefix says what `isn't` says.
        (
            "Frank Jordan told CNN that he had worried about his son, who is an inexperienced sailor.",
            "Frank Jordan told CNN his son isn't an experienced sailor.",
        ),
        # `no transfer … has been agreed` denies the agreement, not the transfer.
        (
            "Kevin de Bruyne is wanted by a host of clubs but no transfer away from Wolfsburg has been agreed.",
            "Kevin de Bruyne has been linked with a transfer away from Wolfsburg.",
        ),
        # A question asserts no polarity.
        (
            "The White House plan relies on nuclear power to cut carbon emissions.",
            "So why doesn't the White House plan do more with nuclear power?",
        ),
    ],
)
def test_a_negative_prefix_a_denied_predicate_or_a_question_is_no_negation_flip(
    evidence: str, answer: str
) -> None:
    result = check(context=evidence, answer=answer)
    assert result.verdict is not Verdict.REJECT, [c.reason_codes for c in result.claims]


def test_a_denied_predicate_stated_plainly_is_still_a_flip() -> None:
    evidence = (
        "Kevin de Bruyne is wanted by a host of clubs but no transfer away from Wolfsburg has been agreed."
    )
    assert (
        check(context=evidence, answer="A transfer away from Wolfsburg has been agreed.").verdict
        is Verdict.REJECT
    )


def test_matching_figures_alone_do_not_show_a_claim_in_the_other_language() -> None:
    """`周一正常开放` shares the record's two times and contradicts its `closed Mondays`: across
    languages only the figures were compared, so the claim is not called shown."""
    context = "opening_hours: Tue-Sun 10:00-17:00; closed Mondays except bank holidays"
    result = check(context=context, answer="周一正常开放，时间是 10:00 到 17:00。")
    assert result.verdict is not Verdict.PASS


FEE = "逾期归还的图书每册每天收取滞纳金 0.2 元，单册累计不超过书价。"


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        # A day inside a span the evidence states with two dates is not a changed date: the
        # evidence may hold it in words (`for Saturday and Sunday`); it is unjudged, never REJECT.
        (
            "The parks are free for Saturday and Sunday. It is part of National Park Week, happening April 18 through April 26.",
            "The parks are free April 18-19.",
            Verdict.LOW_CONFID,
        ),
        ("活动时间为 2026年4月18日至4月26日，期间公园免费。", "4月20日公园免费。", Verdict.LOW_CONFID),
        # Outside the stated span it stays a contradiction.
        ("活动时间为 2026年4月18日至4月26日，期间公园免费。", "4月28日公园免费。", Verdict.REJECT),
        (
            "The change window runs from March 3 to March 5.",
            "The change window is on March 9.",
            Verdict.REJECT,
        ),
        # A bound is borne out by a value near it, not by a much smaller figure of another thing.
        (FEE, "逾期每册每天收 0.2 元，单本累计最多收 10 元。", Verdict.LOW_CONFID),
        (FEE, "逾期每册每天收 0.2 元，单册累计不超过书价。", Verdict.PASS),
        # Both forbid: the actor after the cue (`禁止机动车驶入`) or before it (`机动车不得进入`).
        (
            "绿道开放后将禁止机动车和电动自行车驶入骑行道，违者将由城管部门劝离。",
            "机动车和电动自行车不得进入骑行道。",
            Verdict.PASS,
        ),
        ("机动车不得进入骑行道。", "禁止机动车驶入骑行道。", Verdict.PASS),
    ],
)
def test_spans_bounds_and_prohibitions_are_read_as_the_evidence_means_them(
    context: str, answer: str, verdict: Verdict
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is verdict, [c.reason_codes for c in result.claims]


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (
            '{"姓名": "刘佳怡", "工号": "E20318", "部门": "财务部", "职位": "高级会计", "入职日期": "2019-04-15", '
            '"直属上级": "赵明", "年假": {"总额": 10, "已用": 3.5, "剩余": 6.5}, "劳动合同到期": "2025-04-14"}',
            "她今年一共有 10 天年假，已经休了三天半，还剩六天半。",
        ),
        ('{"服务": "rec-api", "日期": "2024-10-08", "告警": []}', "rec-api 在 10 月 8 日没有告警。"),
    ],
)
def test_half_days_and_empty_lists_in_a_record_are_read_as_prose_states_them(
    context: str, answer: str
) -> None:
    result = check(context=context, answer=answer)
    (claim,) = result.claims
    # `三天半` is the record's 3.5, `没有告警` its empty list: no figure unshown, nothing unsupported
    assert claim.category in {FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT}, claim.reason_codes
    assert not any(code.startswith("fidelity:") for code in claim.reason_codes), claim.reason_codes


def _flipped_units(result: CheckResult) -> list[CheckedUnit]:
    """The clauses reported as dropping their source's negation."""
    return [
        u for c in result.claims for u in c.units if any(r.startswith("unit_flip:") for r in u.reason_codes)
    ]


@pytest.mark.parametrize(
    ("context", "answer", "flipped"),
    [
        (
            "PayLink 开放平台 API 限流说明：每个应用默认 QPS 上限为 200。沙箱环境不限流，但沙箱数据每天凌晨 3:00 清空。",
            "沙箱环境和正式环境一样会限流，另外沙箱里的数据每天凌晨三点会清空一次。",
            "沙箱环境和正式环境一样会限流",
        ),
        (
            "Failed deliveries are retried for up to 3 days. Events may be delivered more than once and are "
            "not guaranteed to arrive in order, so handlers should be idempotent.",
            "Orbit guarantees that events arrive in order, but the same event can show up more than once, "
            "so write your handler so it's idempotent.",
            "Orbit guarantees that events arrive in order",
        ),
    ],
)
def test_a_clause_that_drops_its_sources_negation_is_not_passed(
    context: str, answer: str, flipped: str
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS
    assert [u.text for u in _flipped_units(result)] == [flipped]


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # the negation moved into "otherwise"
        (
            "预订后 15 分钟内未签到，系统将自动释放会议室。大会议室预订需经行政部审批。",
            "会议室预订后要在 15 分钟内签到，否则系统会自动把会议室释放掉。",
        ),
        # a clause that adds a negation restates a cap
        (
            "Overtime must be pre-approved by the line manager in the rota system. Overtime is capped at 12 hours per week.",
            "Overtime has to be approved beforehand by your line manager in the rota system, and you can't do more "
            "than 12 hours a week.",
        ),
    ],
)
def test_a_clause_that_moves_or_adds_a_negation_is_no_flip(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert not _flipped_units(result)


def test_a_clause_that_only_announces_the_next_is_no_unit_of_its_own() -> None:
    context = "以下情形不发放奖金：推荐人是候选人的直属上级或参与了面试评估。"
    answer = "另外要注意，如果你是他的直属上级或参与了他的面试评估，就拿不到这笔奖金。"
    result = check(context=context, answer=answer)
    assert all(u.text.strip("，,") != "另外要注意" for c in result.claims for u in c.units)
    assert not any(code.startswith("unit_unsupported:另外") for c in result.claims for code in c.reason_codes)


@pytest.mark.parametrize("reply", ["No on both counts.", "No.", "不是的。"])
def test_a_bare_reply_to_the_question_has_no_polarity_to_flip(reply: str) -> None:
    context = (
        "Results are paginated with a maximum of 100 per page; offset-based pagination is not supported."
    )
    result = check(context=context, answer=f"{reply} The most you can get per page is 100.")
    assert result.verdict is not Verdict.REJECT, [c.reason_codes for c in result.claims]


@pytest.mark.parametrize(
    ("context", "answer", "passes"),
    [
        # the rest of a total the context states, with the part the claim states
        (
            "The council approved a £38 million plan. £22 million comes from a national grant, "
            "the rest from council borrowing.",
            "Of the £38 million plan, £22 million comes from a national grant and the remaining "
            "£16 million from council borrowing.",
            True,
        ),
        (
            "The council approved a £38 million plan. £22 million comes from a national grant, "
            "the rest from council borrowing.",
            "Of the £38 million plan, £22 million comes from a national grant and the remaining "
            "£18 million from council borrowing.",
            False,
        ),
    ],
)
def test_a_remainder_of_a_stated_total_is_worked_out_not_invented(
    context: str, answer: str, passes: bool
) -> None:
    assert (check(context=context, answer=answer).verdict is Verdict.PASS) is passes


def test_and_last_26_months_is_a_length_that_a_little_over_two_years_retells() -> None:
    # "last" here is the verb (a duration), not "the last 26 months"; `due to begin` states no cause
    result = check(
        context="Work is scheduled to start in March 2025 and last 26 months.",
        answer="Work is due to begin in March 2025 and take a little over two years.",
    )
    codes = [code for c in result.claims for code in c.reason_codes]
    assert not any(code.startswith(("fidelity:", "cause_not_in_evidence")) for code in codes)
    assert result.verdict is not Verdict.REJECT


def test_an_example_the_answer_supposes_is_no_claimed_value_to_reject() -> None:
    # "a 13-hour delay" is the case supposed; "€100" what it yields: worked out, so not shown, but
    # no changed value either (REJECT is for values the evidence states otherwise)
    context = "Delayed flights are paid only if the delay exceeds 6 hours, at €50 per full 6-hour block."
    answer = "You get €50 for every full six hours, so a 13-hour delay would pay €100."
    assert check(context=context, answer=answer).verdict is Verdict.LOW_CONFID


_RACE = json.dumps(
    {
        "results": [
            {"pos": 1, "name": "Lena Marchetti", "time": "1:58:42"},
            {"pos": 2, "name": "Aiko Brandt", "time": "1:59:10"},
            {"pos": 3, "name": "Fionnuala Hart", "time": "2:01:05"},
        ]
    }
)


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("Aiko Brandt was second in 1:59:10, less than a minute behind the winner.", True),
        ("Fionnuala Hart was third in 2:01:05, less than a minute behind the winner.", False),
    ],
)
def test_a_gap_said_as_a_bound_is_measured_from_the_time_it_is_said_of(answer: str, shown: bool) -> None:
    # the bound `a minute` is no bare `1` (a finishing position); Brandt's gap is 0:28, Hart's 2:23
    result = check(context=_RACE, answer=answer)
    codes = [code for c in result.claims for code in c.reason_codes]
    assert (not any(code.startswith("fidelity:") for code in codes)) is shown
    if not shown:
        assert result.verdict is not Verdict.PASS


def test_a_flip_against_a_loosely_aligned_window_is_not_shown() -> None:
    context = (
        "值班工程师须在 15 分钟内确认是否存在慢查询；如确认存在，应先在只读副本上执行 EXPLAIN 分析，"
        "禁止直接在主库上终止会话。"
    )
    answer = (
        "值班工程师要在一刻钟内确认有没有慢查询，确认存在的话先到只读副本上用 EXPLAIN 分析，"
        "情况紧急时也可以直接在主库上终止会话释放连接。"
    )
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


def test_a_spelled_figure_the_other_language_context_states_nowhere_is_not_shown() -> None:
    context = (
        "网关 TLS 证书轮换规范：证书到期前 30 天由 cert-bot 自动发起续期；若续期失败，cert-bot 每 6 小时重试一次，"
        "连续失败 4 次后向安全组值班发送 P3 工单。"
    )
    answer = "After three failures in a row it raises a P3 ticket to the security on-call."
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.PASS
    assert result.claims[0].category is not FactCategory.DIRECT_EVIDENCE


_LEAVE = (
    "Employee: Priya\nLeave year: 2025\nAnnual entitlement: 25 days\nCarried over from 2024: 3 days\n"
    "Taken to date: 11.5 days\nBooked (future): 4 days\nSick days taken: 2"
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # `28 days`: a figure in the record's unit, not the field `Sick days taken`; 28 − 11.5 − 4 = 12.5
        (
            "Priya has 28 days available for 2025: her 25-day entitlement plus 3 carried over from 2024. "
            "She has taken 11.5 and has another 4 booked, which leaves 12.5 days still free to book.",
            Verdict.PASS,
        ),
        ("Priya has taken 5 sick days this year.", Verdict.REJECT),  # the field says 2
    ],
)
def test_a_records_unit_is_no_field_and_a_remainder_takes_off_every_part(
    answer: str, verdict: Verdict
) -> None:
    assert check(context=_LEAVE, answer=answer).verdict is verdict


_INCIDENT = json.dumps(
    {
        "incident": "INC-4471",
        "commander": "Marisol Ekwueme",
        "comms_lead": "Dario Fenn",
        "postmortem_owner": "Dario Fenn",
    }
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        (
            "Marisol Ekwueme was incident commander and also owns the postmortem, with Dario Fenn as comms lead.",
            Verdict.REJECT,
        ),
        (
            "Marisol Ekwueme was incident commander, with Dario Fenn as comms lead; Dario also owns the postmortem.",
            Verdict.PASS,
        ),
    ],
)
def test_a_role_of_the_record_given_to_another_of_its_people_is_a_contradiction(
    answer: str, verdict: Verdict
) -> None:
    assert check(context=_INCIDENT, answer=answer).verdict is verdict


def test_a_clause_drawing_a_worked_out_figure_is_not_an_unsupported_clause() -> None:
    context = json.dumps(
        {"incident": "INC-4471", "started": "2025-03-08T14:22Z", "mitigated": "2025-03-08T15:07Z"}
    )
    drawn = check(
        context=context, answer="It started at 14:22 and was mitigated at 15:07, so it lasted 45 minutes."
    )
    assert drawn.verdict is Verdict.PASS
    wrong = check(
        context=context, answer="It started at 14:22 and was mitigated at 15:07, so it lasted 55 minutes."
    )
    assert wrong.verdict is not Verdict.PASS

"""A question's needs, derived in code (Chinese and English): what is asked about, what of it, under
which conditions, one need per part — and gaps named by need, never by single words."""

from __future__ import annotations

import pytest

from groundgate.contracts import AnswerKind, ConditionKind
from groundgate.questions import derive_needs, refers_back, resolve_followup, round_two_query, split_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("产假多少天？婚假多少天？", ["产假多少天", "婚假多少天"]),
        (
            "How high did the ERR_TIMEOUT rate get on 2026-03-14 and when did it recover?",
            ["How high did the ERR_TIMEOUT rate get on 2026-03-14", "when did it recover"],
        ),
        (
            "What is the availability SLO of the payment gateway, and how large is its error budget?",
            ["What is the availability SLO of the payment gateway", "how large is its error budget"],
        ),
        ("病假超过 10 天，工资怎么算？", ["病假超过 10 天，工资怎么算"]),  # the first piece asks nothing
        (
            "Which payment methods and currencies are supported?",
            ["Which payment methods and currencies are supported"],
        ),
        (
            "How many instances do payment-gateway and order-service each run by default?",
            [
                "How many instances do payment-gateway run by default",
                "How many instances do order-service run by default",
            ],
        ),
        (
            "What are the limits of Team A and Team B respectively?",
            ["What are the limits of Team A and Team B respectively"],
        ),
        # A preposition before the question word still starts a question of its own.
        (
            "How many rules did risk-service load, and above what risk score does it reject a payment?",
            ["How many rules did risk-service load", "above what risk score does it reject a payment"],
        ),
        ("Who approves it and by when must it be filed?", ["Who approves it", "by when must it be filed"]),
        ("What is the limit in Beijing and in Shanghai?", ["What is the limit in Beijing and in Shanghai"]),
        # a thousands separator joins no clauses, and an A-not-A question (是不是) asks
        (
            "上周请客户吃饭花了 1,500 块，没到 2,000，报销是不是直属经理批了就行？",
            ["上周请客户吃饭花了 1,500 块，没到 2,000，报销是不是直属经理批了就行"],
        ),
    ],
)
def test_a_question_is_split_into_the_parts_that_each_ask_something(question: str, parts: list[str]) -> None:
    assert split_parts(question) == parts


@pytest.mark.parametrize(
    ("question", "kind", "label", "anchors", "terms"),
    [
        ("When is the Team B standup?", AnswerKind.TIME, "time of the Team B standup", ["Team B"], ["standup"]),
        ("Who is the CEO of Lanting Pay?", AnswerKind.PERSON, "Who is the CEO of Lanting Pay", ["Lanting Pay"], ["ceo"]),
        ("工作满 12 年有几天年假？", AnswerKind.QUANTITY, "工作满 12 年的年假天数", [], ["工作", "年假"]),
        ("病假超过 10 天工资怎么算？", AnswerKind.PROCEDURE, "病假超过 10 天的工资计算方法", [], ["病假", "工资"]),
        ("那 P2 告警多久内确认？", AnswerKind.QUANTITY, "P2 告警确认时长", ["P2"], ["告警", "确认"]),
        ("etcd 备份的保留周期是多少天？", AnswerKind.QUANTITY, "etcd 备份保留周期天数", ["etcd"], ["备份", "保留", "周期"]),
        ("DBPoolSaturation 告警什么条件下触发？", AnswerKind.TIME, "DBPoolSaturation 告警触发条件", ["DBPoolSaturation"], ["告警", "触发"]),
        ("订单 ORD-20260314-00042 为什么支付失败？", AnswerKind.REASON, "订单 ORD-20260314-00042 支付失败原因", ["ORD-20260314-00042"], ["订单", "支付", "失败"]),
        ("What should I do when search latency is high?", AnswerKind.PROCEDURE, "what to do when search latency is high", [], ["search", "latency", "high"]),
    ],
)  # fmt: skip
def test_each_need_names_its_subject_kind_and_label(
    question: str, kind: AnswerKind, label: str, anchors: list[str], terms: list[str]
) -> None:
    (need,) = derive_needs(question).needs
    assert (need.kind, need.label, need.anchors, need.terms) == (kind, label, anchors, terms)


@pytest.mark.parametrize(
    ("question", "text", "low", "high", "low_inclusive"),
    [
        ("工作满 12 年有几天年假？", "满 12 年", 144.0, None, True),  # months
        ("病假超过 10 天工资怎么算？", "超过 10 天", 864000.0, None, False),  # seconds
        ("报销不超过 5000 元需要谁审批？", "不超过 5000 元", None, 5000.0, True),
        (
            "Staff with at least 12 years of service get how many days?",
            "at least 12 years",
            144.0,
            None,
            True,
        ),
    ],
)
def test_a_figure_with_a_comparator_becomes_a_range_condition(
    question: str, text: str, low: float | None, high: float | None, low_inclusive: bool
) -> None:
    (condition,) = derive_needs(question).needs[0].conditions
    assert condition.kind is ConditionKind.QUANTITY
    assert (condition.text, condition.low, condition.high, condition.low_inclusive) == (
        text,
        low,
        high,
        low_inclusive,
    )


def test_a_part_without_a_subject_takes_the_earlier_parts_names_and_day() -> None:
    first, second = derive_needs(
        "How high did the ERR_TIMEOUT rate get on 2026-03-14 and when did it recover?"
    ).needs
    assert first.label == "peak value of the ERR_TIMEOUT rate (2026-03-14)"
    assert (second.kind, second.anchors, second.terms, second.soft_terms) == (
        AnswerKind.TIME,
        ["ERR_TIMEOUT"],
        ["recover"],
        ["rate"],
    )
    assert [c.value for c in second.conditions] == ["2026-03-14"]
    assert second.label == "recovery time of the ERR_TIMEOUT rate"


def test_how_an_order_failed_asks_its_cause_and_the_error_asked_after_it_is_the_orders() -> None:
    why, error = derive_needs("ORD-20260314-00081 这单怎么失败了？报的什么错？").needs
    assert why.kind is AnswerKind.REASON
    assert (error.anchors, error.terms) == (["ORD-20260314-00081"], ["报错"])


@pytest.mark.parametrize(
    ("question", "conditions"),
    [
        ("我累计工作 12 年了，一年有几天年假？", ["12 年"]),  # 一年 is the rate's unit
        ("入职一年了，能休几天年假？", ["一年"]),  # a length served
    ],
)
def test_one_year_as_the_unit_of_a_rate_is_no_condition(question: str, conditions: list[str]) -> None:
    assert [c.text for c in derive_needs(question).needs[0].conditions] == conditions


def test_parts_about_different_things_must_each_name_their_own() -> None:
    maternity, marriage = derive_needs("产假多少天？婚假多少天？").needs
    assert (maternity.distinct, marriage.distinct) == (["产假"], ["婚假"])
    assert [maternity.label, marriage.label] == ["产假天数", "婚假天数"]


def test_what_a_code_means_holds_on_any_day_so_the_date_is_no_condition() -> None:
    (need,) = derive_needs("3月14日 ERR_TIMEOUT 是什么意思？").needs
    assert need.kind is AnswerKind.DEFINITION
    assert need.conditions == []


@pytest.mark.parametrize(
    ("question", "query"),
    [
        ("退款手续费由谁承担？", "退款 手续费 承担"),
        ("工作满 12 年有几天年假？", "工作 年假 满 12 年"),
        ("When is the Team B standup?", "Team B standup"),
    ],
)
def test_round_two_searches_with_the_needs_words_never_with_gap_prose(question: str, query: str) -> None:
    assert round_two_query(derive_needs(question).needs[0]) == query


def test_a_resolved_follow_up_is_recorded_with_the_question_as_typed() -> None:
    needs = derive_needs("那 P2 呢？", resolved_question="P2 告警要求多久内确认？", followup=True)
    assert (needs.question, needs.resolved_question, needs.followup, needs.language) == (
        "那 P2 呢？",
        "P2 告警要求多久内确认？",
        True,
        "zh-CN",
    )
    assert needs.needs[0].anchors == ["P2"]


@pytest.mark.parametrize(
    ("question", "same_as"),
    [
        ("P1 告警要求多长时间内确认？", "P1 告警要求多久内确认？"),
        ("P1 告警要求多少时间内确认？", "P1 告警要求多久内确认？"),
        ("退款多少天内到账？", "退款多久到账？"),
        ("事故复盘需要在几个工作日内完成？", "事故复盘需要多久完成？"),
        ("How many business days does a refund take?", "How long does a refund take?"),
    ],
)
def test_paraphrases_of_the_interrogative_ask_for_the_same_kind_of_answer_about_the_same_words(
    question: str, same_as: str
) -> None:
    (need,) = derive_needs(question).needs
    (other,) = derive_needs(same_as).needs
    assert (need.kind, need.terms, need.value_kinds) == (other.kind, other.terms, other.value_kinds)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        # One question asked of two things at once: one part per thing.
        (
            "一线城市和省会城市出差住宿每晚标准分别是多少？",
            ["一线城市出差住宿每晚标准是多少", "省会城市出差住宿每晚标准是多少"],
        ),
        ("A 组和 B 组的站会分别几点开？", ["A 组的站会几点开", "B 组的站会几点开"]),
        ("产假和婚假分别多少天？", ["产假多少天", "婚假多少天"]),
        (
            "What are the availability SLO and the latency SLO of the payment gateway?",
            [
                "What are the availability SLO of the payment gateway",
                "What are the latency SLO of the payment gateway",
            ],
        ),
        (
            "What are the defaults of payment-db.pool.max_size and payment-db.pool.max_waiters?",
            [
                "What are the defaults of payment-db.pool.max_size",
                "What are the defaults of payment-db.pool.max_waiters",
            ],
        ),
        # A question about the pair stays one part.
        (
            "What is the relation between the cache and the database?",
            ["What is the relation between the cache and the database"],
        ),
        ("A和B之间的区别分别是什么？", ["A和B之间的区别分别是什么"]),
        # A case set before the question is not a part of its own.
        ("If the merchant key leaked, what should we do?", ["If the merchant key leaked, what should we do"]),
    ],
)
def test_a_question_asked_of_two_things_is_split_per_thing(question: str, parts: list[str]) -> None:
    assert split_parts(question) == parts


def test_a_rank_word_such_as_yixian_stays_a_term_of_the_need() -> None:
    needs = derive_needs("一线城市和省会城市出差住宿每晚标准分别是多少？").needs
    assert "一线" in needs[0].terms
    assert "一线" in needs[0].distinct
    assert "省会" in needs[1].distinct


def test_the_question_word_nayitian_is_not_a_condition_of_one_day() -> None:
    need = derive_needs("公司年会在哪一天举行？").needs[0]
    assert need.conditions == []


@pytest.mark.parametrize(
    ("question", "value_kinds"),
    [
        ("And how often does that happen?", ["frequency"]),
        ("商户签名密钥多久轮换一次？", ["frequency"]),
        ("How long is the overlap window?", ["duration", "range", "period"]),
    ],
)
def test_how_often_asks_for_a_recurrence_not_a_duration(question: str, value_kinds: list[str]) -> None:
    assert derive_needs(question).needs[0].value_kinds == value_kinds


def test_a_case_the_question_sets_is_recorded_as_case_terms() -> None:
    need = derive_needs("出差当天出发的话，那一天的餐饮补贴是多少？").needs[0]
    assert need.case_terms == ["出差", "当天", "出发"]


@pytest.mark.parametrize(
    ("question", "previous", "anchors"),
    [
        (
            "What is its normal lag?",
            "Which consumer group reads the payment-events topic?",
            ["payment-events"],
        ),
        ("它的上限是多少？", "payment-db.pool.max_size 的默认值是多少？", ["payment-db.pool.max_size"]),
        # the pronoun points at the thing the earlier question named, not at its last part
        (
            "那 3 月 14 日它真的被排满过吗？",
            "payment-db 连接池的等待队列上限配的是多少？队列排满以后再进来的请求会怎么样？",
            ["payment-db"],
        ),
    ],
)
def test_a_pronoun_question_in_a_session_takes_the_previous_subject(
    question: str, previous: str, anchors: list[str]
) -> None:
    needs = derive_needs(question, previous_question=previous)
    assert needs.followup
    assert needs.needs[0].anchors == anchors
    assert anchors[0] in needs.needs[0].search_text


@pytest.mark.parametrize(
    ("question", "refers"),
    [
        ("What is its normal lag?", True),
        ("And how often does that happen?", True),
        ("它的上限是多少？", True),
        # the date and figures it adds do not make it long
        ("那 3 月 14 日它真的被排满过吗？大概是几点？", True),
        # what happened next to the thing the turn before named
        ("后来改过吗？什么时候改的，为啥？", True),
        ("And afterwards, when did it recover?", True),
        ("What is the Team B standup time?", False),
        ("What does ERR_TIMEOUT mean and what causes it?", False),
    ],
)
def test_refers_back_only_for_short_questions_naming_nothing_of_their_own(
    question: str, refers: bool
) -> None:
    assert refers_back(question) is refers


@pytest.mark.parametrize(
    ("question", "kind", "anchors"),
    [
        ("One merchant gets ERR_SIGNATURE_INVALID now and then. What should I check, and in which order?",
         AnswerKind.PROCEDURE, ["ERR_SIGNATURE_INVALID"]),
        ("ORD-1 这单是怎么失败的？", AnswerKind.REASON, ["ORD-1"]),
        ("Kafka lag is growing. What should I do?", AnswerKind.PROCEDURE, ["Kafka"]),
        # a case opener is no name, and `SEV1` is a code the answer must name
        ("During a SEV1, how often are status updates posted?", AnswerKind.QUANTITY, ["SEV1"]),
        # the first word of a later sentence starts it too; doubting the premise asks for the cause
        ("ORD-7 failed with a timeout on the BOC channel. Was BOC really the problem?",
         AnswerKind.REASON, ["ORD-7", "BOC"]),
        ("ORD-7 超时失败了，真的是 BOC 的问题吗？", AnswerKind.REASON, ["ORD-7", "BOC"]),
        ("Was BOC actually to blame for the timeouts?", AnswerKind.REASON, ["BOC"]),
        # a superlative of a measure asks a figure; of anything else it does not
        ("What was risk-service's highest p99 latency on March 14?", AnswerKind.QUANTITY, ["risk-service", "p99"]),
        ("What is the highest priority?", AnswerKind.DEFINITION, []),
        # an account of events on a day, not a meaning
        ("What happened to payment-db-proxy on 2026-03-14?", AnswerKind.OTHER, ["payment-db-proxy"]),
        # who reported it is no name; "what was the reason" and 为啥 ask for the cause
        ("Customer says ORD-7 got declined. What was the reason?", AnswerKind.REASON, ["ORD-7"]),
        ("How come ORD-7 was refused?", AnswerKind.REASON, ["ORD-7"]),
        ("ORD-7 这单为啥没付成功？", AnswerKind.REASON, ["ORD-7"]),
    ],
)  # fmt: skip
def test_a_sentence_opening_word_is_no_name_and_check_questions_ask_for_steps(
    question: str, kind: AnswerKind, anchors: list[str]
) -> None:
    (need,) = derive_needs(question).needs
    assert need.kind is kind
    assert need.anchors == anchors


@pytest.mark.parametrize(
    ("question", "kind", "minute"),
    [
        (
            "What was the p99 latency of payment-gateway at 14:03 UTC on March 14?",
            AnswerKind.QUANTITY,
            "14:03",
        ),
        (
            "What did db_pool_active_connections show for the payment-db pool at 14:31 UTC on March 14?",
            AnswerKind.QUANTITY,
            "14:31",
        ),
        # not a measure: what went on, or a record's state, at that minute
        ("What was going on at 14:03 UTC?", AnswerKind.OTHER, "14:03"),
        ("What was the status of ORD-20260314-00097 at 14:30?", AnswerKind.STATUS, "14:30"),
    ],
)
def test_a_measure_asked_at_a_minute_asks_its_value_then(
    question: str, kind: AnswerKind, minute: str
) -> None:
    (need,) = derive_needs(question).needs
    assert need.kind is kind
    assert [c.value for c in need.conditions if c.kind.value == "time"] == [minute]


def test_a_why_that_names_nothing_asks_about_what_the_part_before_it_named() -> None:
    first, why = derive_needs("ORD-20260314-00200 这笔订单最后停在什么状态？为什么一直没有结果？").needs
    assert why.kind is AnswerKind.REASON
    assert why.anchors == first.anchors == ["ORD-20260314-00200"]


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        # a failure in other words is asked as one; how the record puts it is no subject
        ("ORD-7 这单为啥没付成功？", ["失败"]),
        ("Why didn't ORD-7 go through?", ["fail"]),
        ("PaymentTimeoutRateHigh 告警触发的那条记录里，超时率写的是多少？", ["告警", "触发", "记录", "超时"]),
    ],
)
def test_what_a_question_asks_about_is_read_past_its_wording(question: str, terms: list[str]) -> None:
    (need,) = derive_needs(question).needs
    assert need.terms == terms


@pytest.mark.parametrize(
    ("question", "excluded"),
    [
        ("我一个人去苏州出差（苏州不是省会，也不是计划单列市），住宿每晚上限多少？", ["省会", "计划单列市"]),
        (
            "The trip is to Suzhou, which is not a provincial capital. What is the hotel cap?",
            ["provincial capital"],
        ),
        # a predicate denied rules out no row
        ("The committed offsets are not moving at all. What should I check?", []),
    ],
)
def test_a_category_the_question_says_its_case_is_not_is_excluded(question: str, excluded: list[str]) -> None:
    (need,) = derive_needs(question).needs[-1:]
    assert need.excluded_terms == excluded
    assert not set(need.terms) & set(excluded)


def test_may_one_get_is_no_word_the_measured_figure_needs() -> None:
    (need,) = derive_needs("下周去苏州出差住两晚，酒店每晚能报多少？").needs
    assert "能报" not in need.required_terms


@pytest.mark.parametrize(
    "question", ["payment success rate at 14:16 UTC?", "gateway p99 latency at 14:03", "支付成功率 14:16？"]
)
def test_a_measure_named_at_a_minute_without_a_question_word_asks_its_value(question: str) -> None:
    assert derive_needs(question).needs[0].kind is AnswerKind.QUANTITY


def test_two_latin_words_either_side_of_a_chinese_comma_stay_apart() -> None:
    first = derive_needs("Kafka 消费者老是 rebalance，max.poll.interval.ms 是多少？").needs[0]
    assert "max.poll.interval.ms" in first.anchors
    assert not any("rebalancemax" in a for a in first.anchors)


@pytest.mark.parametrize(
    ("question", "previous", "resolved"),
    [
        ("and the gateway's, same minute?", "order-service p99 at 14:02?", "gateway p99 at 14:02?"),
        ("and for Team B?", "When is the Team A standup?", "When is the Team B standup?"),
    ],
)
def test_a_follow_up_for_another_service_at_the_same_minute_keeps_the_minute(
    question: str, previous: str, resolved: str
) -> None:
    from groundgate.questions import resolve_followup

    assert resolve_followup(question, [(previous, previous)]).question == resolved


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("ORD-20260314-00086 啥情况", AnswerKind.REASON),
        ("ORD-20260314-00086 怎么了？", AnswerKind.REASON),
        ("What happened to order ORD-20260314-00042?", AnswerKind.REASON),
        ("什么情况下需要升级？", AnswerKind.TIME),  # a condition asked, not what happened
    ],
)
def test_what_happened_to_a_record_asks_its_cause(question: str, kind: AnswerKind) -> None:
    assert derive_needs(question).needs[0].kind is kind


@pytest.mark.parametrize(
    "question", ["search-api p99 is high. What's the fix?", "What is the workaround for ERR_TIMEOUT?"]
)
def test_asking_for_the_fix_asks_for_a_procedure(question: str) -> None:
    assert derive_needs(question).needs[-1].kind is AnswerKind.PROCEDURE


def test_two_question_words_joined_ask_two_things() -> None:
    when, where = derive_needs(
        "I'm on Team A. Tomorrow is the first working day of the month - when and where do we meet?"
    ).needs
    assert (when.kind, where.kind) == (AnswerKind.TIME, AnswerKind.LOCATION)


@pytest.mark.parametrize(
    "question",
    ["What was globex's own payment success rate at 14:15?", "globex 的支付成功率 14:15 是多少？"],
)
def test_another_tenant_named_in_the_question_must_be_named_by_the_answer(question: str) -> None:
    (need,) = derive_needs(question, other_tenants=["globex", "initech"]).needs
    assert "globex" in need.anchors
    assert "globex" not in need.terms


def test_without_the_tenant_list_a_lower_case_english_name_is_an_ordinary_word() -> None:
    (need,) = derive_needs("What was globex's own payment success rate at 14:15?").needs
    assert "globex" in need.terms


@pytest.mark.parametrize(
    ("question", "case"),
    [
        (
            "We think one of our merchant signing keys leaked this morning and Security is issuing a new one."
            " Will the old key keep working during an overlap window like in a normal rotation?",
            ["leaked"],
        ),
        (
            "Security is issuing a new merchant key. Will the old key keep working during an overlap window?",
            [],
        ),
        ("Why was the leaked key revoked?", []),  # asked in one sentence: the subject, not a scene
    ],
)
def test_an_abnormal_state_told_before_the_question_is_its_case(question: str, case: list[str]) -> None:
    assert derive_needs(question).needs[-1].case_terms == case


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (  # a scene sentence is carried into the first part; the joined second question is its own
            "During the promo incident the timeout alert went off at some point. When exactly did"
            " PaymentTimeoutRateHigh fire, and what ERR_TIMEOUT rate did the alert itself report?",
            2,
        ),
        ("When did PaymentTimeoutRateHigh fire, and what rate did it report?", 2),
        ("The graphs look normal again. How long must they stay like that?", 1),
    ],
)
def test_a_scene_sentence_does_not_hide_the_second_question_after_it(question: str, parts: int) -> None:
    needs = derive_needs(question).needs
    assert len(needs) == parts
    assert not needs[0].case_terms  # "During the promo incident" names the topic, not a case


@pytest.mark.parametrize(
    "question",
    [
        "how far behind was the order-settlement consumer group at 14:34? number of messages pls",
        "What was the gateway p99 at 14:03? in ms please",
    ],
)
def test_a_closing_request_for_the_form_of_the_answer_asks_nothing_of_its_own(question: str) -> None:
    assert len(derive_needs(question).needs) == 1


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("Quick one: the BOC channel probe at 14:17, what round-trip time did it log?", 1),
        (
            "Two things about refunds: what's the default per-tenant rate limit on POST /api/v1/refunds,"
            " and what fee does Lanting Pay charge the merchant for each refund?",
            2,
        ),
        ("两个问题：订单状态缓存的过期时间是多少？命中率掉到多少会触发告警？", 2),
    ],
)
def test_an_announcing_opener_and_a_topic_named_before_it_ask_nothing_of_their_own(
    question: str, parts: int
) -> None:
    needs = derive_needs(question).needs
    assert len(needs) == parts
    assert all(n.kind is AnswerKind.QUANTITY for n in needs)
    assert not any(a.lower() in {"quick", "two"} for n in needs for a in n.anchors)


@pytest.mark.parametrize(
    ("follow_up", "resolved_minute"),
    [
        ("那前一分钟呢？", "14:29"),
        ("and the minute before?", "14:29"),
        ("后一分钟呢？", "14:31"),
        ("and the next minute?", "14:31"),
        ("and one minute earlier?", "14:29"),
    ],
)
def test_a_follow_up_for_the_minute_before_or_after_moves_the_clock_time(
    follow_up: str, resolved_minute: str
) -> None:
    earlier = "14:30 那一分钟 payment-gateway 的 p99 是多少？"
    resolution = resolve_followup(follow_up, [(earlier, earlier)])
    assert resolution.followup
    assert resolution.question == earlier.replace("14:30", resolved_minute)


@pytest.mark.parametrize(
    "question", ["14:22 支付成功率？", "14:22 success rate?", "at 14:03 UTC gateway p99?"]
)
def test_a_minute_named_before_a_measure_asks_its_value(question: str) -> None:
    assert derive_needs(question).needs[0].kind is AnswerKind.QUANTITY


def test_a_chinese_scene_sentence_before_the_question_is_no_part_of_its_own() -> None:
    needs = derive_needs(
        "我们是 acme，在做大促的复盘。14:25 那一分钟 payment-db 连接池里还在等连接的请求有多少个？"
    ).needs
    assert len(needs) == 1
    assert needs[0].kind is AnswerKind.QUANTITY


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        (
            "年底封网期从哪天开始？那几天普通变更完全不能做吗？",
            AnswerKind.YES_NO,
        ),  # 那几天 points, asks no count
        ("这几天能休年假吗？", AnswerKind.YES_NO),
        ("旧密钥被吊销之前会提前几天提醒？", AnswerKind.QUANTITY),
    ],
)
def test_a_demonstrative_few_days_asks_no_count(question: str, kind: AnswerKind) -> None:
    assert derive_needs(question).needs[-1].kind is kind

"""Session 30 rules from the tune21 question set (docs/design.md §8): an announcing opener's topic
is the subject of every part, a capitalised word and one letter in Chinese text is one name
(`Team C`), a modal and a verb of motion (`会去`) are no subject words, what a Chinese lead-in
before a colon says the asker is doing helps without being required, a courtesy before a follow-up
is no part, a rule's sustained span (`持续 3 分钟`) is at least that long, and a yes/no question's figure
exactly at a rule's strict bound is answered by that rule."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs, match_need, read_conditions, split_parts
from groundgate.questions import statement as statement_of
from groundgate.questions.conditions import (
    CONFLICT,
    SATISFIED,
    at_strict_bound,
    condition_outcome,
    exceeds_limit,
)
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.questions.parts import opener_topic
from groundgate.verify import fidelity

_LOCK_CLAUSE = "该接口的超时时间为 500 ms，计入支付网关 3000 ms 的总预算。"
_LOCK_CONTEXT = "order/order-api-reference.md > 订单服务接口文档 > POST /internal/orders/{order_id}/lock"
_RISK_CLAUSE = "调用 risk-service 做实时风控，超时 200 ms，金额低于 500 CNY 时风控超时按放行处理。"
_RISK_CONTEXT = "payment/payment-gateway-architecture.md > 支付网关架构说明 > 请求处理链路"
_LOCK_QUESTION = (
    "Two things about order-service: how long does the gateway give the internal order lock call "
    "before it times out, and what is order-service's own p99 latency SLO?"
)


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        (_LOCK_QUESTION, "order-service"),
        ("Two questions about refunds: how long do they take?", "refunds"),
        ("Quick one: what is the SLO?", ""),  # announces, names no topic
        ("What is order-service's SLO?", ""),
    ],
)
def test_an_announcing_opener_names_its_topic(question: str, topic: str) -> None:
    assert opener_topic(question) == topic


def test_every_part_after_an_opener_about_a_service_is_about_that_service() -> None:
    needs = derive_needs(_LOCK_QUESTION).needs
    assert all("order-service" in n.anchors for n in needs)


@pytest.mark.parametrize(
    ("text", "context", "met"),
    [
        (_LOCK_CLAUSE, _LOCK_CONTEXT, True),  # the lock call's own timeout, under order-service's document
        (_RISK_CLAUSE, _RISK_CONTEXT, False),  # another service's timeout answers another case
    ],
)
def test_a_timeout_of_another_service_does_not_answer_for_the_opener_s_service(
    text: str, context: str, met: bool
) -> None:
    need = derive_needs(_LOCK_QUESTION).needs[0]
    assert match_need(need, text, context=context, equivalents=bundled_equivalents()).met is met


@pytest.mark.parametrize(
    ("question", "anchor"),
    [
        ("我下周要调到 Team C，Team C 的每日站会是几点开？", "Team C"),
        ("Plan B 的预算是多少？", "Plan B"),
    ],
)
def test_a_capitalised_word_and_one_letter_in_chinese_text_is_one_name(question: str, anchor: str) -> None:
    assert anchor in derive_needs(question).needs[0].anchors


def test_another_team_s_standup_does_not_answer_for_a_team_named_in_chinese() -> None:
    need = derive_needs("Team C 的每日站会是几点开？").needs[0]
    said = "Its standup is at 10:15 Beijing time on Mondays, Wednesdays and Fridays."
    match = match_need(need, said, context="team-b-standup.md > Team B Daily Standup")
    assert not match.met
    assert "need:anchor_missing:Team C" in match.codes


@pytest.mark.parametrize(
    ("question", "absent"),
    [
        ("银行回调迟迟不来的话，订单服务多久之后会去银行主动查单？", "会去"),
        ("值班同学多久要来机房？", "要来"),
    ],
)
def test_a_modal_and_a_verb_of_motion_are_no_subject_words(question: str, absent: str) -> None:
    assert absent not in derive_needs(question).needs[0].terms


@pytest.mark.parametrize(
    ("question", "soft", "kept"),
    [
        (
            "我们在梳理银行回调链路：银行调 /api/v1/pay/callback 的时候，网关最多能用多长时间回 HTTP 200？",
            {"梳理", "链路"},
            {"银行", "网关"},
        ),
        ("客服转来一个工单：PAY-5003 这单后面由谁处理？", {"客服", "工单"}, set()),
    ],
)
def test_what_a_chinese_lead_in_before_a_colon_says_helps_but_is_not_required(
    question: str, soft: set[str], kept: set[str]
) -> None:
    need = derive_needs(question).needs[0]
    assert soft <= set(need.soft_terms)
    assert not soft & set(need.terms)
    assert kept <= set(need.terms)


def test_a_lead_in_that_asks_stays_part_of_the_subject() -> None:
    need = derive_needs("退款要多久：三天还是五天？").needs[0]
    assert "退款" in need.terms


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "Thanks. Which Kafka topic feeds those deliveries, and what lag is normal for that group?",
            ["Which Kafka topic feeds those deliveries", "what lag is normal for that group"],
        ),
        ("明白了。那 ERR_POOL_EXHAUSTED 呢？", ["那 ERR_POOL_EXHAUSTED 呢"]),
        ("好的，那 P2 呢？", ["那 P2 呢"]),
    ],
)
def test_a_courtesy_before_a_follow_up_is_no_part_of_it(question: str, parts: list[str]) -> None:
    assert split_parts(question) == parts


def test_a_word_saying_the_case_is_made_up_is_no_name() -> None:
    need = derive_needs("Hypothetical for our review: should DBPoolSaturation be firing?").needs[0]
    assert "Hypothetical" not in need.anchors
    assert "DBPoolSaturation" in need.anchors


_TIMEOUT_RULE = "错误率持续高于 5% 时会触发 PaymentTimeoutRateHigh 告警。"
_SUSTAINED_RULE = "KafkaConsumerLagHigh（P2）：kafka_consumer_lag 大于 5000 持续 10 分钟。"


@pytest.mark.parametrize(
    ("statement", "asked", "outcome"),
    [
        (_SUSTAINED_RULE, "停了 15 分钟", SATISFIED),  # a sustained span is at least that long
        (_SUSTAINED_RULE, "停了 5 分钟", CONFLICT),
        ("观察 10 分钟。", "停了 15 分钟", CONFLICT),  # a bare span is one figure
    ],
)
def test_a_rule_s_sustained_span_is_met_by_a_longer_one(statement: str, asked: str, outcome: str) -> None:
    (condition,) = read_conditions(asked, list(fidelity.extract(asked)))
    assert condition_outcome(statement_of(statement), condition) == outcome


@pytest.mark.parametrize(
    ("statement", "asked", "edge"),
    [
        (_TIMEOUT_RULE, "停在 5% 整", True),  # exactly at `高于 5%`: the rule decides (it does not fire)
        ("PAY-4012 金额超过 50,000 元。", "正好 50,000 元", True),
        (_TIMEOUT_RULE, "停在 4% 整", False),  # below it: another case, as before
        ("满 10 年的员工每年 15 天。", "满 10 年", False),  # an inclusive bound is met, no edge
    ],
)
def test_a_figure_exactly_at_a_strict_bound_is_the_rule_s_edge(
    statement: str, asked: str, edge: bool
) -> None:
    (condition,) = read_conditions(asked, list(fidelity.extract(asked)))
    assert at_strict_bound(statement_of(statement), condition) is edge


@pytest.mark.parametrize(
    ("question", "met"),
    [
        ("ERR_TIMEOUT 错误率停在 5% 整，PaymentTimeoutRateHigh 会触发吗？", True),  # yes/no: the rule answers
        ("ERR_TIMEOUT 错误率停在 4% 整，PaymentTimeoutRateHigh 会触发吗？", False),
    ],
)
def test_a_yes_no_question_at_a_rule_s_strict_bound_is_answered_by_that_rule(
    question: str, met: bool
) -> None:
    need = derive_needs(question).needs[0]
    context = "payment/payment-gateway-error-codes.md > 支付网关错误码手册 > ERR_TIMEOUT"
    assert match_need(need, _TIMEOUT_RULE, context=context, equivalents=bundled_equivalents()).met is met


@pytest.mark.parametrize(
    ("statement", "asked", "beyond"),
    [
        ("单次静默最长 2 小时，必须填写变更单号。", "about three hours", True),  # over the limit: not allowed
        ("住宿每晚不超过 450 元。", "一晚 500 元", True),
        ("单次静默最长 2 小时。", "1 小时", False),  # within the limit: met as before
        ("不满 1 年的员工没有年假。", "满 12 年", False),  # a row's bound, no limit word
    ],
)
def test_a_figure_beyond_a_stated_limit_is_decided_by_that_limit(
    statement: str, asked: str, beyond: bool
) -> None:
    (condition,) = read_conditions(asked, list(fidelity.extract(asked)))
    assert exceeds_limit(statement_of(statement), condition) is beyond

"""Session 29 rules of question understanding (docs/design.md §8): a pronoun for the record the
previous question named, a Chinese service name replaced by a follow-up's service, a Latin name
counted as one word of a short follow-up, a share of failing things asked as an error rate, and
the spoken 啥 and 咋 asking like 什么 and 怎么."""

from __future__ import annotations

import pytest

from groundgate.contracts import AnswerKind
from groundgate.questions import derive_needs, match_need, resolve_followup, split_parts, statement
from groundgate.questions.record_pronouns import name_referred_record

ORDER_TURN = "客服这边有个买家说下午那单 459 块的 ORD-20260314-00093 没付成功。系统里记的失败码是啥？"
REFUND_TURN = "buyer of ORD-20260314-00010 asks if his refund went thru. refund id?"


@pytest.mark.parametrize(
    ("question", "previous", "resolved"),
    [
        (
            "那它在 payment-db 连接池拿连接超时的时候，前面排着多少个请求？",
            ORDER_TURN,
            "那 ORD-20260314-00093 在 payment-db 连接池拿连接超时的时候，前面排着多少个请求？",
        ),
        (
            "which channel did that refund go back through? and did our webhook for it get delivered?",
            REFUND_TURN,
            "which channel did the refund of ORD-20260314-00010 go back through? "
            "and did our webhook for ORD-20260314-00010 get delivered?",
        ),
        (
            "Which bank channel was this order sent to, and how long did it wait for a connection?",
            REFUND_TURN,
            "Which bank channel was ORD-20260314-00010 sent to, and how long did ORD-20260314-00010 "
            "wait for a connection?",
        ),
    ],
)
def test_a_pronoun_for_the_record_the_previous_question_named_is_that_record(
    question: str, previous: str, resolved: str
) -> None:
    resolution = resolve_followup(question, [(previous, previous)])
    assert resolution.followup
    assert resolution.question == resolved


@pytest.mark.parametrize(
    ("question", "previous"),
    [
        # the question names its own record
        ("那 ORD-20260314-00094 在连接池排队的时候，前面有多少个？", ORDER_TURN),
        # the previous question named two records: which one is meant is not known
        ("它在连接池排队的时候前面有多少个？", "ORD-20260314-00093 和 ORD-20260314-00094 哪个先失败？"),
        # the previous question named no record
        ("它在连接池排队的时候前面有多少个？", "payment-db 连接池的等待队列上限是多少？"),
        # no pronoun at all
        ("payment-db 连接池的等待队列上限是多少？", ORDER_TURN),
    ],
)
def test_a_pronoun_is_left_alone_without_one_record_to_stand_for(question: str, previous: str) -> None:
    assert name_referred_record(question, previous) is None


def test_a_question_naming_nothing_of_its_own_keeps_taking_the_earlier_subject_whole() -> None:
    # "它走的是哪个银行通道？金额多少？": every part is about the order (`previous_question`), not
    # only the part with the pronoun, so it is not rewritten.
    resolution = resolve_followup("它走的是哪个银行通道？金额多少？", [(ORDER_TURN, ORDER_TURN)])
    assert not resolution.followup


@pytest.mark.parametrize(
    ("question", "previous", "resolved"),
    [
        (
            "同一分钟 payment-db-proxy 的呢？",
            "14:08 支付网关的 p99 延迟是多少毫秒？",
            "14:08 payment-db-proxy的 p99 延迟是多少毫秒？",
        ),
        (
            "那 order-service 的呢？",
            "通知服务 14:20 的错误率是多少？",
            "order-service 14:20 的错误率是多少？",
        ),
    ],
)
def test_a_follow_up_naming_a_service_replaces_the_service_named_in_chinese(
    question: str, previous: str, resolved: str
) -> None:
    resolution = resolve_followup(question, [(previous, previous)])
    assert resolution.followup
    assert resolution.question == resolved


def test_a_long_latin_name_counts_as_one_word_of_a_short_follow_up() -> None:
    previous = "DBPoolSaturation 告警是按什么条件触发的？"
    resolution = resolve_followup("那 PaymentSuccessRateLow 呢？", [(previous, previous)])
    assert resolution.question == "PaymentSuccessRateLow 告警是按什么条件触发的？"


@pytest.mark.parametrize(
    "question",
    [
        "at 2:21 pm, what % of pay requests were failing with ERR_POOL_EXHAUSTED?",
        "What percentage of refunds failed with ERR_TIMEOUT at 14:10?",
        "what share of calls errored out with ERR_TIMEOUT at 14:10?",
    ],
)
def test_a_share_of_failing_things_asks_the_error_rate(question: str) -> None:
    need = derive_needs(question).needs[0]
    assert need.kind is AnswerKind.QUANTITY
    assert need.terms == ["error", "rate"]
    point = "payment_gateway_error_rate{error_code=ERR_POOL_EXHAUSTED} was 0.7 at 14:21 UTC on 2026-03-14."
    if "ERR_POOL_EXHAUSTED" in question:
        assert match_need(need, statement(point)).met


def test_a_share_that_is_not_of_failures_keeps_its_words() -> None:
    need = derive_needs("What percentage of payments went through the CMB channel at 14:10?").needs[0]
    assert need.kind is AnswerKind.QUANTITY
    assert "error" not in need.terms


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "ORD-20260314-00049 是因为啥失败的？商户想直接重试，要注意什么？",
            ["ORD-20260314-00049 是因为啥失败的", "商户想直接重试，要注意什么"],
        ),
        ("这单扣的是啥钱？退款走哪个通道？", ["这单扣的是啥钱", "退款走哪个通道"]),
        ("退款咋还没到账？要等几天？", ["退款咋还没到账", "要等几天"]),
    ],
)
def test_a_sentence_asking_with_the_spoken_sha_or_za_is_a_part_of_its_own(
    question: str, parts: list[str]
) -> None:
    assert split_parts(question) == parts

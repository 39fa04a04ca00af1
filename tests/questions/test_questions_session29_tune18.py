"""Session 29 rules from the tune18 question set (docs/design.md §8): a minute only pointed back to
("in that same minute") is met by no statement, and a Chinese duration asked in ms is met by a log
line's `took_ms=` field."""

from __future__ import annotations

import pytest

from groundgate.contracts import Need
from groundgate.questions import derive_needs, match_need, resolve_followup, statement
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.questions.moments import refers_to_unnamed_minute

RULE = 'PaymentTimeoutRateHigh（P1）：payment_gateway_error_rate{error_code="ERR_TIMEOUT"} 大于 5（%）持续 3 分钟。'
POINT = "payment_gateway_error_rate{error_code=ERR_TIMEOUT} 在 2026-03-14 14:30 UTC 的值为 3.1。"
DONE = (
    "2026-03-14 14:16:21 payment-gateway ERROR: pay request done order_id=ORD-20260314-00074 "
    "status=FAILED error_code=ERR_TIMEOUT http=504 took_ms=3009"
)


def _needs(question: str, previous: str | None = None) -> list[Need]:
    history = [(previous, previous)] if previous else []
    resolution = resolve_followup(question, history)
    return list(
        derive_needs(question, resolved_question=resolution.question, followup=resolution.followup).needs
    )


@pytest.mark.parametrize(
    "question",
    [
        "and the ERR_TIMEOUT rate in that same minute?",
        "what was the gateway p99 at that moment?",
        "同一分钟 ERR_TIMEOUT 的错误率是多少？",
    ],
)
def test_a_minute_only_pointed_back_to_is_met_by_no_statement(question: str) -> None:
    # The minute was named by an earlier answer, which is never passed on: neither a rule of a
    # document nor a point of some minute can be shown to be the value then.
    (need,) = _needs(question)
    assert refers_to_unnamed_minute(need)
    for said in (RULE, POINT):
        match = match_need(need, statement(said), equivalents=bundled_equivalents())
        assert not match.met
        assert "need:other_moment" in match.codes


@pytest.mark.parametrize(
    ("question", "previous"),
    [
        # the minute is the question's own
        ("14:12 那一分钟的支付成功率是多少？", None),
        # a follow-up keeps the previous question's minute
        ("同一分钟 payment-db-proxy 的呢？", "14:08 支付网关的 p99 延迟是多少毫秒？"),
        # a day is named: the moment is that day's event, not an earlier answer's minute
        ("3 月 14 日 PaymentSuccessRateLow 告警触发的那一刻，告警里带的支付成功率是多少？", None),
        # no moment pointed to at all
        ("ERR_TIMEOUT 错误率超过多少会触发告警？", None),
    ],
)
def test_a_minute_the_question_or_the_previous_question_names_is_no_unnamed_minute(
    question: str, previous: str | None
) -> None:
    assert not any(refers_to_unnamed_minute(need) for need in _needs(question, previous))


def test_a_chinese_duration_asked_in_ms_is_met_by_a_log_lines_took_ms_field() -> None:
    need = _needs("网关那边这次请求耗时多少ms")[0]
    assert match_need(need, statement(DONE), equivalents=bundled_equivalents()).met


@pytest.mark.parametrize(
    "said",
    [
        # the bank call's own timeout is no duration of the request
        "2026-03-14 14:16:21 payment-gateway ERROR: ERR_TIMEOUT bank channel ICBC no response in 3000ms",
        # a field of another figure (a wait for a connection) is no request duration
        "acquire connection timeout pool=payment-db active=100/100 waiters=295 order_id=ORD-20260314-00074",
    ],
)
def test_a_log_line_without_a_duration_field_does_not_meet_a_duration_asked_in_ms(said: str) -> None:
    need = _needs("网关那边这次请求耗时多少ms")[0]
    assert not match_need(need, statement(said), equivalents=bundled_equivalents()).met

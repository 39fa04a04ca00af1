"""Session 31, round 4 rules from the tune24 question set (docs/design.md §8): every asked part must be
met — a "when" after a scene sentence asks a time, a "where" asks a place — a later part pointing back
at "this error" is about the code named before, and a set of records asked is not met by one record's
log line (its records are listed, one line each)."""

from __future__ import annotations

import pytest

from groundgate.contracts import AnswerKind, Need
from groundgate.questions import derive_needs, match_need
from groundgate.questions.interrogatives import answer_kind
from groundgate.questions.record_sets import asks_record_set, records_listed

_STANDUP = "I just joined the checkout team. When and where is our daily stand-up?"
_POOL = "商户那边收到 ERR_POOL_EXHAUSTED 该怎么处理？今天我们有哪几笔订单是因为这个错误失败的？"
_LINE_81 = (
    "2026-03-14 14:18:39 payment-db-proxy ERROR: wait queue full rejected "
    "order_id=ORD-20260314-00081 error_code=ERR_POOL_EXHAUSTED"
)
_LINE_86 = (
    "2026-03-14 14:20:18 order-service ERROR: payment failed order_id=ORD-20260314-00086 "
    "failure_code=ERR_POOL_EXHAUSTED status PENDING -> FAILED"
)


def _needs(question: str) -> list[Need]:
    return list(derive_needs(question).needs)


@pytest.mark.parametrize(
    ("part", "kind"),
    [
        ("I just joined the checkout team. When is our daily stand-up", AnswerKind.TIME),
        ("I just joined the checkout team. where is our daily stand-up", AnswerKind.LOCATION),
        ("The graphs look normal again. How long must they stay like that", AnswerKind.QUANTITY),
        ("When is our daily stand-up", AnswerKind.TIME),
        ("Our keys leaked this morning. Will the old key keep working", AnswerKind.OTHER),
        ("ORD-20260314-00220 - where is it at", AnswerKind.STATUS),
    ],
)
def test_the_kind_is_read_from_the_asking_sentence_after_a_scene(part: str, kind: AnswerKind) -> None:
    assert answer_kind(part, zh=False) is kind


@pytest.mark.parametrize(
    ("text", "context", "met"),
    [
        ("Team A is the checkout team of Payments-Eng.", "team-a-standup.md > Team A Daily Standup", False),
        (
            "Team A is the checkout team; its daily stand-up is at 09:30 in meeting room Orchid on the 5th floor.",
            "team-a-standup.md > Team A Daily Standup",
            True,
        ),
    ],
)
def test_a_where_part_is_met_only_by_a_statement_naming_a_place(text: str, context: str, met: bool) -> None:
    where = next(n for n in _needs(_STANDUP) if n.kind is AnswerKind.LOCATION)
    assert match_need(where, text, context=context).met is met


def test_a_when_part_after_a_scene_is_not_met_by_a_statement_without_a_time() -> None:
    when = next(n for n in _needs(_STANDUP) if n.kind is AnswerKind.TIME)
    match = match_need(when, "Team A is the checkout team of Payments-Eng.", context="Team A Daily Standup")
    assert not match.met


def test_a_part_pointing_back_at_this_error_takes_the_code_named_before() -> None:
    orders = _needs(_POOL)[1]
    assert orders.anchors == ["ERR_POOL_EXHAUSTED"]
    assert orders.kind is AnswerKind.CHOICE
    assert "ERR_POOL_EXHAUSTED" in orders.search_text


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("今天我们有哪几笔订单是因为这个错误失败的", True),
        ("Which of today's declined payments were down to the shopper", True),
        ("which orders failed with ERR_TIMEOUT", True),
        ("ORD-20260314-00097 走的哪家银行", False),
        ("Which bank did it go through", False),
    ],
)
def test_a_part_asks_a_set_of_records_when_it_asks_which_records_in_the_plural(text: str, asks: bool) -> None:
    assert asks_record_set(text) is asks


def test_one_records_log_line_does_not_meet_a_set_of_records_asked() -> None:
    orders = _needs(_POOL)[1]
    assert not match_need(orders, _LINE_81).met


@pytest.mark.parametrize(
    ("texts", "picked"),
    [
        ([_LINE_81, _LINE_86], [0, 1]),
        (
            [_LINE_81, _LINE_81.replace("14:18:39 payment-db-proxy", "14:18:40 payment-gateway"), _LINE_86],
            [0, 2],
        ),
        (["HTTP 状态码为 503，建议商户在 1 秒后带原 Idempotency-Key 重试。", _LINE_86], [1]),
        ([_LINE_81.replace("ERR_POOL_EXHAUSTED", "ERR_TIMEOUT")], []),
    ],
)
def test_each_record_of_an_asked_set_is_listed_by_one_line_naming_the_code(
    texts: list[str], picked: list[int]
) -> None:
    assert records_listed(_needs(_POOL)[1], texts) == picked

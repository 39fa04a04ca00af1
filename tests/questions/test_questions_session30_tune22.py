"""Session 30 rules from the tune22 question set (docs/design.md §8): a part that asks several fields
of one named order ("its current status, amount and channel", `订单最终状态、金额、走的哪家银行`) asks
each field by name, and a field of the named order it asks is about the question (shown)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.record_fields import (
    asked_fields,
    asks_field_stated,
    named_orders,
    record_field,
)

_ORDER = "ORD-20260314-00220"


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("What's its current status, amount and channel?", {"status", "amount", "channel"}),
        ("what state is it in and which bank has it?", {"status", "channel"}),
        (
            "订单最终状态、金额、走的哪家银行、失败码分别是什么？",
            {"status", "amount", "channel", "failure_code"},
        ),
        ("被银行拒绝的原因码是什么？", {"failure_code"}),
        ("这笔退款的退款状态是什么？", set()),  # the refund's state: no field of the order record
        ("返回的 HTTP 状态码是多少？", set()),  # a status code is no order status
        ("what status code came back?", set()),
        ("How long did it wait for a connection?", set()),
    ],
)
def test_a_part_asks_the_order_fields_it_names(text: str, fields: set[str]) -> None:
    assert asked_fields(text) == fields


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        (f"order.status [order:{_ORDER}:status]: PENDING", (_ORDER, "status", "PENDING")),
        (f"order.amount [order:{_ORDER}:amount]: 329", (_ORDER, "amount", "329")),
        ("2026-03-14 15:55:20 order-service INFO: order created", None),
        ("PAY-4005 银行卡已冻结或挂失", None),
    ],
)
def test_a_stated_record_field_is_read_back_as_order_field_and_value(
    text: str, parsed: tuple[str, str, str] | None
) -> None:
    assert record_field(text) == parsed


@pytest.mark.parametrize(
    ("need_text", "anchors", "text", "asked"),
    [
        (
            f"{_ORDER}: what's its current status, amount and channel",
            [],
            f"order.amount [order:{_ORDER}:amount]: 329",
            True,
        ),
        ("which bank channel was it sent to", [_ORDER], f"order.channel [order:{_ORDER}:channel]: CMB", True),
        (
            f"{_ORDER}: what's its amount",
            [],
            f"order.channel [order:{_ORDER}:channel]: CMB",
            False,
        ),  # not asked
        (
            "ORD-20260314-00221: what's its amount",
            [],
            f"order.amount [order:{_ORDER}:amount]: 329",
            False,
        ),  # another order
    ],
)
def test_only_an_asked_field_of_the_named_order_counts_as_asked(
    need_text: str, anchors: list[str], text: str, asked: bool
) -> None:
    assert asks_field_stated(need_text, anchors, text) is asked


def test_an_asked_field_of_the_named_order_is_about_the_question_though_it_does_not_meet_it() -> None:
    question = (
        f"Support ticket: {_ORDER} still says processing. What's its current status, amount and channel?"
    )
    need = derive_needs(question).needs[0]
    match = match_need(need, statement(f"order.channel [order:{_ORDER}:channel]: CMB"))
    assert match.on_topic


def test_orders_are_named_once_each_in_first_mention_order() -> None:
    assert named_orders(["ord-20260314-00221 and ORD-20260314-00220", "ORD-20260314-00221"]) == [
        "ORD-20260314-00221",
        _ORDER,
    ]

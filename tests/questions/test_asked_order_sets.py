"""What a question asks of the order store as a set: a window, statuses, failure codes — or nothing,
when it names one order or asks no count or list of orders."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.order_sets import OrderSetAsk, asked_order_set


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "how many orders failed with ERR_TIMEOUT for us between 14:00 and 15:00?",
            OrderSetAsk(
                window=("14:00", "15:00"), statuses=(), failure_codes=("ERR_TIMEOUT",), by_outcome=True
            ),
        ),
        ("how many refunds are pending?", OrderSetAsk(None, ("PENDING", "PROCESSING"), ())),
        ("which orders are still PROCESSING?", OrderSetAsk(None, ("PENDING", "PROCESSING"), ())),
        (
            "PIDAY-314 那一个小时（14:00-15:00）里我们一共新下了多少单？",
            OrderSetAsk(("14:00", "15:00"), (), ()),
        ),
        (
            "活动开始前那一个小时（13 点档）下的单里，还是支付成功的有几笔？",
            OrderSetAsk(("13:00", "14:00"), (), ()),
        ),
        ("今天有多少笔订单报了 PAY-4003？", OrderSetAsk(None, ("FAILED",), ("PAY-4003",))),
        (
            "3月14日 14:00 到 15:00 我们有多少笔订单因为 ERR_TIMEOUT 失败？",
            OrderSetAsk(("14:00", "15:00"), (), ("ERR_TIMEOUT",), by_outcome=True),
        ),
        (
            "How many acme orders failed between 14:05 and 14:32 UTC, broken down by failure code?",
            OrderSetAsk(("14:05", "14:32"), (), (), by_outcome=True),
        ),
        (
            "14:00-15:00 下的单里有多少笔失败了？",
            OrderSetAsk(("14:00", "15:00"), (), ()),
        ),
        ("ORD-20260314-00042 现在是什么状态？", None),
        ("how many retries does the gateway make before it gives up?", None),
        ("how many orders did we take?", None),
    ],
)
def test_a_question_asks_orders_by_window_status_and_code_or_nothing(
    question: str, expected: OrderSetAsk | None
) -> None:
    assert asked_order_set(derive_needs(question).needs, question) == expected

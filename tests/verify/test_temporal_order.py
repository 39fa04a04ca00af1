"""A time order turned round (`before` an event the context puts `after`) is read; the same order, an
anchor the context orders both ways, or the order said from the other side is not (docs/design.md §2.1,
"Session 31")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check
from groundgate.verify.temporal_order import order_swaps

_SWAPPED = [
    (
        "Walks can start one week before that second dose.",
        "walks_outside: 1 week after second dose\nbooster: 12 months after second dose",
        "order_swapped:second dose",
    ),
    ("商家接单后取消，可以全额退款。", "商家接单前取消可全额退款，出餐后不可取消。", "order_swapped:接单"),
    (
        "Guests must check out before the inspection.",
        "Guests check out after the inspection at 10:00.",
        "order_swapped:inspection",
    ),
]


@pytest.mark.parametrize(("claim", "context", "code"), _SWAPPED)
def test_an_order_the_context_only_gives_the_other_way_round_is_read(
    claim: str, context: str, code: str
) -> None:
    assert order_swaps(claim, context) == [code]


_NOT_SWAPPED = [
    # the same order, in other words
    ("Walks can start a week after the second dose.", "walks_outside: 1 week after second dose"),
    # the context orders the anchor both ways, for different things
    ("商家接单后取消要收手续费。", "商家接单前取消可全额退款；接单后取消收取 10% 手续费。"),
    # the order said from the other side: they reunited after losing touch / grew up before losing touch
    (
        "The two reunited years after losing touch as teenagers.",
        "They grew up together as boys before losing touch as teenagers and reunited last year.",
    ),
    # `after all`, `然后`: no event
    ("After all, the fee is waived, and then it is refunded.", "The fee is waived before the refund."),
]


@pytest.mark.parametrize(("claim", "context"), _NOT_SWAPPED)
def test_the_same_order_or_an_anchor_ordered_both_ways_is_not_read(claim: str, context: str) -> None:
    assert order_swaps(claim, context) == []


def test_an_answer_with_an_order_turned_round_does_not_pass() -> None:
    context = "Fernhill Vets puppy schedule.\nwalks_outside: 1 week after second dose"
    answer = "Walks outside can start one week before that second dose."
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


# (context, answer): what the context says must be done, the answer says need not be — not shown
_WAIVED = [
    ("申领时须提供居住证明（房屋租赁合同须经备案）。", "用租房合同作证明的话，合同无需备案。"),
    (
        "Visitors must register at the front desk before entering.",
        "Visitors don't need to register at the front desk.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _WAIVED)
def test_an_obligation_the_answer_waives_does_not_pass(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS

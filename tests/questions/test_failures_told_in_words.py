"""A failure told in words stands for the error codes the handbook defines by it, and a lead-in told
by an -ing form or a request to the reader ("Remind me …") names nothing (docs/design.md §8, Session 31 round 6)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.coverage import match_need
from groundgate.questions.failure_words import described_codes
from groundgate.questions.order_sets import OrderSetAsk, asked_order_set

_OUTAGE = (
    "Putting a money figure on the outage: how many of our payments failed for platform reasons "
    "(timeouts or the database pool being full), and what was their combined value?"
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (_OUTAGE, ("ERR_TIMEOUT", "ERR_POOL_EXHAUSTED")),
        ("因为超时或者连接池打满失败的订单有多少笔？", ("ERR_TIMEOUT", "ERR_POOL_EXHAUSTED")),
        ("how many payments failed because the bank channel was down?", ("ERR_CHANNEL_UNAVAILABLE",)),
        # no failure word: a timeout asked about is a setting, not a failure code
        ("what is the gateway's timeout towards the banks?", ()),
        # a request the rate limiter refuses never becomes an order
        ("how many of our requests failed because we were rate limited?", ()),
    ],
)
def test_a_failure_told_in_words_stands_for_its_codes(question: str, expected: tuple[str, ...]) -> None:
    assert described_codes(question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (_OUTAGE, OrderSetAsk(None, ("FAILED",), ("ERR_TIMEOUT", "ERR_POOL_EXHAUSTED"))),
        # a code the question types wins over the words around it
        (
            "how many orders failed with ERR_TIMEOUT (the bank timing out)?",
            OrderSetAsk(None, ("FAILED",), ("ERR_TIMEOUT",)),
        ),
    ],
)
def test_an_order_count_reads_the_codes_a_failure_told_in_words_stands_for(
    question: str, expected: OrderSetAsk
) -> None:
    assert asked_order_set(derive_needs(question).needs, question) == expected


@pytest.mark.parametrize(
    ("question", "name"),
    [
        (_OUTAGE, None),
        ("Looking at refunds: how many did we push through today?", None),
        ("Remind me what our contract says about how many payment calls per second we may send.", None),
        ("Tell us how long refunds take.", None),
        ("Beijing office: how many people work there?", "Beijing"),
    ],
)
def test_a_lead_in_told_by_an_ing_form_or_a_request_names_nothing(question: str, name: str | None) -> None:
    anchors = derive_needs(question).needs[0].anchors
    assert (name in anchors) if name else not any(a.split()[0] in question.split()[:1] for a in anchors)


@pytest.mark.parametrize(
    ("statement", "conflict"),
    [
        ("20 orders (status FAILED), total 4512.2", False),  # "payments failed": failed is no case
        ("The debit card refund takes 1 to 3 days.", True),  # "credit card": debit is another case
    ],
)
def test_a_verb_after_its_subject_names_no_case_of_it(statement: str, conflict: bool) -> None:
    question = "how many payments failed today, and how long does a credit card refund take?"
    codes = [c for n in derive_needs(question).needs for c in match_need(n, statement).codes]
    assert any(c.startswith("need:qualifier_conflict") for c in codes) is conflict

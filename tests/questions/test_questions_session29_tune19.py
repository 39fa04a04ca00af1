"""Session 29 rules from the tune19 question set (docs/design.md §8): clauses joined by `、` that each
ask are two parts, a bare "金额多少" asks that attribute of the subject the part before named, and a
named record's own field (`order.status`, `order.channel`) answers the question that asks for it
alone, whatever scene was told before it."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs, match_need, split_parts
from groundgate.questions.equivalents import bundled_equivalents


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "ORD-20260314-00187 现在是什么状态、走的哪个通道？",
            ["ORD-20260314-00187 现在是什么状态", "走的哪个通道"],
        ),
        (
            "ORD-20260314-00186 这单最后是付成功了吧？走的哪个通道、金额多少？",
            ["ORD-20260314-00186 这单最后是付成功了吧，走的哪个通道", "金额多少"],
        ),
    ],
)
def test_clauses_joined_by_an_enumeration_comma_that_each_ask_are_two_parts(
    question: str, parts: list[str]
) -> None:
    assert split_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "CMB、ICBC 的权重是多少？",  # names listed, one question
        "谁、什么时候批准的？",  # a bare question word is no clause of its own
    ],
)
def test_an_enumeration_comma_between_names_or_bare_question_words_keeps_one_part(question: str) -> None:
    assert len(split_parts(question)) == 1


@pytest.mark.parametrize(
    ("question", "anchor"),
    [
        ("ORD-20260314-00186 走的哪个通道、金额多少？", "ORD-20260314-00186"),
        ("ORD-20260314-00042 是什么状态？金额多少？", "ORD-20260314-00042"),
    ],
)
def test_a_bare_attribute_question_asks_it_of_the_subject_named_before(question: str, anchor: str) -> None:
    needs = derive_needs(question).needs
    assert anchor in needs[-1].anchors


@pytest.mark.parametrize(
    "question",
    [
        "出差住宿标准是多少？",  # more than one word of its own
        "报销单金额超过 2000 元要谁审批？",  # a condition of its own
    ],
)
def test_a_part_with_more_than_one_word_or_a_condition_keeps_its_own_subject(question: str) -> None:
    needs = derive_needs(f"ORD-20260314-00186 走的哪个通道？{question}").needs
    assert "ORD-20260314-00186" not in needs[-1].anchors


STATUS = "order.status [order:ORD-20260314-00157:status]: PAID"
CHANNEL = "order.channel [order:ORD-20260314-00157:channel]: CMB"
CREATED = (
    "2026-03-14 14:47:41 order-service INFO: order created order_id=ORD-20260314-00157 "
    "merchant_order_no=AC-4582907 amount=2599.00 currency=CNY"
)
SCENE = "客服那边说 ORD-20260314-00157 这个 2599 的大单也是大促时候超时失败的那批之一。发之前我想先核实一下："


def test_a_records_own_status_field_outranks_a_log_line_of_one_of_its_events() -> None:
    need = derive_needs("ORD-20260314-00157 现在是什么状态？").needs[0]
    field, line = match_need(need, STATUS), match_need(need, CREATED)
    assert field.met
    assert field.score > line.score


@pytest.mark.parametrize(
    ("question", "record"),
    [
        (f"{SCENE}这单现在到底是什么状态？", STATUS),
        (f"{SCENE}这单现在到底是什么状态？走的哪家银行？", CHANNEL),
    ],
)
def test_the_named_records_field_meets_its_question_whatever_scene_was_told_before(
    question: str, record: str
) -> None:
    need = derive_needs(question).needs[-1]
    assert match_need(need, record, equivalents=bundled_equivalents()).met


@pytest.mark.parametrize(
    ("question", "record"),
    [
        ("ORD-20260314-00157 的退款状态是什么？", STATUS),  # another field's state
        ("ORD-20260314-00157 退款走的哪家银行？", CHANNEL),  # a word the field does not name
        ("ORD-20260314-00042 现在是什么状态？", STATUS),  # another record
    ],
)
def test_a_record_field_is_not_forgiven_words_it_does_not_name(question: str, record: str) -> None:
    need = derive_needs(question).needs[-1]
    assert not match_need(need, record, equivalents=bundled_equivalents()).met

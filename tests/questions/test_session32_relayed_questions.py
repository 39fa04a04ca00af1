"""Session 32, second pass (tune27, a support agent relaying merchants' questions; docs/design.md §8).

- a month named in a date ("on 2 June") is part of the date condition, not a name the answer must say;
- "让他们提供什么信息" asks what to hand over: a Chinese statement must say the giving verb;
- a word the question negates keeps its negation in a search another part builds from it;
- the closing quote after a relayed question's last question mark is no part of its own.
"""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.needs import round_two_query
from groundgate.questions.negated_words import with_negations
from groundgate.questions.parts import split_parts


@pytest.mark.parametrize(
    "question",
    [
        "Which of our invoices on 2 June were rejected by the bank?",
        "Which tickets did the helpdesk close on 11 October, and why?",
        "What went wrong with the nightly export on 30 September?",
    ],
)  # fmt: skip
def test_a_month_named_in_a_date_is_no_name_the_answer_must_say(question: str) -> None:
    needs = derive_needs(question).needs
    months = {"june", "october", "september"}
    assert not any(a.lower() in months for n in needs for a in n.anchors)
    assert any(c.kind.value == "date" for n in needs for c in n.conditions)


@pytest.mark.parametrize(
    ("question", "answer", "met"),
    [
        # a definition of something else in the passage does not say what to hand over
        ("客户想让我们查一笔异常的报销单，我应该让他提供什么信息？", "EXP-4xxx 表示报销单本身填写有误。", False),
        ("客户想让我们查一笔异常的报销单，我应该让他提供什么信息？", "查询异常报销单时，请客户提供报销单号和提交日期。", True),
        ("办理入职需要准备哪些材料？", "入职材料表示员工档案中的各类文件。", False),
        ("办理入职需要准备哪些材料？", "办理入职需准备身份证复印件和学历证明。", True),
    ],
)  # fmt: skip
def test_what_to_hand_over_is_met_only_by_a_statement_saying_the_giving_verb(
    question: str, answer: str, met: bool
) -> None:
    need = derive_needs(question).needs[0]
    assert match_need(need, statement(answer)).met is met


def test_a_question_not_asking_what_to_hand_over_keeps_its_required_terms() -> None:
    need = derive_needs("报销单提交以后一般多久审批？").needs[0]
    assert "提交" not in need.required_terms


@pytest.mark.parametrize(
    ("question", "words", "said"),
    [
        ("Which parcels came back - not delivered or damaged - and why?", ["parcels", "delivered"],
         ["parcels", "not", "delivered"]),
        ("Which lamps never lit during the test?", ["lamps", "lit"], ["lamps", "never", "lit"]),
        ("Which lamps had no power during the test?", ["lamps", "power"], ["lamps", "power"]),
        ("哪些快递没签收、被退回了？", ["快递", "签收"], ["快递", "没", "签收"]),
        ("Which parcels were delivered late?", ["parcels", "delivered"], ["parcels", "delivered"]),
    ],
)  # fmt: skip
def test_a_word_the_question_negates_keeps_its_negation_in_a_search(
    question: str, words: list[str], said: list[str]
) -> None:
    assert with_negations(question, words) == said


def test_a_part_that_inherits_a_negated_word_searches_with_the_negation() -> None:
    needs = derive_needs(
        "Which parcels of ours came back because they were not delivered, and with which code each?"
    )
    assert len(needs.needs) == 2
    later = needs.needs[1]
    assert "not delivered" in later.search_text
    assert "not delivered" in round_two_query(later)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("客户说：“我的包裹今天没送到，是什么原因？能不能重新派送？”", 2),
        ('The tenant writes: "Was the export late again?" What should I tell them?', 2),
        ("“会议室几点开放？”", 1),
    ],
)  # fmt: skip
def test_the_closing_quote_after_a_relayed_question_is_no_part_of_its_own(question: str, parts: int) -> None:
    found = split_parts(question)
    assert len(found) == parts
    assert all(p.strip("“”\"' ") for p in found)

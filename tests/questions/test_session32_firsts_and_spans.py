"""Session 32 (tune26, a new team lead's plain-language questions; docs/design.md §8).

- "which one came first" is an order in time: a rule naming the things is no answer;
- "从几点到几点" asks both ends of a span, not the one time an end of it happened;
- `几级` asks a level, which `级别 SEV2` gives though it is no count;
- hearsay and occurrence verbs (`听说`, `出过`) and an adverbial "at first" are no subject words.
"""

from __future__ import annotations

import pytest

from groundgate.contracts import AnswerKind
from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.firsts import asks_first, says_first


@pytest.mark.parametrize(
    ("question", "answer", "met"),
    [
        # a rule naming alerts does not say which went off first
        ("上周五最早触发的是哪个告警？", "CacheHitLow 和 QueueDepthHigh 告警在维护期间不被抑制。", False),
        ("上周五最早触发的是哪个告警？", "上周五 09:12 CacheHitLow 告警最先触发。", True),
        ("Which alert fired first last night?", "CacheHitLow and QueueDepthHigh are never inhibited.", False),
        ("Which alert fired first last night?", "Last night the CacheHitLow alert fired first, at 21:40.", True),
    ],
)  # fmt: skip
def test_which_came_first_is_answered_only_by_a_statement_that_orders_in_time(
    question: str, answer: str, met: bool
) -> None:
    need = derive_needs(question).needs[0]
    assert asks_first(need)
    assert match_need(need, statement(answer)).met is met


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("09:12:05 alert firing CacheHitLow", True),
        ("QueueDepthHigh 最先触发", True),
        ("P1 告警要求 5 分钟内确认并发出第一条进展", False),
        ("CacheHitLow is never inhibited", False),
    ],
)  # fmt: skip
def test_a_statement_orders_in_time_by_a_clock_time_or_a_word_saying_first(text: str, orders: bool) -> None:
    assert says_first(statement(text)) is orders


def test_a_procedure_asking_what_comes_first_is_no_pick_of_one_thing() -> None:
    need = derive_needs("What should I check first when the queue grows?").needs[0]
    assert not asks_first(need)


@pytest.mark.parametrize(
    ("question", "answer", "met"),
    [
        ("那次缓存雪崩从几点到几点？", "2025-05-09 08:10 至 08:55，缓存雪崩导致下单失败。", True),
        ("那次缓存雪崩从几点到几点？", "08:55 缓存雪崩恢复，事故结束。", False),
        ("那次缓存雪崩从几点到几点？", "缓存雪崩从 08:10 持续到 08:55。", True),
        ("那次缓存雪崩从几点到几点？", "08:10 缓存节点宕机，08:12 缓存雪崩开始扩散。", False),
    ],
)  # fmt: skip
def test_a_span_asked_by_its_two_ends_is_met_only_by_both_ends(question: str, answer: str, met: bool) -> None:
    need = derive_needs(question).needs[0]
    assert need.kind is AnswerKind.TIME
    assert match_need(need, statement(answer)).met is met


def test_the_level_asked_by_ji_ji_is_given_by_a_named_level() -> None:
    need = derive_needs("那次缓存雪崩事故是几级？").needs[0]
    assert match_need(need, statement("缓存雪崩事故级别 SEV3。")).met
    assert not match_need(need, statement("缓存雪崩事故影响了 12 个商户。")).met


@pytest.mark.parametrize(
    ("question", "not_words"),
    [
        ("听说去年出过一次缓存雪崩，影响了多少商户？", {"听说", "出过"}),
        ("据说那次限流事故，最开始是谁发现的？", {"据说", "开始"}),
    ],
)  # fmt: skip
def test_hearsay_occurrence_and_at_first_are_no_subject_words(question: str, not_words: set[str]) -> None:
    terms = {t for n in derive_needs(question).needs for t in n.terms}
    assert not terms & not_words


def test_the_first_fifteen_minutes_keeps_its_start() -> None:
    terms = derive_needs("接手值班后最开始的 30 分钟该做什么？").needs[0].terms
    assert "开始" in terms

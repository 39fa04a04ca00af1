"""Log lines of one kind asked about as a set: how many, the first, the last (docs/design.md §8, Session 30)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.log_lines import asked_lines, line_set_unsaid


@pytest.mark.parametrize(
    ("question", "keywords", "service"),
    [
        (
            "recon 在 pay-mysql-01 上一共打了几条 slow query 日志？",
            ("slow query", "pay-mysql-01", "recon"),
            None,
        ),
        (
            "first + last 'pool saturated' warn from payment-db-proxy, and how many of them",
            ("pool saturated",),
            "payment-db-proxy",
        ),
    ],
)
def test_the_kind_of_line_and_what_narrows_it_are_read_from_the_question(
    question: str, keywords: tuple[str, ...], service: str | None
) -> None:
    ask = asked_lines(derive_needs(question).needs[0], question)
    assert ask is not None
    assert sorted(ask.keywords) == sorted(keywords)
    assert ask.service == service


@pytest.mark.parametrize(
    "question",
    [
        # no kind of line named
        "How many refunds did acme make today?",
        # a Latin phrase, but nothing asked of lines
        "retry policy 是什么意思？",
        # asked as a count, but not of log lines
        "max poll records 最多调到几次？",
    ],
)
def test_a_question_not_about_a_set_of_lines_asks_none(question: str) -> None:
    assert asked_lines(derive_needs(question).needs[0], question) is None


@pytest.mark.parametrize(
    ("statement", "missing"),
    [
        # one line of the kind is no count, nor the first and last of them
        (
            "2026-03-14 14:05:00 payment-db-proxy WARN: pool saturated pool=payment-db waiters=12",
            ["count", "first", "last"],
        ),
        (
            "100 log lines match (keywords 'pool saturated'); the first: … 14:05:00 …; the last: … 14:29:45 …",
            [],
        ),
    ],
)
def test_a_set_of_lines_is_met_only_by_its_count_and_its_ends(statement: str, missing: list[str]) -> None:
    need = derive_needs(
        "first + last 'pool saturated' warn from payment-db-proxy, and how many of them"
    ).needs[0]
    assert line_set_unsaid(need, statement) == missing

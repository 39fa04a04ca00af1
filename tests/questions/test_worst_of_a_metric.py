""" "The worst minute" of a metric read as its peak or its low by the metric's direction, and the words
a stated statistic says its own way (docs/design.md §8, Session 31 round 3; `questions.window_stats`)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.window_stats import StatKind, asked_stats, stat_terms_said

_PEAK_SAID = (
    "http_request_duration_p99_ms{service=payment-gateway} peaked at 3046 at 14:20 UTC on 2026-03-14"
    " (the highest point between 13:00 and 15:59 UTC)."
)
_SUMMARY = (
    "http_request_duration_p99_ms{service=payment-gateway} 2026-03-14 13:00–15:59 UTC: max 3046 at 14:20"
)


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("At the worst minute of gateway p99 latency, what was the p99", [StatKind.PEAK]),
        ("What was the worst minute of the payment success rate today", [StatKind.LOW]),
        ("支付成功率最差的一分钟是几点", [StatKind.LOW]),
        ("网关延迟最差的时候是多少", [StatKind.PEAK]),
        # No metric of a known direction: nothing is asked of a series.
        ("What was the worst incident this year", []),
        # Both directions named: no guess.
        ("the worst minute for latency and success rate", []),
    ],
)
def test_the_worst_of_a_metric_is_its_peak_or_its_low_by_its_direction(
    question: str, kinds: list[StatKind]
) -> None:
    need = derive_needs(question).needs[0]
    assert [s.kind for s in asked_stats(need)] == kinds


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # The statistic stated: the words asking it and the metric's everyday word are said.
        (_PEAK_SAID, {"worst", "minute", "latency"}),
        # A series' summary is no statistic stated of the asked series.
        (_SUMMARY, set()),
        # No peak named: nothing is said.
        ("http_request_duration_p99_ms{service=payment-gateway} was 3046 at 14:20 UTC.", set()),
    ],
)
def test_a_stated_statistic_says_the_words_that_ask_it(text: str, said: set[str]) -> None:
    need = derive_needs("At the worst minute of gateway p99 latency, what was the p99").needs[0]
    assert stat_terms_said(need, text) == said

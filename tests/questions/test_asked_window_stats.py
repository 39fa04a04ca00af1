"""What a question asks of a metric series over a window (docs/design.md §8, Session 30)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.window_stats import StatKind, asked_stats, asked_window, stats_unsaid


def _stats(question: str) -> list[tuple[StatKind, float | None, bool]]:
    need = derive_needs(question).needs[0]
    return [(s.kind, s.threshold, s.inclusive) for s in asked_stats(need)]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("payment-db-proxy 的 p99 今天最高多少 几点", [(StatKind.PEAK, None, False)]),
        ("What was the lowest Redis cache hit rate today?", [(StatKind.LOW, None, False)]),
        (
            "how long was the gateway p99 over 1500ms today? first + last minute",
            [(StatKind.ABOVE, 1500.0, False)],
        ),
        ("支付成功率跌破90%持续了多久", [(StatKind.BELOW, 90.0, False)]),
        ("wait queue 顶到 300 是哪几分钟？", [(StatKind.ABOVE, 300.0, True)]),
        ("ERR_POOL_EXHAUSTED rate - when was it non-zero?", [(StatKind.ABOVE, 0.0, False)]),
        ("first minute payment-db active conns went back under 100?", [(StatKind.BACK_UNDER, 100.0, False)]),
    ],
)
def test_a_window_statistic_is_read_from_the_question(
    question: str, expected: list[tuple[StatKind, float | None, bool]]
) -> None:
    assert _stats(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        # a comparison without a span asked is a condition of another ask
        "Is the gateway p99 over 1500 ms right now?",
        # a configured bound is no observed peak
        "order-db 连接池的上限是多少？",
        "What is the max_size ceiling of the payment-db pool?",
        "What does ERR_TIMEOUT mean?",
    ],
)
def test_a_question_that_asks_no_window_statistic_gets_none(question: str) -> None:
    assert _stats(question) == []


def test_a_window_named_by_two_clock_times_is_the_asked_window() -> None:
    need = derive_needs("14:15~14:20 notify-payment-events 的 lag 最高多少、哪分钟？").needs[0]
    assert asked_window(need) == ("14:15", "14:20")


@pytest.mark.parametrize(
    ("question", "statement", "missing"),
    [
        # a peak is met only by a statement that names one
        ("ERR_TIMEOUT 错误率 峰值多少", "payment_gateway_error_rate 在 14:18 UTC 的值为 18.4。", ["peak"]),
        ("ERR_TIMEOUT 错误率 峰值多少", "… 之间的峰值（最高值）为 18.4，出现在 14:18 UTC。", []),
        # how long a series was over a value is not in a window's summary
        (
            "how long was the p99 over 1500ms? first + last minute",
            "p99{service=x} 2026-03-14 13:00–13:59 UTC: max 35 at 13:39, min 12, mean 23.5, last 27",
            ["above"],
        ),
        (
            "how long was the p99 over 1500ms? first + last minute",
            "p99{service=x} was over the asked threshold from 14:04 UTC (the first such minute, at 2300) to 14:30 UTC.",
            [],
        ),
    ],
)
def test_a_statement_must_give_the_statistic_asked(question: str, statement: str, missing: list[str]) -> None:
    assert stats_unsaid(derive_needs(question).needs[0], statement) == missing

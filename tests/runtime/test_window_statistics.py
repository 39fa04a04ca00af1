"""Statistics of a metric series over a window, stated point by point (docs/design.md §8, Session 30)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from groundgate.contracts import RetryContext
from groundgate.questions import derive_needs
from groundgate.runtime.offline import RulePlanner
from groundgate.runtime.roles import PlanRequest
from groundgate.runtime.window_stats import partial_summaries, window_stat_units
from groundgate.testing.evidence import metric_fact
from groundgate.verify.evidence_items import EvidenceItem
from groundgate.verify.series import confirms_point

SERIES = {"name": "http_request_duration_p99_ms", "labels": {"service": "payment-gateway"}}
#: 13:00-13:19, over 1500 from 13:05 to 13:12 (peak 3046 at 13:09), back under 1500 at 13:13.
VALUES = [
    900,
    950,
    1000,
    1200,
    1450,
    2300,
    2500,
    2800,
    3000,
    3046,
    2900,
    2000,
    1600,
    1400,
    1300,
    1100,
    1000,
    980,
]
VALUES += [960, 940]


def _points(minutes: range, *, cid: str) -> EvidenceItem:
    value: dict[str, Any] = {
        **SERIES,
        "step_seconds": None,
        "aggregation": "raw",
        "points": [[f"2026-03-14T13:{m:02d}:00Z", VALUES[m]] for m in minutes],
    }
    return metric_fact(cid, "metric.points", value)


def _summary(first: int, last: int, *, cid: str) -> EvidenceItem:
    value = {
        **SERIES,
        "count": last - first + 1,
        "first_at": f"2026-03-14T13:{first:02d}:00Z",
        "last_at": f"2026-03-14T13:{last:02d}:00Z",
        "max": max(VALUES[first : last + 1]),
    }
    return metric_fact(cid, "metric.summary", value)


WHOLE = [
    _summary(0, 19, cid="day"),
    _points(range(10), cid="a:points"),
    _points(range(10, 20), cid="b:points"),
]


def _stated(question: str, evidence: list[EvidenceItem]) -> list[str]:
    need = derive_needs(question).needs[0]
    stated = window_stat_units(evidence, need, zh=False)
    for text, quotes in stated:
        # each statement quotes the points verbatim, and the verifier confirms its one figure
        assert all(excerpt in item.quote_text for item, excerpt in quotes)
        assert any(confirms_point(text, item.value) for item, _ in quotes)
    return [text for text, _ in stated]


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("what was the payment-gateway p99 peak today?", ["peaked at 3046 at 13:09 UTC"]),
        (
            "how long was the payment-gateway p99 over 1500ms? first + last minute",
            ["from 13:05 UTC", "to 13:12 UTC"],
        ),
        ("first minute the payment-gateway p99 went back under 1500?", ["was 13:13 UTC", "at 1400"]),
    ],
)
def test_a_window_statistic_is_stated_from_the_raw_points_and_confirmed_by_them(
    question: str, says: list[str]
) -> None:
    (text,) = _stated(question, WHOLE)
    assert all(s in text for s in says)


@pytest.mark.parametrize(
    ("question", "evidence"),
    [
        # a chunk missing: the points are not all there
        ("what was the payment-gateway p99 peak today?", [WHOLE[0], WHOLE[1]]),
        # no summary says the chunks are the whole day
        ("what was the payment-gateway p99 peak today?", WHOLE[1:]),
        # the need names another service
        ("what was the payment-db-proxy p99 peak today?", WHOLE),
        # the span runs to the edge of what was read: it may go on beyond it
        ("how long was the payment-gateway p99 over 900ms? first + last minute", WHOLE),
    ],
)
def test_no_statistic_is_stated_when_the_points_cannot_show_it(
    question: str, evidence: list[EvidenceItem]
) -> None:
    assert _stated(question, evidence) == []


def test_the_summary_of_one_chunk_is_no_answer_about_the_whole_read() -> None:
    chunks = [_summary(0, 9, cid="a"), _summary(10, 19, cid="b")]
    assert partial_summaries([*chunks, WHOLE[0]]) == {"a", "b"}


def _plan(question: str, live_until: datetime) -> list[dict[str, Any]]:
    request = PlanRequest(
        question=question,
        tools=[{"name": "lookup_knowledge"}, {"name": "query_metrics"}],
        round=1,
        needs=derive_needs(question),
    )
    output = RulePlanner(live_until=lambda: live_until).plan(request).output
    assert output is not None
    calls = output.calls
    return [c.arguments for c in calls if c.tool == "query_metrics"]


def test_a_peak_asked_today_reads_the_live_day_whole_and_its_last_hours_raw() -> None:
    reads = _plan("payment-db-proxy 的 p99 今天最高多少 几点", datetime(2026, 3, 14, 15, 59, 45, tzinfo=UTC))
    assert {r["name"] for r in reads} == {"http_request_duration_p99_ms"}
    assert [(r["start"][11:16], r["end"][11:16]) for r in reads] == [
        ("00:00", "15:59"),
        ("13:00", "13:59"),
        ("14:00", "14:59"),
        ("15:00", "15:59"),
    ]


def test_a_peak_asked_of_another_day_is_left_to_the_usual_read() -> None:
    assert _plan("3 月 10 日 p99 最高多少", datetime(2026, 3, 14, 15, 59, tzinfo=UTC)) == []


def test_a_peak_in_a_named_window_reads_that_window_raw() -> None:
    reads = _plan(
        "14:15~14:20 notify-payment-events 的 lag 最高多少", datetime(2026, 3, 14, 16, 0, tzinfo=UTC)
    )
    assert [(r["name"], r["start"][11:16], r["end"][11:16]) for r in reads] == [
        ("kafka_consumer_lag", "14:10", "14:25")
    ]


def test_round_two_does_not_read_the_same_chunks_again() -> None:
    question = "payment-db-proxy 的 p99 今天最高多少 几点"
    live = datetime(2026, 3, 14, 15, 59, tzinfo=UTC)
    planner = RulePlanner(live_until=lambda: live)
    tools: list[dict[str, Any]] = [{"name": "query_metrics"}]
    first = planner.plan(
        PlanRequest(question=question, tools=tools, round=1, needs=derive_needs(question))
    ).output
    assert first is not None
    retry = RetryContext(round=1, missing_evidence_facts=["x"], unmet_need_ids=["n1"])
    second = planner.plan(
        PlanRequest(
            question=question,
            tools=tools,
            round=2,
            retry_context=retry,
            done_calls=first.calls,
            needs=derive_needs(question),
        )
    )
    assert second.output is not None
    assert first.calls
    assert not second.output.calls

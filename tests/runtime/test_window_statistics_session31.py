"""Session 31 rules from the tune23 question set (docs/design.md §8): a window statistic is stated only
for the one series the question asks about, and a day another part names does not move its read."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from groundgate.contracts import EvidenceType, ToolCall
from groundgate.questions import derive_needs
from groundgate.runtime.offline import RulePlanner
from groundgate.runtime.roles import PlanRequest
from groundgate.runtime.window_stats import states_a_statistic, window_stat_units
from groundgate.testing.evidence import metric_fact
from groundgate.verify.evidence_items import EvidenceItem

_VALUES = [1.0, 2.0, 5.0, 9.0, 4.0, 2.0, 1.0, 1.0, 1.0, 1.0]


def _series(name: str, labels: dict[str, str], scale: float) -> list[EvidenceItem]:
    """One series read whole: its summary and its raw points (13:00-13:09, peak at 13:03)."""
    key = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
    values = [v * scale for v in _VALUES]
    points = [[f"2026-03-14T13:{m:02d}:00Z", v] for m, v in enumerate(values)]
    summary = {
        "name": name,
        "labels": labels,
        "count": len(points),
        "first_at": points[0][0],
        "last_at": points[-1][0],
        "max": max(values),
    }
    raw = {"name": name, "labels": labels, "step_seconds": None, "aggregation": "raw", "points": points}
    return [
        metric_fact(f"{key}:summary", "metric.summary", summary),
        metric_fact(f"{key}:points", "metric.points", raw),
    ]


_RATE = "payment_gateway_error_rate"
_P99 = "http_request_duration_p99_ms"
#: The error rate read per error code: two series of one metric, both of payment-gateway.
_PER_CODE = [
    *_series(_RATE, {"service": "payment-gateway", "error_code": "ERR_TIMEOUT"}, 2.0),
    *_series(_RATE, {"service": "payment-gateway", "error_code": "ERR_DUPLICATE_ORDER"}, 0.01),
]
#: The p99 read per service.
_PER_SERVICE = [
    *_series(_P99, {"service": "payment-gateway"}, 300.0),
    *_series(_P99, {"service": "notification-service"}, 10.0),
]


def _stated(question: str, evidence: list[EvidenceItem], part: int) -> list[str]:
    needs = derive_needs(question).needs
    need = needs[part]
    others = [w for n in needs if n.id != need.id for w in (*n.anchors, *n.terms)]
    return [text for text, _ in window_stat_units(evidence, need, zh=True, context=others)]


@pytest.mark.parametrize(
    ("question", "evidence", "part", "says"),
    [
        # The need names no error code: neither code's peak is the peak asked.
        ("payment-gateway 5xx 错误率峰值几点？多少？", _PER_CODE, 0, None),
        # The need names the code: that series' peak.
        ("今天 ERR_TIMEOUT 错误率最高到多少、在几点？", _PER_CODE, 0, "ERR_TIMEOUT"),
        # The part before names the gateway: its p99, not notification-service's.
        (
            "是不是网关 p99 根本没超过 1500？p99 最高到过多少？",
            _PER_SERVICE,
            1,
            "service=payment-gateway",
        ),
        # Nothing tells the two services apart: no peak is stated.
        ("p99 最高到过多少？", _PER_SERVICE, 0, None),
    ],
)
def test_a_window_statistic_is_stated_only_for_the_one_series_the_question_names(
    question: str, evidence: list[EvidenceItem], part: int, says: str | None
) -> None:
    stated = _stated(question, evidence, part)
    if says is None:
        assert stated == []
    else:
        assert len(stated) == 1
        assert says in stated[0]


def _first_round_calls(question: str) -> list[ToolCall]:
    """The calls the offline planner makes in round 1 for `question`, the replayed day read live."""
    request = PlanRequest(
        question=question,
        tools=[{"name": "lookup_knowledge"}, {"name": "query_metrics"}],
        round=1,
        needs=derive_needs(question),
    )
    live = datetime(2026, 3, 14, 15, 59, tzinfo=UTC)
    output = RulePlanner(live_until=lambda: live).plan(request).output
    assert output is not None
    return list(output.calls)


@pytest.mark.parametrize(
    ("question", "reads"),
    [
        # Yesterday is asked by the second part only: today's peak is still read raw.
        ("今天 ERR_TIMEOUT 错误率最高到多少、在几点？跟昨天（3 月 13 日）同一时段比高了多少？", True),
        # The asking part itself names another day: left to the usual read.
        ("3 月 10 日 p99 最高多少", False),
    ],
)
def test_a_day_named_by_another_part_does_not_move_the_read_of_a_peak(question: str, reads: bool) -> None:
    calls = _first_round_calls(question)
    chunks = [c for c in calls if c.tool == "query_metrics" and c.purpose == "window statistic"]
    assert bool(chunks) is reads


@pytest.mark.parametrize(
    ("question", "excluded"),
    [
        ("是不是网关 p99 根本没超过 1500？", []),
        ("这算不算慢查询？", []),
        ("苏州不是省会，也不是计划单列市，住宿标准多少？", ["省会", "计划单列市"]),
    ],
)
def test_an_a_not_a_question_sets_no_category_aside(question: str, excluded: list[str]) -> None:
    assert derive_needs(question).needs[0].excluded_terms == excluded


def _passage(cid: str, text: str) -> EvidenceItem:
    """A handbook section found by a search (no fact type)."""
    return EvidenceItem(
        "doc", cid, "lookup_knowledge", "handbook.md", text, text, EvidenceType.DOCUMENT_EVIDENCE, 1
    )


_HANDBOOK = [
    _passage(
        "timeout", "ERR_TIMEOUT: no bank response within 3 s, unlike ERR_POOL_EXHAUSTED. HTTP status is 504."
    ),
    _passage("pool", "ERR_POOL_EXHAUSTED: the pool and its queue are full. HTTP status is 503."),
    _passage("duplicate", "ERR_DUPLICATE_ORDER: the order was already paid. HTTP status is 409."),
]
_THREE_CODES = [
    *_PER_CODE,
    *_series(_RATE, {"service": "payment-gateway", "error_code": "ERR_POOL_EXHAUSTED"}, 0.5),
]


@pytest.mark.parametrize(
    ("evidence", "says"),
    [
        # Every code the handbook maps to a 5xx status: each one's own peak, none of another code.
        ([*_THREE_CODES, *_HANDBOOK], ["ERR_POOL_EXHAUSTED", "ERR_TIMEOUT"]),
        # No passage says which codes are 5xx: nothing is stated.
        (_THREE_CODES, []),
    ],
)
def test_a_status_class_is_read_as_the_codes_the_handbook_maps_into_it(
    evidence: list[EvidenceItem], says: list[str]
) -> None:
    stated = _stated("payment-gateway 5xx 错误率峰值几点？多少？", evidence, 0)
    assert sorted(code for text in stated for code in says if code in text) == says
    assert len(stated) == len(says)
    assert not any("ERR_DUPLICATE_ORDER" in text for text in stated)


@pytest.mark.parametrize(
    ("question", "states"),
    [
        # The p99 part is answered although nothing read names the host of the other part.
        (
            "At the worst minute of gateway p99 latency, what was the p99 and when, and what was pay-mysql-01's CPU?",
            True,
        ),
        # A group no series carries: no statistic, the gate stays shut.
        ("How high did the lag of consumer group notify-refund-events get today?", False),
    ],
)
def test_a_part_answered_by_a_statistic_of_its_series_stands_on_its_own(question: str, states: bool) -> None:
    needs = derive_needs(question).needs
    assert states_a_statistic(needs, _PER_SERVICE, zh=False) is states


def test_a_status_class_asked_also_searches_which_codes_belong_to_it() -> None:
    calls = _first_round_calls("payment-gateway 5xx 错误率峰值几点？多少？")
    first = calls[0]
    assert first.tool == "lookup_knowledge"
    assert "5xx 状态码" in first.arguments["query"]
    assert first.arguments["top_k"] == 10
    assert not any(c.purpose == "status class" for c in calls)  # no room for another search

"""MetricStore and the query_metrics tool on a synthetic incident: summaries, downsampling, gaps."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.errors import InvalidInputError, UsageError
from groundgate.tools import ReasonCode, ToolRegistry
from groundgate.tools.builtin.metrics import (
    TOOL_MAX_POINTS,
    MetricStore,
    QueryMetricsArgs,
    downsample,
    query_metrics_tool,
)

CTX = ExecutionContext(tenant="acme", user="alice")
T0 = datetime(2026, 3, 14, 13, 0, tzinfo=UTC)
POOL = {"service": "payment-db-proxy", "pool": "payment-db"}
OTHER_POOL = {"service": "payment-db-proxy", "pool": "report-db"}


def _active(minute: int) -> int:
    """The incident: 20 connections, saturating at 100 from 14:05 to 14:20, then back."""
    return 100 if 65 <= minute < 80 else 20 + minute % 5


def _sample(name: str, labels: dict[str, Any], minute: int, value: Any) -> str:
    ts = (T0 + timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps({"name": name, "labels": labels, "ts": ts, "value": value})


@pytest.fixture
def incident_file(tmp_path: Path) -> Path:
    lines = [_sample("db_pool_active_connections", POOL, m, _active(m)) for m in range(120)]
    lines += [_sample("db_pool_active_connections", OTHER_POOL, m, 5) for m in range(120)]
    lines += [_sample("db_pool_max_connections", POOL, m, 100) for m in range(0, 120, 10)]
    lines += [
        _sample("http_request_duration_seconds_p99", {"service": "payment-gateway"}, m, 0.25)
        for m in range(3)
    ]
    path = tmp_path / "metrics.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def store(incident_file: Path) -> Iterator[MetricStore]:
    with MetricStore() as s:
        s.load_jsonl(incident_file)
        yield s


@pytest.fixture
def registry(store: MetricStore) -> Iterator[ToolRegistry]:
    with ToolRegistry() as reg:
        reg.register(*query_metrics_tool(store))
        yield reg


def _query(reg: ToolRegistry, **arguments: Any) -> ToolResult:
    return reg.execute(ToolCall(tool="query_metrics", arguments=arguments), CTX, run_id="run-1", round=1)


# --------------------------------------------------------------------------- store


def test_summary_of_the_incident(store: MetricStore) -> None:
    result = store.query("db_pool_active_connections", labels={"pool": "payment-db"})
    assert result.known
    assert len(result.series) == 1
    series = result.series[0]
    assert series.labels == POOL
    s = series.summary
    assert s.count == 120
    assert s.max == 100
    assert s.max_at == datetime(2026, 3, 14, 14, 5, tzinfo=UTC)
    assert s.min == 20
    assert s.min_at == T0
    assert (s.first, s.first_at) == (20, T0)
    assert (s.last, s.last_at) == (_active(119), T0 + timedelta(minutes=119))
    expected_mean = sum(_active(m) for m in range(120)) / 120
    assert s.mean == pytest.approx(expected_mean, abs=1e-4)
    assert len(series.points) == 120
    assert not series.downsampled


def test_label_matching_and_time_window(store: MetricStore) -> None:
    both = store.query("db_pool_active_connections", labels={"service": "payment-db-proxy"})
    assert [s.labels["pool"] for s in both.series] == ["payment-db", "report-db"]
    window = store.query(
        "db_pool_active_connections",
        labels={"pool": "payment-db"},
        start=datetime(2026, 3, 14, 14, 10, tzinfo=UTC),
        end=datetime(2026, 3, 14, 22, 30, tzinfo=UTC) - timedelta(hours=8),  # 14:30, inclusive
    )
    summary = window.series[0].summary
    assert summary.count == 21
    assert summary.max_at == datetime(2026, 3, 14, 14, 10, tzinfo=UTC)
    assert summary.last_at == datetime(2026, 3, 14, 14, 30, tzinfo=UTC)


def test_downsampling_keeps_spikes_and_the_bound() -> None:
    points = [
        (int((T0 + timedelta(minutes=m)).timestamp() * 1_000_000), float(_active(m))) for m in range(120)
    ]
    sampled, step = downsample(points, max_points=TOOL_MAX_POINTS)
    assert len(sampled) <= TOOL_MAX_POINTS
    assert step == 120
    assert max(value for _, value in sampled) == 100
    assert downsample(points[:10]) == (points[:10], None)
    stepped, width = downsample(points, step_seconds=600)
    assert width == 600
    assert len(stepped) == 12
    assert [value for _, value in stepped][6:8] == [100.0, 100.0]  # 14:00-14:10 and 14:10-14:20 buckets
    widened, wider = downsample(points, step_seconds=1, max_points=7)
    assert len(widened) <= 7
    assert wider is not None
    assert wider > 1
    with pytest.raises(UsageError):
        downsample(points, max_points=0)


def test_query_downsamples_on_request(store: MetricStore) -> None:
    result = store.query(
        "db_pool_active_connections", labels={"pool": "payment-db"}, max_points=TOOL_MAX_POINTS
    )
    series = result.series[0]
    assert series.downsampled
    assert len(series.points) <= TOOL_MAX_POINTS
    assert series.summary.count == 120  # the summary is from the raw points


def test_unknown_metric_and_similar_names(store: MetricStore) -> None:
    result = store.query("db_pool_active_conections")
    assert not result.known
    assert result.series == []
    similar = store.similar_names("db_pool_active_conections")
    assert similar[0] == "db_pool_active_connections"
    assert "db_pool_max_connections" in similar
    assert store.names() == [
        "db_pool_active_connections",
        "db_pool_max_connections",
        "http_request_duration_seconds_p99",
    ]


def test_bad_lines_are_counted_and_reload_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(
        "\n".join(
            [
                _sample("up", {"job": "api"}, 0, 1),
                "[1, 2]",
                _sample("up", {"job": "api"}, 1, "NaN"),
                _sample("up", {"job": "api"}, 2, "abc"),
                _sample("bad name!", {}, 3, 1),
                json.dumps({"name": "up", "labels": {"job": "api"}, "value": 1}),
                _sample("up", {"job": ["x"]}, 4, 1),
                _sample("up", {"job": "api"}, 5, "0.5"),
                "",
            ]
        ),
        encoding="utf-8",
    )
    with MetricStore() as store:
        report = store.load_jsonl(path)
        assert report.loaded == 2
        assert [(item.line_no, item.reason) for item in report.invalid_lines] == [
            (2, "expected a JSON object, got list"),
            (3, "non-finite value"),
            (4, "non-numeric value 'abc'"),
            (5, "missing or invalid metric 'name'"),
            (6, "missing 'ts'"),
            (7, "invalid label 'job'"),
        ]
        assert store.load_jsonl(path).skipped
        assert store.query("up").series[0].summary.count == 2
        with pytest.raises(InvalidInputError, match="metric file not found"):
            store.load_jsonl(tmp_path / "missing.jsonl")


def test_same_series_and_time_in_a_later_file_replaces_the_value(tmp_path: Path) -> None:
    first = tmp_path / "a.jsonl"
    second = tmp_path / "b.jsonl"
    first.write_text(_sample("up", {"job": "api"}, 0, 1) + "\n", encoding="utf-8")
    second.write_text(_sample("up", {"job": "api"}, 0, 0) + "\n", encoding="utf-8")
    with MetricStore() as store:
        store.load_jsonl(first)
        store.load_jsonl(second)
        summary = store.query("up").series[0].summary
        assert (summary.count, summary.last) == (1, 0)


# --------------------------------------------------------------------------- the tool


def test_tool_facts_on_the_incident(registry: ToolRegistry) -> None:
    result = _query(
        registry,
        name="db_pool_active_connections",
        labels={"pool": "payment-db"},
        start="2026-03-14T13:00:00Z",
        end="2026-03-14T14:59:00Z",
    )
    assert result.status == ToolStatus.OK
    summary, points = result.facts
    assert summary.fact_type == "metric.summary"
    assert summary.value["name"] == "db_pool_active_connections"
    assert summary.value["labels"] == POOL
    assert summary.value["max"] == 100
    assert isinstance(summary.value["max"], int)  # `100`, not `100.0`, so a claim can quote it
    assert summary.value["max_at"] == "2026-03-14T14:05:00Z"
    assert summary.value["count"] == 120
    assert points.fact_type == "metric.points"
    assert len(points.value["points"]) <= TOOL_MAX_POINTS
    assert points.value["aggregation"] == "max"
    assert summary.scope == "platform"
    assert summary.authorization_snapshot == {"tenant": "acme", "user": "alice"}
    assert "max 100 at 2026-03-14T14:05:00Z" in result.observation
    assert [ref.citation_id for ref in result.evidence_refs] == [summary.fact_ref, points.fact_ref]
    assert result.evidence_refs[0].invocation_id == result.invocation_id
    again = _query(
        registry,
        name="db_pool_active_connections",
        labels={"pool": "payment-db"},
        start="2026-03-14T21:00:00+08:00",
        end="2026-03-14T14:59:00Z",
    )
    assert [f.fact_ref for f in again.facts] == [f.fact_ref for f in result.facts]


def test_tool_unknown_metric_is_empty_with_similar_names(registry: ToolRegistry) -> None:
    result = _query(registry, name="db_pool_connections_active")
    assert result.status == ToolStatus.EMPTY
    assert result.facts == []
    assert result.gaps[0].startswith("unknown metric 'db_pool_connections_active'; similar known metrics: ")
    assert "db_pool_active_connections" in result.gaps[0]


def test_tool_unmatched_labels_and_empty_window(registry: ToolRegistry) -> None:
    labels = _query(registry, name="db_pool_active_connections", labels={"pool": "nope"})
    assert labels.status == ToolStatus.EMPTY
    assert "known label sets: {pool=payment-db,service=payment-db-proxy}" in labels.gaps[0]
    window = _query(registry, name="db_pool_active_connections", start="2026-03-15T00:00:00Z")
    assert window.status == ToolStatus.EMPTY
    assert "data spans 2026-03-14T13:00:00Z .. 2026-03-14T14:59:00Z" in window.gaps[0]


def test_tool_arguments(registry: ToolRegistry) -> None:
    refused = _query(registry, name="db_pool_active_connections", labels={"tenant": "globex"})
    assert refused.error is not None
    assert refused.error.startswith(ReasonCode.AUTHORIZATION_FIELD_IN_PLAN.value)
    for bad in (
        {"name": "db pool"},
        {"name": "up", "labels": {"bad-label": "x"}},
        {"name": "up", "step_seconds": 0},
        {"name": "up", "start": "2026-03-15T00:00:00Z", "end": "2026-03-14T00:00:00Z"},
        {"name": "up", "keywords": ["x"]},
    ):
        result = _query(registry, **bad)
        assert result.status == ToolStatus.ERROR
        assert result.error is not None
        assert result.error.startswith("invalid_arguments:")
    args = QueryMetricsArgs.model_validate({"name": "up", "labels": {"b": " 2 ", "a": "1"}})
    assert list((args.labels or {}).items()) == [("a", "1"), ("b", "2")]


def test_the_store_knows_when_its_newest_sample_was_taken(store: MetricStore) -> None:
    # 120 one-minute samples from 13:00: the live evidence ends at 14:59 (a replay's "now")
    assert store.latest() == T0 + timedelta(minutes=119)
    with MetricStore() as empty:
        assert empty.latest() is None

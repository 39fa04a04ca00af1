"""`query_metrics` over a real Prometheus (Debian's `prometheus`, started by the session fixture).

The server scrapes the tests' exporter every second and holds a backfilled hour of
`gg_backfill_errors` three hours ago, so range queries have exact expected values. Failures are
real too: a closed port, a server that never answers, Prometheus's own error JSON. Skipped without
the binaries unless `GROUNDGATE_REQUIRE_PROMETHEUS=1` (CI sets it; see `_servers.py`).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from _servers import BACKFILL_VALUES, Server, free_port, wait_until

from groundgate.aiops import (
    ConnectorHTTPError,
    ConnectorResponseError,
    ConnectorTimeoutError,
    ConnectorUnavailableError,
    PrometheusClient,
)
from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.tools import ToolRegistry
from groundgate.tools.builtin.metrics import MetricStore, query_metrics_tool
from groundgate.tools.prometheus import prometheus_metrics_tool

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

CTX = ExecutionContext(tenant="acme", user="alice")


@pytest.fixture(scope="module")
def scraped(prometheus: Server) -> Server:
    """Prometheus once the exporter's series have been scraped."""

    def present() -> bool:
        return bool(PrometheusClient(prometheus.url).instant('gg_queue_depth{service="payment-api"}'))

    wait_until(present, timeout=30, what="the first scrape of the exporter")
    return prometheus


@pytest.fixture
def registry(scraped: Server) -> Iterator[ToolRegistry]:
    with ToolRegistry() as tools:
        spec, run = prometheus_metrics_tool(PrometheusClient(scraped.url, timeout_seconds=5))
        tools.register(spec, run)
        yield tools


def call(registry: ToolRegistry, **arguments: Any) -> ToolResult:
    return registry.execute(ToolCall(tool="query_metrics", arguments=arguments), CTX, run_id="r1", round=1)


def iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- answers


def test_an_instant_query_returns_the_scraped_value_as_the_embedded_tools_facts(
    registry: ToolRegistry,
) -> None:
    result = call(registry, name="gg_queue_depth", labels={"service": "payment-api"})
    assert result.status is ToolStatus.OK, result.error
    summary, points = result.facts
    assert summary.fact_type == "metric.summary"
    assert summary.source_system == "prometheus"
    assert summary.value["labels"] == {
        "service": "payment-api",
        "instance": summary.value["labels"]["instance"],
        "job": "exporter",
    }
    assert summary.value["last"] == 7
    assert summary.value["promql"] == 'gg_queue_depth{service="payment-api"}'
    assert points.fact_type == "metric.points"
    assert points.value["points"][0][1] == 7


def test_the_facts_have_the_keys_of_the_embedded_store_plus_the_promql(
    registry: ToolRegistry, tmp_path: Any
) -> None:
    source = tmp_path / "m.jsonl"
    source.write_text(
        '{"name": "gg_queue_depth", "labels": {"service": "a"}, "ts": "2026-03-14T14:00:00Z", "value": 1}\n'
    )
    with MetricStore() as store, ToolRegistry() as embedded:
        store.load_jsonl(source)
        spec, run = query_metrics_tool(store)
        embedded.register(spec, run)
        local = embedded.execute(
            ToolCall(tool="query_metrics", arguments={"name": "gg_queue_depth"}), CTX, run_id="r", round=1
        )
    remote = call(registry, name="gg_queue_depth", labels={"service": "payment-api"})
    for mine, theirs in zip(remote.facts, local.facts, strict=True):
        assert mine.fact_type == theirs.fact_type
        assert set(mine.value) == set(theirs.value) | {"promql"}


def test_a_range_query_over_the_backfilled_hour_finds_the_peak_and_when(
    registry: ToolRegistry, backfill_start: int
) -> None:
    start, end = backfill_start, backfill_start + 60 * (len(BACKFILL_VALUES) - 1)
    result = call(
        registry, name="gg_backfill_errors", labels={"service": "payment-api"}, start=iso(start), end=iso(end)
    )
    assert result.status is ToolStatus.OK, result.error
    summary = result.facts[0].value
    assert summary["max"] == 18.4
    assert summary["max_at"] == iso(start + 13 * 60)
    assert summary["min"] == 0.5
    assert summary["first_at"] == iso(start)
    # Raw samples, as the embedded store gives them: each point once, none repeated by lookback.
    assert summary["count"] == len(BACKFILL_VALUES)
    assert summary["promql"] == f'gg_backfill_errors{{service="payment-api"}}[{end - start + 1}s]'
    points = result.facts[1].value
    assert len(points["points"]) <= 60
    assert max(value for _, value in points["points"]) == 18.4


def test_matchers_functions_and_aggregations_reach_prometheus_as_built(registry: ToolRegistry) -> None:
    by_code = call(
        registry,
        name="gg_http_requests_total",
        matchers=[{"label": "code", "op": "=~", "value": "5.."}],
        function="max_over_time",
        window="1m",
        aggregate="sum",
        by=["service"],
    )
    assert by_code.status is ToolStatus.OK, by_code.error
    (summary, _points) = by_code.facts
    assert summary.value["labels"] == {"service": "payment-api"}
    assert summary.value["last"] == 100
    assert (
        summary.value["promql"] == 'sum by (service) (max_over_time(gg_http_requests_total{code=~"5.."}[1m]))'
    )
    others = call(
        registry, name="gg_queue_depth", matchers=[{"label": "service", "op": "!=", "value": "payment-api"}]
    )
    assert {fact.value["labels"]["service"] for fact in others.facts} >= {"checkout"}
    assert "payment-api" not in {fact.value["labels"]["service"] for fact in others.facts}


def test_a_function_over_a_window_is_stepped_on_round_times(
    registry: ToolRegistry, backfill_start: int
) -> None:
    start, end = backfill_start + 7, backfill_start + 60 * 30 + 7  # deliberately off the minute
    result = call(
        registry,
        name="gg_backfill_errors",
        labels={"service": "payment-api"},
        function="max_over_time",
        window="1m",
        start=iso(start),
        end=iso(end),
    )
    assert result.status is ToolStatus.OK, result.error
    summary = result.facts[0].value
    assert summary["promql"] == 'max_over_time(gg_backfill_errors{service="payment-api"}[1m])'
    assert summary["max"] == 18.4
    assert summary["max_at"] == iso(backfill_start + 13 * 60)  # a step lands on the sample's minute
    assert all(ts.endswith(("0Z", "5Z")) for ts, _ in result.facts[1].value["points"])


@pytest.mark.parametrize(
    "value",
    [
        'x"} or vector(1) #',  # the exporter has a series with exactly this label value
        'payment-api"} or gg_queue_depth{service="checkout',
        'payment-api\\"}',
    ],
)
def test_an_injection_attempt_in_a_label_value_is_only_ever_a_label_value(
    registry: ToolRegistry, value: str
) -> None:
    result = call(registry, name="gg_queue_depth", labels={"service": value})
    if value.startswith('x"'):
        assert result.status is ToolStatus.OK, result.error
        assert {fact.value["labels"]["service"] for fact in result.facts} == {value}
        assert result.facts[0].value["last"] == 99
    else:
        assert result.status is ToolStatus.EMPTY, result.facts
        assert "no series of gg_queue_depth" in result.gaps[0]


@pytest.mark.parametrize(
    "arguments",
    [
        {"name": "gg_queue_depth or vector(1)"},
        {"name": "gg_queue_depth", "labels": {"service": "a\nb"}},
        {"name": "gg_queue_depth", "function": "rate", "window": "5m]) or vector(1) #"},
        {"name": "gg_queue_depth", "promql": "vector(1)"},
    ],
)
def test_an_injection_attempt_in_the_structure_is_refused_before_anything_is_sent(
    registry: ToolRegistry, arguments: dict[str, Any]
) -> None:
    result = call(registry, **arguments)
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("invalid_arguments")


def test_an_unknown_metric_is_empty_with_similar_known_names(registry: ToolRegistry) -> None:
    result = call(registry, name="gg_queue_dept")
    assert result.status is ToolStatus.EMPTY
    assert result.gaps == ["unknown metric 'gg_queue_dept'; similar known metrics: gg_queue_depth"]


def test_a_window_with_no_data_is_empty_and_says_what_was_asked(registry: ToolRegistry) -> None:
    result = call(registry, name="gg_queue_depth", start="2020-01-01T00:00:00Z", end="2020-01-01T01:00:00Z")
    assert result.status is ToolStatus.EMPTY
    assert result.gaps == ["no series of gg_queue_depth[3601s] 2020-01-01T00:00:00Z .. 2020-01-01T01:00:00Z"]


# --------------------------------------------------------------------------- failures


def test_prometheus_error_json_becomes_a_connector_http_error_with_its_message(scraped: Server) -> None:
    with pytest.raises(ConnectorHTTPError) as caught:
        PrometheusClient(scraped.url).instant("sum(")
    assert caught.value.status_code == 400
    assert caught.value.detail.startswith("bad_data:")
    assert "HTTP 400: bad_data: " in str(caught.value)


def test_a_closed_port_is_unavailable_and_the_tool_call_fails_naming_prometheus() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ConnectorUnavailableError) as caught:
        PrometheusClient(url).instant("up")
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    with ToolRegistry() as tools:
        spec, run = prometheus_metrics_tool(PrometheusClient(url))
        tools.register(spec, run)
        result = call(tools, name="up")
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("tool_failed: prometheus at ")


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A socket that accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(sock.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in accepted:
            conn.close()
        sock.close()


def test_a_server_that_never_answers_times_out_within_the_configured_timeout(silent_server: str) -> None:
    started = datetime.now(UTC)
    with pytest.raises(ConnectorTimeoutError) as caught:
        PrometheusClient(silent_server, timeout_seconds=0.5).instant("up")
    assert datetime.now(UTC) - started < timedelta(seconds=5)
    assert isinstance(caught.value.__cause__, httpx.TimeoutException)
    assert "did not answer /api/v1/query within 0.5 s" in str(caught.value)


@pytest.mark.parametrize(
    ("status", "body", "error"),
    [
        (200, "<html>proxy login</html>", ConnectorResponseError),
        (
            200,
            '{"status": "error", "errorType": "timeout", "error": "query timed out"}',
            ConnectorResponseError,
        ),
        (
            200,
            '{"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {}}]}}',
            ConnectorResponseError,
        ),
        (
            200,
            '{"status": "success", "data": {"resultType": "vector", "result": [{"metric": {}, "value": [1, "x"]}]}}',
            ConnectorResponseError,
        ),
        (
            503,
            '{"status": "error", "errorType": "timeout", "error": "query timed out in expression evaluation"}',
            ConnectorHTTPError,
        ),
        (401, "Unauthorized", ConnectorHTTPError),
    ],
)
def test_unexpected_answers_become_connector_errors(status: int, body: str, error: type[Exception]) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(status, text=body))
    with pytest.raises(error):
        PrometheusClient("http://prometheus.invalid", transport=transport).instant("up")


def test_the_bearer_token_is_sent_and_nan_samples_are_skipped() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = {
            "status": "success",
            "data": {
                "resultType": "matrix",
                "result": [{"metric": {"__name__": "x", "a": "b"}, "values": [[1, "NaN"], [2, "3"]]}],
            },
        }
        return httpx.Response(200, json=body)

    client = PrometheusClient(
        "http://prometheus.invalid/", bearer_token="s3cret", transport=httpx.MockTransport(answer)
    )
    (series,) = client.range(
        "x", start=datetime(2026, 1, 1, tzinfo=UTC), end=datetime(2026, 1, 1, 1, tzinfo=UTC), step_seconds=60
    )
    assert series.labels == {"a": "b"}
    assert series.metric_name == "x"
    assert [value for _, value in series.points] == [3.0]
    assert seen[0].headers["Authorization"] == "Bearer s3cret"
    assert seen[0].url.path == "/api/v1/query_range"
    assert seen[0].url.params["step"] == "60"

"""PromQL and LogQL are built from checked parts: expected expressions, and refused or escaped attacks.

No server is needed here; `test_aiops_prometheus.py` sends the same attacks to a real Prometheus.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from groundgate.aiops.loki import LineFilter, LogQuery, regex_literal
from groundgate.aiops.promql import LabelMatcher, MetricQuery, quote, window_seconds
from groundgate.tools.prometheus import PrometheusMetricsArgs


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ({"name": "up"}, "up"),
        ({"name": "node:cpu:ratio"}, "node:cpu:ratio"),
        (
            {"name": "http_requests_total", "matchers": [{"label": "code", "op": "=~", "value": "5.."}]},
            'http_requests_total{code=~"5.."}',
        ),
        (
            {
                "name": "http_requests_total",
                "matchers": [
                    {"label": "service", "value": "payment-api"},
                    {"label": "code", "op": "!~", "value": "2.."},
                    {"label": "pod", "op": "!=", "value": ""},
                ],
            },
            'http_requests_total{code!~"2..",pod!="",service="payment-api"}',
        ),
        (
            {"name": "http_requests_total", "function": "rate", "window": "5m"},
            "rate(http_requests_total[5m])",
        ),
        (
            {
                "name": "http_requests_total",
                "function": "increase",
                "window": "1h",
                "aggregate": "sum",
                "by": ["service", "code", "service"],
            },
            "sum by (code, service) (increase(http_requests_total[1h]))",
        ),
        (
            {"name": "queue_depth", "function": "max_over_time", "window": "30s", "aggregate": "max"},
            "max (max_over_time(queue_depth[30s]))",
        ),
        (
            {
                "name": "latency_seconds_bucket",
                "function": "rate",
                "window": "5m",
                "quantile": 0.99,
                "by": ["service"],
            },
            "histogram_quantile(0.99, sum by (le, service) (rate(latency_seconds_bucket[5m])))",
        ),
    ],
)
def test_a_metric_query_renders_the_expected_promql(parts: dict[str, Any], expected: str) -> None:
    assert MetricQuery.model_validate(parts).promql() == expected


@pytest.mark.parametrize(
    ("value", "rendered"),
    [
        ('x"} or vector(1) #', '"x\\"} or vector(1) #"'),
        ("back\\slash", '"back\\\\slash"'),
        ('\\"', '"\\\\\\""'),
        ("支付-api", '"支付-api"'),
        ("", '""'),
    ],
)
def test_a_label_value_is_always_one_quoted_string(value: str, rendered: str) -> None:
    assert quote(value) == rendered
    matcher = LabelMatcher(label="service", value=value)
    assert matcher.render() == "service=" + rendered


@pytest.mark.parametrize(
    ("parts", "complaint"),
    [
        ({"name": 'up{job="x"}'}, "name"),
        ({"name": "up) or vector(1"}, "name"),
        ({"name": "up or up"}, "name"),
        ({"name": "9lives"}, "name"),
        ({"name": ""}, "name"),
        ({"name": "up", "matchers": [{"label": "__name__", "value": "secret"}]}, "label"),
        ({"name": "up", "matchers": [{"label": 'job="x"', "value": "y"}]}, "label"),
        ({"name": "up", "matchers": [{"label": "job", "op": "==", "value": "y"}]}, "op"),
        ({"name": "up", "matchers": [{"label": "job", "op": "=", "value": "a\nb"}]}, "control"),
        ({"name": "up", "matchers": [{"label": "job", "value": "a\x00"}]}, "control"),
        ({"name": "up", "matchers": [{"label": "job", "value": "x" * 201}]}, "at most 200"),
        ({"name": "up", "function": "label_replace", "window": "5m"}, "function"),
        ({"name": "up", "function": "rate"}, "needs a window"),
        ({"name": "up", "window": "5m"}, "needs a function"),
        ({"name": "up", "function": "rate", "window": "5m) or vector(1"}, "invalid window"),
        ({"name": "up", "function": "rate", "window": "1y"}, "invalid window"),
        ({"name": "up", "function": "rate", "window": "0m"}, "invalid window"),
        ({"name": "up", "function": "rate", "window": "32d"}, "longer than 31d"),
        ({"name": "up", "aggregate": "topk"}, "aggregate"),
        ({"name": "up", "by": ["job"]}, "needs an aggregate"),
        ({"name": "up", "aggregate": "sum", "by": ["job) or vector(1"]}, "invalid label name"),
        ({"name": "up", "function": "rate", "window": "5m", "quantile": 0.9}, "_bucket"),
        ({"name": "x_bucket", "function": "increase", "window": "5m", "quantile": 0.9}, "rate"),
        ({"name": "x_bucket", "function": "rate", "window": "5m", "quantile": 1.5}, "quantile"),
        ({"name": "up", "promql": "up or vector(1)"}, "promql"),
    ],
)
def test_a_metric_query_refuses_parts_that_could_change_the_expression(
    parts: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        MetricQuery.model_validate(parts)
    assert complaint in str(caught.value)


@pytest.mark.parametrize(
    ("window", "seconds"), [("1s", 1), ("5m", 300), ("2h", 7200), ("7d", 604800), ("31d", 2678400)]
)
def test_a_window_is_read_in_seconds(window: str, seconds: int) -> None:
    assert window_seconds(window) == seconds


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        ({"name": "up", "labels": {'job"}': "x"}}, "invalid label name"),
        ({"name": "up", "labels": {"__name__": "x"}}, "invalid label name"),
        (
            {"name": "up", "start": "2026-03-14T15:00:00Z", "end": "2026-03-14T14:00:00Z"},
            "start is after end",
        ),
        (
            {"name": "up", "start": "2026-01-01T00:00:00Z", "end": "2026-03-14T14:00:00Z"},
            "longer than 31 days",
        ),
        ({"name": "up", "at": "2026-03-14T14:00:00Z", "start": "2026-03-14T13:00:00Z"}, "instant query"),
        ({"name": "up", "query": "up"}, "query"),
        ({"name": "up", "function": "rate"}, "needs a window"),
    ],
)
def test_the_tool_arguments_refuse_bad_input(arguments: dict[str, Any], complaint: str) -> None:
    with pytest.raises(ValidationError) as caught:
        PrometheusMetricsArgs.model_validate(arguments)
    assert complaint in str(caught.value)


def test_the_embedded_tools_arguments_still_work_and_labels_become_equality_matchers() -> None:
    args = PrometheusMetricsArgs.model_validate(
        {"name": "db_pool_active_connections", "labels": {"pool": "payment-db", "service": "proxy"}}
    )
    assert args.query().promql() == 'db_pool_active_connections{pool="payment-db",service="proxy"}'
    assert args.range_window() is None


# --------------------------------------------------------------------------- LogQL


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("ERR_TIMEOUT", "ERR_TIMEOUT"),
        ("a.b*c", "a\\.b\\*c"),
        ("(x|y)", "\\(x\\|y\\)"),
        ("超时", "超时"),
        ("$[^]{}", "\\$\\[\\^\\]\\{\\}"),
    ],
)
def test_a_keyword_becomes_a_regex_that_matches_only_itself(text: str, pattern: str) -> None:
    assert regex_literal(text) == pattern


def test_a_log_query_renders_selector_line_filters_and_label_filters() -> None:
    query = LogQuery(
        selector=(
            LabelMatcher(label="service", value="payment-api"),
            LabelMatcher(label="tenant", value="acme"),
        ),
        line_filters=(LineFilter(op="|~", text="(?i)timeout"), LineFilter(op="!=", text='say "hi"')),
        label_filters=(LabelMatcher(label="level", op="=~", value="(?i)error|err"),),
    )
    assert query.logql() == (
        '{service="payment-api",tenant="acme"} |~ "(?i)timeout" != "say \\"hi\\"" | level=~"(?i)error|err"'
    )


@pytest.mark.parametrize(
    "parts",
    [
        {"selector": ()},
        {"selector": ({"label": "service", "value": "x"},), "line_filters": ({"op": "| json", "text": "x"},)},
        {"selector": ({"label": "service", "value": "x"},), "line_filters": ({"op": "|=", "text": "a\nb"},)},
        {"selector": ({"label": "service", "value": "x"},), "line_filters": ({"op": "|=", "text": ""},)},
        {"selector": ({"label": "service}", "value": "x"},)},
    ],
)
def test_a_log_query_refuses_parts_that_could_change_the_pipeline(parts: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        LogQuery.model_validate(parts)

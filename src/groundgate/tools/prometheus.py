"""`query_metrics` over a real Prometheus: the embedded tool's arguments and facts, PromQL built in code.

When `[prometheus] url` is configured, `groundgate.wiring` registers this tool instead of the one
over the embedded `MetricStore`. Plans written for the embedded tool (`name`, `labels`, `start`,
`end`, `step_seconds`) run unchanged; the arguments add what Prometheus can do on top — label
matchers with `!=`, `=~`, `!~`, one range function with its window, an aggregation `by` labels, a
histogram quantile, and `at` for an instant query — each checked by `MetricQuery`
(`groundgate.aiops.promql`). A model never writes PromQL.

Which query: without `start` and `end`, an instant query at `at` (default now). With either, the
window is `start .. end` (an hour before `end`, which defaults to now), read one of two ways:

- a bare selector over at most a day reads the **raw samples**, as the embedded store does: the
  instant query `name{...}[<span>s]` at `end`, kept to `start ≤ ts ≤ end`. A stepped range query
  would repeat each sample at every step for Prometheus's 5-minute lookback and stamp a peak at the
  first step after it, not when it happened;
- anything else (a function, an aggregation, a quantile, or a longer window) is a range query whose
  step is the smallest of 1 s, 2 s, 5 s … 1 min … 1 d giving at most 1,000 points, its first step
  aligned to a multiple of the step so that points land on round times (14:18:00, not 14:18:09).

The summary is computed over every returned point and the points fact is downsampled to 60 exactly
as the embedded tool does (bucket maxima).

Facts are those of the embedded tool (`metric.summary`, `metric.points`, same keys) with
`source_system` `prometheus` and one more key, `promql`: the expression exactly as it was sent (with
the evaluation time or window in the observation), so a report can cite the series it rests on. EMPTY with a gap when nothing matched (naming similar metric names
when the name is unknown to the server); a failing server raises a `ConnectorError`, which the
registry records as a failed call (`tool_failed: prometheus ...`).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
from datetime import datetime, timedelta
from typing import Any

from pydantic import Field, field_validator, model_validator

from groundgate.aiops.prometheus import PrometheusClient, PromSeries
from groundgate.aiops.promql import (
    METRIC_NAME_PATTERN,
    Aggregation,
    LabelMatcher,
    MetricQuery,
    RangeFunction,
    check_label_name,
    window_seconds,
)
from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.errors import ConnectorError
from groundgate.tools.builtin.clock import UtcDatetime, format_utc, from_epoch_us, to_epoch_us, utc_now
from groundgate.tools.builtin.metrics import MAX_SERIES, METRICS_TOOL, TOOL_MAX_POINTS, downsample, summarise
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = ["PrometheusMetricsArgs", "prometheus_metrics_tool"]

#: Most points a stepped range query asks for per series.
RANGE_POINTS = 1000
#: Steps of a range query, seconds: each divides the next round unit, so aligned steps land on it.
NICE_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
#: Longest window read as raw samples (a bare selector); longer ones are stepped.
RAW_MAX_SPAN = timedelta(days=1)
#: A range query without `start` looks back this far from `end`.
DEFAULT_LOOKBACK = timedelta(hours=1)
#: Longest range a query may span.
MAX_SPAN = timedelta(days=31)


def _number(value: float) -> int | float:
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


class PrometheusMetricsArgs(ToolArguments):
    """Arguments of `query_metrics` over Prometheus (a superset of the embedded tool's)."""

    name: str = Field(pattern=METRIC_NAME_PATTERN, description="Metric name, exact.")
    labels: dict[str, str] | None = Field(
        None, max_length=10, description="Label equality matchers; a series matches when it has all of them."
    )
    matchers: list[LabelMatcher] | None = Field(
        None, max_length=10, description="More label matchers: {label, op (=, !=, =~, !~), value}."
    )
    function: RangeFunction | None = Field(
        None, description="A range function over the window: rate, increase, max_over_time, ..."
    )
    window: str | None = Field(None, description="The function's window: a number and s, m, h or d (5m).")
    aggregate: Aggregation | None = Field(
        None, description="Aggregate the series: sum, avg, max, min, count."
    )
    by: list[str] | None = Field(None, max_length=10, description="Labels to keep when aggregating.")
    quantile: float | None = Field(
        None, gt=0, lt=1, description="Histogram quantile (0.99) of a *_bucket metric; needs function rate."
    )
    start: UtcDatetime | None = Field(None, description="Window start, ISO 8601 (UTC if no offset).")
    end: UtcDatetime | None = Field(None, description="Window end, inclusive, ISO 8601.")
    at: UtcDatetime | None = Field(None, description="Evaluation time of an instant query (no start/end).")
    step_seconds: int | None = Field(
        None, ge=1, le=86_400, description="Bucket width for the returned points (max per bucket)."
    )

    @field_validator("labels")
    @classmethod
    def _label_names(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if not value:
            return None
        for key in value:
            check_label_name(key)
        return {key: value[key].strip() for key in sorted(value)}

    @field_validator("window")
    @classmethod
    def _window(cls, value: str | None) -> str | None:
        if value is not None:
            window_seconds(value)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> PrometheusMetricsArgs:
        if self.at is not None and (self.start is not None or self.end is not None):
            raise ValueError("'at' is for an instant query; give it without start and end")
        start, end = self.range_window() or (None, None)
        if start is not None and end is not None:
            if start > end:
                raise ValueError("start is after end")
            if end - start > MAX_SPAN:
                raise ValueError("the window is longer than 31 days")
        self.query()  # the PromQL parts must fit together (function ⇔ window, quantile, by)
        return self

    def query(self) -> MetricQuery:
        """The checked PromQL parts of these arguments (`labels` become `=` matchers)."""
        matchers = [LabelMatcher(label=k, op="=", value=v) for k, v in (self.labels or {}).items()]
        return MetricQuery(
            name=self.name,
            matchers=(*matchers, *(self.matchers or [])),
            function=self.function,
            window=self.window,
            aggregate=self.aggregate,
            by=tuple(self.by or ()),
            quantile=self.quantile,
        )

    def range_window(self) -> tuple[datetime, datetime] | None:
        """(start, end) of a range query, or None for an instant query."""
        if self.start is None and self.end is None:
            return None
        end = self.end or utc_now()
        return (self.start or end - DEFAULT_LOOKBACK), end


def _labels_text(labels: dict[str, str]) -> str:
    return "{" + ",".join(f"{k}={v}" for k, v in sorted(labels.items())) + "}"


def prometheus_metrics_tool(
    client: PrometheusClient, *, timeout_seconds: float | None = None
) -> tuple[ToolSpec, ToolFunction[PrometheusMetricsArgs]]:
    """`query_metrics` over `client` (policy `tenant`; metrics are platform-wide, as in the store)."""
    spec = ToolSpec(
        name=METRICS_TOOL,
        description=(
            "Read a metric's time series from Prometheus by name, label matchers, an optional range"
            " function (rate, increase, max_over_time ...) with its window, aggregation and time window."
            " Returns per series min, max (and when), mean, first, last and up to 60 points."
        ),
        argument_model=PrometheusMetricsArgs,
        authorization_policy="tenant",
        # A little over the HTTP timeout, so the connector's own timeout error (which names the
        # server) is what the run records, not the registry's generic one.
        timeout_seconds=timeout_seconds or client.endpoint.timeout_seconds + 2.0,
    )

    def run(args: PrometheusMetricsArgs, ctx: ExecutionContext) -> ToolOutput:
        promql = args.query().promql()
        window = args.range_window()
        if window is None:
            series = client.instant(promql, at=args.at)
            where = f"at {format_utc(args.at) if args.at else 'now'}"
        else:
            start, end = window
            promql, series = _read_window(client, args, promql, start, end)
            where = f"{format_utc(start)} .. {format_utc(end)}"
        found = [item for item in series if item.points]
        if not found:
            return _empty(client, args, promql, where)
        key: list[str | None] = (
            [format_utc(t) for t in window] if window else [format_utc(args.at) if args.at else None]
        )
        return _facts(args, ctx, promql, where, key, found)

    return spec, run


def _read_window(
    client: PrometheusClient, args: PrometheusMetricsArgs, promql: str, start: datetime, end: datetime
) -> tuple[str, list[PromSeries]]:
    """(the expression sent, its series) for `start .. end` (see the module docstring)."""
    span = max((end - start).total_seconds(), 1.0)
    bare = args.function is None and args.aggregate is None and args.quantile is None
    if bare and end - start <= RAW_MAX_SPAN:
        # One second more than the span, because Prometheus 2 and 3 differ on whether the window's
        # first instant is inside; the filter below keeps exactly start ≤ ts ≤ end.
        sent = f"{promql}[{math.ceil(span) + 1}s]"
        series = client.instant(sent, at=end)
        for item in series:
            item.points = [(ts, value) for ts, value in item.points if start <= ts <= end]
        return sent, series
    step = next((n for n in NICE_STEPS if span / n <= RANGE_POINTS), NICE_STEPS[-1])
    first = math.ceil(start.timestamp() / step) * step
    aligned = datetime.fromtimestamp(first, start.tzinfo) if first <= end.timestamp() else start
    return promql, client.range(promql, start=aligned, end=end, step_seconds=step)


def _empty(client: PrometheusClient, args: PrometheusMetricsArgs, promql: str, where: str) -> ToolOutput:
    gap = f"no series of {promql} {where}"
    try:
        known = client.metric_names()
    except ConnectorError:
        known = None  # the hint is optional; the answer (nothing matched) stands without it
    if known is not None and args.name not in known:
        similar = difflib.get_close_matches(args.name, known, n=5, cutoff=0.5)
        gap = f"unknown metric {args.name!r}; similar known metrics: {', '.join(similar) or 'none'}"
    return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=gap)


def _facts(
    args: PrometheusMetricsArgs,
    ctx: ExecutionContext,
    promql: str,
    where: str,
    window_key: list[str | None],
    found: list[PromSeries],
) -> ToolOutput:
    now = utc_now()
    snapshot = {"tenant": ctx.tenant, "user": ctx.user}
    facts: list[VerifiedFact] = []
    lines: list[str] = []
    for item in sorted(found, key=lambda s: sorted(s.labels.items()))[:MAX_SERIES]:
        raw = [(to_epoch_us(ts), value) for ts, value in item.points]
        summary = summarise(raw)
        points, step = downsample(raw, step_seconds=args.step_seconds, max_points=TOOL_MAX_POINTS)
        key = json.dumps([promql, item.labels, window_key, args.step_seconds], sort_keys=True)
        ref = "metric:" + hashlib.sha256(key.encode()).hexdigest()[:16]
        common: dict[str, Any] = {
            "source_system": "prometheus",
            "queried_at": now,
            "ttl_seconds": 60,
            "scope": "platform",
            "authorization_snapshot": snapshot,
        }
        facts.append(
            VerifiedFact(
                fact_ref=ref,
                fact_type="metric.summary",
                value={
                    "name": args.name,
                    "labels": item.labels,
                    "count": summary.count,
                    "first": _number(summary.first),
                    "first_at": format_utc(summary.first_at),
                    "last": _number(summary.last),
                    "last_at": format_utc(summary.last_at),
                    "min": _number(summary.min),
                    "min_at": format_utc(summary.min_at),
                    "max": _number(summary.max),
                    "max_at": format_utc(summary.max_at),
                    "mean": _number(summary.mean),
                    "promql": promql,
                },
                **common,
            )
        )
        facts.append(
            VerifiedFact(
                fact_ref=ref + ":points",
                fact_type="metric.points",
                value={
                    "name": args.name,
                    "labels": item.labels,
                    "step_seconds": step,
                    "aggregation": "max" if step is not None else "raw",
                    "points": [[format_utc(from_epoch_us(ts)), _number(v)] for ts, v in points],
                    "promql": promql,
                },
                **common,
            )
        )
        lines.append(
            f"{_labels_text(item.labels)}: {summary.count} points, min {_number(summary.min)},"
            f" max {_number(summary.max)} at {format_utc(summary.max_at)}, last {_number(summary.last)}"
        )
    gaps: list[str] = []
    if len(found) > MAX_SERIES:
        gaps.append(f"{len(found) - MAX_SERIES} more series of {promql} not shown; narrow the labels")
    shown = lines[:3] + ([f"... {len(lines) - 3} more"] if len(lines) > 3 else [])
    return ToolOutput(
        status=ToolStatus.OK,
        facts=facts,
        gaps=gaps,
        observation=f"{promql}: {len(found)} series {where}; " + "; ".join(shown),
        evidence_refs=[EvidenceRef(invocation_id="", citation_id=fact.fact_ref) for fact in facts],
    )

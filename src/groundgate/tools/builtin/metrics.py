"""`MetricStore` (time series in SQLite) and the `query_metrics` tool.

Input: JSONL, one sample per line:
`{"name": "db_pool_active_connections", "labels": {"service": "payment-db-proxy", "pool": "payment-db"},
"ts": "2026-03-14T14:05:00Z", "value": 100}`. `name` follows Prometheus naming; label values are
kept as strings; `ts` is ISO 8601 or epoch seconds (milliseconds above 10^11); `value` is a finite
number (or a numeric string). A second sample of the same series at the same time replaces the first.

A series is a metric name plus its complete label set. A query names a metric and optionally some
labels: every series whose labels include all of them matches (Prometheus-style equality matching).

Tenancy: metrics are **platform-wide** (infrastructure, not tenant data), so they are not scoped by
tenant. The tool still has policy `tenant` — only an authenticated caller of some tenant may read
them — and its facts carry the caller's authorization snapshot. A `tenant` label in a plan is
refused by the registry like any other authorization field.

Downsampling: a series longer than `max_points` (60 for the tool), or any series when
`step_seconds` is given, is cut into buckets aligned to the epoch; each bucket gives its
**maximum**, stamped with the bucket start, so spikes survive (the summary is always computed
over the raw points). The bucket width is `step_seconds`, or when that is not given or gives too
many buckets, the smallest round width (1 s ... 1 min, 2 min, 5 min ... 1 h ... 1 d, then
doubling days) that stays within `max_points`.

Ids: a summary fact is `metric:` + 16 hex digits of SHA-256 over the name, the series labels and
the query window; the points fact adds `:points`.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.errors import UsageError
from groundgate.tools.builtin.clock import (
    UtcDatetime,
    format_utc,
    from_epoch_us,
    parse_timestamp,
    to_epoch_us,
    utc_now,
)
from groundgate.tools.builtin.stores import EmbeddedStore, LoadReport, iter_json_objects
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = [
    "MAX_SERIES",
    "METRICS_TOOL",
    "TOOL_MAX_POINTS",
    "MetricPoint",
    "MetricQueryResult",
    "MetricSeries",
    "MetricStore",
    "MetricSummary",
    "QueryMetricsArgs",
    "downsample",
    "query_metrics_tool",
]

#: Name of the metrics tool.
METRICS_TOOL = "query_metrics"
#: Most points per series in the tool's `metric.points` facts.
TOOL_MAX_POINTS = 60
#: Bucket widths (seconds) downsampling widens to: round minutes, hours and days.
_NICE_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
#: Most series one query returns.
MAX_SERIES = 20

METRIC_NAME_PATTERN = r"^[A-Za-z_:][A-Za-z0-9_:]*$"
LABEL_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
_METRIC_NAME = re.compile(METRIC_NAME_PATTERN)
_LABEL_NAME = re.compile(LABEL_NAME_PATTERN)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS metric_series (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    labels TEXT NOT NULL,
    UNIQUE (name, labels)
);
CREATE TABLE IF NOT EXISTS metric_labels (
    series_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (series_id, key)
);
CREATE INDEX IF NOT EXISTS metric_labels_kv ON metric_labels (key, value);
CREATE TABLE IF NOT EXISTS metric_points (
    series_id INTEGER NOT NULL,
    ts_us INTEGER NOT NULL,
    value REAL NOT NULL,
    file_id INTEGER NOT NULL,
    PRIMARY KEY (series_id, ts_us)
);
CREATE INDEX IF NOT EXISTS metric_points_file ON metric_points (file_id);
"""


def _number(value: float) -> int | float:
    """Integral floats as ints (so `100.0` reads `100` in a fact), others as they are."""
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


# --------------------------------------------------------------------------- results


class MetricPoint(BaseModel):
    """One sample (or one bucket's maximum, stamped with the bucket start)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ts: datetime
    value: float


class MetricSummary(BaseModel):
    """Summary of a series over the query window, from the raw points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int
    first: float
    first_at: datetime
    last: float
    last_at: datetime
    min: float
    min_at: datetime
    max: float
    max_at: datetime
    """The first time the maximum was reached."""
    mean: float


class MetricSeries(BaseModel):
    """One matching series: its labels, summary and points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    labels: dict[str, str]
    summary: MetricSummary
    points: list[MetricPoint]
    """Raw points, or downsampled ones when `downsampled` is set."""
    downsampled: bool = False
    step_seconds: int | None = None
    """The bucket width when downsampled."""


class MetricQueryResult(BaseModel):
    """What a metric query found; `known` is False when no series has this name at all."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    known: bool
    series: list[MetricSeries] = Field(default_factory=list)
    matched_series: int = 0
    """Series matching name and labels with points in the window (`series` holds at most `MAX_SERIES`)."""
    label_sets: list[dict[str, str]] = Field(default_factory=list)
    """When nothing matched a known metric: some label sets it does have."""
    data_start: datetime | None = None
    data_end: datetime | None = None
    """When nothing lies in the window: where the matching series' data lies."""


def summarise(points: list[tuple[int, float]]) -> MetricSummary:
    """Summary of (epoch µs, value) points sorted by time; at least one point."""
    if not points:
        raise UsageError("cannot summarise an empty series")
    first_ts, first = points[0]
    last_ts, last = points[-1]
    min_ts, minimum = min(points, key=lambda p: (p[1], p[0]))
    max_ts, maximum = max(points, key=lambda p: (p[1], -p[0]))
    mean = math.fsum(value for _, value in points) / len(points)
    return MetricSummary(
        count=len(points),
        first=first,
        first_at=from_epoch_us(first_ts),
        last=last,
        last_at=from_epoch_us(last_ts),
        min=minimum,
        min_at=from_epoch_us(min_ts),
        max=maximum,
        max_at=from_epoch_us(max_ts),
        mean=round(mean, 4),
    )


def downsample(
    points: list[tuple[int, float]], *, step_seconds: int | None = None, max_points: int = TOOL_MAX_POINTS
) -> tuple[list[tuple[int, float]], int | None]:
    """Bucket maxima of (epoch µs, value) points sorted by time, and the bucket width in seconds.

    Returns the points unchanged (and None) when no step is asked and they already fit.
    """
    if max_points < 1:
        raise UsageError("max_points must be at least 1")
    if step_seconds is None and len(points) <= max_points:
        return points, None
    if not points:
        return points, step_seconds
    first_us, last_us = points[0][0], points[-1][0]

    def buckets_for(step: int) -> int:
        width = step * 1_000_000
        return last_us // width - first_us // width + 1

    step = step_seconds or 1
    if buckets_for(step) > max_points:
        # Widen to the next "nice" width that fits (whole minutes, hours, days).
        nice = [n for n in _NICE_STEPS if n > step]
        step = next((n for n in nice if buckets_for(n) <= max_points), 0)
        if not step:
            step = max(_NICE_STEPS[-1], step_seconds or 1)
            while buckets_for(step) > max_points:
                step *= 2
    width = step * 1_000_000
    buckets: dict[int, float] = {}
    for ts, value in points:
        bucket = ts // width * width
        current = buckets.get(bucket)
        buckets[bucket] = value if current is None else max(current, value)
    return sorted(buckets.items()), step


# --------------------------------------------------------------------------- loading


@dataclass(slots=True)
class _Sample:
    name: str
    labels: dict[str, str]
    ts_us: int
    value: float


def _sample(obj: dict[str, Any]) -> _Sample | str:
    name = obj.get("name")
    if not isinstance(name, str) or not _METRIC_NAME.match(name):
        return "missing or invalid metric 'name'"
    raw_labels = obj.get("labels") or {}
    if not isinstance(raw_labels, dict):
        return "'labels' must be an object"
    labels: dict[str, str] = {}
    for key, value in raw_labels.items():
        if not _LABEL_NAME.match(str(key)) or isinstance(value, dict | list) or value is None:
            return f"invalid label {str(key)[:40]!r}"
        labels[str(key)] = str(value).lower() if isinstance(value, bool) else str(value)
    if "ts" not in obj:
        return "missing 'ts'"
    try:
        ts_us = to_epoch_us(parse_timestamp(obj["ts"]))
    except (ValueError, OverflowError):
        return f"bad timestamp {str(obj['ts'])[:40]!r}"
    raw_value = obj.get("value")
    if isinstance(raw_value, bool) or not isinstance(raw_value, int | float | str):
        return "missing or non-numeric 'value'"
    try:
        value = float(raw_value)
    except ValueError:
        return f"non-numeric value {raw_value!r}"
    if not math.isfinite(value):
        return "non-finite value"
    return _Sample(name, labels, ts_us, value)


def _labels_key(labels: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(labels.items())), ensure_ascii=False, separators=(",", ":"))


class MetricStore(EmbeddedStore):
    """Metric samples in SQLite (see the module docstring)."""

    kind = "metric"
    schema = _SCHEMA

    def _delete_file_records(self, conn: sqlite3.Connection, file_id: int) -> None:
        conn.execute("DELETE FROM metric_points WHERE file_id = ?", (file_id,))

    def load_jsonl(self, path: str | Path, *, source: str | None = None) -> LoadReport:
        """Load a JSONL file of samples."""
        series_ids: dict[tuple[str, str], int] = {}

        def records(file: Path, report: LoadReport) -> Iterator[_Sample]:
            for line_no, obj in iter_json_objects(file, report):
                outcome = _sample(obj)
                if isinstance(outcome, str):
                    report.add_invalid(line_no, outcome)
                else:
                    yield outcome

        def write(conn: sqlite3.Connection, file_id: int, sample: _Sample) -> bool:
            key = (sample.name, _labels_key(sample.labels))
            series_id = series_ids.get(key)
            if series_id is None:
                row = conn.execute(
                    "SELECT id FROM metric_series WHERE name = ? AND labels = ?", key
                ).fetchone()
                if row is None:
                    cursor = conn.execute("INSERT INTO metric_series (name, labels) VALUES (?, ?)", key)
                    series_id = int(cursor.lastrowid or 0)
                    conn.executemany(
                        "INSERT INTO metric_labels (series_id, key, value) VALUES (?, ?, ?)",
                        [(series_id, k, v) for k, v in sample.labels.items()],
                    )
                else:
                    series_id = int(row[0])
                series_ids[key] = series_id
            conn.execute(
                "INSERT INTO metric_points (series_id, ts_us, value, file_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (series_id, ts_us) DO UPDATE SET value = excluded.value, file_id = excluded.file_id",
                (series_id, sample.ts_us, sample.value, file_id),
            )
            return True

        return self._load(path, source, records, write)

    # ------------------------------------------------------------------ reading

    def latest(self) -> datetime | None:
        """The time of the newest stored sample, None when the store is empty."""
        row = self._read(lambda conn: conn.execute("SELECT max(ts_us) FROM metric_points").fetchone())
        return from_epoch_us(row[0]) if row and row[0] is not None else None

    def names(self) -> list[str]:
        """Every metric name with at least one point, sorted."""

        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                "SELECT DISTINCT s.name FROM metric_series s"
                " WHERE EXISTS (SELECT 1 FROM metric_points p WHERE p.series_id = s.id) ORDER BY s.name"
            )
            return [str(row[0]) for row in rows]

        return self._read(read)

    def similar_names(self, name: str, *, limit: int = 5) -> list[str]:
        """Known metric names close to `name` (edit similarity, then shared name parts)."""
        known = self.names()
        close = difflib.get_close_matches(name, known, n=limit, cutoff=0.5)
        parts = {part for part in name.lower().split("_") if len(part) > 2}
        sharing = [other for other in known if parts & set(other.lower().split("_")) and other not in close]
        return (close + sharing)[:limit]

    def query(
        self,
        name: str,
        *,
        labels: Mapping[str, str] | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        step_seconds: int | None = None,
        max_points: int | None = None,
    ) -> MetricQueryResult:
        """Series of `name` whose labels include `labels`, over `start ≤ ts ≤ end` (UTC).

        Points are raw unless `step_seconds` or `max_points` asks for downsampling.
        """
        if step_seconds is not None and step_seconds < 1:
            raise UsageError("step_seconds must be at least 1")
        wanted = dict(labels or {})

        def read(conn: sqlite3.Connection) -> MetricQueryResult:
            known = conn.execute("SELECT 1 FROM metric_series WHERE name = ? LIMIT 1", (name,)).fetchone()
            if known is None:
                return MetricQueryResult(name=name, known=False)
            sql = "SELECT s.id, s.labels FROM metric_series s WHERE s.name = ?"
            params: list[Any] = [name]
            for key, value in sorted(wanted.items()):
                sql += (
                    " AND EXISTS (SELECT 1 FROM metric_labels l"
                    " WHERE l.series_id = s.id AND l.key = ? AND l.value = ?)"
                )
                params += [key, value]
            candidates = conn.execute(sql + " ORDER BY s.labels", params).fetchall()
            if not candidates:
                label_rows = conn.execute(
                    "SELECT labels FROM metric_series WHERE name = ? ORDER BY labels LIMIT 10", (name,)
                ).fetchall()
                return MetricQueryResult(
                    name=name, known=True, label_sets=[json.loads(row[0]) for row in label_rows]
                )
            window = "series_id = ?"
            window_params: list[Any] = []
            if start is not None:
                window += " AND ts_us >= ?"
                window_params.append(to_epoch_us(start))
            if end is not None:
                window += " AND ts_us <= ?"
                window_params.append(to_epoch_us(end))
            series: list[MetricSeries] = []
            matched = 0
            for series_id, labels_json in candidates:
                rows = conn.execute(
                    f"SELECT ts_us, value FROM metric_points WHERE {window} ORDER BY ts_us",
                    [series_id, *window_params],
                ).fetchall()
                if not rows:
                    continue
                matched += 1
                if len(series) >= MAX_SERIES:
                    continue
                raw = [(int(ts), float(value)) for ts, value in rows]
                points, step = raw, None
                if step_seconds is not None or max_points is not None:
                    points, step = downsample(
                        raw, step_seconds=step_seconds, max_points=max_points or len(raw)
                    )
                series.append(
                    MetricSeries(
                        labels=json.loads(labels_json),
                        summary=summarise(raw),
                        points=[MetricPoint(ts=from_epoch_us(ts), value=value) for ts, value in points],
                        downsampled=step is not None,
                        step_seconds=step,
                    )
                )
            if matched:
                return MetricQueryResult(name=name, known=True, series=series, matched_series=matched)
            ids = [row[0] for row in candidates]
            span = conn.execute(
                f"SELECT min(ts_us), max(ts_us) FROM metric_points WHERE series_id IN ({', '.join('?' for _ in ids)})",
                ids,
            ).fetchone()
            return MetricQueryResult(
                name=name,
                known=True,
                data_start=from_epoch_us(span[0]) if span[0] is not None else None,
                data_end=from_epoch_us(span[1]) if span[1] is not None else None,
            )

        return self._read(read)


# --------------------------------------------------------------------------- the tool


class QueryMetricsArgs(ToolArguments):
    """Arguments of `query_metrics`: a metric name, label matchers and a time window (UTC)."""

    name: str = Field(pattern=METRIC_NAME_PATTERN, max_length=200, description="Metric name, exact.")
    labels: dict[str, str] | None = Field(
        None,
        max_length=10,
        description="Label equality matchers; a series matches when it has all of them.",
    )
    start: UtcDatetime | None = Field(None, description="Window start, ISO 8601 (UTC if no offset).")
    end: UtcDatetime | None = Field(None, description="Window end, inclusive, ISO 8601.")
    step_seconds: int | None = Field(
        None, ge=1, le=86_400, description="Bucket width for the returned points (max per bucket)."
    )

    @field_validator("labels")
    @classmethod
    def _label_names(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if not value:
            return None
        for key in value:
            if not _LABEL_NAME.match(key):
                raise ValueError(f"invalid label name {key!r}")
        return {key: value[key].strip() for key in sorted(value)}

    @model_validator(mode="after")
    def _range(self) -> QueryMetricsArgs:
        if self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError("start is after end")
        return self


def _labels_text(labels: Mapping[str, str]) -> str:
    return "{" + ",".join(f"{k}={v}" for k, v in sorted(labels.items())) + "}"


def _summary_value(name: str, series: MetricSeries) -> dict[str, Any]:
    s = series.summary
    return {
        "name": name,
        "labels": series.labels,
        "count": s.count,
        "first": _number(s.first),
        "first_at": format_utc(s.first_at),
        "last": _number(s.last),
        "last_at": format_utc(s.last_at),
        "min": _number(s.min),
        "min_at": format_utc(s.min_at),
        "max": _number(s.max),
        "max_at": format_utc(s.max_at),
        "mean": _number(s.mean),
    }


def query_metrics_tool(store: MetricStore) -> tuple[ToolSpec, ToolFunction[QueryMetricsArgs]]:
    """The `query_metrics` tool over `store` (policy `tenant`; metrics are platform-wide).

    Per matching series (at most `MAX_SERIES`): a `metric.summary` fact (value: name, labels,
    count, first/last/min/max with their times, mean) and a `metric.points` fact (value: name,
    labels, step_seconds, `[[ts, value], ...]` with at most 60 points). EMPTY for an unknown
    metric (gap: similar known names), for labels no series has (gap: known label sets), or for
    an empty window (gap: where the data lies).
    """
    spec = ToolSpec(
        name=METRICS_TOOL,
        description=(
            "Read a metric's time series (platform-wide) by name, label matchers and time window."
            " Returns per series min, max (and when), mean, first, last and up to 60 points."
        ),
        argument_model=QueryMetricsArgs,
        authorization_policy="tenant",
        timeout_seconds=5.0,
    )

    def run(args: QueryMetricsArgs, ctx: ExecutionContext) -> ToolOutput:
        labels = args.labels or {}
        result = store.query(
            args.name,
            labels=labels,
            start=args.start,
            end=args.end,
            step_seconds=args.step_seconds,
            max_points=TOOL_MAX_POINTS,
        )
        window = f"{format_utc(args.start) if args.start else '-∞'} .. {format_utc(args.end) if args.end else 'now'}"
        if not result.known:
            similar = store.similar_names(args.name)
            gap = f"unknown metric {args.name!r}; similar known metrics: {', '.join(similar) or 'none'}"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=f"unknown metric {args.name}")
        if not result.series:
            if result.label_sets:
                sets = "; ".join(_labels_text(item) for item in result.label_sets)
                gap = f"no series of {args.name} has labels {_labels_text(labels)}; known label sets: {sets}"
            else:
                span = (
                    f"{format_utc(result.data_start)} .. {format_utc(result.data_end)}"
                    if result.data_start and result.data_end
                    else "none"
                )
                gap = f"no points of {args.name}{_labels_text(labels)} in {window}; data spans {span}"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=gap)

        now = utc_now()
        snapshot = {"tenant": ctx.tenant, "user": ctx.user}
        window_key = [
            format_utc(args.start) if args.start else None,
            format_utc(args.end) if args.end else None,
        ]
        facts: list[VerifiedFact] = []
        lines: list[str] = []
        for series in result.series:
            key = json.dumps([args.name, series.labels, window_key, args.step_seconds], sort_keys=True)
            ref = "metric:" + hashlib.sha256(key.encode()).hexdigest()[:16]
            facts.append(
                VerifiedFact(
                    fact_ref=ref,
                    fact_type="metric.summary",
                    value=_summary_value(args.name, series),
                    source_system="metric_store",
                    queried_at=now,
                    ttl_seconds=60,
                    scope="platform",
                    authorization_snapshot=snapshot,
                )
            )
            facts.append(
                VerifiedFact(
                    fact_ref=ref + ":points",
                    fact_type="metric.points",
                    value={
                        "name": args.name,
                        "labels": series.labels,
                        "step_seconds": series.step_seconds,
                        "aggregation": "max" if series.downsampled else "raw",
                        "points": [[format_utc(p.ts), _number(p.value)] for p in series.points],
                    },
                    source_system="metric_store",
                    queried_at=now,
                    ttl_seconds=60,
                    scope="platform",
                    authorization_snapshot=snapshot,
                )
            )
            s = series.summary
            lines.append(
                f"{_labels_text(series.labels)}: {s.count} points, min {_number(s.min)}, max {_number(s.max)}"
                f" at {format_utc(s.max_at)}, last {_number(s.last)}"
            )
        gaps: list[str] = []
        if result.matched_series > len(result.series):
            gaps.append(
                f"{result.matched_series - len(result.series)} more series of {args.name} not shown;"
                " narrow the labels"
            )
        shown = lines[:3] + ([f"... {len(lines) - 3} more"] if len(lines) > 3 else [])
        observation = f"{args.name}: {result.matched_series} series in {window}; " + "; ".join(shown)
        return ToolOutput(
            status=ToolStatus.OK,
            facts=facts,
            gaps=gaps,
            observation=observation,
            evidence_refs=[EvidenceRef(invocation_id="", citation_id=fact.fact_ref) for fact in facts],
        )

    return spec, run

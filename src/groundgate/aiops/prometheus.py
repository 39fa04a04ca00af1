"""A Prometheus HTTP API client: instant and range queries, and the metric names it knows.

`GET /api/v1/query` (instant: `query`, `time`) and `GET /api/v1/query_range` (`query`, `start`,
`end`, `step`) answer with the envelope `{"status": "success" | "error", "data": ..., "errorType",
"error", "warnings"}`; `data` is `{"resultType": "vector" | "matrix" | "scalar" | "string",
"result": ...}`, a sample being `[<unix seconds>, "<value as a string>"]`. Values such as `NaN` and
`+Inf` are skipped (a fact carries finite numbers only). Errors follow `groundgate.aiops.http`; an
envelope with `"status": "error"` on a 2xx answer is a `ConnectorResponseError`.

Only expressions written by `MetricQuery.promql()` are sent by the tools; this client takes the
text so that tests and operators can run their own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from groundgate.aiops.http import MonitoringClient
from groundgate.errors import ConnectorResponseError

__all__ = ["PromSeries", "PrometheusClient"]

SYSTEM = "prometheus"


@dataclass(slots=True)
class PromSeries:
    """One series of a result: its labels (`__name__` dropped) and its finite samples, oldest first."""

    labels: dict[str, str]
    points: list[tuple[datetime, float]] = field(default_factory=list)
    metric_name: str | None = None
    """`__name__` when the expression kept it (a bare selector does; functions drop it)."""


def _time_param(value: datetime) -> str:
    # Unix seconds with milliseconds: what the API documents besides RFC 3339, and unambiguous.
    return f"{value.timestamp():.3f}"


def _sample(raw: object) -> tuple[datetime, float] | None:
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise ValueError(f"a sample must be [time, value], got {str(raw)[:60]}")
    ts, text = raw
    if isinstance(ts, bool) or not isinstance(ts, int | float) or not isinstance(text, str):
        raise ValueError(f"a sample must be [number, string], got {str(raw)[:60]}")
    value = float(text)
    if not math.isfinite(value):
        return None
    return datetime.fromtimestamp(float(ts), UTC), value


def _series(item: object, key: str) -> PromSeries:
    if not isinstance(item, Mapping) or not isinstance(item.get("metric"), Mapping):
        raise ValueError("a result item must be an object with 'metric'")
    labels = {str(k): str(v) for k, v in item["metric"].items()}
    name = labels.pop("__name__", None)
    raw = [item.get(key)] if key == "value" else item.get(key)
    if not isinstance(raw, list):
        raise ValueError(f"a result item must have '{key}'")
    points = [point for point in (_sample(sample) for sample in raw) if point is not None]
    return PromSeries(labels=labels, points=points, metric_name=name)


class PrometheusClient(MonitoringClient):
    """Queries one Prometheus server (see the module docstring)."""

    system = SYSTEM

    def _data(self, path: str, params: list[tuple[str, str]]) -> Any:
        body = self.endpoint.get_json(path, params)
        if not isinstance(body, Mapping) or body.get("status") != "success" or "data" not in body:
            error = body.get("error") if isinstance(body, Mapping) else None
            raise ConnectorResponseError(
                f"prometheus answered {path} without success: {str(error or body)[:200]}", system=SYSTEM
            )
        return body["data"]

    def _result(self, path: str, params: list[tuple[str, str]]) -> list[PromSeries]:
        data = self._data(path, params)
        try:
            if not isinstance(data, Mapping):
                raise ValueError("'data' is not an object")
            kind, result = data.get("resultType"), data.get("result")
            if kind == "vector" and isinstance(result, list):
                return [_series(item, "value") for item in result]
            if kind == "matrix" and isinstance(result, list):
                return [_series(item, "values") for item in result]
            if kind == "scalar":
                point = _sample(result)
                return [PromSeries(labels={}, points=[point] if point else [])]
            raise ValueError(f"unexpected resultType {kind!r}")
        except ValueError as exc:
            raise ConnectorResponseError(
                f"prometheus answered {path} with an unexpected result: {exc}", system=SYSTEM
            ) from exc

    def instant(self, query: str, *, at: datetime | None = None) -> list[PromSeries]:
        """`/api/v1/query` at `at` (the server's now when None)."""
        params = [("query", query)]
        if at is not None:
            params.append(("time", _time_param(at)))
        return self._result("/api/v1/query", params)

    def range(self, query: str, *, start: datetime, end: datetime, step_seconds: float) -> list[PromSeries]:
        """`/api/v1/query_range` over `start .. end` every `step_seconds`."""
        params = [
            ("query", query),
            ("start", _time_param(start)),
            ("end", _time_param(end)),
            ("step", f"{step_seconds:g}"),
        ]
        return self._result("/api/v1/query_range", params)

    def metric_names(self) -> list[str]:
        """Every metric name the server knows (`/api/v1/label/__name__/values`)."""
        data = self._data("/api/v1/label/__name__/values", [])
        if not isinstance(data, list):
            raise ConnectorResponseError("prometheus label values are not a list", system=SYSTEM)
        return [str(name) for name in data]

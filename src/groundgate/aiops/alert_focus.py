"""What one alert is about: the subject a diagnosis stays focused on (issue 14, seed 004 §6).

`AlertFocus` is read from one Alertmanager alert (`WebhookAlert`): its name, labels, annotations,
`startsAt`/`endsAt`, the rule's expression (from the `generatorURL`'s `g0.expr`, or an `expr` /
`query` annotation) and the time window a diagnosis reads evidence in. The metric and its equality
matchers are taken from the expression's first selector by a small parser — only to fill the
arguments of `query_metrics`, which are schema-checked and quoted in code like any plan's; the
expression itself is never sent anywhere.

Pure: no I/O. The window: from `lookback` (default 15 minutes, plus the expression's own range such
as `[5m]`) before `startsAt` to `after` past it (or to `endsAt` when the alert resolved earlier).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

__all__ = ["SERVICE_LABELS", "AlertFocus", "parse_expression"]

#: Labels that name the service an alert is about, in order of preference.
SERVICE_LABELS = ("service", "app", "job", "container", "deployment")
#: Words of PromQL that are not metric names (functions, aggregations, keywords).
_NOT_METRICS = frozenset(
    [
        "sum",
        "avg",
        "min",
        "max",
        "count",
        "stddev",
        "stdvar",
        "topk",
        "bottomk",
        "quantile",
        "count_values",
        "group",
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
        "bool",
        "and",
        "or",
        "unless",
        "offset",
        "rate",
        "irate",
        "increase",
        "delta",
        "idelta",
        "deriv",
        "predict_linear",
        "histogram_quantile",
        "abs",
        "ceil",
        "floor",
        "round",
        "clamp",
        "clamp_min",
        "clamp_max",
        "exp",
        "ln",
        "log2",
        "log10",
        "sqrt",
        "time",
        "timestamp",
        "vector",
        "scalar",
        "sort",
        "sort_desc",
        "label_replace",
        "label_join",
        "absent",
        "absent_over_time",
        "changes",
        "resets",
        "avg_over_time",
        "min_over_time",
        "max_over_time",
        "sum_over_time",
        "count_over_time",
        "quantile_over_time",
        "stddev_over_time",
        "last_over_time",
        "present_over_time",
        "inf",
        "nan",
    ]
)
_SELECTOR = re.compile(r"(?<![\w:\"'])([A-Za-z_:][A-Za-z0-9_:]*)\s*(\{[^}]*\})?\s*(\[[0-9]+[smhdwy]\])?")
_MATCHER = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!=|!~|=)\s*\"((?:[^\"\\]|\\.)*)\"")
_RANGE = re.compile(r"\[([0-9]+)([smhdwy])\]")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}
_MAX_RANGE = timedelta(hours=6)


def parse_expression(expression: str) -> tuple[str | None, dict[str, str], timedelta]:
    """(metric, equality matchers, longest range) of the first selector of a PromQL expression.

    `sum(rate(http_requests_total{service="payment-api",code=~"5.."}[5m]))` gives
    `("http_requests_total", {"service": "payment-api"}, 5 minutes)`: regex matchers (`=~`) and
    negations are left out (they are filters, not the alert's subject)."""
    metric: str | None = None
    matchers: dict[str, str] = {}
    for match in _SELECTOR.finditer(expression):
        name, braces = match.group(1), match.group(2)
        end = match.end(1)
        followed_by_call = expression[end : end + 1] == "(" and not braces
        if name.lower() in _NOT_METRICS or followed_by_call or name[0].isdigit():
            continue
        metric = name
        for label, op, value in _MATCHER.findall(braces or ""):
            if op == "=":
                matchers[label] = value.replace('\\"', '"')
        break
    ranges = [int(n) * _UNIT_SECONDS[u] for n, u in _RANGE.findall(expression)]
    longest = min(timedelta(seconds=max(ranges)), _MAX_RANGE) if ranges else timedelta(0)
    return metric, matchers, longest


def _expression_of(generator_url: str, annotations: Mapping[str, str]) -> str:
    for key in ("expr", "expression", "query"):
        if annotations.get(key, "").strip():
            return annotations[key].strip()
    try:
        query = parse_qs(urlsplit(generator_url).query)
    except ValueError:
        return ""
    values = query.get("g0.expr") or query.get("expr") or []
    return values[0].strip() if values else ""


@dataclass(frozen=True, slots=True)
class AlertFocus:
    """The alert a diagnosis is about, and where its evidence lies."""

    alertname: str
    labels: Mapping[str, str]
    annotations: Mapping[str, str]
    starts_at: datetime
    ends_at: datetime | None = None
    expression: str = ""
    metric: str | None = None
    metric_labels: Mapping[str, str] = field(default_factory=dict)
    expression_range: timedelta = timedelta(0)
    fingerprint: str = ""
    lookback: timedelta = timedelta(minutes=15)
    after: timedelta = timedelta(minutes=15)

    @classmethod
    def from_alert(
        cls,
        *,
        labels: Mapping[str, str],
        annotations: Mapping[str, str],
        starts_at: datetime,
        ends_at: datetime | None = None,
        generator_url: str = "",
        fingerprint: str = "",
    ) -> AlertFocus:
        expression = _expression_of(generator_url, annotations)
        metric, matchers, span = parse_expression(expression) if expression else (None, {}, timedelta(0))
        metric = annotations.get("metric", "").strip() or metric
        return cls(
            alertname=labels.get("alertname", "").strip(),
            labels=dict(labels),
            annotations=dict(annotations),
            starts_at=starts_at.astimezone(UTC),
            ends_at=ends_at.astimezone(UTC) if ends_at else None,
            expression=expression,
            metric=metric,
            metric_labels=matchers,
            expression_range=span,
            fingerprint=fingerprint,
        )

    @property
    def service(self) -> str | None:
        """The service the alert names (`service`, else `app`, `job`, …), or None."""
        for key in SERVICE_LABELS:
            value = self.labels.get(key, "").strip()
            if value:
                return value
        return None

    @property
    def severity(self) -> str:
        return self.labels.get("severity", "").strip()

    @property
    def summary(self) -> str:
        return (self.annotations.get("summary") or self.annotations.get("description") or "").strip()

    @property
    def window(self) -> tuple[datetime, datetime]:
        """Where the evidence lies: before `startsAt` (the lead-up and the rule's own range) to after
        it (or to `endsAt` when the alert resolved earlier)."""
        start = self.starts_at - self.lookback - self.expression_range
        end = self.starts_at + self.after
        if self.ends_at is not None and self.starts_at < self.ends_at < end:
            end = self.ends_at
        return start, end

    @property
    def query_labels(self) -> dict[str, str]:
        """Label matchers for the alert's metric: the expression's equality matchers, else the
        alert's service label when the expression names none."""
        if self.metric_labels:
            return dict(self.metric_labels)
        service = self.labels.get("service", "").strip()
        return {"service": service} if service else {}

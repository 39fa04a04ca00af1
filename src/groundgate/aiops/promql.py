"""PromQL built from a checked model, never taken as text from a model (issue 14, item 3).

A planner names a metric, label matchers, at most one range function with its window, an optional
aggregation and an optional histogram quantile; `MetricQuery.promql()` writes the expression. Every
part is validated on its own, so nothing a model writes can change the expression's structure:

- the metric name and every label name match Prometheus's identifier patterns (`name{a="b"}` or
  `x) or vector(1` are refused, not escaped);
- label values are always rendered as double-quoted strings with `\\` and `"` escaped; control
  characters are refused (a value cannot end the string, the selector or the expression);
- operators are `=`, `!=`, `=~`, `!~`; regex values are RE2 on the server (no catastrophic
  backtracking) and capped in length;
- functions come from `RANGE_FUNCTIONS`, aggregations from `AGGREGATIONS`, both fixed here; a
  window is `<n><s|m|h|d>` between 1 s and 31 d, required by a range function and refused without one.

The same quoting serves Alertmanager's `filter` matchers and LogQL stream selectors (`quote`).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "AGGREGATIONS",
    "LABEL_NAME_PATTERN",
    "METRIC_NAME_PATTERN",
    "RANGE_FUNCTIONS",
    "LabelMatcher",
    "MetricQuery",
    "MatchOp",
    "check_label_name",
    "quote",
    "render_matchers",
    "window_seconds",
]

METRIC_NAME_PATTERN = r"^[A-Za-z_:][A-Za-z0-9_:]{0,199}$"
#: Label names. `__`-prefixed names are Prometheus-internal (`__name__`) and refused by the models.
LABEL_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,99}$"
_WINDOW = re.compile(r"^([1-9][0-9]{0,5})(s|m|h|d)$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_MAX_WINDOW_SECONDS = 31 * 86400
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

#: Range functions over `name{...}[window]` a planner may ask for.
RANGE_FUNCTIONS = (
    "rate",
    "irate",
    "increase",
    "delta",
    "avg_over_time",
    "max_over_time",
    "min_over_time",
    "sum_over_time",
    "count_over_time",
    "last_over_time",
)
#: Aggregations over the (function of the) series, optionally `by` labels.
AGGREGATIONS = ("sum", "avg", "max", "min", "count")

RangeFunction = Literal[
    "rate",
    "irate",
    "increase",
    "delta",
    "avg_over_time",
    "max_over_time",
    "min_over_time",
    "sum_over_time",
    "count_over_time",
    "last_over_time",
]
Aggregation = Literal["sum", "avg", "max", "min", "count"]
MatchOp = Literal["=", "!=", "=~", "!~"]


def quote(value: str) -> str:
    """A double-quoted PromQL/LogQL/Alertmanager string literal: `\\` and `"` escaped.

    Control characters are refused by the models before this is reached; the check here keeps the
    function safe on its own.
    """
    if _CONTROL.search(value):
        raise ValueError("control characters are not allowed in a label value")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_label_name(label: str) -> str:
    """`label` when it is a plain label name; `ValueError` for others and `__`-prefixed ones."""
    if not re.match(LABEL_NAME_PATTERN, label) or label.startswith("__"):
        raise ValueError(f"invalid label name {label[:40]!r}")
    return label


def window_seconds(window: str) -> int:
    """`5m` → 300; `ValueError` for anything but `<n><s|m|h|d>` within 1 s .. 31 d."""
    match = _WINDOW.match(window)
    if match is None:
        raise ValueError(f"invalid window {window!r}: use a number and one unit s, m, h or d (e.g. 5m)")
    seconds = int(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds > _MAX_WINDOW_SECONDS:
        raise ValueError(f"window {window!r} is longer than 31d")
    return seconds


class LabelMatcher(BaseModel):
    """One label matcher: `label op "value"`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str = Field(pattern=LABEL_NAME_PATTERN, description="Label name.")
    op: MatchOp = Field("=", description="= equal, != not equal, =~ regex match, !~ regex non-match.")
    value: str = Field(max_length=200, description="Label value (a RE2 regex for =~ and !~).")

    @field_validator("label")
    @classmethod
    def _not_internal(cls, value: str) -> str:
        return check_label_name(value)

    @field_validator("value")
    @classmethod
    def _no_control(cls, value: str) -> str:
        if _CONTROL.search(value):
            raise ValueError("control characters are not allowed in a label value")
        return value

    def render(self) -> str:
        return f"{self.label}{self.op}{quote(self.value)}"


def render_matchers(matchers: list[LabelMatcher]) -> str:
    """`{a="1",b!~"x.*"}`, sorted for a stable expression; `` when there are none."""
    if not matchers:
        return ""
    ordered = sorted(matchers, key=lambda m: (m.label, m.op, m.value))
    return "{" + ",".join(m.render() for m in ordered) + "}"


class MetricQuery(BaseModel):
    """The parts of one PromQL expression (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    name: str = Field(pattern=METRIC_NAME_PATTERN, description="Metric name, exact.")
    matchers: tuple[LabelMatcher, ...] = Field((), max_length=10)
    function: RangeFunction | None = None
    window: str | None = None
    aggregate: Aggregation | None = None
    by: tuple[str, ...] = Field((), max_length=10)
    quantile: float | None = Field(None, gt=0, lt=1)

    @field_validator("window")
    @classmethod
    def _window(cls, value: str | None) -> str | None:
        if value is not None:
            window_seconds(value)
        return value

    @field_validator("by")
    @classmethod
    def _by(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for label in value:
            check_label_name(label)
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _consistent(self) -> MetricQuery:
        if self.function is not None and self.window is None:
            raise ValueError(f"function {self.function} needs a window such as 5m")
        if self.function is None and self.window is not None:
            raise ValueError("a window needs a function (rate, increase, max_over_time, ...)")
        if self.by and self.aggregate is None and self.quantile is None:
            raise ValueError("'by' needs an aggregate (sum, avg, max, min, count) or a quantile")
        if self.quantile is not None:
            if not self.name.endswith("_bucket"):
                raise ValueError("a quantile needs a histogram's _bucket metric")
            if self.function != "rate":
                raise ValueError("a quantile is computed over rate(<name>_bucket[window])")
            if self.aggregate not in (None, "sum"):
                raise ValueError("a quantile sums the buckets; aggregate must be sum or unset")
            if "le" in self.by:
                raise ValueError("'le' is added to a quantile's grouping by itself")
        return self

    def promql(self) -> str:
        """The expression, e.g. `sum by (service) (rate(http_requests_total{code=~"5.."}[5m]))`."""
        expr = self.name + render_matchers(list(self.matchers))
        if self.function is not None:
            expr = f"{self.function}({expr}[{self.window}])"
        if self.quantile is not None:
            grouping = ", ".join(("le", *self.by))
            return f"histogram_quantile({self.quantile!r}, sum by ({grouping}) ({expr}))"
        if self.aggregate is not None:
            grouping = f" by ({', '.join(self.by)})" if self.by else ""
            expr = f"{self.aggregate}{grouping} ({expr})"
        return expr

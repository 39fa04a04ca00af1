"""A Loki HTTP API client (`GET /loki/api/v1/query_range`) and LogQL built from checked parts.

LogQL is written by `LogQuery.logql()` from a stream selector of `LabelMatcher`s, line filters
(`|=`, `!=`, `|~`, `!~` with a quoted text) and label filters after the selector
(`| level=~"(?i)error|err"`), with the quoting of `groundgate.aiops.promql`: a value cannot end its
string, its selector or the pipeline. `regex_literal` escapes a text for use inside a RE2 regex
(case-insensitive keyword search is `|~ "(?i)<escaped>"`).

`query_range` parameters: `query`, `start` and `end` (Unix nanoseconds), `limit`, `direction`
(`forward` | `backward`). A log query answers `{"status": "success", "data": {"resultType": "streams",
"result": [{"stream": {labels}, "values": [["<unix ns>", "<line>"], ...]}]}}`; newer servers may add
structured metadata as a third element of a value, which is read into the line's labels. Loki's
errors are plain text bodies (`parse error at line 1, col 5: ...`), kept in `ConnectorHTTPError`.

Multi-tenant Loki selects the tenant with the `X-Scope-OrgID` header: `query_range(org_id=...)`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from groundgate.aiops.http import MonitoringClient
from groundgate.aiops.promql import LabelMatcher, quote, render_matchers
from groundgate.errors import ConnectorResponseError

__all__ = ["LineFilter", "LogQuery", "LokiClient", "LokiLine", "regex_literal"]

SYSTEM = "loki"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_RE2_META = re.compile(r"([\\.+*?()|\[\]{}^$])")


def regex_literal(text: str) -> str:
    """`text` as a RE2 pattern matching exactly it (Go's `regexp.QuoteMeta`)."""
    return _RE2_META.sub(r"\\\1", text)


class LineFilter(BaseModel):
    """`|= "text"` (contains), `!= "text"`, `|~ "re2"`, `!~ "re2"`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    op: Literal["|=", "!=", "|~", "!~"]
    text: str = Field(min_length=1, max_length=1000)

    @field_validator("text")
    @classmethod
    def _no_control(cls, value: str) -> str:
        if _CONTROL.search(value):
            raise ValueError("control characters are not allowed in a line filter")
        return value

    def render(self) -> str:
        return f"{self.op} {quote(self.text)}"


class LogQuery(BaseModel):
    """The parts of one LogQL log query (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    selector: tuple[LabelMatcher, ...] = Field(min_length=1, max_length=10)
    line_filters: tuple[LineFilter, ...] = Field((), max_length=12)
    label_filters: tuple[LabelMatcher, ...] = Field((), max_length=10)

    def logql(self) -> str:
        parts = [render_matchers(list(self.selector))]
        parts += [item.render() for item in self.line_filters]
        parts += [f"| {item.render()}" for item in self.label_filters]
        return " ".join(parts)


@dataclass(slots=True, frozen=True)
class LokiLine:
    """One log line: its time, its stream's labels (plus structured metadata) and its text."""

    ts: datetime
    ts_ns: int
    labels: dict[str, str]
    line: str


def _ns(value: datetime) -> str:
    return str(int(value.timestamp() * 1_000_000) * 1000)


def _lines(data: object) -> list[LokiLine]:
    if not isinstance(data, Mapping):
        raise ValueError("'data' is not an object")
    if data.get("resultType") != "streams" or not isinstance(data.get("result"), list):
        raise ValueError(f"expected resultType 'streams', got {data.get('resultType')!r}")
    lines: list[LokiLine] = []
    for stream in data["result"]:
        if not isinstance(stream, Mapping) or not isinstance(stream.get("stream"), Mapping):
            raise ValueError("a stream must be an object with 'stream' labels")
        labels = {str(k): str(v) for k, v in stream["stream"].items()}
        values = stream.get("values")
        if not isinstance(values, list):
            raise ValueError("a stream must have 'values'")
        for value in values:
            if not isinstance(value, list) or len(value) not in (2, 3):
                raise ValueError('a value must be ["<ns>", "<line>"(, metadata)]')
            ns_text, text = value[0], value[1]
            if not isinstance(ns_text, str) or not ns_text.isdigit() or not isinstance(text, str):
                raise ValueError(f"bad value {str(value)[:60]}")
            ns = int(ns_text)
            extra = value[2] if len(value) == 3 and isinstance(value[2], Mapping) else {}
            merged = {**labels, **{str(k): str(v) for k, v in extra.items()}}
            ts = datetime.fromtimestamp(ns // 10**9, UTC) + timedelta(microseconds=ns % 10**9 // 1000)
            lines.append(LokiLine(ts, ns, merged, text))
    return lines


class LokiClient(MonitoringClient):
    """Reads one Loki (see the module docstring)."""

    system = SYSTEM

    def query_range(
        self,
        query: str,
        *,
        start: datetime,
        end: datetime,
        limit: int = 100,
        direction: Literal["forward", "backward"] = "backward",
        org_id: str | None = None,
    ) -> list[LokiLine]:
        """Lines of a log query over `start .. end`, at most `limit`, in `direction` order."""
        params = [
            ("query", query),
            ("start", _ns(start)),
            ("end", _ns(end)),
            ("limit", str(limit)),
            ("direction", direction),
        ]
        headers = {"X-Scope-OrgID": org_id} if org_id else None
        body = self.endpoint.get_json("/loki/api/v1/query_range", params, headers=headers)
        if not isinstance(body, Mapping) or body.get("status") != "success":
            raise ConnectorResponseError(f"loki answered without success: {str(body)[:200]}", system=SYSTEM)
        try:
            lines = _lines(body.get("data"))
        except ValueError as exc:
            raise ConnectorResponseError(
                f"loki answered with an unexpected result: {exc}", system=SYSTEM
            ) from exc
        # Streams come one after another; the caller asked for one time order across all of them.
        lines.sort(key=lambda item: item.ts_ns, reverse=direction == "backward")
        return lines[:limit]

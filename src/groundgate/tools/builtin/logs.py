"""`LogStore` (logs in SQLite with an FTS5 trigram index) and the `query_logs` tool.

Input formats
-------------

- JSONL, one object per line: `ts`, `service`, `level`, `trace_id`, `tenant`, `message` (`message`
  is required; `msg`, `timestamp`/`time`/`@timestamp`, `traceId` are accepted aliases). Other keys
  are kept as `attrs`. A line that is not a JSON object, lacks a message or has a bad `ts` is
  counted as invalid with its line number.
- Plain text, best effort: `2026-03-14T14:05:03.120Z ERROR payment-gateway [trace=4f1c9a2e] message`
  (the bracket is optional and may hold `trace=`/`trace_id=`/`tenant=` pairs; a `trace_id=` in the
  message is picked up too). A line that does not parse is kept whole as a message with service
  `unknown`, level `UNKNOWN` and no time, and counted as `unparsed`.

Tenancy: every read is scoped by tenant. A line's tenant is its own (`tenant` field or `tenant=`
pair), else the `tenant` given to `load_*`. A line with a tenant is readable by that tenant only.
A line without any tenant (`"tenant": null`) is a **platform line** — infrastructure such as pool
statistics or channel probes, counted as `untenanted` in the load report — and readable by every
tenant while the store's `platform_lines` is True (the default, like the platform-wide metrics).
A deployment whose untagged logs may carry tenant data sets `platform_lines=False`: then such lines
are readable by no one (fail-closed). A platform line's fact has scope `platform`, others `tenant`.

Search
------

- `trace_id`: case-insensitive; matches when either id is a prefix of the other, so a full id
  finds the 8-character short form of text logs and vice versa (at least 8 characters).
- `service`: exact, case-insensitive. `level`: one or more levels; `WARNING` ≡ `WARN`, `ERR` ≡ `ERROR`.
- `start`/`end`: UTC, inclusive (`start ≤ ts ≤ end`); lines without a time never match a range.
- `keywords`: case-insensitive substrings of the message (Chinese and identifiers such as
  `ERR_TIMEOUT` or `order_id=ORD-20260314-00042` alike). Keywords of three or more characters use
  the FTS5 `trigram` index (a quoted phrase: exact substring semantics); shorter ones, such as the
  two-character `超时`, scan with `instr`. `keyword_mode` `any` (default) needs one keyword, `all`
  needs every one.

Ids: a line's `fact_ref` is `log:` + the first 16 hex digits of SHA-256 over its source name,
line number and raw text, so it is stable across reloads and rebuilds of the store. The count fact
is `logcount:` + a hash of the tenant and the normalised filters.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

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
from groundgate.tools.builtin.stores import EmbeddedStore, LoadReport, iter_json_objects, iter_lines
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = [
    "LOGS_TOOL",
    "MAX_LOG_LIMIT",
    "LogLine",
    "LogQueryResult",
    "LogStore",
    "QueryLogsArgs",
    "normalise_level",
    "query_logs_tool",
]

#: Name of the log tool.
LOGS_TOOL = "query_logs"
#: Most lines one query may return.
MAX_LOG_LIMIT = 200
#: Messages longer than this are cut (with `…`) in tool output; the store keeps them whole.
MAX_MESSAGE_CHARS = 2000

UNKNOWN_SERVICE = "unknown"
UNKNOWN_LEVEL = "UNKNOWN"

_LEVEL_ALIASES = {"WARNING": "WARN", "ERR": "ERROR", "INFORMATION": "INFO", "CRIT": "CRITICAL"}
_TEXT_LEVELS = "TRACE|DEBUG|INFO|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT"
_TEXT_LINE = re.compile(
    r"^(?P<ts>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)\s+"
    rf"\[?(?P<level>{_TEXT_LEVELS})\]?\s+"
    r"(?P<service>[A-Za-z0-9_.:/-]+)\s*"
    r"(?:\[(?P<meta>[^\]]*)\]\s*)?"
    r"(?P<message>.*)$",
    re.IGNORECASE,
)
_PAIR = re.compile(r"([A-Za-z_]+)=([^\s,;]+)")
_TRACE_IN_MESSAGE = re.compile(r"\btrace(?:_id|Id|id)?=([0-9A-Za-z_-]{8,64})")
_TRACE_KEYS = {"trace", "trace_id", "traceid"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS log_lines (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    line_no INTEGER NOT NULL,
    ref TEXT NOT NULL,
    source TEXT NOT NULL,
    ts_us INTEGER,
    service TEXT NOT NULL,
    level TEXT NOT NULL,
    trace_id TEXT,
    tenant TEXT,
    message TEXT NOT NULL,
    attrs TEXT
);
CREATE INDEX IF NOT EXISTS log_lines_tenant_ts ON log_lines (tenant, ts_us);
CREATE INDEX IF NOT EXISTS log_lines_tenant_trace ON log_lines (tenant, trace_id);
CREATE INDEX IF NOT EXISTS log_lines_ref ON log_lines (ref);
CREATE INDEX IF NOT EXISTS log_lines_file ON log_lines (file_id);
"""


def normalise_level(level: str) -> str:
    """Upper case with aliases folded: `warning` → `WARN`, `err` → `ERROR`."""
    upper = level.strip().upper()
    return _LEVEL_ALIASES.get(upper, upper)


# --------------------------------------------------------------------------- records


@dataclass(slots=True)
class _Record:
    line_no: int
    raw: str
    ts_us: int | None
    service: str
    level: str
    trace_id: str | None
    tenant: str | None
    message: str
    attrs: dict[str, Any] | None


class LogLine(BaseModel):
    """One stored log line, as a query returns it (the tenant is deliberately not part of it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_ref: str
    ts: datetime | None
    service: str
    level: str
    trace_id: str | None = None
    message: str
    source: str
    """The file name the line came from."""
    line_no: int
    platform: bool = False
    """A platform line (no tenant), shared by every tenant."""
    attrs: dict[str, Any] = Field(default_factory=dict)

    def as_fact_value(self) -> dict[str, Any]:
        """The fact value: time (UTC ISO), service, level, trace id, message, `source:line`, attrs."""
        message = self.message
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[: MAX_MESSAGE_CHARS - 1] + "…"
        value: dict[str, Any] = {
            "ts": format_utc(self.ts) if self.ts else None,
            "service": self.service,
            "level": self.level,
            "trace_id": self.trace_id,
            "message": message,
            "source": f"{self.source}:{self.line_no}",
        }
        if self.attrs:
            value["attrs"] = self.attrs
        return {key: item for key, item in value.items() if item is not None}


class LogQueryResult(BaseModel):
    """Matched lines (at most `limit`), the total match count and its breakdowns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lines: list[LogLine]
    total: int
    """All matching lines; `lines` shows the first `limit` of them."""
    by_level: dict[str, int]
    by_service: dict[str, int]
    keyword_hits: dict[str, int] = Field(default_factory=dict)
    """Per keyword: lines matching it together with the other (non-keyword) filters."""


def _line_ref(source: str, line_no: int, raw: str) -> str:
    digest = hashlib.sha256(f"{source}\x00{line_no}\x00{raw}".encode()).hexdigest()
    return f"log:{digest[:16]}"


def _clean_trace(value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    return text or None


def _json_record(line_no: int, raw: str, obj: dict[str, Any], tenant: str | None) -> _Record | str:
    """A record, or the reason the object is not a log line."""
    data = dict(obj)
    message = data.pop("message", None)
    if message is None:
        message = data.pop("msg", None)
    if not isinstance(message, str):
        return "missing string field 'message'"
    ts_value = None
    for key in ("ts", "timestamp", "time", "@timestamp"):
        if key in data:
            ts_value = data.pop(key)
            break
    ts_us: int | None = None
    if ts_value is not None:
        try:
            ts_us = to_epoch_us(parse_timestamp(ts_value))
        except (ValueError, OverflowError):
            return f"bad timestamp {str(ts_value)[:40]!r}"
    trace = None
    for key in ("trace_id", "traceId", "trace"):
        if key in data:
            trace = _clean_trace(data.pop(key))
            break
    service = data.pop("service", None)
    level = data.pop("level", None)
    line_tenant = data.pop("tenant", None)
    return _Record(
        line_no=line_no,
        raw=raw,
        ts_us=ts_us,
        service=str(service).strip() if service not in (None, "") else UNKNOWN_SERVICE,
        level=normalise_level(str(level)) if level not in (None, "") else UNKNOWN_LEVEL,
        trace_id=trace,
        tenant=str(line_tenant).strip() if line_tenant not in (None, "") else tenant,
        message=message,
        attrs=data or None,
    )


def _text_record(line_no: int, raw: str, tenant: str | None) -> tuple[_Record, bool]:
    """A record and whether the line parsed (else it is kept whole as a bare message)."""
    match = _TEXT_LINE.match(raw.strip())
    ts_us: int | None = None
    if match is not None:
        try:
            ts_us = to_epoch_us(parse_timestamp(match["ts"]))
        except (ValueError, OverflowError):
            match = None
    if match is None:
        record = _Record(line_no, raw, None, UNKNOWN_SERVICE, UNKNOWN_LEVEL, None, tenant, raw.strip(), None)
        return record, False
    trace: str | None = None
    line_tenant = tenant
    for key, value in _PAIR.findall(match["meta"] or ""):
        folded = key.lower()
        if folded in _TRACE_KEYS:
            trace = _clean_trace(value)
        elif folded == "tenant":
            line_tenant = value
    message = match["message"].strip()
    if trace is None:
        found = _TRACE_IN_MESSAGE.search(message)
        trace = _clean_trace(found.group(1)) if found else None
    record = _Record(
        line_no=line_no,
        raw=raw,
        ts_us=ts_us,
        service=match["service"],
        level=normalise_level(match["level"]),
        trace_id=trace,
        tenant=line_tenant,
        message=message,
        attrs=None,
    )
    return record, True


# --------------------------------------------------------------------------- the store


class LogStore(EmbeddedStore):
    """Log lines in SQLite with an FTS5 trigram index over messages (see the module docstring).

    `full_text=False` (or a SQLite without FTS5/trigram) answers keywords by scanning instead;
    the results are the same, only slower on large stores. `platform_lines` decides whether lines
    without a tenant are readable by every tenant (True) or by none (False).
    """

    kind = "log"
    schema = _SCHEMA

    def __init__(
        self, path: str | Path = ":memory:", *, full_text: bool = True, platform_lines: bool = True
    ) -> None:
        super().__init__(path)
        self.platform_lines = platform_lines
        """Whether lines without a tenant are readable by every tenant."""
        self._fts_table = False
        with self._lock:
            exists = (
                self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'log_fts'").fetchone()
                is not None
            )
            if not exists and full_text:
                try:
                    with self._conn:
                        self._conn.execute(
                            "CREATE VIRTUAL TABLE log_fts USING fts5(message, tokenize='trigram')"
                        )
                        self._conn.execute(
                            "INSERT INTO log_fts (rowid, message) SELECT id, message FROM log_lines"
                        )
                    exists = True
                except sqlite3.OperationalError:
                    exists = False
            self._fts_table = exists
        self.full_text = full_text and self._fts_table
        """Whether keyword search uses the trigram index."""

    # ------------------------------------------------------------------ loading

    def _delete_file_records(self, conn: sqlite3.Connection, file_id: int) -> None:
        if self._fts_table:
            conn.execute(
                "DELETE FROM log_fts WHERE rowid IN (SELECT id FROM log_lines WHERE file_id = ?)", (file_id,)
            )
        conn.execute("DELETE FROM log_lines WHERE file_id = ?", (file_id,))

    def _write(self, conn: sqlite3.Connection, file_id: int, source: str, record: _Record) -> bool:
        cursor = conn.execute(
            "INSERT INTO log_lines (file_id, line_no, ref, source, ts_us, service, level, trace_id,"
            " tenant, message, attrs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                file_id,
                record.line_no,
                _line_ref(source, record.line_no, record.raw),
                source,
                record.ts_us,
                record.service,
                record.level,
                record.trace_id,
                record.tenant,
                record.message,
                json.dumps(record.attrs, ensure_ascii=False, default=str) if record.attrs else None,
            ),
        )
        if self._fts_table:
            conn.execute(
                "INSERT INTO log_fts (rowid, message) VALUES (?, ?)", (cursor.lastrowid, record.message)
            )
        return record.tenant is not None

    def load_jsonl(
        self, path: str | Path, *, tenant: str | None = None, source: str | None = None
    ) -> LoadReport:
        """Load a JSONL log file; `tenant` is the default for lines that carry none."""
        name = source or Path(path).name

        def records(file: Path, report: LoadReport) -> Iterator[_Record]:
            for line_no, obj in iter_json_objects(file, report):
                outcome = _json_record(
                    line_no, json.dumps(obj, sort_keys=True, ensure_ascii=False), obj, tenant
                )
                if isinstance(outcome, str):
                    report.add_invalid(line_no, outcome)
                else:
                    yield outcome

        return self._load(path, name, records, lambda conn, fid, rec: self._write(conn, fid, name, rec))

    def load_text(
        self, path: str | Path, *, tenant: str | None = None, source: str | None = None
    ) -> LoadReport:
        """Load a plain-text log file (best effort); `tenant` is the default for lines without one."""
        name = source or Path(path).name

        def records(file: Path, report: LoadReport) -> Iterator[_Record]:
            for line_no, text in iter_lines(file):
                if text is None:
                    report.add_invalid(line_no, "not valid UTF-8")
                    continue
                record, parsed = _text_record(line_no, text, tenant)
                if not parsed:
                    report.unparsed += 1
                yield record

        return self._load(path, name, records, lambda conn, fid, rec: self._write(conn, fid, name, rec))

    # ------------------------------------------------------------------ reading

    def query(
        self,
        tenant: str,
        *,
        trace_id: str | None = None,
        service: str | None = None,
        level: str | Sequence[str] | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        keywords: str | Sequence[str] | None = None,
        keyword_mode: Literal["any", "all"] = "any",
        limit: int = 50,
        order: Literal["asc", "desc"] = "asc",
    ) -> LogQueryResult:
        """Lines of `tenant` matching every given filter, oldest first (or newest with `desc`)."""
        if not tenant or not tenant.strip():
            raise UsageError("a tenant is required to read logs")
        if not 1 <= limit <= MAX_LOG_LIMIT:
            raise UsageError(f"limit must be between 1 and {MAX_LOG_LIMIT}")
        words = [keywords] if isinstance(keywords, str) else list(keywords or [])
        words = [word for word in words if word.strip()]
        levels = [level] if isinstance(level, str) else list(level or [])

        base: list[str] = [self._tenant_clause("l")]
        params: list[Any] = [tenant]
        if trace_id:
            trace = trace_id.strip().lower()
            base.append(
                "(l.trace_id = ? OR substr(l.trace_id, 1, ?) = ?"
                " OR (length(l.trace_id) >= 8 AND substr(?, 1, length(l.trace_id)) = l.trace_id))"
            )
            params += [trace, len(trace), trace, trace]
        if service:
            base.append("l.service = ? COLLATE NOCASE")
            params.append(service.strip())
        if levels:
            base.append(f"l.level IN ({', '.join('?' for _ in levels)})")
            params += [normalise_level(item) for item in levels]
        if start is not None:
            base.append("l.ts_us >= ?")
            params.append(to_epoch_us(start))
        if end is not None:
            base.append("l.ts_us <= ?")
            params.append(to_epoch_us(end))

        keyword_clauses = [self._keyword_clause(word) for word in words]
        where = list(base)
        where_params = list(params)
        if keyword_clauses:
            joiner = " OR " if keyword_mode == "any" else " AND "
            where.append("(" + joiner.join(clause for clause, _ in keyword_clauses) + ")")
            where_params += [value for _, value in keyword_clauses]
        condition = " AND ".join(where)
        direction = "DESC" if order == "desc" else "ASC"

        def read(conn: sqlite3.Connection) -> LogQueryResult:
            total = int(
                conn.execute(f"SELECT count(*) FROM log_lines l WHERE {condition}", where_params).fetchone()[
                    0
                ]
            )
            by_level = {
                row[0]: int(row[1])
                for row in conn.execute(
                    f"SELECT l.level, count(*) FROM log_lines l WHERE {condition}"
                    " GROUP BY l.level ORDER BY count(*) DESC, l.level",
                    where_params,
                )
            }
            by_service = {
                row[0]: int(row[1])
                for row in conn.execute(
                    f"SELECT l.service, count(*) FROM log_lines l WHERE {condition}"
                    " GROUP BY l.service ORDER BY count(*) DESC, l.service",
                    where_params,
                )
            }
            rows = conn.execute(
                "SELECT l.ref, l.ts_us, l.service, l.level, l.trace_id, l.message, l.source, l.line_no,"
                f" l.tenant IS NULL AS platform, l.attrs FROM log_lines l WHERE {condition}"
                f" ORDER BY l.ts_us IS NULL, l.ts_us {direction}, l.id {direction} LIMIT ?",
                [*where_params, limit],
            ).fetchall()
            hits: dict[str, int] = {}
            base_condition = " AND ".join(base)
            for word, (clause, value) in zip(words, keyword_clauses, strict=True):
                hits[word] = int(
                    conn.execute(
                        f"SELECT count(*) FROM log_lines l WHERE {base_condition} AND {clause}",
                        [*params, value],
                    ).fetchone()[0]
                )
            return LogQueryResult(
                lines=[_row_line(row) for row in rows],
                total=total,
                by_level=by_level,
                by_service=by_service,
                keyword_hits=hits,
            )

        return self._read(read)

    def _tenant_clause(self, alias: str) -> str:
        """Lines `tenant` may read: its own, plus platform lines when they are shared."""
        if self.platform_lines:
            return f"({alias}.tenant = ? OR {alias}.tenant IS NULL)"
        return f"{alias}.tenant = ?"

    def _keyword_clause(self, word: str) -> tuple[str, str]:
        """A parameterised clause and its value for one keyword (see the module docstring)."""
        text = word.strip()
        if self.full_text and len(text) >= 3:
            phrase = '"' + text.replace('"', '""') + '"'
            return "l.id IN (SELECT rowid FROM log_fts WHERE log_fts MATCH ?)", phrase
        return "instr(lower(l.message), ?) > 0", text.lower()

    def get_line(self, tenant: str, fact_ref: str) -> LogLine | None:
        """Re-read one line by its fact ref, under `tenant` (None when absent or another tenant's)."""

        def read(conn: sqlite3.Connection) -> LogLine | None:
            row = conn.execute(
                "SELECT l.ref, l.ts_us, l.service, l.level, l.trace_id, l.message, l.source, l.line_no,"
                f" l.tenant IS NULL AS platform, l.attrs FROM log_lines l WHERE l.ref = ? AND {self._tenant_clause('l')}"
                " ORDER BY l.id LIMIT 1",
                (fact_ref, tenant),
            ).fetchone()
            return _row_line(row) if row is not None else None

        return self._read(read)

    def services(self, tenant: str) -> list[str]:
        """The services that logged for `tenant`, sorted."""

        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                f"SELECT DISTINCT l.service FROM log_lines l WHERE {self._tenant_clause('l')} ORDER BY l.service",
                (tenant,),
            )
            return [str(row[0]) for row in rows]

        return self._read(read)

    def latest(self) -> datetime | None:
        """When the newest stored line was written (every tenant), None when no line has a time."""
        row = self._read(lambda conn: conn.execute("SELECT max(ts_us) FROM log_lines").fetchone())
        return from_epoch_us(row[0]) if row and row[0] is not None else None

    def tenants(self) -> set[str]:
        """Every tenant with a stored line (platform-wide lines have none). Internal only: the
        question reader uses it to tell a tenant's name from an ordinary word, never to answer."""
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT DISTINCT tenant FROM log_lines WHERE tenant IS NOT NULL"
            ).fetchall()
        )
        return {str(row[0]) for row in rows}

    def count(self) -> int:
        """All stored lines, every tenant (for diagnostics)."""
        return self._read(lambda conn: int(conn.execute("SELECT count(*) FROM log_lines").fetchone()[0]))


def _row_line(row: sqlite3.Row) -> LogLine:
    return LogLine(
        fact_ref=row["ref"],
        ts=from_epoch_us(row["ts_us"]) if row["ts_us"] is not None else None,
        service=row["service"],
        level=row["level"],
        trace_id=row["trace_id"],
        message=row["message"],
        source=row["source"],
        line_no=row["line_no"],
        platform=bool(row["platform"]),
        attrs=json.loads(row["attrs"]) if row["attrs"] else {},
    )


# --------------------------------------------------------------------------- the tool


class QueryLogsArgs(ToolArguments):
    """Arguments of `query_logs`. Every filter is optional; given filters must all match.

    The tenant is never an argument: the registry's `ExecutionContext` scopes the query.
    """

    trace_id: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9_-]{8,64}$",
        description="Trace id, full or its first 8+ characters (prefix match either way).",
    )
    service: str | None = Field(None, min_length=1, max_length=100, description="Service name (exact).")
    level: list[str] | None = Field(
        None,
        max_length=6,
        description="Log level(s): TRACE, DEBUG, INFO, WARN, ERROR, FATAL (WARNING/ERR accepted).",
    )
    start: UtcDatetime | None = Field(None, description="Earliest time, ISO 8601 (UTC if no offset).")
    end: UtcDatetime | None = Field(None, description="Latest time, inclusive, ISO 8601.")
    keywords: list[str] | None = Field(
        None,
        max_length=10,
        description="Substrings to find in messages (any language, identifiers such as ERR_TIMEOUT).",
    )
    keyword_mode: Literal["any", "all"] = Field("any", description="Match any keyword, or all of them.")
    limit: int = Field(50, ge=1, le=MAX_LOG_LIMIT, description=f"Lines to return (at most {MAX_LOG_LIMIT}).")
    order: Literal["asc", "desc"] = Field("asc", description="Oldest first (asc) or newest first (desc).")

    @field_validator("trace_id")
    @classmethod
    def _lower_trace(cls, value: str | None) -> str | None:
        return value.lower() if value else value

    @field_validator("level", "keywords", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("level")
    @classmethod
    def _levels(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        levels = sorted({normalise_level(item) for item in value})
        for item in levels:
            if not re.fullmatch(r"[A-Z]{3,10}", item):
                raise ValueError(f"not a log level: {item!r}")
        return levels or None

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        words = sorted({" ".join(word.split()) for word in value} - {""})
        for word in words:
            if len(word) > 200:
                raise ValueError("a keyword is at most 200 characters")
        return words or None

    @model_validator(mode="after")
    def _range(self) -> QueryLogsArgs:
        if self.start is not None and self.end is not None and self.start > self.end:
            raise ValueError("start is after end")
        return self


def _filters_text(args: QueryLogsArgs) -> str:
    parts: list[str] = []
    if args.trace_id:
        parts.append(f"trace_id={args.trace_id}")
    if args.service:
        parts.append(f"service={args.service}")
    if args.level:
        parts.append(f"level={'/'.join(args.level)}")
    if args.start:
        parts.append(f"from {format_utc(args.start)}")
    if args.end:
        parts.append(f"to {format_utc(args.end)}")
    if args.keywords:
        joiner = " or " if args.keyword_mode == "any" else " and "
        parts.append("keywords " + joiner.join(repr(word) for word in args.keywords))
    return ", ".join(parts) or "no filters"


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


def query_logs_tool(store: LogStore) -> tuple[ToolSpec, ToolFunction[QueryLogsArgs]]:
    """The `query_logs` tool over `store` (policy `tenant`).

    OK: one `log.line` fact per shown line (value: `LogLine.as_fact_value()`), one `log.count` fact
    (total, shown, by level, by service, keyword hits, filters), one evidence ref per line, the
    observation `shown N of M lines; levels: ERROR 120, WARN 14; services: ...`. EMPTY when no line
    matches, with gaps naming what was asked (and, for an unknown service, the known ones).
    """
    spec = ToolSpec(
        name=LOGS_TOOL,
        description=(
            "Search application logs by trace id, service, level, time range and keywords."
            " Returns matching lines (shown N of M) with counts by level and service."
        ),
        argument_model=QueryLogsArgs,
        authorization_policy="tenant",
        timeout_seconds=5.0,
    )

    def run(args: QueryLogsArgs, ctx: ExecutionContext) -> ToolOutput:
        result = store.query(
            ctx.tenant,
            trace_id=args.trace_id,
            service=args.service,
            level=args.level,
            start=args.start,
            end=args.end,
            keywords=args.keywords,
            keyword_mode=args.keyword_mode,
            limit=args.limit,
            order=args.order,
        )
        filters = _filters_text(args)
        gaps: list[str] = []
        if args.service and not result.total:
            known = store.services(ctx.tenant)
            if args.service.lower() not in {name.lower() for name in known}:
                listed = ", ".join(known[:20]) or "none"
                gaps.append(f"service {args.service!r} has no logs; known services: {listed}")
        if any(result.keyword_hits.values()):  # else the first gap already says every keyword missed
            gaps += [
                f"keyword {w!r} matched no log lines" for w, hits in result.keyword_hits.items() if not hits
            ]
        if not result.total:
            gaps.insert(0, f"no log lines match ({filters})")
            return ToolOutput(
                status=ToolStatus.EMPTY, gaps=gaps, observation=f"0 log lines match ({filters})"
            )

        now = utc_now()
        snapshot = {"tenant": ctx.tenant, "user": ctx.user}
        facts = [
            VerifiedFact(
                fact_ref=line.fact_ref,
                fact_type="log.line",
                value=line.as_fact_value(),
                source_system="log_store",
                queried_at=now,
                scope="platform" if line.platform else "tenant",
                authorization_snapshot=snapshot,
            )
            for line in result.lines
        ]
        shown = len(result.lines)
        summary_key = json.dumps(
            {"tenant": ctx.tenant, "args": args.model_dump(mode="json", exclude_none=True)}, sort_keys=True
        )
        facts.append(
            VerifiedFact(
                fact_ref="logcount:" + hashlib.sha256(summary_key.encode()).hexdigest()[:16],
                fact_type="log.count",
                value={
                    "total": result.total,
                    "shown": shown,
                    "by_level": result.by_level,
                    "by_service": result.by_service,
                    "keyword_hits": result.keyword_hits,
                    "filters": filters,
                },
                source_system="log_store",
                queried_at=now,
                ttl_seconds=60,
                scope="tenant",
                authorization_snapshot=snapshot,
            )
        )
        observation = (
            f"shown {shown} of {result.total} lines; levels: {_counts_text(result.by_level)};"
            f" services: {_counts_text(result.by_service)}"
        )
        return ToolOutput(
            status=ToolStatus.OK,
            facts=facts,
            gaps=gaps,
            observation=observation,
            source_documents=sorted({line.source for line in result.lines}),
            evidence_refs=[EvidenceRef(invocation_id="", citation_id=line.fact_ref) for line in result.lines],
        )

    return spec, run

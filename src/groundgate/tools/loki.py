"""`query_logs` over Loki: the embedded tool's arguments and facts, LogQL built in code.

When `[loki] url` is configured, `groundgate.wiring` registers this tool instead of the one over the
embedded `LogStore`. The arguments are the embedded tool's own (`QueryLogsArgs`), mapped to LogQL
by `groundgate.aiops.loki.LogQuery` — never LogQL from a model:

| argument | LogQL |
|---|---|
| `service` | stream selector `{<service_label>="..."}` (else `{<service_label>=~".+"}`) |
| `level` | label filter `\\| <level_label>=~"(?i)error\\|err"` (aliases of each level included) |
| `trace_id` | line filter `\\|~ "(?i)<id>"` |
| `keywords` | `all`: one `\\|~ "(?i)<escaped keyword>"` each; `any`: one alternation |
| `start`, `end` | the query range (an hour before `end`, which defaults to now) |
| `limit`, `order` | `limit`, `direction` (`asc` → forward, `desc` → backward) |

Tenancy (`[loki] tenant_mode`): `org_id` sends the caller's tenant as `X-Scope-OrgID` (Loki's own
multi-tenancy; a single-tenant Loki ignores it), `label` adds `{<tenant_label>="<tenant>"}` to the
selector, `platform` reads platform-wide logs (like metrics). The tenant always comes from the
`ExecutionContext`, never from arguments.

Facts: one `log.line` per line (the embedded value: ts, service, level, trace_id, message, source
`loki:<stream>`) and one `log.count`. Loki returns lines, not a total, so `total` is the number of
lines returned and, when that reached `limit`, a gap says there may be more (`complete: false`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from groundgate.aiops.loki import LineFilter, LogQuery, LokiClient, LokiLine, regex_literal
from groundgate.aiops.promql import LabelMatcher
from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.tools.builtin.clock import format_utc, utc_now
from groundgate.tools.builtin.logs import LOGS_TOOL, MAX_MESSAGE_CHARS, QueryLogsArgs, normalise_level
from groundgate.tools.registry import ToolFunction

__all__ = ["TenantMode", "build_log_query", "loki_logs_tool"]

TenantMode = Literal["org_id", "label", "platform"]
#: A query without `start` looks back this far from `end`.
DEFAULT_LOOKBACK = timedelta(hours=1)
#: Spellings of each normalised level found in real logs.
_LEVEL_SPELLINGS = {
    "WARN": ("warn", "warning"),
    "ERROR": ("error", "err"),
    "INFO": ("info", "information"),
    "CRITICAL": ("critical", "crit"),
}
_TRACE_IN_LINE = re.compile(r"\btrace(?:_id|Id|id)?[=:]\"?([0-9A-Za-z_-]{8,64})")


def build_log_query(
    args: QueryLogsArgs,
    *,
    tenant: str | None,
    tenant_label: str = "tenant",
    service_label: str = "service",
    level_label: str = "level",
) -> LogQuery:
    """The LogQL parts for `args` (see the module table); `tenant` adds a selector matcher when given."""
    selector: list[LabelMatcher] = []
    if tenant is not None:
        selector.append(LabelMatcher(label=tenant_label, op="=", value=tenant))
    if args.service:
        selector.append(LabelMatcher(label=service_label, op="=", value=args.service))
    if not selector:
        # Loki refuses a selector that could match every stream; this one names the service label.
        selector.append(LabelMatcher(label=service_label, op="=~", value=".+"))
    lines: list[LineFilter] = []
    if args.trace_id:
        lines.append(LineFilter(op="|~", text="(?i)" + regex_literal(args.trace_id)))
    if args.keywords:
        if args.keyword_mode == "all":
            lines += [LineFilter(op="|~", text="(?i)" + regex_literal(word)) for word in args.keywords]
        else:
            alternation = "|".join(regex_literal(word) for word in args.keywords)
            lines.append(LineFilter(op="|~", text=f"(?i)(?:{alternation})"))
    labels: list[LabelMatcher] = []
    if args.level:
        spellings = sorted({s for level in args.level for s in _LEVEL_SPELLINGS.get(level, (level.lower(),))})
        labels.append(LabelMatcher(label=level_label, op="=~", value="(?i)" + "|".join(spellings)))
    return LogQuery(selector=tuple(selector), line_filters=tuple(lines), label_filters=tuple(labels))


def _trace(line: LokiLine) -> str | None:
    for key in ("trace_id", "traceId", "traceID", "trace"):
        if line.labels.get(key):
            return line.labels[key]
    match = _TRACE_IN_LINE.search(line.line)
    return match.group(1) if match else None


def _stream_text(labels: dict[str, str]) -> str:
    return "{" + ",".join(f"{k}={v}" for k, v in sorted(labels.items())) + "}"


def loki_logs_tool(
    client: LokiClient,
    *,
    tenant_mode: TenantMode = "org_id",
    tenant_label: str = "tenant",
    service_label: str = "service",
    level_label: str = "level",
    timeout_seconds: float | None = None,
) -> tuple[ToolSpec, ToolFunction[QueryLogsArgs]]:
    """`query_logs` over `client` (see the module docstring)."""
    spec = ToolSpec(
        name=LOGS_TOOL,
        description=(
            "Search application logs in Loki by trace id, service, level, time range and keywords."
            " Returns matching lines with counts by level and service."
        ),
        argument_model=QueryLogsArgs,
        authorization_policy="tenant",
        timeout_seconds=timeout_seconds or client.endpoint.timeout_seconds + 2.0,
    )

    def run(args: QueryLogsArgs, ctx: ExecutionContext) -> ToolOutput:
        query = build_log_query(
            args,
            tenant=ctx.tenant if tenant_mode == "label" else None,
            tenant_label=tenant_label,
            service_label=service_label,
            level_label=level_label,
        )
        logql = query.logql()
        end = args.end or utc_now()
        start = args.start or end - DEFAULT_LOOKBACK
        lines = client.query_range(
            logql,
            start=start,
            end=end,
            limit=args.limit,
            direction="forward" if args.order == "asc" else "backward",
            org_id=ctx.tenant if tenant_mode == "org_id" else None,
        )
        where = f"{format_utc(start)} .. {format_utc(end)}"
        if not lines:
            gap = f"no log lines match {logql} in {where}"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=gap)
        scope = "platform" if tenant_mode == "platform" else "tenant"
        labels = _Labels(service=service_label, level=level_label)
        return _output(args, ctx, lines, logql=logql, where=where, scope=scope, labels=labels)

    return spec, run


@dataclass(frozen=True, slots=True)
class _Labels:
    """Which stream labels hold the service and the level."""

    service: str
    level: str


def _line_fact(line: LokiLine, labels: _Labels, base: dict[str, Any]) -> VerifiedFact:
    stream = _stream_text(line.labels)
    message = line.line if len(line.line) <= MAX_MESSAGE_CHARS else line.line[: MAX_MESSAGE_CHARS - 1] + "…"
    value = {
        "ts": format_utc(line.ts),
        "service": line.labels.get(labels.service, "unknown"),
        "level": normalise_level(line.labels.get(labels.level, "UNKNOWN")),
        "trace_id": _trace(line),
        "message": message,
        "source": f"loki:{stream}",
    }
    digest = hashlib.sha256(f"{stream}\x00{line.ts_ns}\x00{line.line}".encode()).hexdigest()
    return VerifiedFact(
        fact_ref=f"log:{digest[:16]}",
        fact_type="log.line",
        value={k: v for k, v in value.items() if v is not None},
        **base,
    )


def _output(
    args: QueryLogsArgs,
    ctx: ExecutionContext,
    lines: list[LokiLine],
    *,
    logql: str,
    where: str,
    scope: str,
    labels: _Labels,
) -> ToolOutput:
    """OK output for the lines Loki returned: a `log.line` fact each and one `log.count`."""
    base: dict[str, Any] = {
        "source_system": "loki",
        "queried_at": utc_now(),
        "scope": scope,
        "authorization_snapshot": {"tenant": ctx.tenant, "user": ctx.user},
    }
    facts = [_line_fact(line, labels, base) for line in lines]
    by_level = dict(sorted(Counter(str(fact.value["level"]) for fact in facts).items()))
    by_service = dict(sorted(Counter(str(fact.value["service"]) for fact in facts).items()))
    line_refs = [fact.fact_ref for fact in facts]
    keyword_hits = {
        word: sum(1 for line in lines if word.casefold() in line.line.casefold())
        for word in args.keywords or []
    }
    complete = len(lines) < args.limit
    gaps: list[str] = []
    if not complete:
        gaps.append(f"Loki returned the limit of {args.limit} lines; more may match ({logql})")
    if any(keyword_hits.values()):
        gaps += [f"keyword {w!r} matched no log lines" for w, hits in keyword_hits.items() if not hits]
    count_key = json.dumps({"tenant": ctx.tenant, "logql": logql, "window": where}, sort_keys=True)
    facts.append(
        VerifiedFact(
            fact_ref="logcount:" + hashlib.sha256(count_key.encode()).hexdigest()[:16],
            fact_type="log.count",
            value={
                "total": len(lines),
                "shown": len(lines),
                "complete": complete,
                "by_level": by_level,
                "by_service": by_service,
                "keyword_hits": keyword_hits,
                "filters": logql,
            },
            ttl_seconds=60,
            **base,
        )
    )
    levels = ", ".join(f"{k} {v}" for k, v in by_level.items())
    services = ", ".join(f"{k} {v}" for k, v in by_service.items())
    return ToolOutput(
        status=ToolStatus.OK,
        facts=facts,
        gaps=gaps,
        observation=f"{len(lines)} lines{'' if complete else '+'} for {logql}; levels: {levels}; services: {services}",
        source_documents=sorted(
            {str(fact.value["source"]) for fact in facts if fact.fact_type == "log.line"}
        ),
        evidence_refs=[EvidenceRef(invocation_id="", citation_id=ref) for ref in line_refs],
    )

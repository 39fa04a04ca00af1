"""`query_logs` over Loki, tested against recorded responses — Loki itself cannot run here.

Debian ships no Loki package and nothing may be downloaded, so no real server is started: the
responses under `data/loki_*.json` were written after Loki's HTTP API reference
(`/loki/api/v1/query_range`, `resultType` `streams`, values `["<unix ns>", "<line>"(, metadata)]`)
and are served by an `httpx.MockTransport`, which also records each request, so the LogQL, the
parameters and the tenant header the connector sends are checked exactly. Error bodies are plain
text, as Loki sends them. What is not covered: a real Loki's parsing of the generated LogQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from groundgate.aiops import (
    ConnectorHTTPError,
    ConnectorResponseError,
    ConnectorTimeoutError,
    ConnectorUnavailableError,
    LokiClient,
)
from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.tools import ToolRegistry
from groundgate.tools.builtin.logs import QueryLogsArgs
from groundgate.tools.loki import TenantMode, build_log_query, loki_logs_tool

CTX = ExecutionContext(tenant="acme", user="alice")
DATA = Path(__file__).parent / "data"
WINDOW = {"start": "2026-03-14T14:00:00Z", "end": "2026-03-14T14:30:00Z"}


class Recorded:
    """A MockTransport answering with one recorded body and keeping the requests."""

    def __init__(self, answer: Callable[[httpx.Request], httpx.Response]) -> None:
        self.requests: list[httpx.Request] = []
        self._answer = answer
        self.transport = httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self._answer(request)

    @classmethod
    def file(cls, name: str, status: int = 200) -> Recorded:
        body = (DATA / name).read_bytes()
        return cls(
            lambda request: httpx.Response(status, content=body, headers={"Content-Type": "application/json"})
        )


@pytest.fixture
def make_registry() -> Iterator[Callable[..., ToolRegistry]]:
    opened: list[ToolRegistry] = []

    def make(recorded: Recorded, *, tenant_mode: TenantMode = "org_id") -> ToolRegistry:
        registry = ToolRegistry()
        opened.append(registry)
        client = LokiClient("http://loki.invalid:3100/", transport=recorded.transport, bearer_token="tok")
        spec, run = loki_logs_tool(client, tenant_mode=tenant_mode)
        registry.register(spec, run)
        return registry

    yield make
    for registry in opened:
        registry.close()


def call(registry: ToolRegistry, **arguments: Any) -> ToolResult:
    return registry.execute(ToolCall(tool="query_logs", arguments=arguments), CTX, run_id="r1", round=1)


@pytest.mark.parametrize(
    ("arguments", "tenant", "logql"),
    [
        ({}, None, '{service=~".+"}'),
        ({"service": "payment-api"}, None, '{service="payment-api"}'),
        ({"service": "payment-api"}, "acme", '{service="payment-api",tenant="acme"}'),
        ({"level": ["error", "warning"]}, None, '{service=~".+"} | level=~"(?i)err|error|warn|warning"'),
        ({"trace_id": "4F1C9A2E"}, None, '{service=~".+"} |~ "(?i)4f1c9a2e"'),
        ({"keywords": ["ERR_TIMEOUT", "超时"]}, None, '{service=~".+"} |~ "(?i)(?:ERR_TIMEOUT|超时)"'),
        (
            {"keywords": ["pool exhausted", "a.b"], "keyword_mode": "all"},
            None,
            '{service=~".+"} |~ "(?i)a\\\\.b" |~ "(?i)pool exhausted"',
        ),
        ({"service": 'x"} |= "" or {a="b'}, None, '{service="x\\"} |= \\"\\" or {a=\\"b"}'),
        ({"keywords": ['") |= "x']}, None, '{service=~".+"} |~ "(?i)(?:\\"\\\\) \\\\|= \\"x)"'),
    ],
)
def test_logql_is_built_from_the_embedded_tools_arguments(
    arguments: dict[str, Any], tenant: str | None, logql: str
) -> None:
    args = QueryLogsArgs.model_validate(arguments)
    assert build_log_query(args, tenant=tenant).logql() == logql


def test_lines_become_the_embedded_tools_facts_newest_first(
    make_registry: Callable[..., ToolRegistry],
) -> None:
    recorded = Recorded.file("loki_streams.json")
    result = call(
        make_registry(recorded), service="payment-api", keywords=["ERR_TIMEOUT"], order="desc", **WINDOW
    )
    assert result.status is ToolStatus.OK, result.error
    *lines, count = result.facts
    assert [fact.fact_type for fact in lines] == ["log.line"] * 3
    assert [fact.value["ts"] for fact in lines] == [
        "2026-03-14T14:05:18Z",
        "2026-03-14T14:05:10.500Z",
        "2026-03-14T14:05:03.120Z",
    ]
    first = lines[0].value
    assert first["service"] == "payment-api"
    assert first["level"] == "ERROR"
    assert first["trace_id"] == "4f1c9a2e7b"
    assert first["source"] == "loki:{level=error,namespace=pay,service=payment-api}"
    assert lines[1].value["level"] == "WARN"
    assert lines[1].value["trace_id"] == "77aa88bb99"
    assert all(fact.source_system == "loki" and fact.scope == "tenant" for fact in result.facts)
    assert count.fact_type == "log.count"
    assert count.value["total"] == 3
    assert count.value["complete"] is True
    assert count.value["by_level"] == {"ERROR": 2, "WARN": 1}
    assert count.value["keyword_hits"] == {"ERR_TIMEOUT": 2}
    assert [ref.citation_id for ref in result.evidence_refs] == [fact.fact_ref for fact in lines]


def test_the_request_carries_the_logql_window_limit_direction_token_and_tenant(
    make_registry: Callable[..., ToolRegistry],
) -> None:
    recorded = Recorded.file("loki_streams.json")
    call(make_registry(recorded), service="payment-api", limit=2, order="asc", **WINDOW)
    (request,) = recorded.requests
    assert request.url.path == "/loki/api/v1/query_range"
    assert request.url.params["query"] == '{service="payment-api"}'
    assert request.url.params["start"] == "1773496800000000000"
    assert request.url.params["end"] == "1773498600000000000"
    assert request.url.params["limit"] == "2"
    assert request.url.params["direction"] == "forward"
    assert request.headers["X-Scope-OrgID"] == "acme"
    assert request.headers["Authorization"] == "Bearer tok"


def test_a_result_at_the_limit_says_more_may_match(make_registry: Callable[..., ToolRegistry]) -> None:
    result = call(make_registry(Recorded.file("loki_streams.json")), limit=2, **WINDOW)
    assert result.status is ToolStatus.OK
    assert len([f for f in result.facts if f.fact_type == "log.line"]) == 2
    assert result.facts[-1].value["complete"] is False
    assert result.gaps[0].startswith("Loki returned the limit of 2 lines; more may match")


@pytest.mark.parametrize(
    ("mode", "header", "selector", "scope"),
    [
        ("org_id", "acme", '{service=~".+"}', "tenant"),
        ("label", None, '{tenant="acme"}', "tenant"),
        ("platform", None, '{service=~".+"}', "platform"),
    ],
)
def test_the_tenant_comes_from_the_context_in_every_mode(
    make_registry: Callable[..., ToolRegistry],
    mode: TenantMode,
    header: str | None,
    selector: str,
    scope: str,
) -> None:
    recorded = Recorded.file("loki_streams.json")
    result = call(make_registry(recorded, tenant_mode=mode), **WINDOW)
    (request,) = recorded.requests
    assert request.headers.get("X-Scope-OrgID") == header
    assert request.url.params["query"] == selector
    assert {fact.scope for fact in result.facts} == {scope}


def test_a_tenant_in_the_arguments_is_refused_by_the_registry(
    make_registry: Callable[..., ToolRegistry],
) -> None:
    recorded = Recorded.file("loki_streams.json")
    result = call(make_registry(recorded), tenant="other", **WINDOW)
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("authorization_field_in_plan")
    assert recorded.requests == []


def test_no_lines_is_empty_with_the_query_in_the_gap(make_registry: Callable[..., ToolRegistry]) -> None:
    result = call(make_registry(Recorded.file("loki_empty.json")), service="payment-api", **WINDOW)
    assert result.status is ToolStatus.EMPTY
    assert result.gaps == [
        'no log lines match {service="payment-api"} in 2026-03-14T14:00:00Z .. 2026-03-14T14:30:00Z'
    ]


def _raise(exc: Exception) -> Callable[[httpx.Request], httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        raise exc

    return answer


@pytest.mark.parametrize(
    ("recorded", "error", "message"),
    [
        (
            Recorded(
                lambda r: httpx.Response(
                    400, text="parse error at line 1, col 12: syntax error: unexpected IDENTIFIER"
                )
            ),
            ConnectorHTTPError,
            "HTTP 400: parse error at line 1, col 12",
        ),
        (
            Recorded(lambda r: httpx.Response(429, text="too many outstanding requests")),
            ConnectorHTTPError,
            "HTTP 429",
        ),
        (Recorded(lambda r: httpx.Response(500, text="")), ConnectorHTTPError, "HTTP 500"),
        (
            Recorded(lambda r: httpx.Response(200, text="<html>login</html>")),
            ConnectorResponseError,
            "not JSON",
        ),
        (Recorded.file("loki_matrix.json"), ConnectorResponseError, "expected resultType 'streams'"),
        (
            Recorded(lambda r: httpx.Response(200, json={"status": "error"})),
            ConnectorResponseError,
            "without success",
        ),
        (
            Recorded(
                lambda r: httpx.Response(
                    200,
                    json={
                        "status": "success",
                        "data": {"resultType": "streams", "result": [{"stream": {}, "values": [[1, "x"]]}]},
                    },
                )
            ),
            ConnectorResponseError,
            "bad value",
        ),
        (Recorded(_raise(httpx.ReadTimeout("timed out"))), ConnectorTimeoutError, "did not answer"),
        (Recorded(_raise(httpx.ConnectError("refused"))), ConnectorUnavailableError, "unreachable"),
    ],
)
def test_failures_are_translated_into_connector_errors(
    recorded: Recorded, error: type[Exception], message: str
) -> None:
    client = LokiClient("http://loki.invalid", transport=recorded.transport)
    from datetime import UTC, datetime

    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        client.query_range(
            '{service="x"}', start=datetime(2026, 1, 1, tzinfo=UTC), end=datetime(2026, 1, 2, tzinfo=UTC)
        )


def test_a_failing_loki_is_a_failed_tool_call_naming_loki(make_registry: Callable[..., ToolRegistry]) -> None:
    recorded = Recorded(lambda r: httpx.Response(502, text="bad gateway"))
    result = call(make_registry(recorded), **WINDOW)
    assert result.status is ToolStatus.ERROR
    assert result.error == "tool_failed: loki answered /loki/api/v1/query_range with HTTP 502: bad gateway"

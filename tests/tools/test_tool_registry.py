"""The tool registry: plans match registered schemas, authorization is server-side, execution is bounded."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel, Field, create_model

from groundgate.contracts import (
    EvidenceRef,
    ExecutionContext,
    ToolCall,
    ToolKind,
    ToolOutput,
    ToolSpec,
    ToolStatus,
    VerifiedFact,
)
from groundgate.errors import UsageError
from groundgate.tools import PlanCheck, ReasonCode, ToolArguments, ToolRegistry, find_authorization_fields
from groundgate.tools.builtin import register_builtin_tools
from groundgate.tools.builtin.clock import CLOCK_TOOL
from groundgate.tools.builtin.logs import LogStore
from groundgate.tools.builtin.metrics import MetricStore
from groundgate.tools.builtin.orders import OrderStore

CTX = ExecutionContext(tenant="acme", user="alice", roles=("ops",))
NOW = datetime(2026, 3, 14, 14, 5, 3, 120_000, tzinfo=UTC)


class SearchArgs(ToolArguments):
    """Like seed 003's KNOWLEDGE_SEARCH: `query`/`domain` only, no date range."""

    query: str = Field(min_length=1)
    domain: str | None = None
    limit: int = Field(10, ge=1, le=50)


class TaskArgs(ToolArguments):
    """Like seed 003's MY_CURRENT_TASKS: the tool that does take a date range."""

    start_date: datetime | None = None
    end_date: datetime | None = None
    status: str | None = None
    filters: dict[str, str] | None = None


class BoardArgs(ToolArguments):
    board: str


def _fact(ref: str, value: Any) -> VerifiedFact:
    return VerifiedFact(fact_ref=ref, fact_type="test", value=value, source_system="test", queried_at=NOW)


class Recorder:
    """Tool functions that record what they were called with."""

    def __init__(self) -> None:
        self.calls: list[tuple[BaseModel, ExecutionContext]] = []

    def search(self, args: SearchArgs, ctx: ExecutionContext) -> ToolOutput:
        self.calls.append((args, ctx))
        return ToolOutput(
            facts=[_fact("f1", {"tenant_seen": ctx.tenant, "query": args.query})],
            observation="1 hit",
            source_documents=["doc.md"],
            relevance_levels=["high"],
            evidence_refs=[EvidenceRef(invocation_id="forged-by-tool", citation_id="f1")],
        )

    def tasks(self, args: TaskArgs, ctx: ExecutionContext) -> ToolOutput:
        self.calls.append((args, ctx))
        return ToolOutput(status=ToolStatus.EMPTY, gaps=["no tasks"])

    def board(self, args: BoardArgs, ctx: ExecutionContext) -> ToolOutput:
        self.calls.append((args, ctx))
        return ToolOutput(facts=[_fact("b1", args.board)])


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def registry(recorder: Recorder) -> Iterator[ToolRegistry]:
    with ToolRegistry(max_workers=4) as reg:
        reg.register(
            ToolSpec(name="knowledge_search", description="Search docs.", argument_model=SearchArgs),
            recorder.search,
        )
        reg.register(
            ToolSpec(name="my_current_tasks", description="My tasks.", argument_model=TaskArgs),
            recorder.tasks,
        )
        yield reg


def _run(reg: ToolRegistry, tool: str, ctx: ExecutionContext = CTX, **arguments: Any) -> Any:
    return reg.execute(ToolCall(tool=tool, arguments=arguments), ctx, run_id="run-1", round=1)


# --------------------------------------------------------------------------- registration


def test_duplicate_name_is_a_usage_error(registry: ToolRegistry, recorder: Recorder) -> None:
    spec = ToolSpec(name="knowledge_search", description="again", argument_model=SearchArgs)
    with pytest.raises(UsageError, match="already registered"):
        registry.register(spec, recorder.search)


def test_argument_model_must_forbid_extras(registry: ToolRegistry) -> None:
    class Loose(BaseModel):
        q: str

    with pytest.raises(UsageError, match="extra='forbid'"):
        registry.register(
            ToolSpec(name="loose", description="", argument_model=Loose), lambda a, c: ToolOutput()
        )


@pytest.mark.parametrize("field_name", ["tenant", "userId", "project_id"])
def test_argument_model_may_not_declare_authorization_fields(registry: ToolRegistry, field_name: str) -> None:
    model = create_model("Bad", __base__=ToolArguments, **{field_name: (str | None, None)})  # type: ignore[call-overload]
    with pytest.raises(UsageError, match="authorization field"):
        registry.register(
            ToolSpec(name="bad", description="", argument_model=model), lambda a, c: ToolOutput()
        )
    assert "bad" not in registry


def test_unknown_policy_and_bad_timeout_are_usage_errors(registry: ToolRegistry) -> None:
    with pytest.raises(UsageError, match="unknown authorization policy"):
        registry.register(
            ToolSpec(name="x", description="", argument_model=SearchArgs, authorization_policy="anyone"),
            lambda a, c: ToolOutput(),
        )
    with pytest.raises(UsageError, match="timeout"):
        registry.register(
            ToolSpec(name="y", description="", argument_model=SearchArgs, timeout_seconds=0),
            lambda a, c: ToolOutput(),
        )


def test_specs_and_describe_for_model_show_schemas_never_the_context(registry: ToolRegistry) -> None:
    assert [spec.name for spec in registry.specs()] == ["knowledge_search", "my_current_tasks"]
    described = registry.describe_for_model()
    assert [item["name"] for item in described] == ["knowledge_search", "my_current_tasks"]
    search = described[0]
    assert search["description"] == "Search docs."
    assert set(search["parameters"]["properties"]) == {"query", "domain", "limit"}
    assert search["parameters"]["additionalProperties"] is False
    text = json.dumps(described)
    for secret in ("acme", "alice", "authorization_policy", "ExecutionContext", "allowed_projects"):
        assert secret not in text


# --------------------------------------------------------------------------- plan validation


def test_valid_plan_is_parsed_and_normalised(registry: ToolRegistry) -> None:
    check = registry.validate_plan(
        [
            ToolCall(tool="knowledge_search", arguments={"query": "  refund rules  "}, purpose="need:refund"),
            ToolCall(tool="my_current_tasks", arguments={"start_date": "2026-03-01T08:00:00+08:00"}),
        ]
    )
    assert check == PlanCheck(ok=True, reason_code=ReasonCode.OK, calls=check.calls)
    assert check.calls[0].arguments == {"query": "refund rules", "limit": 10}
    assert check.calls[0].purpose == "need:refund"
    assert check.calls[1].arguments == {"start_date": "2026-03-01T08:00:00+08:00"}


def test_empty_plan_is_ok(registry: ToolRegistry) -> None:
    check = registry.validate_plan([])
    assert check.ok
    assert check.calls == ()


def test_unknown_tool_rejects_the_whole_plan(registry: ToolRegistry) -> None:
    check = registry.validate_plan(
        [
            ToolCall(tool="knowledge_search", arguments={"query": "a"}),
            ToolCall(tool="drop_tables", arguments={}),
        ]
    )
    assert not check.ok
    assert check.reason_code == ReasonCode.UNKNOWN_TOOL
    assert check.call_index == 1
    assert check.calls == ()
    assert "drop_tables" in check.detail


@pytest.mark.parametrize(
    ("tool", "arguments", "needle"),
    [
        ("knowledge_search", {"query": "a", "top_k": 3}, "top_k: Extra inputs are not permitted"),
        ("knowledge_search", {"query": "a", "limit": "many"}, "limit"),
        ("knowledge_search", {"query": 42}, "query"),
        ("knowledge_search", {"query": "a", "limit": 500}, "limit"),
        ("knowledge_search", {}, "query: Field required"),
        # A date range passed to a tool without one (seed 003: never into KNOWLEDGE_SEARCH).
        ("knowledge_search", {"query": "leave policy", "start_date": "2026-03-01"}, "start_date"),
        ("knowledge_search", {"query": "a", "dateRange": ["2026-03-01", "2026-03-31"]}, "dateRange"),
        ("my_current_tasks", {"start_date": "not a date"}, "start_date"),
    ],
)
def test_invalid_arguments_reject_the_plan(
    registry: ToolRegistry, tool: str, arguments: dict[str, Any], needle: str
) -> None:
    check = registry.validate_plan([ToolCall(tool=tool, arguments=arguments)])
    assert not check.ok
    assert check.reason_code == ReasonCode.INVALID_ARGUMENTS
    assert needle in check.detail
    assert check.calls == ()


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "a", "tenant": "globex"},
        {"query": "a", "tenantId": "globex"},
        {"query": "a", "TENANT_ID": "globex"},
        {"query": "a", "user-id": "bob"},
        {"query": "a", "role": "admin"},
        {"query": "a", "roles": ["admin"]},
        {"query": "a", "options": {"projectId": "p9"}},
        {"query": "a", "filters": [{"field": "x"}, {"spaceId": "s1"}]},
        {"query": "a", "deep": [{"x": {"y": [{"extPartyId": "e"}]}}]},
        {"query": "a", "App_Id": "app"},
    ],
)
def test_authorization_field_anywhere_rejects_the_plan(
    registry: ToolRegistry, arguments: dict[str, Any]
) -> None:
    plan = [
        ToolCall(tool="my_current_tasks", arguments={}),
        ToolCall(tool="knowledge_search", arguments=arguments),
    ]
    check = registry.validate_plan(plan)
    assert not check.ok
    assert check.reason_code == ReasonCode.AUTHORIZATION_FIELD_IN_PLAN
    assert check.call_index == 1
    assert check.calls == ()


def test_authorization_check_wins_over_other_errors(registry: ToolRegistry) -> None:
    plan = [
        ToolCall(tool="nope", arguments={}),
        ToolCall(tool="my_current_tasks", arguments={"userId": "u2"}),
    ]
    check = registry.validate_plan(plan)
    assert check.reason_code == ReasonCode.AUTHORIZATION_FIELD_IN_PLAN
    assert check.call_index == 1
    assert "userId" in check.detail


def test_authorization_fields_are_found_with_paths() -> None:
    found = find_authorization_fields(
        {"a": [{"b": 1}, {"tenantId": 2}], "user": {"projectId": 3}, "username": 4}
    )
    assert found == ["a[1].tenantId", "user", "user.projectId"]


# --------------------------------------------------------------------------- call keys


def test_call_key_ignores_key_order_whitespace_defaults_and_purpose(registry: ToolRegistry) -> None:
    a = ToolCall(tool="knowledge_search", arguments={"query": "refund   rules", "domain": "hr"}, purpose="x")
    b = ToolCall(tool="knowledge_search", arguments={"domain": " hr ", "query": " refund rules", "limit": 10})
    assert registry.call_key(a) == registry.call_key(b)
    assert re.fullmatch(r"[0-9a-f]{64}", registry.call_key(a))


def test_call_key_differs_for_different_values_or_tools(registry: ToolRegistry) -> None:
    base = registry.call_key(ToolCall(tool="knowledge_search", arguments={"query": "refund"}))
    assert base != registry.call_key(ToolCall(tool="knowledge_search", arguments={"query": "refunds"}))
    assert base != registry.call_key(
        ToolCall(tool="knowledge_search", arguments={"query": "refund", "limit": 11})
    )
    assert base != registry.call_key(ToolCall(tool="other", arguments={"query": "refund"}))


def test_call_key_of_an_invalid_call_is_still_stable(registry: ToolRegistry) -> None:
    a = ToolCall(tool="unknown", arguments={"b": " x  y", "a": 1})
    b = ToolCall(tool="unknown", arguments={"a": 1, "b": "x y"})
    assert registry.call_key(a) == registry.call_key(b)


# --------------------------------------------------------------------------- execution


def test_execute_records_everything_and_stamps_refs(registry: ToolRegistry, recorder: Recorder) -> None:
    result = registry.execute(
        ToolCall(tool="knowledge_search", arguments={"query": "refund"}), CTX, run_id="run-7", round=2
    )
    assert result.status == ToolStatus.OK
    assert re.fullmatch(r"[0-9a-f]{32}", result.invocation_id)
    assert (result.run_id, result.round, result.tool) == ("run-7", 2, "knowledge_search")
    assert result.arguments == {"query": "refund", "limit": 10}
    assert result.latency_ms is not None
    assert result.latency_ms >= 0
    assert result.observation == "1 hit"
    assert result.source_documents == ["doc.md"]
    assert result.relevance_levels == ["high"]
    assert [f.fact_ref for f in result.facts] == ["f1"]
    # A tool cannot name (or forge) its own invocation: the registry stamps every ref.
    assert [(r.invocation_id, r.citation_id) for r in result.evidence_refs] == [(result.invocation_id, "f1")]
    assert len(recorder.calls) == 1

    given = registry.execute(
        ToolCall(tool="knowledge_search", arguments={"query": "x"}),
        CTX,
        run_id="r",
        round=1,
        invocation_id="inv-1",
    )
    assert given.invocation_id == "inv-1"


def test_the_function_gets_the_servers_context(registry: ToolRegistry, recorder: Recorder) -> None:
    result = _run(registry, "knowledge_search", query="refund")
    args, ctx = recorder.calls[-1]
    assert ctx is CTX
    assert isinstance(args, SearchArgs)
    assert result.facts[0].value["tenant_seen"] == "acme"


def test_a_tenant_in_arguments_never_reaches_the_tool(registry: ToolRegistry, recorder: Recorder) -> None:
    result = _run(registry, "knowledge_search", query="refund", tenant="globex", opts={"userId": "mallory"})
    assert result.status == ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("authorization_field_in_plan:")
    assert recorder.calls == []
    # The audit record keeps the shape of the attempt, not the injected values.
    assert result.arguments == {"query": "refund", "tenant": "<redacted>", "opts": {"userId": "<redacted>"}}
    assert "globex" not in result.model_dump_json()


@pytest.mark.parametrize(
    ("tool", "arguments", "code"),
    [
        ("nope", {}, "unknown_tool"),
        ("knowledge_search", {"query": "a", "start_date": "2026-03-01"}, "invalid_arguments"),
        ("knowledge_search", {"query": ["a"]}, "invalid_arguments"),
    ],
)
def test_execute_validates_again_and_never_raises(
    registry: ToolRegistry, recorder: Recorder, tool: str, arguments: dict[str, Any], code: str
) -> None:
    result = registry.execute(ToolCall(tool=tool, arguments=arguments), CTX, run_id="r", round=1)
    assert result.status == ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith(code + ":")
    assert result.facts == []
    assert recorder.calls == []


def test_timeout_returns_timeout_and_drops_the_late_result(registry: ToolRegistry) -> None:
    release = threading.Event()
    finished = threading.Event()

    def slow(args: SearchArgs, ctx: ExecutionContext) -> ToolOutput:
        release.wait(5)
        try:
            return ToolOutput(facts=[_fact("late", "LATE-MARKER")], observation="LATE-MARKER")
        finally:
            finished.set()

    registry.register(
        ToolSpec(name="slow", description="", argument_model=SearchArgs, timeout_seconds=0.1), slow
    )
    try:
        result = _run(registry, "slow", query="q")
        # The call came back while the tool is still blocked: the run did not wait for it.
        assert not finished.is_set()
    finally:
        release.set()
    assert result.status == ToolStatus.TIMEOUT
    assert result.error is not None
    assert result.error.startswith("tool_timeout:")
    assert "0.1 s" in result.error
    assert finished.wait(2)
    deadline = time.monotonic() + 2
    while registry.late_results_dropped < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert registry.late_results_dropped == 1
    # The slow tool did produce its output, but it never appears anywhere.
    assert result.status == ToolStatus.TIMEOUT
    assert result.facts == []
    assert "LATE-MARKER" not in result.model_dump_json()
    follow_up = _run(registry, "knowledge_search", query="next")
    assert "LATE-MARKER" not in follow_up.model_dump_json()


def test_exception_becomes_a_short_error(registry: ToolRegistry) -> None:
    def boom(args: SearchArgs, ctx: ExecutionContext) -> ToolOutput:
        raise ValueError("backend said no\nTraceback (most recent call last):\n  File x")

    registry.register(ToolSpec(name="boom", description="", argument_model=SearchArgs), boom)
    result = _run(registry, "boom", query="q")
    assert result.status == ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith("tool_failed: ValueError: backend said no")
    assert "\n" not in result.error
    assert len(result.error) < 400


def test_a_non_tooloutput_return_is_an_error(registry: ToolRegistry) -> None:
    registry.register(
        ToolSpec(name="sloppy", description="", argument_model=SearchArgs),
        lambda a, c: {"status": "OK"},  # type: ignore[arg-type,return-value]
    )
    result = _run(registry, "sloppy", query="q")
    assert result.status == ToolStatus.ERROR
    assert result.error == "invalid_tool_output: sloppy returned dict, not ToolOutput"


def test_empty_output_status_passes_through(registry: ToolRegistry) -> None:
    result = _run(registry, "my_current_tasks")
    assert result.status == ToolStatus.EMPTY
    assert result.gaps == ["no tasks"]


def test_project_policy_denies_projects_outside_the_context(
    registry: ToolRegistry, recorder: Recorder
) -> None:
    registry.register(
        ToolSpec(
            name="project_status", description="", argument_model=SearchArgs, authorization_policy="project"
        ),
        recorder.search,
    )
    inside = ExecutionContext(tenant="acme", user="alice", project="p1", allowed_projects=("p1", "p2"))
    outside = ExecutionContext(tenant="acme", user="alice", project="p3", allowed_projects=("p1", "p2"))
    nowhere = ExecutionContext(tenant="acme", user="alice", allowed_projects=("p1",))
    assert _run(registry, "project_status", inside, query="q").status == ToolStatus.OK
    denied = _run(registry, "project_status", outside, query="q")
    assert denied.status == ToolStatus.DENIED
    assert denied.error is not None
    assert denied.error.startswith("policy_denied:")
    assert denied.facts == []
    assert _run(registry, "project_status", nowhere, query="q").status == ToolStatus.DENIED
    assert len(recorder.calls) == 1


def test_project_policy_with_a_target_from_arguments(registry: ToolRegistry, recorder: Recorder) -> None:
    boards = {"PAY-BOARD": "p1", "HR-BOARD": "p9"}
    registry.register(
        ToolSpec(name="board", description="", argument_model=BoardArgs, authorization_policy="project"),
        recorder.board,
        project_of=lambda args: boards.get(args.board),
    )
    ctx = ExecutionContext(tenant="acme", user="alice", allowed_projects=("p1",))
    assert _run(registry, "board", ctx, board="PAY-BOARD").status == ToolStatus.OK
    assert _run(registry, "board", ctx, board="HR-BOARD").status == ToolStatus.DENIED
    assert _run(registry, "board", ctx, board="UNKNOWN").status == ToolStatus.DENIED


def test_tenant_policy_requires_a_tenant(registry: ToolRegistry, recorder: Recorder) -> None:
    blank = ExecutionContext(tenant=" ", user="alice")
    result = _run(registry, "knowledge_search", blank, query="q")
    assert result.status == ToolStatus.DENIED
    assert recorder.calls == []


def test_closed_registry_refuses_calls(recorder: Recorder) -> None:
    reg = ToolRegistry()
    reg.register(ToolSpec(name="s", description="", argument_model=SearchArgs), recorder.search)
    reg.close()
    with pytest.raises(UsageError, match="closed"):
        _run(reg, "s", query="q")


# --------------------------------------------------------------------------- built-in registration


def test_register_builtin_tools_and_the_clock() -> None:
    with ToolRegistry() as reg, LogStore() as logs, MetricStore() as metrics, OrderStore() as orders:
        names = register_builtin_tools(reg, logs=logs, metrics=metrics, orders=orders, clock=lambda: NOW)
        assert names == ["query_logs", "query_metrics", "query_order", "count_orders", CLOCK_TOOL]
        assert reg.get(CLOCK_TOOL).kind == ToolKind.AUXILIARY
        assert reg.get(CLOCK_TOOL).authorization_policy == "public"
        result = _run(reg, CLOCK_TOOL)
        assert result.status == ToolStatus.OK
        assert result.facts[0].fact_type == "clock.now"
        assert result.facts[0].value == "2026-03-14T14:05:03.120Z"
        assert _run(reg, CLOCK_TOOL, tz="UTC").status == ToolStatus.ERROR
        for spec in reg.specs():
            assert spec.argument_model.model_config.get("extra") == "forbid"


def test_register_builtin_tools_skips_missing_stores() -> None:
    with ToolRegistry() as reg:
        assert register_builtin_tools(reg) == [CLOCK_TOOL]


def test_clock_normalises_to_utc() -> None:
    from datetime import timedelta, timezone

    shanghai = datetime(2026, 3, 14, 22, 5, tzinfo=timezone(timedelta(hours=8)))
    with ToolRegistry() as reg:
        register_builtin_tools(reg, clock=lambda: shanghai)
        assert _run(reg, CLOCK_TOOL).facts[0].value == "2026-03-14T14:05:00Z"

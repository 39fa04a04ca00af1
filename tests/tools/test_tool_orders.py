"""OrderStore and the query_order tool: lookups, tenant isolation without disclosure, facts, bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.errors import InvalidInputError, UsageError
from groundgate.tools import ReasonCode, ToolRegistry
from groundgate.tools.builtin.orders import OrderStore, query_order_tool

ACME = ExecutionContext(tenant="acme", user="alice")
GLOBEX = ExecutionContext(tenant="globex", user="bob")


def _order(order_id: str, tenant: str | None = "acme", **overrides: Any) -> str:
    order: dict[str, Any] = {
        "order_id": order_id,
        "tenant": tenant,
        "status": "FAILED",
        "amount": "199.00",
        "currency": "CNY",
        "channel": "CMB",
        "created_at": "2026-03-14T14:05:00Z",
        "updated_at": "2026-03-14T22:05:03.120+08:00",
        "failure_code": "ERR_TIMEOUT",
        "trace_id": "4f1c9a2e7b3d4a10",
    }
    order.update(overrides)
    # The default amount is written as the JSON number `199.00`, as the demo data does.
    return json.dumps({k: v for k, v in order.items() if v is not None}).replace(
        '"amount": "199.00"', '"amount": 199.00'
    )


@pytest.fixture
def orders_file(tmp_path: Path) -> Path:
    lines = [
        _order("ORD-20260314-00042"),
        _order("ORD-20260314-00043", status="paid", amount="5000.50", failure_code=None, channel=None),
        _order("ORD-20260314-00099", tenant="globex", amount=1),
        "{broken",
        _order("ORD-20260314-00100", tenant=None),
        _order("NOT-AN-ID"),
        _order("ORD-20260314-00101", amount="a lot"),
        _order("ORD-20260314-00102", created_at="last tuesday"),
        json.dumps({"order_id": "ORD-20260314-00103", "tenant": "acme"}),
    ]
    path = tmp_path / "orders.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def store(orders_file: Path) -> Iterator[OrderStore]:
    with OrderStore() as s:
        s.load_jsonl(orders_file)
        yield s


@pytest.fixture
def registry(store: OrderStore) -> Iterator[ToolRegistry]:
    with ToolRegistry() as reg:
        reg.register(*query_order_tool(store))
        yield reg


def _query(reg: ToolRegistry, ctx: ExecutionContext = ACME, **arguments: Any) -> ToolResult:
    return reg.execute(ToolCall(tool="query_order", arguments=arguments), ctx, run_id="run-1", round=1)


# --------------------------------------------------------------------------- store


def test_load_reports_invalid_lines(orders_file: Path) -> None:
    with OrderStore() as store:
        report = store.load_jsonl(orders_file)
        assert report.loaded == 3
        assert [(item.line_no, item.reason) for item in report.invalid_lines] == [
            (4, "invalid JSON: Expecting property name enclosed in double quotes (column 2)"),
            (5, "missing 'tenant'"),
            (6, "missing or invalid 'order_id'"),
            (7, "non-numeric 'amount' 'a lot'"),
            (8, "bad timestamp in 'created_at'"),
            (9, "missing 'status'"),
        ]
        assert store.load_jsonl(orders_file).skipped
        assert store.count("acme") == 2
        with pytest.raises(InvalidInputError, match="order file not found"):
            store.load_jsonl(orders_file.with_name("none.jsonl"))


def test_default_tenant_for_lines_without_one(tmp_path: Path) -> None:
    path = tmp_path / "o.jsonl"
    path.write_text(_order("ORD-20260314-00007", tenant=None) + "\n", encoding="utf-8")
    with OrderStore() as store:
        assert store.load_jsonl(path, tenant="initech").loaded == 1
        assert store.get("initech", "ORD-20260314-00007") is not None
        assert store.get("acme", "ORD-20260314-00007") is None


def test_get_returns_the_order_normalised(store: OrderStore) -> None:
    order = store.get("acme", " ord-20260314-00042 ")
    assert order is not None
    assert order.order_id == "ORD-20260314-00042"
    assert order.status == "FAILED"
    assert order.amount == Decimal("199.00")
    assert str(order.amount) == "199.00"  # kept as written
    assert (order.currency, order.channel, order.failure_code) == ("CNY", "CMB", "ERR_TIMEOUT")
    assert order.updated_at == datetime(2026, 3, 14, 14, 5, 3, 120_000, tzinfo=UTC)
    paid = store.get("acme", "ORD-20260314-00043")
    assert paid is not None
    assert (paid.status, paid.amount, paid.channel) == ("PAID", Decimal("5000.50"), None)


def test_tenant_b_never_sees_tenant_as_orders(store: OrderStore) -> None:
    assert store.get("globex", "ORD-20260314-00042") is None
    assert store.get("acme", "ORD-20260314-00099") is None
    assert store.get("globex", "ORD-20260314-00099") is not None
    with pytest.raises(UsageError):
        store.get(" ", "ORD-20260314-00042")


def test_a_later_file_replaces_the_order(store: OrderStore, tmp_path: Path) -> None:
    update = tmp_path / "update.jsonl"
    update.write_text(_order("ORD-20260314-00042", status="REFUNDED") + "\n", encoding="utf-8")
    store.load_jsonl(update)
    order = store.get("acme", "ORD-20260314-00042")
    assert order is not None
    assert order.status == "REFUNDED"
    assert store.count("acme") == 2


# --------------------------------------------------------------------------- the tool


def test_tool_facts(registry: ToolRegistry) -> None:
    result = _query(registry, order_id="ord-20260314-00042")
    assert result.status == ToolStatus.OK
    assert result.arguments == {"order_id": "ORD-20260314-00042"}
    facts = {fact.fact_type: fact for fact in result.facts}
    assert list(facts) == [
        "order.status",
        "order.amount",
        "order.currency",
        "order.channel",
        "order.failure_code",
        "order.created_at",
        "order.updated_at",
        "order.trace_id",
    ]
    assert facts["order.status"].value == "FAILED"
    assert facts["order.status"].fact_ref == "order:ORD-20260314-00042:status"
    assert facts["order.amount"].value == 199
    assert facts["order.updated_at"].value == "2026-03-14T14:05:03.120Z"
    for fact in result.facts:
        assert fact.ttl_seconds == 60
        assert fact.authorization_snapshot == {"tenant": "acme", "user": "alice"}
        assert fact.source_system == "order_store"
    assert result.observation == (
        "order ORD-20260314-00042 status FAILED; amount 199.00 CNY; channel CMB; failure ERR_TIMEOUT;"
        " updated 2026-03-14T14:05:03.120Z"
    )
    assert [ref.citation_id for ref in result.evidence_refs] == [fact.fact_ref for fact in result.facts]
    assert "acme" not in json.dumps([fact.value for fact in result.facts])


def test_another_tenants_order_is_not_found_never_denied(registry: ToolRegistry) -> None:
    foreign = _query(registry, GLOBEX, order_id="ORD-20260314-00042")
    missing = _query(registry, GLOBEX, order_id="ORD-20260314-99999")
    assert foreign.status == ToolStatus.EMPTY
    assert foreign.facts == []
    assert foreign.gaps == ["order ORD-20260314-00042 not found"]
    assert foreign.observation == "order ORD-20260314-00042 not found"
    # Indistinguishable from an order that does not exist (same shape, same wording).
    assert foreign.model_dump(
        exclude={"invocation_id", "latency_ms", "arguments", "gaps", "observation"}
    ) == (missing.model_dump(exclude={"invocation_id", "latency_ms", "arguments", "gaps", "observation"}))
    assert missing.gaps == ["order ORD-20260314-99999 not found"]


def test_tool_arguments(registry: ToolRegistry) -> None:
    for bad in (
        {"order_id": "42"},
        {"order_id": "ORD-2026-1"},
        {},
        {"order_id": "ORD-20260314-00042", "start": "x"},
    ):
        result = _query(registry, **bad)
        assert result.status == ToolStatus.ERROR
        assert result.error is not None
        assert result.error.startswith("invalid_arguments:")
    injected = _query(registry, order_id="ORD-20260314-00099", tenantId="globex")
    assert injected.status == ToolStatus.ERROR
    assert injected.error is not None
    assert injected.error.startswith(ReasonCode.AUTHORIZATION_FIELD_IN_PLAN.value)
    assert injected.facts == []

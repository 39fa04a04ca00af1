"""The count_orders tool: orders counted and listed by status, failure code, channel and window, only
ever the run's own tenant's, and bad arguments refused with the field named."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_tool_orders import ACME, GLOBEX, _order

from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.errors import UsageError
from groundgate.tools import ReasonCode, ToolRegistry
from groundgate.tools.builtin.order_query import ORDER_SET_TOOL, count_orders_tool
from groundgate.tools.builtin.orders import OrderStore

#: acme: two ERR_TIMEOUT failures at 14:05 and 14:40, a payment at 14:10, a pending one at 15:20;
#: globex: the same shapes, which acme must never see.
_LINES = [
    _order("ORD-20260314-00001"),
    _order("ORD-20260314-00002", created_at="2026-03-14T14:40:00Z", amount="1299.00"),
    _order("ORD-20260314-00003", status="PAID", failure_code=None, created_at="2026-03-14T14:10:00Z"),
    _order("ORD-20260314-00004", status="PENDING", failure_code=None, created_at="2026-03-14T15:20:00Z"),
    _order("ORD-20260314-00051", tenant="globex"),
    _order("ORD-20260314-00052", tenant="globex", status="PENDING", failure_code=None),
    _order("ORD-20260314-00053", tenant="globex", failure_code="ERR_POOL_EXHAUSTED", channel="ICBC"),
]


@contextmanager
def counting_registry(tmp_path: Path, lines: list[str]) -> Iterator[ToolRegistry]:
    """A registry holding `count_orders` over a real order store loaded from `lines` (JSONL)."""
    path = tmp_path / "orders.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with OrderStore() as store, ToolRegistry() as reg:
        store.load_jsonl(path)
        reg.register(*count_orders_tool(store))
        yield reg


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[ToolRegistry]:
    with counting_registry(tmp_path, _LINES) as reg:
        yield reg


def _count(reg: ToolRegistry, ctx: ExecutionContext = ACME, **arguments: Any) -> ToolResult:
    return reg.execute(ToolCall(tool=ORDER_SET_TOOL, arguments=arguments), ctx, run_id="run-1", round=1)


@pytest.mark.parametrize(
    ("arguments", "count", "said"),
    [
        ({}, 4, "4 orders (all orders), total 1896: 2 FAILED (total 1498: ORD-20260314-00001, ORD-"),
        ({"status": "failed"}, 2, "2 orders (status FAILED), total 1498"),
        ({"failure_code": ["err_timeout"]}, 2, "2 FAILED"),
        ({"status": ["PENDING", "PROCESSING"]}, 1, "1 PENDING (total 199: ORD-20260314-00004)"),
        (
            {"start": "2026-03-14T14:00:00Z", "end": "2026-03-14T15:00:00Z"},
            3,
            "3 orders (created 2026-03-14 14:00–15:00 UTC), total 1697: 2 FAILED",
        ),
        ({"start": "2026-03-14T14:30:00Z", "status": "FAILED"}, 1, "ORD-20260314-00002"),
        (
            {"channel": "cmb", "end": "2026-03-14T14:06:00Z"},
            1,
            "channel CMB, created before 2026-03-14 14:06",
        ),
    ],
)
def test_orders_are_counted_and_listed_by_status_code_channel_and_window(
    registry: ToolRegistry, arguments: dict[str, Any], count: int, said: str
) -> None:
    result = _count(registry, **arguments)
    assert result.status is ToolStatus.OK
    (fact,) = result.facts
    assert fact.fact_type == "order.set"
    assert fact.value["count"] == count
    assert said in fact.value["summary"]
    assert fact.value["summary"] == result.observation
    assert [ref.citation_id for ref in result.evidence_refs] == [fact.fact_ref]


@pytest.mark.parametrize(
    ("arguments", "hidden"),
    [
        ({}, ("ORD-20260314-00051", "ORD-20260314-00052", "ORD-20260314-00053")),
        ({"status": "PENDING"}, ("ORD-20260314-00052",)),
        ({"failure_code": "ERR_POOL_EXHAUSTED"}, ("ORD-20260314-00053",)),
        ({"channel": "ICBC"}, ("ORD-20260314-00053",)),
    ],
)
def test_another_tenants_orders_are_never_counted_listed_or_summed(
    registry: ToolRegistry, arguments: dict[str, Any], hidden: tuple[str, ...]
) -> None:
    acme = _count(registry, ACME, **arguments)
    globex = _count(registry, GLOBEX, **arguments)
    assert all(order in globex.observation for order in hidden)
    assert not any(order in acme.observation for order in hidden)
    assert "tenant" not in registry.get(ORDER_SET_TOOL).argument_model.model_fields
    if acme.status is ToolStatus.OK:
        assert acme.facts[0].authorization_snapshot["tenant"] == "acme"
        assert acme.facts[0].value["count"] == sum(acme.facts[0].value["by_status"].values())
    else:
        assert acme.status is ToolStatus.EMPTY  # nothing of acme's: not DENIED, nothing disclosed


@pytest.mark.parametrize("tenant_key", ["tenant", "tenantId", "TENANT_ID"])
def test_a_tenant_named_in_the_arguments_is_refused_before_anything_is_read(
    registry: ToolRegistry, tenant_key: str
) -> None:
    result = _count(registry, ACME, **{tenant_key: "globex"})
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith(ReasonCode.AUTHORIZATION_FIELD_IN_PLAN.value)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"status": "paid!"}, "status"),
        ({"failure_code": ["ERR TIMEOUT"]}, "failure_code"),
        ({"start": "2026-03-14T15:00:00Z", "end": "2026-03-14T14:00:00Z"}, "start must be before end"),
        ({"start": "yesterday-ish"}, "start"),
        ({"order_id": "ORD-20260314-00001"}, "order_id"),
    ],
)
def test_bad_arguments_are_refused_with_the_field_named(
    registry: ToolRegistry, arguments: dict[str, Any], named: str
) -> None:
    result = _count(registry, **arguments)
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert result.error.startswith(ReasonCode.INVALID_ARGUMENTS.value)
    assert named in result.error


def test_no_matching_order_is_empty_with_the_filters_in_the_gap(registry: ToolRegistry) -> None:
    result = _count(registry, status="REFUNDED")
    assert result.status is ToolStatus.EMPTY
    assert result.gaps == ["no orders match (status REFUNDED)"]


def test_the_store_refuses_a_blank_tenant() -> None:
    with OrderStore() as store, pytest.raises(UsageError, match="tenant is required"):
        store.select(" ")

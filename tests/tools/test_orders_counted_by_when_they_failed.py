"""Orders counted by when they reached their status: `window_by=updated` bounds each order's last status
change (when it failed), not its creation, and says so in the summary; an order that never changed is
counted by its creation time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_tool_order_counts import counting_registry
from test_tool_orders import ACME, _order

from groundgate.contracts import ToolCall, ToolStatus
from groundgate.tools import ToolRegistry
from groundgate.tools.builtin.order_query import ORDER_SET_TOOL

_LINES = [
    # placed just before the window, failed inside it
    _order("ORD-20260314-00001", created_at="2026-03-14T14:04:58Z", updated_at="2026-03-14T14:05:03Z"),
    # placed inside the window, failed after it
    _order("ORD-20260314-00002", created_at="2026-03-14T14:31:58Z", updated_at="2026-03-14T14:32:03Z"),
    # placed and failed inside it
    _order("ORD-20260314-00003", created_at="2026-03-14T14:10:00Z", updated_at="2026-03-14T14:10:05Z"),
    # never changed: its creation time stands for it
    _order(
        "ORD-20260314-00004",
        status="PENDING",
        failure_code=None,
        created_at="2026-03-14T14:20:00Z",
        updated_at=None,
    ),
]

_START, _END = "2026-03-14T14:05:00Z", "2026-03-14T14:32:00Z"


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[ToolRegistry]:
    with counting_registry(tmp_path, _LINES) as reg:
        yield reg


@pytest.mark.parametrize(
    ("window_by", "counted", "said"),
    [
        (
            {},
            {"ORD-20260314-00002", "ORD-20260314-00003", "ORD-20260314-00004"},
            "created 2026-03-14 14:05–14:32",
        ),
        (
            {"window_by": "updated"},
            {"ORD-20260314-00001", "ORD-20260314-00003", "ORD-20260314-00004"},
            "status last changed 2026-03-14 14:05–14:32",
        ),
    ],
)
def test_a_window_bounds_creation_or_the_last_status_change_as_asked(
    registry: ToolRegistry, window_by: dict[str, Any], counted: set[str], said: str
) -> None:
    call = ToolCall(tool=ORDER_SET_TOOL, arguments={"start": _START, "end": _END, **window_by})
    result = registry.execute(call, ACME, run_id="run-1", round=1)
    assert result.status is ToolStatus.OK
    assert result.facts[0].value["count"] == len(counted)
    assert said in result.observation
    listed = {f"ORD-20260314-0000{n}" for n in range(1, 5)}
    assert {o for o in listed if o in result.observation} == counted


def test_an_unknown_window_moment_is_refused(registry: ToolRegistry) -> None:
    call = ToolCall(tool=ORDER_SET_TOOL, arguments={"start": _START, "window_by": "paid"})
    result = registry.execute(call, ACME, run_id="run-1", round=1)
    assert result.status is ToolStatus.ERROR
    assert result.error is not None
    assert "window_by" in result.error

"""Built-in evidence tools over embedded SQLite stores, and the plumbing those stores share.

| tool | module | store | policy | kind |
|---|---|---|---|---|
| `query_logs` | `logs` | `LogStore` | `tenant` | evidence |
| `query_metrics` | `metrics` | `MetricStore` | `tenant` (metrics are platform-wide) | evidence |
| `query_order` | `orders` | `OrderStore` | `tenant` | evidence |
| `count_orders` | `order_query` | `OrderStore` | `tenant` | evidence |
| `get_current_datetime` | `clock` | — | `public` | auxiliary |

Every store is one SQLite database (a file, or `:memory:`) opened through the standard library's
`sqlite3`, with one connection guarded by a lock (tools run on the registry's worker threads). All
SQL is parameterised. Loading is idempotent: a file whose content (SHA-256) is already loaded is
skipped, whatever its path; a path loaded before with different content replaces its earlier
records. A malformed line is counted and reported with its line number, never fatal; a missing or
unreadable file is an `InvalidInputError`. SQLite failures surface as `RunError`.

`knowledge.py` (the knowledge search tool) is registered by its own module, not here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgate.tools.builtin.clock import Clock
from groundgate.tools.builtin.stores import (
    MAX_REPORTED_INVALID_LINES,
    EmbeddedStore,
    InvalidLine,
    LoadReport,
    iter_json_objects,
    iter_lines,
)

if TYPE_CHECKING:
    from groundgate.tools.builtin.logs import LogStore
    from groundgate.tools.builtin.metrics import MetricStore
    from groundgate.tools.builtin.orders import OrderStore
    from groundgate.tools.registry import ToolRegistry

__all__ = [
    # registration
    "register_builtin_tools",
    # the stores' shared plumbing (`stores`)
    "MAX_REPORTED_INVALID_LINES",
    "EmbeddedStore",
    "InvalidLine",
    "LoadReport",
    "iter_json_objects",
    "iter_lines",
]


def register_builtin_tools(
    registry: ToolRegistry,
    *,
    logs: LogStore | None = None,
    metrics: MetricStore | None = None,
    orders: OrderStore | None = None,
    clock: Clock | None = None,
) -> list[str]:
    """Register `query_logs`, `query_metrics`, `query_order` and `count_orders` for the stores given, and always the
    clock tool `get_current_datetime`. Returns the names registered, in order."""
    from groundgate.tools.builtin.clock import current_datetime_tool
    from groundgate.tools.builtin.logs import query_logs_tool
    from groundgate.tools.builtin.metrics import query_metrics_tool
    from groundgate.tools.builtin.order_query import count_orders_tool
    from groundgate.tools.builtin.orders import query_order_tool

    names: list[str] = []
    if logs is not None:
        spec, run_logs = query_logs_tool(logs)
        registry.register(spec, run_logs)
        names.append(spec.name)
    if metrics is not None:
        spec, run_metrics = query_metrics_tool(metrics)
        registry.register(spec, run_metrics)
        names.append(spec.name)
    if orders is not None:
        spec, run_orders = query_order_tool(orders)
        registry.register(spec, run_orders)
        names.append(spec.name)
        spec, run_order_set = count_orders_tool(orders)
        registry.register(spec, run_order_set)
        names.append(spec.name)
    spec, run_clock = current_datetime_tool(clock)
    registry.register(spec, run_clock)
    names.append(spec.name)
    return names

"""`OrderStore` (orders in SQLite) and the `query_order` tool.

Input: JSONL, one order per line: `order_id`, `tenant`, `status`, `amount`, `currency`, `channel`,
`created_at`, `updated_at`, `failure_code`, `trace_id` (`order_id`, `tenant` and `status` are
required; the `tenant` given to `load_jsonl` is the default for lines without one). Other keys are
kept as `attrs`. An order is identified by tenant and order id; a later line (or file) with the
same pair replaces the earlier one.

Tenancy: `get(tenant, order_id)` reads only that tenant's orders. Another tenant's order is **not
found** — the tool answers `EMPTY` exactly as for an order that does not exist, never `DENIED`, so
that the answer does not reveal that the order exists.
`select(tenant, …)` (the `count_orders` tool, `order_query.py`) likewise reads only that tenant's
orders.

Order ids: `ORDER_ID_PATTERN`, upper-cased before matching (`ord-20260314-00042` is
`ORD-20260314-00042`): a prefix of 2-10 letters or digits starting with a letter, an 8-digit date
and a 3-10 digit sequence.

Facts: `order.status`, `order.amount` (a number), `order.currency`, `order.channel`,
`order.failure_code`, `order.created_at`, `order.updated_at`, `order.trace_id` (those present), each
with `fact_ref` `order:<order_id>:<field>`, a 60 s TTL (order state is live) and the authorization
snapshot `{tenant, user}` it was read under.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.errors import UsageError
from groundgate.tools.builtin.clock import format_utc, from_epoch_us, parse_timestamp, to_epoch_us, utc_now
from groundgate.tools.builtin.stores import EmbeddedStore, LoadReport, iter_json_objects
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = [
    "ORDERS_TOOL",
    "ORDER_FACT_TTL_SECONDS",
    "ORDER_ID_PATTERN",
    "Order",
    "OrderStore",
    "QueryOrderArgs",
    "query_order_tool",
]

#: Name of the order tool.
ORDERS_TOOL = "query_order"
#: How long an order fact may be trusted.
ORDER_FACT_TTL_SECONDS = 60
#: What an order id looks like (after upper-casing).
ORDER_ID_PATTERN = r"^[A-Z][A-Z0-9]{1,9}-[0-9]{8}-[0-9]{3,10}$"
_ORDER_ID = re.compile(ORDER_ID_PATTERN)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS orders (
    tenant TEXT NOT NULL,
    order_id TEXT NOT NULL,
    status TEXT NOT NULL,
    amount TEXT,
    currency TEXT,
    channel TEXT,
    created_at_us INTEGER,
    updated_at_us INTEGER,
    failure_code TEXT,
    trace_id TEXT,
    attrs TEXT,
    file_id INTEGER NOT NULL,
    line_no INTEGER NOT NULL,
    PRIMARY KEY (tenant, order_id)
);
CREATE INDEX IF NOT EXISTS orders_file ON orders (file_id);
"""

_OPTIONAL_TEXT = ("currency", "channel", "failure_code", "trace_id")


def normalise_order_id(value: str) -> str:
    """Stripped and upper-cased."""
    return value.strip().upper()


class Order(BaseModel):
    """One order as stored (the tenant is deliberately not part of it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    order_id: str
    status: str
    amount: Decimal | None = None
    currency: str | None = None
    channel: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    failure_code: str | None = None
    trace_id: str | None = None
    attrs: dict[str, Any] = Field(default_factory=dict)


@dataclass(slots=True)
class _Row:
    tenant: str
    order_id: str
    status: str
    amount: str | None
    text: dict[str, str | None]
    created_at_us: int | None
    updated_at_us: int | None
    attrs: dict[str, Any] | None
    line_no: int


def _order_row(line_no: int, obj: dict[str, Any], tenant: str | None) -> _Row | str:
    data = dict(obj)
    order_id = data.pop("order_id", None)
    if not isinstance(order_id, str) or not _ORDER_ID.match(normalise_order_id(order_id)):
        return "missing or invalid 'order_id'"
    line_tenant = data.pop("tenant", None) or tenant
    if not isinstance(line_tenant, str) or not line_tenant.strip():
        return "missing 'tenant'"
    status = data.pop("status", None)
    if not isinstance(status, str) or not status.strip():
        return "missing 'status'"
    amount: str | None = None
    raw_amount = data.pop("amount", None)
    if raw_amount is not None:
        if isinstance(raw_amount, bool):
            return "non-numeric 'amount'"
        try:
            number = Decimal(str(raw_amount))
        except InvalidOperation:
            return f"non-numeric 'amount' {str(raw_amount)[:40]!r}"
        if not number.is_finite():
            return "non-finite 'amount'"
        amount = str(number)
    times: dict[str, int | None] = {}
    for key in ("created_at", "updated_at"):
        value = data.pop(key, None)
        try:
            times[key] = to_epoch_us(parse_timestamp(value)) if value is not None else None
        except (ValueError, OverflowError):
            return f"bad timestamp in {key!r}"
    text: dict[str, str | None] = {}
    for key in _OPTIONAL_TEXT:
        value = data.pop(key, None)
        text[key] = str(value).strip() if value not in (None, "") else None
    return _Row(
        tenant=line_tenant.strip(),
        order_id=normalise_order_id(order_id),
        status=status.strip().upper(),
        amount=amount,
        text=text,
        created_at_us=times["created_at"],
        updated_at_us=times["updated_at"],
        attrs=data or None,
        line_no=line_no,
    )


def _order_of(row: sqlite3.Row) -> Order:
    return Order(
        order_id=row["order_id"],
        status=row["status"],
        amount=Decimal(row["amount"]) if row["amount"] is not None else None,
        currency=row["currency"],
        channel=row["channel"],
        created_at=from_epoch_us(row["created_at_us"]) if row["created_at_us"] is not None else None,
        updated_at=from_epoch_us(row["updated_at_us"]) if row["updated_at_us"] is not None else None,
        failure_code=row["failure_code"],
        trace_id=row["trace_id"],
        attrs=json.loads(row["attrs"]) if row["attrs"] else {},
    )


class OrderStore(EmbeddedStore):
    """Orders in SQLite, read per tenant (see the module docstring)."""

    kind = "order"
    schema = _SCHEMA

    def _delete_file_records(self, conn: sqlite3.Connection, file_id: int) -> None:
        conn.execute("DELETE FROM orders WHERE file_id = ?", (file_id,))

    def load_jsonl(
        self, path: str | Path, *, tenant: str | None = None, source: str | None = None
    ) -> LoadReport:
        """Load a JSONL file of orders; `tenant` is the default for lines without one."""

        def records(file: Path, report: LoadReport) -> Iterator[_Row]:
            for line_no, obj in iter_json_objects(file, report, parse_float=Decimal):
                outcome = _order_row(line_no, obj, tenant)
                if isinstance(outcome, str):
                    report.add_invalid(line_no, outcome)
                else:
                    yield outcome

        def write(conn: sqlite3.Connection, file_id: int, row: _Row) -> bool:
            conn.execute(
                "INSERT INTO orders (tenant, order_id, status, amount, currency, channel, created_at_us,"
                " updated_at_us, failure_code, trace_id, attrs, file_id, line_no)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (tenant, order_id) DO UPDATE SET status = excluded.status,"
                " amount = excluded.amount, currency = excluded.currency, channel = excluded.channel,"
                " created_at_us = excluded.created_at_us, updated_at_us = excluded.updated_at_us,"
                " failure_code = excluded.failure_code, trace_id = excluded.trace_id,"
                " attrs = excluded.attrs, file_id = excluded.file_id, line_no = excluded.line_no",
                (
                    row.tenant,
                    row.order_id,
                    row.status,
                    row.amount,
                    row.text["currency"],
                    row.text["channel"],
                    row.created_at_us,
                    row.updated_at_us,
                    row.text["failure_code"],
                    row.text["trace_id"],
                    json.dumps(row.attrs, ensure_ascii=False, default=str) if row.attrs else None,
                    file_id,
                    row.line_no,
                ),
            )
            return True

        return self._load(path, source, records, write)

    def get(self, tenant: str, order_id: str) -> Order | None:
        """The order of `tenant` with this id; None when absent **or another tenant's**."""
        if not tenant or not tenant.strip():
            raise UsageError("a tenant is required to read orders")

        def read(conn: sqlite3.Connection) -> Order | None:
            row = conn.execute(
                "SELECT * FROM orders WHERE tenant = ? AND order_id = ?",
                (tenant, normalise_order_id(order_id)),
            ).fetchone()
            return None if row is None else _order_of(row)

        return self._read(read)

    def select(
        self,
        tenant: str,
        *,
        statuses: tuple[str, ...] = (),
        failure_codes: tuple[str, ...] = (),
        channel: str | None = None,
        start: datetime | None = None,
        end: datetime | None = None,
        by_update: bool = False,
    ) -> list[Order]:
        """The orders of `tenant` (never another tenant's) with any of `statuses`, any of
        `failure_codes`, that `channel`, created in [`start`, `end`), oldest first; an empty filter
        does not narrow. `by_update`: the window holds the order's last status change instead (when a
        failed order failed, a paid one was paid; its creation time when it never changed)."""
        if not tenant or not tenant.strip():
            raise UsageError("a tenant is required to read orders")
        where: list[str] = ["tenant = ?"]
        params: list[object] = [tenant]
        for column, values in (("status", statuses), ("failure_code", failure_codes)):
            if values:
                where.append(f"{column} IN ({', '.join('?' for _ in values)})")
                params.extend(values)
        if channel:
            where.append("channel = ?")
            params.append(channel)
        moment = "COALESCE(updated_at_us, created_at_us)" if by_update else "created_at_us"
        if start is not None:
            where.append(f"{moment} >= ?")
            params.append(to_epoch_us(start))
        if end is not None:
            where.append(f"{moment} < ?")
            params.append(to_epoch_us(end))
        sql = f"SELECT * FROM orders WHERE {' AND '.join(where)} ORDER BY created_at_us, order_id"
        return self._read(lambda conn: [_order_of(row) for row in conn.execute(sql, params).fetchall()])

    def tenants(self) -> set[str]:
        """Every tenant with a stored order (internal only, as `LogStore.tenants`)."""
        rows = self._read(lambda conn: conn.execute("SELECT DISTINCT tenant FROM orders").fetchall())
        return {str(row[0]) for row in rows}

    def count(self, tenant: str) -> int:
        """Orders of `tenant`."""
        return self._read(
            lambda conn: int(
                conn.execute("SELECT count(*) FROM orders WHERE tenant = ?", (tenant,)).fetchone()[0]
            )
        )


# --------------------------------------------------------------------------- the tool


class QueryOrderArgs(ToolArguments):
    """Arguments of `query_order`: one order id. The tenant comes from the `ExecutionContext`."""

    order_id: str = Field(
        pattern=ORDER_ID_PATTERN,
        description="Order id such as ORD-20260314-00042 (case-insensitive).",
    )

    @field_validator("order_id", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return normalise_order_id(value) if isinstance(value, str) else value


def _order_facts(order: Order) -> list[tuple[str, Any]]:
    """(field, value) pairs for the facts of an order, in a fixed order, absent fields skipped."""
    pairs: list[tuple[str, Any]] = [
        ("status", order.status),
        ("amount", float(order.amount) if order.amount is not None else None),
        ("currency", order.currency),
        ("channel", order.channel),
        ("failure_code", order.failure_code),
        ("created_at", format_utc(order.created_at) if order.created_at else None),
        ("updated_at", format_utc(order.updated_at) if order.updated_at else None),
        ("trace_id", order.trace_id),
    ]
    return [(name, value) for name, value in pairs if value is not None]


def query_order_tool(store: OrderStore) -> tuple[ToolSpec, ToolFunction[QueryOrderArgs]]:
    """The `query_order` tool over `store` (policy `tenant`; see the module docstring)."""
    spec = ToolSpec(
        name=ORDERS_TOOL,
        description=(
            "Look up one order by id: status, amount and currency, payment channel, failure code,"
            " creation and update times, trace id."
        ),
        argument_model=QueryOrderArgs,
        authorization_policy="tenant",
        timeout_seconds=3.0,
    )

    def run(args: QueryOrderArgs, ctx: ExecutionContext) -> ToolOutput:
        order = store.get(ctx.tenant, args.order_id)
        if order is None:
            message = f"order {args.order_id} not found"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[message], observation=message)
        now = utc_now()
        snapshot = {"tenant": ctx.tenant, "user": ctx.user}
        facts = [
            VerifiedFact(
                fact_ref=f"order:{order.order_id}:{name}",
                fact_type=f"order.{name}",
                value=value,
                source_system="order_store",
                queried_at=now,
                ttl_seconds=ORDER_FACT_TTL_SECONDS,
                scope="tenant",
                authorization_snapshot=snapshot,
            )
            for name, value in _order_facts(order)
        ]
        parts = [f"order {order.order_id} status {order.status}"]
        if order.amount is not None:
            parts.append(f"amount {order.amount} {order.currency or ''}".rstrip())
        if order.channel:
            parts.append(f"channel {order.channel}")
        if order.failure_code:
            parts.append(f"failure {order.failure_code}")
        if order.updated_at:
            parts.append(f"updated {format_utc(order.updated_at)}")
        return ToolOutput(
            status=ToolStatus.OK,
            facts=facts,
            observation="; ".join(parts),
            evidence_refs=[EvidenceRef(invocation_id="", citation_id=fact.fact_ref) for fact in facts],
        )

    return spec, run

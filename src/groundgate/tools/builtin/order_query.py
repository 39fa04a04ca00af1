"""The `count_orders` tool: how many of the tenant's orders have a status, a failure code, a channel
and were created in a window, and which (docs/design.md §8, Session 31 round 5).

Read-only, over the same `OrderStore` the `query_order` lookup reads, with policy `tenant`: every
read is `OrderStore.select(ctx.tenant, …)`, so another tenant's orders are never counted, listed or
summed. The tenant is never an argument (the registry refuses an argument model declaring one).

Arguments (all optional; given filters must all match; none means every order of the tenant):
`status` (one or more of the stored statuses, upper-cased), `failure_code` (one or more exact codes,
`ERR_TIMEOUT`, `PAY-4003`), `channel` (exact, upper-cased), `start`/`end` (created in [start, end),
ISO 8601, UTC if no offset), `window_by` (`created`, the default, or `updated`: the window then holds
the order's last status change, when a failed order failed or a paid one was paid — "orders that
failed between 14:05 and 14:32" counts one created at 14:04:58 that failed at 14:05:03). A bad status
or code, or `start` not before `end`, is refused by the registry as `invalid_arguments` with the field
named.

OK: one `order.set` fact (`fact_ref` `orderset:<hash of the filters>`) whose value holds `count`,
`filters`, `amount_total`, `by_status` and `summary` — one line a person (and the verifier) reads:
`25 orders (created 2026-03-14 15:00–16:00 UTC), total 9120.5: 21 PAID (total 5294.5); 3 PENDING
(total 3827: ORD-…, ORD-…, ORD-…); 1 FAILED (total 199; PAY-4003 1: ORD-…)`. A status or failure code
group of at most `_LISTED` orders lists its ids; every group gives its largest order when it has
more than one. EMPTY when nothing matches, with the filters in the gap.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Literal

from pydantic import Field, field_validator, model_validator

from groundgate.contracts import EvidenceRef, ExecutionContext, ToolOutput, ToolSpec, ToolStatus, VerifiedFact
from groundgate.tools.builtin.clock import UtcDatetime, format_utc, utc_now
from groundgate.tools.builtin.orders import ORDER_FACT_TTL_SECONDS, Order, OrderStore
from groundgate.tools.registry import ToolArguments, ToolFunction

__all__ = ["ORDER_SET_TOOL", "CountOrdersArgs", "count_orders_tool", "order_set_summary"]

#: Name of the order query tool.
ORDER_SET_TOOL = "count_orders"
#: A group of at most this many orders lists their ids.
_LISTED = 5
_STATUS = re.compile(r"^[A-Z][A-Z_]{1,31}$")
_CODE = re.compile(r"^[A-Z][A-Z0-9_-]{1,39}$")


class CountOrdersArgs(ToolArguments):
    """Arguments of `count_orders`. The tenant comes from the `ExecutionContext`, never from here."""

    status: list[str] | None = Field(
        None, max_length=8, description="Order status(es): PAID, FAILED, PENDING, REFUNDED, PROCESSING…"
    )
    failure_code: list[str] | None = Field(
        None, max_length=10, description="Failure code(s), exact: ERR_TIMEOUT, PAY-4003…"
    )
    channel: str | None = Field(
        None, min_length=1, max_length=40, description="Payment channel (ICBC, CMB…)."
    )
    start: UtcDatetime | None = Field(None, description="Created at or after, ISO 8601 (UTC if no offset).")
    end: UtcDatetime | None = Field(None, description="Created before, ISO 8601 (UTC if no offset).")
    window_by: Literal["created", "updated"] = Field(
        "created",
        description="What start/end bound: the creation time, or the last status change (when it failed).",
    )

    @field_validator("status", "failure_code", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("status")
    @classmethod
    def _statuses(cls, value: list[str] | None) -> list[str] | None:
        return _upper_all(value, _STATUS, "an order status")

    @field_validator("failure_code")
    @classmethod
    def _codes(cls, value: list[str] | None) -> list[str] | None:
        return _upper_all(value, _CODE, "a failure code")

    @field_validator("channel")
    @classmethod
    def _channel(cls, value: str | None) -> str | None:
        return value.upper() if value else value

    @model_validator(mode="after")
    def _range(self) -> CountOrdersArgs:
        if self.start is not None and self.end is not None and self.start >= self.end:
            raise ValueError("start must be before end")
        return self


def _upper_all(value: list[str] | None, shape: re.Pattern[str], what: str) -> list[str] | None:
    if value is None:
        return None
    items = sorted({item.strip().upper() for item in value} - {""})
    for item in items:
        if not shape.match(item):
            raise ValueError(f"not {what}: {item[:40]!r}")
    return items or None


def _filters_text(args: CountOrdersArgs) -> str:
    parts: list[str] = []
    if args.status:
        parts.append("status " + "/".join(args.status))
    if args.failure_code:
        parts.append("failure " + "/".join(args.failure_code))
    if args.channel:
        parts.append(f"channel {args.channel}")
    # the summary says which moment the window holds, so a count by failure time is never read as
    # a count by creation time
    moment = "status last changed" if args.window_by == "updated" else "created"
    if args.start and args.end:
        parts.append(f"{moment} {_minute(args.start)}–{_minute(args.end)[11:]} UTC")
    elif args.start:
        parts.append(f"{moment} from {_minute(args.start)} UTC")
    elif args.end:
        parts.append(f"{moment} before {_minute(args.end)} UTC")
    return ", ".join(parts) or "all orders"


def _minute(moment: datetime) -> str:
    """`2026-03-14 15:00`."""
    return format_utc(moment)[:16].replace("T", " ")


def _money(value: Decimal) -> str:
    """`4512.20` → `4512.2`, `899.00` → `899` (as the verifier renders numbers)."""
    return format(value.normalize(), "f")


def _total(orders: Sequence[Order]) -> Decimal:
    return sum((o.amount for o in orders if o.amount is not None), Decimal(0))


def _group_text(label: str, orders: Sequence[Order]) -> str:
    """`3 PENDING (total 3827: ORD-…, …)`, or with the largest when the group is not listed."""
    inner = [f"total {_money(_total(orders))}"]
    priced = [o for o in orders if o.amount is not None]
    if len(orders) > _LISTED and priced:
        top = max(priced, key=lambda o: (o.amount, o.order_id))
        inner.append(f"largest {top.order_id} {_money(top.amount or Decimal(0))}")
    return f"{len(orders)} {label} ({'; '.join(inner)}" + (
        ": " + ", ".join(o.order_id for o in orders) + ")" if len(orders) <= _LISTED else ")"
    )


def order_set_summary(orders: Sequence[Order], filters: str) -> str:
    """The one line that states a set of orders (module docs)."""
    by_status: dict[str, list[Order]] = {}
    for order in orders:
        by_status.setdefault(order.status, []).append(order)
    groups: list[str] = []
    for status, members in sorted(by_status.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        text = _group_text(status, members)
        codes: dict[str, list[Order]] = {}
        for order in members:
            if order.failure_code:
                codes.setdefault(order.failure_code, []).append(order)
        if codes and len(members) > _LISTED:
            listed = sorted(codes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
            text = text[:-1] + "; " + "; ".join(_group_text(code, group) for code, group in listed) + ")"
        groups.append(text)
    return f"{len(orders)} orders ({filters}), total {_money(_total(orders))}: " + "; ".join(groups)


def count_orders_tool(store: OrderStore) -> tuple[ToolSpec, ToolFunction[CountOrdersArgs]]:
    """The `count_orders` tool over `store` (policy `tenant`; see the module docstring)."""
    spec = ToolSpec(
        name=ORDER_SET_TOOL,
        description=(
            "Count and list orders by status, failure code and payment channel, created (or, with"
            " window_by=updated, last changing status) within a time window: how many, their total"
            " amount, per status and failure code, with order ids."
        ),
        argument_model=CountOrdersArgs,
        authorization_policy="tenant",
        timeout_seconds=3.0,
    )

    def run(args: CountOrdersArgs, ctx: ExecutionContext) -> ToolOutput:
        orders = store.select(
            ctx.tenant,
            statuses=tuple(args.status or ()),
            failure_codes=tuple(args.failure_code or ()),
            channel=args.channel,
            start=args.start,
            end=args.end,
            by_update=args.window_by == "updated",
        )
        filters = _filters_text(args)
        if not orders:
            message = f"no orders match ({filters})"
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[message], observation=message)
        summary = order_set_summary(orders, filters)
        by_status = dict(Counter(order.status for order in orders))
        fact = VerifiedFact(
            fact_ref="orderset:" + hashlib.sha256(filters.encode()).hexdigest()[:16],
            fact_type="order.set",
            value={
                "count": len(orders),
                "filters": filters,
                "amount_total": _money(_total(orders)),
                "by_status": by_status,
                "summary": summary,
            },
            source_system="order_store",
            queried_at=utc_now(),
            ttl_seconds=ORDER_FACT_TTL_SECONDS,
            scope="tenant",
            authorization_snapshot={"tenant": ctx.tenant, "user": ctx.user},
        )
        return ToolOutput(
            status=ToolStatus.OK,
            facts=[fact],
            observation=summary,
            evidence_refs=[EvidenceRef(invocation_id="", citation_id=fact.fact_ref)],
        )

    return spec, run

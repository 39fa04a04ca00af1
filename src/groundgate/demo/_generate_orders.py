"""The demo's orders: planned, then each one's log lines, refunds and queries (`_generate_workspace`)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Final

from groundgate.demo._generate_base import (
    CHANNELS,
    INCIDENT_START,
    MINUTES,
    RESIZE_AT,
    LogBook,
    Metrics,
    at,
    pool_at,
    ts_log,
)

# --------------------------------------------------------------------------- orders


@dataclass
class Order:
    number: int
    tenant: str
    channel: str
    amount: float
    outcome: str
    """PAID, REFUND, PENDING_CALLBACK, PENDING_UNKNOWN, ERR_TIMEOUT, ERR_POOL_EXHAUSTED, PAY-4003, PAY-4005."""
    pay_start: int
    trace_id: str
    created: int = 0
    status: str = ""
    failure_code: str | None = None
    updated: int = 0
    lock_ms: int = 0
    paid_ms: int = 0
    refund_done_ms: int | None = None

    @property
    def order_id(self) -> str:
        return f"ORD-20260314-{self.number:05d}"

    def to_json(self) -> str:
        parts = [
            f'"order_id": {json.dumps(self.order_id)}',
            f'"tenant": {json.dumps(self.tenant)}',
            f'"status": {json.dumps(self.status)}',
            f'"amount": {self.amount:.2f}',
            '"currency": "CNY"',
            f'"channel": {json.dumps(self.channel)}',
            f'"created_at": {json.dumps(ts_log(self.created))}',
            f'"updated_at": {json.dumps(ts_log(self.updated))}',
            f'"failure_code": {json.dumps(self.failure_code)}',
            f'"trace_id": {json.dumps(self.trace_id)}',
        ]
        return "{" + ", ".join(parts) + "}"

    def status_at(self, ms: int) -> str:
        if ms < self.lock_ms:
            return "CREATED"
        if ms < self.paid_ms:
            return "PENDING"
        if self.refund_done_ms is not None:
            return "REFUNDED" if ms >= self.refund_done_ms else "PAID"
        return self.status


@dataclass(frozen=True)
class Fixed:
    tenant: str
    channel: str
    amount: float
    outcome: str
    trace_id: str
    pay_start: int | None = None
    refund_at: int | None = None


# Orders and trace ids that tests, questions and the showcase rely on.
FIXED_ORDERS: Final[dict[int, Fixed]] = {
    8: Fixed("acme", "ICBC", 329.00, "REFUND", "a81c5e7f2d9b0364", refund_at=at(15, 12, 4, 551)),
    17: Fixed("acme", "CMB", 88.50, "PAID", "c3d8e1f05a7b9246"),
    23: Fixed("globex", "CCB", 1299.00, "PAID", "2c6e0a9d4b7f1358"),
    25: Fixed("acme", "ICBC", 2599.00, "PAY-4003", "e4b1970c3a5d2f86"),
    42: Fixed("acme", "CMB", 199.00, "ERR_TIMEOUT", "4f1c9a2e7b3d4a10", pay_start=at(14, 5, 0, 118)),
    57: Fixed("globex", "ICBC", 459.00, "ERR_TIMEOUT", "9b7e3c1d5a2f8e64"),
    81: Fixed("acme", "CCB", 59.90, "ERR_POOL_EXHAUSTED", "7e2a9c4b1d6f3085"),
    130: Fixed("acme", "CMB", 99.00, "PAID", "5d0f8b2e6c1a4973"),
    200: Fixed("acme", "BOC", 899.00, "PENDING_UNKNOWN", "b5e09d3c7f1a2468"),
}

# (first pay start, last pay start, count) — order numbers run on in this order.
SEGMENTS: Final = (
    (at(13, 0, 20), at(13, 59, 0), 30),  # 1-30 before the promotion
    (at(14, 0, 5), at(14, 4, 55), 11),  # 31-41 promotion ramp
    (at(14, 5, 0, 118), at(14, 5, 0, 118), 1),  # 42
    (at(14, 5, 12), at(14, 29, 40), 70),  # 43-112 incident
    (at(14, 30, 20), at(14, 59, 40), 75),  # 113-187 recovered, promotion still on
    (at(15, 0, 30), at(15, 58, 0), 34),  # 188-221 after the promotion
)
AMOUNTS: Final = (
    19.90,
    39.00,
    59.90,
    88.50,
    99.00,
    129.00,
    199.00,
    259.00,
    329.00,
    459.00,
    899.00,
    1299.00,
    2599.00,
)
CHANNEL_WEIGHTS: Final = {"acme": (55, 25, 12, 8), "globex": (25, 35, 25, 15)}


def plan_orders(rng: random.Random, metrics: Metrics, book: LogBook) -> list[Order]:
    for reserved in FIXED_ORDERS.values():
        book.reserve(reserved.trace_id)
    orders: list[Order] = []
    number = 0
    for first, last, count in SEGMENTS:
        spacing = (last - first) / count if count > 1 else 0.0
        for k in range(count):
            number += 1
            jitter = rng.uniform(-0.3, 0.3)
            start = first if count == 1 else round(first + (k + 0.5) * spacing + jitter * spacing)
            promo = at(14, 0) <= start < at(15, 0)
            tenant = "acme" if rng.random() < (0.9 if promo else 0.75) else "globex"
            channel = rng.choices(CHANNELS, weights=CHANNEL_WEIGHTS[tenant])[0]
            amount = rng.choice(AMOUNTS)
            outcome = _random_outcome(rng, metrics, start)
            fixed = FIXED_ORDERS.get(number)
            if fixed is not None:
                tenant, channel, amount, outcome = fixed.tenant, fixed.channel, fixed.amount, fixed.outcome
                start = fixed.pay_start if fixed.pay_start is not None else round(first + (k + 0.5) * spacing)
                trace_id = fixed.trace_id
            else:
                trace_id = book.trace()
            orders.append(Order(number, tenant, channel, amount, outcome, start, trace_id))
    # the last two orders are still waiting for their bank callback when the window ends
    for order in orders[-2:]:
        if order.number not in FIXED_ORDERS:
            order.outcome = "PENDING_CALLBACK"
    # a few more refunds of earlier payments, later in the afternoon
    candidates = [
        o for o in orders if o.outcome == "PAID" and o.number not in FIXED_ORDERS and o.pay_start < at(14, 50)
    ]
    for order in rng.sample(candidates, 5):
        order.outcome = "REFUND"
    starts = [o.pay_start for o in orders]
    assert starts == sorted(starts), "order numbers must follow time"
    return orders


def _random_outcome(rng: random.Random, metrics: Metrics, start: int) -> str:
    index = start // 60_000
    draw = rng.random()
    if INCIDENT_START <= start < RESIZE_AT:
        p_timeout = min(0.5, 2.2 * metrics.error_rate["ERR_TIMEOUT"][index] / 100)
        p_exhausted = 4 * metrics.error_rate["ERR_POOL_EXHAUSTED"][index] / 100
        if draw < p_timeout:
            return "ERR_TIMEOUT"
        if draw < p_timeout + p_exhausted:
            return "ERR_POOL_EXHAUSTED"
        draw = rng.random()
    if draw < 0.04:
        return "PAY-4003"
    if draw < 0.06:
        return "PAY-4005"
    return "PAID"


MERCHANT_PREFIX: Final = {"acme": "AC", "globex": "GX"}
DECLINE_REASON: Final = {"PAY-4003": "insufficient_balance", "PAY-4005": "card_frozen"}


def emit_order(rng: random.Random, book: LogBook, metrics: Metrics, order: Order) -> None:
    t_lock = _order_opened(rng, book, order)
    active, maximum, waiters = pool_at(metrics, t_lock)
    if order.outcome == "ERR_TIMEOUT":
        _order_timed_out(rng, book, metrics, order, t_lock, maximum)
    elif order.outcome == "ERR_POOL_EXHAUSTED":
        _order_rejected_by_pool(rng, book, order, t_lock, maximum)
    else:
        _order_through_bank(rng, book, order, t_lock, (active, maximum, waiters))


def _order_opened(rng: random.Random, book: LogBook, order: Order) -> int:
    """Created, received by the gateway, risk-checked and locked: the moment of the lock."""
    t0 = order.pay_start
    tr, tenant, oid, ch = order.trace_id, order.tenant, order.order_id, order.channel
    order.created = t0 - rng.randint(1500, 3000)
    book.add(
        order.created,
        "order-service",
        "INFO",
        book.trace(),
        tenant,
        f"order created order_id={oid} merchant_order_no={MERCHANT_PREFIX[tenant]}-{rng.randint(1_000_000, 9_999_999)} "
        f"amount={order.amount:.2f} currency=CNY",
    )
    book.add(
        t0,
        "payment-gateway",
        "INFO",
        tr,
        tenant,
        f"recv POST /api/v1/pay order_id={oid} amount={order.amount:.2f} currency=CNY channel={ch}",
    )
    t_risk = t0 + rng.randint(8, 25)
    book.add(
        t_risk,
        "risk-service",
        "INFO",
        tr,
        tenant,
        f"risk check passed order_id={oid} score={rng.randint(3, 38)} took_ms={t_risk - t0 - 2}",
    )
    t_lock = t_risk + rng.randint(10, 30)
    order.lock_ms = t_lock
    book.add(
        t_lock,
        "order-service",
        "INFO",
        tr,
        tenant,
        f"order locked for payment order_id={oid} status CREATED -> PENDING",
    )
    return t_lock


def _finish_failed(
    rng: random.Random, book: LogBook, order: Order, t_fail: int, code: str, http: int
) -> None:
    t0, tr, tenant, oid = order.pay_start, order.trace_id, order.tenant, order.order_id
    book.add(
        t_fail,
        "payment-gateway",
        "WARN" if code.startswith("PAY-") else "ERROR",
        tr,
        tenant,
        f"pay request done order_id={oid} status=FAILED error_code={code} http={http} took_ms={t_fail - t0}",
    )
    t_order = t_fail + rng.randint(5, 20)
    level = "WARN" if code.startswith("PAY-") else "ERROR"
    book.add(
        t_order,
        "order-service",
        level,
        tr,
        tenant,
        f"payment failed order_id={oid} failure_code={code} status PENDING -> FAILED",
    )
    book.add(
        t_order + rng.randint(60, 200),
        "notification-service",
        "INFO",
        tr,
        tenant,
        f"webhook delivered event=payment.failed order_id={oid} http=200 took_ms={rng.randint(60, 140)}",
    )
    order.status, order.failure_code, order.updated, order.paid_ms = "FAILED", code, t_order, t_order


def _order_timed_out(
    rng: random.Random, book: LogBook, metrics: Metrics, order: Order, t_lock: int, maximum: int
) -> None:
    t0, tr, tenant, oid, ch = order.pay_start, order.trace_id, order.tenant, order.order_id, order.channel
    t_err = t0 + 3002 if order.number == 42 else t0 + rng.randint(3001, 3006)
    book.add(
        t_err,
        "payment-gateway",
        "ERROR",
        tr,
        tenant,
        f"ERR_TIMEOUT bank channel {ch} no response in 3000ms order_id={oid}",
    )
    t_proxy = t_lock + 3000 + rng.randint(2, 9)
    _, _, w = pool_at(metrics, t_proxy)
    book.add(
        t_proxy,
        "payment-db-proxy",
        "WARN",
        tr,
        tenant,
        f"acquire connection timeout pool=payment-db active={maximum}/{maximum} waiters={max(w, 1)} waited_ms=3000 order_id={oid}",
    )
    _finish_failed(rng, book, order, t_err + rng.randint(1, 3), "ERR_TIMEOUT", 504)


def _order_rejected_by_pool(
    rng: random.Random, book: LogBook, order: Order, t_lock: int, maximum: int
) -> None:
    tr, tenant, oid = order.trace_id, order.tenant, order.order_id
    t_rej = t_lock + rng.randint(1, 4)
    book.add(
        t_rej,
        "payment-db-proxy",
        "ERROR",
        tr,
        tenant,
        f"wait queue full pool=payment-db active={maximum}/{maximum} waiters=300/300 rejected order_id={oid} error_code=ERR_POOL_EXHAUSTED",
    )
    t_gw = t_rej + rng.randint(2, 6)
    book.add(
        t_gw,
        "payment-gateway",
        "ERROR",
        tr,
        tenant,
        f"ERR_POOL_EXHAUSTED payment-db pool wait queue full order_id={oid}",
    )
    _finish_failed(rng, book, order, t_gw + rng.randint(1, 3), "ERR_POOL_EXHAUSTED", 503)


def _order_through_bank(
    rng: random.Random, book: LogBook, order: Order, t_lock: int, pool: tuple[int, int, int]
) -> None:
    """The payment row written (waiting for a connection), the bank's answer, then the callback."""
    active, maximum, waiters = pool
    t0, tr, tenant, oid, ch = order.pay_start, order.trace_id, order.tenant, order.order_id, order.channel
    bank_ms = rng.randint(250, 700)
    if waiters == 0:
        wait_ms = 0
    elif INCIDENT_START <= t_lock < RESIZE_AT:
        wait_ms = rng.randint(1200, 2950 - bank_ms - (t_lock - t0) - 20)
    else:
        wait_ms = rng.randint(40, 400)
    t_db = t_lock + wait_ms + rng.randint(5, 15)
    level = "WARN" if wait_ms >= 1000 else "INFO"
    book.add(
        t_db,
        "payment-db-proxy",
        level,
        tr,
        tenant,
        f"insert payment_txn ok order_id={oid} pool=payment-db active={active}/{maximum} waiters={waiters} "
        f"wait_ms={wait_ms} took_ms={rng.randint(6, 14)}",
    )
    t_bank = t_db + bank_ms
    if order.outcome in DECLINE_REASON:
        book.add(
            t_bank,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"bank channel {ch} declined order_id={oid} code={order.outcome} reason={DECLINE_REASON[order.outcome]} took_ms={bank_ms}",
        )
        _finish_failed(rng, book, order, t_bank + rng.randint(3, 10), order.outcome, 422)
        return
    if order.outcome == "PENDING_UNKNOWN":
        t_bank += 1500
        book.add(
            t_bank,
            "payment-gateway",
            "WARN",
            tr,
            tenant,
            f"bank channel {ch} returned unknown status order_id={oid} code=PAY-5003 reconciliation required took_ms={bank_ms + 1500}",
        )
    else:
        book.add(
            t_bank,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"bank channel {ch} accepted order_id={oid} took_ms={bank_ms}",
        )
    t_done = t_bank + rng.randint(3, 10)
    book.add(
        t_done,
        "payment-gateway",
        "INFO",
        tr,
        tenant,
        f"pay request done order_id={oid} status=PENDING http=200 took_ms={t_done - t0}",
    )
    if order.outcome in ("PENDING_UNKNOWN", "PENDING_CALLBACK"):
        order.status, order.updated, order.paid_ms = "PENDING", t_lock, MINUTES * 60_000
        return
    _order_paid(rng, book, order, t_done)


def _order_paid(rng: random.Random, book: LogBook, order: Order, t_done: int) -> None:
    tr, tenant, oid, ch = order.trace_id, order.tenant, order.order_id, order.channel
    t_cb = t_done + rng.randint(1500, 8000)
    book.add(
        t_cb,
        "payment-gateway",
        "INFO",
        tr,
        tenant,
        f"callback received POST /api/v1/pay/callback channel={ch} order_id={oid} result=SUCCESS signature=ok",
    )
    t_paid = t_cb + rng.randint(10, 40)
    book.add(
        t_paid, "order-service", "INFO", tr, tenant, f"order status changed order_id={oid} PENDING -> PAID"
    )
    book.add(
        t_paid + rng.randint(60, 200),
        "notification-service",
        "INFO",
        tr,
        tenant,
        f"webhook delivered event=payment.succeeded order_id={oid} http=200 took_ms={rng.randint(50, 130)}",
    )
    order.status, order.updated, order.paid_ms = "PAID", t_paid, t_paid


def emit_refunds(rng: random.Random, book: LogBook, metrics: Metrics, orders: list[Order]) -> None:
    plans: list[tuple[int, Order]] = []
    for order in orders:
        if order.outcome != "REFUND":
            continue
        fixed = FIXED_ORDERS.get(order.number)
        start = (
            fixed.refund_at
            if fixed is not None and fixed.refund_at is not None
            else rng.randint(at(15, 5), at(15, 50))
        )
        plans.append((start, order))
    plans.sort(key=lambda item: item[0])
    for n, (t0, order) in enumerate(plans, start=1):
        rid = f"RF-20260314-{n:04d}"
        tr, tenant, oid = book.trace(), order.tenant, order.order_id
        book.add(
            t0,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"recv POST /api/v1/refunds order_id={oid} refund_id={rid} refund_amount={order.amount:.2f}",
        )
        active, maximum, _ = pool_at(metrics, t0)
        t_db = t0 + rng.randint(10, 30)
        book.add(
            t_db,
            "payment-db-proxy",
            "INFO",
            tr,
            tenant,
            f"insert refund_txn ok refund_id={rid} pool=payment-db active={active}/{maximum} waiters=0 wait_ms=0 took_ms={rng.randint(6, 14)}",
        )
        t_acc = t_db + rng.randint(200, 600)
        book.add(
            t_acc,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"refund accepted by channel {order.channel} refund_id={rid} order_id={oid} status=REFUND_PENDING",
        )
        t_cb = t_acc + rng.randint(20_000, 90_000)
        book.add(
            t_cb,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"refund callback channel={order.channel} refund_id={rid} order_id={oid} result=SUCCESS",
        )
        t_done = t_cb + rng.randint(10, 40)
        book.add(
            t_done,
            "order-service",
            "INFO",
            tr,
            tenant,
            f"order status changed order_id={oid} PAID -> REFUNDED refund_id={rid}",
        )
        book.add(
            t_done + rng.randint(60, 200),
            "notification-service",
            "INFO",
            tr,
            tenant,
            f"webhook delivered event=refund.succeeded order_id={oid} http=200 took_ms={rng.randint(50, 130)}",
        )
        order.status, order.updated, order.refund_done_ms = "REFUNDED", t_done, t_done


def emit_queries(rng: random.Random, book: LogBook, orders: list[Order]) -> None:
    times = [rng.randint(at(13, 5), at(15, 59, 50)) for _ in range(250)]
    times += [rng.randint(at(14, 8), at(14, 40)) for _ in range(60)]  # merchants checking failed payments
    for t0 in sorted(times):
        known = [o for o in orders if o.created < t0 - 10_000]
        if not known:
            continue
        order = rng.choice(known[-40:]) if rng.random() < 0.7 else rng.choice(known)
        tr, tenant, oid = book.trace(), order.tenant, order.order_id
        book.add(t0, "payment-gateway", "INFO", tr, tenant, f"recv GET /api/v1/pay/orders/{oid}")
        cache = "hit" if rng.random() < 0.92 else "miss"
        t_q = t0 + rng.randint(3, 8 if cache == "hit" else 30)
        book.add(
            t_q,
            "order-service",
            "INFO",
            tr,
            tenant,
            f"order query order_id={oid} cache={cache} status={order.status_at(t_q)}",
        )
        t_done = t_q + rng.randint(2, 8)
        book.add(
            t_done,
            "payment-gateway",
            "INFO",
            tr,
            tenant,
            f"request done GET /api/v1/pay/orders/{oid} http=200 took_ms={t_done - t0}",
        )

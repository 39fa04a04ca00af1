"""Generate the logs, metrics and orders of the bundled demo workspace, deterministically.

    python -m groundgate.demo._generate_workspace           # rewrite logs/, metrics/, orders.jsonl, then validate
    python -m groundgate.demo._generate_workspace --check   # validate only, write nothing

The documents (`workspace/docs/**/*.md`), the retrieval set (`questions.jsonl`) and the showcase
(`showcase.jsonl`) are hand-written files; this script only produces the machine data and checks that
everything fits together. Output is byte-identical on every run (one seeded `random.Random`, fixed
iteration order, no wall clock).

The story, 2026-03-14 13:00-16:00 UTC at the fictional payment platform Lanting Pay:

* 14:00 tenant acme's promotion PIDAY-314 starts (payment traffic about 2.5x) and the daily
  `recon-daily` report job starts scanning the payment-db primary (slow queries hold connections).
* 14:05 the payment-db connection pool (max_size 100) is pinned at 100/100, waiters grow; the gateway
  returns ERR_TIMEOUT (3000 ms budget), peaking at 18.4 % at 14:18; the wait queue hits its 300
  limit 14:17-14:20 and ERR_POOL_EXHAUSTED appears. Bank channel probes stay healthy throughout.
* 14:22 the DBA kills the report queries (some relief, still saturated).
* 14:30 emergency change CHG-20260314-007: `payment-db.pool.max_size 100 -> 200`; the queue drains by
  14:32, error rates return to baseline.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

WORKSPACE: Final = Path(__file__).resolve().parent / "workspace"
SEED: Final = 20260314
START: Final = datetime(2026, 3, 14, 13, 0, tzinfo=UTC)
MINUTES: Final = 180  # 13:00 .. 15:59, one metric point per minute

SERVICES: Final = (
    "payment-gateway",
    "order-service",
    "payment-db-proxy",
    "risk-service",
    "notification-service",
)
CHANNELS: Final = ("CMB", "ICBC", "CCB", "BOC")
ERROR_CODES: Final = (
    "ERR_TIMEOUT",
    "ERR_POOL_EXHAUSTED",
    "ERR_RATE_LIMIT",
    "ERR_SIGNATURE_INVALID",
    "ERR_DUPLICATE_ORDER",
)
MAX_WORKSPACE_BYTES: Final = 4 * 1024 * 1024


def at(hour: int, minute: int, second: int = 0, millis: int = 0) -> int:
    """Milliseconds since 13:00:00 UTC."""
    return ((hour - 13) * 3600 + minute * 60 + second) * 1000 + millis


def minute_index(hour: int, minute: int) -> int:
    return (hour - 13) * 60 + minute


INCIDENT_START: Final = at(14, 5)
RESIZE_AT: Final = at(14, 30)  # payment-db.pool.max_size 100 -> 200
RESIZE_MINUTE: Final = minute_index(14, 30)


def ts_log(ms: int) -> str:
    moment = START + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def ts_metric(index: int) -> str:
    return (START + timedelta(minutes=index)).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- metrics


def _table(points: Mapping[str, float]) -> dict[int, float]:
    """`{"14:05": 100}` -> `{minute index: value}`."""
    out: dict[int, float] = {}
    for key, value in points.items():
        hour, minute = (int(part) for part in key.split(":"))
        out[minute_index(hour, minute)] = value
    return out


# Incident-shaped values, minute by minute (everything else is baseline noise).
POOL_ACTIVE: Final = _table(
    {"14:00": 62, "14:01": 71, "14:02": 80, "14:03": 88, "14:04": 96}
    | {f"14:{m:02d}": 100 for m in range(5, 30)}
    | {"14:30": 168, "14:31": 152, "14:32": 141}
    | {"15:00": 112, "15:01": 95, "15:02": 82, "15:03": 70, "15:04": 62}
)
POOL_WAIT: Final = _table(
    {
        "14:04": 3,
        "14:05": 12,
        "14:06": 31,
        "14:07": 55,
        "14:08": 79,
        "14:09": 102,
        "14:10": 126,
        "14:11": 149,
        "14:12": 171,
        "14:13": 196,
        "14:14": 222,
        "14:15": 259,
        "14:16": 292,
        "14:17": 300,
        "14:18": 300,
        "14:19": 300,
        "14:20": 300,
        "14:21": 296,
        "14:22": 241,
        "14:23": 228,
        "14:24": 236,
        "14:25": 247,
        "14:26": 255,
        "14:27": 261,
        "14:28": 266,
        "14:29": 271,
        "14:30": 34,
        "14:31": 5,
    }
)
RATE_TIMEOUT: Final = _table(
    {
        "14:00": 0.2,
        "14:01": 0.3,
        "14:02": 0.4,
        "14:03": 0.6,
        "14:04": 1.1,
        "14:05": 2.4,
        "14:06": 4.6,
        "14:07": 6.9,
        "14:08": 8.8,
        "14:09": 9.9,
        "14:10": 10.8,
        "14:11": 11.9,
        "14:12": 12.7,
        "14:13": 13.8,
        "14:14": 14.9,
        "14:15": 16.1,
        "14:16": 17.2,
        "14:17": 17.9,
        "14:18": 18.4,
        "14:19": 18.1,
        "14:20": 17.6,
        "14:21": 16.9,
        "14:22": 14.2,
        "14:23": 13.6,
        "14:24": 14.1,
        "14:25": 14.8,
        "14:26": 15.3,
        "14:27": 15.6,
        "14:28": 15.9,
        "14:29": 16.2,
        "14:30": 3.1,
        "14:31": 0.9,
        "14:32": 0.4,
        "14:33": 0.3,
    }
)
RATE_POOL_EXHAUSTED: Final = _table(
    {"14:16": 0.4, "14:17": 1.6, "14:18": 2.3, "14:19": 2.1, "14:20": 1.8, "14:21": 0.7}
)
P99_GATEWAY: Final = _table(
    {
        "14:00": 560,
        "14:01": 720,
        "14:02": 980,
        "14:03": 1450,
        "14:04": 2300,
        "14:30": 1850,
        "14:31": 720,
        "14:32": 540,
    }
)
P99_DB_PROXY: Final = _table({"14:03": 180, "14:04": 900, "14:30": 1200, "14:31": 95, "14:32": 40})


def in_promo(index: int) -> bool:
    return minute_index(14, 0) <= index < minute_index(15, 0)


def in_incident(index: int) -> bool:
    return minute_index(14, 5) <= index < RESIZE_MINUTE


@dataclass
class Series:
    name: str
    labels: dict[str, str]
    values: list[float] = field(default_factory=list)


@dataclass
class Metrics:
    active: list[int]
    max_size: list[int]
    wait: list[int]
    order_active: list[int]
    error_rate: dict[str, list[float]]
    success: list[float]
    p99: dict[str, list[int]]
    lag_notify: list[int]
    lag_settlement: list[int]
    hit_rate: list[float]

    def series(self) -> list[Series]:
        out = [
            Series(
                "db_pool_active_connections",
                {"service": "payment-db-proxy", "pool": "payment-db"},
                [*self.active],
            ),
            Series(
                "db_pool_active_connections",
                {"service": "order-service", "pool": "order-db"},
                [*self.order_active],
            ),
            Series(
                "db_pool_max_connections",
                {"service": "payment-db-proxy", "pool": "payment-db"},
                [*self.max_size],
            ),
            Series(
                "db_pool_max_connections", {"service": "order-service", "pool": "order-db"}, [50] * MINUTES
            ),
            Series("db_pool_wait_queue", {"service": "payment-db-proxy", "pool": "payment-db"}, [*self.wait]),
            Series("db_pool_wait_queue", {"service": "order-service", "pool": "order-db"}, [0] * MINUTES),
        ]
        out += [
            Series(
                "payment_gateway_error_rate",
                {"service": "payment-gateway", "error_code": code},
                [*self.error_rate[code]],
            )
            for code in ERROR_CODES
        ]
        out += [Series("http_request_duration_p99_ms", {"service": s}, [*self.p99[s]]) for s in SERVICES]
        out += [
            Series("payment_success_rate", {"service": "payment-gateway"}, [*self.success]),
            Series(
                "kafka_consumer_lag",
                {"consumer_group": "notify-payment-events", "topic": "payment-events"},
                [*self.lag_notify],
            ),
            Series(
                "kafka_consumer_lag",
                {"consumer_group": "order-settlement", "topic": "order-events"},
                [*self.lag_settlement],
            ),
            Series("redis_hit_rate", {"service": "order-service", "cluster": "pay-cache"}, [*self.hit_rate]),
        ]
        return out


def build_metrics(rng: random.Random) -> Metrics:
    active: list[int] = []
    max_size: list[int] = []
    wait: list[int] = []
    order_active: list[int] = []
    rates: dict[str, list[float]] = {code: [] for code in ERROR_CODES}
    success: list[float] = []
    p99: dict[str, list[int]] = {s: [] for s in SERVICES}
    lag_notify: list[int] = []
    lag_settlement: list[int] = []
    hit_rate: list[float] = []
    for i in range(MINUTES):
        promo = in_promo(i)
        # payment-db pool
        if i in POOL_ACTIVE:
            active.append(int(POOL_ACTIVE[i]))
        elif RESIZE_MINUTE < i < minute_index(15, 0):
            active.append(rng.randint(118, 138))
        else:
            active.append(rng.randint(40, 56) if i < 60 else rng.randint(44, 60))
        max_size.append(100 if i < RESIZE_MINUTE else 200)
        wait.append(int(POOL_WAIT.get(i, 0)))
        order_active.append(rng.randint(25, 34) if promo else rng.randint(15, 28))
        # error rates, percent of POST /api/v1/pay requests
        timeout = RATE_TIMEOUT.get(i, round(rng.uniform(0.08, 0.3), 2))
        pool_exhausted = RATE_POOL_EXHAUSTED.get(i, 0.0)
        rates["ERR_TIMEOUT"].append(timeout)
        rates["ERR_POOL_EXHAUSTED"].append(pool_exhausted)
        rates["ERR_RATE_LIMIT"].append(round(rng.uniform(0.2, 0.6) if promo else rng.uniform(0.02, 0.1), 2))
        rates["ERR_SIGNATURE_INVALID"].append(round(rng.choice((0.0, 0.0, 0.01, 0.02, 0.04)), 2))
        duplicate = rng.uniform(0.05, 0.15) if in_incident(i) else rng.uniform(0.02, 0.08)
        rates["ERR_DUPLICATE_ORDER"].append(round(duplicate, 2))
        other_system = rng.uniform(0.05, 0.15)  # channel unavailable, PAY-5xxx
        success.append(round(100.0 - timeout - pool_exhausted - other_system, 2))
        # latency
        if i in P99_GATEWAY:
            gateway = int(P99_GATEWAY[i])
        elif in_incident(i):
            gateway = rng.randint(3004, 3046)
        elif promo:
            gateway = rng.randint(450, 600)
        else:
            gateway = rng.randint(380, 520)
        p99["payment-gateway"].append(gateway)
        p99["order-service"].append(rng.randint(190, 260) if promo else rng.randint(120, 180))
        if i in P99_DB_PROXY:
            proxy = int(P99_DB_PROXY[i])
        elif in_incident(i):
            proxy = rng.randint(2900, 3000)
        else:
            proxy = rng.randint(12, 35)
        p99["payment-db-proxy"].append(proxy)
        p99["risk-service"].append(rng.randint(35, 70))
        p99["notification-service"].append(rng.randint(60, 120))
        # steady signals
        lag_notify.append(rng.randint(20, 120) if promo else rng.randint(5, 60))
        lag_settlement.append(rng.randint(20, 150))
        hit_rate.append(round(rng.uniform(96.5, 98.9), 1))
    return Metrics(
        active, max_size, wait, order_active, rates, success, p99, lag_notify, lag_settlement, hit_rate
    )


# --------------------------------------------------------------------------- logs


@dataclass(frozen=True)
class LogLine:
    ms: int
    seq: int
    service: str
    level: str
    trace_id: str
    tenant: str | None
    message: str

    def to_json(self) -> str:
        record = {
            "ts": ts_log(self.ms),
            "service": self.service,
            "level": self.level,
            "trace_id": self.trace_id,
            "tenant": self.tenant,
            "message": self.message,
        }
        return json.dumps(record, ensure_ascii=False)


class LogBook:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[LogLine] = []
        self.used_traces: set[str] = set()

    def trace(self) -> str:
        while True:
            value = f"{self.rng.getrandbits(64):016x}"
            if value not in self.used_traces:
                self.used_traces.add(value)
                return value

    def reserve(self, trace_id: str) -> str:
        if trace_id in self.used_traces:
            raise ValueError(f"trace id used twice: {trace_id}")
        self.used_traces.add(trace_id)
        return trace_id

    def add(self, ms: int, service: str, level: str, trace_id: str, tenant: str | None, message: str) -> None:
        assert service in SERVICES, service
        assert 0 <= ms < MINUTES * 60_000, (ms, message)
        self.lines.append(LogLine(ms, len(self.lines), service, level, trace_id, tenant, message))


def _lerp(values: Sequence[float], ms: int) -> float:
    """The minute series at a moment: linear between minute samples, a step across 14:30:00."""
    index = min(ms // 60_000, MINUTES - 1)
    nxt = min(index + 1, MINUTES - 1)
    if nxt == RESIZE_MINUTE:
        return values[index]
    frac = (ms % 60_000) / 60_000
    return values[index] + (values[nxt] - values[index]) * frac


def pool_at(metrics: Metrics, ms: int) -> tuple[int, int, int]:
    """(active, max, waiters) of the payment-db pool at a moment."""
    index = min(ms // 60_000, MINUTES - 1)
    maximum = metrics.max_size[index]
    active = min(round(_lerp(metrics.active, ms)), maximum)
    waiters = round(_lerp(metrics.wait, ms))
    return active, maximum, waiters


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
    active, maximum, waiters = pool_at(metrics, t_lock)

    def finish_failed(t_fail: int, code: str, http: int) -> None:
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

    if order.outcome == "ERR_TIMEOUT":
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
        finish_failed(t_err + rng.randint(1, 3), "ERR_TIMEOUT", 504)
        return
    if order.outcome == "ERR_POOL_EXHAUSTED":
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
        finish_failed(t_gw + rng.randint(1, 3), "ERR_POOL_EXHAUSTED", 503)
        return

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
        finish_failed(t_bank + rng.randint(3, 10), order.outcome, 422)
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


def emit_background(rng: random.Random, book: LogBook, metrics: Metrics) -> None:
    # payment-db pool statistics every 15 s
    for ms in range(0, MINUTES * 60_000, 15_000):
        active, maximum, waiters = pool_at(metrics, ms)
        if ms % 60_000 and not INCIDENT_START <= ms < RESIZE_AT and ms // 60_000 not in POOL_ACTIVE:
            active = max(0, min(maximum, active + rng.randint(-2, 2)))
        offset = rng.randint(0, 40)
        if active >= maximum:
            book.add(
                ms + offset,
                "payment-db-proxy",
                "WARN",
                book.trace(),
                None,
                f"pool saturated pool=payment-db active={active}/{maximum} idle=0 waiters={waiters}",
            )
        else:
            book.add(
                ms + offset,
                "payment-db-proxy",
                "INFO",
                book.trace(),
                None,
                f"pool stats pool=payment-db active={active}/{maximum} idle={maximum - active} waiters={waiters}",
            )
    for i in range(MINUTES):
        base = i * 60_000
        # bank channel probes: healthy all afternoon, the bottleneck is not the bank
        for n, (channel, (low, high)) in enumerate(
            zip(CHANNELS, ((70, 110), (80, 130), (90, 140), (110, 170)), strict=True)
        ):
            book.add(
                base + 5_000 + n * 150 + rng.randint(0, 90),
                "payment-gateway",
                "INFO",
                book.trace(),
                None,
                f"channel probe {channel} ok rtt_ms={rng.randint(low, high)}",
            )
        o_active = metrics.order_active[i]
        book.add(
            base + 20_000 + rng.randint(0, 60),
            "order-service",
            "INFO",
            book.trace(),
            None,
            f"pool stats pool=order-db active={o_active}/50 idle={50 - o_active} waiters=0",
        )
        book.add(
            base + 30_000 + rng.randint(0, 60),
            "order-service",
            "INFO",
            book.trace(),
            None,
            f"cache stats cluster=pay-cache hit_rate={metrics.hit_rate[i]:.1f} keys={rng.randint(46_000, 52_000)}",
        )
        book.add(
            base + 40_000 + rng.randint(0, 60),
            "notification-service",
            "INFO",
            book.trace(),
            None,
            f"consumer lag group=notify-payment-events topic=payment-events lag={metrics.lag_notify[i]}",
        )
        book.add(
            base + 45_000 + rng.randint(0, 60),
            "order-service",
            "INFO",
            book.trace(),
            None,
            f"consumer lag group=order-settlement topic=order-events lag={metrics.lag_settlement[i]}",
        )
    for minute in range(0, MINUTES, 30):
        book.add(
            minute * 60_000 + 2_000 + rng.randint(0, 500),
            "risk-service",
            "INFO",
            book.trace(),
            None,
            "rules refreshed rule_version=r2026.03.1 rules=412",
        )


def emit_story(rng: random.Random, book: LogBook, metrics: Metrics) -> None:
    def note(ms: int, service: str, level: str, tenant: str | None, message: str) -> None:
        book.add(ms, service, level, book.trace(), tenant, message)

    note(
        at(14, 0, 0, 4),
        "order-service",
        "INFO",
        "acme",
        "campaign PIDAY-314 started tenant=acme expected_peak_x=2.5",
    )
    note(at(15, 0, 0, 6), "order-service", "INFO", "acme", "campaign PIDAY-314 ended tenant=acme")
    note(
        at(14, 0, 2, 310),
        "payment-db-proxy",
        "INFO",
        None,
        "batch job recon-daily started host=pay-mysql-01 schedule=14:00",
    )
    ms = at(14, 1, 10)
    while ms < at(14, 22):
        note(
            ms,
            "payment-db-proxy",
            "WARN",
            None,
            f"slow query pool=payment-db host=pay-mysql-01 sql_tag=recon_report_scan took_ms={rng.randint(2100, 4800)} job=recon-daily",
        )
        ms += rng.randint(35_000, 55_000)
    note(
        at(14, 22, 10, 442),
        "payment-db-proxy",
        "WARN",
        None,
        "killed 6 long-running queries host=pay-mysql-01 sql_tag=recon_report_scan longest_ms=41200 operator=li.wei",
    )
    note(at(14, 22, 11, 90), "payment-db-proxy", "INFO", None, "batch job recon-daily paused operator=li.wei")
    note(
        RESIZE_AT,
        "payment-db-proxy",
        "INFO",
        None,
        "config change payment-db.pool.max_size 100 -> 200 change=CHG-20260314-007 approved_by=zhao.min operator=li.wei",
    )
    note(
        RESIZE_AT + 5_212,
        "payment-db-proxy",
        "INFO",
        None,
        "pool resized pool=payment-db max_size=200 min_idle=20",
    )
    note(
        at(15, 30, 0, 77),
        "payment-db-proxy",
        "INFO",
        None,
        "batch job recon-daily resumed host=pay-mysql-02 operator=li.wei",
    )
    for m in (31, 38, 44):
        note(
            at(15, m, rng.randint(0, 59), rng.randint(0, 999)),
            "payment-db-proxy",
            "WARN",
            None,
            f"slow query pool=payment-db host=pay-mysql-02 sql_tag=recon_report_scan took_ms={rng.randint(2100, 3900)} job=recon-daily",
        )
    # alerts, pages and the incident record
    rate = metrics.error_rate["ERR_TIMEOUT"][minute_index(14, 10)]
    success = metrics.success[minute_index(14, 11)]
    alerts: list[tuple[int, str, str]] = [
        (
            at(14, 6, 30, 412),
            "WARN",
            "alert firing DBPoolSaturation severity=P1 pool=payment-db active=100 max=100",
        ),
        (
            at(14, 6, 30, 530),
            "INFO",
            "page sent alert=DBPoolSaturation severity=P1 to=primary-oncall via=phone,im",
        ),
        (at(14, 9, 0, 318), "INFO", "alert inhibited GatewayLatencyHigh severity=P2 by=DBPoolSaturation"),
        (at(14, 9, 12, 207), "INFO", "page acknowledged alert=DBPoolSaturation oncall=zhao.min"),
        (
            at(14, 10, 30, 118),
            "WARN",
            f"alert firing PaymentTimeoutRateHigh severity=P1 error_code=ERR_TIMEOUT rate={rate}",
        ),
        (
            at(14, 10, 30, 240),
            "INFO",
            "page sent alert=PaymentTimeoutRateHigh severity=P1 to=primary-oncall via=phone,im",
        ),
        (at(14, 11, 2, 950), "INFO", "page acknowledged alert=PaymentTimeoutRateHigh oncall=zhao.min"),
        (
            at(14, 11, 30, 61),
            "WARN",
            f"alert firing PaymentSuccessRateLow severity=P1 success_rate={success}",
        ),
        (
            at(14, 11, 30, 170),
            "INFO",
            "page sent alert=PaymentSuccessRateLow severity=P1 to=primary-oncall via=phone,im",
        ),
        (at(14, 11, 48, 5), "INFO", "page acknowledged alert=PaymentSuccessRateLow oncall=zhao.min"),
        (
            at(14, 12, 40, 300),
            "INFO",
            "incident INC-20260314-01 opened severity=SEV2 commander=zhao.min channel=#inc-20260314-01",
        ),
        (
            at(14, 16, 5, 880),
            "INFO",
            "incident INC-20260314-01 severity changed SEV2 -> SEV1 reason=success_rate_below_90",
        ),
        (at(14, 20, 0, 500), "INFO", "status update sent incident=INC-20260314-01 audience=acme,globex"),
        (at(14, 30, 45, 16), "INFO", "alert resolved DBPoolSaturation pool=payment-db active=168 max=200"),
        (at(14, 32, 30, 9), "INFO", "alert resolved PaymentTimeoutRateHigh error_code=ERR_TIMEOUT"),
        (at(14, 33, 30, 44), "INFO", "alert resolved PaymentSuccessRateLow"),
        (
            at(14, 47, 10, 731),
            "INFO",
            "incident INC-20260314-01 closed impact_start=14:05 impact_end=14:32 commander=zhao.min",
        ),
    ]
    for ms, level, message in alerts:
        note(ms, "notification-service", level, None, message)
    # rate limiting during the promotion, a drifting merchant clock at globex
    for _ in range(12):
        note(
            rng.randint(at(14, 0), at(14, 59)),
            "payment-gateway",
            "WARN",
            "acme",
            "rate limited tenant=acme endpoint=/api/v1/pay limit_qps=1000 error_code=ERR_RATE_LIMIT http=429",
        )
    for _ in range(6):
        note(
            rng.randint(at(13, 0), at(15, 59)),
            "payment-gateway",
            "WARN",
            "globex",
            f"ERR_SIGNATURE_INVALID tenant=globex key_version=7 skew_s={rng.randint(330, 480)} reason=clock_skew http=401",
        )


# --------------------------------------------------------------------------- writing


def _write_lines(path: Path, lines: Iterable[str]) -> int:
    text = "".join(line + "\n" for line in lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return text.count("\n")


def generate(workspace: Path = WORKSPACE) -> dict[str, int]:
    rng = random.Random(SEED)
    metrics = build_metrics(rng)
    book = LogBook(rng)
    orders = plan_orders(rng, metrics, book)
    for order in orders:
        emit_order(rng, book, metrics, order)
    emit_refunds(rng, book, metrics, orders)
    emit_queries(rng, book, orders)
    emit_background(rng, book, metrics)
    emit_story(rng, book, metrics)

    counts: dict[str, int] = {}
    for stale in (*(workspace / "logs").glob("*.jsonl"), *(workspace / "metrics").glob("*.jsonl")):
        stale.unlink()
    for service in SERVICES:
        mine = sorted(
            (line for line in book.lines if line.service == service), key=lambda line: (line.ms, line.seq)
        )
        counts[f"logs/{service}.jsonl"] = _write_lines(
            workspace / "logs" / f"{service}.jsonl", (line.to_json() for line in mine)
        )
    by_name: dict[str, list[Series]] = {}
    for series in metrics.series():
        by_name.setdefault(series.name, []).append(series)
    for name, group in by_name.items():
        rows = [
            json.dumps(
                {"name": name, "labels": s.labels, "ts": ts_metric(i), "value": s.values[i]},
                ensure_ascii=False,
            )
            for i in range(MINUTES)
            for s in group
        ]
        counts[f"metrics/{name}.jsonl"] = _write_lines(workspace / "metrics" / f"{name}.jsonl", rows)
    counts["orders.jsonl"] = _write_lines(workspace / "orders.jsonl", (o.to_json() for o in orders))
    return counts


# --------------------------------------------------------------------------- validation

DOC_KEYS: Final = (
    "title",
    "doc_id",
    "authority",
    "kind",
    "version",
    "effective_from",
    "effective_to",
    "scope",
    "tenant",
)
AUTHORITIES: Final = frozenset({"SRE", "Payments-Eng", "DBA", "Platform", "HR-Policy", "Finance", "Security"})
KINDS: Final = frozenset({"runbook", "error_codes", "architecture", "postmortem", "policy", "faq", "api"})
SCOPES: Final = frozenset({"payment", "order", "platform", "hr", "finance"})
OUTCOMES: Final = frozenset({"NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"})
_HEADING = re.compile(r"^(#{1,6}) +(.+?) *$", re.MULTILINE)
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TRACE = re.compile(r"\b[0-9a-f]{16}\b")
_ORDER = re.compile(r"\bORD-\d{8}-\d{5}\b")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass
class Doc:
    path: Path
    meta: dict[str, str]
    headings: list[str]
    sections: list[tuple[str, str]]
    lang: str


def read_doc(path: Path) -> Doc:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ValueError(f"{path}: no front matter")
    head, _, body = text[4:].partition("\n---\n")
    meta: dict[str, str] = {}
    for line in head.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"{path}: bad front matter line {line!r}")
        meta[key.strip()] = value.strip().strip('"')
    matches = list(_HEADING.finditer(body))
    sections = [
        (m.group(2), body[m.end() : matches[n + 1].start() if n + 1 < len(matches) else len(body)].strip())
        for n, m in enumerate(matches)
    ]
    cjk = len(_CJK.findall(body))
    return Doc(path, meta, [m.group(2) for m in matches], sections, "zh" if cjk > len(body) * 0.15 else "en")


def _read_jsonl(path: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from exc
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{number}: not an object")
        rows.append(row)
    return rows


def validate(workspace: Path = WORKSPACE) -> dict[str, int]:
    """Check that docs, data, questions and showcase fit together; raise ValueError listing every problem."""
    problems: list[str] = []
    docs = [read_doc(p) for p in sorted((workspace / "docs").rglob("*.md"))]
    by_id: dict[str, Doc] = {}
    for doc in docs:
        where = doc.path.relative_to(workspace)
        missing = [key for key in DOC_KEYS if key not in doc.meta]
        if missing:
            problems.append(f"{where}: front matter lacks {missing}")
            continue
        m = doc.meta
        if m["doc_id"] in by_id:
            problems.append(f"{where}: duplicate doc_id {m['doc_id']}")
        by_id[m["doc_id"]] = doc
        if not _KEBAB.match(m["doc_id"]):
            problems.append(f"{where}: doc_id not kebab-case")
        if m["authority"] not in AUTHORITIES or m["kind"] not in KINDS or m["scope"] not in SCOPES:
            problems.append(f"{where}: authority/kind/scope outside the allowed sets")
        if not m["title"] or not m["version"] or not _DATE.match(m["effective_from"]):
            problems.append(f"{where}: title, version or effective_from missing")
        if m["effective_to"] and not _DATE.match(m["effective_to"]):
            problems.append(f"{where}: effective_to is not a date")
        for heading, body in doc.sections:
            if not 150 <= len(body) <= 900:
                problems.append(f"{where}: section {heading!r} has {len(body)} characters")
    if len(docs) < 18:
        problems.append(f"only {len(docs)} documents")

    logs = {p.name: _read_jsonl(p) for p in sorted((workspace / "logs").glob("*.jsonl"))}
    log_rows = [row for rows in logs.values() for row in rows]
    traces = {str(row["trace_id"]) for row in log_rows}
    for row in log_rows:
        if set(row) != {"ts", "service", "level", "trace_id", "tenant", "message"}:
            problems.append(f"log line with fields {sorted(row)}")
            break
    metrics = {p.name: _read_jsonl(p) for p in sorted((workspace / "metrics").glob("*.jsonl"))}
    orders = _read_jsonl(workspace / "orders.jsonl")
    order_ids = {str(o["order_id"]) for o in orders}
    for order in orders:
        if order["trace_id"] not in traces:
            problems.append(f"order {order['order_id']}: trace id not in the logs")
        if order["status"] == "FAILED" and not order["failure_code"]:
            problems.append(f"order {order['order_id']}: FAILED without failure_code")

    questions = _read_jsonl(workspace / "questions.jsonl")
    showcase = _read_jsonl(workspace / "showcase.jsonl")
    seen: set[str] = set()
    for q in questions:
        qid = str(q["id"])
        if qid in seen:
            problems.append(f"question {qid}: duplicate id")
        seen.add(qid)
        if q.get("lang") not in ("zh", "en") or not q.get("question"):
            problems.append(f"question {qid}: bad lang or empty question")
        relevant = q.get("relevant_doc_ids")
        headings = q.get("relevant_headings")
        if not isinstance(relevant, list) or not relevant or not isinstance(headings, list):
            problems.append(f"question {qid}: relevant_doc_ids/relevant_headings missing")
            continue
        for doc_id in relevant:
            if doc_id not in by_id:
                problems.append(f"question {qid}: unknown doc_id {doc_id}")
        for heading in headings:
            if not any(heading in by_id[d].headings for d in relevant if d in by_id):
                problems.append(f"question {qid}: heading {heading!r} is in none of {relevant}")
    for s in showcase:
        if s.get("expect") not in OUTCOMES or not s.get("question") or not s.get("why"):
            problems.append(f"showcase {s.get('id')}: bad expect/question/why")
    for row in (*questions, *showcase):
        text = json.dumps(row, ensure_ascii=False)
        problems += [
            f"{row['id']}: trace id {t} not in the logs" for t in _TRACE.findall(text) if t not in traces
        ]
        problems += [
            f"{row['id']}: order {o} not in orders.jsonl" for o in _ORDER.findall(text) if o not in order_ids
        ]

    size = sum(p.stat().st_size for p in workspace.rglob("*") if p.is_file())
    if size > MAX_WORKSPACE_BYTES:
        problems.append(f"workspace is {size} bytes")
    if problems:
        raise ValueError("demo workspace is inconsistent:\n  " + "\n  ".join(problems))
    return {
        "documents": len(docs),
        "documents_zh": sum(d.lang == "zh" for d in docs),
        "documents_en": sum(d.lang == "en" for d in docs),
        "sections": sum(len(d.sections) for d in docs),
        "log_lines": len(log_rows),
        "trace_ids": len(traces),
        "metric_points": sum(len(rows) for rows in metrics.values()),
        "orders": len(orders),
        "questions": len(questions),
        "questions_zh": sum(q.get("lang") == "zh" for q in questions),
        "showcase": len(showcase),
        "bytes": size,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--check" not in args:
        for name, count in generate().items():
            print(f"wrote {name}: {count} lines")
    try:
        summary = validate()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(" ".join(f"{key}={value}" for key, value in summary.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

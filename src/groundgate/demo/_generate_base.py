"""The clock, the metrics and the log book of the demo generator (`_generate_workspace`)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
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

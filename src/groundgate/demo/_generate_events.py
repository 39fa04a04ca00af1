"""The demo's background traffic and the incident's own log lines (`_generate_workspace`)."""

from __future__ import annotations

import random
from collections.abc import Callable

from groundgate.demo._generate_base import (
    CHANNELS,
    INCIDENT_START,
    MINUTES,
    POOL_ACTIVE,
    RESIZE_AT,
    LogBook,
    Metrics,
    at,
    minute_index,
    pool_at,
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


_Note = Callable[[int, str, str, str | None, str], None]


def emit_story(rng: random.Random, book: LogBook, metrics: Metrics) -> None:
    def note(ms: int, service: str, level: str, tenant: str | None, message: str) -> None:
        book.add(ms, service, level, book.trace(), tenant, message)

    _story_operations(rng, note)
    _story_alerts(metrics, note)
    _story_noise(rng, note)


def _story_operations(rng: random.Random, note: _Note) -> None:
    """The promotion, the report job and its slow queries, the kill, the resize."""
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


def _story_alerts(metrics: Metrics, note: _Note) -> None:
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


def _story_noise(rng: random.Random, note: _Note) -> None:
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

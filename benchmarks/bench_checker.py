"""Throughput and peak memory of the offline checker on one core.

Generates N answer/context pairs of realistic size (2-4 passages, 500-1,500 characters of context,
3-5 answer sentences; Chinese and English; ops and HR text; a third with a changed number), pins
the process to one CPU, checks them all and writes claims/s, per-answer latency and peak RSS to
docs/benchmarks.md.

    python benchmarks/bench_checker.py [--pairs 10000] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import time

from _report import write_section
from groundgate.contracts import CheckRequest
from groundgate.verify.grounding_check import check_request

_SERVICES = [
    "payment-gateway",
    "order-service",
    "redis-cluster-01",
    "kafka-broker-2",
    "inventory-api",
    "auth-service",
]
_CODES = ["ERR_TIMEOUT", "ERR_POOL_EXHAUSTED", "ERR_RATE_LIMIT", "ERR_UPSTREAM_5XX", "ERR_AUTH_EXPIRED"]
_CITIES = ["北京", "上海", "广州", "深圳", "成都", "杭州"]


def _zh_ops(rng: random.Random) -> tuple[list[str], list[str]]:
    svc, code = rng.choice(_SERVICES), rng.choice(_CODES)
    t, pct, size = rng.randint(2, 9), rng.randint(85, 99), rng.choice([100, 150, 200, 300])
    passages = [
        f"# {svc} 错误码说明\n\n{code}：{svc} 在 {t} 秒内未收到下游响应时返回该错误码。该错误通常伴随上游重试，"
        f"重试间隔为 {t * 100} 毫秒，最多重试 3 次。若持续出现，请先检查下游依赖的健康状态。",
        f"# 连接池运维手册\n\n当 {svc} 的数据库连接池使用率持续高于 {pct}% 时，新请求会排队等待，排队超过 {t} 秒即触发 {code}。"
        f"处理方法：将连接池 max_size 扩容至 {size}，并排查慢查询；扩容需要值班负责人审批。",
        "# 值班规范\n\n所有 P1 告警需要在 15 分钟内响应，并在事故频道同步进展。变更窗口为每周二和周四晚上 22:00 之后。"
        "变更前需在变更平台登记影响范围、回滚方案和验证步骤，并由另一名工程师复核。紧急变更可先执行后补登记，但必须在 24 小时内补齐材料。",
        f"# 架构说明\n\n{svc} 部署在 {rng.randint(3, 12)} 个可用区，每个实例的数据库连接池默认 max_size 为 {size // 2}。"
        "请求经过 API 网关进入服务，网关对单个租户限流为每秒 500 次，超过限流返回 ERR_RATE_LIMIT。服务日志保留 14 天，指标保留 30 天。",
    ]
    answer = [
        f"{code} 由 {svc} 返回，表示 {t} 秒内没有收到下游响应。",
        f"连接池使用率持续超过 {pct}% 时请求会排队，排队超过 {t} 秒就会触发该错误。",
        f"处理方法是把 max_size 扩容到 {size} 并排查慢查询。",
        "扩容需要值班负责人审批。",
        "建议同时关注下游依赖的健康状态。",
    ][: rng.randint(3, 5)]
    return passages, answer


def _en_ops(rng: random.Random) -> tuple[list[str], list[str]]:
    svc = rng.choice(_SERVICES)
    before, after, ttl = rng.randint(120, 300), round(rng.uniform(1.2, 4.8), 1), rng.choice([30, 60, 120])
    passages = [
        f"Incident report: checkout p99 latency rose from {before} ms to {after} s between 14:05 and 14:32 UTC. "
        f"The {svc} primary failed over at 14:04; clients kept retrying the old primary until the DNS TTL of "
        f"{ttl} seconds expired. No data was lost.",
        f"Runbook for {svc}: after a failover, verify that clients resolve the new primary. If they do not, "
        "flush the client DNS cache and restart the connection pool. Escalate to the platform team if the "
        "error rate stays above 2% for more than ten minutes.",
        "On-call policy: acknowledge P1 alerts within 15 minutes and post updates in the incident channel every 30 minutes. "
        "Changes during an incident need approval from the incident commander, and every change must be recorded in the timeline.",
        f"Architecture note: {svc} runs in {rng.randint(3, 9)} availability zones behind the API gateway. Each client keeps a pool of "
        f"{rng.choice([16, 32, 64])} connections and resolves the primary through DNS. Logs are kept for 14 days and metrics for 30 days.",
    ]
    answer = [
        f"Checkout p99 latency jumped from {before} ms to {after} s after the {svc} primary failed over at 14:04 UTC.",
        f"Clients kept retrying the old primary until the {ttl}-second DNS TTL expired.",
        "No data was lost during the incident.",
        "If clients do not resolve the new primary, flush the client DNS cache and restart the connection pool.",
        "You may also want to review the alert thresholds.",
    ][: rng.randint(3, 5)]
    return passages, answer


def _zh_hr(rng: random.Random) -> tuple[list[str], list[str]]:
    city = rng.choice(_CITIES)
    hotel, other, meal = rng.choice([500, 600, 700]), rng.choice([300, 350, 400]), rng.choice([80, 100, 120])
    passages = [
        f"差旅住宿标准：{city}等一线城市每晚不超过 {hotel} 元，其他城市每晚不超过 {other} 元。超标部分需部门总监审批，"
        f"未经审批的超标部分由员工自行承担。餐补标准为每天 {meal} 元，按出差自然日计算。",
        "报销流程：出差结束后 30 天内在费用系统提交报销单，附发票原件扫描件和行程单。财务在收到完整材料后 5 个工作日内完成审核。",
        "年假制度：入职满一年的员工享有 5 天带薪年假，满十年 10 天。年假需提前 3 个工作日申请。未休年假可顺延至次年 3 月 31 日，逾期作废。",
        f"交通标准：市内交通凭票实报实销，每天不超过 {rng.choice([100, 150, 200])} 元。飞机默认经济舱，单程超过 6 小时的国际航班，"
        "M4 及以上职级可乘坐公务舱。火车可乘坐高铁二等座。",
    ]
    answer = [
        f"在{city}出差住宿每晚最多报销 {hotel} 元。",
        "超出标准的部分需要部门总监审批，否则由员工自己承担。",
        f"餐补是每天 {meal} 元，按自然日计算。",
        "报销需在出差结束后 30 天内提交，并附上发票和行程单。",
        "如有疑问可以联系 HR。",
    ][: rng.randint(3, 5)]
    return passages, answer


_GENERATORS = [_zh_ops, _en_ops, _zh_hr]


def make_pairs(n: int, seed: int = 7) -> list[CheckRequest]:
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        passages, answer = rng.choice(_GENERATORS)(rng)
        if i % 3 == 0:  # a third carry a changed number, as real traffic would
            j = rng.randrange(len(answer))
            answer[j] = answer[j].replace("3", "4", 1).replace("5", "6", 1)
        pairs.append(CheckRequest(id=i, context=passages, answer=" ".join(answer)))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument(
        "--no-write", action="store_true", help="print only; do not update docs/benchmarks.md"
    )
    args = parser.parse_args()

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    pairs = make_pairs(args.pairs)
    context_chars = statistics.mean(sum(len(p) for p in r.context) for r in pairs)

    check_request(pairs[0])  # warm caches and the jieba dictionary outside the measurement
    latencies: list[float] = []
    claims = 0
    verdicts: dict[str, int] = {}
    started = time.perf_counter()
    for request in pairs:
        t0 = time.perf_counter()
        result = check_request(request)
        latencies.append((time.perf_counter() - t0) * 1000)
        claims += len(result.claims)
        verdicts[result.verdict.value] = verdicts.get(result.verdict.value, 0) + 1
    elapsed = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    latencies.sort()
    body = f"""
| figure | value |
|---|---|
| answer/context pairs | {len(pairs):,} |
| mean context size | {context_chars:,.0f} characters |
| claims checked | {claims:,} |
| wall time | {elapsed:.1f} s |
| **claims per second (one core)** | **{claims / elapsed:,.0f}** |
| per answer p50 / p95 / p99 | {latencies[len(latencies) // 2]:.2f} / {latencies[int(len(latencies) * 0.95)]:.2f} / {latencies[int(len(latencies) * 0.99)]:.2f} ms |
| **peak RSS (whole process)** | **{peak_mb:.0f} MB** |
| verdicts | {", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))} |
"""
    print(body)
    if not args.no_write:
        write_section("checker-throughput", body)


if __name__ == "__main__":
    main()

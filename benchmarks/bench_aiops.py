"""Alert diagnosis latency and the webhook queue's throughput (issue 14), offline over the demo.

- latency: the demo's `PaymentHighErrorRate` alert diagnosed `--runs` times through the real
  `diagnose_recorded` (planner, 5 tool calls over the embedded stores, gate, report, the run recorded
  with its three self-evaluation slots), each with its own fingerprint;
- intake: a storm of `--notifications` notifications over 50 alert groups of 2 alerts each, recorded
  by `receive_webhook` (one transaction each: what `POST /api/aiops/alertmanager` does);
- drain: the 100 queued alerts diagnosed by an `AlertWorker` with `--concurrency` threads.

    python benchmarks/bench_aiops.py [--runs 100] [--notifications 500] [--concurrency 2]

SQLite store (WAL), demo workspace in a temporary folder; no model, no server.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _report import write_section
from groundgate.apps.alerts import AlertWorker, WorkerOptions, diagnosis_handler, receive_webhook
from groundgate.apps.diagnosis import diagnose_recorded, load_alert
from groundgate.apps.workspace import AIOPS_DEMO_ROOT, load_aiops_demo, load_demo, open_workspace
from groundgate.contracts import ExecutionContext
from groundgate.settings import load_settings
from groundgate.store import open_store
from groundgate.store.alert_queue import AlertQueue
from groundgate.wiring import build_configured_orchestrator

ACME = ExecutionContext(tenant="acme", user="bench", roles=("sre",))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _storm(base: dict[str, Any], notifications: int) -> list[bytes]:
    bodies = []
    for n in range(notifications):
        group = n % 50
        body = copy.deepcopy(base)
        alerts = []
        for k in range(2):
            alert = copy.deepcopy(base["alerts"][0])
            alert["fingerprint"] = f"{group:08x}{k:08x}"
            alert["labels"] = {**alert["labels"], "instance": f"pod-{group}-{k}"}
            alerts.append(alert)
        body["alerts"] = alerts
        body["groupKey"] = f'{{}}:{{group="{group}"}}'
        bodies.append(json.dumps(body).encode())
    return bodies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--notifications", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    payload = json.loads((AIOPS_DEMO_ROOT / "alerts" / "payment-high-error-rate.json").read_text())
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        with open_workspace(root / "ws") as workspace:
            load_demo(workspace)
            load_aiops_demo(workspace)
            orchestrator = build_configured_orchestrator(load_settings(data_dir=root / "ws"), workspace)
            store = open_store(root / "store")
            try:
                latencies = []
                for n in range(args.runs):
                    body = copy.deepcopy(payload)
                    body["alerts"][0]["fingerprint"] = f"{n:016x}"
                    alert, _ = load_alert(body)
                    started = time.perf_counter()
                    diagnose_recorded(store, orchestrator, alert, ACME)
                    latencies.append((time.perf_counter() - started) * 1000)
                queue = AlertQueue(store)
                bodies = _storm(payload, args.notifications)
                started = time.perf_counter()
                for raw in bodies:
                    receive_webhook(queue, raw, tenant="acme")
                intake_s = time.perf_counter() - started
                queued = queue.counts().get("QUEUED", 0)
                worker = AlertWorker(
                    queue, diagnosis_handler(store, orchestrator), WorkerOptions(concurrency=args.concurrency)
                )
                started = time.perf_counter()
                worker.start()
                while queue.pending():
                    time.sleep(0.01)
                worker.stop()
                drain_s = time.perf_counter() - started
                done = queue.counts().get("DONE", 0)
            finally:
                store.close()
    body = (
        f"{args.runs} diagnoses of the demo alert through `diagnose_recorded` (5 tool calls over the embedded "
        "stores, the gate, the report, the run recorded with `verifier_evaluation`, `rule_evaluation` and "
        f"`aiops_rule_evaluation`), one after another; then a storm of {args.notifications} notifications over "
        "50 alert groups of 2 alerts each recorded by `receive_webhook` (one transaction each, as the endpoint), "
        f"and the queued alerts diagnosed by an `AlertWorker` with {args.concurrency} threads. SQLite store.\n\n"
        "| measure | value |\n|---|---|\n"
        f"| diagnosis ms p50 | {statistics.median(latencies):.1f} |\n"
        f"| diagnosis ms p95 | {_percentile(latencies, 0.95):.1f} |\n"
        f"| notifications recorded / s | {args.notifications / intake_s:.0f} |\n"
        f"| alerts queued (of {args.notifications * 2} alert occurrences) | {queued} |\n"
        f"| queued alerts diagnosed | {done} |\n"
        f"| drain: diagnoses / s ({args.concurrency} threads) | {done / drain_s:.1f} |\n"
    )
    print(body)
    write_section("aiops", body)


if __name__ == "__main__":
    main()

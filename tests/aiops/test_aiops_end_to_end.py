"""End to end with real servers: an exporter shows an incident, a Prometheus rule fires, Alertmanager
posts to a running `groundgate serve` (its receiver's bearer token), the alert is queued and
diagnosed, and the stored run's report cites the Prometheus series it queried.

Bounded in time: every wait has a deadline; the servers stop at the end. Skipped without Debian's
`prometheus` and `prometheus-alertmanager` unless `GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _servers import ALERTMANAGER, Exporter, Server, _start, free_port, missing, start_prometheus, wait_until

from groundgate.testing.service import running_service

TOKEN = "e2e-token"
ALERT = "GgPaymentHighErrorRate"
RULES = f"""
groups:
  - name: groundgate-e2e
    interval: 1s
    rules:
      - alert: {ALERT}
        expr: gg_payment_error_ratio > 0.05
        labels:
          severity: P1
        annotations:
          summary: "payment error ratio above 5%"
"""


def start_alertmanager_to(workdir: Path, port: int, webhook_url: str) -> Server:
    """Alertmanager on `port` whose receiver is groundgate's webhook, with the bearer token."""
    if not ALERTMANAGER:
        missing("prometheus-alertmanager", "prometheus-alertmanager")
    assert ALERTMANAGER is not None
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "alertmanager.yml"
    config.write_text(
        "route:\n  receiver: groundgate\n  group_by: [alertname]\n"
        "  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 1h\n"
        "receivers:\n  - name: groundgate\n    webhook_configs:\n"
        f"      - url: {webhook_url}\n        send_resolved: true\n"
        "        http_config:\n          authorization:\n"
        f"            type: Bearer\n            credentials: {TOKEN}\n"
    )
    (workdir / "am-data").mkdir(parents=True)
    argv = [
        ALERTMANAGER,
        f"--config.file={config}",
        f"--storage.path={workdir / 'am-data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        "--cluster.listen-address=",
        "--log.level=warn",
    ]
    return _start(argv, workdir / "alertmanager.log", f"http://127.0.0.1:{port}", "/-/ready")


@pytest.fixture(scope="module")
def incident() -> Iterator[Exporter]:
    served = Exporter()
    served.set('gg_payment_error_ratio{service="payment-e2e"}', 0.01)
    try:
        yield served
    finally:
        served.close()


def _episodes(base: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = httpx.get(f"{base}/api/aiops/alerts", timeout=5).json()
    return [r for r in rows if r["alertname"] == ALERT]


@pytest.mark.slow
def test_a_firing_rule_is_diagnosed_by_a_running_service_whose_report_cites_the_prometheus_series(
    tmp_path: Path, incident: Exporter
) -> None:
    am_port = free_port()
    prometheus = start_prometheus(
        tmp_path / "prometheus", incident, rules=RULES, alertmanager_url=f"http://127.0.0.1:{am_port}"
    )
    try:
        env = {
            "GROUNDGATE_AIOPS__WEBHOOK_TOKEN": TOKEN,
            "GROUNDGATE_AIOPS__POLL_SECONDS": "0.2",
            "GROUNDGATE_PROMETHEUS__URL": prometheus.url,
        }
        (tmp_path / "service").mkdir()
        with running_service(
            tmp_path / "data", cwd=tmp_path / "service", log_path=tmp_path / "serve.log", env=env
        ) as base:
            alertmanager = start_alertmanager_to(tmp_path / "am", am_port, f"{base}/api/aiops/alertmanager")
            try:
                wait_until(
                    lambda: bool(
                        httpx.get(
                            f"{prometheus.url}/api/v1/query", params={"query": "gg_payment_error_ratio"}
                        ).json()["data"]["result"]
                    ),
                    timeout=30,
                    what="the first scrape",
                )
                incident.set('gg_payment_error_ratio{service="payment-e2e"}', 0.2)
                wait_until(
                    lambda: any(e["status"] == "DONE" for e in _episodes(base)),
                    timeout=90,
                    what="the diagnosis of the firing alert",
                )
                (episode,) = _episodes(base)
                trace = httpx.get(f"{base}/api/trace/{episode['runId']}", timeout=10).json()
            finally:
                alertmanager.stop()
    finally:
        prometheus.stop()
    assert episode["notifications"] >= 1
    metric_calls = [c for c in trace["toolInvocations"] if c["tool"] == "query_metrics"]
    assert metric_calls, trace["toolInvocations"]
    assert {c["status"] for c in metric_calls} == {"OK"}, metric_calls
    assert trace["mode"] == "aiops"
    assert trace["hasAiOpsRuleEvaluation"] is True
    # The report cites the Prometheus series it queried: the series in a finding, the source system
    # in the citation.
    assert "gg_payment_error_ratio{" in trace["answer"]
    assert "prometheus" in trace["answer"]

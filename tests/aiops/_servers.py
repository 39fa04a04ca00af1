"""Real Prometheus and Alertmanager for the AIOps tests: Debian's binaries on loopback ports.

`.ci/run` installs `prometheus` and `prometheus-alertmanager` and sets `GROUNDGATE_REQUIRE_PROMETHEUS=1`,
so there a missing binary fails the tests. Elsewhere the tests that need a server skip, naming the
package to install.

Prometheus starts with a temporary configuration that scrapes a small exporter run by the tests
(`Exporter`, every second) and a TSDB backfilled with `promtool tsdb create-blocks-from openmetrics`
from `BACKFILL` (exact, known points two hours ago: a range query has exact expected values).
Alertmanager starts with clustering off and a webhook receiver pointing at `WebhookSink`, so its
real notifications can be parsed. Every process and socket is stopped at the end of the session.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

import httpx
import pytest

REQUIRE = os.environ.get("GROUNDGATE_REQUIRE_PROMETHEUS") == "1"
PROMETHEUS = shutil.which("prometheus")
PROMTOOL = shutil.which("promtool")
ALERTMANAGER = shutil.which("prometheus-alertmanager") or shutil.which("alertmanager")
START_TIMEOUT = 30.0


def missing(what: str, package: str) -> None:
    """Skip (or fail under `GROUNDGATE_REQUIRE_PROMETHEUS=1`) for a missing binary."""
    message = f"{what} not found: apt-get install -y {package}"
    if REQUIRE:
        pytest.fail(f"GROUNDGATE_REQUIRE_PROMETHEUS=1 but {message}", pytrace=False)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


# --------------------------------------------------------------------------- a metrics exporter


class Exporter:
    """`/metrics` in the Prometheus text format, from values the tests set."""

    def __init__(self) -> None:
        self.lines: dict[str, float] = {}
        self._lock = threading.Lock()
        exporter = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with exporter._lock:
                    body = "".join(f"{series} {value}\n" for series, value in exporter.lines.items())
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def set(self, series: str, value: float) -> None:
        with self._lock:
            self.lines[series] = value

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


class WebhookSink:
    """Records the bodies Alertmanager POSTs to it."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                sink.bodies.append(self.rfile.read(length))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


# --------------------------------------------------------------------------- the servers


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: IO[bytes]
    log_path: Path
    extra: dict[str, Any] = field(default_factory=dict)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()

    def fail(self, message: str) -> AssertionError:
        self.log.flush()
        tail = self.log_path.read_text(errors="replace")[-3000:]
        return AssertionError(f"{message}\n--- server log ---\n{tail}")


def _start(argv: list[str], log_path: Path, url: str, ready_path: str) -> Server:
    log = log_path.open("wb")
    process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    server = Server(url, process, log, log_path)

    def ready() -> bool:
        if process.poll() is not None:
            raise server.fail(f"{argv[0]} exited with {process.returncode}")
        return httpx.get(url + ready_path, timeout=2).status_code == 200

    try:
        wait_until(ready, timeout=START_TIMEOUT, what=f"{argv[0]} at {url}")
    except BaseException:
        server.stop()
        raise
    return server


#: Backfilled points: `gg_backfill_errors{service="payment-api"}` per minute over one hour, a
#: rise to 18.4 at minute 13 (the hour starts `BACKFILL_START_OFFSET` seconds before the test run).
BACKFILL_START_OFFSET = 3 * 3600
BACKFILL_VALUES = [0.5] * 5 + [2.0, 4.5, 7.0, 9.5, 12.0, 14.0, 16.0, 17.5, 18.4, 15.0, 9.0, 4.0] + [0.6] * 43


def backfill_text(start: int) -> str:
    """`BACKFILL_VALUES` from `start` as OpenMetrics, for `promtool tsdb create-blocks-from openmetrics`."""
    lines = [
        "# HELP gg_backfill_errors Errors per second (backfilled for the tests).",
        "# TYPE gg_backfill_errors gauge",
    ]
    for minute, value in enumerate(BACKFILL_VALUES):
        lines.append(f'gg_backfill_errors{{service="payment-api"}} {value} {start + 60 * minute}')
    for minute in range(len(BACKFILL_VALUES)):
        lines.append(f'gg_backfill_errors{{service="checkout"}} 1 {start + 60 * minute}')
    lines.append("# EOF")
    return "\n".join(lines) + "\n"


def start_prometheus(
    workdir: Path,
    exporter: Exporter | None,
    backfill: str | None = None,
    *,
    rules: str | None = None,
    alertmanager_url: str | None = None,
) -> Server:
    """Prometheus scraping `exporter`, its TSDB backfilled from `backfill` (OpenMetrics text); with
    `rules` evaluated every second and sent to `alertmanager_url`."""
    if not PROMETHEUS or not PROMTOOL:
        missing("prometheus/promtool", "prometheus")
    assert PROMETHEUS is not None
    assert PROMTOOL is not None
    data = workdir / "tsdb"
    data.mkdir(parents=True)
    if backfill is not None:
        source = workdir / "backfill.om"
        source.write_text(backfill)
        subprocess.run(
            [PROMTOOL, "tsdb", "create-blocks-from", "openmetrics", str(source), str(data)],
            check=True,
            capture_output=True,
            timeout=60,
        )
    port = free_port()
    config = workdir / "prometheus.yml"
    text = "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
    if exporter is not None:
        text += (
            "scrape_configs:\n"
            "  - job_name: exporter\n"
            f"    static_configs: [{{targets: ['127.0.0.1:{exporter.port}']}}]\n"
        )
    if rules is not None:
        (workdir / "rules.yml").write_text(rules)
        text += f"rule_files: ['{workdir / 'rules.yml'}']\n"
    if alertmanager_url is not None:
        target = alertmanager_url.removeprefix("http://")
        text += f"alerting:\n  alertmanagers:\n    - static_configs: [{{targets: ['{target}']}}]\n"
    config.write_text(text)
    argv = [
        PROMETHEUS,
        f"--config.file={config}",
        f"--storage.tsdb.path={data}",
        f"--web.listen-address=127.0.0.1:{port}",
        # Backfilled points may be months old (the demo's incident): keep them.
        "--storage.tsdb.retention.time=100y",
        "--log.level=warn",
    ]
    return _start(argv, workdir / "prometheus.log", f"http://127.0.0.1:{port}", "/-/ready")


def start_alertmanager(workdir: Path, sink: WebhookSink) -> Server:
    if not ALERTMANAGER:
        missing("prometheus-alertmanager", "prometheus-alertmanager")
    assert ALERTMANAGER is not None
    port = free_port()
    config = workdir / "alertmanager.yml"
    config.write_text(
        "route:\n  receiver: groundgate\n  group_by: [alertname]\n"
        "  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 1h\n"
        "receivers:\n  - name: groundgate\n    webhook_configs:\n"
        f"      - url: http://127.0.0.1:{sink.port}/hook\n        send_resolved: true\n"
    )
    (workdir / "am-data").mkdir(parents=True)
    argv = [
        ALERTMANAGER,
        f"--config.file={config}",
        f"--storage.path={workdir / 'am-data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        "--cluster.listen-address=",  # no gossip port: a single loopback instance
        "--log.level=warn",
    ]
    return _start(argv, workdir / "alertmanager.log", f"http://127.0.0.1:{port}", "/-/ready")


def post_alerts(url: str, alerts: list[dict[str, Any]]) -> None:
    response = httpx.post(
        url + "/api/v2/alerts", content=json.dumps(alerts), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200, response.text

"""`groundgate eval export`: a stored run arrives at an OTLP/HTTP collector as one trace — the run,
its steps and its tool calls as spans, verdict and scores as attributes (GenAI conventions where they
apply). The collector is an in-process HTTP server decoding the protobuf requests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("opentelemetry.sdk")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http")

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from groundgate.apps import RoleModels, ask_recorded, build_orchestrator, load_demo, open_workspace
from groundgate.cli import app
from groundgate.contracts import ExecutionContext
from groundgate.store import open_store

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow


class Collector:
    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.spans: list[Any] = []
        self.paths: list[str] = []


@pytest.fixture
def collector() -> Iterator[tuple[Collector, str]]:
    seen = Collector()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            seen.paths.append(self.path)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    seen.spans.extend(scope.spans)
            self.send_response(seen.status)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield seen, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def attributes(span: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in span.attributes:
        value = item.value
        out[item.key] = getattr(value, value.WhichOneof("value"))
    return out


def test_a_stored_run_is_exported_as_one_trace_with_its_steps_and_tool_calls(
    collector: tuple[Collector, str], tmp_path: Path
) -> None:
    seen, url = collector
    data_dir = tmp_path / "data"
    store = open_store(data_dir)
    try:
        with open_workspace(data_dir) as workspace:
            load_demo(workspace)
            result = ask_recorded(
                store,
                build_orchestrator(workspace.registry, models=RoleModels()),
                "3月14日 14:05 开始的支付超时根因是什么？",
                ExecutionContext(tenant="acme", user="ops", roles=("sre",)),
            )
    finally:
        store.close()
    out = CliRunner().invoke(
        app, ["eval", "export", result.run_id, "--otlp-endpoint", url, "--data-dir", str(data_dir)]
    )
    assert out.exit_code == 0, out.output
    assert "exported 1 run(s)" in out.output
    assert seen.paths
    assert all(path == "/v1/traces" for path in seen.paths)
    roots = [s for s in seen.spans if not s.parent_span_id]
    assert len(roots) == 1
    root = attributes(roots[0])
    assert roots[0].name == "invoke_agent groundgate"
    assert root["gen_ai.operation.name"] == "invoke_agent"
    assert root["gen_ai.conversation.id"] == result.session_id
    assert root["groundgate.run.id"] == result.run_id
    assert root["groundgate.output_kind"] == result.output_kind.value
    assert root["groundgate.verdict"] == "PASS"
    assert root["groundgate.groundedness_score"] == pytest.approx(result.groundedness_score)
    assert root["groundgate.rounds"] == 2
    children = [s for s in seen.spans if s.parent_span_id == roots[0].span_id]
    assert {s.trace_id for s in seen.spans} == {roots[0].trace_id}
    tools = [attributes(s) for s in children if s.name.startswith("execute_tool ")]
    assert {t["gen_ai.tool.name"] for t in tools} >= {"lookup_knowledge", "query_logs", "query_metrics"}
    assert all(t["gen_ai.operation.name"] == "execute_tool" for t in tools)
    assert {s.name for s in children} >= {"planner round 1", "verifier round 2", "composer round 2"}
    assert all(s.start_time_unix_nano <= s.end_time_unix_nano for s in seen.spans)


def test_a_collector_that_refuses_the_spans_fails_the_command(
    collector: tuple[Collector, str], tmp_path: Path
) -> None:
    seen, url = collector
    seen.status = 400
    data_dir = tmp_path / "data"
    store = open_store(data_dir)
    try:
        with open_workspace(data_dir) as workspace:
            load_demo(workspace)
            result = ask_recorded(
                store,
                build_orchestrator(workspace.registry),
                "etcd 备份的保留周期是多少天？",
                ExecutionContext(tenant="acme", user="ops", roles=("sre",)),
            )
    finally:
        store.close()
    out = CliRunner().invoke(
        app, ["eval", "export", result.run_id, "--otlp-endpoint", url, "--data-dir", str(data_dir)]
    )
    assert out.exit_code == 1
    assert "refused" in out.output
    bad = CliRunner().invoke(
        app, ["eval", "export", result.run_id, "--header", "nope", "--data-dir", str(data_dir)]
    )
    assert bad.exit_code == 2

"""The demo's incident question answered from a real Prometheus instead of the embedded metric store.

The demo workspace's metrics (3 hours of 2026-03-14) are backfilled into Prometheus with
`promtool tsdb create-blocks-from openmetrics`; the workspace is opened through `groundgate.wiring`
with `[prometheus] url` set, so `query_metrics` is the Prometheus connector while documents and logs
stay embedded. The same pipeline must reach the same outcome, citing facts Prometheus returned.
Skipped without the binaries unless `GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime

import pytest
from _servers import Server, free_port, start_prometheus

from groundgate.apps.workspace import DEMO_ROOT, Workspace, load_demo
from groundgate.contracts import ExecutionContext, OutputKind, ToolStatus
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import load_settings
from groundgate.tools.prometheus import PrometheusMetricsArgs
from groundgate.wiring import build_configured_orchestrator, open_configured_workspace

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

ACME = ExecutionContext(tenant="acme", user="demo", roles=("sre",))
SHOWCASE = {
    item["id"]: item
    for item in (
        json.loads(line) for line in (DEMO_ROOT / "showcase.jsonl").read_text("utf-8").splitlines() if line
    )
}


def demo_openmetrics() -> str:
    """Every demo sample as OpenMetrics: families together, each series in time order."""
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for path in sorted((DEMO_ROOT / "metrics").glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(item["labels"].items()))
            ts = datetime.fromisoformat(item["ts"].replace("Z", "+00:00")).timestamp()
            samples.setdefault(item["name"], {}).setdefault(labels, []).append((ts, float(item["value"])))
    out: list[str] = []
    for name, series in sorted(samples.items()):
        out.append(f"# TYPE {name} gauge")
        for labels, points in sorted(series.items()):
            out += [f"{name}{{{labels}}} {value} {ts:.0f}" for ts, value in sorted(points)]
    return "\n".join([*out, "# EOF"]) + "\n"


@pytest.fixture(scope="module")
def demo_prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_prometheus(tmp_path_factory.mktemp("prometheus-demo"), None, demo_openmetrics())
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory, demo_prometheus: Server) -> Iterator[Workspace]:
    settings = load_settings(
        data_dir=tmp_path_factory.mktemp("demo-data"), prometheus={"url": demo_prometheus.url}
    )
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        yield ws


@pytest.fixture(scope="module")
def orchestrator(workspace: Workspace) -> Orchestrator:
    return build_configured_orchestrator(load_settings(), workspace)


def test_the_metrics_tool_of_the_workspace_is_the_prometheus_connector(workspace: Workspace) -> None:
    assert workspace.registry.get("query_metrics").argument_model is PrometheusMetricsArgs


def test_the_incident_metrics_question_is_answered_from_prometheus_and_cites_it(
    orchestrator: Orchestrator,
) -> None:
    item = SHOWCASE["english-incident-metrics"]
    result = orchestrator.run(item["question"], ACME)
    assert result.output_kind is OutputKind(item["expect"]), (result.stop_reason, result.answer)
    metric_calls = [r for r in result.tool_results if r.tool == "query_metrics" and r.facts]
    assert metric_calls, [(r.tool, r.status, r.error, r.gaps) for r in result.tool_results]
    assert all(fact.source_system == "prometheus" for r in metric_calls for fact in r.facts)
    assert {fact.value["promql"] for r in metric_calls for fact in r.facts}
    cited = {citation.invocation_id for citation in result.citations}
    assert cited & {r.invocation_id for r in metric_calls}
    assert "18.4" in result.answer


def test_a_prometheus_outage_is_a_recorded_tool_failure_with_honest_gaps_not_a_crash(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    settings = load_settings(
        data_dir=tmp_path_factory.mktemp("demo-outage"),
        prometheus={"url": f"http://127.0.0.1:{free_port()}", "timeout_seconds": 1},
    )
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        result = build_configured_orchestrator(settings, ws).run(
            SHOWCASE["english-incident-metrics"]["question"], ACME
        )
    failed = [r for r in result.tool_results if r.tool == "query_metrics"]
    assert failed
    assert {r.status for r in failed} == {ToolStatus.ERROR}
    assert all((r.error or "").startswith("tool_failed: prometheus at http://127.0.0.1:") for r in failed)
    # Without the metric the peak cannot be proven: never NORMAL with a figure nobody read.
    assert result.output_kind is not OutputKind.NORMAL or "18.4" not in result.answer
    assert result.gaps

"""A workspace: the knowledge index and the embedded stores under one data directory, with their tools.

Layout under the data directory: `knowledge/` (the Qdrant Edge shard, unless a Qdrant URL is
configured), `logs.sqlite`, `metrics.sqlite`, `orders.sqlite`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

from groundgate.knowledge import (
    IngestReport,
    QdrantKnowledgeIndex,
    ingest_path,
    open_index,
)
from groundgate.knowledge.index import DEFAULT_COLLECTION
from groundgate.tools.builtin import LoadReport, register_builtin_tools
from groundgate.tools.builtin.knowledge import register_knowledge_tool
from groundgate.tools.builtin.logs import LogStore
from groundgate.tools.builtin.metrics import MetricStore
from groundgate.tools.builtin.orders import OrderStore
from groundgate.tools.registry import ToolRegistry

#: The bundled demo workspace inside the package.
DEMO_ROOT = Path(__file__).resolve().parent.parent / "demo" / "workspace"
#: The AIOps demo (issue 14): a `PaymentHighErrorRate` incident on payment-api (runbook, logs, metrics)
#: and its Alertmanager notification (`alerts/`). Kept apart from the question workspace, so the
#: question golden sets do not change when it is loaded.
AIOPS_DEMO_ROOT = Path(__file__).resolve().parent.parent / "demo" / "aiops"


@dataclass(slots=True)
class Workspace:
    """Open stores and the tool registry over them. Close it (or use `with`) when done."""

    data_dir: Path
    index: QdrantKnowledgeIndex
    logs: LogStore
    metrics: MetricStore
    orders: OrderStore
    registry: ToolRegistry

    def live_until(self) -> datetime | None:
        """When the live evidence loaded here ends (the newest log line or metric sample), None when
        there is none. A replayed incident (the demo's 2026-03-14) is asked about as of its own day:
        "the success rate at 14:16" means 14:16 of the data's last day, as it means today's on a live
        system, whose data ends now."""
        times = [t for t in (self.logs.latest(), self.metrics.latest()) if t is not None]
        return max(times) if times else None

    def tenants(self) -> frozenset[str]:
        """The tenants whose logs or orders are loaded here. A question naming another tenant than
        the asker's ("globex's own success rate") asks about that tenant's scope: the question
        reader makes the name an anchor the evidence must say (docs/design.md §8), so a
        platform-wide series is not passed off as one tenant's."""
        return frozenset(self.logs.tenants() | self.orders.tenants())

    def close(self) -> None:
        self.registry.close()
        self.index.close()
        self.logs.close()
        self.metrics.close()
        self.orders.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_workspace(
    data_dir: Path,
    *,
    qdrant_url: str | None = None,
    qdrant_api_key: str | None = None,
    collection: str | None = None,
) -> Workspace:
    """Open (creating when needed) the stores under `data_dir` and register every built-in tool."""
    data_dir.mkdir(parents=True, exist_ok=True)
    index = open_index(
        data_dir=data_dir, url=qdrant_url, api_key=qdrant_api_key, collection=collection or DEFAULT_COLLECTION
    )
    logs = LogStore(data_dir / "logs.sqlite")
    metrics = MetricStore(data_dir / "metrics.sqlite")
    orders = OrderStore(data_dir / "orders.sqlite")
    registry = ToolRegistry()
    register_knowledge_tool(registry, index)
    register_builtin_tools(registry, logs=logs, metrics=metrics, orders=orders)
    return Workspace(data_dir, index, logs, metrics, orders, registry)


@dataclass(slots=True)
class DemoLoadReport:
    """What loading the demo workspace did (unchanged files are skipped)."""

    knowledge: IngestReport
    loads: list[LoadReport] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.knowledge.ingested) or any(r.loaded for r in self.loads)


def load_demo(workspace: Workspace, *, on_progress: Callable[[str], None] | None = None) -> DemoLoadReport:
    """Ingest the bundled demo documents and load its logs, metrics and orders (idempotent)."""
    say = on_progress or (lambda _msg: None)
    say("documents")
    report = DemoLoadReport(ingest_path(DEMO_ROOT / "docs", workspace.index))
    say("logs")
    for path in sorted((DEMO_ROOT / "logs").glob("*.jsonl")):
        report.loads.append(workspace.logs.load_jsonl(path))
    say("metrics")
    for path in sorted((DEMO_ROOT / "metrics").glob("*.jsonl")):
        report.loads.append(workspace.metrics.load_jsonl(path))
    say("orders")
    report.loads.append(workspace.orders.load_jsonl(DEMO_ROOT / "orders.jsonl"))
    return report


def load_aiops_demo(workspace: Workspace) -> DemoLoadReport:
    """Ingest the AIOps demo's runbook and load its logs and metrics (idempotent)."""
    report = DemoLoadReport(ingest_path(AIOPS_DEMO_ROOT / "docs", workspace.index))
    for path in sorted((AIOPS_DEMO_ROOT / "logs").glob("*.jsonl")):
        report.loads.append(workspace.logs.load_jsonl(path))
    for path in sorted((AIOPS_DEMO_ROOT / "metrics").glob("*.jsonl")):
        report.loads.append(workspace.metrics.load_jsonl(path))
    return report

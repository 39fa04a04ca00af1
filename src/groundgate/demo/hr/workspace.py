"""The HR demo on real stores: the policy documents in a Qdrant Edge shard, the tasks in the run store.

`open_hr_workspace(data_dir, store)` ingests the bundled documents into their own index under
`data_dir/agent-hr` (idempotent: unchanged files are skipped), replaces the demo tenant's rows of
`agent_task` on the store's database (created by the store's migration `0004`), and registers the
agent's tools over both. The knowledge index filters tenant, effective date and project scope in
the engine; the evaluator checks governance again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType

from groundgate.agent import AgentRuntime, IndexDocumentSource, TaskStore, register_agent_tools
from groundgate.demo.hr import DEMO_NOW, docs_dir, load_tasks
from groundgate.knowledge import KnowledgeIndex, ingest_path, open_index
from groundgate.models.base import Model
from groundgate.tools.registry import ToolRegistry

__all__ = ["HR_INDEX_DIR", "HrWorkspace", "open_hr_workspace"]

#: The HR demo's index lives beside (not inside) the payment demo's.
HR_INDEX_DIR = "agent-hr"


@dataclass
class HrWorkspace:
    index: KnowledgeIndex
    tasks: TaskStore
    registry: ToolRegistry
    runtime: AgentRuntime

    def close(self) -> None:
        self.registry.close()
        self.index.close()

    def __enter__(self) -> HrWorkspace:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_hr_workspace(
    data_dir: Path,
    tasks: TaskStore,
    *,
    clock: Callable[[], datetime] | None = None,
    planner_model: Model | None = None,
    composer_model: Model | None = None,
) -> HrWorkspace:
    """Index the HR documents, load the demo tasks, and build the agent over them.

    `clock` defaults to the demo's day (`DEMO_NOW`), around which tasks and effective dates are set.
    """
    now = clock or (lambda: DEMO_NOW)
    index = open_index(data_dir=data_dir / HR_INDEX_DIR)
    try:
        ingest_path(docs_dir(), index)
        load_tasks(tasks)
        registry = ToolRegistry()
        register_agent_tools(
            registry,
            documents=IndexDocumentSource(index, as_of=lambda: now().date()),
            tasks=tasks,
            clock=now,
        )
    except BaseException:
        index.close()
        raise
    runtime = AgentRuntime(registry, planner_model=planner_model, composer_model=composer_model, clock=now)
    return HrWorkspace(index, tasks, registry, runtime)

"""The HR demo workspace of the business agent: a second tenant, `hrdemo`.

- `docs/` — Chinese policy documents with governance front matter (authority, kind, version,
  effective dates, scope, tenant): the 2026 travel policy; its expired 2024 version; a notice that
  conflicts with it on the meal allowance; an expense-system manual whose steps mention amounts; a
  supplement scoped to another project (`proj-west`) that also holds an instruction addressed to the
  assistant; an unowned forum post; leave policies, one of them expired.
- `tasks.yaml` — the per-user task table (`agent_task`): `u-li` in `proj-east` (one task in
  `proj-west`), `u-wang` in `proj-west`.

The demo's day is `DEMO_TODAY` (2026-04-15): task due dates and effective dates are set around it.
"""

from __future__ import annotations

from contextlib import ExitStack
from datetime import UTC, date, datetime
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any, Final

import yaml  # type: ignore[import-untyped]  # no PyYAML stubs in the dev environment

from groundgate.agent.tasks_store import TaskRow, TaskStore
from groundgate.agent.tools import document_evidence, with_labels
from groundgate.contracts import DocumentEvidence, ExecutionContext

__all__ = [
    "DEMO_NOW",
    "DEMO_TODAY",
    "HR_TENANT",
    "demo_context",
    "demo_documents",
    "demo_tasks",
    "docs_dir",
    "load_tasks",
]

HR_TENANT: Final = "hrdemo"
DEMO_TODAY: Final = date(2026, 4, 15)
DEMO_NOW: Final = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)

#: The demo's users and the project each works in.
DEMO_USERS: Final = {"u-li": "proj-east", "u-wang": "proj-west"}

_stack = ExitStack()


def docs_dir() -> Path:
    """The bundled policy documents as a real folder (extracted once when packaged in a zip)."""
    return Path(_stack.enter_context(as_file(files(__name__).joinpath("docs"))))


def demo_context(user: str = "u-li", *, project: str | None = None) -> ExecutionContext:
    """The context the server would resolve for a demo user (in their own project by default)."""
    return ExecutionContext(
        tenant=HR_TENANT, user=user, project=project or DEMO_USERS.get(user), roles=("employee",)
    )


def demo_documents() -> list[DocumentEvidence]:
    """Every chunk of the bundled documents as labelled `DocumentEvidence` — ungoverned: expired,
    other-project and unowned passages included, for the evaluator to judge (contract tests)."""
    from groundgate.knowledge import read_document

    root = docs_dir()
    out: list[DocumentEvidence] = []
    for path in sorted(root.rglob("*.md")):
        parsed = read_document(path, root=root)
        out += [with_labels(document_evidence(chunk)) for chunk in parsed.chunks]
    return out


def demo_tasks() -> list[TaskRow]:
    """The rows of `tasks.yaml`."""
    raw: list[dict[str, Any]] = yaml.safe_load(files(__name__).joinpath("tasks.yaml").read_text("utf-8"))
    return [
        TaskRow(
            tenant=HR_TENANT,
            assignee=str(item["assignee"]),
            task_key=str(item["task_key"]),
            title=str(item["title"]),
            status=str(item["status"]),
            project=item.get("project"),
            category=item.get("category"),
            due_date=item["due_date"] if isinstance(item.get("due_date"), date) else None,
        )
        for item in raw
    ]


def load_tasks(store: TaskStore) -> int:
    """Replace the demo tenant's tasks in `store` with `tasks.yaml`; returns how many."""
    return store.replace_all(HR_TENANT, demo_tasks())


def now() -> datetime:
    """The real time (for callers that do not pin the demo's day)."""
    return datetime.now(UTC)

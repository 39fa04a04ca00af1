"""The application layer: what the CLI and the API both call. Each module is a use of the core
(verify, runtime, knowledge, store) plus its own I/O; neither front end holds SQL or a rule of its own.

- `workspace`: the stores and tools of a data directory; the bundled demo.
- `chat`: wiring the pipeline, and answering one question as a recorded run (`ask_recorded` for the
  CLI, `answer_recorded` for the API — the only places a run id is minted).
- `runs`, `run_trace`, `cases`: reading runs, a run's trace and the case library, tenant-scoped
  (`tenant=None`: the operator, every tenant). `runs` states the tenant rule.
- `feedback`: rating a run; the case library follows the latest rating.
- `grounding_check`: the grounding checker with budgets, batches and evaluation.
- `history`: a session's earlier questions, for follow-ups.
- `documents`: ingesting, listing and removing knowledge documents.
- `agent_rollout`: the business agent beside the chat pipeline (`[agent] mode`: shadow, active).

Names are loaded on first use (PEP 562), so importing one application does not load the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:
    from groundgate.apps.cases import CaseRecord, list_cases
    from groundgate.apps.chat import FailedRun, RoleModels, answer_recorded, ask_recorded, build_orchestrator
    from groundgate.apps.feedback import FEEDBACK_VALUES, FeedbackResponse, give_feedback
    from groundgate.apps.grounding_check import check_within_budget, run_batch, run_eval
    from groundgate.apps.run_trace import RunTrace, get_trace
    from groundgate.apps.runs import RunSummary, list_runs
    from groundgate.apps.workspace import Workspace, load_demo, open_workspace

_HOMES: dict[str, str] = {
    **dict.fromkeys(("Workspace", "load_demo", "open_workspace"), "groundgate.apps.workspace"),
    **dict.fromkeys(
        ("FailedRun", "RoleModels", "answer_recorded", "ask_recorded", "build_orchestrator"),
        "groundgate.apps.chat",
    ),
    **dict.fromkeys(("RunSummary", "list_runs"), "groundgate.apps.runs"),
    **dict.fromkeys(("RunTrace", "get_trace"), "groundgate.apps.run_trace"),
    **dict.fromkeys(("CaseRecord", "list_cases"), "groundgate.apps.cases"),
    **dict.fromkeys(("FEEDBACK_VALUES", "FeedbackResponse", "give_feedback"), "groundgate.apps.feedback"),
    **dict.fromkeys(("check_within_budget", "run_batch", "run_eval"), "groundgate.apps.grounding_check"),
}

__all__ = [
    # workspace
    "Workspace",
    "load_demo",
    "open_workspace",
    # asking
    "FailedRun",
    "RoleModels",
    "answer_recorded",
    "ask_recorded",
    "build_orchestrator",
    # reading runs (tenant-scoped)
    "CaseRecord",
    "RunSummary",
    "RunTrace",
    "get_trace",
    "list_cases",
    "list_runs",
    # feedback
    "FEEDBACK_VALUES",
    "FeedbackResponse",
    "give_feedback",
    # checking
    "check_within_budget",
    "run_batch",
    "run_eval",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

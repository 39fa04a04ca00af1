"""The run: the round orchestrator and its roles (docs/design.md §1, §3).

Explicit code drives planner → tools → gatekeeper → verifier → composer for at most two evidence
rounds. Models enter through `roles` (model-backed planner and executor); `offline` holds the
rule planner and the extractive executor that stand in for them. Verification itself lives in
`groundgate.verify`.

- `orchestrator`: `Orchestrator`, the round loop, and the protocols it is given (`RunSink`,
  `ToolBackend`);
- `roles`: the role protocols and the model-backed planner and executor;
- `offline`: `RulePlanner`, `ExtractiveExecutor`;
- `answers`: choosing the units an offline answer quotes;
- `budgets`: rounds, tool calls, candidates, wall time;
- `tool_trace_summary`: the tool trace summary the verifier is given (docs/design.md §2.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # the lazy names, for type checkers and editors
    from groundgate.runtime.budgets import (
        Budgets,
    )
    from groundgate.runtime.offline import (
        ExtractiveExecutor,
        RulePlanner,
    )
    from groundgate.runtime.orchestrator import (
        Orchestrator,
        RunSink,
        ToolBackend,
    )
    from groundgate.runtime.roles import (
        ExecuteRequest,
        Executor,
        ModelExecutor,
        ModelPlanner,
        Planner,
        PlanRequest,
        RoleOutcome,
    )
    from groundgate.runtime.tool_trace_summary import (
        build_tool_trace_summary,
    )

# Public name → the module that defines it (loaded on first use, PEP 562).
_HOMES: dict[str, str] = {
    "Budgets": "groundgate.runtime.budgets",
    "ExtractiveExecutor": "groundgate.runtime.offline",
    "RulePlanner": "groundgate.runtime.offline",
    "Orchestrator": "groundgate.runtime.orchestrator",
    "RunSink": "groundgate.runtime.orchestrator",
    "ToolBackend": "groundgate.runtime.orchestrator",
    "ExecuteRequest": "groundgate.runtime.roles",
    "Executor": "groundgate.runtime.roles",
    "ModelExecutor": "groundgate.runtime.roles",
    "ModelPlanner": "groundgate.runtime.roles",
    "PlanRequest": "groundgate.runtime.roles",
    "Planner": "groundgate.runtime.roles",
    "RoleOutcome": "groundgate.runtime.roles",
    "build_tool_trace_summary": "groundgate.runtime.tool_trace_summary",
}

__all__ = [
    # the run
    "Orchestrator",
    "RunSink",
    "ToolBackend",
    "Budgets",
    # roles
    "Planner",
    "Executor",
    "PlanRequest",
    "ExecuteRequest",
    "RoleOutcome",
    "ModelPlanner",
    "ModelExecutor",
    "RulePlanner",
    "ExtractiveExecutor",
    # verifier input
    "build_tool_trace_summary",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

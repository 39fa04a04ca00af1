"""Chat: one question through the evidence-gated pipeline, with models per role or offline roles."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from groundgate.contracts import ExecutionContext, RunEvent, RunResult
from groundgate.models.base import Model
from groundgate.runtime.budgets import Budgets
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.orchestrator import Orchestrator, ToolBackend
from groundgate.runtime.roles import Executor, ModelExecutor, ModelPlanner, Planner
from groundgate.runtime.verifier import Verifier
from groundgate.verify.assessment import ClaimClassifier
from groundgate.verify.checker import CheckerThresholds, OfflineChecker
from groundgate.verify.judge import LLMJudge


@dataclass(frozen=True, slots=True)
class RoleModels:
    """The model of each role; None means that role runs offline (rules, extraction, the checker)."""

    planner: Model | None = None
    executor: Model | None = None
    verifier: Model | None = None


def build_orchestrator(
    tools: ToolBackend,
    *,
    models: RoleModels | None = None,
    budgets: Budgets | None = None,
    thresholds: CheckerThresholds | None = None,
) -> Orchestrator:
    """Wire the pipeline. A model-backed planner falls back to the rule planner when its plan fails."""
    models = models or RoleModels()
    offline_checker = OfflineChecker(thresholds)
    planner: Planner = ModelPlanner(models.planner) if models.planner else RulePlanner()
    executor: Executor = ModelExecutor(models.executor) if models.executor else ExtractiveExecutor()
    classifier: ClaimClassifier = (
        LLMJudge(models.verifier, fallback=offline_checker, role="verifier")
        if models.verifier
        else offline_checker
    )
    return Orchestrator(
        tools,
        planner=planner,
        executor=executor,
        verifier=Verifier(classifier),
        fallback_planner=RulePlanner() if models.planner else None,
        budgets=budgets,
    )


def ask(
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
) -> RunResult:
    """Answer one question (persistence arrives with the run store)."""
    return orchestrator.run(question, ctx, session_id=session_id, on_event=on_event)

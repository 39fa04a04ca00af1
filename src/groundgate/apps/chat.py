"""Chat: one question through the evidence-gated pipeline (models per role or offline roles), recorded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from groundgate.store import Store


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


def ask_recorded(
    store: Store,
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    run_id: str | None = None,
    session_id: str | None = None,
    mode: str = "chat",
    on_event: Callable[[RunEvent], None] | None = None,
    untenanted_sessions: bool = True,
    continues_session: bool | None = None,
) -> RunResult:
    """Answer one question as a recorded run: the one entry point of the CLI (`ask`, `demo`) and the
    API (`POST /api/chat`).

    The session is claimed for `ctx.tenant` in the transaction that inserts the run (another tenant's
    session raises `NotFoundError`, nothing recorded); every step is written as it happens. When the
    session has earlier turns, their questions (never their answers: history has no fact status,
    docs/design.md §1 invariant 11) are given to the orchestrator so a follow-up ("那 P2 呢？") can be
    understood. On an exception the run is recorded `FAILED` and the exception re-raised.

    `continues_session`: whether `session_id` names a session the caller continues (its history is
    read); default: whenever a `session_id` is given. A caller that mints the id of a new session
    passes False and saves the query.
    """
    read_history = bool(session_id) if continues_session is None else continues_session
    from groundgate.apps.history import load_session_history
    from groundgate.store.recorder import RunRecorder, run_recorded

    def execute(recorder: RunRecorder) -> RunResult:
        # A new session has no history; a continued one is read after `start()` claimed it, so
        # another tenant's turns can never be read here.
        history = (
            load_session_history(store, recorder.session_id, exclude_run_id=recorder.run_id)
            if read_history
            else []
        )
        return orchestrator.run(
            question,
            ctx,
            run_id=recorder.run_id,
            session_id=recorder.session_id,
            on_event=on_event,
            sink=recorder,
            history=history,
        )

    return run_recorded(
        store,
        execute,
        question=question,
        run_id=run_id,
        session_id=session_id,
        mode=mode,
        tenant=ctx.tenant,
        untenanted_sessions=untenanted_sessions,
    )

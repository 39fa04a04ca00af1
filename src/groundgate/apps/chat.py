"""Chat: one question through the evidence-gated pipeline (models per role or offline roles), recorded.

`build_orchestrator` wires the roles; `ask_recorded` (the CLI) and `answer_recorded` (the API) answer
one question as a recorded run and are the only places a run id is minted. `warm_up` readies an
offline pipeline before `groundgate serve` takes requests.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from groundgate.compose.composer import compose_degraded, language_of
from groundgate.contracts import ExecutionContext, OutputKind, RunEvent, RunResult
from groundgate.errors import NotFoundError, StoreError
from groundgate.models.base import Model
from groundgate.runtime.budgets import Budgets
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.orchestrator import Orchestrator, ToolBackend
from groundgate.runtime.roles import Executor, ModelExecutor, ModelPlanner, Planner
from groundgate.store import Store
from groundgate.verify.assessment import ClaimClassifier
from groundgate.verify.judge import LLMJudge
from groundgate.verify.offline_checker import CheckerThresholds, OfflineChecker
from groundgate.verify.verifier import Verifier

__all__ = [
    # wiring
    "RoleModels",
    "build_orchestrator",
    # answering as a recorded run
    "FailedRun",
    "answer_recorded",
    "ask_recorded",
    "claim_session",
    # the service's start
    "warm_up",
]

logger = logging.getLogger(__name__)


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
    live_until: Callable[[], datetime | None] | None = None,
    tenants: Callable[[], Collection[str]] | None = None,
) -> Orchestrator:
    """Wire the pipeline. A model-backed planner falls back to the rule planner when its plan fails.
    `live_until` says when the live evidence ends (`Workspace.live_until`): the rule planner reads a
    clock time without a day ("at 14:16") as the last such minute before it. `tenants` names the
    loaded tenants (`Workspace.tenants`): another tenant named in a question must be in its answer."""
    models = models or RoleModels()
    offline_checker = OfflineChecker(thresholds)
    rules = RulePlanner(live_until=live_until)
    planner: Planner = ModelPlanner(models.planner) if models.planner else rules
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
        fallback_planner=rules if models.planner else None,
        budgets=budgets,
        tenants=tenants,
    )


@dataclass(frozen=True, slots=True)
class FailedRun:
    """A run that raised and was answered with the fixed `DEGRADED` template (recorded `FAILED`)."""

    run_id: str
    session_id: str
    question: str
    answer: str
    stop_reason: str


def ask_recorded(
    store: Store,
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None = None,
    mode: str = "chat",
    on_event: Callable[[RunEvent], None] | None = None,
    untenanted_sessions: bool = True,
    continues_session: bool | None = None,
) -> RunResult:
    """Answer one question as a recorded run: the one entry point of the CLI (`ask`, `demo`) and the
    API (`POST /api/chat`, through `answer_recorded`). The run id (and, without `session_id`, the
    session id) is minted here.

    The session is claimed for `ctx.tenant` in the transaction that inserts the run (another tenant's
    session raises `NotFoundError`, nothing recorded); every step is written as it happens. When the
    session has earlier turns, their questions (never their answers: history has no fact status,
    docs/design.md §1 invariant 11) are given to the orchestrator so a follow-up ("那 P2 呢？") can be
    understood. On an exception the run is recorded `FAILED` and the exception re-raised.

    `continues_session`: whether `session_id` names a session the caller continues (its history is
    read); default: whenever a `session_id` is given. A caller that mints the id of a new session
    passes False and saves the query.
    """
    return _ask(
        store,
        orchestrator,
        question,
        ctx,
        run_id=uuid.uuid4().hex,
        session_id=session_id or uuid.uuid4().hex,
        read_history=bool(session_id) if continues_session is None else continues_session,
        mode=mode,
        on_event=on_event,
        untenanted_sessions=untenanted_sessions,
    )


def claim_session(store: Store, session_id: str, *, tenant: str | None, include_untenanted: bool) -> None:
    """Find or create `session_id` for `tenant` in one transaction; another tenant's session (or, without
    `include_untenanted`, one recorded without a tenant) is `NotFoundError` "unknown session id".

    A service calls it before a run (and before a stream's headers), so "not yours" is always a 404:
    a separate check-then-create let two tenants racing on one new id share it."""
    from groundgate.store.repositories import claim_session as claim

    with store.session() as session:
        claim(session_id, tenant=tenant, untenanted=include_untenanted, session=session)


def answer_recorded(
    store: Store,
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None = None,
    mode: str = "api",
    on_event: Callable[[RunEvent], None] | None = None,
    untenanted_sessions: bool = True,
) -> RunResult | FailedRun:
    """`ask_recorded` for a service, which must answer every question: a run that raises (a model or
    tool outage the pipeline did not absorb) is answered with the fixed `DEGRADED` template, written
    onto its `FAILED` record.

    Still raised: `NotFoundError` (another tenant's session, from the claim — nothing was recorded or
    run) and `StoreError` when the failed run has no final record (the store went away): no answer
    goes out without its audit record."""
    run_id = uuid.uuid4().hex
    sid = session_id or uuid.uuid4().hex
    try:
        return _ask(
            store,
            orchestrator,
            question,
            ctx,
            run_id=run_id,
            session_id=sid,
            read_history=session_id is not None,
            mode=mode,
            on_event=on_event,
            untenanted_sessions=untenanted_sessions,
        )
    except NotFoundError:
        raise
    except Exception as exc:
        logger.exception("run %s failed; answering DEGRADED", run_id)
        answer = _record_degraded(store, question, run_id)
        return FailedRun(
            run_id=run_id,
            session_id=sid,
            question=question,
            answer=answer,
            stop_reason=f"error: {type(exc).__name__}",
        )


def _record_degraded(store: Store, question: str, run_id: str) -> str:
    """Write the `DEGRADED` answer onto the run's `FAILED` record; `StoreError` when there is none."""
    from groundgate.store.repositories import get_run

    text = compose_degraded([], [], language_of(question)).output.text
    try:
        with store.session() as session:
            run = get_run(run_id, session=session, lock=True)
            if run.status == "RUNNING":
                # Its FAILED record could not be written (the store went away); the store's
                # heartbeat writes it once the store is back. Until then there is no final record.
                raise StoreError(f"run {run_id} is not recorded FAILED yet")
            run.output_kind = OutputKind.DEGRADED.value
            run.answer = text
    except Exception as exc:
        logger.exception("could not record failed run %s", run_id)
        raise StoreError(
            f"the run could not be recorded ({type(exc).__name__}); no answer is given "
            "without its audit record — try again later"
        ) from exc
    return text


def _ask(
    store: Store,
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    run_id: str,
    session_id: str,
    read_history: bool,
    mode: str,
    on_event: Callable[[RunEvent], None] | None,
    untenanted_sessions: bool,
) -> RunResult:
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


#: Asked once each by `warm_up`: one question per language, so both languages' paths are loaded.
WARM_UP_QUESTIONS: Final = ("ERR_TIMEOUT 是什么意思？", "What does ERR_TIMEOUT mean?")
#: The tenant of the warm-up runs: it owns no document, record or log line.
WARM_UP_TENANT: Final = "groundgate-warm-up"


def warm_up(orchestrator: Orchestrator) -> None:
    """Run the offline pipeline once per language before the service takes requests, so that the
    first chat does not pay for loading the dictionaries and the checker (about 0.2 s on a 2-core VM).
    Nothing is recorded or answered; the warm-up tenant owns no data, so it reads only what every
    tenant may read (shared documents). A failure is only logged."""
    ctx = ExecutionContext(tenant=WARM_UP_TENANT, user="warm-up")
    for question in WARM_UP_QUESTIONS:
        try:
            orchestrator.run(question, ctx)
        except Exception:  # a warm-up must never stop the service from starting
            logger.warning("warming up the pipeline failed", exc_info=True)
            return

"""The business agent beside the chat pipeline (`[agent] mode`, seed 003 "迁移顺序").

- `shadow` (step 1, "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"): after a chat run is
  answered, `ShadowRuns` runs the agent on the same question in a background thread and records its
  decision (mode `agent-shadow`) in a session of its own, `shadow_session_id(chat run id)`. Its own
  session, not the chat's: a shadow run in the chat session would become one of the session's earlier
  turns (`apps.history`) and its latest run (feedback without a `runId`), and so change later chat
  replies. The chat reply is computed before the agent starts and never waits for it or sees its
  failures; the pool is drained when the service stops, so a submitted decision is not lost.
- `active` (step 3, "新 Evidence Evaluator 和 Grounded Composer 只接管新 Planner 能完整规划的请求，其他请求回退旧链路"):
  `answer_actively` runs the agent first; a fully planned question is answered by it (recorded mode
  `agent`, the reply the chat response's fields plus the agent's, `chat_payload`), any other falls
  back to the chat pipeline, recorded mode `agent-fallback`.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from groundgate.agent.contracts import DecisionResult, ExecutionContext

if TYPE_CHECKING:
    from groundgate.agent.runtime import AgentRuntime
    from groundgate.store import Store

__all__ = [
    "FALLBACK_MODE",
    "SHADOW_SESSION_PREFIX",
    "ActiveAnswer",
    "ShadowRuns",
    "answer_actively",
    "chat_payload",
    "shadow_session_id",
]

logger = logging.getLogger(__name__)

#: The `diagnosis_run.mode` of a chat run the agent handed a question to.
FALLBACK_MODE: Final = "agent-fallback"
#: A shadow decision's session is this prefix and the chat run's id: found from the chat run alone.
SHADOW_SESSION_PREFIX: Final = "shadow-"


def shadow_session_id(chat_run_id: str) -> str:
    """The session a chat run's shadow decision is recorded in (`GET /api/sessions/{id}/runs`)."""
    return f"{SHADOW_SESSION_PREFIX}{chat_run_id}"


class ShadowRuns:
    """Shadow decisions, run one at a time in a worker thread after the chat reply is computed.

    One worker: the shadow load never competes with the chat runs for more than one thread, and the
    records are written in the order the chat runs were answered. `drain` waits for what was submitted
    (tests, and `close` when the service stops): a submitted decision is recorded, never dropped.
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent-shadow")
        self._pending: set[Future[DecisionResult | None]] = set()
        self._lock = threading.Lock()

    def submit(
        self,
        runtime: Callable[[], AgentRuntime],
        store: Store,
        question: str,
        ctx: ExecutionContext,
        *,
        chat_run_id: str,
    ) -> Future[DecisionResult | None]:
        """Run and record the agent's decision for `chat_run_id`'s question. `runtime` gives the agent
        (opening its workspace on first use, in the worker too: off the request's path). Never raises
        for the agent's failures: they are logged, nothing is recorded."""
        future = self._pool.submit(_shadow_run, runtime, store, question, ctx, chat_run_id)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: Future[DecisionResult | None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every submitted decision is recorded; False when `timeout` passed first."""
        with self._lock:
            pending = set(self._pending)
        _done, not_done = wait(pending, timeout=timeout)
        return not not_done

    def close(self) -> None:
        """Record what was submitted, then stop the worker (the service's shutdown)."""
        self._pool.shutdown(wait=True)


def _shadow_run(
    runtime: Callable[[], AgentRuntime], store: Store, question: str, ctx: ExecutionContext, chat_run_id: str
) -> DecisionResult | None:
    from groundgate.agent.recording import run_in_shadow

    try:
        agent = runtime()
    except Exception:
        logger.exception("the agent's workspace could not open; no shadow decision for this run")
        return None
    return run_in_shadow(agent, store, question, ctx, session_id=shadow_session_id(chat_run_id))


def chat_payload(result: DecisionResult, chat_body: dict[str, Any], *, session_id: str) -> dict[str, Any]:
    """An agent decision as a `POST /api/chat` reply: every field of the chat response as before
    (`runId`, `outputKind`, `answer`, `citations` with their numbers …), the agent's fields beside
    them (`decision`, `coveredNeeds`, `missingNeeds`, `statements`, `data` …), `answeredBy: "agent"`."""
    from groundgate.agent.sessions import decision_payload

    return {**decision_payload(result, session_id=session_id), **chat_body, "answeredBy": "agent"}


@dataclass(frozen=True, slots=True)
class ActiveAnswer:
    """What `answer_actively` decided: the agent's decision, recorded (`fallback` False), or the
    question handed back to the chat pipeline (`fallback` True; nothing recorded for the agent)."""

    result: DecisionResult
    session_id: str
    elapsed_ms: float

    @property
    def fallback(self) -> bool:
        return self.result.fallback


def answer_actively(
    runtime: AgentRuntime,
    store: Store,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None,
    run_agent: Callable[..., DecisionResult] | None = None,
) -> ActiveAnswer | None:
    """Active mode: run the agent in the conversation `session_id` (a new one minted when absent, so
    the reply's `sessionId` continues it). A fully planned decision is recorded (mode `agent`) in that
    session; a fallback is not — the chat run the caller makes next is its record (`agent-fallback`),
    and recording both would put the question twice into the session's history. None: the agent
    raised (logged); the caller falls back as for an unplannable question.

    `run_agent` is `agent.sessions.ask_in_session` (a parameter for tests)."""
    from groundgate.agent.recording import record_decision, turn_record
    from groundgate.agent.sessions import StoreSessionStore, ask_in_session
    from groundgate.errors import AuthError, InvalidInputError

    sid = session_id or uuid.uuid4().hex
    started = time.perf_counter()
    sessions = StoreSessionStore(store)
    try:
        # What the turn starts from, for a replay of the recorded run (`groundgate eval capture`).
        turn = turn_record(ctx, runtime.now(), state=sessions.load(sid, ctx))
        result = (run_agent or ask_in_session)(runtime, sessions, question, ctx, session_id=sid)
    except (AuthError, InvalidInputError):
        raise  # another user's conversation (403), a malformed id: the caller's answer, not a fault
    except Exception:
        # The agent is the new path: its fault must not cost the user an answer the chat pipeline
        # can give (seed "迁移顺序" 3).
        logger.exception("the agent failed in active mode; the chat pipeline answers instead")
        return None
    elapsed = round((time.perf_counter() - started) * 1000.0, 2)
    if not result.fallback:
        record_decision(store, result, session_id=sid, tenant=ctx.tenant, elapsed_ms=elapsed, turn=turn)
    return ActiveAnswer(result=result, session_id=sid, elapsed_ms=elapsed)

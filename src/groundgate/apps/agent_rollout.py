"""The business agent beside the chat pipeline (`[agent] mode`, seed 003 "迁移顺序").

- `shadow` (step 1, "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"): after a chat run is
  answered, `ShadowRuns` runs the agent on the same question in a background thread and records its
  decision (mode `agent-shadow`) in a session of its own, `shadow_session_id(chat run id)`. Its own
  session, not the chat's: a shadow run in the chat session would become one of the session's earlier
  turns (`apps.history`) and its latest run (feedback without a `runId`), and so change later chat
  replies. The chat reply is computed before the agent starts and never waits for it or sees its
  failures; the pool is drained when the service stops, so an accepted decision is not lost. The
  queue is bounded (`[agent] shadow_queue`): when that many decisions are already pending, a new one
  is dropped — logged and counted (`ShadowRuns.dropped`, `/metrics`) — rather than piling up in
  memory or slowing the chat reply.
- `active` (step 3, "新 Evidence Evaluator 和 Grounded Composer 只接管新 Planner 能完整规划的请求，其他请求回退旧链路"):
  `answer_actively` runs the agent first; a fully planned question is answered by it (recorded mode
  `agent` as it runs, from the moment the plan is complete; the reply the chat response's fields plus
  the agent's, `chat_payload`), any other falls back to the chat pipeline, recorded mode
  `agent-fallback`.
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
    from groundgate.runtime.orchestrator import RunSink
    from groundgate.store import Store

__all__ = [
    "DEFAULT_SHADOW_QUEUE",
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
#: Shadow decisions pending (queued or running) at most, unless configured (`[agent] shadow_queue`).
DEFAULT_SHADOW_QUEUE: Final = 100
#: A full queue is logged at most this often (with the drops since), not once per dropped decision.
_DROP_LOG_SECONDS: Final = 60.0


def shadow_session_id(chat_run_id: str) -> str:
    """The session a chat run's shadow decision is recorded in (`GET /api/sessions/{id}/runs`)."""
    return f"{SHADOW_SESSION_PREFIX}{chat_run_id}"


class ShadowRuns:
    """Shadow decisions, run one at a time in a worker thread after the chat reply is computed.

    One worker: the shadow load never competes with the chat runs for more than one thread, and the
    records are written in the order the chat runs were answered. At most `max_pending` decisions are
    pending (queued or running): `submit` drops a new one when the queue is full (or the worker is
    stopped), returning None — it never blocks and never raises, so the chat reply is neither slowed
    nor failed by an overloaded agent. Drops are counted (`dropped`), logged (at most once a minute,
    with the count) and reported to `on_drop` (the service's `/metrics`). `drain` waits for what was
    accepted (tests, and `close` when the service stops): an accepted decision is recorded, never
    dropped.
    """

    def __init__(
        self, *, max_pending: int = DEFAULT_SHADOW_QUEUE, on_drop: Callable[[], None] | None = None
    ) -> None:
        if max_pending < 1:
            raise ValueError("max_pending must be at least 1")
        self.max_pending = max_pending
        self._on_drop = on_drop
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agent-shadow")
        self._pending: set[Future[DecisionResult | None]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.dropped = 0
        """Decisions dropped since the start (queue full, or submitted after `close`)."""
        self._dropped_unlogged = 0
        self._last_drop_log: float | None = None

    @property
    def pending(self) -> int:
        """Decisions accepted and not finished yet (queued or running)."""
        with self._lock:
            return len(self._pending)

    def submit(
        self,
        runtime: Callable[[], AgentRuntime],
        store: Store,
        question: str,
        ctx: ExecutionContext,
        *,
        chat_run_id: str,
    ) -> Future[DecisionResult | None] | None:
        """Run and record the agent's decision for `chat_run_id`'s question; None when it was dropped
        (the queue is full, or the worker stopped). `runtime` gives the agent (opening its workspace on
        first use, in the worker too: off the request's path). Never raises for the agent's failures:
        they are logged (and an agent that raised mid-run is recorded `FAILED`)."""
        future: Future[DecisionResult | None] | None = None
        report = 0
        with self._lock:
            if not self._closed and len(self._pending) < self.max_pending:
                try:
                    future = self._pool.submit(_shadow_run, runtime, store, question, ctx, chat_run_id)
                except RuntimeError:  # the pool was shut down meanwhile
                    self._closed = True
                else:
                    self._pending.add(future)
            if future is None:
                report = self._count_drop()
        if future is None:
            self._dropped(report, chat_run_id)
            return None
        # Outside the lock: a future already done runs the callback here, and it takes the lock.
        future.add_done_callback(self._forget)
        return future

    def _count_drop(self) -> int:
        """Count a drop (the lock held); returns how many drops to log now (0: not yet)."""
        self.dropped += 1
        self._dropped_unlogged += 1
        now = time.monotonic()
        if self._last_drop_log is not None and now - self._last_drop_log < _DROP_LOG_SECONDS:
            return 0
        report, self._dropped_unlogged, self._last_drop_log = self._dropped_unlogged, 0, now
        return report

    def _dropped(self, report: int, chat_run_id: str) -> None:
        if report:
            logger.warning(
                "shadow queue %s (max %d pending): dropped %d shadow decision(s) since the last report, "
                "%d in all (latest: chat run %s); the chat replies are unaffected",
                "closed" if self._closed else "full",
                self.max_pending,
                report,
                self.dropped,
                chat_run_id,
            )
        if self._on_drop is not None:
            try:
                self._on_drop()
            except Exception:
                logger.exception("could not count a dropped shadow decision")

    def _forget(self, future: Future[DecisionResult | None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every accepted decision is recorded; False when `timeout` passed first."""
        with self._lock:
            pending = set(self._pending)
        _done, not_done = wait(pending, timeout=timeout)
        return not not_done

    def close(self) -> None:
        """Record what was accepted, then stop the worker (the service's shutdown); later submissions
        are dropped."""
        with self._lock:
            self._closed = True
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
    from groundgate.agent.recording import record_agent_run, turn_record
    from groundgate.agent.sessions import StoreSessionStore, ask_in_session
    from groundgate.errors import AuthError, InvalidInputError

    sid = session_id or uuid.uuid4().hex
    started = time.perf_counter()
    sessions = StoreSessionStore(store)
    ask = run_agent or ask_in_session

    def execute(sink: RunSink, run_id: str) -> DecisionResult:
        return ask(runtime, sessions, question, ctx, session_id=sid, sink=sink, run_id=run_id)

    try:
        # What the turn starts from, for a replay of the recorded run (`groundgate eval capture`).
        turn = turn_record(ctx, runtime.now(), state=sessions.load(sid, ctx))
        # Recorded as it runs once the plan is complete (`takeover_only`); a hand-back is not recorded.
        recorded = record_agent_run(
            store,
            execute,
            question=question,
            session_id=sid,
            tenant=ctx.tenant,
            turn=turn,
            started=started,
            takeover_only=True,
        )
    except (AuthError, InvalidInputError):
        raise  # another user's conversation (403), a malformed id: the caller's answer, not a fault
    except Exception:
        # The agent is the new path: its fault must not cost the user an answer the chat pipeline
        # can give (seed "迁移顺序" 3). A fault after the agent took the question over leaves its run
        # recorded FAILED, with the steps so far.
        logger.exception("the agent failed in active mode; the chat pipeline answers instead")
        return None
    return ActiveAnswer(result=recorded.result, session_id=sid, elapsed_ms=recorded.elapsed_ms)

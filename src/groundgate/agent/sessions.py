"""Where a conversation's structured state is kept between turns, and the JSON shape of a decision.

`StoreSessionStore` keeps it in the run store's `conversation` table (seed "aihr_knowledge_conversation"):

- `context_json` stays the legacy list of turns (`{"role", "content"}`: the question, then the
  rendered answer) — for language only, never a fact (invariant 4);
- `state_json` holds the `ConversationState` — earlier questions and fact-ref records (tool code,
  business arguments, item key, time, TTL, scope, authorization snapshot, audit ref), never fact
  bodies — with the tenant and user the conversation belongs to;
- `state_version` is the layout version of `state_json` (`STATE_VERSION`); a row of another layout
  is read as a fresh state rather than misread.

A conversation belongs to the tenant and user that started it: another caller gets `AuthError(403)`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from sqlalchemy import insert, select, update

from groundgate.agent.context import STATE_VERSION, ConversationState
from groundgate.agent.contracts import DecisionResult, ExecutionContext
from groundgate.errors import AuthError, InvalidInputError

if TYPE_CHECKING:
    from groundgate.agent.runtime import AgentRuntime
    from groundgate.runtime.orchestrator import RunSink
    from groundgate.store import Store

__all__ = ["MAX_TURNS", "SessionStore", "StoreSessionStore", "ask_in_session", "decision_payload"]

#: The legacy turn list keeps this many entries (question and answer count one each).
MAX_TURNS: Final = 40


class SessionStore(Protocol):
    def load(self, session_id: str, ctx: ExecutionContext) -> ConversationState: ...

    def save(
        self, session_id: str, ctx: ExecutionContext, state: ConversationState, *, question: str, answer: str
    ) -> None: ...


def _conversation() -> Any:
    # The store's own table definition, imported where used: the agent reads it, never redefines it.
    from groundgate.store.tables import Conversation

    return Conversation.__table__


def _check_id(session_id: str) -> None:
    if not session_id or len(session_id) > 64:
        raise InvalidInputError("a session id is 1-64 characters")


class StoreSessionStore:
    """Conversation state in the `conversation` table of a run store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def load(self, session_id: str, ctx: ExecutionContext) -> ConversationState:
        _check_id(session_id)
        table = _conversation()
        with self._store.transaction() as connection:
            row = connection.execute(
                select(table.c.state_json, table.c.state_version).where(table.c.session_id == session_id)
            ).first()
        if row is None or not isinstance(row.state_json, dict):
            return ConversationState()
        owner = row.state_json.get("owner") or {}
        if owner.get("tenant") != ctx.tenant or owner.get("user") != ctx.user:
            raise AuthError(403, f"session {session_id!r} belongs to another user")
        if row.state_version != STATE_VERSION:
            return ConversationState()  # another layout: start afresh rather than misread it
        return ConversationState.model_validate(row.state_json.get("state") or {})

    def save(
        self, session_id: str, ctx: ExecutionContext, state: ConversationState, *, question: str, answer: str
    ) -> None:
        _check_id(session_id)
        table = _conversation()
        state_json = {
            "owner": {"tenant": ctx.tenant, "user": ctx.user},
            "state": state.model_dump(mode="json"),
        }
        turns = [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
        with self._store.transaction() as connection:
            row = connection.execute(
                select(table.c.context_json, table.c.state_json).where(table.c.session_id == session_id)
            ).first()
            if row is None:
                connection.execute(
                    insert(table).values(
                        session_id=session_id,
                        context_json=turns,
                        state_json=state_json,
                        state_version=STATE_VERSION,
                    )
                )
                return
            owner = (row.state_json or {}).get("owner") or {} if isinstance(row.state_json, dict) else {}
            if owner and (owner.get("tenant") != ctx.tenant or owner.get("user") != ctx.user):
                raise AuthError(403, f"session {session_id!r} belongs to another user")
            context = list(row.context_json) if isinstance(row.context_json, list) else []
            connection.execute(
                update(table)
                .where(table.c.session_id == session_id)
                .values(
                    context_json=[*context, *turns][-MAX_TURNS:],
                    state_json=state_json,
                    state_version=STATE_VERSION,
                )
            )


def ask_in_session(
    runtime: AgentRuntime,
    sessions: SessionStore,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None = None,
    client_refs: Sequence[str] = (),
    record_in: Store | None = None,
    sink: RunSink | None = None,
    run_id: str | None = None,
) -> DecisionResult:
    """One turn: load the conversation's state, run, remember the turn, save (no session: stateless).

    With `record_in`, the run is recorded there as it happens, like a chat run
    (`agent.recording.record_agent_run`: `RUNNING` before the agent starts, steps as they come, `FAILED`
    with its steps so far when the turn raises). Without it, `sink` and `run_id` go to the runtime
    (a caller recording the turn itself: `apps.agent_rollout.answer_actively`)."""
    started = time.perf_counter()
    state = sessions.load(session_id, ctx) if session_id else None

    def turn(to: RunSink | None, rid: str | None) -> DecisionResult:
        result = runtime.run(question, ctx, state=state, client_refs=client_refs, sink=to, run_id=rid)
        if session_id and state is not None:
            state.remember(
                result.resolved.resolved_question, result.new_refs, result.resolved.invalidated_refs
            )
            sessions.save(session_id, ctx, state, question=question, answer=result.answer.render())
        return result

    if record_in is None:
        return turn(sink, run_id)
    from groundgate.agent.recording import record_agent_run, turn_record

    recorded = record_agent_run(
        record_in,
        turn,
        question=question,
        session_id=session_id or uuid.uuid4().hex,
        tenant=ctx.tenant,
        turn=turn_record(ctx, runtime.now(), state=state, client_refs=client_refs),
        started=started,
    )
    return recorded.result


def decision_payload(result: DecisionResult, *, session_id: str | None = None) -> dict[str, Any]:
    """The JSON of one decision (camelCase). Additive over the chat response: `answer`, `citations`
    and `data` read as before; the agent's fields sit beside them."""
    answer = result.answer
    return {
        "runId": result.run_id,
        "sessionId": session_id,
        "answer": answer.render(),
        "citations": [
            {
                "citationId": c.citation_id,
                "evidenceType": c.evidence_type.value,
                "source": c.source,
                "excerpt": c.excerpt,
            }
            for c in answer.citations
        ],
        "data": result.domain_result,
        "decision": result.status.value,
        "reason": result.reason.value,
        "fallback": result.fallback,
        "resolvedQuestion": result.resolved.resolved_question,
        "relation": result.resolved.relation.value,
        "coveredNeeds": [n.value for n in result.covered_needs],
        "missingNeeds": [n.value for n in result.missing_needs],
        "summary": answer.summary,
        "statements": [s.model_dump(mode="json") for s in answer.statements],
        "steps": [s.model_dump(mode="json") for s in answer.steps],
        "missingInformation": answer.missing_information,
        "clarifyingQuestions": answer.clarifying_questions,
        "conflicts": result.conflicts,
        "rounds": result.rounds,
        "answerModelCalled": result.answer_model_called,
        "plan": result.plan.model_dump(mode="json") if result.plan else None,
        "slots": [s.model_dump(mode="json") for s in result.slots],
        "actions": [a.model_dump(mode="json") for a in result.actions],
    }

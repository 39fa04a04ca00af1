"""`POST /api/agent/ask`: the constrained business agent over the HR demo (seed 003).

The `ExecutionContext` is the authenticated principal's (`Writer`): tenant, user, roles and allowed
projects from the API key; the project is the key's only allowed project when it has exactly one.
The body carries the question, an optional `sessionId` and optional `factRefs` — ids the client
saw, never fact contents; refs the server did not issue to this user in this session are refused.
A body naming an authorization field is a 422 (as for `/api/chat`).

The run is recorded as it happens (`agent.recording.record_agent_run`, the chat pipeline's `RunSink`
seam): `RUNNING` under this process's lease before the agent starts, the plan and each tool invocation
as they come — `GET /api/trace/{runId}` shows them while it runs — then finished; an agent that raises
leaves it `FAILED` with its steps so far. A question the agent cannot fully plan falls back to the
chat pipeline (recorded with mode `agent-fallback`); its answer and citations are returned, with
`fallback: true`.

The reply is additive over the chat response: `answer`, `citations` and `data` read as before, with
`decision`, the covered and missing slots, statements, steps and the structured trace beside them
(`groundgate.agent.sessions.decision_payload`). The HR workspace (its index under the data
directory, its tasks in the run store) is opened on the first request and kept on the app, and
closed with it (`close_agent`); `POST /api/chat` shares it in `[agent] mode = "shadow" | "active"`.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from groundgate.api.deps import Services, Svc, Writer
from groundgate.api.errors import ERROR_RESPONSES, invalid_request
from groundgate.api.schemas import Identifier, NonBlankText, _Body
from groundgate.apps.agent_rollout import FALLBACK_MODE
from groundgate.contracts import ExecutionContext

if TYPE_CHECKING:
    from groundgate.apps.agent_rollout import ShadowRuns
    from groundgate.demo.hr.workspace import HrWorkspace

__all__ = [
    "FALLBACK_MODE",
    "AgentAskRequest",
    "agent_context",
    "close_agent",
    "hr_workspace",
    "router",
    "shadow_runs",
]

router = APIRouter(tags=["agent"])

_LOCK = threading.Lock()


class AgentAskRequest(_Body):
    question: Annotated[NonBlankText, Field(max_length=100_000)]
    """Also limited by `[api] max_question_chars`."""
    session_id: Identifier | None = None
    fact_refs: list[Identifier] = Field(default_factory=list, max_length=20)
    """Refs the client was shown; re-read and re-authorized by the server, never trusted."""


def agent_context(ctx: ExecutionContext) -> ExecutionContext:
    """The agent's context of a principal: its project is the key's only allowed project, if one."""
    if len(ctx.allowed_projects) == 1:
        return ctx.model_copy(update={"project": ctx.allowed_projects[0]})
    return ctx


def hr_workspace(request: Request, svc: Services) -> HrWorkspace:
    """The agent's HR workspace, opened on first use and kept on the app (closed with it)."""
    from groundgate.agent import TaskStore
    from groundgate.demo.hr.workspace import open_hr_workspace

    with _LOCK:
        hr: HrWorkspace | None = getattr(request.app.state, "agent_hr", None)
        if hr is None:
            hr = open_hr_workspace(svc.settings.data_dir, TaskStore(svc.store))
            request.app.state.agent_hr = hr
        return hr


def shadow_runs(request: Request) -> ShadowRuns:
    """The app's shadow worker (`[agent] mode = "shadow"`), started on first use, drained and stopped
    when the app stops (`api.app`). Its queue holds `[agent] shadow_queue` decisions at most; what it
    drops is counted in `/metrics` (`groundgate_agent_shadow_dropped_total`)."""
    from groundgate.apps.agent_rollout import ShadowRuns

    with _LOCK:
        runs: ShadowRuns | None = getattr(request.app.state, "agent_shadow", None)
        if runs is None:
            svc: Services = request.app.state.services
            runs = ShadowRuns(
                max_pending=svc.settings.agent.shadow_queue, on_drop=svc.metrics.observe_shadow_dropped
            )
            request.app.state.agent_shadow = runs
        return runs


def close_agent(state: Any) -> None:
    """When the app stops, before its store closes: record the shadow decisions still queued, then
    close the HR workspace (its index has one owner per process)."""
    runs: ShadowRuns | None = getattr(state, "agent_shadow", None)
    if runs is not None:
        runs.close()
        state.agent_shadow = None
    with _LOCK:
        hr: HrWorkspace | None = getattr(state, "agent_hr", None)
        state.agent_hr = None
    if hr is not None:
        hr.close()


@router.post("/api/agent/ask", responses=ERROR_RESPONSES)
async def ask(body: AgentAskRequest, request: Request, svc: Svc, who: Writer) -> dict[str, Any]:
    """Answer with the agent: a decision, its covered and missing slots, and citations."""
    question = body.question.strip()
    limit = svc.settings.api.max_question_chars
    if len(question) > limit:
        raise invalid_request(
            "question", f"the question is longer than {limit} characters", "string_too_long"
        )
    # A chat's work: on the chat workers (`Services.run_chat`), not the shared threadpool.
    return await svc.run_chat(_answer, body, request, svc, agent_context(who.context()), question)


def _answer(
    body: AgentAskRequest, request: Request, svc: Services, ctx: ExecutionContext, question: str
) -> dict[str, Any]:
    from groundgate.agent.sessions import StoreSessionStore, ask_in_session, decision_payload

    hr = hr_workspace(request, svc)
    result = ask_in_session(
        hr.runtime,
        StoreSessionStore(svc.store),
        question,
        ctx,
        session_id=body.session_id,
        client_refs=body.fact_refs,
        record_in=svc.store,
    )
    payload = decision_payload(result, session_id=body.session_id)
    if result.fallback:
        payload.update(_fallback(svc, question, ctx))
    return payload


def _fallback(svc: Services, question: str, ctx: ExecutionContext) -> dict[str, Any]:
    """A question the agent could not fully plan goes to the chat pipeline, recorded with mode
    `FALLBACK_MODE` (seed "迁移顺序" 3); its answer and citations become the reply's, its whole
    response rides along as `fallbackRun`."""
    from groundgate.api.schemas import ChatResponse
    from groundgate.apps.chat import FailedRun, answer_recorded

    answered = answer_recorded(
        svc.store,
        svc.orchestrator,
        question,
        ctx,
        mode=FALLBACK_MODE,
        untenanted_sessions=not svc.settings.api.keys,
    )
    chat = (
        ChatResponse.from_failed(answered)
        if isinstance(answered, FailedRun)
        else ChatResponse.from_result(answered)
    )
    body: dict[str, Any] = chat.model_dump(mode="json", by_alias=True)
    return {"answer": body["answer"], "citations": body["citations"], "fallbackRun": body}

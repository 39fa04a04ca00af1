"""`POST /api/chat`: answer a question; with `Accept: text/event-stream`, the run's stage events
(`run_started`, `planning`, `tool_call`, `tool_result`, `gatekeeper`, `verifier`, `round_done`,
`final`) stream as server-sent events, then one `result` event.

A `sessionId` is claimed, not just checked: the session is found or created for the caller's tenant
in one transaction before the run starts — for a plain chat the transaction that inserts the run,
for a stream or the active agent a `claim_session` before the headers — so "not yours" is always a
404 `not_found` "unknown session id" (the same answer as for any id that is not yours), nothing runs,
and a run is never attached to another tenant's session.

A run that raises (a model or tool outage the pipeline did not absorb) is recorded `FAILED` and
answered `DEGRADED`, never 500 (`groundgate.apps.chat.answer_recorded`). A run that cannot be
recorded at all is 503 `unavailable` (for a stream, an `error` event instead of `result`).

`[agent] mode` (`groundgate.apps.agent_rollout`): `shadow` hands each answered question to the
business agent after the reply is computed (recorded `agent-shadow`, the reply unchanged); `active`
answers a question the agent can fully plan with the agent — the chat response's fields plus the
agent's, `answeredBy: "agent"` — and any other with the chat pipeline recorded `agent-fallback`
(`answeredBy: "chat"`, `fallback: true`). A stream in active mode sends `final` then `result` for an
agent answer, the chat run's events for a fallback.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse

from groundgate.agent.recording import run_result_of
from groundgate.api.deps import Services, Svc, Writer
from groundgate.api.errors import ERROR_RESPONSES, invalid_request, unavailable_body
from groundgate.api.routes.agent import agent_context, hr_workspace, shadow_runs
from groundgate.api.schemas import ChatRequest, ChatResponse
from groundgate.apps.agent_rollout import FALLBACK_MODE, ActiveAnswer, answer_actively, chat_payload
from groundgate.apps.chat import FailedRun, answer_recorded, claim_session
from groundgate.contracts import ExecutionContext, RunEvent
from groundgate.errors import RunError

__all__ = ["SSE_MEDIA_TYPE", "router"]

SSE_MEDIA_TYPE = "text/event-stream"
_SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: What a fallback's reply adds to the chat response in active mode.
_FALLBACK_MARK: dict[str, Any] = {"answeredBy": "chat", "fallback": True}

router = APIRouter(tags=["chat"])

logger = logging.getLogger(__name__)


def _run_chat(
    svc: Services,
    question: str,
    ctx: ExecutionContext,
    session_id: str | None,
    on_event: Callable[[RunEvent], None] | None,
    *,
    request: Request | None = None,
    mode: str = "api",
) -> ChatResponse:
    answered = answer_recorded(
        svc.store,
        svc.orchestrator,
        question,
        ctx,
        session_id=session_id,
        mode=mode,
        on_event=on_event,
        untenanted_sessions=not svc.settings.api.keys,
    )
    if isinstance(answered, FailedRun):
        svc.metrics.observe_failed_run()
        response = ChatResponse.from_failed(answered)
    else:
        svc.metrics.observe_run(answered)
        response = ChatResponse.from_result(answered)
    if request is not None and svc.settings.agent.mode == "shadow":
        _shadow(request, svc, question, ctx, response.run_id)
    return response


def _shadow(request: Request, svc: Services, question: str, ctx: ExecutionContext, chat_run_id: str) -> None:
    """Shadow mode: the reply is computed; the agent runs on the same question in the background (its
    workspace opened there too, on first use)."""
    shadow_runs(request).submit(
        lambda: hr_workspace(request, svc).runtime,
        svc.store,
        question,
        agent_context(ctx),
        chat_run_id=chat_run_id,
    )


def _active(
    request: Request, svc: Services, question: str, ctx: ExecutionContext, session_id: str | None
) -> ActiveAnswer | None:
    """Active mode, first step: the agent's decision, or None when the chat pipeline must answer."""
    try:
        runtime = hr_workspace(request, svc).runtime
    except Exception:
        logger.exception("the agent's workspace could not open; the chat pipeline answers")
        return None
    return answer_actively(runtime, svc.store, question, agent_context(ctx), session_id=session_id)


def _agent_body(answer: ActiveAnswer) -> dict[str, Any]:
    run = run_result_of(answer.result, session_id=answer.session_id, elapsed_ms=answer.elapsed_ms)
    chat = ChatResponse.from_result(run).model_dump(mode="json", by_alias=True)
    return chat_payload(answer.result, chat, session_id=answer.session_id)


def _fallback_body(response: ChatResponse) -> dict[str, Any]:
    return {**response.model_dump(mode="json", by_alias=True), **_FALLBACK_MARK}


async def _answer_active(
    request: Request, svc: Services, question: str, ctx: ExecutionContext, session_id: str | None
) -> Any:
    """Active mode. The agent decides before any header is sent, so its refusals (another user's
    conversation: 403) and the store's (503) are statuses, for a stream too."""
    streamed = SSE_MEDIA_TYPE in request.headers.get("accept", "")
    agent = await svc.run_chat(_active, request, svc, question, ctx, session_id)
    if agent is not None and not agent.fallback:
        body = _agent_body(agent)
        if not streamed:
            return JSONResponse(body)
        return StreamingResponse(_agent_events(body), media_type=SSE_MEDIA_TYPE, headers=_SSE_HEADERS)
    sid = agent.session_id if agent is not None else session_id
    if not streamed:
        response = await svc.run_chat(_run_chat, svc, question, ctx, sid, None, mode=FALLBACK_MODE)
        return JSONResponse(_fallback_body(response))
    return StreamingResponse(
        _stream(svc, question, ctx, sid, mode=FALLBACK_MODE, extra=_FALLBACK_MARK),
        media_type=SSE_MEDIA_TYPE,
        headers=_SSE_HEADERS,
    )


async def _agent_events(body: dict[str, Any]) -> AsyncIterator[str]:
    """An agent answer over SSE: it has no stages to stream, only its `final` and the `result`."""
    detail = {"output_kind": body["outputKind"], "decision": body["decision"]}
    yield _sse("final", {"stage": "final", "round": body["rounds"], "detail": detail})
    yield _sse("result", body)


def _validate_question(svc: Services, body: ChatRequest) -> str:
    question = body.question.strip()
    if not question:
        raise invalid_request("question", "the question is empty")
    limit = svc.settings.api.max_question_chars
    if len(question) > limit:
        raise invalid_request(
            "question", f"the question is longer than {limit} characters", "string_too_long"
        )
    return question


@router.post(
    "/api/chat",
    response_model=ChatResponse,
    response_model_by_alias=True,
    responses={**ERROR_RESPONSES, 200: {"content": {SSE_MEDIA_TYPE: {}}}},
)
async def chat(body: ChatRequest, request: Request, svc: Svc, who: Writer) -> Any:
    """Answer a question; `Accept: text/event-stream` streams stage events, then `result`."""
    question = _validate_question(svc, body)
    ctx = who.context()
    streaming = SSE_MEDIA_TYPE in request.headers.get("accept", "")
    active = svc.settings.agent.mode == "active"
    if body.session_id and (streaming or active):
        # Claimed here, before a stream's headers or the agent (see the module docstring). A plain
        # chat claims it in the transaction that inserts its run (`answer_recorded`, same rule, same
        # 404): one durable transaction fewer per chat.
        await run_in_threadpool(
            claim_session,
            svc.store,
            body.session_id,
            tenant=ctx.tenant,
            include_untenanted=not svc.settings.api.keys,
        )
    if active:
        return await _answer_active(request, svc, question, ctx, body.session_id)
    if not streaming:
        return await svc.run_chat(_run_chat, svc, question, ctx, body.session_id, None, request=request)
    return StreamingResponse(
        _stream(svc, question, ctx, body.session_id, request=request),
        media_type=SSE_MEDIA_TYPE,
        headers=_SSE_HEADERS,
    )


async def _stream(
    svc: Services,
    question: str,
    ctx: ExecutionContext,
    session_id: str | None,
    *,
    request: Request | None = None,
    mode: str = "api",
    extra: dict[str, Any] | None = None,
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()

    def on_event(event: RunEvent) -> None:
        payload = {"stage": event.stage, "round": event.round, "detail": event.detail}
        loop.call_soon_threadsafe(queue.put_nowait, (event.stage, payload))

    task: asyncio.Future[ChatResponse] = asyncio.ensure_future(
        svc.run_chat(_run_chat, svc, question, ctx, session_id, on_event, request=request, mode=mode)
    )
    task.add_done_callback(lambda _t: queue.put_nowait(None))
    while (item := await queue.get()) is not None:
        stage, payload = item
        yield _sse(stage, payload)
    try:
        result = await task
    except RunError as exc:
        # Headers (200) are already sent: the failure travels as an `error` event instead.
        yield _sse("error", unavailable_body(exc))
        return
    yield _sse("result", {**result.model_dump(mode="json", by_alias=True), **(extra or {})})


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"

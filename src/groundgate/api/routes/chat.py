"""`POST /api/chat`: answer a question; with `Accept: text/event-stream`, the run's stage events
(`run_started`, `planning`, `tool_call`, `tool_result`, `gatekeeper`, `verifier`, `round_done`,
`final`) stream as server-sent events, then one `result` event.

A `sessionId` is claimed, not just checked: the session is found or created for the caller's tenant
in one transaction (`claim_session`), before the run starts (and before a stream's headers), so "not
yours" is always a 404 `not_found` "unknown session id" — the same answer as for any id that is not
yours — and a run is never attached to another tenant's session.

A run that raises (a model or tool outage the pipeline did not absorb) is recorded `FAILED` and
answered `DEGRADED`, never 500 (`groundgate.apps.chat.answer_recorded`). A run that cannot be
recorded at all is 503 `unavailable` (for a stream, an `error` event instead of `result`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from groundgate.api.deps import Services, Svc, Writer
from groundgate.api.errors import ERROR_RESPONSES, invalid_request, unavailable_body
from groundgate.api.schemas import ChatRequest, ChatResponse
from groundgate.apps.chat import FailedRun, answer_recorded, claim_session
from groundgate.contracts import ExecutionContext, RunEvent
from groundgate.errors import RunError

__all__ = ["SSE_MEDIA_TYPE", "router"]

SSE_MEDIA_TYPE = "text/event-stream"

router = APIRouter(tags=["chat"])


def _run_chat(
    svc: Services,
    question: str,
    ctx: ExecutionContext,
    session_id: str | None,
    on_event: Callable[[RunEvent], None] | None,
) -> ChatResponse:
    answered = answer_recorded(
        svc.store,
        svc.orchestrator,
        question,
        ctx,
        session_id=session_id,
        mode="api",
        on_event=on_event,
        untenanted_sessions=not svc.settings.api.keys,
    )
    if isinstance(answered, FailedRun):
        svc.metrics.observe_failed_run()
        return ChatResponse.from_failed(answered)
    svc.metrics.observe_run(answered)
    return ChatResponse.from_result(answered)


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
    if body.session_id:
        # Claimed here, before the run and before a stream's headers (see the module docstring).
        await run_in_threadpool(
            claim_session,
            svc.store,
            body.session_id,
            tenant=ctx.tenant,
            include_untenanted=not svc.settings.api.keys,
        )
    if SSE_MEDIA_TYPE not in request.headers.get("accept", ""):
        return await run_in_threadpool(_run_chat, svc, question, ctx, body.session_id, None)
    return StreamingResponse(
        _stream(svc, question, ctx, body.session_id),
        media_type=SSE_MEDIA_TYPE,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def _stream(
    svc: Services, question: str, ctx: ExecutionContext, session_id: str | None
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()

    def on_event(event: RunEvent) -> None:
        payload = {"stage": event.stage, "round": event.round, "detail": event.detail}
        loop.call_soon_threadsafe(queue.put_nowait, (event.stage, payload))

    task: asyncio.Future[ChatResponse] = asyncio.ensure_future(
        run_in_threadpool(_run_chat, svc, question, ctx, session_id, on_event)
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
    yield _sse("result", result.model_dump(mode="json", by_alias=True))


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"

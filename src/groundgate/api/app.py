"""The FastAPI app (`groundgate serve`).

Endpoints (JSON, camelCase; all under OpenAPI at `/docs` and `/openapi.json`):

- `POST /api/chat` `{question, sessionId?}` → `ChatResponse`; with `Accept: text/event-stream` the
  run's stage events (`run_started`, `planning`, `tool_call`, `tool_result`, `gatekeeper`,
  `verifier`, `round_done`, `final`) stream as server-sent events, then one `result` event.
- `POST /api/check` `{question?, context, answer}` → the grounding checker's `CheckResult`: with a
  judge model configured (`[roles.judge]`, else `[model]`) the model classifies the claims (`checker`
  `llm`), verified in code; when the model call fails the offline checker answers (`checker`
  `offline`, `judge_status` says why) — still 200. Without a model, the offline checker.
- `POST /api/feedback` `{runId?, sessionId, feedback}` → `{success, message, runId,
  fallbackToLatestRun, caseId}` (docs/design.md §6; other feedback values → 400).
- `GET /api/trace/{runId}`, `GET /api/sessions/{sessionId}/runs`, `GET /api/runs?feedback=&sessionId=`,
  `GET /api/cases`: the caller's tenant only; another tenant's run or session is 404.

Sessions without a tenant (`tenant` NULL: recorded before tenants were stored, or by a tool that does
not set one) belong to nobody: with API keys configured they are invisible to every keyed tenant —
404 to read, to continue with `sessionId`, or to give feedback on, and absent from lists — because
the service cannot tell whose they are and a multi-tenant service must not show one tenant's data to
another. In local mode (no keys: one user on a loopback address, the same person as the CLI) they
stay visible, as they are to `groundgate trace` and `groundgate runs`.
- `GET /healthz`, `GET /metrics` (Prometheus text): no key needed; no tenant data in them.

A `sessionId` is claimed, not just checked: `POST /api/chat` finds or creates the session for the
caller's tenant in one transaction (`claim_session`), before the run starts (and before a stream's
headers). Another tenant's session id — existing, or created by another tenant a moment earlier in a
race on the same new id — is 404 `not_found` "unknown session id", the same answer as for any other
id that is not yours; the run is never attached to it. Two first chats of one tenant on one new id (a
double submit) both succeed: two runs in one session.

Authentication and roles: see `groundgate.api.auth`. Identity never comes from a request body: a body
naming `tenant`, `tenantId`, `user`, `userId`, `roles`, `projectId` (any authorization field) is
rejected with 422.

The workspace (the embedded Qdrant Edge shard is opened by one process at a time) and the store are
opened once at startup and shared; runs execute in the threadpool (the orchestrator is synchronous).
A run that raises (a model or tool outage the pipeline did not absorb) is recorded `FAILED` with a
`DEGRADED` answer and answered `DEGRADED`, never 500. A run that cannot be recorded at all (the store
is down) is not answered: 503 `unavailable` (for `text/event-stream`, an `error` event instead of
`result`), since every answer must have its audit record.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, Security
from fastapi import Path as FastAPIPath
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from sqlalchemy import or_, select
from starlette.exceptions import HTTPException as StarletteHTTPException

from groundgate.api.auth import (
    LOOPBACK_HOSTS,
    READ_ROLES,
    WRITE_ROLES,
    AuthError,
    Principal,
    authenticate,
    require_role,
)
from groundgate.api.deps import Services
from groundgate.api.middleware import CorrelationId, RequestGuard, SecurityHeaders, correlation_id
from groundgate.api.schemas import (
    ID_PATTERN,
    ChatRequest,
    ChatResponse,
    CheckBody,
    ErrorBody,
    FeedbackRequest,
    Health,
    Identity,
)
from groundgate.apps.cases import CaseRecord
from groundgate.apps.chat import ask_recorded
from groundgate.apps.check import check_size, check_within_budget
from groundgate.apps.feedback import FEEDBACK_VALUES, FeedbackResponse, submit_feedback
from groundgate.apps.trace import MAX_LIST_LIMIT, RunSummary, RunTrace, get_trace
from groundgate.apps.workspace import Workspace
from groundgate.compose.composer import compose_degraded, language_of
from groundgate.contracts import CheckResult, ExecutionContext, OutputKind, RunEvent
from groundgate.errors import CheckBudgetError, InvalidInputError, RunError, UsageError
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import Settings
from groundgate.store import NotFoundError, Store, StoreError
from groundgate.store.repositories import find_session_row, get_run
from groundgate.store.tables import CaseLibrary, DiagnosisRun, DiagnosisSession
from groundgate.wiring import (
    build_configured_orchestrator,
    check_classifier,
    open_configured_store,
    open_configured_workspace,
)

logger = logging.getLogger(__name__)

SSE_MEDIA_TYPE = "text/event-stream"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The web page: static files, no build step (`index.html`, `app.js`, `style.css`)."""


def check_bind_address(settings: Settings, host: str) -> None:
    """Without API keys the service is single-user and binds only to a loopback address."""
    if not settings.api.keys and host not in LOOPBACK_HOSTS:
        raise UsageError(
            f"refusing to bind {host}: no API keys are configured ([api.keys]), so the service runs in "
            "local single-user mode and may only bind 127.0.0.1 (or configure API keys)"
        )


def _error(
    status: int,
    error: str,
    message: str,
    detail: list[dict[str, Any]] | None = None,
    *,
    correlation: str | None = None,
) -> JSONResponse:
    return JSONResponse(
        ErrorBody(error=error, message=message, detail=detail, correlation_id=correlation).model_dump(
            exclude_none=True, by_alias=True
        ),
        status_code=status,
    )


UNAVAILABLE_MESSAGE = (
    "the service could not complete this request (a store or model it depends on is unavailable); "
    "nothing was answered without its audit record — try again later"
)
"""What a 5xx body says: never the exception's text (it can name the database host, port, the SQL
statement and its parameters). The details go to the log under the correlation id."""


def _unavailable(exc: BaseException) -> tuple[str, dict[str, Any]]:
    """Log `exc` under the request's correlation id; the generic body that goes to the client."""
    cid = correlation_id.get()
    logger.error("request %s failed: %s: %s", cid, type(exc).__name__, exc, exc_info=exc)
    body = ErrorBody(error="unavailable", message=UNAVAILABLE_MESSAGE, correlation_id=cid)
    return cid, body.model_dump(exclude_none=True, by_alias=True)


_HTTP_ERRORS = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _validation_message(exc: RequestValidationError) -> tuple[str, list[dict[str, Any]]]:
    errors = list(exc.errors())
    detail = [
        {
            "loc": [str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in errors
    ]
    if any(e.get("type") == "json_invalid" for e in errors):
        return "the request body is not valid JSON", detail
    parts = [f"{'.'.join(d['loc'][1:] or d['loc'])}: {d['msg']}" for d in detail]
    return "invalid request: " + "; ".join(parts), detail


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


# Declared as OpenAPI security schemes (either one), so `/docs` can authorize and clients and
# fuzzers see how to authenticate; `auto_error=False`: the 401 comes from `authenticate` (or, in local
# mode without keys, no key is needed at all).
BEARER = HTTPBearer(scheme_name="bearer", auto_error=False, description="`Authorization: Bearer <API key>`")
API_KEY = APIKeyHeader(
    name="X-API-Key", scheme_name="apiKey", auto_error=False, description="`X-API-Key: <API key>`"
)


def principal(
    svc: Annotated[Services, Depends(services)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
    x_api_key: Annotated[str | None, Security(API_KEY)],
) -> Principal:
    return authenticate(
        svc.settings, bearer=bearer.credentials if bearer is not None else None, x_api_key=x_api_key
    )


def reader(who: Annotated[Principal, Depends(principal)]) -> Principal:
    require_role(who, READ_ROLES, "read runs")
    return who


def writer(who: Annotated[Principal, Depends(principal)]) -> Principal:
    require_role(who, WRITE_ROLES, "ask, check or give feedback")
    return who


Svc = Annotated[Services, Depends(services)]
Reader = Annotated[Principal, Depends(reader)]
Writer = Annotated[Principal, Depends(writer)]
Limit = Annotated[int, Query(ge=1, le=MAX_LIST_LIMIT)]
# Documented for clients; enforced (with a message naming the character) by `RequestGuard`.
PathId = Annotated[str, FastAPIPath(json_schema_extra={"pattern": ID_PATTERN})]


def create_app(
    settings: Settings,
    *,
    workspace: Workspace | None = None,
    store: Store | None = None,
    orchestrator: Orchestrator | None = None,
) -> FastAPI:
    """The app. Injected `workspace`/`store` are used as they are and not closed by the app."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from groundgate.store.leases import recover_interrupted_runs

        async def recover_interrupted(st: Store) -> None:
            try:
                await run_in_threadpool(recover_interrupted_runs, st)
            except StoreError as exc:  # the store is down: the next pass tries again
                logger.warning("recovering interrupted runs failed: %s", exc)
            except Exception:
                logger.exception("recovering interrupted runs failed; trying again in the next pass")

        async def recover_periodically(st: Store, stop: asyncio.Event) -> None:
            # This process's own runs are kept alive by the store's heartbeat thread
            # (`Store.heartbeat`); this loop recovers the runs of processes that stopped renewing.
            # Stopped by `stop`, never cancelled: a pass in the threadpool would go on after a
            # cancel, holding a connection of a store that is being closed.
            while True:
                try:
                    await asyncio.wait_for(stop.wait(), timeout=settings.store.recover_interval_seconds)
                    return
                except TimeoutError:
                    await recover_interrupted(st)

        own_ws = workspace is None
        own_store = store is None
        ws = workspace if workspace is not None else open_configured_workspace(settings)
        try:
            st = store if store is not None else open_configured_store(settings, recover=False)
            try:
                classifier = check_classifier(settings)
                app.state.services = Services(
                    settings=settings,
                    workspace=ws,
                    store=st,
                    orchestrator=orchestrator or build_configured_orchestrator(settings, ws),
                    classifier=classifier,
                )
                # Runs whose process died (lease expired) become FAILED: once before serving, then
                # every `[store] recover_interval_seconds`. Safe with several workers on one store.
                await recover_interrupted(st)
                stop_recovery = asyncio.Event()
                recovery = asyncio.create_task(recover_periodically(st, stop_recovery))
                try:
                    yield
                finally:
                    stop_recovery.set()
                    await recovery  # lets a pass in progress finish
                    close = getattr(getattr(classifier, "model", None), "close", None)
                    if callable(close):
                        close()  # the judge model's HTTP client
            finally:
                if own_store:
                    st.close()
        finally:
            if own_ws:
                ws.close()

    app = FastAPI(
        title="groundgate",
        description="Answers operations and business questions only with what its read-only tools proved.",
        version="0.1.0",
        lifespan=lifespan,
    )
    # Added last = runs first: security headers go on every response, the 500 of `CorrelationId`
    # included; the correlation id exists before the guard or a route can fail or log.
    app.add_middleware(RequestGuard, max_body_bytes=settings.api.max_body_bytes)
    app.add_middleware(CorrelationId)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(RequestValidationError)
    async def _on_validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        message, detail = _validation_message(exc)
        return _error(422, "invalid_request", message, detail)

    @app.exception_handler(StarletteHTTPException)
    async def _on_http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Framework errors (a body that cannot be decoded, an unknown path, a wrong method) in the
        # same `ErrorBody` shape as every other error.
        response = _error(exc.status_code, _HTTP_ERRORS.get(exc.status_code, "http_error"), str(exc.detail))
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(AuthError)
    async def _on_auth(_request: Request, exc: AuthError) -> JSONResponse:
        response = _error(
            exc.status_code, "unauthorized" if exc.status_code == 401 else "forbidden", exc.message
        )
        if exc.status_code == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.exception_handler(NotFoundError)
    async def _on_not_found(_request: Request, exc: NotFoundError) -> JSONResponse:
        return _error(404, "not_found", str(exc))

    @app.exception_handler(UsageError)
    async def _on_usage(_request: Request, exc: UsageError) -> JSONResponse:
        return _error(400, "bad_request", str(exc))

    @app.exception_handler(RunError)
    async def _on_run_error(_request: Request, exc: RunError) -> JSONResponse:
        _cid, body = _unavailable(exc)
        return JSONResponse(body, status_code=503)

    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorBody} for code in (400, 401, 403, 404, 413, 422, 503)
    }

    keyed = bool(settings.api.keys)

    def _visible(row_tenant: str | None, tenant: str) -> bool:
        """Whether a session recorded for `row_tenant` is the caller's (see the module docstring)."""
        return row_tenant == tenant or (row_tenant is None and not keyed)

    # ------------------------------------------------------------------ the web page

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        # The page holds no data; it reads everything through the API with the user's key.
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/me", response_model=Identity, responses=errors, tags=["service"])
    def me(svc: Svc, who: Reader) -> Identity:
        """Who the presented key (or local mode) acts as: what the page shows in its header."""
        return Identity(
            tenant=who.tenant,
            user=who.user,
            roles=list(who.roles),
            allowed_projects=list(who.allowed_projects),
            mode="keys" if svc.settings.api.keys else "local",
            can_write=bool(WRITE_ROLES.intersection(who.roles)),
        )

    # ------------------------------------------------------------------ health, metrics

    @app.get("/healthz", response_model=Health, tags=["service"])
    def healthz(svc: Svc) -> Health:
        return Health(status="ok", mode="keys" if svc.settings.api.keys else "local")

    @app.get("/metrics", response_class=PlainTextResponse, tags=["service"])
    def metrics(svc: Svc) -> PlainTextResponse:
        return PlainTextResponse(svc.metrics.exposition(), media_type="text/plain; version=0.0.4")

    # ------------------------------------------------------------------ chat

    def _owned_session(svc: Services, session_id: str, tenant: str) -> None:
        # Claim, not just check: the session is found or created for this tenant in one transaction
        # (a separate check let two tenants racing on one new id share it). Done before the run, and
        # before a stream's headers, so "not yours" is always a 404 (see the module docstring).
        from groundgate.store.repositories import claim_session

        with svc.store.session() as session:
            claim_session(session_id, tenant=tenant, untenanted=not keyed, session=session)

    def _run_chat(
        svc: Services,
        question: str,
        ctx: ExecutionContext,
        session_id: str | None,
        on_event: Callable[[RunEvent], None] | None,
    ) -> ChatResponse:
        run_id = uuid.uuid4().hex
        sid = session_id or uuid.uuid4().hex
        try:
            result = ask_recorded(
                svc.store,
                svc.orchestrator,
                question,
                ctx,
                run_id=run_id,
                # the id is minted here (not in `ask_recorded`) so a failed run can be answered with it
                session_id=sid,
                continues_session=session_id is not None,
                mode="api",
                on_event=on_event,
                untenanted_sessions=not keyed,
            )
        except NotFoundError:
            raise  # from `start()`: another tenant's session — 404, nothing was recorded or run
        except Exception as exc:
            logger.exception("run %s failed; answering DEGRADED", run_id)
            svc.metrics.observe_failed_run()
            return _degraded(svc, question, run_id, sid, exc)
        svc.metrics.observe_run(result)
        return ChatResponse.from_result(result)

    def _degraded(svc: Services, question: str, run_id: str, session_id: str, exc: Exception) -> ChatResponse:
        composed = compose_degraded([], [], language_of(question))
        stop = f"error: {type(exc).__name__}"
        try:
            with svc.store.session() as session:
                run = get_run(run_id, session=session, lock=True)
                if run.status == "RUNNING":
                    # Its FAILED record could not be written (the store went away); the store's
                    # heartbeat writes it once the store is back. Until then there is no final record.
                    raise StoreError(f"run {run_id} is not recorded FAILED yet")
                run.output_kind = OutputKind.DEGRADED.value
                run.answer = composed.output.text
        except Exception as store_exc:
            # The run has no (final) record: no answer without its audit trail (every run can be audited).
            logger.exception("could not record failed run %s", run_id)
            raise StoreError(
                f"the run could not be recorded ({type(store_exc).__name__}); no answer is given "
                "without its audit record — try again later"
            ) from store_exc
        return ChatResponse(
            run_id=run_id,
            session_id=session_id,
            question=question,
            output_kind=OutputKind.DEGRADED.value,
            verdict=None,
            decision_status=None,
            answer=composed.output.text,
            stop_reason=stop,
        )

    def _validate_question(svc: Services, body: ChatRequest) -> str:
        question = body.question.strip()
        if not question:
            raise RequestValidationError(
                [{"loc": ("body", "question"), "msg": "the question is empty", "type": "value_error"}]
            )
        limit = svc.settings.api.max_question_chars
        if len(question) > limit:
            raise RequestValidationError(
                [
                    {
                        "loc": ("body", "question"),
                        "msg": f"the question is longer than {limit} characters",
                        "type": "string_too_long",
                    }
                ]
            )
        return question

    @app.post(
        "/api/chat",
        response_model=ChatResponse,
        response_model_by_alias=True,
        responses={**errors, 200: {"content": {SSE_MEDIA_TYPE: {}}}},
        tags=["chat"],
    )
    async def chat(body: ChatRequest, request: Request, svc: Svc, who: Writer) -> Any:
        """Answer a question; `Accept: text/event-stream` streams stage events, then `result`."""
        question = _validate_question(svc, body)
        ctx = who.context()
        if body.session_id:
            await run_in_threadpool(_owned_session, svc, body.session_id, ctx.tenant)
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
            _cid, body = _unavailable(exc)
            yield _sse("error", body)
            return
        yield _sse("result", result.model_dump(mode="json", by_alias=True))

    # ------------------------------------------------------------------ check

    @app.post("/api/check", response_model=CheckResult, responses=errors, tags=["check"])
    async def check_answer(body: CheckBody, svc: Svc, _who: Writer) -> CheckResult | JSONResponse:
        """The grounding checker: verdict and groundedness score of an answer against context passages.

        Within the `[check]` budgets: a context or answer over its size limit is 413
        `payload_too_large`; at most `check.max_concurrency` checks run at once (in the threadpool,
        off the event loop), and a request that waits `check.queue_timeout_seconds` for a slot is
        503 `busy`; a check past `check.time_budget_seconds` is answered `LOW_CONFID`.
        """
        context = [body.context] if isinstance(body.context, str) else body.context
        if not context or not any(c.strip() for c in context):
            raise InvalidInputError("context needs at least one non-empty passage")
        budget = svc.settings.check
        try:
            check_size(context, body.answer, body.question, budget)
        except CheckBudgetError as exc:
            return _error(413, "payload_too_large", str(exc))
        if not await svc.check_slots.acquire():
            response = _error(
                503,
                "busy",
                f"{budget.max_concurrency} checks are running and none finished within "
                f"{budget.queue_timeout_seconds:g} s (settings check.max_concurrency, "
                "check.queue_timeout_seconds); retry later",
            )
            response.headers["Retry-After"] = str(max(1, round(budget.queue_timeout_seconds)))
            return response

        def run() -> CheckResult:
            result = check_within_budget(
                context=context,
                answer=body.answer,
                question=body.question,
                classifier=svc.classifier,
                budget=budget,
            )
            return result.model_copy(update={"id": body.id})

        try:
            return await run_in_threadpool(run)
        finally:
            svc.check_slots.release()

    # ------------------------------------------------------------------ feedback

    def _feedback(svc: Services, body: FeedbackRequest, tenant: str) -> FeedbackResponse:
        if body.feedback not in FEEDBACK_VALUES:
            raise InvalidInputError(
                f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {body.feedback!r}"
            )
        if body.run_id is not None and not body.run_id.strip():
            # An empty `runId` is a client bug, not "the latest run": rating another run than the
            # one the user saw would be silent. Omit `runId` to rate the latest run.
            raise RequestValidationError(
                [
                    {
                        "loc": ("body", "runId"),
                        "msg": "runId is empty; omit it to rate the session's latest run",
                        "type": "value_error",
                    }
                ]
            )
        with svc.store.session() as session:
            row = find_session_row(body.session_id, session=session)
            if row is None or not _visible(row.tenant, tenant):
                raise NotFoundError(f"unknown session id {body.session_id!r}")
            if body.run_id is not None:
                run = get_run(body.run_id, session=session)
                owner = find_session_row(run.session_id, session=session)
                if owner is None or not _visible(owner.tenant, tenant):
                    raise NotFoundError(f"unknown run id {body.run_id!r}")
            return submit_feedback(
                session=session, session_id=body.session_id, feedback=body.feedback, run_id=body.run_id
            )

    @app.post(
        "/api/feedback",
        response_model=FeedbackResponse,
        response_model_by_alias=True,
        responses=errors,
        tags=["runs"],
    )
    async def feedback(body: FeedbackRequest, svc: Svc, who: Writer) -> FeedbackResponse:
        """Seed 004 §7: `useful` distils a case (once), `not_useful` marks a bad case; others → 400."""
        return await run_in_threadpool(_feedback, svc, body, who.tenant)

    # ------------------------------------------------------------------ reading runs

    def _tenant_sessions(tenant: str) -> Any:
        mine = DiagnosisSession.tenant == tenant
        return select(DiagnosisSession.session_id).where(
            mine if keyed else or_(mine, DiagnosisSession.tenant.is_(None))
        )

    def _runs(
        svc: Services, tenant: str, session_id: str | None, feedback: str | None, limit: int
    ) -> list[RunSummary]:
        with svc.store.session() as session:
            if session_id is not None:
                row = find_session_row(session_id, session=session)
                if row is None or not _visible(row.tenant, tenant):
                    raise NotFoundError(f"unknown session id {session_id!r}")
            stmt = (
                select(DiagnosisRun)
                .where(DiagnosisRun.session_id.in_(_tenant_sessions(tenant)))
                .order_by(DiagnosisRun.id.desc())
                .limit(limit)
            )
            if session_id is not None:
                stmt = stmt.where(DiagnosisRun.session_id == session_id)
            if feedback is not None:
                stmt = stmt.where(DiagnosisRun.feedback == feedback)
            return [RunSummary.from_row(r) for r in session.scalars(stmt)]

    @app.get(
        "/api/trace/{run_id}",
        response_model=RunTrace,
        response_model_by_alias=True,
        responses=errors,
        tags=["runs"],
    )
    async def trace(run_id: PathId, svc: Svc, who: Reader) -> RunTrace:
        """Everything stored about one run of the caller's tenant (404 for another tenant's run)."""

        def read() -> RunTrace:
            with svc.store.session() as session:
                found = get_trace(run_id, session=session, tenant=who.tenant)
            # `get_trace` admits sessions without a tenant; this service decides (`_visible`).
            if found.session is None or not _visible(found.session.tenant, who.tenant):
                raise NotFoundError(f"unknown run id {run_id!r}")
            return found

        return await run_in_threadpool(read)

    @app.get(
        "/api/sessions/{session_id}/runs",
        response_model=list[RunSummary],
        response_model_by_alias=True,
        responses=errors,
        tags=["runs"],
    )
    async def session_runs(session_id: PathId, svc: Svc, who: Reader, limit: Limit = 50) -> list[RunSummary]:
        """The session's runs, newest first."""
        return await run_in_threadpool(_runs, svc, who.tenant, session_id, None, limit)

    @app.get(
        "/api/runs",
        response_model=list[RunSummary],
        response_model_by_alias=True,
        responses=errors,
        tags=["runs"],
    )
    async def runs(
        svc: Svc,
        who: Reader,
        feedback: Annotated[
            str | None,
            Query(description="useful or not_useful", json_schema_extra={"enum": list(FEEDBACK_VALUES)}),
        ] = None,
        session_id: Annotated[
            str | None, Query(alias="sessionId", json_schema_extra={"pattern": ID_PATTERN})
        ] = None,
        limit: Limit = 50,
    ) -> list[RunSummary]:
        """The tenant's runs, newest first (`feedback=not_useful`: the bad cases)."""
        if feedback is not None and feedback not in FEEDBACK_VALUES:
            raise InvalidInputError(f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")
        return await run_in_threadpool(_runs, svc, who.tenant, session_id, feedback, limit)

    @app.get(
        "/api/cases",
        response_model=list[CaseRecord],
        response_model_by_alias=True,
        responses=errors,
        tags=["runs"],
    )
    async def cases(svc: Svc, who: Reader, limit: Limit = 50) -> list[CaseRecord]:
        """The tenant's case library (cases distilled from its `useful` runs), newest first."""

        def read() -> list[CaseRecord]:
            sessions = _tenant_sessions(who.tenant)
            tenant_runs = select(DiagnosisRun.run_id).where(DiagnosisRun.session_id.in_(sessions))
            stmt = (
                select(CaseLibrary)
                .where(or_(CaseLibrary.diagnosis_id.in_(tenant_runs), CaseLibrary.diagnosis_id.in_(sessions)))
                .order_by(CaseLibrary.id.desc())
                .limit(limit)
            )
            with svc.store.session() as session:
                return [CaseRecord.from_row(r) for r in session.scalars(stmt)]

        return await run_in_threadpool(read)

    return app


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def serve(settings: Settings, host: str, port: int) -> None:
    """Run the app on uvicorn (blocking).

    The workspace and the store are opened here, before uvicorn starts, so that a second `serve` on
    the same data directory (the embedded shard has one owner) or an unreachable database is one
    clear error line from the CLI, not a traceback from uvicorn's start-up.
    """
    import uvicorn

    check_bind_address(settings, host)
    with open_configured_workspace(settings) as workspace:
        store = open_configured_store(settings)
        try:
            uvicorn.run(
                create_app(settings, workspace=workspace, store=store),
                host=host,
                port=port,
                log_level="info",
                timeout_keep_alive=settings.api.keep_alive_seconds,
            )
        finally:
            store.close()


__all__ = ["check_bind_address", "create_app", "serve"]

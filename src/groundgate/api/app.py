"""The FastAPI app (`groundgate serve`): assembly, lifespan and `serve`.

What lives where:

- `api.routes.*`: the endpoints, one `APIRouter` per topic (service, chat, check, feedback, runs,
  cases); they read and write through `groundgate.apps`, which holds the tenant rule and the SQL.
- `api.deps`: the typed dependencies (`Svc`, `Reader`, `Writer`, `ReadScope`, `WriteScope`, …).
- `api.errors`: the error tree → status codes, every error an `ErrorBody`.
- `api.metrics`: `/metrics` counters. `api.docs`: `/docs` and `/redoc` with local assets.
- `api.middleware`: correlation ids, security headers, request limits. `api.auth`: API keys.

Endpoints (JSON, camelCase; all under OpenAPI at `/docs`, `/redoc` and `/openapi.json`): see the
routes, and the README's API section.

Tenancy: runs, traces, feedback and cases are the caller's tenant's only; another tenant's run or
session is 404. Sessions without a tenant (`tenant` NULL: recorded before tenants were stored, or by
a tool that does not set one) belong to nobody: with API keys configured they are invisible to every
keyed tenant — 404 to read, to continue with `sessionId`, or to give feedback on, and absent from
lists — because the service cannot tell whose they are. In local mode (no keys: one user on a
loopback address, the same person as the CLI) they stay visible, as they are to `groundgate trace`
and `groundgate runs` (`groundgate.apps.runs` states the rule once).

Identity never comes from a request body: a body naming `tenant`, `tenantId`, `user`, `userId`,
`roles`, `projectId` (any authorization field) is rejected with 422.

The workspace (the embedded Qdrant Edge shard is opened by one process at a time) and the store are
opened once at startup and shared; runs execute in the threadpool (the orchestrator is synchronous).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.staticfiles import StaticFiles

from groundgate.api.auth import LOOPBACK_HOSTS
from groundgate.api.deps import Services
from groundgate.api.docs import install_offline_docs
from groundgate.api.errors import install_error_handlers
from groundgate.api.middleware import CorrelationId, RequestGuard, SecurityHeaders
from groundgate.api.routes import ROUTERS
from groundgate.api.routes.agent import close_agent
from groundgate.api.routes.service import WEB_DIR
from groundgate.apps.workspace import Workspace
from groundgate.errors import StoreError, UsageError
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import Settings
from groundgate.store import Store
from groundgate.wiring import (
    build_configured_orchestrator,
    check_classifier,
    open_configured_store,
    open_configured_workspace,
)

if TYPE_CHECKING:
    from groundgate.apps.alerts import AlertWorker

__all__ = ["WEB_DIR", "check_bind_address", "create_app", "serve"]

logger = logging.getLogger(__name__)

TITLE = "groundgate"


def check_bind_address(settings: Settings, host: str) -> None:
    """Without API keys the service is single-user and binds only to a loopback address."""
    if not settings.api.keys and host not in LOOPBACK_HOSTS:
        raise UsageError(
            f"refusing to bind {host}: no API keys are configured ([api.keys]), so the service runs in "
            "local single-user mode and may only bind 127.0.0.1 (or configure API keys)"
        )


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
                # Received alerts are diagnosed by a worker with bounded concurrency (issue 14);
                # only where the webhook can receive them (`[aiops] webhook_token`).
                worker = start_alert_worker(app.state.services)
                app.state.alert_worker = worker
                try:
                    yield
                finally:
                    if worker is not None:
                        await run_in_threadpool(worker.stop)
                    stop_recovery.set()
                    await recovery  # lets a pass in progress finish
                    # Queued shadow decisions are written before the store closes (never lost).
                    await run_in_threadpool(close_agent, app.state)
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
        title=TITLE,
        description="Answers operations and business questions only with what its read-only tools proved.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's own pages load Swagger UI and ReDoc from a CDN: `install_offline_docs`
        redoc_url=None,
    )
    # Added last = runs first: security headers go on every response, the 500 of `CorrelationId`
    # included; the correlation id exists before the guard or a route can fail or log.
    app.add_middleware(RequestGuard, max_body_bytes=settings.api.max_body_bytes)
    app.add_middleware(CorrelationId)
    app.add_middleware(SecurityHeaders)
    install_error_handlers(app)
    install_offline_docs(app, title=TITLE)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    for router in ROUTERS:
        app.include_router(router)
    return app


def start_alert_worker(svc: Services) -> AlertWorker | None:
    """The alert worker of a service with `[aiops] webhook_token` set, started; None otherwise."""
    config = svc.settings.aiops
    if config.webhook_token is None:
        return None
    from groundgate.apps.alerts import AlertWorker, WorkerOptions, diagnosis_handler
    from groundgate.store.alert_queue import AlertQueue

    worker = AlertWorker(
        AlertQueue(svc.store),
        diagnosis_handler(svc.store, svc.orchestrator),
        WorkerOptions(
            concurrency=config.max_concurrency,
            poll_seconds=config.poll_seconds,
            claim_seconds=config.claim_seconds,
            max_attempts=config.max_attempts,
        ),
    )
    worker.start()
    return worker


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
            orchestrator = build_configured_orchestrator(settings, workspace)
            if not settings.networked:  # a model would be called (and billed) for nothing
                from groundgate.apps.chat import warm_up

                warm_up(orchestrator)
            uvicorn.run(
                create_app(settings, workspace=workspace, store=store, orchestrator=orchestrator),
                host=host,
                port=port,
                log_level="info",
                timeout_keep_alive=settings.api.keep_alive_seconds,
            )
        finally:
            store.close()

"""`POST /api/aiops/alertmanager`: Alertmanager's webhook receiver (issue 14); `GET /api/aiops/alerts`.

Authentication is the receiver's standard `http_config` bearer token (`[aiops] webhook_token`),
checked in constant time before the body is read: a missing or wrong token is 401 and nothing is
stored; with no token configured every request is 401. A body that is not a version-4 notification
is 400 (`InvalidInputError`), nothing stored. Otherwise the notification is recorded in the durable
queue in one transaction (`groundgate.store.alert_queue`): new firing episodes queued for diagnosis
(fingerprint + `startsAt`; repeats only counted), resolutions recorded against their episode — and
the answer is 200 at once; the diagnoses run in `groundgate serve`'s alert worker with bounded
concurrency, so a storm waits in the queue rather than failing (Alertmanager retries a 5xx, which
the queue's deduplication then absorbs).

`GET /api/aiops/alerts` lists the caller's tenant's alert episodes (status, diagnosis run id,
resolution), newest first.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from groundgate.api.deps import Reader, Svc
from groundgate.api.errors import ERROR_RESPONSES
from groundgate.apps.alerts import AlertEpisodeSummary, list_alert_episodes
from groundgate.errors import AuthError

__all__ = ["router"]

router = APIRouter(tags=["aiops"])


def _authorized(request: Request, token: str | None) -> bool:
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if token is None or scheme.lower() != "bearer" or not credentials.strip():
        return False
    return hmac.compare_digest(credentials.strip().encode(), token.encode())


@router.post("/api/aiops/alertmanager", responses=ERROR_RESPONSES)
async def alertmanager_webhook(request: Request, svc: Svc) -> dict[str, Any]:
    """Receive one Alertmanager notification (webhook version 4)."""
    from starlette.concurrency import run_in_threadpool

    from groundgate.apps.alerts import receive_webhook
    from groundgate.store.alert_queue import AlertQueue

    secret = svc.settings.aiops.webhook_token
    if not _authorized(request, secret.get_secret_value() if secret is not None else None):
        raise AuthError(401, "a valid bearer token ([aiops] webhook_token) is required")
    body = await request.body()
    report = await run_in_threadpool(
        receive_webhook, AlertQueue(svc.store), body, tenant=svc.settings.aiops.tenant
    )
    worker = getattr(request.app.state, "alert_worker", None)
    if worker is not None and report.queued:
        worker.wake()
    return {
        "queued": len(report.queued),
        "duplicates": len(report.duplicates),
        "resolved": len(report.resolved),
    }


@router.get(
    "/api/aiops/alerts",
    response_model=list[AlertEpisodeSummary],
    response_model_by_alias=True,
    responses=ERROR_RESPONSES,
)
def list_alerts(
    svc: Svc, who: Reader, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> list[AlertEpisodeSummary]:
    """The tenant's alert episodes, newest first (the page's Alerts view)."""
    return list_alert_episodes(svc.store, tenant=who.context().tenant, limit=limit)

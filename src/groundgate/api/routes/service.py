"""The service itself: the web page at `/`, who the caller is (`/api/me`), health and metrics.

`/healthz` and `/metrics` need no key and carry no tenant data.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, PlainTextResponse

from groundgate.api.auth import WRITE_ROLES
from groundgate.api.deps import Reader, Svc
from groundgate.api.errors import ERROR_RESPONSES
from groundgate.api.schemas import Health, Identity

__all__ = ["WEB_DIR", "router"]

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
"""The web page: static files, no build step (`index.html`, `style.css`, and plain scripts that
`index.html` loads in order: `i18n.js` (the words), `markdown.js` (the answer's Markdown), one file
per part of the page (`dom.js`, `api.js`, `answer.js`, `feedback.js`, `chat.js`, `trace.js`,
`library.js`, `agent.js`, `alerts.js`), then `app.js`, which wires them and starts the page)."""

router = APIRouter(tags=["service"])


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    # The page holds no data; it reads everything through the API with the user's key.
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/api/me", response_model=Identity, responses=ERROR_RESPONSES)
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


@router.get("/healthz", response_model=Health)
def healthz(svc: Svc) -> Health:
    return Health(status="ok", mode="keys" if svc.settings.api.keys else "local")


@router.get("/metrics", response_class=PlainTextResponse)
def metrics(svc: Svc) -> PlainTextResponse:
    """Prometheus text: runs by verdict and output kind, tool latency, model tokens, failed runs."""
    return PlainTextResponse(svc.metrics.exposition(), media_type="text/plain; version=0.0.4")

"""The HTTP routes, one `APIRouter` per topic; `create_app` includes `ROUTERS` in this order.

- `service`: the page (`/`), `/api/me`, `/healthz`, `/metrics`
- `chat`: `POST /api/chat` (JSON or server-sent events)
- `grounding_check`: `POST /api/check` (the grounding checker)
- `feedback`: `POST /api/feedback`
- `runs`: `GET /api/trace/{runId}`, `GET /api/sessions/{sessionId}/runs`, `GET /api/runs`
- `cases`: `GET /api/cases`
- `aiops`: `POST /api/aiops/alertmanager` (Alertmanager's webhook), `GET /api/aiops/alerts`

Routes hold no SQL and no tenant rule: they read through `groundgate.apps` with the caller's
`TenantScope` (`groundgate.api.deps`).
"""

from __future__ import annotations

from fastapi import APIRouter

from groundgate.api.routes import agent, aiops, cases, chat, feedback, grounding_check, runs, service

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    service.router,
    chat.router,
    grounding_check.router,
    feedback.router,
    runs.router,
    cases.router,
    agent.router,
    aiops.router,
)

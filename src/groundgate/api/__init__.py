"""The HTTP service: the FastAPI app (`create_app`, `serve`), API keys → `ExecutionContext`, the routes
(`api.routes`), typed dependencies (`api.deps`), error mapping (`api.errors`), metrics (`api.metrics`),
offline `/docs` (`api.docs`) and the middleware (`api.middleware`)."""

from __future__ import annotations

from groundgate.api.app import check_bind_address, create_app, serve

__all__ = [
    # the app
    "create_app",
    "serve",
    # start-up checks
    "check_bind_address",
]

"""`/docs` (Swagger UI) and `/redoc` that work offline: their scripts and styles are served by this
service from the `fastapi-offline` package, never from a CDN — a service on a closed network, or a
browser without internet access, still gets its API documentation.

The pages keep FastAPI's own HTML (`get_swagger_ui_html`, `get_redoc_html`); only the asset URLs
point here (`/static-docs/…`). Their policy (`api.middleware.DOCS_POLICY`) allows only this origin.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["DOCS_ASSETS", "DOCS_STATIC_URL", "install_offline_docs"]

DOCS_ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"
"""Swagger UI (`swagger-ui-bundle.js`, `swagger-ui.css`), ReDoc (`redoc.standalone.js`), a favicon."""
DOCS_STATIC_URL = "/static-docs"
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"


def install_offline_docs(app: FastAPI, *, title: str) -> None:
    """Serve `/docs`, `/docs/oauth2-redirect` and `/redoc` with local assets.

    The app must be created with `docs_url=None, redoc_url=None` (FastAPI's own pages load from a
    CDN)."""
    app.mount(DOCS_STATIC_URL, StaticFiles(directory=DOCS_ASSETS), name="static-docs")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{title} - Swagger UI",
            oauth2_redirect_url=f"{root}{OAUTH2_REDIRECT_URL}",
            swagger_js_url=f"{root}{DOCS_STATIC_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_STATIC_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{DOCS_STATIC_URL}/favicon.png",
            swagger_ui_parameters=app.swagger_ui_parameters,
        )

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{title} - ReDoc",
            redoc_js_url=f"{root}{DOCS_STATIC_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{DOCS_STATIC_URL}/favicon.png",
            with_google_fonts=False,
        )

"""ASGI middleware of the service: what every request passes before it reaches a route.

Each one is a plain ASGI class (no `BaseHTTPMiddleware`: that one buffers streamed responses and
would hold back the chat's server-sent events). In the order a request meets them:

- `CorrelationId` gives every request an id, returned as `X-Correlation-ID` and carried into the log
  records and the body of every 5xx, so a user can quote it and an operator can find the details in
  the log — the body itself never carries them (docs/security.md, "Errors").
- `SecurityHeaders` adds `Content-Security-Policy`, `X-Frame-Options`, `X-Content-Type-Options` and
  `Referrer-Policy` to every response.
- `RequestGuard` refuses, before any route runs: a body over `[api] max_body_bytes` (413); a JSON body
  that is not UTF-8 or nests deeper than `MAX_JSON_DEPTH` (422: the JSON parser would otherwise recurse
  once per level); a path or query string holding a control character such as NUL (422: no id or
  filter of ours contains one, and PostgreSQL refuses NUL in text with an error that names the SQL).
"""

from __future__ import annotations

import contextvars
import json
import logging
import uuid
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from groundgate.text.safety import describe, first_control_character

CORRELATION_HEADER = "X-Correlation-ID"
MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects a request body may have; ours need 3."""

correlation_id: contextvars.ContextVar[str] = contextvars.ContextVar("groundgate_correlation_id", default="-")
"""The current request's correlation id (`-` outside a request), for log messages."""

# Swagger UI and ReDoc start from an inline script (FastAPI's page) and ReDoc runs a blob worker;
# their assets come from this service (`groundgate.api.docs`), so nothing outside it is allowed.
_DOCS_PATHS = ("/docs", "/redoc")
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; worker-src 'self' blob:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

logger = logging.getLogger(__name__)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return bytes(value)
    return None


async def _send_json(
    send: Send, status: int, body: dict[str, Any], *, extra_headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    payload = json.dumps(body, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *(extra_headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload, "more_body": False})


class CorrelationId:
    """Mint a correlation id per request; expose it as a response header and to the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Always our own id: a client-chosen one could be forged to collide with another request's.
        cid = uuid.uuid4().hex
        scope.setdefault("state", {})["correlation_id"] = cid
        token = correlation_id.set(cid)

        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers") or [])
                headers.append((CORRELATION_HEADER.lower().encode(), cid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            # A bug, not an outage (those are answered 503 by the app): the body says only that it
            # happened and under which id the traceback is logged.
            logger.exception("request %s failed with an unexpected %s", cid, type(exc).__name__)
            if started:
                raise  # the status line is out; the server closes the connection
            await _send_json(
                send,
                500,
                {
                    "error": "internal_error",
                    "message": "an unexpected error occurred; quote the correlation id when you report it",
                    "correlationId": cid,
                },
                extra_headers=[(CORRELATION_HEADER.lower().encode(), cid.encode())],
            )
        finally:
            correlation_id.reset(token)


class SecurityHeaders:
    """Headers that stop the page from being framed, sniffed or made to run foreign script."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        policy = DOCS_POLICY if path.startswith(_DOCS_PATHS) else PAGE_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                for name, value in (
                    (b"content-security-policy", policy.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ):
                    if name not in present:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def json_depth_exceeds(body: bytes, limit: int) -> bool:
    """Whether `body` (JSON text) nests arrays/objects deeper than `limit`: one linear pass that skips
    string contents, so a hostile body costs no more than reading it."""
    depth = 0
    in_string = False
    escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


class RequestGuard:
    """Refuse oversized bodies (413), undecodable or over-deep JSON and control characters (422)."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_json_depth: int = MAX_JSON_DEPTH) -> None:
        self.app = app
        self.limit = max_body_bytes
        self.max_json_depth = max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = self._url_problem(scope)
        if problem is not None:
            await self._invalid(send, problem)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        content_type = (_header(scope, b"content-type") or b"").lower()
        if body and b"json" in content_type:
            problem = self._json_problem(body)
            if problem is not None:
                await self._invalid(send, problem)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _url_problem(scope: Scope) -> str | None:
        path = str(scope.get("path", ""))
        bad = first_control_character(path)
        if bad is not None:
            return f"the URL path contains {describe(bad)}"
        query = unquote_to_bytes(bytes(scope.get("query_string") or b"")).decode("utf-8", "replace")
        bad = first_control_character(query)
        if bad is not None:
            return f"the query string contains {describe(bad)}"
        return None

    def _json_problem(self, body: bytes) -> str | None:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"the request body is not valid UTF-8 (byte {exc.start})"
        if json_depth_exceeds(body, self.max_json_depth):
            return f"the request body nests JSON deeper than {self.max_json_depth} levels"
        return None

    async def _invalid(self, send: Send, message: str) -> None:
        await _send_json(send, 422, {"error": "invalid_request", "message": message})

    async def _too_large(self, send: Send) -> None:
        await _send_json(
            send,
            413,
            {
                "error": "payload_too_large",
                "message": f"the request body is larger than {self.limit} bytes ([api] max_body_bytes)",
            },
        )


__all__ = [
    "CORRELATION_HEADER",
    "MAX_JSON_DEPTH",
    "CorrelationId",
    "RequestGuard",
    "SecurityHeaders",
    "correlation_id",
    "json_depth_exceeds",
]

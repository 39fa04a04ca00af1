"""Errors on the wire: every error is an `ErrorBody` `{error, message, detail?, correlationId?}`.

The error tree (`groundgate.errors`) maps to status codes here and nowhere else:

| exception | status | `error` |
|---|---|---|
| `RequestValidationError` (a body, query or path that does not fit) | 422 | `invalid_request` |
| `AuthError` | 401 / 403 | `unauthorized` / `forbidden` |
| `NotFoundError` (unknown, or another tenant's) | 404 | `not_found` |
| `CheckBudgetError` | 413 | `payload_too_large` |
| any other `UsageError` | 400 | `bad_request` |
| `RunError` (a store or model the request needs is down) | 503 | `unavailable` |
| framework errors (unknown path, wrong method, undecodable body) | theirs | by status |

A 5xx body never carries the exception's text (it can name the database host, the SQL statement and
its parameters): the details go to the log under the request's correlation id, which the body names.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from groundgate.api.middleware import correlation_id
from groundgate.api.schemas import ErrorBody
from groundgate.errors import AuthError, CheckBudgetError, NotFoundError, RunError, UsageError

__all__ = [
    "ERROR_RESPONSES",
    "UNAVAILABLE_MESSAGE",
    "error_response",
    "install_error_handlers",
    "invalid_request",
    "unavailable_body",
]

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = (
    "the service could not complete this request (a store or model it depends on is unavailable); "
    "nothing was answered without its audit record — try again later"
)

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 413, 422, 503)
}
"""The error statuses every route documents in OpenAPI (`responses=ERROR_RESPONSES`)."""

_HTTP_ERRORS = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def error_response(
    status: int,
    error: str,
    message: str,
    detail: list[dict[str, Any]] | None = None,
    *,
    correlation: str | None = None,
) -> JSONResponse:
    body = ErrorBody(error=error, message=message, detail=detail, correlation_id=correlation)
    return JSONResponse(body.model_dump(exclude_none=True, by_alias=True), status_code=status)


def unavailable_body(exc: BaseException) -> dict[str, Any]:
    """Log `exc` under the request's correlation id; the generic 503 body that goes to the client."""
    cid = correlation_id.get()
    logger.error("request %s failed: %s: %s", cid, type(exc).__name__, exc, exc_info=exc)
    body = ErrorBody(error="unavailable", message=UNAVAILABLE_MESSAGE, correlation_id=cid)
    return body.model_dump(exclude_none=True, by_alias=True)


def invalid_request(field: str, message: str, kind: str = "value_error") -> RequestValidationError:
    """A 422 about one body field, in the shape pydantic's own validation errors have."""
    return RequestValidationError([{"loc": ("body", field), "msg": message, "type": kind}])


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


async def _on_validation(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    message, detail = _validation_message(exc)
    return error_response(422, "invalid_request", message, detail)


async def _on_http(_request: Request, exc: Exception) -> JSONResponse:
    # Framework errors (a body that cannot be decoded, an unknown path, a wrong method) in the same
    # `ErrorBody` shape as every other error.
    assert isinstance(exc, StarletteHTTPException)
    response = error_response(
        exc.status_code, _HTTP_ERRORS.get(exc.status_code, "http_error"), str(exc.detail)
    )
    for name, value in (exc.headers or {}).items():
        response.headers[name] = value
    return response


async def _on_auth(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AuthError)
    unauthorized = exc.status_code == 401
    response = error_response(exc.status_code, "unauthorized" if unauthorized else "forbidden", exc.message)
    if unauthorized:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


async def _on_not_found(_request: Request, exc: Exception) -> JSONResponse:
    return error_response(404, "not_found", str(exc))


async def _on_budget(_request: Request, exc: Exception) -> JSONResponse:
    return error_response(413, "payload_too_large", str(exc))


async def _on_usage(_request: Request, exc: Exception) -> JSONResponse:
    return error_response(400, "bad_request", str(exc))


async def _on_run_error(_request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse(unavailable_body(exc), status_code=503)


def install_error_handlers(app: FastAPI) -> None:
    """Register the table above. Starlette picks the handler of the most specific class in an
    exception's MRO, so `AuthError` and `NotFoundError` win over their root `UsageError`."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(AuthError, _on_auth)
    app.add_exception_handler(NotFoundError, _on_not_found)
    app.add_exception_handler(CheckBudgetError, _on_budget)
    app.add_exception_handler(UsageError, _on_usage)
    app.add_exception_handler(RunError, _on_run_error)

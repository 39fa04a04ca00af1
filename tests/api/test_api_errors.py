"""Every exception the service raises lives in the one error tree (`groundgate.errors`), is importable
from where it always was, and becomes one status code and one `ErrorBody` on the wire."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import groundgate.api.auth
import groundgate.store
from groundgate.api.errors import install_error_handlers
from groundgate.api.middleware import CorrelationId
from groundgate.errors import (
    AuthError,
    CheckBudgetError,
    ConfigurationError,
    GroundgateError,
    InvalidInputError,
    ModelError,
    NotFoundError,
    RunError,
    StoreError,
    UsageError,
)


@pytest.mark.parametrize(
    ("error", "root"),
    [
        (AuthError, UsageError),
        (NotFoundError, UsageError),
        (StoreError, RunError),
        (CheckBudgetError, UsageError),
        (ConfigurationError, UsageError),
        (ModelError, RunError),
    ],
)
def test_each_error_has_its_root(error: type[Exception], root: type[Exception]) -> None:
    assert issubclass(error, root)
    assert issubclass(error, GroundgateError)


@pytest.mark.parametrize(
    ("module", "name", "error"),
    [
        (groundgate.store, "NotFoundError", NotFoundError),
        (groundgate.store, "StoreError", StoreError),
        (groundgate.api.auth, "AuthError", AuthError),
    ],
)
def test_the_old_import_paths_name_the_same_classes(
    module: object, name: str, error: type[Exception]
) -> None:
    assert getattr(module, name) is error


def _app(exc: Exception) -> TestClient:
    app = FastAPI()
    app.add_middleware(CorrelationId)
    install_error_handlers(app)

    @app.get("/boom")
    def boom() -> None:
        raise exc

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize(
    ("exc", "status", "error"),
    [
        (AuthError(401, "missing API key"), 401, "unauthorized"),
        (AuthError(403, "read only"), 403, "forbidden"),
        (NotFoundError("unknown run id 'x'"), 404, "not_found"),
        (
            CheckBudgetError("too long", setting="check.max_answer_chars", limit=1, actual=2),
            413,
            "payload_too_large",
        ),
        (InvalidInputError("feedback must be one of useful, not_useful"), 400, "bad_request"),
        (StoreError("connection to db.internal:5432 refused"), 503, "unavailable"),
        (ModelError("the model endpoint is down"), 503, "unavailable"),
    ],
    ids=["401", "403", "404", "413", "400", "503 store", "503 model"],
)
def test_each_error_becomes_one_status_and_error_body(exc: Exception, status: int, error: str) -> None:
    response = _app(exc).get("/boom")
    assert response.status_code == status
    body = response.json()
    assert body["error"] == error
    if status == 503:
        # Never the exception's text (it can name hosts and SQL): a correlation id to find it in the log.
        assert str(exc) not in body["message"]
        assert body["correlationId"] == response.headers["x-correlation-id"]
    else:
        assert body["message"] == str(exc)
    if status == 401:
        assert response.headers["www-authenticate"] == "Bearer"

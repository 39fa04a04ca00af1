"""Property-based fuzzing of the HTTP API from its own OpenAPI document (schemathesis, in-process ASGI).

Every operation gets generated requests — valid ones and, in negative mode, invalid ones — sent with a
valid API key, and every response is checked: never a 5xx, status code, content type and headers as
documented, and the body conforming to the documented response schema. Bounded and derandomized so CI
is reproducible; set `GROUNDGATE_FUZZ_EXAMPLES` (and `GROUNDGATE_FUZZ_RANDOM=1`) for a longer,
randomized hunt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.settings import Settings
from groundgate.store import Store, open_store

# Read at import: the autouse fixture in conftest clears GROUNDGATE_* before each test.
MAX_EXAMPLES = int(os.environ.get("GROUNDGATE_FUZZ_EXAMPLES", "30"))
DERANDOMIZE = os.environ.get("GROUNDGATE_FUZZ_RANDOM") != "1"

KEY = "fuzz-sre-key"
# Both ways a key is presented (the document declares either): a generated X-API-Key would otherwise
# take precedence over the bearer token and every request would be a 401.
AUTH = {"Authorization": f"Bearer {KEY}", "X-API-Key": KEY}


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("api-fuzz")


@pytest.fixture(scope="module")
def fuzz_workspace(fuzz_dir: Path) -> Iterator[Workspace]:
    with open_workspace(fuzz_dir) as ws:
        load_demo(ws)
        yield ws


@pytest.fixture(scope="module")
def fuzz_store(fuzz_dir: Path) -> Iterator[Store]:
    st = open_store(fuzz_dir)
    yield st
    st.close()


@pytest.fixture(scope="module")
def fuzz_app(fuzz_dir: Path, fuzz_workspace: Workspace, fuzz_store: Store) -> Iterator[FastAPI]:
    api: dict[str, Any] = {"keys": {hash_key(KEY): {"tenant": "acme", "user": "fuzz", "roles": ["sre"]}}}
    app = create_app(
        Settings(data_dir=fuzz_dir, api=api),  # type: ignore[arg-type]
        workspace=fuzz_workspace,
        store=fuzz_store,
    )
    APP.app = app
    yield app
    # schemathesis starts the app's lifespan on the first request and keeps it until process exit;
    # end it here, before the workspace and the store it uses are closed.
    from schemathesis.python.asgi import shutdown_lifespans

    shutdown_lifespans()
    APP.app = None


def _openapi_document() -> dict[str, Any]:
    # The document depends on the code only (no workspace, store or lifespan): build it at import so
    # pytest collects one test per operation.
    document: dict[str, Any] = create_app(Settings()).openapi()
    return document


class _DeferredApp:
    """The ASGI app under test, set by the `fuzz_app` fixture once the demo workspace is loaded.

    The schema is loaded at import (so operations are collected), but the app needs the module's
    workspace and store; schemathesis sends every request, including the probes of its checks, to
    the schema's app, so the schema holds this stand-in.
    """

    def __init__(self) -> None:
        self.app: FastAPI | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.app is not None, "the fuzz_app fixture has not set the app"
        await self.app(scope, receive, send)


APP = _DeferredApp()
schema = schemathesis.openapi.from_dict(_openapi_document())
schema.app = APP
schema.config.update(base_url="http://testserver")
# A body over `[api] max_body_bytes` is refused with the documented 413 before it is parsed: that is
# how an oversized (schema-violating) question is rejected.
schema.config.checks.negative_data_rejection.expected_statuses.append("413")


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=DERANDOMIZE,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@pytest.mark.usefixtures("fuzz_app")
def test_api_conforms_to_its_openapi_document(case: schemathesis.Case) -> None:
    case.call_and_validate(headers=AUTH)

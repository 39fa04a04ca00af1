"""`GET /api/runs/{runId}/fixture`: a bad case becomes a replayable eval fixture from the web page —
the caller's own chat runs only, with a `reviewer_expected` to fill in for a `not_useful` run."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.apps.workspace import load_demo, open_workspace
from groundgate.regression.fixtures import parse_fixture
from groundgate.settings import ApiKeyEntry, ApiSettings, Settings
from groundgate.store import open_store

ACME_KEY = "acme-key-for-fixture-tests"
GLOBEX_KEY = "globex-key-for-fixture-tests"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir: Path = tmp_path_factory.mktemp("fixture-api")
    keys = {
        _digest(ACME_KEY): ApiKeyEntry(tenant="acme", user="ann", roles=("sre",)),
        _digest(GLOBEX_KEY): ApiKeyEntry(tenant="globex", user="gus", roles=("sre",)),
    }
    store = open_store(data_dir)
    with open_workspace(data_dir) as workspace:
        load_demo(workspace)
        app = create_app(
            Settings(data_dir=data_dir, api=ApiSettings(keys=keys)), workspace=workspace, store=store
        )
        with TestClient(app) as test_client:
            yield test_client
    store.close()


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_bad_case_downloads_as_a_fixture_with_a_field_for_the_reviewer(client: TestClient) -> None:
    question = "ERR_TIMEOUT 是什么意思？"
    chat = client.post("/api/chat", json={"question": question}, headers=_auth(ACME_KEY))
    assert chat.status_code == 200, chat.text
    run_id, session_id = chat.json()["runId"], chat.json()["sessionId"]
    rated = client.post(
        "/api/feedback",
        json={"sessionId": session_id, "runId": run_id, "feedback": "not_useful"},
        headers=_auth(ACME_KEY),
    )
    assert rated.status_code == 200, rated.text

    response = client.get(f"/api/runs/{run_id}/fixture", headers=_auth(ACME_KEY))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/yaml")
    assert f'filename="{run_id}.yaml"' in response.headers["content-disposition"]
    fixture = parse_fixture(yaml.safe_load(response.text), path="downloaded.yaml")
    assert fixture.input.question == question
    assert fixture.reviewer_expected is not None  # a bad case waits for the reviewer's expectation
    assert fixture.tools.calls  # the tool outputs travel with it, so it replays offline


def test_another_tenants_run_cannot_be_captured(client: TestClient) -> None:
    chat = client.post("/api/chat", json={"question": "P1 告警多久内要确认？"}, headers=_auth(ACME_KEY))
    run_id = chat.json()["runId"]
    assert client.get(f"/api/runs/{run_id}/fixture", headers=_auth(GLOBEX_KEY)).status_code == 404
    assert client.get("/api/runs/no-such-run/fixture", headers=_auth(ACME_KEY)).status_code == 404
    assert client.get(f"/api/runs/{run_id}/fixture").status_code == 401

"""`POST /api/aiops/alertmanager` over HTTP: bearer token, 400/401 with nothing stored, deduplication,
and the service's worker diagnosing a received alert into a stored run with its AIOps evaluation."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.apps.workspace import AIOPS_DEMO_ROOT, load_aiops_demo, load_demo, open_workspace
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.store.alert_queue import AlertQueue

TOKEN = "alertmanager-s3cret"
DEMO_ALERT = AIOPS_DEMO_ROOT / "alerts" / "payment-high-error-rate.json"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("aiops-api")


@pytest.fixture(scope="module")
def store(data_dir: Path) -> Iterator[Store]:
    opened = open_store(data_dir)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(data_dir: Path, store: Store) -> Iterator[TestClient]:
    settings = Settings(data_dir=data_dir, aiops={"webhook_token": TOKEN, "poll_seconds": 0.05})
    with open_workspace(data_dir) as workspace:
        load_demo(workspace)
        load_aiops_demo(workspace)
        app = create_app(settings, workspace=workspace, store=store)
        with TestClient(app) as test_client:
            yield test_client


def _post(client: TestClient, body: bytes, token: str | None = TOKEN) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return client.post("/api/aiops/alertmanager", content=body, headers=headers)


@pytest.mark.slow
def test_an_unauthenticated_or_malformed_webhook_is_refused_and_nothing_is_stored(
    client: TestClient, store: Store
) -> None:
    body = DEMO_ALERT.read_bytes()
    assert _post(client, body, token=None).status_code == 401
    assert _post(client, body, token="wrong").status_code == 401
    response = _post(client, b'{"version": "4", "alerts": "nope"}')
    assert response.status_code == 400
    assert "webhook" in response.json()["message"]
    assert _post(client, b"not json").status_code == 400
    assert AlertQueue(store).counts() == {}


@pytest.mark.slow
def test_a_received_alert_is_diagnosed_once_into_a_stored_run_and_its_resolution_recorded(
    client: TestClient, store: Store
) -> None:
    body = DEMO_ALERT.read_bytes()
    first = _post(client, body)
    assert first.status_code == 200
    assert first.json() == {"queued": 1, "duplicates": 0, "resolved": 0}
    assert _post(client, body).json() == {"queued": 0, "duplicates": 1, "resolved": 0}
    queue = AlertQueue(store)
    deadline = time.monotonic() + 30
    while queue.pending() and time.monotonic() < deadline:
        time.sleep(0.05)
    (episode,) = [e for e in queue.episodes() if e["alertname"] == "PaymentHighErrorRate"]
    assert episode["status"] == "DONE", episode
    trace = client.get(f"/api/trace/{episode['run_id']}").json()
    assert trace["hasAiOpsRuleEvaluation"] is True
    assert trace["aiopsRuleEvaluation"]["verdict"] == "PASS"
    resolved = json.loads(body)
    resolved["status"] = "resolved"
    resolved["alerts"][0]["status"] = "resolved"
    resolved["alerts"][0]["endsAt"] = "2026-03-21T09:40:00Z"
    assert _post(client, json.dumps(resolved).encode()).json()["resolved"] == 1
    listed = client.get("/api/aiops/alerts").json()
    row = next(r for r in listed if r["alertname"] == "PaymentHighErrorRate")
    assert row["runId"] == episode["run_id"]
    assert row["resolvedAt"] is not None


@pytest.mark.slow
def test_without_a_configured_token_every_webhook_is_refused(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        with open_workspace(tmp_path) as workspace:
            app = create_app(Settings(data_dir=tmp_path), workspace=workspace, store=store)
            with TestClient(app) as unconfigured:
                assert _post(unconfigured, DEMO_ALERT.read_bytes(), token="anything").status_code == 401
                assert app.state.alert_worker is None  # no token: no worker either
        assert AlertQueue(store).counts() == {}
    finally:
        store.close()

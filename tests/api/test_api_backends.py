"""The API's core flows on a PostgreSQL and a MariaDB store (SQLite: `test_api_service`).

Each backend gets a fresh database (created and dropped by `_databases.database_url`); an unreachable
server skips, or fails with `GROUNDGATE_REQUIRE_DB_SERVERS=1`. The demo workspace is loaded once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from _databases import database_url
from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.store.tables import CaseLibrary

ACME = {"Authorization": "Bearer acme-backend-key"}
GLOBEX = {"X-API-Key": "globex-backend-key"}
NORMAL_Q = "ERR_TIMEOUT 是哪个组件返回的？含义是什么？"
DEGRADED_Q = "etcd 备份的保留周期是多少天？"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("api-backends")


@pytest.fixture(scope="module")
def workspace(data_dir: Path) -> Iterator[Workspace]:
    with open_workspace(data_dir) as ws:
        load_demo(ws)
        yield ws


@pytest.fixture(scope="module", params=["postgresql", "mariadb"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        try:
            assert opened.backend == {"postgresql": "postgresql", "mariadb": "mysql"}[request.param]
            yield opened
        finally:
            opened.close()


@pytest.fixture(scope="module")
def client(data_dir: Path, workspace: Workspace, store: Store) -> Iterator[TestClient]:
    keys = {
        hash_key("acme-backend-key"): {"tenant": "acme", "user": "alice", "roles": ["sre"]},
        hash_key("globex-backend-key"): {"tenant": "globex", "user": "gina", "roles": ["admin"]},
    }
    settings = Settings(data_dir=data_dir, api={"keys": keys})  # type: ignore[arg-type]
    with TestClient(create_app(settings, workspace=workspace, store=store)) as test_client:
        yield test_client


def _chat(client: TestClient, question: str, session_id: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"question": question}
    if session_id:
        body["sessionId"] = session_id
    response = client.post("/api/chat", json=body, headers=ACME)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


@pytest.mark.slow
def test_chat_trace_and_runs(client: TestClient) -> None:
    first = _chat(client, NORMAL_Q)
    assert first["outputKind"] == "NORMAL"
    second = _chat(client, DEGRADED_Q, first["sessionId"])
    assert second["outputKind"] == "DEGRADED"
    trace = client.get(f"/api/trace/{first['runId']}", headers=ACME).json()
    assert trace["status"] == "SUCCEEDED"
    assert trace["session"]["tenant"] == "acme"
    assert trace["steps"]
    assert trace["toolInvocations"][0]["tool"] == "lookup_knowledge"
    in_session = client.get(f"/api/sessions/{first['sessionId']}/runs", headers=ACME).json()
    assert [r["runId"] for r in in_session] == [second["runId"], first["runId"]]
    listed = client.get("/api/runs", params={"sessionId": first["sessionId"]}, headers=ACME).json()
    assert [r["runId"] for r in listed] == [second["runId"], first["runId"]]


def test_feedback_useful_makes_one_case_and_not_useful_is_a_bad_case(
    client: TestClient, store: Store
) -> None:
    run = _chat(client, NORMAL_Q)
    body = {"runId": run["runId"], "sessionId": run["sessionId"], "feedback": "useful"}
    first = client.post("/api/feedback", json=body, headers=ACME)
    second = client.post("/api/feedback", json=body, headers=ACME)
    assert first.status_code == second.status_code == 200
    assert first.json()["caseId"]
    assert first.json()["caseId"] == second.json()["caseId"]
    with store.session() as session:
        count = session.scalar(
            select(func.count()).select_from(CaseLibrary).where(CaseLibrary.diagnosis_id == run["runId"])
        )
    assert count == 1
    cases = client.get("/api/cases", headers=ACME).json()
    assert [c["caseId"] for c in cases if c["diagnosisId"] == run["runId"]] == [first.json()["caseId"]]

    bad = _chat(client, DEGRADED_Q)
    response = client.post(
        "/api/feedback", json={"sessionId": bad["sessionId"], "feedback": "not_useful"}, headers=ACME
    )
    assert response.status_code == 200
    assert response.json()["runId"] == bad["runId"]
    assert response.json()["fallbackToLatestRun"] is True
    bad_cases = client.get("/api/runs", params={"feedback": "not_useful"}, headers=ACME).json()
    assert bad["runId"] in [r["runId"] for r in bad_cases]
    assert all(r["feedback"] == "not_useful" for r in bad_cases)


def test_another_tenant_gets_404(client: TestClient) -> None:
    run = _chat(client, NORMAL_Q)
    assert client.get(f"/api/trace/{run['runId']}", headers=GLOBEX).status_code == 404
    assert client.get(f"/api/sessions/{run['sessionId']}/runs", headers=GLOBEX).status_code == 404
    assert run["runId"] not in [r["runId"] for r in client.get("/api/runs", headers=GLOBEX).json()]
    feedback = {"runId": run["runId"], "sessionId": run["sessionId"], "feedback": "useful"}
    assert client.post("/api/feedback", json=feedback, headers=GLOBEX).status_code == 404
    chat = {"question": NORMAL_Q, "sessionId": run["sessionId"]}
    assert client.post("/api/chat", json=chat, headers=GLOBEX).status_code == 404
    assert all(c["diagnosisId"] != run["runId"] for c in client.get("/api/cases", headers=GLOBEX).json())


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["postgresql", "mariadb"])
def test_the_configured_pool_covers_the_service_threads(backend: str, tmp_path: Path) -> None:
    """`[store] pool_size/max_overflow` reach the engine (the SQLAlchemy default 5 + 10 is smaller than
    the service's 40 worker threads)."""
    from groundgate.wiring import open_configured_store

    for url in database_url(backend, tmp_path):
        settings = Settings(data_dir=tmp_path, store={"url": url, "pool_size": 12, "max_overflow": 28})  # type: ignore[arg-type]
        opened = open_configured_store(settings)
        try:
            pool = opened.engine.pool
            assert (pool.size(), pool._max_overflow) == (12, 28)  # type: ignore[attr-defined]
            with opened.session() as session:
                assert session.scalar(text("SELECT 1")) == 1
        finally:
            opened.close()

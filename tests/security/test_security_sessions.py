"""Sessions are isolated per tenant even when first chats race on one new `sessionId`.

Issue 9 items 1 and 2: the ownership check and the session insert used to be separate transactions.
Two tenants sending their first chat with the same new `sessionId` at once could end up in one
session (the winner then read the loser's question, answer and tool output, and the loser's run was
404 to itself); two first chats of one tenant got a 503 on PostgreSQL/MariaDB (the duplicate session
insert). Each test races at least 20 pairs of first chats (threads released by a barrier) on every
backend, through the HTTP API, and counts the pairs that went wrong.

Also feedback on a session's runs: `useful` on a run that did not succeed is refused (it made an
empty case, item 8a), and an empty `runId` is 422 instead of silently rating the latest run (8d).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from _databases import BACKENDS, database_url, make_run_result
from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.workspace import Workspace, open_workspace
from groundgate.contracts import ExecutionContext, RunResult
from groundgate.runtime.orchestrator import RunSink
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.store.recorder import RunRecorder
from groundgate.store.tables import DiagnosisRun

PAIRS = 24
ACME = {"Authorization": "Bearer acme-race-key"}
GLOBEX = {"Authorization": "Bearer globex-race-key"}
TENANT_HEADERS = {"acme": ACME, "globex": GLOBEX}


class EchoOrchestrator:
    """Answers at once with a run that carries the tenant's question (what a leak would expose)."""

    def run(
        self,
        question: str,
        ctx: ExecutionContext,
        *,
        run_id: str | None = None,
        session_id: str | None = None,
        sink: RunSink | None = None,
        **_kwargs: Any,
    ) -> RunResult:
        result = make_run_result(
            run_id=run_id, session_id=session_id, question=question, answer=f"answer for {ctx.tenant}"
        )
        if sink is not None:
            sink.on_step(result.steps[0])
            sink.on_tool_result(result.tool_results[0])
        return result


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    with open_workspace(tmp_path_factory.mktemp("race-workspace")) as ws:
        yield ws


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        try:
            yield opened
        finally:
            opened.close()


@pytest.fixture(scope="module")
def client(
    workspace: Workspace, store: Store, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    keys = {
        hash_key("acme-race-key"): {"tenant": "acme", "user": "alice", "roles": ["sre"]},
        hash_key("globex-race-key"): {"tenant": "globex", "user": "gina", "roles": ["sre"]},
    }
    settings = Settings(data_dir=tmp_path_factory.mktemp("race-data"), api={"keys": keys})  # type: ignore[arg-type]
    app = create_app(
        settings,
        workspace=workspace,
        store=store,
        orchestrator=EchoOrchestrator(),  # type: ignore[arg-type]
    )
    with TestClient(app) as test_client:
        yield test_client


def _race(client: TestClient, session_id: str, tenants: tuple[str, str]) -> list[httpx.Response]:
    """Both first chats on `session_id`, released together by a barrier."""
    barrier = threading.Barrier(len(tenants))

    def send(tenant: str) -> httpx.Response:
        barrier.wait(timeout=30)
        body = {"question": f"{tenant}: my order 4711, amount and bank?", "sessionId": session_id}
        return client.post("/api/chat", json=body, headers=TENANT_HEADERS[tenant])

    with ThreadPoolExecutor(max_workers=len(tenants)) as pool:
        return list(pool.map(send, tenants))


def _runs_in_session(store: Store, session_id: str) -> list[str]:
    with store.session() as session:
        return list(session.scalars(select(DiagnosisRun.run_id).where(DiagnosisRun.session_id == session_id)))


def _cross_tenant_problems(client: TestClient, store: Store, session_id: str) -> list[str]:
    """What went wrong in one race of acme and globex on `session_id` (empty: nothing)."""
    responses = _race(client, session_id, ("acme", "globex"))
    problems: list[str] = []
    by_tenant = dict(zip(("acme", "globex"), responses, strict=True))
    winners = [tenant for tenant, response in by_tenant.items() if response.status_code == 200]
    losers = [tenant for tenant, response in by_tenant.items() if response.status_code != 200]
    if len(winners) != 1:
        problems.append(f"statuses {[r.status_code for r in responses]} (expected one 200 and one 404)")
    for tenant in losers:
        response = by_tenant[tenant]
        if response.status_code != 404 or (response.json()["error"], response.json()["message"]) != (
            "not_found",
            f"unknown session id {session_id!r}",
        ):
            problems.append(f"{tenant} got {response.status_code} {response.text}")
    for tenant in winners:
        other = "globex" if tenant == "acme" else "acme"
        run_id = by_tenant[tenant].json()["runId"]
        own = client.get(f"/api/trace/{run_id}", headers=TENANT_HEADERS[tenant])
        if own.status_code != 200:
            problems.append(f"{tenant}'s own run is {own.status_code} to itself")
        if client.get(f"/api/trace/{run_id}", headers=TENANT_HEADERS[other]).status_code != 404:
            problems.append(f"{other} reads {tenant}'s run")
        listed = client.get(f"/api/sessions/{session_id}/runs", headers=TENANT_HEADERS[tenant])
        if listed.status_code != 200:
            problems.append(f"{tenant}'s own session is {listed.status_code} to itself")
            continue
        foreign = [r["query"] for r in listed.json() if not r["query"].startswith(f"{tenant}:")]
        if foreign:
            problems.append(f"{tenant} lists another tenant's question(s) {foreign}")
    stored = _runs_in_session(store, session_id)
    if len(stored) != len(winners):
        problems.append(f"{len(stored)} runs stored in the session for {len(winners)} answered chat(s)")
    return problems


@pytest.mark.slow
def test_two_tenants_racing_on_a_new_session_id_never_share_it(client: TestClient, store: Store) -> None:
    failed: dict[int, list[str]] = {}
    for pair in range(PAIRS):
        problems = _cross_tenant_problems(client, store, f"race-{uuid.uuid4().hex}")
        if problems:
            failed[pair] = problems
    shared = sum(any("statuses [200, 200]" in p for p in problems) for problems in failed.values())
    assert not failed, f"{len(failed)} of {PAIRS} races went wrong ({shared} shared the session): {failed}"


@pytest.mark.slow
def test_a_double_submitted_first_chat_gives_two_runs_in_one_session(
    client: TestClient, store: Store
) -> None:
    failed: dict[int, str] = {}
    for pair in range(PAIRS):
        session_id = f"double-{uuid.uuid4().hex}"
        responses = _race(client, session_id, ("acme", "acme"))
        if [r.status_code for r in responses] != [200, 200]:
            failed[pair] = f"statuses {[(r.status_code, r.text[:120]) for r in responses]}"
            continue
        run_ids = {r.json()["runId"] for r in responses}
        listed = client.get(f"/api/sessions/{session_id}/runs", headers=ACME).json()
        if len(run_ids) != 2 or {r["runId"] for r in listed} != run_ids:
            failed[pair] = f"runs {run_ids} but the session lists {[r['runId'] for r in listed]}"
        elif {r.json()["sessionId"] for r in responses} != {session_id}:
            failed[pair] = "answered in another session"
    assert not failed, f"{len(failed)} of {PAIRS} double submits went wrong: {failed}"


def test_a_session_of_another_tenant_is_404_and_gets_no_run(client: TestClient, store: Store) -> None:
    session_id = f"owned-{uuid.uuid4().hex}"
    first = client.post("/api/chat", json={"question": "acme: q", "sessionId": session_id}, headers=ACME)
    assert first.status_code == 200
    for _ in range(2):  # also once the session is well established
        stolen = client.post(
            "/api/chat", json={"question": "globex: q", "sessionId": session_id}, headers=GLOBEX
        )
        assert stolen.status_code == 404
        assert (stolen.json()["error"], stolen.json()["message"]) == (
            "not_found",
            f"unknown session id {session_id!r}",
        )
    assert _runs_in_session(store, session_id) == [first.json()["runId"]]


# ------------------------------------------------------------------ feedback on a session's runs (items 8a, 8d)


def _unfinished_run(store: Store, status: str) -> tuple[str, str]:
    recorder = RunRecorder(
        store,
        run_id=f"run-{uuid.uuid4().hex[:12]}",
        session_id=f"sess-{uuid.uuid4().hex[:12]}",
        question="acme: q",
        tenant="acme",
    )
    recorder.start()
    if status == "FAILED":
        recorder.fail("error: ModelError: the model endpoint is down")
    store.heartbeat.release(recorder.run_id)  # no process keeps it alive: this is a test
    return recorder.session_id, recorder.run_id


@pytest.mark.parametrize("status", ["RUNNING", "FAILED"])
def test_useful_on_a_run_that_did_not_succeed_is_refused_with_no_empty_case(
    client: TestClient, store: Store, status: str
) -> None:
    session_id, run_id = _unfinished_run(store, status)
    for body in ({"runId": run_id, "sessionId": session_id}, {"sessionId": session_id}):
        response = client.post("/api/feedback", json={**body, "feedback": "useful"}, headers=ACME)
        assert response.status_code == 400, response.text
        assert f"is {status}" in response.json()["message"]
    assert all(c["diagnosisId"] != run_id for c in client.get("/api/cases", headers=ACME).json())
    assert client.get(f"/api/trace/{run_id}", headers=ACME).json()["feedback"] is None


def test_an_empty_run_id_is_422_and_rates_no_run(client: TestClient) -> None:
    first = client.post("/api/chat", json={"question": "acme: q"}, headers=ACME).json()
    body = {"runId": "", "sessionId": first["sessionId"], "feedback": "not_useful"}
    response = client.post("/api/feedback", json=body, headers=ACME)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "invalid_request"
    assert client.get(f"/api/trace/{first['runId']}", headers=ACME).json()["feedback"] is None

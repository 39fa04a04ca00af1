"""Over the service: an agent run's trace while it runs (`POST /api/agent/ask`, `GET /api/trace/{runId}`),
and the bounded shadow queue (`[agent] shadow_queue`): a full queue drops shadow work — logged and
counted in `/metrics` — and never slows or changes the chat reply; what was accepted is recorded.

Seed L191 "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"; seed L22 "可审计的业务 Agent".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.agent_rollout import DEFAULT_SHADOW_QUEUE, ShadowRuns, shadow_session_id
from groundgate.apps.workspace import open_workspace
from groundgate.errors import ConfigurationError
from groundgate.settings import Settings, load_settings
from groundgate.store import open_store

LI = {"Authorization": "Bearer li-key"}
KEYS = {
    hash_key("li-key"): {
        "tenant": "hrdemo",
        "user": "u-li",
        "roles": ["user"],
        "allowed_projects": ["proj-east"],
    },
}
POLICY = "一线城市出差住宿标准是多少？"
VOLATILE = {"runId", "sessionId", "elapsedMs"}
WAIT_S = 30


def _app(tmp_path: Path, **agent: Any) -> Iterator[tuple[FastAPI, TestClient]]:
    settings = Settings(data_dir=tmp_path, api={"keys": KEYS}, agent=agent)
    store = open_store(tmp_path)
    with open_workspace(tmp_path) as workspace:
        app = create_app(settings, workspace=workspace, store=store)
        with TestClient(app) as client:
            yield app, client
    store.close()


def _ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def off(tmp_path: Path) -> Iterator[tuple[FastAPI, TestClient]]:
    yield from _app(tmp_path, mode="off")


@pytest.fixture
def shadow_of_one(tmp_path: Path) -> Iterator[tuple[FastAPI, TestClient]]:
    yield from _app(tmp_path, mode="shadow", shadow_queue=1)


def test_the_trace_api_shows_an_agent_run_while_it_runs(
    off: tuple[FastAPI, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, client = off
    _ok(client.post("/api/agent/ask", json={"question": POLICY}, headers=LI))  # opens the HR workspace
    registry = app.state.agent_hr.runtime._registry
    real_execute = registry.execute
    calling, release = threading.Event(), threading.Event()

    def held(*args: Any, **kwargs: Any) -> Any:
        result = real_execute(*args, **kwargs)
        calling.set()
        assert release.wait(WAIT_S)
        return result

    monkeypatch.setattr(registry, "execute", held)
    with ThreadPoolExecutor(max_workers=1) as pool:
        asked = pool.submit(client.post, "/api/agent/ask", json={"question": POLICY}, headers=LI)
        try:
            assert calling.wait(WAIT_S)
            running = [r for r in _ok(client.get("/api/runs", headers=LI)) if r["status"] == "RUNNING"]
            assert [(r["mode"], r["query"]) for r in running] == [("agent", POLICY)]
            trace = _ok(client.get(f"/api/trace/{running[0]['runId']}", headers=LI))
            assert trace["status"] == "RUNNING"
            assert [s["role"] for s in trace["steps"]] == ["planner"]  # the validated plan, already
            assert trace["steps"][0]["modelOutput"]["complete"] is True
        finally:
            release.set()
        body = _ok(asked.result(timeout=WAIT_S))
    assert body["runId"] == running[0]["runId"]
    done = _ok(client.get(f"/api/trace/{body['runId']}", headers=LI))
    assert (done["status"], done["decisionStatus"]) == ("SUCCEEDED", "ANSWERED")
    assert [s["role"] for s in done["steps"]] == ["planner", "gatekeeper", "composer"]
    assert [i["tool"] for i in done["toolInvocations"]] == ["KNOWLEDGE_SEARCH"]


def test_the_shadow_queue_is_bounded_by_default_and_a_bad_bound_is_refused() -> None:
    assert Settings().agent.shadow_queue == DEFAULT_SHADOW_QUEUE == 100
    with pytest.raises(ConfigurationError, match=r"agent\.shadow_queue"):
        load_settings(agent={"mode": "shadow", "shadow_queue": 0})
    with pytest.raises(ValueError, match="at least 1"):
        ShadowRuns(max_pending=0)


def test_a_full_shadow_queue_drops_new_work_without_touching_the_chat_reply(
    shadow_of_one: tuple[FastAPI, TestClient],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app, client = shadow_of_one
    first = _ok(client.post("/api/chat", json={"question": POLICY}, headers=LI))  # opens the HR workspace
    shadow: ShadowRuns = app.state.agent_shadow
    assert shadow.max_pending == 1
    assert shadow.drain(timeout=WAIT_S)

    runtime = app.state.agent_hr.runtime
    real_run = runtime.run
    started, release = threading.Event(), threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:  # an overloaded agent: it takes its time
        started.set()
        assert release.wait(WAIT_S)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(runtime, "run", slow)
    try:
        accepted = _ok(client.post("/api/chat", json={"question": POLICY}, headers=LI))
        assert started.wait(WAIT_S)  # the one pending decision is running: the queue is full
        with caplog.at_level(logging.WARNING, logger="groundgate.apps.agent_rollout"):
            dropped = [_ok(client.post("/api/chat", json={"question": POLICY}, headers=LI)) for _ in range(3)]
        assert shadow.pending == 1
        assert shadow.dropped == 3
    finally:
        release.set()
    # The replies are the chat pipeline's, unchanged, whether the shadow work was kept or dropped.
    stable = {k: v for k, v in first.items() if k not in VOLATILE}
    for body in (accepted, *dropped):
        assert {k: v for k, v in body.items() if k not in VOLATILE} == stable
    # Counted once per drop, logged once (not once per drop).
    assert "groundgate_agent_shadow_dropped_total 3" in client.get("/metrics").text
    warnings = [r for r in caplog.records if "shadow queue full" in r.getMessage()]
    assert len(warnings) == 1
    assert "dropped 1 shadow decision(s)" in warnings[0].getMessage()
    # Drain records what was accepted; the dropped ones left nothing behind.
    assert shadow.drain(timeout=WAIT_S)
    runs = _ok(client.get(f"/api/sessions/{shadow_session_id(accepted['runId'])}/runs", headers=LI))
    assert [(r["mode"], r["status"]) for r in runs] == [("agent-shadow", "SUCCEEDED")]
    for body in dropped:
        missing = client.get(f"/api/sessions/{shadow_session_id(body['runId'])}/runs", headers=LI)
        assert missing.status_code == 404
    # With room again, the next one is accepted.
    after = _ok(client.post("/api/chat", json={"question": POLICY}, headers=LI))
    assert shadow.drain(timeout=WAIT_S)
    assert shadow.dropped == 3
    shadows = _ok(client.get(f"/api/sessions/{shadow_session_id(after['runId'])}/runs", headers=LI))
    assert [r["mode"] for r in shadows] == ["agent-shadow"]


def test_a_shadow_queue_never_blocks_and_drops_after_close(tmp_path: Path) -> None:
    gate = threading.Event()
    drops: list[int] = []
    runs = ShadowRuns(max_pending=2, on_drop=lambda: drops.append(1))

    def runtime() -> Any:  # the worker waits here: nothing it is given finishes
        gate.wait(WAIT_S)
        raise RuntimeError("no workspace")  # logged by the worker; nothing recorded

    store: Any = object()
    ctx: Any = object()
    futures = [runs.submit(runtime, store, "q", ctx, chat_run_id=f"c{i}") for i in range(5)]
    assert [f is not None for f in futures] == [True, True, False, False, False]
    assert (runs.pending, runs.dropped, len(drops)) == (2, 3, 3)
    assert not runs.drain(timeout=0.05)  # accepted work still pending
    gate.set()
    assert runs.drain(timeout=WAIT_S)
    assert runs.pending == 0
    runs.close()
    assert runs.submit(runtime, store, "q", ctx, chat_run_id="late") is None  # stopped: dropped, no raise
    assert runs.dropped == 4

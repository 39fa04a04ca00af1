"""Chats run on their own bounded set of worker threads (`[api] chat_workers`).

An offline chat is CPU work under the interpreter lock: 40 of them at once (Starlette's shared
threadpool) spent a third of the server's CPU switching threads, so by default at most 4 offline chats
run at once and the rest wait on the event loop, holding no thread. With a model, an embedding
endpoint or a Qdrant server configured a chat mostly waits on the network, and 40 run at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, RunResult
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import NETWORKED_CHAT_WORKERS, OFFLINE_CHAT_WORKERS, Settings
from groundgate.store import Store, open_store

MODEL = {"name": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-x"}


@pytest.mark.parametrize(
    ("config", "workers"),
    [
        ({}, OFFLINE_CHAT_WORKERS),
        ({"model": MODEL}, NETWORKED_CHAT_WORKERS),
        ({"roles": {"verifier": MODEL}}, NETWORKED_CHAT_WORKERS),
        ({"embedding": {"model": "bge-m3", "dimensions": 8}}, NETWORKED_CHAT_WORKERS),
        ({"knowledge": {"qdrant_url": "http://127.0.0.1:6333"}}, NETWORKED_CHAT_WORKERS),
        ({"api": {"chat_workers": 7}}, 7),
        ({"model": MODEL, "api": {"chat_workers": 2}}, 2),
    ],
)
def test_chat_workers_default_to_few_offline_and_many_when_a_chat_waits_on_the_network(
    tmp_path: Path, config: dict[str, Any], workers: int
) -> None:
    assert Settings(data_dir=tmp_path, **config).chat_workers == workers


def test_chat_workers_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="chat_workers"):
        Settings(data_dir=tmp_path, api={"chat_workers": 0})


class GatedOrchestrator:
    """The offline orchestrator, held at a gate; records how many runs are inside at once."""

    def __init__(self, inner: Orchestrator) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.entered = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0

    def run(self, question: str, ctx: ExecutionContext, **kwargs: Any) -> RunResult:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.entered.release()
        try:
            self.gate.wait(timeout=60)  # a bound only so that a broken test cannot hang the suite
            return self.inner.run(question, ctx, **kwargs)
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    with open_workspace(tmp_path / "data") as ws:
        load_demo(ws)
        yield ws


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "data")
    yield opened
    opened.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_chats_beyond_chat_workers_wait_their_turn_and_are_all_answered(
    tmp_path: Path, workspace: Workspace, store: Store, workers: int
) -> None:
    gated = GatedOrchestrator(build_orchestrator(workspace.registry))
    settings = Settings(data_dir=tmp_path / "data", api={"chat_workers": workers})
    app = create_app(settings, workspace=workspace, store=store, orchestrator=gated)  # type: ignore[arg-type]
    chats = workers + 3
    with TestClient(app) as client, ThreadPoolExecutor(max_workers=chats) as pool:
        sent = [
            pool.submit(client.post, "/api/chat", json={"question": "ERR_TIMEOUT 是什么意思？"})
            for _ in range(chats)
        ]
        for _ in range(workers):
            assert gated.entered.acquire(timeout=60), "a chat never started"
        # Every worker is held: the others wait without a thread, and the service still answers.
        assert not gated.entered.acquire(timeout=0.3)
        assert gated.running == workers
        assert client.get("/healthz").status_code == 200
        gated.gate.set()
        answers = [future.result() for future in sent]
    assert [a.status_code for a in answers] == [200] * chats
    assert len({a.json()["runId"] for a in answers}) == chats
    assert all(a.json()["outputKind"] == "NORMAL" for a in answers)
    assert gated.most == workers

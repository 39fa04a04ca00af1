"""`warm_up`: before `groundgate serve` takes requests, the offline pipeline answers one question per
language, so the first chat does not pay for loading dictionaries and the checker. It records
nothing, reads as a tenant that owns no data, and never stops the service from starting."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from groundgate.apps.chat import WARM_UP_QUESTIONS, WARM_UP_TENANT, build_orchestrator, warm_up
from groundgate.apps.runs import list_runs
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, RunResult
from groundgate.errors import ModelError
from groundgate.store import Store, open_store


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    with open_workspace(tmp_path / "data") as ws:
        load_demo(ws)
        yield ws


class Recording:
    def __init__(self, inner: Any, fail: bool = False) -> None:
        self.inner, self.fail = inner, fail
        self.asked: list[tuple[str, ExecutionContext, dict[str, Any]]] = []

    def run(self, question: str, ctx: ExecutionContext, **kwargs: Any) -> RunResult:
        self.asked.append((question, ctx, kwargs))
        if self.fail:
            raise ModelError("the endpoint is down")
        result: RunResult = self.inner.run(question, ctx, **kwargs)
        return result


def test_the_warm_up_asks_each_language_once_as_its_own_tenant_and_records_nothing(
    tmp_path: Path, workspace: Workspace
) -> None:
    store: Store = open_store(tmp_path / "data")
    try:
        recording = Recording(build_orchestrator(workspace.registry))
        warm_up(recording)  # type: ignore[arg-type]
        assert [q for q, _, _ in recording.asked] == list(WARM_UP_QUESTIONS)
        assert {ctx.tenant for _, ctx, _ in recording.asked} == {WARM_UP_TENANT}
        assert all("sink" not in kwargs for _, _, kwargs in recording.asked)  # no recorder
        assert list_runs(store, tenant=WARM_UP_TENANT, include_untenanted=True) == []
    finally:
        store.close()


def test_a_failing_warm_up_is_logged_and_does_not_raise(
    workspace: Workspace, caplog: pytest.LogCaptureFixture
) -> None:
    recording = Recording(None, fail=True)
    with caplog.at_level(logging.WARNING, logger="groundgate.apps.chat"):
        warm_up(recording)  # type: ignore[arg-type]
    assert len(recording.asked) == 1  # the first failure ends it
    assert "warming up the pipeline failed" in caplog.text

"""`--json` prints what the API answers, field for field: one shape per object, one set of names
(camelCase where the API's models alias them: `runId`, `sessionId`, `outputKind`), whichever door a script
uses. The CLI in-process (`CliRunner`), the API through FastAPI's `TestClient`, on one data dir."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from groundgate.api import create_app
from groundgate.cli import app
from groundgate.settings import Settings
from groundgate.store import open_store
from groundgate.store.recorder import RunRecorder

CONTEXT = "差旅住宿标准：一线城市每晚不超过 600 元。超标部分需部门总监审批。"
ANSWER = "一线城市住宿每晚最多报销 600 元。超标部分无需审批。"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("json-data")
    store = open_store(data_dir)
    try:
        for question in ("ERR_TIMEOUT 是什么？", "What is the refund fee?"):
            recorder = RunRecorder(
                store, run_id=uuid.uuid4().hex, session_id=uuid.uuid4().hex, question=question
            )
            recorder.start()
            recorder.fail("stopped by the test")
    finally:
        store.close()
    return data_dir


@pytest.fixture(scope="module")
def api(data_dir: Path) -> Iterator[TestClient]:
    # No API keys: local mode, the same operator as the CLI.
    with TestClient(create_app(Settings(data_dir=data_dir))) as client:
        yield client


def cli_json(data_dir: Path, *args: str) -> Any:
    result = CliRunner().invoke(app, [*args, "--json", "--data-dir", str(data_dir)])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


@pytest.mark.slow
def test_check_json_is_the_api_check_response(data_dir: Path, api: TestClient) -> None:
    from_api = api.post("/api/check", json={"context": [CONTEXT], "answer": ANSWER})
    assert from_api.status_code == 200, from_api.text
    assert cli_json(data_dir, "check", "--text", "-c", CONTEXT, "-a", ANSWER) == from_api.json()


def test_runs_json_is_the_api_run_list(data_dir: Path, api: TestClient) -> None:
    from_api = api.get("/api/runs")
    assert from_api.status_code == 200, from_api.text
    runs = cli_json(data_dir, "runs")
    assert runs == from_api.json()
    assert len(runs) == 2
    assert {"runId", "sessionId", "outputKind", "stopReason"} <= set(runs[0])


def test_trace_json_is_the_api_trace(data_dir: Path, api: TestClient) -> None:
    run_id = cli_json(data_dir, "runs")[0]["runId"]
    from_api = api.get(f"/api/trace/{run_id}")
    assert from_api.status_code == 200, from_api.text
    trace = cli_json(data_dir, "trace", run_id)
    assert trace == from_api.json()
    assert trace["runId"] == run_id


def test_cases_json_is_the_api_case_list(data_dir: Path, api: TestClient) -> None:
    from_api = api.get("/api/cases")
    assert from_api.status_code == 200, from_api.text
    assert cli_json(data_dir, "cases") == from_api.json()

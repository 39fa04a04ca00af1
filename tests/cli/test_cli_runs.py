"""`groundgate runs` as a person reads it: it fits the terminal (80 columns too) and every run and
session id is printed whole, so it can be copied into `groundgate trace`. Also `--data-dir`.

In-process through Typer's `CliRunner`; the runs are written straight into a store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from sqlalchemy import update
from typer.testing import CliRunner, Result

from groundgate.cli import app
from groundgate.store import open_store
from groundgate.store.recorder import RunRecorder
from groundgate.store.tables import DiagnosisRun

RUNS = [
    # question, status, output kind, verdict, feedback
    ("ERR_TIMEOUT 是哪个组件返回的？含义是什么？", "SUCCEEDED", "NORMAL", "PASS", None),
    (
        "退款一般多久到账？退款手续费由谁承担？另外，跨境退款是否也一样，需要多少个工作日才能到账？",
        "SUCCEEDED",
        "LOW_CONFID_WITH_DISCLAIMER",
        "LOW_CONFID",
        "not_useful",
    ),
    (
        "How high did the ERR_TIMEOUT rate get on 2026-03-14 and when did it recover to its normal level?",
        "FAILED",
        "DEGRADED",
        None,
        "useful",
    ),
]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("runs-data")
    store = open_store(data_dir)
    try:
        for question, status, kind, verdict, feedback in RUNS:
            run_id = uuid.uuid4().hex
            RunRecorder(store, run_id=run_id, session_id=uuid.uuid4().hex, question=question).start()
            with store.session() as session:
                session.execute(
                    update(DiagnosisRun)
                    .where(DiagnosisRun.run_id == run_id)
                    .values(status=status, output_kind=kind, verdict=verdict, feedback=feedback)
                )
    finally:
        store.close()
    return data_dir


def invoke(*args: str, columns: int = 80, env: Mapping[str, str | None] | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns), **(env or {})})
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def listed(data_dir: Path) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = json.loads(invoke("runs", "--json", "--data-dir", str(data_dir)).stdout)
    return runs


@pytest.mark.parametrize("columns", [80, 100, 159, 160, 220])
def test_the_run_list_fits_the_terminal_and_keeps_every_id_whole(data_dir: Path, columns: int) -> None:
    text = invoke("runs", "--data-dir", str(data_dir), columns=columns).stdout
    lines = text.splitlines()
    assert all(cell_len(line.rstrip()) <= columns for line in lines), text
    words = text.split()
    for run in listed(data_dir):
        assert run["runId"] in words, text
        assert run["sessionId"] in words, text
        assert run["status"] in words
        assert run["outputKind"] in words  # LOW_CONFID_WITH_DISCLAIMER is never cut either
        if run["feedback"]:
            assert run["feedback"] in words


def test_the_run_list_shows_each_question(data_dir: Path) -> None:
    text = " ".join(invoke("runs", "--data-dir", str(data_dir)).stdout.split())
    assert "ERR_TIMEOUT 是哪个组件返回的？含义是什么？" in text
    assert "How high did the ERR_TIMEOUT rate get on 2026-03-14" in text


def test_data_dir_wins_over_the_environment(data_dir: Path, tmp_path: Path) -> None:
    elsewhere = {"GROUNDGATE_DATA_DIR": str(tmp_path / "elsewhere")}
    from_option = json.loads(invoke("runs", "--json", "--data-dir", str(data_dir), env=elsewhere).stdout)
    from_env = json.loads(invoke("runs", "--json", env=elsewhere).stdout)
    assert len(from_option) == len(RUNS)
    assert from_env == []


@pytest.mark.parametrize("where", ["group", "command"])
def test_runs_recover_takes_data_dir_before_or_after_it(tmp_path: Path, where: str) -> None:
    args = ["runs", "--data-dir", str(tmp_path), "recover", "--json"]
    if where == "command":
        args = ["runs", "recover", "--data-dir", str(tmp_path), "--json"]
    elsewhere = {"GROUNDGATE_DATA_DIR": str(tmp_path / "elsewhere")}
    assert json.loads(invoke(*args, env=elsewhere).stdout) == {"recovered": 0, "runIds": []}
    assert (tmp_path / "groundgate.sqlite").exists()
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.parametrize("columns", [80, 200])
def test_the_case_list_fits_the_terminal_and_keeps_every_id_whole(data_dir: Path, columns: int) -> None:
    run_id = next(r["runId"] for r in listed(data_dir) if r["status"] == "SUCCEEDED")
    said = invoke("feedback", run_id, "useful", "--data-dir", str(data_dir), columns=columns).stdout
    case_id = said.split()[-1]
    assert said == f"useful recorded for run {run_id}  case {case_id}\n"  # one line, ids whole
    text = invoke("cases", "--data-dir", str(data_dir), columns=columns).stdout
    assert all(cell_len(line.rstrip()) <= columns for line in text.splitlines()), text
    assert {case_id, run_id} <= set(text.split()), text

"""The CLI as a careless user meets it: outputs that alias the input, empty answers, control
characters, and a second server on a data directory that is in use.

Commands run in-process through Typer's `CliRunner` (usage errors exit 2, run errors exit 1, as from
the console script), except the second `serve`, which needs two real processes.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.cli import app

CONTEXT = "差旅住宿标准：一线城市每晚不超过 600 元。"
ANSWER = "一线城市住宿每晚最多报销 600 元。"


def run_main(*args: str) -> tuple[int, str]:
    """The command in-process (Typer's `CliRunner`): its exit status and everything it printed."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"id": 1, "context": CONTEXT, "answer": ANSWER}, ensure_ascii=False) + "\n")
    return path


@pytest.mark.parametrize("alias", ["hardlink", "symlink", "same"])
@pytest.mark.parametrize("flag", ["--output", "--errors"])
def test_an_output_that_is_the_input_under_another_name_is_refused_and_the_input_kept(
    batch: Path, alias: str, flag: str
) -> None:
    before = batch.read_bytes()
    target = batch.parent / "results.jsonl"
    if alias == "hardlink":
        os.link(batch, target)
    elif alias == "symlink":
        target.symlink_to(batch)
    else:
        target = batch.parent / "." / batch.name
    code, out = run_main("check", "--input", str(batch), flag, str(target))
    assert code == 2
    assert f"{flag} must not be the input file" in out
    assert batch.read_bytes() == before


def test_output_and_errors_on_one_file_are_refused(batch: Path) -> None:
    out_path = batch.parent / "out.jsonl"
    out_path.write_text("keep me\n")
    os.link(out_path, batch.parent / "errs.jsonl")
    code, out = run_main(
        "check",
        "-i",
        str(batch),
        "-o",
        str(out_path),
        "--errors",
        str(batch.parent / "errs.jsonl"),
    )
    assert code == 2
    assert "must be different files" in out
    assert out_path.read_text() == "keep me\n"


def test_a_distinct_output_file_is_written(batch: Path) -> None:
    out_path = batch.parent / "out.jsonl"
    code, out = run_main("check", "-i", str(batch), "-o", str(out_path))
    assert code == 0, out
    assert json.loads(out_path.read_text())["verdict"] == "PASS"


@pytest.mark.parametrize("answer", ["", "   ", "\n"])
def test_an_empty_answer_is_a_usage_error_as_over_http(answer: str) -> None:
    code, out = run_main("check", "-c", CONTEXT, "-a", answer)
    assert code == 2
    assert "--answer is empty" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["ask", "hi \x1b[2J there"], "U+001B (ESC)"),
        (["ask", "hi \x07"], "U+0007"),
        (["ask", "ERR_TIMEOUT 是什么？", "--session", "s\tx"], "--session contains U+0009"),
    ],
)
def test_control_characters_in_a_cli_question_or_session_are_a_usage_error(
    args: list[str], words: str
) -> None:
    code, out = run_main(*args)
    assert code == 2
    assert words in out


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.slow
def test_a_second_server_on_the_same_data_dir_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "GROUNDGATE_DATA_DIR": str(tmp_path / "data")}
    cli = [sys.executable, "-m", "groundgate.cli", "serve", "--port"]
    first = subprocess.Popen(
        [*cli, str(_free_port())], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        # Wait (bounded) until the first server owns the shard: its log says it is serving.
        assert first.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = first.stdout.readline()
            if "Uvicorn running" in line or not line:
                break
        assert first.poll() is None, "the first server did not start"
        second = subprocess.run(
            [*cli, str(_free_port())], env=env, capture_output=True, text=True, timeout=60, check=False
        )
    finally:
        first.terminate()
        first.wait(timeout=30)
        if first.stdout is not None:
            first.stdout.close()
    assert second.returncode == 1
    assert "Traceback" not in second.stderr + second.stdout
    assert "in use by another process" in second.stderr
    # one message (rich wraps it at the terminal width)
    assert second.stderr.startswith("failed: knowledge index:")
    assert second.stderr.count("failed:") == 1

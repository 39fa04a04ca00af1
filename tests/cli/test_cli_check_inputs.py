"""`groundgate check` inputs and outputs a person gets wrong: a context file that does not exist, an
output file that does, and a model that fails. In-process through Typer's `CliRunner`."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from groundgate.cli import app
from groundgate.cli.check import looks_like_path
from groundgate.testing import OpenAICompatibleServer, ScriptedReply

CONTEXT = "差旅住宿标准：一线城市每晚不超过 600 元。"
ANSWER = "一线城市住宿每晚最多报销 600 元。"


def invoke(*args: str, cwd: Path | None = None) -> Result:
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("value", "path_like"),
    [
        ("missing.md", True),
        ("notes.txt", True),
        ("docs/runbook", True),
        ("./x", True),
        ("~/policy.md", True),
        ("C:\\docs\\a", True),
        ("..", True),
        ("x", False),
        ("3.5", False),
        ("v1.2", False),
        ("ERR_TIMEOUT", False),
        (CONTEXT, False),
        ("The SLA is 99.9 %. See runbook.md for more.", False),
        ("", False),
    ],
)
def test_a_value_is_path_like_when_it_reads_as_a_file_name(value: str, path_like: bool) -> None:
    assert looks_like_path(value) is path_like


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-c", "missing.md", "-a", ANSWER], "--context missing.md: no such file (give --text"),
        (["-c", CONTEXT, "-a", "answers/one.txt"], "--answer answers/one.txt: no such file"),
        (["-c", ".", "-a", ANSWER], "--context .: is not a file"),
    ],
)
def test_a_path_like_value_that_names_no_file_is_a_usage_error(
    args: list[str], message: str, tmp_path: Path
) -> None:
    result = invoke("check", *args, cwd=tmp_path)
    assert result.exit_code == 2
    assert message in one_line(result.stderr)


def test_text_takes_a_path_like_value_literally(tmp_path: Path) -> None:
    (tmp_path / "policy.md").write_text(CONTEXT, encoding="utf-8")
    as_file = json.loads(invoke("check", "-c", "policy.md", "-a", ANSWER, "--json", cwd=tmp_path).stdout)
    as_text = invoke("check", "-c", "policy.md", "-a", ANSWER, "--text", "--json", cwd=tmp_path)
    assert as_text.exit_code == 0, as_text.output
    assert as_file["verdict"] == "PASS"
    assert json.loads(as_text.stdout)["verdict"] != "PASS"  # "policy.md" supports nothing


@pytest.mark.parametrize("flag", ["--output", "--errors"])
def test_an_existing_output_is_refused_and_kept_unless_force(flag: str, tmp_path: Path) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"id": 1, "context": CONTEXT, "answer": ANSWER}) + "\n", encoding="utf-8")
    target = tmp_path / "existing.jsonl"
    target.write_text("keep me\n", encoding="utf-8")
    refused = invoke("check", "-i", str(batch), flag, str(target))
    assert refused.exit_code == 2
    assert f"{flag} {target} already exists (give --force to overwrite it)" in one_line(refused.stderr)
    assert target.read_text(encoding="utf-8") == "keep me\n"
    forced = invoke("check", "-i", str(batch), flag, str(target), "--force")
    assert forced.exit_code == 0, forced.output
    assert target.read_text(encoding="utf-8") != "keep me\n"


def test_an_existing_predictions_file_is_refused_unless_force(tmp_path: Path) -> None:
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text(
        json.dumps({"id": 1, "context": CONTEXT, "answer": ANSWER, "label": "supported"}) + "\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "preds.jsonl"
    predictions.write_text("keep me\n", encoding="utf-8")
    refused = invoke("check-eval", "-i", str(labelled), "--predictions", str(predictions))
    assert refused.exit_code == 2
    assert "already exists" in refused.stderr
    assert predictions.read_text(encoding="utf-8") == "keep me\n"
    forced = invoke("check-eval", "-i", str(labelled), "--predictions", str(predictions), "--force", "--json")
    assert forced.exit_code == 0, forced.output
    assert json.loads(predictions.read_text(encoding="utf-8"))["label"] == "supported"


@pytest.mark.parametrize(
    ("reply", "status", "why"),
    [
        (ScriptedReply.error(401, "Incorrect API key provided"), "ERROR", "Incorrect API key provided"),
        (ScriptedReply(content="not json at all"), "INVALID_JSON", "INVALID_JSON"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_a_model_that_fails_says_why_on_screen(
    reply: ScriptedReply, status: str, why: str, as_json: bool, tmp_path: Path
) -> None:
    with OpenAICompatibleServer(lambda _request: reply) as server:
        (tmp_path / "groundgate.toml").write_text(
            f'[model]\nname = "m"\nbase_url = "{server.base_url}"\napi_key = "k"\ntimeout_seconds = 5\n',
            encoding="utf-8",
        )
        result = invoke(
            "check", "--model", "-c", CONTEXT, "-a", ANSWER, *(["--json"] if as_json else []), cwd=tmp_path
        )
    assert result.exit_code == 0, result.output
    warning = one_line(result.stderr)
    assert "the model failed" in warning
    assert "the offline checker answered instead" in warning
    assert why in warning
    if as_json:
        assert json.loads(result.stdout)["judge_status"] == status
    else:
        assert f"checker offline (the model failed: {status})" in result.stdout


def test_a_model_that_answers_prints_no_warning(tmp_path: Path) -> None:
    reply = {
        "claims": [
            {
                "claim_index": 1,
                "key": True,
                "category": "direct_evidence",
                "passage": 1,
                "excerpt": "一线城市每晚不超过 600 元",
                "rationale": "stated",
            }
        ]
    }
    with OpenAICompatibleServer(lambda _request: ScriptedReply.json(reply)) as server:
        (tmp_path / "groundgate.toml").write_text(
            f'[model]\nname = "m"\nbase_url = "{server.base_url}"\napi_key = "k"\ntimeout_seconds = 5\n',
            encoding="utf-8",
        )
        result = invoke("check", "--model", "-c", CONTEXT, "-a", ANSWER, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "model failed" not in result.stderr
    assert "checker llm (judge OK)" in result.stdout

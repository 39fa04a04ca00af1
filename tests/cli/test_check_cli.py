"""`groundgate check`, `check-eval` and `demo` as a user runs them (through Typer's `CliRunner`), plus
the Python API."""

from __future__ import annotations

import contextlib
import json
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

import groundgate
from groundgate.apps.grounding_check import iter_lines
from groundgate.cli import app
from groundgate.contracts import FactCategory, Verdict
from groundgate.models import ScriptedModel
from groundgate.testing import OpenAICompatibleServer, ScriptedReply

CONTEXT = "差旅住宿标准：一线城市每晚不超过 600 元，其他城市每晚不超过 400 元。超标部分需部门总监审批。"
SUPPORTED = "一线城市住宿每晚最多报销 600 元。超出标准的部分需要部门总监审批。"
FLIPPED = "一线城市住宿每晚至少 800 元，超标部分无需审批。"


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, cwd: Path | None = None) -> Done:
    """The command in-process (Typer's `CliRunner`), in `cwd` when given (for its groundgate.toml)."""
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = CliRunner().invoke(app, list(args))
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
    return Done(result.exit_code, result.stdout, stderr)


# --------------------------------------------------------------------------- single check


def test_check_single_json() -> None:
    done = run_cli("check", "--context", CONTEXT, "--answer", SUPPORTED, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "PASS"
    assert result["groundedness_score"] > 0.5
    assert result["critical_fact_count"] == 2
    claim = result["claims"][0]
    assert {"text", "start", "end", "key", "category", "evidence", "reason_codes"} <= set(claim)
    assert SUPPORTED[claim["start"] : claim["end"]] == claim["text"]
    span = claim["evidence"][0]
    assert CONTEXT[span["start"] : span["end"]] == span["excerpt"]


def test_check_reads_context_files_and_rejects_a_contradiction(tmp_path: Path) -> None:
    ctx = tmp_path / "policy.md"
    ctx.write_text(CONTEXT, encoding="utf-8")
    done = run_cli("check", "-c", str(ctx), "-a", FLIPPED, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "REJECT"
    assert result["groundedness_score"] == 0.0
    assert any(c["category"] == "contradicted" for c in result["claims"])


def test_check_pretty_output_names_the_verdict() -> None:
    done = run_cli("check", "-c", CONTEXT, "-a", FLIPPED)
    assert done.returncode == 0, done.stderr
    assert "REJECT" in done.stdout
    assert "contradicted" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check"], "give --context"),
        (["check", "--context", "x"], "give --context"),
        (["check", "--input", "missing.jsonl"], "input file not found"),
        (["check", "--input", "in.jsonl", "--context", "x"], "not both"),
        (["check", "--model", "-c", "x", "-a", "y"], "--model needs a configured model"),
    ],
)
def test_check_usage_errors_exit_2_with_a_clear_message(
    args: list[str], message: str, tmp_path: Path
) -> None:
    (tmp_path / "in.jsonl").write_text("{}\n", encoding="utf-8")
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr


# --------------------------------------------------------------------------- batch


def _write_batch(path: Path) -> None:
    lines = [
        json.dumps({"id": "a", "context": CONTEXT, "answer": SUPPORTED}, ensure_ascii=False),
        '{"id": "broken", "context": ',
        json.dumps({"id": "no-answer", "context": [CONTEXT]}),
        "",
        "[1, 2, 3]",
        json.dumps(
            {"id": "b", "question": "住宿标准？", "context": [CONTEXT, "其他"], "answer": FLIPPED},
            ensure_ascii=False,
        ),
        json.dumps({"id": "empty-ctx", "context": [], "answer": "x"}),
    ]
    path.write_bytes(("\n".join(lines) + "\n").encode() + b'{"id": "latin1", "answer": "\xe9"}\n')


def test_batch_streams_results_and_reports_bad_lines_without_stopping(tmp_path: Path) -> None:
    src, out, errs = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    _write_batch(src)
    before = src.read_bytes()
    done = run_cli("check", "--input", str(src), "--output", str(out), "--errors", str(errs))
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in results] == ["a", "b"]
    assert [r["verdict"] for r in results] == ["PASS", "REJECT"]
    for r in results:
        assert {"id", "verdict", "groundedness_score", "critical_fact_count", "claims"} <= set(r)
    bad = {e["line"]: e["error"] for e in map(json.loads, errs.read_text(encoding="utf-8").splitlines())}
    assert set(bad) == {2, 3, 5, 7, 8}
    assert "invalid JSON" in bad[2]
    assert "answer" in bad[3]
    assert "JSON object" in bad[5]
    assert "non-empty passage" in bad[7]
    assert "UTF-8" in bad[8]
    assert "line 2:" in done.stderr
    assert "checked 2 answers" in done.stdout
    assert src.read_bytes() == before  # input untouched


def test_batch_to_stdout(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    _write_batch(src)
    done = run_cli("check", "--input", str(src))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == ["a", "b"]
    assert "5 bad lines" in done.stderr


def test_batch_summary_as_json_counts_the_bad_lines(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    _write_batch(src)
    done = run_cli("check", "--input", str(src), "--output", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "checked": 2,
        "bad_line_count": 5,
        "verdicts": {"PASS": 1, "REJECT": 1},
    }


def test_batch_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    _write_batch(src)
    before = src.read_bytes()
    done = run_cli("check", "--input", str(src), "--output", str(src))
    assert done.returncode == 2
    assert "must not be the input" in done.stderr
    assert src.read_bytes() == before


def test_line_reader_is_lazy() -> None:
    """Lines are parsed as they are read, so a 1 GB input never sits in memory."""
    consumed: list[int] = []

    class Source:
        def __iter__(self) -> Iterator[bytes]:
            for i in range(1_000_000):
                consumed.append(i)
                yield json.dumps({"id": i, "context": "c", "answer": "a"}).encode() + b"\n"

    reader = iter_lines(Source())  # type: ignore[arg-type]
    first = next(reader)
    assert first[0] == 1
    assert len(consumed) == 1


# --------------------------------------------------------------------------- check-eval


def test_check_eval_prints_figures(tmp_path: Path) -> None:
    src = tmp_path / "labelled.jsonl"
    rows = [
        {"id": 1, "lang": "zh", "context": CONTEXT, "answer": SUPPORTED, "label": "supported"},
        {"id": 2, "lang": "zh", "context": CONTEXT, "answer": FLIPPED, "label": "hallucinated"},
        {"id": 3, "lang": "zh", "context": CONTEXT, "answer": FLIPPED, "label": "maybe"},
    ]
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    preds = tmp_path / "preds.jsonl"
    done = run_cli("check-eval", "--input", str(src), "--json", "--predictions", str(preds))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["flagged"]["confusion"] == {
        "true_positive": 1,
        "false_positive": 0,
        "true_negative": 1,
        "false_negative": 0,
    }
    assert report["flagged"]["f1"] == 1.0
    assert report["reject_only"]["recall"] == 1.0
    assert report["bad_line_count"] == 1
    assert "bad_lines" not in report
    assert "label" in done.stderr
    assert [json.loads(line)["label"] for line in preds.read_text(encoding="utf-8").splitlines()] == [
        "supported",
        "hallucinated",
    ]
    table = run_cli("check-eval", "--input", str(src))
    assert "balanced acc." in table.stdout
    assert "confusion" in table.stdout


def test_check_eval_with_no_valid_line_fails(tmp_path: Path) -> None:
    src = tmp_path / "labelled.jsonl"
    src.write_text('{"context": "c", "answer": "a"}\n', encoding="utf-8")
    done = run_cli("check-eval", "--input", str(src))
    assert done.returncode == 2
    assert "no valid labelled lines" in done.stderr


# --------------------------------------------------------------------------- demo and API


def test_demo_runs_offline() -> None:
    done = run_cli("demo", "--checker", "--json")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    verdicts = {r["id"]: r["verdict"] for r in results}
    assert verdicts["pay-timeout"] == "PASS"
    assert verdicts["pay-fabricated"] == "REJECT"
    assert verdicts["hr-travel"] == "PASS"
    assert verdicts["hr-flipped"] == "REJECT"
    assert verdicts["redis-en"] == "PASS"
    assert verdicts["redis-baseless"] in {"LOW_CONFID", "REJECT"}


def test_python_api_offline() -> None:
    result = groundgate.check(context=[CONTEXT], answer=SUPPORTED, question="住宿标准？")
    assert result.verdict is Verdict.PASS
    assert result.checker == "offline"


def test_python_api_with_a_model_keeps_deterministic_contradictions() -> None:
    """A model that calls everything supported cannot overrule a changed number."""
    model = ScriptedModel(
        {
            "judge": [
                {
                    "claims": [
                        {
                            "claim_index": 1,
                            "key": True,
                            "category": "direct_evidence",
                            "passage": 1,
                            "excerpt": "一线城市每晚不超过 600 元",
                            "rationale": "stated",
                        },
                        {
                            "claim_index": 2,
                            "key": True,
                            "category": "direct_evidence",
                            "passage": 1,
                            "excerpt": "超标部分需部门总监审批",
                            "rationale": "stated",
                        },
                    ]
                }
            ]
        }
    )
    result = groundgate.check(
        context=CONTEXT, answer="一线城市住宿每晚最多 800 元。超标部分需要总监审批。", model=model
    )
    assert result.checker == "llm"
    assert result.verdict is Verdict.REJECT
    assert result.claims[0].category is FactCategory.CONTRADICTED
    assert result.claims[1].category is FactCategory.DIRECT_EVIDENCE


def test_cli_model_over_real_http(tmp_path: Path) -> None:
    """`--model` builds an OpenAI-compatible judge from configuration and talks HTTP to it."""
    reply = {
        "claims": [
            {
                "claim_index": 1,
                "key": True,
                "category": "direct_evidence",
                "passage": 1,
                "excerpt": "一线城市每晚不超过 600 元",
                "rationale": "stated",
            },
            {
                "claim_index": 2,
                "key": True,
                "category": "indirect_support",
                "passage": 1,
                "excerpt": "超标部分需部门总监审批",
                "rationale": "paraphrase",
            },
        ]
    }
    with OpenAICompatibleServer(lambda _req: ScriptedReply.json(reply)) as server:
        (tmp_path / "groundgate.toml").write_text(
            f'[model]\nname = "test-model"\nbase_url = "{server.base_url}"\napi_key = "k"\ntimeout_seconds = 10\n',
            encoding="utf-8",
        )
        done = run_cli("check", "--model", "-c", CONTEXT, "-a", SUPPORTED, "--json", cwd=tmp_path)
        assert len(server.chat_requests) == 1
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["checker"] == "llm"
    assert result["judge_status"] == "OK"
    assert result["verdict"] == "PASS"
    assert [c["category"] for c in result["claims"]] == ["direct_evidence", "indirect_support"]

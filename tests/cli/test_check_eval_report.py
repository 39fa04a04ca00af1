"""`groundgate check-eval --report`: a self-contained HTML report of a labelled check set, with its
figures as JSON beside it, and an existing report never overwritten without `--force`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from groundgate.cli import app

ROWS = [
    {
        "id": "a",
        "context": "年假需提前 3 个工作日申请。",
        "answer": "年假需提前 3 个工作日申请。",
        "label": "supported",
    },
    {
        "id": "b",
        "context": "年假需提前 3 个工作日申请。",
        "answer": "年假需提前 5 个工作日申请。",
        "label": "hallucinated",
    },
    {
        "id": "c",
        "context": "P1 alerts are acknowledged within 10 minutes.",
        "answer": "P1 alerts are acknowledged within 10 minutes.",
        "label": "supported",
    },
    {
        "id": "d",
        "context": "P1 alerts are acknowledged within 10 minutes.",
        "answer": "P1 alerts are acknowledged within 30 minutes.",
        "label": "hallucinated",
    },
]


def _labelled(tmp_path: Path) -> Path:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in ROWS) + "\n", encoding="utf-8")
    return path


def test_check_eval_writes_an_offline_html_report_and_its_figures(tmp_path: Path) -> None:
    report = tmp_path / "out" / "report.html"
    result = CliRunner().invoke(
        app,
        [
            "check-eval",
            "--input",
            str(_labelled(tmp_path)),
            "--report",
            str(report),
            "--data-dir",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    html = report.read_text(encoding="utf-8")
    assert "<html" in html.lower()
    # Opens offline: no script or stylesheet is fetched from anywhere.
    assert not re.search(r"<script[^>]+src=[\"']https?://", html)
    assert not re.search(r"<link[^>]+href=[\"']https?://", html)
    figures = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert figures["report"]["flagged"]["count"] == len(ROWS)
    assert figures["figures"]


def test_an_existing_report_is_refused_without_force(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text("keep me", encoding="utf-8")
    args = [
        "check-eval",
        "--input",
        str(_labelled(tmp_path)),
        "--report",
        str(report),
        "--data-dir",
        str(tmp_path),
    ]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2
    assert report.read_text(encoding="utf-8") == "keep me"
    assert CliRunner().invoke(app, [*args, "--force"]).exit_code == 0
    assert report.read_text(encoding="utf-8") != "keep me"

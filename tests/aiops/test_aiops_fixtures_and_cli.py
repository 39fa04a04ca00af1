"""The AIOps golden set passes offline (`groundgate eval run --suite aiops`), and `groundgate diagnose`
diagnoses the demo alert from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.cli import app
from groundgate.regression.runner import run_fixtures
from groundgate.regression.suites import load_suites


@pytest.mark.slow
def test_the_aiops_suite_holds_at_least_20_alert_fixtures_and_all_pass_offline() -> None:
    fixtures, counts = load_suites(["aiops"])
    assert counts["aiops"] >= 20
    assert {f.input.kind for f in fixtures} == {"alert"}
    run = run_fixtures(fixtures, jobs=2)
    failed = [(r.id, r.status.value, r.failures, r.error) for r in run.results if r.status.value != "passed"]
    assert not failed


@pytest.mark.slow
def test_diagnose_prints_the_demo_alerts_report_as_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["diagnose", "--demo", "--json", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["alert"]["alertname"] == "PaymentHighErrorRate"
    assert payload["outputKind"] == "NORMAL"
    assert payload["aiopsRuleEvaluation"]["verdict"] == "PASS"
    assert payload["sections"]["rootCauseCandidates"]
    assert {c["evidenceKind"] for c in payload["sections"]["keyFindings"]} >= {"metrics", "logs"}


def test_diagnose_without_a_file_or_demo_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["diagnose", "--data-dir", str(tmp_path)])
    assert result.exit_code != 0
    missing = CliRunner().invoke(app, ["diagnose", str(tmp_path / "none.json"), "--data-dir", str(tmp_path)])
    assert missing.exit_code != 0

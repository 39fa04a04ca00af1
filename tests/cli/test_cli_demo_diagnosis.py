"""`groundgate demo` ends with one alert diagnosis (issue 14): the demo's PaymentHighErrorRate alert
on payment-api, diagnosed through the same gate, its report citing the logs and metrics it read."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundgate.cli import app


@pytest.mark.slow
def test_the_demo_shows_one_alert_diagnosis_with_its_cited_evidence(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--data-dir", str(tmp_path)], terminal_width=160)
    assert result.exit_code == 0, result.output
    tail = result.output[result.output.index("alert diagnosis") :]
    assert "PaymentHighErrorRate" in tail
    assert "ERR_POOL_EXHAUSTED" in tail  # the log lines it cites
    assert "payment-api.jsonl" in tail  # … with their sources

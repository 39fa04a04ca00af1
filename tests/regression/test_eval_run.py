"""`groundgate eval run` as CI uses it: frozen fixtures pass, a case that no longer meets its
expectations (or a deliberately broken composer) fails the command, baselines report what changed
case by case, and the report is one HTML file that opens offline.

In-process through Typer's `CliRunner`; the showcase fixtures replay their recorded tool outputs, so
no workspace is loaded.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]
from typer.testing import CliRunner, Result

from groundgate.cli import app
from groundgate.regression.suites import SUITES_DIR

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

SHOWCASE = SUITES_DIR / "showcase"


def invoke(args: Sequence[str], *, code: int | None = 0, command: str = "run") -> Result:
    result = CliRunner().invoke(app, ["eval", command, *args], env={"COLUMNS": "160"})
    if code is not None:
        assert result.exit_code == code, (result.output, result.exception)
    return result


def copy_fixture(tmp_path: Path, name: str, **expect: object) -> Path:
    """A showcase fixture copied into `tmp_path`, its `expect` fields replaced by `expect`."""
    data = yaml.safe_load((SHOWCASE / f"{name}.yaml").read_text(encoding="utf-8"))
    data["expect"].update(expect)
    target = tmp_path / "cases" / f"{name}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def test_the_frozen_showcase_passes_and_exits_zero() -> None:
    result = invoke([str(SHOWCASE), "--json"])
    payload = json.loads(result.stdout)
    assert payload["summary"]["passed"] == 8
    assert payload["regressions"] == []
    kinds = {c["id"]: c["observed"]["output_kind"] for c in payload["cases"]}
    assert kinds["normal-err-timeout"] == "NORMAL"
    assert kinds["disclaimer-refund-fee"] == "LOW_CONFID_WITH_DISCLAIMER"
    assert kinds["tenant-isolation"] == "DEGRADED"


def test_a_case_whose_answer_lacks_an_expected_value_is_a_regression_and_exits_one(tmp_path: Path) -> None:
    path = copy_fixture(tmp_path, "normal-err-timeout", must_contain=[["5 秒", "5000 ms"]])
    result = invoke([str(path)], code=1)
    assert "failed" in result.output
    assert "the answer lacks '5 秒' | '5000 ms'" in result.output
    assert "1 regression(s): showcase/normal-err-timeout" in result.output


def test_a_value_the_answer_must_not_state_fails_the_case(tmp_path: Path) -> None:
    path = copy_fixture(tmp_path, "normal-err-timeout", must_not_contain=["3000 ms"])
    result = invoke([str(path), "--json"], code=1)
    case = json.loads(result.stdout)["cases"][0]
    assert case["status"] == "failed"
    assert case["failures"] == ["the answer states '3000 ms'"]


def test_a_broken_composer_makes_the_showcase_suite_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from groundgate.compose import compose_degraded
    from groundgate.runtime import orchestrator

    # A composer that degrades every verified answer: exactly what the frozen outcomes must catch.
    monkeypatch.setattr(
        orchestrator, "compose_normal", lambda claims, language: compose_degraded(claims, [], language)
    )
    result = invoke(["--suite", "showcase", "--json"], code=1)
    payload = json.loads(result.stdout)
    failed = {c["id"] for c in payload["cases"] if c["status"] == "failed"}
    assert {"normal-err-timeout", "english-slo", "order-lookup"} <= failed
    assert "output kind is DEGRADED, expected NORMAL" in json.dumps(payload, ensure_ascii=False)


def test_a_call_the_fixture_did_not_record_fails_a_strict_replay(tmp_path: Path) -> None:
    data = yaml.safe_load((SHOWCASE / "second-round-root-cause.yaml").read_text(encoding="utf-8"))
    data["tools"]["calls"] = data["tools"]["calls"][:1]  # round 2's logs and metrics are gone
    path = tmp_path / "cut.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    case = json.loads(invoke([str(path), "--json"], code=1).stdout)["cases"][0]
    assert any("the fixture did not record" in f for f in case["failures"])
    assert any(
        call["error"].startswith("replay_miss") for call in case["observed"]["tool_calls"] if call["error"]
    )


def test_a_known_failure_is_reported_not_a_regression_and_a_pass_is_reported_fixed(tmp_path: Path) -> None:
    failing = copy_fixture(tmp_path, "english-slo", output_kind="DEGRADED")
    data = yaml.safe_load(failing.read_text(encoding="utf-8"))
    data["known_failure"] = "the SLO answer is expected to degrade (test)"
    failing.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    passing = copy_fixture(tmp_path, "degraded-no-evidence")
    data = yaml.safe_load(passing.read_text(encoding="utf-8"))
    data["known_failure"] = "no longer true"
    passing.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    payload = json.loads(invoke([str(tmp_path / "cases"), "--json"]).stdout)
    statuses = {c["id"]: c["status"] for c in payload["cases"]}
    assert statuses == {"english-slo": "known_failure", "degraded-no-evidence": "fixed"}


def test_the_baseline_reports_what_changed_case_by_case(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    invoke([str(SHOWCASE), "--write-baseline", str(baseline)])
    same = json.loads(invoke([str(SHOWCASE), "--baseline", str(baseline), "--json"]).stdout)
    assert [
        c for c in same["changes"] if c["kind"] in ("status", "output_kind", "verdict", "groundedness")
    ] == []

    # The baseline remembers a better past: a NORMAL answer and a higher score for one case.
    data = json.loads(baseline.read_text(encoding="utf-8"))
    data["cases"]["showcase/degraded-no-evidence"].update(
        output_kind="NORMAL", verdict="PASS", groundedness=1.0
    )
    baseline.write_text(json.dumps(data), encoding="utf-8")
    result = invoke([str(SHOWCASE), "--baseline", str(baseline)], code=1)
    assert "regression showcase/degraded-no-evidence output_kind: NORMAL → DEGRADED" in result.output
    assert "regression showcase/degraded-no-evidence groundedness: 1.00 → 0.00" in result.output
    assert "change showcase/degraded-no-evidence verdict: PASS → None" in result.output


def test_the_report_is_one_html_file_with_no_external_script_and_its_figures_as_json(tmp_path: Path) -> None:
    out = tmp_path / "report" / "eval.html"
    invoke([str(SHOWCASE), "--report", str(out)])
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"<script[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//", page, re.I)
    assert not re.search(r"<link[^>]*href\s*=\s*[\"']?https?://", page, re.I)
    assert "Plotly.newPlot" in page
    assert len(page) > 1_000_000  # plotly.js itself is inside
    figures = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert set(figures["figures"]) == {"confusion", "groundedness", "tool_failures", "tokens", "latency"}
    assert figures["summary"]["passed"] == 8
    assert figures["tool_failure_rates"]["lookup_knowledge"]["failed"] == 0


def test_the_report_lists_changed_cases_with_links_to_their_traces(tmp_path: Path) -> None:
    captured = copy_fixture(tmp_path, "english-slo")
    data = yaml.safe_load(captured.read_text(encoding="utf-8"))
    data["source"]["run_id"] = "0123456789abcdef0123456789abcdef"
    captured.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    baseline = tmp_path / "b.json"
    invoke([str(captured), "--write-baseline", str(baseline)])
    tampered = json.loads(baseline.read_text(encoding="utf-8"))
    tampered["cases"]["showcase/english-slo"]["groundedness"] = 0.5
    baseline.write_text(json.dumps(tampered), encoding="utf-8")
    out = tmp_path / "r.html"
    invoke(
        [
            str(captured),
            "--baseline",
            str(baseline),
            "--report",
            str(out),
            "--trace-url",
            "http://127.0.0.1:8000",
        ]
    )
    page = out.read_text(encoding="utf-8")
    assert "Changed since the baseline (1 cases, 0 regressions)" in page
    assert 'href="http://127.0.0.1:8000/#/trace/0123456789abcdef0123456789abcdef"' in page


def test_suite_all_runs_every_golden_set_and_lists_the_empty_hooks() -> None:
    result = invoke(["--suite", "all", "--json", "-j", "8"])
    payload = json.loads(result.stdout)
    assert payload["suites"]["showcase"] == 8
    assert payload["suites"]["questions"] > 100
    assert {"agent", "aiops"} <= set(payload["suites"])
    assert payload["regressions"] == []
    suites = invoke([], command="suites").stdout
    assert "showcase" in suites
    assert "aiops" in suites


def test_a_case_whose_kind_has_no_driver_is_skipped_not_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groundgate.regression import runner

    monkeypatch.delitem(runner._DRIVERS, "alert")
    path = tmp_path / "alert.yaml"
    path.write_text(
        "id: pool-alert\ninput:\n  kind: alert\n  alert: {labels: {alertname: PaymentTimeoutRateHigh}}\n",
        encoding="utf-8",
    )
    case = json.loads(invoke([str(path), "--json"]).stdout)["cases"][0]
    assert case["status"] == "skipped"
    assert "no driver for input kind 'alert'" in case["note"]


def test_an_alert_case_runs_through_the_diagnosis_driver_and_a_malformed_alert_is_an_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "alert.yaml"
    path.write_text(
        "id: pool-alert\ninput:\n  kind: alert\n  alert: {labels: {alertname: PaymentTimeoutRateHigh}}\n",
        encoding="utf-8",
    )
    case = json.loads(invoke([str(path), "--json"], code=None).stdout)["cases"][0]
    assert case["status"] == "error"
    assert "not an Alertmanager alert" in case["error"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("id: x\ninput: {kind: question, question: [unclosed\n", ["bad.yaml", "not valid YAML", "line"]),
        (
            "id: x\ninput: {kind: question, question: q}\nexpect: {output_kind: MAYBE}\n",
            ["bad.yaml", "`expect.output_kind.0`"],
        ),
        (
            "id: x\ninput: {kind: question, question: q}\nexpect: {outptu_kind: NORMAL}\n",
            ["`expect.outptu_kind`", "Extra inputs"],
        ),
        ("id: x\ninput: {kind: question}\n", ["`input.question.question`", "Field required"]),
        (
            "id: x\ninput: {kind: question, question: q}\nexpect: {verdict: MAYBE}\n",
            ["`expect.verdict`", "unknown verdict"],
        ),
        ("- just\n- a list\n", ["bad.yaml", "a fixture is a mapping"]),
    ],
)
def test_a_malformed_fixture_is_a_usage_error_naming_the_file_and_the_field(
    tmp_path: Path, text: str, names: list[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke([str(path)], code=2)
    message = " ".join(result.output.split())
    assert message.startswith("error:")
    for name in names:
        assert name in message, message


def test_other_bad_inputs_are_usage_errors(tmp_path: Path) -> None:
    assert "no such fixture" in invoke([str(tmp_path / "missing.yaml")], code=2).output
    assert "is not a suite" in invoke(["--suite", "nope"], code=2).output
    assert "name fixture files or folders" in invoke([], code=2).output
    broken = tmp_path / "baseline.json"
    broken.write_text("{not json", encoding="utf-8")
    assert "not a baseline" in invoke([str(SHOWCASE), "--baseline", str(broken)], code=2).output
    twice = tmp_path / "twice"
    twice.mkdir()
    for name in ("a.yaml", "b.yaml"):
        shutil.copy(SHOWCASE / "english-slo.yaml", twice / name)
    assert "already defined in" in " ".join(invoke([str(twice)], code=2).output.split())


def test_the_business_agents_golden_set_runs_as_the_agent_suite() -> None:
    payload = json.loads(invoke(["--suite", "agent", "--json", "-j", "8"]).stdout)
    assert payload["suites"]["agent"] >= 30
    assert payload["summary"]["passed"] == payload["suites"]["agent"]
    assert all(case["observed"]["decision"] for case in payload["cases"])


def test_a_free_agent_turn_without_recorded_outputs_fails_on_its_misses_not_a_pass(tmp_path: Path) -> None:
    path = tmp_path / "turn.yaml"
    path.write_text(
        "id: free-turn\ninput:\n  kind: agent_turn\n  message: 一线城市出差住宿标准是多少？\n  session_state: {}\n",
        encoding="utf-8",
    )
    case = json.loads(invoke([str(path), "--json"], code=1).stdout)["cases"][0]
    assert case["status"] == "failed"
    assert any("did not record" in f for f in case["failures"])
    assert case["observed"]["replay_misses"][0].startswith("KNOWLEDGE_SEARCH")


def test_an_agent_turn_naming_an_unknown_golden_case_is_an_error_not_a_pass(tmp_path: Path) -> None:
    path = tmp_path / "turn.yaml"
    path.write_text(
        "id: golden-x\ninput:\n  kind: agent_turn\n  message: 我还有几天年假？\n"
        "  session_state: {golden_case: G-nope}\n",
        encoding="utf-8",
    )
    case = json.loads(invoke([str(path), "--json"], code=1).stdout)["cases"][0]
    assert case["status"] == "error"
    assert "names no golden case" in case["error"]


def test_with_record_every_eval_run_is_stored_and_has_a_trace(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    payload = json.loads(
        invoke(
            [str(SHOWCASE / "normal-err-timeout.yaml"), "--record", "--data-dir", str(data_dir), "--json"]
        ).stdout
    )
    seen = payload["cases"][0]["observed"]
    assert seen["recorded"] is True
    trace = CliRunner().invoke(app, ["trace", seen["run_id"], "--json", "--data-dir", str(data_dir)])
    assert trace.exit_code == 0, trace.output
    stored = json.loads(trace.stdout)
    assert stored["mode"] == "eval"
    assert stored["outputKind"] == "NORMAL"

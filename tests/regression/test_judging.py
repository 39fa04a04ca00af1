"""The rules a case is judged by, and the baseline's idea of "worse", on their own."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from groundgate.contracts import Verdict
from groundgate.regression.baseline import compare_baseline, make_baseline
from groundgate.regression.fixtures import Expectations, ReviewerExpected, parse_fixture
from groundgate.regression.judge import CaseResult, CaseStatus, FactSeen, Observed, contains, judge


def seen(**fields: object) -> Observed:
    base: dict[str, object] = {
        "run_id": "r1",
        "output_kind": "NORMAL",
        "verdict": "PASS",
        "rounds": 1,
        "groundedness": 1.0,
        "answer": "网关在 3 秒（3000 ms）内没有响应。[1]\n\n引用：\n[1] payment/errors.md > ERR_TIMEOUT",
        "cited_sources": ["payment/errors.md > ERR_TIMEOUT"],
        "key_facts": [FactSeen(text="网关在 3 秒（3000 ms）内没有响应。", category="direct_evidence")],
    }
    return Observed.model_validate({**base, **fields})


def result(key: str, status: CaseStatus, **fields: object) -> CaseResult:
    return CaseResult(key=key, id=key, suite="s", status=status, observed=seen(**fields))


def test_a_number_only_counts_where_no_digit_touches_it() -> None:
    assert contains("在 3 秒内", "3 秒")
    assert not contains("在 13 秒内", "3 秒")
    assert not contains("价格 3.5 元", "3")
    assert contains("ＥＲＲ_timeout", "err_TIMEOUT")  # width and case are folded


def test_every_unmet_expectation_is_named() -> None:
    expect = Expectations.model_validate(
        {
            "output_kind": "DEGRADED",
            "verdict": ["REJECT", "none"],
            "must_contain": [["5 秒", "5000 ms"]],
            "must_not_contain": ["3000 ms"],
            "cited_sources": ["payment/runbook.md"],
            "key_facts": [{"text": "3 秒", "category": "indirect_support"}],
            "tools_called": ["query_logs"],
            "min_groundedness": 1.0,
        }
    )
    assert judge(expect, seen()) == [
        "output kind is NORMAL, expected DEGRADED",
        "verdict is PASS, expected REJECT or none",
        "the answer lacks '5 秒' | '5000 ms'",
        "the answer states '3000 ms'",
        "no citation of 'payment/runbook.md'",
        "key fact '3 秒' is direct_evidence, expected indirect_support",
        "query_logs was not called",
    ]


def test_the_source_list_under_an_answer_is_not_part_of_what_it_states() -> None:
    assert judge(Expectations(must_not_contain=["ERR_TIMEOUT"]), seen()) == []


def test_a_reviewers_filled_fields_replace_the_captured_ones_and_the_rest_stay() -> None:
    captured = Expectations.model_validate({"output_kind": "LOW_CONFID_WITH_DISCLAIMER", "rounds": 2})
    assert captured.merged(ReviewerExpected()) == captured
    merged = captured.merged(ReviewerExpected.model_validate({"output_kind": "NORMAL", "note": "why"}))
    assert merged.output_kind == ["NORMAL"]
    assert merged.rounds == 2


def test_a_fixture_with_an_empty_reviewer_field_awaits_review() -> None:
    fixture = parse_fixture(
        {"id": "x", "input": {"kind": "question", "question": "q"}, "reviewer_expected": {"note": ""}},
        path="x.yaml",
    )
    assert fixture.reviewer_expected is not None
    assert not fixture.reviewer_expected.filled


def test_the_baseline_calls_worse_a_regression_and_anything_else_a_change() -> None:
    before = make_baseline(
        [
            result("a", CaseStatus.PASSED),
            result("b", CaseStatus.PASSED, output_kind="LOW_CONFID_WITH_DISCLAIMER", groundedness=0.6),
            result("c", CaseStatus.PASSED),
            result("gone", CaseStatus.PASSED),
        ]
    )
    after = [
        result("a", CaseStatus.FAILED, output_kind="DEGRADED", verdict=None, groundedness=0.0),
        result("b", CaseStatus.PASSED, output_kind="NORMAL", groundedness=0.98),
        result("c", CaseStatus.PASSED, groundedness=0.97),  # within the tolerance
        result("new", CaseStatus.PASSED),
    ]
    diff = compare_baseline(before, after)
    found = {(c.key, c.kind): c.regression for c in diff.changes}
    assert found[("a", "status")]
    assert found[("a", "output_kind")]
    assert found[("a", "groundedness")]
    assert not found[("a", "verdict")]
    assert not found[("b", "output_kind")]
    assert not found[("b", "groundedness")]
    assert found[("c", "groundedness")] is False
    assert found[("new", "new")] is False
    assert found[("gone", "missing")] is False
    assert diff.verdicts_before == {"PASS": 4}
    assert diff.verdicts_after == {"PASS": 3, "none": 1}
    assert before.created_at <= datetime.now(UTC)


def test_the_check_eval_report_is_one_offline_html_file_with_its_figures_as_json(tmp_path: Path) -> None:
    from groundgate.evaluation.scoring import evaluate
    from groundgate.regression import write_check_report

    report = evaluate(
        [
            ("supported", Verdict.PASS, "zh"),
            ("hallucinated", Verdict.REJECT, "zh"),
            ("hallucinated", Verdict.PASS, "en"),
        ]
    )
    page, figures = write_check_report(tmp_path / "check.html", report, source="labelled.jsonl")
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//", text, re.I)
    assert "REJECT precision" in text
    data = json.loads(figures.read_text(encoding="utf-8"))
    assert set(data["figures"]) == {"confusion", "breakdowns", "calibration"}
    assert data["report"]["flagged"]["count"] == 3

"""check-eval reporting: reliability table, lang/kind breakdowns, addresses_question findings, splits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groundgate.apps.grounding_check import run_eval
from groundgate.contracts import Verdict
from groundgate.evaluation.scoring.checker_scores import EvalAccumulator, bin_index, split_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("score", "expected"),
    [(0.0, 0), (0.19, 0), (0.2, 1), (0.55, 2), (0.79, 3), (0.8, 4), (1.0, 4), (-0.5, 0), (1.5, 4)],
)
def test_a_support_score_falls_in_one_of_five_bins(score: float, expected: int) -> None:
    assert bin_index(score) == expected


def test_the_reliability_table_counts_hallucinations_per_score_bin() -> None:
    acc = EvalAccumulator()
    for label, score in (
        ("hallucinated", 0.1),
        ("hallucinated", 0.15),
        ("supported", 0.1),
        ("supported", 0.9),
    ):
        acc.add(label, Verdict.PASS, score=score, score_source="support_score")  # type: ignore[arg-type]
    report = acc.report()
    assert [b.count for b in report.reliability] == [3, 0, 0, 0, 1]
    assert report.reliability[0].hallucinated == 2
    assert report.reliability[0].hallucination_rate == pytest.approx(0.6667)
    assert report.reliability[1].hallucination_rate is None
    assert report.reliability[4].hallucination_rate == 0.0
    assert report.score_source == "support_score"


def test_breakdowns_and_reject_precision_are_reported_per_field_value() -> None:
    acc = EvalAccumulator()
    rows = [
        ("hallucinated", Verdict.REJECT, {"lang": "zh", "kind": "entity_swap"}),
        ("supported", Verdict.REJECT, {"lang": "en", "kind": "paraphrase"}),
        ("supported", Verdict.PASS, {"lang": "zh", "kind": "paraphrase"}),
    ]
    for label, verdict, fields in rows:
        acc.add(label, verdict, fields=fields)  # type: ignore[arg-type]
    report = acc.report()
    assert report.reject_precision == 0.5
    assert set(report.breakdowns) == {"kind", "lang"}
    assert report.breakdowns["lang"]["zh"].reject_only.precision == 1.0
    assert report.breakdowns["kind"]["paraphrase"].flagged.count == 2


def test_addresses_question_findings_are_absent_until_the_checker_reports_them() -> None:
    acc = EvalAccumulator()
    acc.add("supported", Verdict.PASS)
    assert acc.report().addresses_question is None
    acc.add("hallucinated", Verdict.LOW_CONFID, addresses_question=False)
    acc.add("supported", Verdict.PASS, addresses_question=True)
    found = acc.report().addresses_question
    assert found is not None
    assert found.checked == 2
    assert found.not_addressing == {"supported": 0, "hallucinated": 1}


@pytest.mark.parametrize(
    ("item_id", "explicit", "same_as"),
    [
        ("HaluQA000001-0", None, "HaluQA000001-1"),
        ("HaluSum000042-1", None, "HaluSum000042-0"),
    ],
)
def test_both_answers_to_one_public_source_fall_in_the_same_split(
    item_id: str, explicit: str | None, same_as: str
) -> None:
    assert split_of(item_id, explicit) == split_of(same_as)


def test_an_explicit_split_field_wins_over_the_hash() -> None:
    assert split_of("HaluQA000001-0", "test") == "test"
    assert split_of("HaluQA000001-0", "tune") == "tune"


def test_the_hash_split_is_about_half_and_half() -> None:
    tune = sum(split_of(f"HaluQA{n:06d}-0") == "tune" for n in range(2000))
    assert 900 < tune < 1100


def test_run_eval_scores_only_the_requested_split_and_breaks_down_by_lang_and_kind(tmp_path: Path) -> None:
    context = "退款在 3 个工作日内原路退回。"
    rows = [
        {"id": "a", "split": "tune", "lang": "zh", "kind": "paraphrase", "context": context,
         "answer": "退款三个工作日内原路退回。", "label": "supported"},
        {"id": "b", "split": "test", "lang": "zh", "kind": "paraphrase", "context": context,
         "answer": "退款在 3 个工作日内原路退回。", "label": "supported"},
        {"id": "c", "split": "test", "lang": "zh", "kind": "changed_time", "context": context,
         "answer": "退款在 10 个工作日内原路退回。", "label": "hallucinated"},
    ]  # fmt: skip
    src = tmp_path / "labelled.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    report, summary = run_eval(src, split="test")
    assert summary.checked == 2
    assert set(report.breakdowns["kind"]) == {"paraphrase", "changed_time"}
    assert sum(b.count for b in report.reliability) == 2
    assert report.score_source in ("support_score", "groundedness_score")

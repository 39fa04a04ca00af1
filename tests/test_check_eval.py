"""check-eval figures: precision/recall/F1 of the hallucinated class and balanced accuracy."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.evaluation.check_eval import ConfusionCounts, evaluate, figures


def test_figures_from_counts() -> None:
    f = figures(ConfusionCounts(true_positive=8, false_positive=2, true_negative=6, false_negative=4))
    assert f.precision == pytest.approx(0.8)
    assert f.recall == pytest.approx(8 / 12, abs=1e-4)
    assert f.f1 == pytest.approx(2 * 0.8 * (8 / 12) / (0.8 + 8 / 12), abs=1e-4)
    assert f.balanced_accuracy == pytest.approx(((8 / 12) + 0.75) / 2, abs=1e-4)
    assert f.count == 20


def test_zero_denominators_are_zero_not_errors() -> None:
    f = figures(ConfusionCounts())
    assert (f.precision, f.recall, f.f1, f.balanced_accuracy) == (0.0, 0.0, 0.0, 0.0)


def test_low_confid_counts_as_flagged_but_not_in_reject_only() -> None:
    report = evaluate(
        [
            ("hallucinated", Verdict.REJECT, "zh"),
            ("hallucinated", Verdict.LOW_CONFID, "en"),
            ("hallucinated", Verdict.PASS, "en"),
            ("supported", Verdict.PASS, "zh"),
            ("supported", Verdict.LOW_CONFID, "zh"),
        ]
    )
    assert report.flagged.confusion == ConfusionCounts(
        true_positive=2, false_positive=1, true_negative=1, false_negative=1
    )
    assert report.reject_only.confusion == ConfusionCounts(
        true_positive=1, false_positive=0, true_negative=2, false_negative=2
    )
    assert report.confusion_table == {
        "supported": {"PASS": 1, "LOW_CONFID": 1},
        "hallucinated": {"REJECT": 1, "LOW_CONFID": 1, "PASS": 1},
    }
    assert set(report.by_group) == {"en", "zh"}
    assert report.by_group["en"].confusion.true_positive == 1

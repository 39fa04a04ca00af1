"""Scoring the grounding checker against labelled data (`groundgate check-eval`).

A line is labelled `supported` or `hallucinated`. The checker "flags" an answer when its verdict
is `LOW_CONFID` or `REJECT` (the main figures), or only when it is `REJECT` (the strict figures).
Figures are for the hallucinated class: precision, recall, F1, plus balanced accuracy.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from groundgate.contracts import Verdict

Label = Literal["supported", "hallucinated"]
LABELS: tuple[Label, ...] = ("supported", "hallucinated")


class ConfusionCounts(BaseModel):
    """Counts with `hallucinated` as the positive class."""

    model_config = ConfigDict(extra="forbid")

    true_positive: int = 0
    """Hallucinated and flagged."""
    false_positive: int = 0
    """Supported but flagged."""
    true_negative: int = 0
    false_negative: int = 0
    """Hallucinated but passed."""

    @property
    def total(self) -> int:
        return self.true_positive + self.false_positive + self.true_negative + self.false_negative


class EvalFigures(BaseModel):
    """Precision/recall/F1 of the hallucinated class and balanced accuracy."""

    model_config = ConfigDict(extra="forbid")

    count: int
    precision: float
    recall: float
    f1: float
    balanced_accuracy: float
    confusion: ConfusionCounts


def figures(counts: ConfusionCounts) -> EvalFigures:
    """Compute the figures; a ratio with a zero denominator is 0.0."""
    tp, fp, tn, fn = counts.true_positive, counts.false_positive, counts.true_negative, counts.false_negative
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    specificity = tn / (tn + fp) if tn + fp else 0.0
    return EvalFigures(
        count=counts.total,
        precision=round(precision, 4),
        recall=round(recall, 4),
        f1=round(f1, 4),
        balanced_accuracy=round((recall + specificity) / 2, 4),
        confusion=counts,
    )


@dataclass(slots=True)
class EvalAccumulator:
    """Streams (label, verdict) pairs into counts, overall and per group (e.g. language)."""

    flagged: ConfusionCounts = field(default_factory=ConfusionCounts)
    reject_only: ConfusionCounts = field(default_factory=ConfusionCounts)
    verdicts: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    """label → verdict → count: the confusion table."""
    groups: dict[str, ConfusionCounts] = field(default_factory=dict)

    def add(self, label: Label, verdict: Verdict, group: str | None = None) -> None:
        self.verdicts[label][verdict.value] += 1
        _count(self.flagged, label, verdict in (Verdict.LOW_CONFID, Verdict.REJECT))
        _count(self.reject_only, label, verdict == Verdict.REJECT)
        if group is not None:
            _count(
                self.groups.setdefault(group, ConfusionCounts()),
                label,
                verdict in (Verdict.LOW_CONFID, Verdict.REJECT),
            )

    def report(self) -> EvalReport:
        return EvalReport(
            flagged=figures(self.flagged),
            reject_only=figures(self.reject_only),
            confusion_table={label: dict(self.verdicts.get(label, {})) for label in LABELS},
            by_group={name: figures(counts) for name, counts in sorted(self.groups.items())},
        )


def _count(counts: ConfusionCounts, label: Label, flagged: bool) -> None:
    if label == "hallucinated":
        if flagged:
            counts.true_positive += 1
        else:
            counts.false_negative += 1
    elif flagged:
        counts.false_positive += 1
    else:
        counts.true_negative += 1


class EvalReport(BaseModel):
    """What `check-eval` prints."""

    model_config = ConfigDict(extra="forbid")

    flagged: EvalFigures
    """`LOW_CONFID` or `REJECT` counts as hallucinated."""
    reject_only: EvalFigures
    """Only `REJECT` counts as hallucinated."""
    confusion_table: dict[str, dict[str, int]]
    """label → verdict → count."""
    by_group: dict[str, EvalFigures]
    """The main figures per group (language by default)."""


def evaluate(pairs: Iterable[tuple[Label, Verdict, str | None]]) -> EvalReport:
    """Score (label, verdict, group) triples."""
    acc = EvalAccumulator()
    for label, verdict, group in pairs:
        acc.add(label, verdict, group)
    return acc.report()

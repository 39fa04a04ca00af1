"""Scoring the grounding checker against labelled data (`groundgate check-eval`).

A line is labelled `supported` or `hallucinated`. The checker "flags" an answer when its verdict
is `LOW_CONFID` or `REJECT` (the main figures), or only when it is `REJECT` (the strict figures).
Figures are for the hallucinated class: precision, recall, F1, plus balanced accuracy. REJECT
precision (how often a `REJECT` is really a hallucination) is the strict figures' precision.

Besides the figures, a report carries:

- a reliability table: the answer's support score (the lowest per-claim `support_score` of its key
  claims, or the groundedness score while the checker has no per-claim score) in five bins against
  the observed hallucination rate, so one can see whether the score means what it says;
- breakdowns per `lang` and per `kind` when the input lines carry those fields;
- the `addresses_question` findings (answers found not to address their question, by label),
  when the checker reports them.

`split_of` defines, once, the deterministic tune/test split that every figure in
docs/benchmarks.md uses: tune on `tune`, report `test`.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts import Verdict

Label = Literal["supported", "hallucinated"]
LABELS: tuple[Label, ...] = ("supported", "hallucinated")
Split = Literal["tune", "test"]
SPLITS: tuple[Split, ...] = ("tune", "test")

#: Upper edges of the reliability bins; the last bin includes 1.0.
RELIABILITY_EDGES: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0)

#: Public sets pair a supported and a hallucinated answer to one source as `…-0` / `…-1`: both must
#: land in the same split, or the tune split would leak the test split's sources.
_PAIR_SUFFIX = re.compile(r"-\d+$")
_SPLIT_SALT = "groundgate-check-split-v1"


def split_of(item_id: object, explicit: object = None) -> Split:
    """The split of a labelled line: its own `split` field when it has one, else a hash of its id.

    The hash is of the id without a trailing `-N` (the pair member), salted and stable across
    Python versions and machines (sha256, not `hash()`); about half the sources go to each split.
    """
    if explicit in SPLITS:
        return explicit
    base = _PAIR_SUFFIX.sub("", str(item_id))
    digest = hashlib.sha256(f"{_SPLIT_SALT}:{base}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "test"


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


class ReliabilityBin(BaseModel):
    """Answers whose support score is in [low, high) (the last bin includes 1.0)."""

    model_config = ConfigDict(extra="forbid")

    low: float
    high: float
    count: int
    hallucinated: int
    hallucination_rate: float | None
    """`hallucinated / count`, None for an empty bin."""
    mean_score: float | None
    """Mean support score in the bin: a calibrated score has rate ≈ 1 − mean_score."""


class GroupFigures(BaseModel):
    """Figures for one value of a breakdown field (e.g. `lang = zh`)."""

    model_config = ConfigDict(extra="forbid")

    flagged: EvalFigures
    reject_only: EvalFigures


class AddressesFindings(BaseModel):
    """Answers the checker found not to address their question, by gold label."""

    model_config = ConfigDict(extra="forbid")

    checked: int
    """Answers for which the checker reported `addresses_question` at all."""
    not_addressing: dict[str, int]
    """label → how many answers were found not to address the question."""


def bin_index(score: float) -> int:
    """The reliability bin of a score (clamped to [0, 1])."""
    clamped = min(max(score, 0.0), 1.0)
    for index, high in enumerate(RELIABILITY_EDGES):
        if clamped < high:
            return index
    return len(RELIABILITY_EDGES) - 1


@dataclass(slots=True)
class _Bin:
    count: int = 0
    hallucinated: int = 0
    score_sum: float = 0.0


@dataclass(slots=True)
class _Pair:
    flagged: ConfusionCounts = field(default_factory=ConfusionCounts)
    reject_only: ConfusionCounts = field(default_factory=ConfusionCounts)

    def add(self, label: Label, verdict: Verdict) -> None:
        _count(self.flagged, label, verdict in (Verdict.LOW_CONFID, Verdict.REJECT))
        _count(self.reject_only, label, verdict == Verdict.REJECT)

    def figures(self) -> GroupFigures:
        return GroupFigures(flagged=figures(self.flagged), reject_only=figures(self.reject_only))


@dataclass(slots=True)
class EvalAccumulator:
    """Streams (label, verdict) pairs into counts, overall and per group (e.g. language)."""

    flagged: ConfusionCounts = field(default_factory=ConfusionCounts)
    reject_only: ConfusionCounts = field(default_factory=ConfusionCounts)
    verdicts: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    """label → verdict → count: the confusion table."""
    groups: dict[str, ConfusionCounts] = field(default_factory=dict)
    breakdowns: dict[str, dict[str, _Pair]] = field(default_factory=dict)
    """field (lang, kind) → value → counts."""
    bins: list[_Bin] = field(default_factory=lambda: [_Bin() for _ in RELIABILITY_EDGES])
    score_sources: set[str] = field(default_factory=set)
    addresses_checked: int = 0
    not_addressing: dict[str, int] = field(default_factory=dict)

    def add(
        self,
        label: Label,
        verdict: Verdict,
        group: str | None = None,
        *,
        score: float | None = None,
        score_source: str | None = None,
        fields: Mapping[str, str] | None = None,
        addresses_question: bool | None = None,
    ) -> None:
        self.verdicts[label][verdict.value] += 1
        _count(self.flagged, label, verdict in (Verdict.LOW_CONFID, Verdict.REJECT))
        _count(self.reject_only, label, verdict == Verdict.REJECT)
        if group is not None:
            _count(
                self.groups.setdefault(group, ConfusionCounts()),
                label,
                verdict in (Verdict.LOW_CONFID, Verdict.REJECT),
            )
        for name, value in (fields or {}).items():
            self.breakdowns.setdefault(name, {}).setdefault(value, _Pair()).add(label, verdict)
        if score is not None:
            cell = self.bins[bin_index(score)]
            cell.count += 1
            cell.hallucinated += label == "hallucinated"
            cell.score_sum += min(max(score, 0.0), 1.0)
            if score_source:
                self.score_sources.add(score_source)
        if addresses_question is not None:
            self.addresses_checked += 1
            if not addresses_question:
                self.not_addressing[label] = self.not_addressing.get(label, 0) + 1

    def report(self) -> EvalReport:
        lows = (0.0, *RELIABILITY_EDGES[:-1])
        reliability = [
            ReliabilityBin(
                low=low,
                high=high,
                count=cell.count,
                hallucinated=cell.hallucinated,
                hallucination_rate=round(cell.hallucinated / cell.count, 4) if cell.count else None,
                mean_score=round(cell.score_sum / cell.count, 4) if cell.count else None,
            )
            for low, high, cell in zip(lows, RELIABILITY_EDGES, self.bins, strict=True)
        ]
        return EvalReport(
            flagged=figures(self.flagged),
            reject_only=figures(self.reject_only),
            reject_precision=figures(self.reject_only).precision,
            confusion_table={label: dict(self.verdicts.get(label, {})) for label in LABELS},
            by_group={name: figures(counts) for name, counts in sorted(self.groups.items())},
            breakdowns={
                name: {value: pair.figures() for value, pair in sorted(values.items())}
                for name, values in sorted(self.breakdowns.items())
            },
            reliability=reliability,
            score_source="+".join(sorted(self.score_sources)) or None,
            addresses_question=(
                AddressesFindings(
                    checked=self.addresses_checked,
                    not_addressing={label: self.not_addressing.get(label, 0) for label in LABELS},
                )
                if self.addresses_checked
                else None
            ),
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
    reject_precision: float = 0.0
    """Of the answers the checker rejected, the share that are really hallucinated."""
    confusion_table: dict[str, dict[str, int]]
    """label → verdict → count."""
    by_group: dict[str, EvalFigures]
    """The main figures per group (language by default)."""
    breakdowns: dict[str, dict[str, GroupFigures]] = Field(default_factory=dict)
    """field (`lang`, `kind`) → value → figures, for the fields the input lines carry."""
    reliability: list[ReliabilityBin] = Field(default_factory=list)
    """Support-score bins against the observed hallucination rate."""
    score_source: str | None = None
    """Which score the reliability table bins: `support_score` or `groundedness_score`."""
    addresses_question: AddressesFindings | None = None
    """None when the checker does not report whether an answer addresses its question."""


def evaluate(pairs: Iterable[tuple[Label, Verdict, str | None]]) -> EvalReport:
    """Score (label, verdict, group) triples."""
    acc = EvalAccumulator()
    for label, verdict, group in pairs:
        acc.add(label, verdict, group)
    return acc.report()

"""Benchmark scoring: how well the grounding checker does on labelled data.

`checker_scores` computes precision, recall, F1, balanced accuracy, `REJECT` precision and a
reliability table, per split (`tune` / `test`), language and kind — what `groundgate check-eval`
prints and `benchmarks/eval_checker.py` records in docs/benchmarks.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # the lazy names, for type checkers and editors
    from groundgate.evaluation.scoring.checker_scores import (
        AddressesFindings,
        ConfusionCounts,
        EvalAccumulator,
        EvalFigures,
        EvalReport,
        GroupFigures,
        ReliabilityBin,
        bin_index,
        evaluate,
        figures,
        split_of,
    )

# Public name → the module that defines it (loaded on first use, PEP 562).
_HOMES: dict[str, str] = {
    "AddressesFindings": "groundgate.evaluation.scoring.checker_scores",
    "ConfusionCounts": "groundgate.evaluation.scoring.checker_scores",
    "EvalAccumulator": "groundgate.evaluation.scoring.checker_scores",
    "EvalFigures": "groundgate.evaluation.scoring.checker_scores",
    "EvalReport": "groundgate.evaluation.scoring.checker_scores",
    "GroupFigures": "groundgate.evaluation.scoring.checker_scores",
    "ReliabilityBin": "groundgate.evaluation.scoring.checker_scores",
    "bin_index": "groundgate.evaluation.scoring.checker_scores",
    "evaluate": "groundgate.evaluation.scoring.checker_scores",
    "figures": "groundgate.evaluation.scoring.checker_scores",
    "split_of": "groundgate.evaluation.scoring.checker_scores",
}

__all__ = [
    # checker scores
    "evaluate",
    "EvalAccumulator",
    "EvalReport",
    "EvalFigures",
    "GroupFigures",
    "ConfusionCounts",
    "ReliabilityBin",
    "AddressesFindings",
    "figures",
    "split_of",
    "bin_index",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

"""Evaluation, in two rooms that do not meet:

- **run self-evaluation** (part of the pure core; docs/design.md §4–§5): `self_evaluation` (the
  `self_evaluation` container, one slot per writer) and `rule_evaluation` (the rule score of a
  recorded run). Pure functions; the store calls them.
- **benchmark scoring** (`evaluation.scoring`): scoring the grounding checker on labelled data
  (`groundgate check-eval`, `benchmarks/eval_checker.py`). It reads nothing itself either, but it
  is a tool for measuring, not part of answering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # the lazy names, for type checkers and editors
    from groundgate.evaluation.rule_evaluation import (
        InvocationRecord,
        evaluate_rules,
    )
    from groundgate.evaluation.self_evaluation import (
        load_container,
        parse_self_evaluation,
        put_slot,
        wrap_legacy,
    )

# Public name → the module that defines it (loaded on first use, PEP 562).
_HOMES: dict[str, str] = {
    "InvocationRecord": "groundgate.evaluation.rule_evaluation",
    "evaluate_rules": "groundgate.evaluation.rule_evaluation",
    "load_container": "groundgate.evaluation.self_evaluation",
    "parse_self_evaluation": "groundgate.evaluation.self_evaluation",
    "put_slot": "groundgate.evaluation.self_evaluation",
    "wrap_legacy": "groundgate.evaluation.self_evaluation",
}

__all__ = [
    # run self-evaluation
    "load_container",
    "put_slot",
    "parse_self_evaluation",
    "wrap_legacy",
    "InvocationRecord",
    "evaluate_rules",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

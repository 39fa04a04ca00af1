"""Run limits as one value object (docs/design.md §1 invariant 7), built from configuration by the entry points."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budgets:
    """Every limit of one run."""

    max_rounds: int = 2
    """Evidence rounds; the second only with a retry context naming missing evidence (docs/design.md §2)."""
    max_tool_calls: int = 8
    """Tool calls over the whole run."""
    max_calls_per_round: int = 5
    max_candidates: int = 20
    """Evidence items (documents + facts) handed to the executor and verifier."""
    wall_seconds: float = 60.0
    """The whole run; past it no new step starts and the run ends in a controlled way."""
    low_confidence_threshold: float = 0.5
    """`LOW_CONFID` at or above this score is answered with a disclaimer; below it, one more round."""
    follow_up_without_evidence: bool = True
    """After a first round that found nothing qualified, a question about a day or time gets the one
    follow-up round (live evidence of that window). Off for a planner whose first round already
    reads every source of the window (an alert diagnosis)."""

    def __post_init__(self) -> None:
        if not 1 <= self.max_rounds <= 2:
            raise ValueError("max_rounds must be 1 or 2: a third step may only ask to clarify or end")
        if self.max_tool_calls < 1 or self.max_calls_per_round < 1 or self.max_candidates < 1:
            raise ValueError("tool-call and candidate budgets must be at least 1")
        if self.wall_seconds <= 0:
            raise ValueError("wall_seconds must be positive")
        if not 0.0 <= self.low_confidence_threshold <= 1.0:
            raise ValueError("low_confidence_threshold must be within [0, 1]")

"""Facts the context states, told the wrong way round: one place for the readers of order and direction.

Each reader finds a claim whose words are all in the context, so support scoring passes it, while the
claim turns a relation round (docs/design.md §2.1, "Session 31" and "Session 32"): a time order
(`temporal_order`), numbered steps (`step_order`), who did it to whom (`voice`), which way a change went
(`directions`), or which side of a bound a figure lies (`stated_comparisons`). The first reader that
finds something speaks; its findings are `no_evidence` reason codes. Pure: no I/O.
"""

from __future__ import annotations

from groundgate.verify.directions import from_to_swapped
from groundgate.verify.stated_comparisons import comparison_wrong
from groundgate.verify.step_order import steps_swapped
from groundgate.verify.temporal_order import order_swaps
from groundgate.verify.voice import voice_reversed

__all__ = ["turned_round"]


def turned_round(claim: str, context: str) -> list[str]:
    """The reason codes of the first reader that finds the claim turning a relation of `context` round."""
    return (
        order_swaps(claim, context)
        or steps_swapped(claim, context)
        or voice_reversed(claim, context)
        or from_to_swapped(claim, context)
        or comparison_wrong(claim)
    )

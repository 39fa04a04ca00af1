"""The time budget of one grounding check: a deadline on an injected clock, and its reason code.

A check that runs past its deadline does not stop half-way through a claim: the checker looks at the
deadline between claims (and between passages while it indexes the context), and every claim it did
not reach is `no_evidence` with the reason code `budget:time_exceeded`; `check_request` then refuses
`PASS` for the answer. No I/O and no wall clock here: the caller passes the clock (`time.monotonic`
in production, a fake in tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: The reason code of a claim (and the rationale of a result) cut short by the time budget.
BUDGET_TIME_EXCEEDED = "budget:time_exceeded"
#: The reason code of a claim with more mentions than `fidelity.MAX_CLAIM_MENTIONS` (not all checked).
BUDGET_TOO_MANY_MENTIONS = "budget:too_many_mentions"


@dataclass(frozen=True, slots=True)
class Deadline:
    """A point on `clock`'s time line past which a check stops assessing claims."""

    at: float
    clock: Callable[[], float]

    @classmethod
    def after(cls, seconds: float, clock: Callable[[], float]) -> Deadline:
        """The deadline `seconds` from now on `clock`."""
        return cls(clock() + seconds, clock)

    def expired(self) -> bool:
        return self.clock() >= self.at

"""A window statistic computed for a need that nothing stated meets: stated beside the rest.

"按恢复标准（0.5% 以下），它是几点回到正常的", "from which minute was it back at the 99.5% objective": the
executor computes the asked statistic from the series' raw points (`runtime.window_stats`: the first
minute back under or back at the asked level), and the verifier confirms it from the cited points. The
need matcher may still hold it unmet — the part's other words (`连接池手册`, `objective`) name where the
threshold comes from, which a statement over the series never says — and then nothing would show the one
figure the part asks. Like the order store's summary line (Session 31, round 5), it is stated beside
whatever else answers; it meets nothing by itself, so the answer keeps its disclaimer unless the need
matcher says it meets the need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from groundgate.contracts import QuestionNeeds

__all__ = ["computed_for_unmet"]

#: At most this many computed statements per unmet need (a status class asks one per code, and
#: those are stated together already when one of them meets the need).
_PER_NEED = 2


class _HasText(Protocol):
    @property
    def text(self) -> str: ...


class _Match(Protocol):
    @property
    def met(self) -> bool: ...


class _Scored(Protocol):
    @property
    def unit(self) -> _HasText: ...

    @property
    def matches(self) -> Mapping[str, _Match]: ...


S = TypeVar("S", bound=_Scored)


def computed_for_unmet(
    needs: QuestionNeeds, scored: Sequence[S], chosen: Sequence[S], computed: Mapping[str, Sequence[str]]
) -> list[S]:
    """The scored units of the statistics computed for each need no chosen unit meets."""
    extra: list[S] = []
    for need in needs.needs:
        texts = computed.get(need.id) or ()
        if not texts or any(c.matches[need.id].met for c in chosen):
            continue
        found = [s for s in scored if s.unit.text in texts and s not in chosen and s not in extra]
        extra += found[:_PER_NEED]
    return extra

"""The closest on-topic statement for a part that nothing chosen meets, stated beside the rest.

"Before launch: what are acme's contracted quotas for POST /api/v1/pay (sustained and burst) and for
GET /api/v1/pay/orders/{order_id}, and which gateway config key holds our pay quota?": the second part
is met (`gateway.ratelimit.tenant.{tenant}.pay_qps`), the first is not (its English words `sustained`
and `burst` are never checked against the Chinese contract sentence). When no part was met at all, the
two statements closest to the question were already stated with the disclaimer; but as soon as one part
was met, the other parts' closest statements were dropped, so splitting a question into its parts
(a lead-in, `questions/lead_ins.py`) lost the one sentence that gives `600 QPS, 突发上限 1000, 3000 QPS`.
Now each part that nothing chosen meets gets its closest on-topic statement (the right names, most of the
words, no contradicting case: `NeedMatch.on_topic`) beside the rest, unless a chosen statement already
speaks of the part at least as closely: the 158 days of maternity leave, farther from "男员工陪产假有几天"
than the chosen 10 days of paternity leave, were a trap value beside them. It meets nothing by itself, so the
part stays a gap and the answer keeps its disclaimer (docs/design.md §8).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeVar

from groundgate.contracts import QuestionNeeds

__all__ = ["closest_for_unmet"]


class _Match(Protocol):
    @property
    def met(self) -> bool: ...

    @property
    def on_topic(self) -> bool: ...

    @property
    def score(self) -> float: ...


class _Order(Protocol):
    @property
    def order(self) -> int: ...


class _Scored(Protocol):
    @property
    def unit(self) -> _Order: ...

    @property
    def matches(self) -> Mapping[str, _Match]: ...

    @property
    def bonus(self) -> float: ...


S = TypeVar("S", bound=_Scored)


def closest_for_unmet(
    needs: QuestionNeeds, scored: Sequence[S], chosen: Sequence[S], allowed: Callable[[S], bool], room: int
) -> list[S]:
    """For each need no chosen unit meets (only when some unit was chosen), the on-topic unit closest to
    it when it is closer than every chosen unit on topic for it, at most `room` in all."""
    extra: list[S] = []
    if not chosen:
        return extra  # nothing met at all: the two units closest to the question are stated instead
    for need in needs.needs:
        if len(extra) >= room:
            break
        if any(c.matches[need.id].met for c in [*chosen, *extra]):
            continue
        near = sorted(
            (s for s in scored if s.matches[need.id].on_topic and s not in chosen and s not in extra),
            key=lambda s: (-(s.matches[need.id].score + s.bonus), s.unit.order),
        )
        best = next((s for s in near if allowed(s)), None)
        said = max(
            (c.matches[need.id].score for c in [*chosen, *extra] if c.matches[need.id].on_topic), default=None
        )
        if best is not None and (said is None or best.matches[need.id].score > said):
            extra.append(best)  # only closer to the part than what the answer already says of it
    return extra

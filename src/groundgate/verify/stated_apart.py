"""What the context states, but apart from what the claim joins it to.

Every word of such a claim is in the context, often in one window, so support scoring rates it well:
a figure of a neighbouring row, an approver the context gives another task, a remark credited to
another speaker, a hedge or a condition dropped, a scope widened, an obligation added or dropped.
Each finding is a reason code that makes the claim `no_evidence` (not shown), never `contradicted`
(docs/design.md §2.1). This module gathers the readers in one call for the offline checker. Pure: no
I/O.
"""

from __future__ import annotations

from groundgate.verify import fidelity
from groundgate.verify.bindings import unbound_agents
from groundgate.verify.certainty import (
    agreement_added,
    causation_not_shown,
    cause_hedged,
    certainty_added,
    exception_added,
    hedge_dropped,
    obligation_added,
    obligation_dropped,
    only_widened,
    qualified_widened,
    scope_widened,
)
from groundgate.verify.persistence import persistence_dropped
from groundgate.verify.speakers import speaker_swaps

__all__ = ["stated_apart"]


def stated_apart(
    claim: str,
    aligned: str | fidelity.EvidenceIndex,
    evidence: fidelity.EvidenceIndex,
    context: str,
    *,
    check_figures: bool,
) -> list[str]:
    """Reason codes for what the context states, but apart from what the claim joins it to: a figure
    of a neighbouring row (only against a well-aligned window) and an agent the context gives another
    task ("慢查询告警由周敏负责" where 周敏 owns the SQL review). Not shown, never contradicted."""
    codes = _figures_from_elsewhere(claim, aligned, evidence) if check_figures else []
    codes += [f"agent_unbound:{b.agent}" for b in unbound_agents(claim, context)[:2]]
    codes += [f"speaker_other:{s.claimed}/{s.stated}" for s in speaker_swaps(claim, context)[:1]]
    codes += (
        certainty_added(claim, context)
        or agreement_added(claim, context)
        or hedge_dropped(claim, context)
        or cause_hedged(claim, context)
    )
    codes += causation_not_shown(claim, context)
    codes += exception_added(claim, context) + (
        scope_widened(claim, context) or only_widened(claim, context) or qualified_widened(claim, context)
    )
    codes += obligation_dropped(claim, context) or obligation_added(claim, context)
    return codes + persistence_dropped(claim, context)


def _figures_from_elsewhere(
    claim: str, aligned: str | fidelity.EvidenceIndex, evidence: fidelity.EvidenceIndex
) -> list[str]:
    """The reason code when a figure exists in the context but the well-aligned window states another
    one of its sort: taken from a neighbouring row or subject, so not shown (never REJECT)."""
    if not aligned:
        return []
    elsewhere = fidelity.figures_read_elsewhere(claim, aligned, evidence)
    return ["figure_from_elsewhere:" + ",".join(elsewhere[:3])] if elsewhere else []

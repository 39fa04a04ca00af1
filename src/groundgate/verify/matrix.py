"""The verdict matrix and the groundedness score of seed 000, in code (DESIGN invariant 4).

A model (or the offline checker) only classifies facts; verdict and score are computed here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from groundgate.contracts import FactCategory, Verdict

#: Seed 000 "groundedness_score 计算".
CATEGORY_SCORES: dict[FactCategory, float] = {
    FactCategory.DIRECT_EVIDENCE: 1.0,
    FactCategory.INDIRECT_SUPPORT: 0.6,
    FactCategory.NO_EVIDENCE: 0.0,
    FactCategory.CONTRADICTED: 0.0,
}


@dataclass(frozen=True, slots=True)
class VerdictOutcome:
    """Verdict, score and the one-line reason, computed from key-fact categories."""

    verdict: Verdict
    groundedness_score: float
    critical_fact_count: int
    reason: str


def groundedness_score(key_categories: Iterable[FactCategory]) -> float:
    """Mean of the category scores over key facts, clamped to [0, 1]; 0.0 on any contradiction.

    With no key facts there is nothing anchored, so the score is 0.0.
    """
    categories = list(key_categories)
    if not categories or FactCategory.CONTRADICTED in categories:
        return 0.0
    mean = sum(CATEGORY_SCORES[c] for c in categories) / len(categories)
    return round(min(1.0, max(0.0, mean)), 4)


def compute_verdict(key_categories: Iterable[FactCategory]) -> VerdictOutcome:
    """Apply seed 000's matrix to the categories of the key facts.

    - any `contradicted` → `REJECT`, score 0.0;
    - all `direct_evidence`/`indirect_support` and at least one `direct_evidence` → `PASS`;
    - otherwise (some `no_evidence`, or only indirect support) → `LOW_CONFID`.

    Zero key facts → `LOW_CONFID` with score 0.0: `PASS` needs at least one direct anchor, and an
    answer that states nothing checkable has proved nothing (fail-closed).
    """
    categories = list(key_categories)
    count = len(categories)
    score = groundedness_score(categories)
    if count == 0:
        return VerdictOutcome(Verdict.LOW_CONFID, 0.0, 0, "no_key_facts")
    if FactCategory.CONTRADICTED in categories:
        return VerdictOutcome(Verdict.REJECT, 0.0, count, "key_fact_contradicted")
    if FactCategory.NO_EVIDENCE in categories:
        return VerdictOutcome(Verdict.LOW_CONFID, score, count, "key_fact_without_evidence")
    if FactCategory.DIRECT_EVIDENCE not in categories:
        return VerdictOutcome(Verdict.LOW_CONFID, score, count, "only_indirect_support")
    return VerdictOutcome(Verdict.PASS, score, count, "all_key_facts_supported")

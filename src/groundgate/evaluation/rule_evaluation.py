"""Rule evaluation (docs/design.md §5, `EvaluationService`): evidence-collection sufficiency, 0-100.

Pure: it consumes invocation records (from `tool_invocation` rows or `ToolResult`s) and the run's
execution status, and returns the `rule_evaluation` slot. It never calls a model.

| rule                     | condition                                   | delta  |
|--------------------------|---------------------------------------------|--------|
| `execution_failed`       | run status = `FAILED`                       | 0 flat |
| `no_tool_call`           | no tool invocation                          | 0 flat |
| `has_successful_tool_call` | at least one call succeeded (OK or EMPTY) | +30    |
| `l0_exact_match`         | any call has an L0 hit                      | +35    |
| `l1_semantic_match`      | no L0 hit but an L1 hit                     | +20    |
| `retrieval_no_hit`       | retrieval calls were made, none hit         | -10    |
| `all_tool_calls_failed`  | every call ERROR/TIMEOUT/DENIED             | -20    |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgate.contracts.enums import RetrievalLayer, ToolStatus
from groundgate.contracts.tools import ToolResult
from groundgate.contracts.verification import RuleEvaluation, RuleFactor

SUCCESS_STATUSES = frozenset({ToolStatus.OK.value, ToolStatus.EMPTY.value})
RETRIEVAL_TOOLS = frozenset({"lookup_knowledge", "search_knowledge", "search_docs", "knowledge_search"})
"""Tools that are retrieval calls even when they report no layer."""


@dataclass(frozen=True)
class InvocationRecord:
    """What the rules need of one tool invocation."""

    tool: str
    status: str
    retrieval_layers: tuple[str, ...] = ()
    evidence_ref_count: int = 0
    is_retrieval: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def succeeded(self) -> bool:
        return self.status in SUCCESS_STATUSES

    @property
    def hit_layers(self) -> frozenset[str]:
        return frozenset(self.retrieval_layers) if self.status == ToolStatus.OK.value else frozenset()

    @classmethod
    def from_tool_result(cls, result: ToolResult) -> InvocationRecord:
        layers = tuple(str(layer) for layer in result.retrieval_layers)
        layers += tuple(str(d.retrieval_layer) for d in result.documents if d.retrieval_layer)
        return cls(
            tool=result.tool,
            status=str(result.status),
            retrieval_layers=tuple(dict.fromkeys(layers)),
            evidence_ref_count=len(result.evidence_refs),
            is_retrieval=bool(layers) or result.tool in RETRIEVAL_TOOLS,
        )

    @classmethod
    def from_row(
        cls, *, tool: str, status: str, retrieval_details: Mapping[str, Any] | None
    ) -> InvocationRecord:
        details = retrieval_details or {}
        layers = tuple(str(x) for x in details.get("retrieval_layers") or ())
        refs = details.get("evidence_refs") or ()
        return cls(
            tool=tool,
            status=status,
            retrieval_layers=layers,
            evidence_ref_count=len(refs),
            is_retrieval=bool(details.get("is_retrieval")) or bool(layers) or tool in RETRIEVAL_TOOLS,
        )


def evaluate_rules(invocations: Iterable[InvocationRecord], *, run_status: str) -> RuleEvaluation:
    """Apply the docs/design.md §5 table; the score is clipped to [0, 100]."""
    records: Sequence[InvocationRecord] = list(invocations)
    if run_status == "FAILED":
        return RuleEvaluation(
            evidence_score=0,
            factors=[RuleFactor(rule="execution_failed", delta=0, detail="run status FAILED")],
        )
    if not records:
        return RuleEvaluation(
            evidence_score=0, factors=[RuleFactor(rule="no_tool_call", delta=0, detail="no tool invocation")]
        )
    factors: list[RuleFactor] = []
    succeeded = [r for r in records if r.succeeded]
    if succeeded:
        factors.append(
            RuleFactor(
                rule="has_successful_tool_call", delta=30, detail=f"{len(succeeded)}/{len(records)} succeeded"
            )
        )
    hits = frozenset().union(*(r.hit_layers for r in records))
    if RetrievalLayer.L0.value in hits:
        factors.append(RuleFactor(rule="l0_exact_match", delta=35, detail="an L0 exact-identifier hit"))
    elif RetrievalLayer.L1.value in hits:
        factors.append(RuleFactor(rule="l1_semantic_match", delta=20, detail="an L1 hit without L0"))
    retrieval = [r for r in records if r.is_retrieval]
    if retrieval and not any(r.hit_layers for r in retrieval):
        factors.append(
            RuleFactor(
                rule="retrieval_no_hit", delta=-10, detail=f"{len(retrieval)} retrieval call(s), no hit"
            )
        )
    if not succeeded:
        factors.append(
            RuleFactor(rule="all_tool_calls_failed", delta=-20, detail=f"{len(records)} call(s) failed")
        )
    score = max(0, min(100, sum(f.delta for f in factors)))
    return RuleEvaluation(evidence_score=score, factors=factors)

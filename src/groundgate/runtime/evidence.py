"""Qualified evidence of a run, in one shape for the executor, the gatekeeper and the verifier."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from groundgate.contracts import EvidenceType, ToolResult, ToolStatus, VerifiedFact
from groundgate.verify.gatekeeper import render_fact_value


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    """One document passage or verified fact that a claim may cite."""

    invocation_id: str
    citation_id: str
    tool: str
    source: str
    text: str
    """What the verifier reads: the passage, or the fact rendered as a readable line."""
    quote_text: str
    """What a citation's excerpt must be quoted from (the gatekeeper checks against this)."""
    evidence_type: EvidenceType
    round: int
    score: float = 0.0


def render_fact(fact: VerifiedFact) -> str:
    """A readable one-line rendering of a fact: `order.status: status FAILED, failure_code ERR_TIMEOUT`."""
    value = fact.value
    if isinstance(value, dict):
        parts = [f"{key} {_plain(val)}" for key, val in value.items() if val not in (None, "", [], {})]
        body = ", ".join(parts)
    else:
        body = _plain(value)
    return f"{fact.fact_type}: {body}"


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def qualified_evidence(results: Iterable[ToolResult], *, limit: int) -> list[EvidenceItem]:
    """Evidence from successful calls, at most `limit` items (the candidate budget).

    Only `OK` results qualify. Items are taken round-robin across calls, each call's best first, so
    a second-round call is not crowded out by a first-round one that returned many items.
    """
    per_call = [_items_of(result) for result in results if result.status is ToolStatus.OK]
    items: list[EvidenceItem] = []
    depth = 0
    while len(items) < limit and any(depth < len(call) for call in per_call):
        items.extend(call[depth] for call in per_call if depth < len(call))
        depth += 1
    return items[:limit]


def _items_of(result: ToolResult) -> list[EvidenceItem]:
    items: list[EvidenceItem] = []
    for doc in result.documents:
        items.append(
            EvidenceItem(
                invocation_id=result.invocation_id,
                citation_id=doc.citation_id,
                tool=result.tool,
                source=doc.source + (f" > {doc.heading}" if doc.heading else ""),
                text=doc.text,
                quote_text=doc.text,
                evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
                round=result.round,
                score=doc.score or 0.0,
            )
        )
    for fact in result.facts:
        items.append(
            EvidenceItem(
                invocation_id=result.invocation_id,
                citation_id=fact.fact_ref,
                tool=result.tool,
                source=f"{fact.source_system}:{fact.fact_ref}",
                text=render_fact(fact),
                quote_text=render_fact_value(fact.value),
                evidence_type=EvidenceType.VERIFIED_FACT,
                round=result.round,
            )
        )
    return items


def evidence_by_ref(items: Sequence[EvidenceItem]) -> dict[tuple[str, str], EvidenceItem]:
    """Index evidence by (invocation id, citation id)."""
    return {(item.invocation_id, item.citation_id): item for item in items}

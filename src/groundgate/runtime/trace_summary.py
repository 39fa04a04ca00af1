"""`tool_trace_summary` exactly as seed 000 asks ("tool_trace_summary 最小结构", "摘要压缩规则").

- evidence tools only (auxiliary tools such as the clock never appear);
- one minimal evidence summary per call, 1-3 sentences on what it proved or failed to prove;
- failed calls are kept with `success=false`, `evidence_level=none`;
- repeated calls on the same tool, topic and round are folded into one entry that keeps the first
  effective hit and counts the extra, missed and failed calls;
- when too long, entries are kept by the seed's priority: evidence the answer cites, evidence for
  root-cause claims, evidence for fix claims, evidence related to the retry context's gaps.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from groundgate.contracts import (
    ClaimType,
    EvidenceLevel,
    ExecutorOutput,
    RetrievalLayer,
    ToolKind,
    ToolResult,
    ToolStatus,
    ToolTraceSummaryEntry,
)

_TOPIC_KEYS = ("domain", "service", "name", "trace_id", "order_id")
_FAILED = frozenset({ToolStatus.ERROR, ToolStatus.TIMEOUT, ToolStatus.DENIED})


def _topic(result: ToolResult) -> str:
    for key in _TOPIC_KEYS:
        value = result.arguments.get(key)
        if value:
            return f"{key}={value}"
    return "general"


def _input_summary(result: ToolResult) -> str:
    shown = ", ".join(f"{k}={v!s}"[:80] for k, v in result.arguments.items() if v not in (None, "", [], {}))
    return f"{result.tool}({shown})"


def _evidence_level(result: ToolResult) -> EvidenceLevel:
    if result.status is not ToolStatus.OK or not (result.documents or result.facts):
        return EvidenceLevel.NONE
    if result.facts or RetrievalLayer.L0 in result.retrieval_layers or "high" in result.relevance_levels:
        return EvidenceLevel.DIRECT
    return EvidenceLevel.INDIRECT


def _output_summary(result: ToolResult) -> str:
    """1-3 sentences: what the call proved, or why it proved nothing."""
    if result.status in _FAILED:
        return f"{result.status.value}: {result.error or 'the call failed'}."
    if result.status is ToolStatus.EMPTY or not (result.documents or result.facts):
        gap = f" Not found: {result.gaps[0]}." if result.gaps else ""
        return f"No matching evidence.{gap}"
    sentences = [result.observation.rstrip(".") + "." if result.observation else ""]
    sources = list(dict.fromkeys(result.source_documents or [d.source for d in result.documents]))
    if sources:
        sentences.append("Sources: " + ", ".join(sources[:3]) + ("." if len(sources) <= 3 else ", …"))
    elif result.facts:
        kinds = ", ".join(dict.fromkeys(f.fact_type for f in result.facts))
        sentences.append(f"{len(result.facts)} verified facts ({kinds}).")
    return " ".join(s for s in sentences if s)


@dataclass(slots=True)
class _Group:
    tool: str
    round: int
    results: list[ToolResult] = field(default_factory=list)


def build_tool_trace_summary(
    results: Sequence[ToolResult],
    tool_kinds: Mapping[str, ToolKind],
    *,
    executor_output: ExecutorOutput | None = None,
    retry_round_invocations: Collection[str] = (),
    max_entries: int = 8,
) -> list[ToolTraceSummaryEntry]:
    """Summarise the evidence-tool calls of a run, folded and prioritised as seed 000 says."""
    groups: dict[tuple[str, str, int], _Group] = {}
    for result in results:
        if tool_kinds.get(result.tool, ToolKind.EVIDENCE) is ToolKind.AUXILIARY:
            continue
        key = (result.tool, _topic(result), result.round)
        groups.setdefault(key, _Group(result.tool, result.round)).results.append(result)

    entries = [_fold(group) for group in groups.values()]
    for n, entry in enumerate(entries, start=1):
        entry.trace_ref = f"T{n}"
    if len(entries) <= max_entries:
        return entries

    cited, root_cause, fix = _cited_invocations(executor_output)

    def priority(entry: ToolTraceSummaryEntry) -> tuple[int, int]:
        ids = set(entry.source_invocation_ids)
        if ids & cited:
            rank = 0
        elif ids & root_cause:
            rank = 1
        elif ids & fix:
            rank = 2
        elif ids & set(retry_round_invocations):
            rank = 3
        else:
            rank = 4
        return rank, entries.index(entry)

    kept = sorted(entries, key=priority)[:max_entries]
    return sorted(kept, key=entries.index)


def _fold(group: _Group) -> ToolTraceSummaryEntry:
    results = group.results
    effective = next((r for r in results if _evidence_level(r) is not EvidenceLevel.NONE), results[0])
    failures = sum(1 for r in results if r.status in _FAILED)
    misses = sum(1 for r in results if r.status is ToolStatus.EMPTY)
    level = max(
        (_evidence_level(r) for r in results),
        key=[EvidenceLevel.NONE, EvidenceLevel.INDIRECT, EvidenceLevel.DIRECT].index,
    )
    summary = _output_summary(effective)
    if len(results) > 1:
        summary += f" Folded {len(results)} calls: {misses} without hits, {failures} failed."
    return ToolTraceSummaryEntry(
        tool_name=group.tool,
        success=effective.status not in _FAILED,
        input_summary=_input_summary(effective),
        output_summary=summary,
        evidence_level=level if effective.status not in _FAILED else EvidenceLevel.NONE,
        source_invocation_ids=[r.invocation_id for r in results],
        query_samples=[_input_summary(r) for r in results][:3],
        retrieval_layers=list(dict.fromkeys(layer for r in results for layer in r.retrieval_layers)),
        relevance_levels=list(dict.fromkeys(level for r in results for level in r.relevance_levels)),
        source_documents=list(dict.fromkeys(doc for r in results for doc in r.source_documents))[:5],
        round=group.round,
        repeat_count=len(results) - 1,
        miss_count=misses,
        failure_count=failures,
    )


def _cited_invocations(output: ExecutorOutput | None) -> tuple[set[str], set[str], set[str]]:
    cited: set[str] = set()
    root_cause: set[str] = set()
    fix: set[str] = set()
    if output is None:
        return cited, root_cause, fix
    for claim in output.claims:
        ids = {ref.invocation_id for ref in claim.evidence_refs}
        cited |= ids
        if claim.claim_type is ClaimType.ROOT_CAUSE:
            root_cause |= ids
        elif claim.claim_type is ClaimType.FIX:
            fix |= ids
    return cited, root_cause, fix

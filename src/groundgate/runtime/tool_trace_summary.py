"""`tool_trace_summary` exactly as docs/design.md §2.4 states ("tool_trace_summary 最小结构", "摘要压缩规则").

- evidence tools only (auxiliary tools such as the clock never appear);
- one minimal evidence summary per call, 1-3 sentences on what it proved or failed to prove;
- failed calls are kept with `success=false`, `evidence_level=none`;
- repeated calls on the same tool, topic and round are folded into one entry that keeps the first
  effective hit and counts the extra, missed and failed calls. The topic is the call's content, not
  its first argument: the normalised query words (order and case aside), and every other business
  argument (service, level, window, metric name, labels); paging arguments (`limit`, `top_k`) do not
  make a new topic. Two different knowledge queries are two entries;
- when too long, entries are kept by the seed's priority, each rule breaking the ties of the one
  before: evidence the answer cites (always kept), evidence that supports a root cause (cited by a
  root-cause claim, or saying what caused what), evidence that supports a fix, evidence related to the
  retry context's gaps (called for them in round 2, or sharing their words); then call order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgate.contracts import (
    ClaimType,
    EvidenceLevel,
    ExecutorOutput,
    RetrievalLayer,
    RetryContext,
    ToolKind,
    ToolResult,
    ToolStatus,
    ToolTraceSummaryEntry,
)
from groundgate.text.segmentation import tokenize

#: Arguments that page or size a result: the same search with another `limit` is the same topic.
_PAGING = frozenset({"limit", "top_k", "k", "offset", "page", "page_size", "max_results", "step_seconds"})
_FAILED = frozenset({ToolStatus.ERROR, ToolStatus.TIMEOUT, ToolStatus.DENIED})
_CAUSE = re.compile(r"根因|原因|导致|引起|由于|造成|because|caused|due to|led to|root cause", re.IGNORECASE)
_FIX = re.compile(
    r"修复|处理|解决|扩容|重启|回滚|调大|fix|restart|roll ?back|scale|increase|mitigat", re.IGNORECASE
)


def _normalised(value: Any) -> Any:
    if isinstance(value, str):
        # Query text: its words, order and case aside ("ERR_TIMEOUT 是什么" ≡ "是什么 err_timeout？").
        return " ".join(sorted(set(tokenize(value)))) or value.strip().lower()
    if isinstance(value, list | tuple):
        return sorted((_normalised(v) for v in value), key=str)
    if isinstance(value, dict):
        return {k: _normalised(v) for k, v in sorted(value.items())}
    return value


def topic(result: ToolResult) -> str:
    """What a call was about: its business arguments, normalised (module docs)."""
    content = {
        k: _normalised(v)
        for k, v in sorted(result.arguments.items())
        if k not in _PAGING and v not in (None, "", [], {})
    }
    return json.dumps(content, ensure_ascii=False, sort_keys=True, default=str)


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
    retry_context: RetryContext | None = None,
    max_entries: int = 8,
) -> list[ToolTraceSummaryEntry]:
    """Summarise the evidence-tool calls of a run, folded and prioritised as docs/design.md §2.4 says."""
    groups: dict[tuple[str, str, int], _Group] = {}
    for result in results:
        if tool_kinds.get(result.tool, ToolKind.EVIDENCE) is ToolKind.AUXILIARY:
            continue
        key = (result.tool, topic(result), result.round)
        groups.setdefault(key, _Group(result.tool, result.round)).results.append(result)

    folded = [(_fold(group), group.results) for group in groups.values()]
    entries = [entry for entry, _ in folded]
    for n, entry in enumerate(entries, start=1):
        entry.trace_ref = f"T{n}"
    if len(entries) <= max_entries:
        return entries

    cited, root_cause, fix = _cited_invocations(executor_output)
    retry_ids = set(retry_round_invocations)
    gap_words = set(tokenize(" ".join(retry_context.missing_evidence_facts))) if retry_context else set()

    def priority(pair: tuple[ToolTraceSummaryEntry, list[ToolResult]]) -> tuple[bool, bool, bool, bool, int]:
        entry, group = pair
        ids = set(entry.source_invocation_ids)
        said = " ".join(_texts(group))
        return (
            not ids & cited,
            not (ids & root_cause or bool(_CAUSE.search(said))),
            not (ids & fix or bool(_FIX.search(said))),
            not (ids & retry_ids or bool(gap_words & set(tokenize(entry.input_summary)))),
            entries.index(entry),
        )

    ranked = sorted(folded, key=priority)
    kept = [e for e, _ in ranked if set(e.source_invocation_ids) & cited]
    kept += [e for e, _ in ranked if e not in kept][: max(0, max_entries - len(kept))]
    return sorted(kept, key=entries.index)


def _texts(results: Sequence[ToolResult]) -> list[str]:
    """What a group of calls returned, as text (documents and facts), for the priority rules."""
    texts = [d.text for r in results for d in r.documents]
    texts += [json.dumps(f.value, ensure_ascii=False, default=str) for r in results for f in r.facts]
    return texts


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
        empty_queries=[
            _input_summary(r)
            for r in results
            if r.status is ToolStatus.EMPTY or (r.status is ToolStatus.OK and not (r.documents or r.facts))
        ],
        failures=[
            f"{r.status.value}: {r.error or 'the call failed'}"[:200] for r in results if r.status in _FAILED
        ],
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

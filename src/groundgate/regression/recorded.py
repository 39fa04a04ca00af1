"""A tool call's output as a fixture records it: from a live `ToolResult` (what capture and freezing
keep), or rebuilt from a stored invocation row alone (`fidelity: summary`). Shared by the chat and
the business agent's capture."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate.contracts import (
    DocumentEvidence,
    EvidenceRef,
    ExecutionContext,
    ToolCall,
    ToolOutput,
    ToolResult,
    ToolStatus,
)
from groundgate.regression.fixtures import RecordedToolCall

if TYPE_CHECKING:
    from groundgate.apps.run_trace import RunTrace
    from groundgate.runtime import ToolBackend

__all__ = ["from_summary", "output_of", "recorded_call", "replayed_calls"]

_FAILED = (ToolStatus.ERROR, ToolStatus.TIMEOUT, ToolStatus.DENIED)


def output_of(result: ToolResult) -> ToolOutput:
    return ToolOutput(
        status=result.status,
        documents=list(result.documents),
        facts=list(result.facts),
        gaps=list(result.gaps),
        conflicts=list(result.conflicts),
        observation=result.observation,
        retrieval_layers=list(result.retrieval_layers),
        relevance_levels=list(result.relevance_levels),
        source_documents=list(result.source_documents),
        evidence_refs=[ref.model_copy(update={"invocation_id": "recorded"}) for ref in result.evidence_refs],
    )


def recorded_call(result: ToolResult) -> RecordedToolCall:
    return RecordedToolCall(
        tool=result.tool,
        arguments=dict(result.arguments),
        round=result.round,
        output=output_of(result),
        error=result.error,
        latency_ms=result.latency_ms,
    )


def from_summary(invocation: Any) -> ToolOutput:
    """An output rebuilt from the stored row alone: the summary, and a passage per stored excerpt."""
    details = invocation.retrieval_details if isinstance(invocation.retrieval_details, dict) else {}
    refs = [EvidenceRef.model_validate(r) for r in details.get("evidence_refs") or [] if isinstance(r, dict)]
    sources = [str(s) for s in details.get("source_documents") or []]
    documents = [
        DocumentEvidence(
            citation_id=ref.citation_id or f"ref-{n}",
            source=sources[n] if len(sources) == len(refs) else (sources[0] if sources else invocation.tool),
            text=ref.excerpt or "",
        )
        for n, ref in enumerate(refs)
        if ref.excerpt
    ]
    return ToolOutput(
        status=ToolStatus(invocation.status),
        documents=documents,
        observation=invocation.output_summary,
        relevance_levels=[str(x) for x in details.get("relevance_levels") or []],
        source_documents=sources,
        evidence_refs=[r for r in refs if r.excerpt],
    )


def replayed_calls(
    trace: RunTrace, tools: ToolBackend | None, ctx: ExecutionContext
) -> tuple[list[RecordedToolCall], list[str], str]:
    """A stored run's tool calls with outputs, the fixture's `fidelity`, and what drifted: each call
    re-executed over `tools` (as `ctx`) when given, else rebuilt from its stored summary. A failed
    call is kept as it happened, never re-run: the failure is what the run saw."""
    calls: list[RecordedToolCall] = []
    drift: list[str] = []
    for inv in trace.tool_invocations:
        arguments = inv.arguments if isinstance(inv.arguments, dict) else {}
        status = ToolStatus(inv.status)
        failed = status in _FAILED
        if tools is None or failed:
            output = (
                ToolOutput(status=status, observation=inv.output_summary) if failed else from_summary(inv)
            )
            calls.append(
                RecordedToolCall(
                    tool=inv.tool,
                    arguments=arguments,
                    round=inv.round,
                    output=output,
                    error=inv.error,
                    latency_ms=inv.latency_ms,
                )
            )
            continue
        again = tools.execute(
            ToolCall(tool=inv.tool, arguments=arguments),
            ctx,
            run_id=f"capture-{trace.run_id}",
            round=inv.round,
        )
        if again.status != status:
            drift.append(f"{inv.tool} {arguments}: stored {status}, now {again.status}")
        elif again.observation != inv.output_summary:
            drift.append(f"{inv.tool} {arguments}: its summary differs now ({again.observation[:80]!r})")
        recorded = recorded_call(again)
        calls.append(recorded.model_copy(update={"round": inv.round, "latency_ms": inv.latency_ms}))
    return calls, drift, "summary" if tools is None else "re-executed"

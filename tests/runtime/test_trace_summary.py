"""tool_trace_summary as seed 000 defines it: evidence tools only, failures kept, repeats folded,
truncation by priority."""

from __future__ import annotations

from groundgate.contracts import (
    Claim,
    ClaimType,
    DocumentEvidence,
    EvidenceLevel,
    EvidenceRef,
    ExecutorOutput,
    RetrievalLayer,
    ToolKind,
    ToolResult,
    ToolStatus,
)
from groundgate.runtime.tool_trace_summary import build_tool_trace_summary

KINDS = {
    "lookup_knowledge": ToolKind.EVIDENCE,
    "query_logs": ToolKind.EVIDENCE,
    "get_current_datetime": ToolKind.AUXILIARY,
}


def result(
    inv: str, tool: str = "lookup_knowledge", status: ToolStatus = ToolStatus.OK, **kw: object
) -> ToolResult:
    docs = [DocumentEvidence(citation_id=f"{inv}#1", source="payment/errors.md", text="ERR_TIMEOUT …")]
    return ToolResult(
        invocation_id=inv,
        tool=tool,
        status=status,
        documents=docs if status is ToolStatus.OK else [],
        source_documents=["payment/errors.md"] if status is ToolStatus.OK else [],
        **kw,  # type: ignore[arg-type]
    )


def test_auxiliary_tools_are_left_out_and_failures_kept() -> None:
    entries = build_tool_trace_summary(
        [
            result("a", arguments={"query": "ERR_TIMEOUT"}, retrieval_layers=[RetrievalLayer.L0]),
            result("b", tool="query_logs", status=ToolStatus.TIMEOUT, error="log service timed out"),
            result("c", tool="get_current_datetime"),
        ],
        KINDS,
    )
    assert [e.tool_name for e in entries] == ["lookup_knowledge", "query_logs"]
    ok, failed = entries
    assert ok.success
    assert ok.evidence_level is EvidenceLevel.DIRECT
    assert ok.source_invocation_ids == ["a"]
    assert "payment/errors.md" in ok.output_summary
    assert not failed.success
    assert failed.evidence_level is EvidenceLevel.NONE
    assert "timed out" in failed.output_summary
    assert [e.trace_ref for e in entries] == ["T1", "T2"]


def test_repeated_calls_on_one_tool_topic_and_round_are_folded() -> None:
    entries = build_tool_trace_summary(
        [
            result(
                "a", status=ToolStatus.EMPTY, arguments={"query": "ERR_TIMEOUT 是什么", "domain": "payment"}
            ),
            result("b", arguments={"query": "是什么 err_timeout？", "domain": "payment"}),
            result(
                "c",
                status=ToolStatus.ERROR,
                arguments={"query": "ERR_TIMEOUT 是什么", "domain": "payment"},
                error="boom",
            ),
            result("d", arguments={"query": "ERR_TIMEOUT 是什么", "domain": "payment", "top_k": 10}),
            result("e", arguments={"query": "ERR_TIMEOUT 是什么", "domain": "payment"}, round=2),
        ],
        KINDS,
    )
    assert len(entries) == 2  # round 2 is its own entry
    folded = entries[0]
    assert folded.source_invocation_ids == ["a", "b", "c", "d"]  # word order, case and paging aside
    assert (folded.repeat_count, folded.miss_count, folded.failure_count) == (3, 1, 1)
    assert folded.input_summary.startswith(
        "lookup_knowledge(query=是什么 err_timeout"
    )  # the first effective hit
    assert "Folded 4 calls" in folded.output_summary
    assert len(folded.query_samples) == 3
    assert folded.empty_queries == ["lookup_knowledge(query=ERR_TIMEOUT 是什么, domain=payment)"]
    assert folded.failures == ["ERROR: boom"]


def test_different_searches_of_one_tool_are_different_entries() -> None:
    entries = build_tool_trace_summary(
        [
            result("a", arguments={"query": "产假多少天"}),
            result("b", arguments={"query": "婚假多少天"}),
            result("c", tool="query_logs", arguments={"service": "payment-gateway", "level": "ERROR"}),
            result("d", tool="query_logs", arguments={"service": "payment-gateway", "level": "INFO"}),
        ],
        KINDS,
    )
    assert [e.source_invocation_ids for e in entries] == [["a"], ["b"], ["c"], ["d"]]


def test_truncation_follows_the_seed_priority_after_the_cited_evidence() -> None:
    plain = [result(f"p{n}", arguments={"query": f"plain {n}"}) for n in range(4)]
    cause = result("cause", arguments={"query": "why"})
    cause.documents[0].text = "连接池耗尽导致 ERR_TIMEOUT。"
    fix = result("fix", arguments={"query": "how"})
    fix.documents[0].text = "Restart the pool and scale max_size to 200."
    retry = result("retry", arguments={"query": "gap"}, round=2)
    cited = result("cited", arguments={"query": "asked"})
    output = ExecutorOutput(
        claims=[Claim(id="c1", text="x", evidence_refs=[EvidenceRef(invocation_id="cited")])]
    )
    kept = build_tool_trace_summary(
        [*plain, retry, fix, cause, cited],
        KINDS,
        executor_output=output,
        retry_round_invocations=["retry"],
        max_entries=3,
    )
    ids = [e.source_invocation_ids[0] for e in kept]
    assert ids == ["fix", "cause", "cited"]  # cited first, then root cause, then fix; call order kept
    kept = build_tool_trace_summary(
        [*plain, retry, fix, cause, cited],
        KINDS,
        executor_output=output,
        retry_round_invocations=["retry"],
        max_entries=5,
    )
    assert [e.source_invocation_ids[0] for e in kept] == ["p0", "retry", "fix", "cause", "cited"]


def test_cited_evidence_survives_truncation_in_call_order() -> None:
    results = [result(f"i{n}", arguments={"query": f"q{n}", "domain": f"d{n}"}) for n in range(6)]
    output = ExecutorOutput(
        claims=[
            Claim(
                id="c1", text="fix", claim_type=ClaimType.FIX, evidence_refs=[EvidenceRef(invocation_id="i5")]
            ),
            Claim(
                id="c2",
                text="cause",
                claim_type=ClaimType.ROOT_CAUSE,
                evidence_refs=[EvidenceRef(invocation_id="i4")],
            ),
        ]
    )
    kept = build_tool_trace_summary(results, KINDS, executor_output=output, max_entries=3)
    ids = [e.source_invocation_ids[0] for e in kept]
    assert len(kept) == 3
    assert {"i4", "i5"} <= set(ids)  # evidence the answer cites survives truncation
    assert ids == sorted(ids, key=lambda i: int(i[1:]))  # original order kept

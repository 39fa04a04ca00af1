"""The `lookup_knowledge` tool: arguments, evidence fields, tenant and date scoping, EMPTY with a gap."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from pydantic import ValidationError

from groundgate.contracts import ExecutionContext, RetrievalLayer, ToolCall, ToolStatus
from groundgate.knowledge import EdgeKnowledgeIndex, ingest_path
from groundgate.tools.builtin.knowledge import (
    KNOWLEDGE_TOOL,
    LookupKnowledgeArgs,
    best_excerpt,
    lookup_knowledge_spec,
    make_lookup_knowledge,
    register_knowledge_tool,
)
from groundgate.tools.registry import ReasonCode, ToolRegistry

DOCS = {
    "payment/errors.md": """---
title: 支付网关错误码手册
doc_id: payment-errors
authority: SRE
kind: manual
version: "2.1"
effective_from: 2025-01-01
scope: payment
---
# 支付网关错误码手册

## ERR_TIMEOUT

网关部署在两个可用区。当网关在 3 秒内没有收到银行通道的响应时，返回 ERR_TIMEOUT，HTTP 状态码为 504。可以带相同的幂等键重试一次。
""",
    "payment/errors-old.md": """---
title: 支付网关错误码手册（旧版）
doc_id: payment-errors-old
kind: manual
version: "1.0"
effective_from: 2023-01-01
effective_to: 2024-12-31
scope: payment
---
# 支付网关错误码手册（旧版）

## ERR_TIMEOUT

旧版：网关在 5 秒内没有收到响应时返回 ERR_TIMEOUT。
""",
    "acme/settlement.md": """---
title: ACME 结算说明
doc_id: acme-settlement
kind: faq
scope: finance
tenant: acme
---
# ACME 结算说明

ACME 商户的结算周期为 T+3。
""",
}

CTX = ExecutionContext(tenant="acme", user="u1")
OTHER = ExecutionContext(tenant="globex", user="u2")


@pytest.fixture
def index(tmp_path: Path) -> Iterator[EdgeKnowledgeIndex]:
    root = tmp_path / "docs"
    for name, text in DOCS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    with EdgeKnowledgeIndex(tmp_path / "shard") as idx:
        assert ingest_path(root, idx).bad_files == []
        yield idx


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "ERR_TIMEOUT", "dateRange": "2025-01-01/2025-02-01"},
        {"query": "ERR_TIMEOUT", "start_date": "2025-01-01", "end_date": "2025-02-01"},
        {"query": "ERR_TIMEOUT", "as_of": "2025-01-01"},
        {"query": "ERR_TIMEOUT", "tenant": "acme"},
        {"query": ""},
        {"query": "x" * 501},
        {"query": "ERR_TIMEOUT", "top_k": 0},
        {"query": "ERR_TIMEOUT", "top_k": 21},
    ],
)
def test_arguments_outside_the_schema_are_rejected(arguments: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        LookupKnowledgeArgs.model_validate(arguments)


def test_defaults() -> None:
    args = LookupKnowledgeArgs.model_validate({"query": "  ERR_TIMEOUT  "})
    assert (args.query, args.domain, args.top_k) == ("ERR_TIMEOUT", None, 5)
    spec = lookup_knowledge_spec()
    assert spec.name == KNOWLEDGE_TOOL == "lookup_knowledge"
    assert spec.argument_model is LookupKnowledgeArgs
    assert spec.authorization_policy == "tenant"


def test_evidence_fields_are_filled(index: EdgeKnowledgeIndex) -> None:
    run = make_lookup_knowledge(index, as_of=date(2025, 6, 1))
    output = run(LookupKnowledgeArgs(query="ERR_TIMEOUT 怎么处理"), CTX)
    assert output.status is ToolStatus.OK
    doc = output.documents[0]
    assert doc.citation_id == "payment-errors#0"
    assert doc.source == "payment/errors.md"
    assert doc.heading == "支付网关错误码手册 > ERR_TIMEOUT"
    assert (doc.authority, doc.kind, doc.version, doc.scope) == ("SRE", "manual", "2.1", "payment")
    assert doc.effective_from == date(2025, 1, 1)
    assert doc.effective_to is None
    assert doc.tenant is None
    assert doc.retrieval_layer is RetrievalLayer.L0
    assert doc.score is not None
    assert "3 秒内" in doc.text
    # The superseded version is not returned (as_of), and the lists run parallel to the documents.
    assert "payment-errors-old" not in {d.citation_id.split("#")[0] for d in output.documents}
    assert len(output.retrieval_layers) == len(output.relevance_levels) == len(output.documents)
    assert output.retrieval_layers[0] is RetrievalLayer.L0
    assert output.relevance_levels[0] == "high"
    assert output.source_documents[0] == "payment/errors.md"
    ref = output.evidence_refs[0]
    assert ref.citation_id == doc.citation_id
    assert ref.start is not None
    assert ref.end is not None
    assert doc.text[ref.start : ref.end] == ref.excerpt
    assert ref.excerpt is not None
    assert "ERR_TIMEOUT" in ref.excerpt
    assert not ref.excerpt.startswith("#")
    assert output.observation.startswith("L0 hit ERR_TIMEOUT in payment/errors.md;")
    assert "chunk" in output.observation


@pytest.mark.slow
def test_as_of_selects_the_version_in_effect(index: EdgeKnowledgeIndex) -> None:
    old = make_lookup_knowledge(index, as_of=lambda: date(2024, 6, 1))(
        LookupKnowledgeArgs(query="ERR_TIMEOUT"), CTX
    )
    assert [d.citation_id for d in old.documents] == ["payment-errors-old#0"]


@pytest.mark.slow
def test_tenant_comes_from_the_context(index: EdgeKnowledgeIndex) -> None:
    run = make_lookup_knowledge(index)
    mine = run(LookupKnowledgeArgs(query="结算周期"), CTX)
    assert mine.status is ToolStatus.OK
    assert mine.documents[0].citation_id == "acme-settlement#0"
    assert mine.documents[0].tenant == "acme"
    theirs = run(LookupKnowledgeArgs(query="结算周期"), OTHER)
    assert theirs.status is ToolStatus.EMPTY


@pytest.mark.slow
def test_domain_maps_to_scope(index: EdgeKnowledgeIndex) -> None:
    run = make_lookup_knowledge(index, as_of=date(2025, 6, 1))
    assert run(LookupKnowledgeArgs(query="ERR_TIMEOUT", domain="payment"), CTX).status is ToolStatus.OK
    output = run(LookupKnowledgeArgs(query="ERR_TIMEOUT", domain="finance"), CTX)
    assert output.status is ToolStatus.EMPTY or all(d.scope == "finance" for d in output.documents)


def test_nothing_found_is_empty_with_a_gap(index: EdgeKnowledgeIndex) -> None:
    run = make_lookup_knowledge(index, as_of=date(2025, 6, 1))
    output = run(LookupKnowledgeArgs(query="量子纠缠 quantum entanglement", domain="payment"), CTX)
    assert output.status is ToolStatus.EMPTY
    assert output.documents == []
    assert output.evidence_refs == []
    assert output.gaps
    assert "quantum entanglement" in output.gaps[0]
    assert "2025-06-01" in output.gaps[0]
    assert "payment" in output.gaps[0]


def test_top_k_bounds_the_result(index: EdgeKnowledgeIndex) -> None:
    output = make_lookup_knowledge(index)(LookupKnowledgeArgs(query="网关 ERR_TIMEOUT 结算", top_k=1), CTX)
    assert len(output.documents) == 1


@pytest.mark.slow
def test_through_the_registry(index: EdgeKnowledgeIndex) -> None:
    with ToolRegistry() as registry:
        assert register_knowledge_tool(registry, index, as_of=date(2025, 6, 1)) == KNOWLEDGE_TOOL
        refused = registry.validate_plan(
            [ToolCall(tool=KNOWLEDGE_TOOL, arguments={"query": "ERR_TIMEOUT", "startDate": "2025-01-01"})]
        )
        assert not refused.ok
        assert refused.reason_code is ReasonCode.INVALID_ARGUMENTS
        result = registry.execute(
            ToolCall(tool=KNOWLEDGE_TOOL, arguments={"query": "ERR_TIMEOUT"}), CTX, run_id="r1", round=1
        )
        assert result.status is ToolStatus.OK
        assert result.evidence_refs
        assert all(ref.invocation_id == result.invocation_id for ref in result.evidence_refs)


def test_best_excerpt_prefers_the_matched_sentence() -> None:
    text = "## ERR_X\n\n第一句是背景介绍。第二句说明 ERR_X 的含义，它表示上游超时。第三句无关。"
    span = best_excerpt(text, "ERR_X 是什么", ("ERR_X",))
    assert text[span.start : span.end] == span.text
    assert "ERR_X 的含义" in span.text
    assert best_excerpt("", "q").text == ""

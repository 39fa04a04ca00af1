"""Contracts keep the seeds' exact names and values, and survive a JSON round trip."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest
from pydantic import BaseModel, ValidationError

from groundgate.contracts import (
    CheckRequest,
    CheckResult,
    Claim,
    ClaimCheck,
    ClaimType,
    ComposerOutput,
    DocumentEvidence,
    EvidenceLevel,
    EvidenceRef,
    ExecutionContext,
    ExecutorOutput,
    FactCategory,
    FactCheck,
    GatekeeperResult,
    OutputKind,
    RetryContext,
    RuleEvaluation,
    RuleFactor,
    SelfEvaluation,
    ToolResult,
    ToolStatus,
    ToolTraceSummaryEntry,
    UserAssertion,
    Verdict,
    VerifiedFact,
    VerifierEvaluation,
)


def test_enum_values_are_the_seeds() -> None:
    assert [v.value for v in Verdict] == ["PASS", "LOW_CONFID", "REJECT"]
    assert [c.value for c in FactCategory] == [
        "direct_evidence",
        "indirect_support",
        "no_evidence",
        "contradicted",
    ]
    assert [k.value for k in OutputKind] == ["NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"]
    assert [s.value for s in ToolStatus] == ["OK", "EMPTY", "ERROR", "TIMEOUT", "DENIED"]
    assert [e.value for e in EvidenceLevel] == ["direct", "indirect", "none"]


def _verifier_evaluation() -> VerifierEvaluation:
    ref = EvidenceRef(invocation_id="inv-1", citation_id="payment/errors.md#2", excerpt="ERR_TIMEOUT")
    return VerifierEvaluation(
        verdict=Verdict.LOW_CONFID,
        groundedness_score=0.42,
        critical_fact_count=2,
        claim_checks=[
            ClaimCheck(
                claim_id="c1",
                claim_text="ERR_TIMEOUT 来自支付网关",
                category=FactCategory.INDIRECT_SUPPORT,
                derivable=True,
            )
        ],
        facts_checked=[
            FactCheck(
                fact="根因是连接池耗尽",
                category=FactCategory.NO_EVIDENCE,
                evidence_refs=["trace-1", "inv-1"],
                reason_codes=["support_low"],
            )
        ],
        rationale="...",
        round=1,
        executor_structured_output=ExecutorOutput(
            claims=[Claim(id="c1", text="ERR_TIMEOUT 来自支付网关", evidence_refs=[ref])],
            final_answer="ERR_TIMEOUT 来自支付网关",
        ),
        gatekeeper_result=GatekeeperResult(passed_claim_ids=["c1"]),
        composer_output=ComposerOutput(output_kind=OutputKind.LOW_CONFID_WITH_DISCLAIMER, text="以下结论…"),
        tool_trace_summary=[
            ToolTraceSummaryEntry(
                tool_name="lookup_knowledge",
                success=True,
                input_summary="查询 ERR_TIMEOUT",
                output_summary="命中 payment/errors.md，返回错误码定义",
                evidence_level=EvidenceLevel.DIRECT,
                trace_ref="trace-1",
                source_invocation_ids=["inv-1"],
            )
        ],
    )


def test_verifier_evaluation_has_seed_004_fields() -> None:
    dumped = json.loads(_verifier_evaluation().model_dump_json())
    for name in (
        "verdict",
        "groundedness_score",
        "critical_fact_count",
        "claim_checks",
        "facts_checked",
        "rationale",
        "round",
        "traceability_version",
        "executor_output_parse_status",
        "executor_structured_output",
        "gatekeeper_result",
        "composer_output",
        "tool_trace_summary",
    ):
        assert name in dumped
    assert dumped["verdict"] == "LOW_CONFID"
    assert dumped["traceability_version"] == "v1"
    assert dumped["facts_checked"][0]["category"] == "no_evidence"
    assert dumped["facts_checked"][0]["evidence_refs"] == ["trace-1", "inv-1"]
    assert dumped["executor_structured_output"]["schema_version"] == "executor_evidence_v2"
    entry = dumped["tool_trace_summary"][0]
    for name in (
        "tool_name",
        "success",
        "input_summary",
        "output_summary",
        "evidence_level",
        "trace_ref",
        "source_invocation_ids",
        "query_samples",
        "retrieval_layers",
        "relevance_levels",
        "source_documents",
    ):
        assert name in entry


def _samples() -> list[BaseModel]:
    now = datetime(2026, 3, 15, 8, 30, tzinfo=UTC)
    return [
        ExecutionContext(tenant="acme", user="u1", roles=("sre",), allowed_projects=("pay",)),
        DocumentEvidence(
            citation_id="c-1",
            source="hr/travel.md",
            text="差旅住宿标准：一线城市每晚不超过 600 元。",
            authority="HR-policy",
            kind="policy",
            version="2026.1",
            effective_from=date(2026, 1, 1),
            claim_types=[ClaimType.AMOUNT_RULE],
            supported_need_codes=["TRAVEL_HOTEL_LIMIT"],
        ),
        VerifiedFact(
            fact_ref="f-1",
            fact_type="order.status",
            value={"status": "PAID", "amount": 99.5},
            source_system="orders",
            queried_at=now,
            ttl_seconds=60,
        ),
        UserAssertion(text="我上个月报销了 3000 元", turn=2),
        ToolResult(invocation_id="inv-1", tool="query_logs", status=ToolStatus.TIMEOUT, error="late"),
        RetryContext(round=1, missing_evidence_facts=["“根因是连接池耗尽”缺少直接证据"]),
        SelfEvaluation(
            rule_evaluation=RuleEvaluation(
                evidence_score=65, factors=[RuleFactor(rule="l0_exact_match", delta=35)]
            ),
            verifier_evaluation=_verifier_evaluation(),
        ),
        CheckResult(verdict=Verdict.PASS, groundedness_score=1.0, critical_fact_count=1),
    ]


@pytest.mark.parametrize("model", _samples(), ids=lambda m: type(m).__name__)
def test_json_round_trip(model: BaseModel) -> None:
    again = type(model).model_validate_json(model.model_dump_json())
    assert again == model


def test_retry_context_default_instruction_is_the_designed_one() -> None:
    dumped = RetryContext(round=1, missing_evidence_facts=["x"]).model_dump()
    assert dumped == {
        "round": 1,
        "missing_evidence_facts": ["x"],
        "instruction": "仅补充以上断言相关证据，不要重复已完成检索",
        "unmet_need_ids": [],  # round 2 targets only these needs (docs/design.md §8)
    }


def test_evidence_types_do_not_convert() -> None:
    """A user's statement can never be validated as a document or a verified fact (invariant 11)."""
    assertion = UserAssertion(text="限额是 5000 元").model_dump()
    with pytest.raises(ValidationError):
        DocumentEvidence.model_validate(assertion)
    with pytest.raises(ValidationError):
        VerifiedFact.model_validate(assertion)
    doc = DocumentEvidence(citation_id="c", source="s", text="t").model_dump()
    with pytest.raises(ValidationError):
        UserAssertion.model_validate(doc)


def test_execution_context_is_frozen_and_strict() -> None:
    ctx = ExecutionContext(tenant="t", user="u")
    with pytest.raises(ValidationError):
        ctx.tenant = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        ExecutionContext.model_validate({"tenant": "t", "user": "u", "superuser": True})


def test_check_request_wraps_a_single_passage() -> None:
    assert CheckRequest.model_validate({"context": "one", "answer": "a"}).context == ["one"]
    with pytest.raises(ValidationError):
        CheckRequest.model_validate({"context": "one"})


def test_every_contract_model_builds_its_validator_on_first_use_not_at_import() -> None:
    # `groundgate check` imports all the contracts and uses a few: building every validator at import
    # cost about a tenth of its start-up (docs/benchmarks.md, CLI start-up).
    import inspect

    from pydantic import BaseModel

    import groundgate.contracts as contracts

    models = [
        obj
        for obj in vars(contracts).values()
        if inspect.isclass(obj)
        and issubclass(obj, BaseModel)
        and obj.__module__.startswith("groundgate.contracts")
    ]
    assert len(models) >= 10
    assert [m.__name__ for m in models if not m.model_config.get("defer_build")] == []
    # and they still validate once asked to
    assert contracts.ExecutionContext(tenant="t", user="u").tenant == "t"

"""Gatekeeper, verifier and self-evaluation records (seeds 000 and 004)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts.claims import ExecutorOutput
from groundgate.contracts.enums import (
    EvidenceLevel,
    FactCategory,
    OutputKind,
    ParseStatus,
    RetrievalLayer,
    Verdict,
)
from groundgate.contracts.needs import NeedCoverage, QuestionNeeds
from groundgate.contracts.tools import EvidenceRef


class RefCheck(BaseModel):
    """The gatekeeper's finding on one evidence reference of a claim."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    ref: EvidenceRef
    valid: bool
    reason_codes: list[str] = Field(default_factory=list)
    """E.g. `ref_ok`, `unknown_invocation`, `foreign_invocation`, `unknown_citation`, `excerpt_not_found`."""
    matched_start: int | None = None
    """Where the quoted excerpt was found in the cited text (after tolerant matching)."""
    matched_end: int | None = None


class ClaimGate(BaseModel):
    """The gatekeeper's finding on one claim: are its citations real?"""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    claim_id: str
    passed: bool
    """True when at least one reference is valid and none is forged."""
    reason_codes: list[str] = Field(default_factory=list)
    refs: list[RefCheck] = Field(default_factory=list)


class GatekeeperResult(BaseModel):
    """Citation reality check over all claims, computed in code (docs/design.md §1 invariant 3)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    claims: list[ClaimGate] = Field(default_factory=list)
    passed_claim_ids: list[str] = Field(default_factory=list)
    rejected_claim_ids: list[str] = Field(default_factory=list)
    reason_codes: list[str] = Field(default_factory=list)
    """Run-level codes, e.g. `no_claims`, `all_claims_rejected`."""


class FactCheck(BaseModel):
    """One entry of `facts_checked`: a fact, its category and the evidence it leans on."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    fact: str
    """The fact as stated in the answer."""
    category: FactCategory
    key: bool = True
    """Key facts alone count for verdict and score."""
    claim_id: str | None = None
    evidence_refs: list[str] = Field(default_factory=list)
    """`trace_ref`s and `tool_invocation` ids this fact relies on."""
    reason_codes: list[str] = Field(default_factory=list)
    """Readable codes for the classification, e.g. `number_mismatch`, `lexical_support_high`."""
    rationale: str = ""


class ClaimCheck(BaseModel):
    """Per executor claim: can its verified excerpt derive the claim text? (docs/design.md §4 `claim_checks`)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    claim_id: str
    claim_text: str
    category: FactCategory
    derivable: bool
    reason_codes: list[str] = Field(default_factory=list)


class RetryContext(BaseModel):
    """What round 2 must look for, and nothing else (docs/design.md §2 "retry_context 最小结构")."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    round: int
    """The round that found the gaps."""
    missing_evidence_facts: list[str]
    instruction: str = "仅补充以上断言相关证据，不要重复已完成检索"
    unmet_need_ids: list[str] = Field(default_factory=list)
    """The question needs round 2 must serve (`QuestionNeeds.needs[*].id`); planners search for
    these needs, never for the gap prose above."""


class ToolTraceSummaryEntry(BaseModel):
    """A minimal evidence summary of one (or several folded) evidence-tool calls (docs/design.md §2)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    tool_name: str
    success: bool
    input_summary: str
    output_summary: str
    """1-3 sentences: what the call proved or failed to prove."""
    evidence_level: EvidenceLevel
    trace_ref: str = ""
    """Stable handle that `facts_checked[*].evidence_refs` point to."""
    source_invocation_ids: list[str] = Field(default_factory=list)
    query_samples: list[str] = Field(default_factory=list)
    retrieval_layers: list[RetrievalLayer] = Field(default_factory=list)
    relevance_levels: list[str] = Field(default_factory=list)
    source_documents: list[str] = Field(default_factory=list)
    round: int = 1
    repeat_count: int = 0
    """Extra calls folded into this entry."""
    miss_count: int = 0
    failure_count: int = 0
    empty_queries: list[str] = Field(default_factory=list)
    """Inputs of the successful calls of this entry that found nothing: what an absence claim may
    rest on ("no errors" is at most indirectly supported, and only by an empty query of its scope)."""
    failures: list[str] = Field(default_factory=list)
    """`status: error` of the failed calls of this entry (the verifier names them among the gaps)."""


class ComposerOutput(BaseModel):
    """What the composer produced and how (docs/design.md §4 `composer_output`)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    output_kind: OutputKind
    text: str
    language: Literal["zh-CN", "en"] = "zh-CN"
    parse_status: ParseStatus = ParseStatus.OK
    used_claim_ids: list[str] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)


class VerifierEvaluation(BaseModel):
    """The `verifier_evaluation` slot of `self_evaluation` (docs/design.md §4)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    verdict: Verdict
    groundedness_score: float
    critical_fact_count: int
    claim_checks: list[ClaimCheck] = Field(default_factory=list)
    facts_checked: list[FactCheck] = Field(default_factory=list)
    rationale: str = ""
    round: int = 1
    traceability_version: str = "v1"
    executor_output_parse_status: dict[str, Any] = Field(default_factory=dict)
    executor_structured_output: ExecutorOutput | None = None
    gatekeeper_result: GatekeeperResult | None = None
    composer_output: ComposerOutput | None = None
    tool_trace_summary: list[ToolTraceSummaryEntry] = Field(default_factory=list)
    verifier_input_tokens: int | None = None
    """Tokens sent to the verifier (the design budget is < 500)."""
    question_needs: QuestionNeeds | None = None
    """What the question asks, as derived for this run (issue 11)."""
    need_coverage: list[NeedCoverage] = Field(default_factory=list)
    """Per need: met by which supported claims, or why not. Next to the verdict: the verdict judges
    the claims (seed matrix), coverage whether they answer the question (`NORMAL` needs both)."""
    retry_context: RetryContext | None = None
    """The retry context this round's verifier was given (docs/design.md §2: a conditional input)."""


class RuleFactor(BaseModel):
    """One applied row of the rule-evaluation table (docs/design.md §5)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    rule: str
    delta: int
    detail: str = ""


class RuleEvaluation(BaseModel):
    """The `rule_evaluation` slot: evidence collection sufficiency, 0-100."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    evidence_score: int
    source: Literal["rule"] = "rule"
    factors: list[RuleFactor] = Field(default_factory=list)


class AiOpsRuleEvaluation(BaseModel):
    """The `aiops_rule_evaluation` slot (seed 004 §6)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    verdict: str
    checks: list[dict[str, Any]] = Field(default_factory=list)


class SelfEvaluation(BaseModel):
    """The JSON container on `diagnosis_run.self_evaluation`: one slot per writer (docs/design.md §1 invariant 10)."""

    model_config = ConfigDict(defer_build=True, extra="allow")

    rule_evaluation: RuleEvaluation | None = None
    verifier_evaluation: VerifierEvaluation | None = None
    aiops_rule_evaluation: AiOpsRuleEvaluation | None = None

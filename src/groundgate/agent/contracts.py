"""The constrained business agent's contracts (seed 003, "核心契约").

The shared evidence and tool contracts are reused from `groundgate.contracts` — `ExecutionContext`,
`ToolCall`, `ToolResult`, `DocumentEvidence`, `VerifiedFact`, `UserAssertion`, `DecisionStatus` —
and re-exported here so the agent reads as one vocabulary. This module adds what only the agent has:
the resolved context of a turn, the semantic plan, evidence needs and their slots, the decision and
the grounded answer. Codes are `StrEnum`s with the seed's exact values, so stored JSON reads like it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts import (
    ClaimType,
    DecisionStatus,
    DocumentEvidence,
    EvidenceType,
    ExecutionContext,
    ToolCall,
    ToolResult,
    ToolStatus,
    UserAssertion,
    VerifiedFact,
)

__all__ = [
    # reused from groundgate.contracts
    "DecisionStatus",
    "DocumentEvidence",
    "EvidenceType",
    "ExecutionContext",
    "ToolCall",
    "ToolResult",
    "UserAssertion",
    "VerifiedFact",
    # codes
    "AgentTool",
    "ContextRelation",
    "Intent",
    "NeedCode",
    "NEED_CLAIM_TYPE",
    "PlanSource",
    "ReasonCode",
    "SlotStatus",
    # context and plan
    "FactRefRecord",
    "ResolvedContext",
    "EvidenceNeed",
    "SemanticQueryPlan",
    # evidence
    "RejectedCandidate",
    "EvidenceSlot",
    "EvidenceAssessment",
    # runtime and answer
    "ActionRecord",
    "Citation",
    "GroundedStatement",
    "GroundedStep",
    "GroundedAnswer",
    "DecisionResult",
]


class AgentTool(StrEnum):
    """The whitelisted actions (seed "有界执行与工具参数"): nothing else may be planned."""

    KNOWLEDGE_SEARCH = "KNOWLEDGE_SEARCH"
    MY_CURRENT_TASKS = "MY_CURRENT_TASKS"


class NeedCode(StrEnum):
    """What a question needs proved; one evidence slot each (seed "证据资格与结论校验")."""

    AMOUNT_RULE = "AMOUNT_RULE"
    PROCESS_STEPS = "PROCESS_STEPS"
    MATERIALS = "MATERIALS"
    APPROVAL = "APPROVAL"
    ELIGIBILITY = "ELIGIBILITY"
    TASK_STATE = "TASK_STATE"


#: The claim type each need maps to: a document's candidate `claimTypes` must name it (seed rule 2).
NEED_CLAIM_TYPE: Final[dict[NeedCode, ClaimType]] = {
    NeedCode.AMOUNT_RULE: ClaimType.AMOUNT_RULE,
    NeedCode.PROCESS_STEPS: ClaimType.PROCESS_STEPS,
    NeedCode.MATERIALS: ClaimType.MATERIALS,
    NeedCode.APPROVAL: ClaimType.APPROVAL,
    NeedCode.ELIGIBILITY: ClaimType.ELIGIBILITY,
    NeedCode.TASK_STATE: ClaimType.LIVE_STATUS,
}


class Intent(StrEnum):
    """What the user wants done."""

    POLICY_QUESTION = "POLICY_QUESTION"
    """A rule, amount, process, material, approval or eligibility question answered from documents."""
    MY_TASKS = "MY_TASKS"
    """The user's own live tasks."""
    TASKS_AND_POLICY = "TASKS_AND_POLICY"
    """Both: e.g. a task and how to process it."""
    UNSUPPORTED = "UNSUPPORTED"
    """Something no registered tool can do (a CRM lookup, an action that writes)."""


class ContextRelation(StrEnum):
    """How a question relates to the conversation so far (`agent.context`)."""

    NEW = "NEW"
    FOLLOW_UP = "FOLLOW_UP"
    """Leans on the previous question ("那病假呢？")."""
    REFERENCE = "REFERENCE"
    """Points at an item of an earlier answer ("第二个任务")."""
    CORRECTION = "CORRECTION"
    """Corrects the previous question ("不是三月，是四月")."""


class PlanSource(StrEnum):
    """Where the plan that ran came from."""

    MODEL = "MODEL"
    RULES = "RULES"
    RULES_AFTER_MODEL_FAILURE = "RULES_AFTER_MODEL_FAILURE"
    """The planner model failed (timeout, bad JSON): the offline rules planned instead."""
    RULES_AFTER_DISCARD = "RULES_AFTER_DISCARD"
    """The model's plan was discarded whole (an authorization field, an unregistered action)."""


class SlotStatus(StrEnum):
    COVERED = "COVERED"
    MISSING = "MISSING"
    CONFLICT = "CONFLICT"


class ReasonCode(StrEnum):
    """Structured reason codes: what is recorded instead of any reasoning (invariant 7)."""

    # planning
    PLAN_OK = "PLAN_OK"
    AUTHORIZATION_FIELD_IN_PLAN = "AUTHORIZATION_FIELD_IN_PLAN"
    UNREGISTERED_ACTION = "UNREGISTERED_ACTION"
    INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
    ARGUMENT_NARROWED = "ARGUMENT_NARROWED"
    CONSTRAINT_RESTORED = "CONSTRAINT_RESTORED"
    UNKNOWN_NEED_DROPPED = "UNKNOWN_NEED_DROPPED"
    MODEL_FAILED = "MODEL_FAILED"
    INCOMPLETE_PLAN = "INCOMPLETE_PLAN"
    UNSUPPORTED_CAPABILITY = "UNSUPPORTED_CAPABILITY"
    # runtime
    DUPLICATE_CALL = "DUPLICATE_CALL"
    NO_NEW_EVIDENCE_TARGET = "NO_NEW_EVIDENCE_TARGET"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
    TOOL_FAILED = "TOOL_FAILED"
    TIMEOUT = "TIMEOUT"
    ALL_SLOTS_COVERED = "ALL_SLOTS_COVERED"
    FOLLOW_UP_ROUND = "FOLLOW_UP_ROUND"
    CLARIFY = "CLARIFY"
    # evidence
    GOVERNANCE_TENANT = "GOVERNANCE_TENANT"
    GOVERNANCE_EXPIRED = "GOVERNANCE_EXPIRED"
    GOVERNANCE_NOT_YET_EFFECTIVE = "GOVERNANCE_NOT_YET_EFFECTIVE"
    GOVERNANCE_SCOPE = "GOVERNANCE_SCOPE"
    GOVERNANCE_AUTHORITY = "GOVERNANCE_AUTHORITY"
    GOVERNANCE_KIND = "GOVERNANCE_KIND"
    LABEL_MISSING = "LABEL_MISSING"
    TEXT_UNSUPPORTED = "TEXT_UNSUPPORTED"
    OFF_SUBJECT = "OFF_SUBJECT"
    OUTRANKED = "OUTRANKED"
    SOURCE_CONFLICT = "SOURCE_CONFLICT"
    FACT_EXPIRED = "FACT_EXPIRED"
    FACT_UNAUTHORIZED = "FACT_UNAUTHORIZED"
    FACT_NOT_FROM_THIS_RUN = "FACT_NOT_FROM_THIS_RUN"
    WRONG_EVIDENCE_TYPE = "WRONG_EVIDENCE_TYPE"
    # context
    REF_EXPIRED = "REF_EXPIRED"
    REF_OUT_OF_SCOPE = "REF_OUT_OF_SCOPE"
    REF_UNKNOWN = "REF_UNKNOWN"
    REF_INVALIDATED = "REF_INVALIDATED"
    REF_ITEM_GONE = "REF_ITEM_GONE"
    # answer
    ZERO_QUALIFIED_EVIDENCE = "ZERO_QUALIFIED_EVIDENCE"
    CITATION_NOT_GATED = "CITATION_NOT_GATED"
    STATEMENT_UNCOVERED_SLOT = "STATEMENT_UNCOVERED_SLOT"
    STATEMENT_NOT_ENTAILED = "STATEMENT_NOT_ENTAILED"
    NUMBER_INCONSISTENT = "NUMBER_INCONSISTENT"
    COMPOSER_MODEL_FAILED = "COMPOSER_MODEL_FAILED"


# --------------------------------------------------------------------------- context and plan


class FactRefRecord(BaseModel):
    """What the server keeps for a `factRef` (seed: tool code, business arguments, itemKey, time,
    TTL, scope, authorization snapshot and audit ref) — never the fact body."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fact_ref: str
    tool: AgentTool
    arguments: dict[str, Any] = Field(default_factory=dict)
    item_key: str
    ordinal: int
    """1-based position in the answer that showed it: what "第二个" points at."""
    queried_at: datetime
    ttl_seconds: int
    scope: str | None = None
    authorization_snapshot: dict[str, str] = Field(default_factory=dict)
    audit_ref: str
    """The run id that read it."""


class ResolvedContext(BaseModel):
    """A question against the conversation state (seed `ResolvedContext`)."""

    model_config = ConfigDict(extra="forbid")

    question: str
    """The question as the user asked it."""
    resolved_question: str
    """The question completed from earlier *questions* (never answers) when it leans on them."""
    relation: ContextRelation = ContextRelation.NEW
    current_goal: str = ""
    candidate_entities: list[str] = Field(default_factory=list)
    user_assertions: list[UserAssertion] = Field(default_factory=list)
    """What the user claimed ("我已经提交了"): for understanding only, never proof (invariant 3)."""
    trusted_refs: list[FactRefRecord] = Field(default_factory=list)
    """Server-side refs this question points at; re-read through their tool before use."""
    refused_refs: dict[str, ReasonCode] = Field(default_factory=dict)
    invalidated_refs: list[str] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)


class EvidenceNeed(BaseModel):
    """One evidence slot the answer needs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: NeedCode
    label: str
    """Readable name of the slot (the gap line when it stays missing), e.g. `差旅住宿报销标准`."""


class SemanticQueryPlan(BaseModel):
    """Seed `SemanticQueryPlan`: question, normalised question, intent, domain, entities, needs, actions."""

    model_config = ConfigDict(extra="forbid")

    original_question: str
    normalized_question: str
    intent: Intent
    domain: str | None = None
    entities: list[str] = Field(default_factory=list)
    needs: list[EvidenceNeed] = Field(default_factory=list)
    actions: list[ToolCall] = Field(default_factory=list)
    """Whitelisted tool calls with business arguments only; `purpose` names the need code served."""
    source: PlanSource = PlanSource.RULES
    validation: list[ReasonCode] = Field(default_factory=list)
    """What deterministic validation changed or refused on the way (`PLAN_OK` when nothing)."""
    validation_detail: list[str] = Field(default_factory=list)
    complete: bool = True
    """Every need has an action that can serve it: only then does the agent take over (seed "迁移顺序" 3)."""


# --------------------------------------------------------------------------- evidence


class RejectedCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    citation_id: str
    reason: ReasonCode


class EvidenceSlot(BaseModel):
    """One need, judged on its own (seed: "证据需求按槽位逐项判断")."""

    model_config = ConfigDict(extra="forbid")

    need: EvidenceNeed
    status: SlotStatus = SlotStatus.MISSING
    citations: list[str] = Field(default_factory=list)
    """Citation ids (documents) or factRefs (facts) that cover it."""
    rejected: list[RejectedCandidate] = Field(default_factory=list)


class EvidenceAssessment(BaseModel):
    """The evaluator's verdict over one round's tool results."""

    model_config = ConfigDict(extra="forbid")

    slots: list[EvidenceSlot] = Field(default_factory=list)
    documents: dict[str, DocumentEvidence] = Field(default_factory=dict)
    """Gated documents by citation id: the only texts the composer may see and cite."""
    facts: dict[str, VerifiedFact] = Field(default_factory=dict)
    """Gated facts by factRef."""
    conflicts: list[list[str]] = Field(default_factory=list)
    """Groups of citation ids that disagree."""
    unfound: list[str] = Field(default_factory=list)
    """Words compared whose own rule no passage states ("婚假的休假金额标准"), beside a slot the
    other words covered: listed as missing, so the answer is at most `PARTIAL`."""
    read_apart: dict[str, list[int]] = Field(default_factory=dict)
    """For a need judged once per word (`apart.per_word`): "NEED:citation" → the readings (by index) that
    citation covered, so a passage outranked for one word is not read for it (blind 26)."""

    def slot(self, code: NeedCode) -> EvidenceSlot | None:
        return next((s for s in self.slots if s.need.code is code), None)

    @property
    def covered(self) -> list[EvidenceSlot]:
        return [s for s in self.slots if s.status is SlotStatus.COVERED]

    @property
    def missing(self) -> list[EvidenceSlot]:
        return [s for s in self.slots if s.status is SlotStatus.MISSING]


# --------------------------------------------------------------------------- runtime and answer


class ActionRecord(BaseModel):
    """A structured action and observation with a reason code; no model reasoning (invariant 7)."""

    model_config = ConfigDict(extra="forbid")

    round: int
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    purpose: str | None = None
    status: ToolStatus | None = None
    """None when the call was not made (a duplicate, over budget)."""
    reason: ReasonCode
    observation: str = ""
    invocation_id: str | None = None


class Citation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    citation_id: str
    evidence_type: EvidenceType
    source: str
    excerpt: str = ""


class GroundedStatement(BaseModel):
    """A deterministic statement bound to the citations that support it."""

    model_config = ConfigDict(extra="forbid")

    need: NeedCode
    text: str
    citations: list[str] = Field(min_length=1)


class GroundedStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    order: int
    text: str
    citations: list[str] = Field(min_length=1)


class GroundedAnswer(BaseModel):
    """Seed `GroundedAnswer`: summary, statements, steps, missing information, clarifying questions."""

    model_config = ConfigDict(extra="forbid")

    summary: str = ""
    statements: list[GroundedStatement] = Field(default_factory=list)
    steps: list[GroundedStep] = Field(default_factory=list)
    missing_information: list[str] = Field(default_factory=list)
    clarifying_questions: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)

    def render(self) -> str:
        """The answer as plain text (what `answer` carries for clients that read only it)."""
        lines = [self.summary] if self.summary else []
        lines += [s.text for s in self.statements if s.text != self.summary]
        lines += [f"{step.order}. {step.text}" for step in self.steps]
        if self.missing_information:
            lines.append("缺少依据：" + "；".join(self.missing_information))
        lines += self.clarifying_questions
        return "\n".join(lines)


class DecisionResult(BaseModel):
    """Seed `DecisionResult`: the status and the domain result, with its whole structured trace."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    status: DecisionStatus
    reason: ReasonCode
    question: str
    resolved: ResolvedContext
    plan: SemanticQueryPlan | None = None
    slots: list[EvidenceSlot] = Field(default_factory=list)
    conflicts: list[list[str]] = Field(default_factory=list)
    answer: GroundedAnswer = Field(default_factory=GroundedAnswer)
    actions: list[ActionRecord] = Field(default_factory=list)
    rounds: int = 0
    """Evidence rounds that ran (at most two; a third only clarifies or ends)."""
    answer_model_called: bool = False
    fallback: bool = False
    """The plan was not complete: an entry point hands the question to the chat pipeline."""
    dropped_statements: list[RejectedCandidate] = Field(default_factory=list)
    tool_results: list[ToolResult] = Field(default_factory=list)
    """What each call returned (the run store records their summaries); not part of the reply."""
    new_refs: list[FactRefRecord] = Field(default_factory=list)
    """Refs of the facts this answer showed, to keep in the conversation state."""
    domain_result: dict[str, Any] = Field(default_factory=dict)

    @property
    def covered_needs(self) -> list[NeedCode]:
        return [s.need.code for s in self.slots if s.status is SlotStatus.COVERED]

    @property
    def missing_needs(self) -> list[NeedCode]:
        return [s.need.code for s in self.slots if s.status is SlotStatus.MISSING]

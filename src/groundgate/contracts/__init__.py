"""Pydantic contracts shared by every part of groundgate, with the field names of docs/design.md.

Pure data: no I/O, no behaviour beyond validation. Everything else imports from here; `__all__` is
grouped by the module that defines each name. Every model sets `defer_build=True`: its validator is
built on first use, so a command that imports the contracts but uses three of them (`groundgate
check`) does not pay for the other thirty-five at start-up (docs/benchmarks.md, CLI start-up)."""

from groundgate.contracts.claims import EXECUTOR_OUTPUT_SCHEMA, Claim, ExecutorOutput
from groundgate.contracts.context import AUTHORIZATION_FIELDS, ExecutionContext
from groundgate.contracts.enums import (
    ClaimType,
    DecisionStatus,
    EvidenceLevel,
    EvidenceType,
    FactCategory,
    OutputKind,
    ParseStatus,
    RetrievalLayer,
    ToolKind,
    ToolStatus,
    Verdict,
)
from groundgate.contracts.evidence import DocumentEvidence, UserAssertion, VerifiedFact
from groundgate.contracts.grounding_check import (
    CheckedClaim,
    CheckedUnit,
    CheckRequest,
    CheckResult,
    EvidenceSpan,
    QuestionCoverage,
)
from groundgate.contracts.needs import (
    AnswerKind,
    ConditionKind,
    Need,
    NeedCondition,
    NeedCoverage,
    QuestionNeeds,
)
from groundgate.contracts.run import (
    AgentStep,
    AnswerCitation,
    PlannerOutput,
    RunEvent,
    RunResult,
    StepRole,
    StopReason,
)
from groundgate.contracts.tools import EvidenceRef, ToolCall, ToolOutput, ToolResult, ToolSpec
from groundgate.contracts.verification import (
    AiOpsRuleEvaluation,
    ClaimCheck,
    ClaimGate,
    ComposerOutput,
    FactCheck,
    GatekeeperResult,
    RefCheck,
    RetryContext,
    RuleEvaluation,
    RuleFactor,
    SelfEvaluation,
    ToolTraceSummaryEntry,
    VerifierEvaluation,
)

__all__ = [
    # claims
    "EXECUTOR_OUTPUT_SCHEMA",
    "Claim",
    "ExecutorOutput",
    # authorization context
    "AUTHORIZATION_FIELDS",
    "ExecutionContext",
    # enumerations
    "ClaimType",
    "DecisionStatus",
    "EvidenceLevel",
    "EvidenceType",
    "FactCategory",
    "OutputKind",
    "ParseStatus",
    "RetrievalLayer",
    "ToolKind",
    "ToolStatus",
    "Verdict",
    # evidence
    "DocumentEvidence",
    "UserAssertion",
    "VerifiedFact",
    # the grounding check
    "CheckedClaim",
    "CheckedUnit",
    "CheckRequest",
    "CheckResult",
    "EvidenceSpan",
    "QuestionCoverage",
    # question needs
    "AnswerKind",
    "ConditionKind",
    "Need",
    "NeedCondition",
    "NeedCoverage",
    "QuestionNeeds",
    # runs
    "AgentStep",
    "AnswerCitation",
    "PlannerOutput",
    "RunEvent",
    "RunResult",
    "StepRole",
    "StopReason",
    # tools
    "EvidenceRef",
    "ToolCall",
    "ToolOutput",
    "ToolResult",
    "ToolSpec",
    # verification and evaluation
    "AiOpsRuleEvaluation",
    "ClaimCheck",
    "ClaimGate",
    "ComposerOutput",
    "FactCheck",
    "GatekeeperResult",
    "RefCheck",
    "RetryContext",
    "RuleEvaluation",
    "RuleFactor",
    "SelfEvaluation",
    "ToolTraceSummaryEntry",
    "VerifierEvaluation",
]

"""Enumerations with the seeds' exact values, so stored JSON reads like the seeds."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """The verifier's internal verdict (docs/design.md §2, "verdict 规则")."""

    PASS = "PASS"
    LOW_CONFID = "LOW_CONFID"
    REJECT = "REJECT"


class FactCategory(StrEnum):
    """The four categories a key fact may take (docs/design.md §2, "facts_checked 分类")."""

    DIRECT_EVIDENCE = "direct_evidence"
    INDIRECT_SUPPORT = "indirect_support"
    NO_EVIDENCE = "no_evidence"
    CONTRADICTED = "contradicted"


class OutputKind(StrEnum):
    """What the user is shown (docs/design.md §2, "用户侧输出协议")."""

    NORMAL = "NORMAL"
    LOW_CONFID_WITH_DISCLAIMER = "LOW_CONFID_WITH_DISCLAIMER"
    DEGRADED = "DEGRADED"


class DecisionStatus(StrEnum):
    """Business agent decision statuses (seed 003, `DecisionResult`)."""

    ANSWERED = "ANSWERED"
    PARTIAL = "PARTIAL"
    NEEDS_INPUT = "NEEDS_INPUT"
    NO_EVIDENCE = "NO_EVIDENCE"
    CONFLICT = "CONFLICT"


class ToolStatus(StrEnum):
    """Outcome of one tool invocation."""

    OK = "OK"
    EMPTY = "EMPTY"
    ERROR = "ERROR"
    TIMEOUT = "TIMEOUT"
    DENIED = "DENIED"


class ToolKind(StrEnum):
    """Evidence tools feed `tool_trace_summary`; auxiliary tools (clock, formatting) never do."""

    EVIDENCE = "evidence"
    AUXILIARY = "auxiliary"


class EvidenceLevel(StrEnum):
    """`tool_trace_summary[*].evidence_level` (docs/design.md §2)."""

    DIRECT = "direct"
    INDIRECT = "indirect"
    NONE = "none"


class EvidenceType(StrEnum):
    """Evidence kinds that never turn into one another (docs/design.md §1, invariant 11)."""

    DOCUMENT_EVIDENCE = "DOCUMENT_EVIDENCE"
    VERIFIED_FACT = "VERIFIED_FACT"
    USER_ASSERTION = "USER_ASSERTION"


class RetrievalLayer(StrEnum):
    """Knowledge retrieval layers: L0 exact identifiers, L1 ranked relevance."""

    L0 = "L0"
    L1 = "L1"


class ParseStatus(StrEnum):
    """How a model's structured output fared against its schema."""

    OK = "OK"
    INVALID_JSON = "INVALID_JSON"
    SCHEMA_MISMATCH = "SCHEMA_MISMATCH"
    REFUSED = "REFUSED"
    TIMEOUT = "TIMEOUT"
    ERROR = "ERROR"
    NOT_CALLED = "NOT_CALLED"


class ClaimType(StrEnum):
    """What kind of statement a claim makes; drives which evidence may support it (seed 003)."""

    ROOT_CAUSE = "ROOT_CAUSE"
    ATTRIBUTION = "ATTRIBUTION"
    EVIDENCE_STATEMENT = "EVIDENCE_STATEMENT"
    FIX = "FIX"
    AMOUNT_RULE = "AMOUNT_RULE"
    PROCESS_STEPS = "PROCESS_STEPS"
    MATERIALS = "MATERIALS"
    APPROVAL = "APPROVAL"
    ELIGIBILITY = "ELIGIBILITY"
    LIVE_STATUS = "LIVE_STATUS"
    GENERAL_FACT = "GENERAL_FACT"
    ADVICE = "ADVICE"

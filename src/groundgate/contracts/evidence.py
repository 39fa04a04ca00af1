"""Evidence kinds. They keep their type for life (DESIGN invariant 11)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts.enums import ClaimType, EvidenceType, RetrievalLayer


class DocumentEvidence(BaseModel):
    """A passage of a governed document, as returned by a knowledge tool."""

    model_config = ConfigDict(extra="forbid")

    evidence_type: Literal[EvidenceType.DOCUMENT_EVIDENCE] = EvidenceType.DOCUMENT_EVIDENCE
    citation_id: str
    """Stable id of this passage (chunk id); what claims cite."""
    source: str
    """Document path or title, e.g. `payment/errors.md`."""
    text: str
    """The passage text exactly as stored; excerpts are checked against it."""
    authority: str | None = None
    """Who owns the document (e.g. `SRE`, `HR-policy`)."""
    kind: str | None = None
    """Document kind (runbook, policy, manual, architecture, ...)."""
    version: str | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    scope: str | None = None
    """Where the rule applies (region, product, project)."""
    tenant: str | None = None
    heading: str | None = None
    """The heading path of the chunk inside its document."""
    retrieval_layer: RetrievalLayer | None = None
    """L0 (exact identifier hit) or L1 (ranked relevance)."""
    score: float | None = None
    supported_need_codes: list[str] = Field(default_factory=list)
    """Candidate need codes this passage may serve. A candidate only, never proof (seed 003 invariant 8)."""
    claim_types: list[ClaimType] = Field(default_factory=list)
    """Candidate claim types this passage may support. A candidate only, never proof."""


class VerifiedFact(BaseModel):
    """A live fact read from a system of record, under the caller's authorization."""

    model_config = ConfigDict(extra="forbid")

    evidence_type: Literal[EvidenceType.VERIFIED_FACT] = EvidenceType.VERIFIED_FACT
    fact_ref: str
    """Server-side reference; re-read and re-authorized before reuse in a later turn."""
    fact_type: str
    """What the value is, e.g. `order.status`."""
    value: Any
    source_system: str
    queried_at: datetime
    ttl_seconds: int | None = None
    """How long the value may be trusted after `queried_at`; None means no expiry."""
    scope: str | None = None
    authorization_snapshot: dict[str, str] = Field(default_factory=dict)
    """Tenant/user/project the fact was read under (for audit, never sent to a model)."""


class UserAssertion(BaseModel):
    """Something the user said. Kept for understanding; never proof (DESIGN invariant 11)."""

    model_config = ConfigDict(extra="forbid")

    evidence_type: Literal[EvidenceType.USER_ASSERTION] = EvidenceType.USER_ASSERTION
    text: str
    turn: int | None = None

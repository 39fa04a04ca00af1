"""Evidence kinds. They keep their type for life (docs/design.md §1 invariant 11).

A document passage carries its source's `Authority` level, an ordered scale: where passages of
different authority disagree, the higher one wins (the verifier's rule, `groundgate.verify.verifier`).
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from groundgate.contracts.enums import ClaimType, EvidenceType, RetrievalLayer


class Authority(StrEnum):
    """How far a document is vouched for, lowest first (compare with `rank`).

    Derived from the front matter's `authority` (see `Authority.of`): a document that names no
    owner is `unverified` (anyone who can write into the ingestion folder could have put it there);
    a named owner (`SRE`, `DBA`, `Payments-Eng`, `Finance`, ... — every document of the demo
    workspace) makes it `owned`; `authority: official` marks company-wide approved documents.
    """

    UNVERIFIED = "unverified"
    OWNED = "owned"
    OFFICIAL = "official"

    @property
    def rank(self) -> int:
        """0 for `unverified`, 1 for `owned`, 2 for `official`: higher wins a disagreement."""
        return _AUTHORITY_RANK[self]

    @classmethod
    def of(cls, authority: str | None) -> Authority:
        """The level of a front matter `authority` value.

        Absent, empty, `none`, `unknown` or `unverified` → `unverified`; a level's own name → that
        level; any other value names an owner → `owned`.
        """
        value = (authority or "").strip().lower()
        if value in _UNVERIFIED_NAMES:
            return cls.UNVERIFIED
        try:
            return cls(value)
        except ValueError:
            return cls.OWNED


_AUTHORITY_RANK: Final = {Authority.UNVERIFIED: 0, Authority.OWNED: 1, Authority.OFFICIAL: 2}
_UNVERIFIED_NAMES: Final = frozenset({"", "none", "null", "unknown", "unverified", "-"})


class DocumentEvidence(BaseModel):
    """A passage of a governed document, as returned by a knowledge tool."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    evidence_type: Literal[EvidenceType.DOCUMENT_EVIDENCE] = EvidenceType.DOCUMENT_EVIDENCE
    citation_id: str
    """Stable id of this passage (chunk id); what claims cite."""
    source: str
    """Document path or title, e.g. `payment/errors.md`."""
    text: str
    """The passage text exactly as stored; excerpts are checked against it."""
    authority: str | None = None
    """Who owns the document (e.g. `SRE`, `HR-policy`)."""
    authority_level: Authority = Authority.UNVERIFIED
    """The ordered level of `authority`; derived from it when not given."""
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
    """Candidate need codes this passage may serve. A candidate only, never proof (docs/design.md §1 invariant 11)."""
    claim_types: list[ClaimType] = Field(default_factory=list)
    """Candidate claim types this passage may support. A candidate only, never proof."""
    instruction_spans: list[tuple[int, int]] = Field(default_factory=list)
    """`[start, end)` offsets into `text` of instruction-like sentences (addressed to the assistant,
    see `groundgate.text.instructions`): shown, never evidence. Consumers also detect them anew."""

    @model_validator(mode="before")
    @classmethod
    def _derive_level(cls, data: Any) -> Any:
        # A tool that names the owner but not the level gets the level the owner implies.
        if isinstance(data, dict) and data.get("authority_level") is None:
            return {**data, "authority_level": Authority.of(data.get("authority"))}
        return data


class VerifiedFact(BaseModel):
    """A live fact read from a system of record, under the caller's authorization."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

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
    """Something the user said. Kept for understanding; never proof (docs/design.md §1 invariant 11)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    evidence_type: Literal[EvidenceType.USER_ASSERTION] = EvidenceType.USER_ASSERTION
    text: str
    turn: int | None = None

"""Tool declarations, calls and results."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts.enums import RetrievalLayer, ToolKind, ToolStatus
from groundgate.contracts.evidence import DocumentEvidence, VerifiedFact


class ToolSpec(BaseModel):
    """What a registered tool accepts and how it may be used. The argument model is the schema."""

    model_config = ConfigDict(defer_build=True, extra="forbid", arbitrary_types_allowed=True)

    name: str
    description: str
    argument_model: type[BaseModel]
    """Pydantic model of the business arguments; authorization fields are never among them."""
    kind: ToolKind = ToolKind.EVIDENCE
    """Evidence tools enter `tool_trace_summary`; auxiliary tools do not."""
    authorization_policy: str = "tenant"
    """Name of the policy the registry applies with the `ExecutionContext` (e.g. `tenant`, `public`)."""
    timeout_seconds: float = 5.0
    """After this the call is `TIMEOUT` and a late result is dropped."""


class ToolCall(BaseModel):
    """One planned call: a tool name and business arguments only (seed 003 `ToolCall`)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    purpose: str | None = None
    """The evidence target this call serves (a need code or a missing fact)."""


class EvidenceRef(BaseModel):
    """Where a piece of evidence sits inside a tool result: the audit link of a claim."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    invocation_id: str
    """The `tool_invocation` id of this run that returned the evidence."""
    citation_id: str | None = None
    """Chunk id or fact ref inside that result."""
    start: int | None = None
    """Excerpt start offset inside the cited text."""
    end: int | None = None
    excerpt: str | None = None


class ToolOutput(BaseModel):
    """What a tool function returns; the registry wraps it into a `ToolResult` with ids and timing."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    status: ToolStatus = ToolStatus.OK
    documents: list[DocumentEvidence] = Field(default_factory=list)
    facts: list[VerifiedFact] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    observation: str = ""
    retrieval_layers: list[RetrievalLayer] = Field(default_factory=list)
    relevance_levels: list[str] = Field(default_factory=list)
    source_documents: list[str] = Field(default_factory=list)
    """Document paths/titles the result drew on (for `tool_trace_summary`)."""
    evidence_refs: list[EvidenceRef] = Field(default_factory=list)
    """Chunk ids with excerpt offsets, recorded as `retrieval_details.evidence_refs`."""


class ToolResult(BaseModel):
    """What one tool invocation returned (seed 003 `ToolResult`)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    invocation_id: str
    """Unique id of the `tool_invocation`; claims cite it."""
    tool: str
    status: ToolStatus
    run_id: str | None = None
    """The run that made the call; a citation of another run's result is foreign (invariant 3)."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    documents: list[DocumentEvidence] = Field(default_factory=list)
    facts: list[VerifiedFact] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    """What the tool was asked for but could not establish."""
    conflicts: list[str] = Field(default_factory=list)
    """Disagreements between sources the tool saw."""
    observation: str = ""
    """A short structured observation (counts, shown N of M); never raw dumps."""
    retrieval_layers: list[RetrievalLayer] = Field(default_factory=list)
    relevance_levels: list[str] = Field(default_factory=list)
    source_documents: list[str] = Field(default_factory=list)
    evidence_refs: list[EvidenceRef] = Field(default_factory=list)
    latency_ms: float | None = None
    error: str | None = None
    """Translated error message for `ERROR`/`TIMEOUT`/`DENIED`."""
    round: int = 1

"""Claims and the executor's structured output (`executor_evidence_v2`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts.enums import ClaimType
from groundgate.contracts.tools import EvidenceRef

EXECUTOR_OUTPUT_SCHEMA: Literal["executor_evidence_v2"] = "executor_evidence_v2"


class Claim(BaseModel):
    """One statement of an answer, bound to the evidence that is meant to prove it."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    id: str
    """Unique within the executor output (e.g. `c1`)."""
    text: str
    claim_type: ClaimType = ClaimType.GENERAL_FACT
    critical: bool = True
    """A key fact (docs/design.md §2 "关键事实范围"); only key facts count for verdict and score."""
    evidence_refs: list[EvidenceRef] = Field(default_factory=list)
    """Tool results of this run that the claim cites, with quoted excerpts."""


class ExecutorOutput(BaseModel):
    """The executor's structured output: claims with evidence, plus the answer text built from them."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    schema_version: Literal["executor_evidence_v2"] = EXECUTOR_OUTPUT_SCHEMA
    claims: list[Claim] = Field(default_factory=list)
    final_answer: str = ""
    """Debug/fallback context only; when claims parse, no extra fact is taken from it (docs/design.md §4)."""

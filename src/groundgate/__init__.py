"""groundgate: answers operations and business questions only with what its read-only tools proved.

The public API, grouped. Everything else is internal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate.contracts import (
    CheckedClaim,
    CheckRequest,
    CheckResult,
    Claim,
    DocumentEvidence,
    EvidenceRef,
    EvidenceSpan,
    ExecutionContext,
    ExecutorOutput,
    FactCategory,
    FactCheck,
    GatekeeperResult,
    OutputKind,
    ToolResult,
    ToolStatus,
    UserAssertion,
    Verdict,
    VerifiedFact,
    VerifierEvaluation,
)
from groundgate.errors import (
    ConfigurationError,
    GroundgateError,
    InvalidInputError,
    ModelError,
    RunError,
    UsageError,
)
from groundgate.models import Message, Model, ModelResponse, ScriptedModel, Usage
from groundgate.verify.check import check, check_request
from groundgate.verify.checker import CheckerThresholds, OfflineChecker
from groundgate.verify.fidelity import check_claim, compare_constraints
from groundgate.verify.gatekeeper import gatekeep
from groundgate.verify.judge import LLMJudge
from groundgate.verify.matrix import compute_verdict, groundedness_score

if TYPE_CHECKING:
    from groundgate.models.openai import OpenAIModel

__version__ = "0.1.0"

__all__ = [
    # grounding check
    "check",
    "check_request",
    "CheckRequest",
    "CheckResult",
    "CheckedClaim",
    "EvidenceSpan",
    "OfflineChecker",
    "CheckerThresholds",
    "LLMJudge",
    # verification core
    "compute_verdict",
    "groundedness_score",
    "gatekeep",
    "check_claim",
    "compare_constraints",
    # models
    "Model",
    "Message",
    "ModelResponse",
    "Usage",
    "OpenAIModel",
    "ScriptedModel",
    # contracts
    "Claim",
    "DocumentEvidence",
    "EvidenceRef",
    "ExecutionContext",
    "ExecutorOutput",
    "FactCategory",
    "FactCheck",
    "GatekeeperResult",
    "OutputKind",
    "ToolResult",
    "ToolStatus",
    "UserAssertion",
    "Verdict",
    "VerifiedFact",
    "VerifierEvaluation",
    # errors
    "GroundgateError",
    "UsageError",
    "ConfigurationError",
    "InvalidInputError",
    "RunError",
    "ModelError",
]


def __getattr__(name: str) -> Any:
    if name == "OpenAIModel":  # lazy: the openai SDK is slow to import and offline use needs none of it
        from groundgate.models.openai import OpenAIModel

        return OpenAIModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""groundgate: answers operations and business questions only with what its read-only tools proved.

The public API, grouped. Everything else is internal.

Every public name is loaded on first use (PEP 562 module `__getattr__`): importing any submodule
runs this file first, and `groundgate --help` must not pay for pydantic, the checker or the
openai SDK. `import groundgate; groundgate.check(...)` works as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
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
    from groundgate.models.openai import OpenAIModel
    from groundgate.verify.fidelity import check_claim, compare_constraints
    from groundgate.verify.gatekeeper import gatekeep
    from groundgate.verify.grounding_check import check, check_request
    from groundgate.verify.judge import LLMJudge
    from groundgate.verify.matrix import compute_verdict, groundedness_score
    from groundgate.verify.offline_checker import CheckerThresholds, OfflineChecker

__version__ = "0.1.0"

# Public name → the module that defines it.
_HOMES: dict[str, str] = {
    **dict.fromkeys(("check", "check_request"), "groundgate.verify.grounding_check"),
    **dict.fromkeys(("CheckerThresholds", "OfflineChecker"), "groundgate.verify.offline_checker"),
    **dict.fromkeys(("check_claim", "compare_constraints"), "groundgate.verify.fidelity"),
    "gatekeep": "groundgate.verify.gatekeeper",
    "LLMJudge": "groundgate.verify.judge",
    **dict.fromkeys(("compute_verdict", "groundedness_score"), "groundgate.verify.matrix"),
    **dict.fromkeys(("Message", "Model", "ModelResponse", "ScriptedModel", "Usage"), "groundgate.models"),
    "OpenAIModel": "groundgate.models.openai",  # the openai SDK: offline use never loads it
    **dict.fromkeys(
        (
            "CheckedClaim",
            "CheckRequest",
            "CheckResult",
            "Claim",
            "DocumentEvidence",
            "EvidenceRef",
            "EvidenceSpan",
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
        ),
        "groundgate.contracts",
    ),
    **dict.fromkeys(
        (
            "GroundgateError",
            "UsageError",
            "ConfigurationError",
            "InvalidInputError",
            "RunError",
            "ModelError",
        ),
        "groundgate.errors",
    ),
}

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
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

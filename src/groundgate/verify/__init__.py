"""Verification: the pure core that decides what evidence proves (docs/design.md §2).

No I/O: models enter only through the `Model` protocol, data files are read from the package, and
everything else is a function of its inputs (enforced by the import-linter contracts in
pyproject.toml). Text utilities it shares with the rest live in `groundgate.text`.

- the grounding checker: `grounding_check` (`check`, `check_request`), `offline_checker`, `judge`
  (a model as the classifier), `assessment` (the classifier protocol and its results), `claims`
  (claims, units and key facts), `windows` / `synonyms` / `support_model` / `alignment` / `records` /
  `question` (support scoring and question coverage), `worked_figures` (figures a paraphrase works
  out), `causes` (the reason a claim gives), `antonyms` (a word turned into its opposite), `roles` (people named with a role), `actors` (an approver or owner swapped for another),
  `contradictions` (which findings reject), `budget`
  (time budgets);
- deterministic fidelity checks: the `fidelity` package (numbers, dates, negation, identifiers…);
- the pipeline's verifier: `verifier` (claims against their own cited evidence, need coverage),
  `gatekeeper` (citation reality), `evidence_items` (evidence of a run, authority), `absence`
  ("no errors in the logs"), `series` (metric recovery);
- the verdict: `matrix` (verdict and groundedness score, in code).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # the lazy names, for type checkers and editors
    from groundgate.verify.absence import (
        is_absence_claim,
        judge_absence,
    )
    from groundgate.verify.assessment import (
        ClaimAssessment,
        ClaimClassifier,
        Classification,
        classify_within,
    )
    from groundgate.verify.budget import (
        Deadline,
    )
    from groundgate.verify.claims import (
        key_decision,
        split_claims,
        split_units,
    )
    from groundgate.verify.evidence_items import (
        EvidenceItem,
        evidence_by_ref,
        outranking_conflicts,
        qualified_evidence,
    )
    from groundgate.verify.gatekeeper import (
        GateCode,
        gatekeep,
    )
    from groundgate.verify.grounding_check import (
        check,
        check_request,
    )
    from groundgate.verify.judge import (
        LLMJudge,
    )
    from groundgate.verify.matrix import (
        VerdictOutcome,
        compute_verdict,
        groundedness_score,
    )
    from groundgate.verify.offline_checker import (
        CheckerThresholds,
        OfflineChecker,
    )
    from groundgate.verify.series import (
        confirms_recovery,
        find_recovery,
    )
    from groundgate.verify.verifier import (
        Verification,
        Verifier,
    )

# Public name → the module that defines it (loaded on first use, PEP 562).
_HOMES: dict[str, str] = {
    "is_absence_claim": "groundgate.verify.absence",
    "judge_absence": "groundgate.verify.absence",
    "ClaimAssessment": "groundgate.verify.assessment",
    "ClaimClassifier": "groundgate.verify.assessment",
    "Classification": "groundgate.verify.assessment",
    "classify_within": "groundgate.verify.assessment",
    "Deadline": "groundgate.verify.budget",
    "key_decision": "groundgate.verify.claims",
    "split_claims": "groundgate.verify.claims",
    "split_units": "groundgate.verify.claims",
    "EvidenceItem": "groundgate.verify.evidence_items",
    "evidence_by_ref": "groundgate.verify.evidence_items",
    "outranking_conflicts": "groundgate.verify.evidence_items",
    "qualified_evidence": "groundgate.verify.evidence_items",
    "GateCode": "groundgate.verify.gatekeeper",
    "gatekeep": "groundgate.verify.gatekeeper",
    "check": "groundgate.verify.grounding_check",
    "check_request": "groundgate.verify.grounding_check",
    "LLMJudge": "groundgate.verify.judge",
    "VerdictOutcome": "groundgate.verify.matrix",
    "compute_verdict": "groundgate.verify.matrix",
    "groundedness_score": "groundgate.verify.matrix",
    "CheckerThresholds": "groundgate.verify.offline_checker",
    "OfflineChecker": "groundgate.verify.offline_checker",
    "confirms_recovery": "groundgate.verify.series",
    "find_recovery": "groundgate.verify.series",
    "Verification": "groundgate.verify.verifier",
    "Verifier": "groundgate.verify.verifier",
}

__all__ = [
    # grounding checker
    "check",
    "check_request",
    "OfflineChecker",
    "CheckerThresholds",
    "LLMJudge",
    "ClaimClassifier",
    "Classification",
    "ClaimAssessment",
    "classify_within",
    "split_claims",
    "split_units",
    "key_decision",
    "Deadline",
    # the pipeline's verifier
    "Verifier",
    "Verification",
    "gatekeep",
    "GateCode",
    "EvidenceItem",
    "qualified_evidence",
    "evidence_by_ref",
    "outranking_conflicts",
    "is_absence_claim",
    "judge_absence",
    "find_recovery",
    "confirms_recovery",
    # verdict
    "compute_verdict",
    "groundedness_score",
    "VerdictOutcome",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

"""One pipeline run: its steps, its events and its result."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from groundgate.contracts.claims import ExecutorOutput
from groundgate.contracts.enums import DecisionStatus, OutputKind, ParseStatus, Verdict
from groundgate.contracts.needs import NeedCoverage, QuestionNeeds
from groundgate.contracts.tools import ToolCall, ToolResult
from groundgate.contracts.verification import RetryContext, VerifierEvaluation

StepRole = Literal["planner", "executor", "gatekeeper", "verifier", "composer"]


class StopReason(StrEnum):
    """Why a run ended where it did (`RunResult.stop_reason`; docs/design.md §3.1, §1 invariant 7).

    A run that failed or was interrupted is recorded with a free text instead (`error: …`,
    `interrupted: …`), so stored and API values are plain strings; the orchestrator only ever
    ends a run with one of these.
    """

    # the verdict decided
    VERDICT_PASS = "verdict_pass"
    VERDICT_REJECT = "verdict_reject"
    LOW_CONFIDENCE_ABOVE_THRESHOLD = "low_confidence_above_threshold"
    NOT_VERIFIED = "not_verified"
    # evidence ran out
    NO_VALID_PLAN = "no_valid_plan"
    NO_NEW_EVIDENCE_TARGET = "no_new_evidence_target"
    NO_QUALIFIED_EVIDENCE = "no_qualified_evidence"
    NO_NEW_EVIDENCE = "no_new_evidence"
    # budgets
    MAX_ROUNDS = "max_rounds"
    BUDGET_TOOL_CALLS = "budget_tool_calls"
    BUDGET_CALLS_PER_ROUND = "budget_calls_per_round"
    BUDGET_WALL_TIME = "budget_wall_time"


class AgentStep(BaseModel):
    """One role's step: a structured action, its observation and a reason code — never hidden reasoning."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    role: StepRole
    round: int
    thought: str = ""
    """A concise, structured note written by code (what was decided and why), not a model's chain of thought."""
    reason_code: str = ""
    model_output: dict[str, Any] | None = None
    """Snapshot of the parsed model output (or the offline implementation's output)."""
    parse_status: ParseStatus = ParseStatus.NOT_CALLED
    model_name: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0


class PlannerOutput(BaseModel):
    """The planner's structured output: which registered tools to call and why."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    intent: str = ""
    """A short label of what the user wants (e.g. `diagnose_error`, `lookup_policy`)."""
    calls: list[ToolCall] = Field(default_factory=list)
    evidence_targets: list[str] = Field(default_factory=list)
    """What evidence the calls are meant to find (round 2: the missing facts)."""


class RunEvent(BaseModel):
    """A progress event (CLI progress now, server-sent events later)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    stage: Literal[
        "run_started", "planning", "tool_call", "tool_result", "gatekeeper", "verifier", "round_done", "final"
    ]
    round: int = 0
    detail: dict[str, Any] = Field(default_factory=dict)


class AnswerCitation(BaseModel):
    """A numbered source shown with the answer."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    number: int
    citation_id: str
    source: str
    excerpt: str
    invocation_id: str


class RunResult(BaseModel):
    """Everything one run produced; what `ask --json` prints and what the store persists."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    run_id: str
    session_id: str
    question: str
    status: Literal["SUCCEEDED", "FAILED"] = "SUCCEEDED"
    """Execution status only; answer quality lives in `verdict` and `output_kind`."""
    output_kind: OutputKind
    verdict: Verdict | None = None
    """None when the verifier never ran (no evidence, budget exhausted before verification)."""
    decision_status: DecisionStatus
    groundedness_score: float = 0.0
    answer: str
    citations: list[AnswerCitation] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    rounds: int = 1
    stop_reason: str = ""
    """Why the run ended where it did: a `StopReason` (`verdict_pass`, `no_new_evidence_target`,
    `budget_tool_calls`, …), or the free text of a failed or interrupted run."""
    steps: list[AgentStep] = Field(default_factory=list)
    plans: list[PlannerOutput] = Field(default_factory=list)
    tool_results: list[ToolResult] = Field(default_factory=list)
    executor_output: ExecutorOutput | None = None
    retry_context: RetryContext | None = None
    verifier_evaluation: VerifierEvaluation | None = None
    elapsed_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    resolved_question: str = ""
    """The question the run answered: `question`, or a follow-up completed from the session's earlier
    questions (for understanding only; earlier answers are never evidence)."""
    needs: QuestionNeeds | None = None
    need_coverage: list[NeedCoverage] = Field(default_factory=list)

"""The model-backed roles: planner and executor, each behind the `Model` protocol.

A role never raises on a model's failure: it returns a `RoleOutcome` with `output=None` and the
parse status, and the orchestrator follows the defined fallback. Prompts carry only business
content — never the `ExecutionContext` (docs/design.md §1 invariant 1).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from groundgate.contracts import (
    AgentStep,
    ExecutorOutput,
    Need,
    ParseStatus,
    PlannerOutput,
    QuestionNeeds,
    RetryContext,
    StepRole,
    ToolCall,
)
from groundgate.errors import ModelError
from groundgate.models.base import Message, Model, Role
from groundgate.verify.evidence_items import EvidenceItem

OutT = TypeVar("OutT", bound=BaseModel)


@dataclass(slots=True)
class RoleOutcome(Generic[OutT]):
    """A role's parsed output (None when the model failed) and the step that records it."""

    output: OutT | None
    step: AgentStep


@dataclass(frozen=True, slots=True)
class PlanRequest:
    """What the planner sees: the (resolved) question, its needs, the registered tools, and (round 2)
    the retry context with the needs still unmet."""

    question: str
    tools: Sequence[dict[str, Any]]
    round: int
    retry_context: RetryContext | None = None
    done_calls: Sequence[ToolCall] = ()
    needs: QuestionNeeds | None = None
    unspoken_names: Sequence[str] = ()
    """Round 2 after nothing qualified: the question's identifiers nothing read mentions."""

    @property
    def unmet_needs(self) -> list[Need]:
        """The needs round 2 must serve (all of them in round 1)."""
        if self.needs is None:
            return []
        if self.retry_context is None:
            return list(self.needs.needs)
        wanted = set(self.retry_context.unmet_need_ids)
        return [n for n in self.needs.needs if n.id in wanted]


@dataclass(frozen=True, slots=True)
class ExecuteRequest:
    """What the executor sees: the question and the qualified evidence, numbered."""

    question: str
    evidence: Sequence[EvidenceItem]
    round: int
    retry_context: RetryContext | None = None
    notes: Sequence[str] = field(default_factory=tuple)
    needs: QuestionNeeds | None = None
    """What the question asks (the executor should meet each need, or leave it unanswered)."""


class Planner(Protocol):
    def plan(self, request: PlanRequest) -> RoleOutcome[PlannerOutput]: ...


class Executor(Protocol):
    def execute(self, request: ExecuteRequest) -> RoleOutcome[ExecutorOutput]: ...


def call_model(
    model: Model,
    messages: Sequence[Message],
    output_type: type[OutT],
    *,
    role: Role,
    step_role: StepRole,
    round: int,
) -> RoleOutcome[OutT]:
    """Call a model for one role and record the step; a `ModelError` becomes a failed outcome."""
    started = time.perf_counter()
    try:
        response = model.request(messages, output_type, role=role)
    except ModelError as exc:
        return RoleOutcome(
            None,
            AgentStep(
                role=step_role,
                round=round,
                thought=f"{role} model failed: {type(exc).__name__}",
                reason_code=f"model_{exc.status.lower()}",
                parse_status=ParseStatus(exc.status),
                model_name=model.name,
                latency_ms=(time.perf_counter() - started) * 1000,
                model_output={"raw": (exc.raw_output or "")[:2000]} if exc.raw_output else None,
            ),
        )
    return RoleOutcome(
        response.output,
        AgentStep(
            role=step_role,
            round=round,
            parse_status=ParseStatus.OK,
            model_name=response.model_name or model.name,
            model_output=response.output.model_dump(mode="json"),
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            latency_ms=(time.perf_counter() - started) * 1000,
        ),
    )


_PLANNER_SYSTEM = """You are the planner of an evidence-gated assistant for operations and business questions.
Choose read-only tool calls that can prove the answer. Use only the tools listed, with only their
listed arguments. Never include tenant, user, project, space, app or role fields: authorization is
applied by the server. Keep every number, currency, date, period, comparator, negation and version
from the question exactly as written. Plan calls that can answer each listed need. In a retry round,
plan calls only for the unmet needs and do not repeat calls already made.
Answer with JSON: {"intent": str, "calls": [{"tool": str, "arguments": {...}, "purpose": str}],
"evidence_targets": [str]}."""


class ModelPlanner:
    """Planner backed by a model (structured output `PlannerOutput`)."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def plan(self, request: PlanRequest) -> RoleOutcome[PlannerOutput]:
        payload: dict[str, Any] = {"question": request.question, "tools": list(request.tools)}
        if request.needs is not None:
            payload["needs"] = [
                {"id": n.id, "need": n.label, "search": n.search_text} for n in request.unmet_needs
            ]
        if request.retry_context is not None:
            payload["retry_context"] = request.retry_context.model_dump()
            payload["calls_already_made"] = [c.model_dump(exclude_none=True) for c in request.done_calls]
        messages = [
            Message("system", _PLANNER_SYSTEM),
            Message("user", json.dumps(payload, ensure_ascii=False)),
        ]
        return call_model(
            self.model, messages, PlannerOutput, role="planner", step_role="planner", round=request.round
        )


_EXECUTOR_SYSTEM = """You are the executor of an evidence-gated assistant. Answer the question using ONLY the
numbered evidence. Answer each listed need with the evidence that meets it (the right entity, the
asked attribute, a condition that includes the asked case); leave a need unanswered rather than
answer it with a statement about something else. Write short claims; every claim must cite the evidence it comes from with its
invocation_id, citation_id and an excerpt copied verbatim from that evidence. Do not state anything
the evidence does not say. Mark a claim critical when it is a root cause, an error code / interface /
component attribution, a statement of what logs or documents show, a fix conclusion, or has a number.
Answer with JSON: {"schema_version": "executor_evidence_v2", "claims": [{"id": "c1", "text": str,
"claim_type": str, "critical": bool, "evidence_refs": [{"invocation_id": str, "citation_id": str,
"excerpt": str}]}], "final_answer": str}."""


def render_evidence(evidence: Sequence[EvidenceItem], *, max_chars: int = 700) -> str:
    """Evidence as the executor and verifier read it: one numbered block per item."""
    blocks = []
    for n, item in enumerate(evidence, start=1):
        text = item.text if len(item.text) <= max_chars else item.text[:max_chars] + "…"
        blocks.append(
            f"[E{n}] invocation_id={item.invocation_id} citation_id={item.citation_id} "
            f"type={item.evidence_type.value} source={item.source}\n{text}"
        )
    return "\n\n".join(blocks)


class ModelExecutor:
    """Executor backed by a model (structured output `ExecutorOutput`)."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def execute(self, request: ExecuteRequest) -> RoleOutcome[ExecutorOutput]:
        user = f"Question: {request.question}"
        if request.needs is not None and request.needs.needs:
            user += "\nNeeds:\n" + "\n".join(f"- {n.id}: {n.label}" for n in request.needs.needs)
        user += f"\n\nEvidence:\n{render_evidence(request.evidence)}"
        if request.retry_context is not None:
            user += "\n\nRetry context: " + request.retry_context.model_dump_json()
        messages = [Message("system", _EXECUTOR_SYSTEM), Message("user", user)]
        return call_model(
            self.model, messages, ExecutorOutput, role="executor", step_role="executor", round=request.round
        )

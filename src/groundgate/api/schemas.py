"""Request and response bodies (camelCase on the wire).

Request bodies are strictly typed (no coercion between JSON types), forbid unknown fields, and a body that names an authorization field (`tenantId`,
`tenant`, `userId`, `roles`, `projectId`, ...) is rejected with 422 and a message saying that
identity comes from the API key: tenant and user are never taken from a request body.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from groundgate.apps.feedback import FEEDBACK_VALUES
from groundgate.contracts import RunResult
from groundgate.contracts.context import AUTHORIZATION_FIELDS

NON_BLANK = r"\S"
"""JSON Schema `pattern` (a search, not anchored): the string has a non-whitespace character."""


class _Body(BaseModel):
    # strict: a value of another JSON type is a 422, never coerced (`"id": false` is not the id 0)
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _no_authorization_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            named = sorted(k for k in data if isinstance(k, str) and k in AUTHORIZATION_FIELDS)
            if named:
                raise ValueError(
                    f"{', '.join(named)} cannot be set in a request: tenant and user come from the API key"
                )
        return data


class ChatRequest(_Body):
    question: str = Field(min_length=1, max_length=100_000)
    """Also limited by `[api] max_question_chars` (2,000 by default)."""
    session_id: str | None = Field(default=None, min_length=1, max_length=64)


class Citation(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    number: int
    citation_id: str
    source: str
    excerpt: str
    invocation_id: str


class ToolCallSummary(BaseModel):
    tool: str
    status: str
    round: int
    arguments: dict[str, Any] = Field(default_factory=dict)


class ChatResponse(BaseModel):
    """One answered question (the same fields as `groundgate ask --json`)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    run_id: str
    session_id: str
    question: str
    output_kind: str
    verdict: str | None = None
    decision_status: str | None = None
    groundedness_score: float = 0.0
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    """The evidence gaps the verifier named."""
    rounds: int = 1
    stop_reason: str = ""
    tool_calls: list[ToolCallSummary] = Field(default_factory=list)
    elapsed_ms: float = 0.0

    @classmethod
    def from_result(cls, result: RunResult) -> ChatResponse:
        return cls(
            run_id=result.run_id,
            session_id=result.session_id,
            question=result.question,
            output_kind=result.output_kind.value,
            verdict=result.verdict.value if result.verdict else None,
            decision_status=result.decision_status.value,
            groundedness_score=result.groundedness_score,
            answer=result.answer,
            citations=[Citation(**c.model_dump()) for c in result.citations],
            gaps=list(result.gaps),
            rounds=result.rounds,
            stop_reason=result.stop_reason,
            tool_calls=[
                ToolCallSummary(tool=r.tool, status=r.status.value, round=r.round, arguments=r.arguments)
                for r in result.tool_results
            ],
            elapsed_ms=round(result.elapsed_ms, 1),
        )


class CheckBody(_Body):
    """The grounding checker's input: context passages and an answer (as `groundgate check`)."""

    id: str | int | None = None
    question: str | None = None
    context: (
        Annotated[
            list[str],
            Field(min_length=1, json_schema_extra={"contains": {"type": "string", "pattern": NON_BLANK}}),
        ]
        | Annotated[str, Field(pattern=NON_BLANK)]
    )
    """One passage, or a list of passages of which at least one is not blank (else 400)."""
    answer: str = Field(min_length=1)

    @field_validator("id", mode="before")
    @classmethod
    def _integral_id(cls, value: Any) -> Any:
        # JSON Schema counts 30.0 as the integer 30; a boolean stays an error (strict).
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


class FeedbackRequest(_Body):
    """Seed 004 §7. `feedback` other than `useful` / `not_useful` is answered with HTTP 400."""

    run_id: str | None = None
    session_id: str = Field(min_length=1)
    feedback: str = Field(json_schema_extra={"enum": list(FEEDBACK_VALUES)})
    """Documented as the enum it is; still a plain string, so another value is the specified 400."""


class ErrorBody(BaseModel):
    error: str
    message: str
    detail: list[dict[str, Any]] | None = None


class Health(BaseModel):
    status: str
    mode: str
    """`local` (no keys: single user, loopback only) or `keys`."""


class Identity(BaseModel):
    """The caller as the service sees it (from the API key, or `[local]` without keys)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    tenant: str
    user: str
    roles: list[str]
    allowed_projects: list[str] = Field(default_factory=list)
    """Empty: no project restriction."""
    mode: str
    """`local` or `keys`."""
    can_write: bool
    """Whether the key may chat, check and give feedback (not only read)."""

"""Request and response bodies (camelCase on the wire).

Request bodies are strictly typed (no coercion between JSON types), forbid unknown fields, and a body that names an authorization field (`tenantId`,
`tenant`, `userId`, `roles`, `projectId`, ...) is rejected with 422 and a message saying that
identity comes from the API key: tenant and user are never taken from a request body.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from groundgate.apps.chat import FailedRun
from groundgate.apps.feedback import FEEDBACK_VALUES
from groundgate.contracts import NeedCoverage, OutputKind, QuestionNeeds, RunResult
from groundgate.text.safety import control_character_problem
from groundgate.tools.registry import is_authorization_field

NON_BLANK = r"\S"
"""JSON Schema `pattern` (a search, not anchored): the string has a non-whitespace character."""


# The control-character rule (groundgate.text.safety) as JSON Schema patterns, so the OpenAPI document
# says what is refused and a client or fuzzer generating "valid" data stays inside it.
_CONTROLS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f"
TEXT_PATTERN = f"^[^{_CONTROLS}]*$"
"""Free text: no control characters but tab, LF and CR."""
NON_BLANK_TEXT_PATTERN = f"^[^{_CONTROLS}]*[^\\s{_CONTROLS}][^{_CONTROLS}]*$"
"""Free text with at least one visible character."""
ID_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]+$"
"""An id: no control characters at all."""


def _free_text(value: str) -> str:
    # Tab, LF and CR are fine in text; NUL, other controls and lone surrogates are not
    # (groundgate.text.safety says why). Checked here, not by the pattern, for a message that names
    # the character and its position.
    problem = control_character_problem(value, allow_whitespace=True)
    if problem is not None:
        raise ValueError(f"the text {problem}")
    return value


def _non_blank_text(value: str) -> str:
    _free_text(value)
    if not value.strip():
        raise ValueError("the text is blank")
    return value


def _identifier(value: str) -> str:
    problem = control_character_problem(value, allow_whitespace=False)
    if problem is not None:
        raise ValueError(f"the id {problem}")
    return value


Text = Annotated[str, AfterValidator(_free_text), WithJsonSchema({"type": "string", "pattern": TEXT_PATTERN})]
"""Free text (a question, a passage): no control characters but tab, LF and CR."""
NonBlankText = Annotated[
    str,
    AfterValidator(_non_blank_text),
    WithJsonSchema({"type": "string", "minLength": 1, "pattern": NON_BLANK_TEXT_PATTERN}),
]
"""Free text with a visible character (an answer to check, a single context passage)."""
Identifier = Annotated[
    str,
    Field(min_length=1, max_length=64),
    AfterValidator(_identifier),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 64, "pattern": ID_PATTERN}),
]
"""A run or session id: 1-64 characters, no control characters."""


class _Body(BaseModel):
    # strict: a value of another JSON type is a 422, never coerced (`"id": false` is not the id 0)
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _no_authorization_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            # Any spelling (`tenantId`, `TENANT_ID`, `tenant-id`), as for a model's plan.
            named = sorted(k for k in data if isinstance(k, str) and is_authorization_field(k))
            if named:
                raise ValueError(
                    f"{', '.join(named)} cannot be set in a request: tenant and user come from the API key"
                )
        return data


class ChatRequest(_Body):
    question: Annotated[
        str,
        Field(min_length=1, max_length=100_000),
        AfterValidator(_free_text),
        WithJsonSchema(
            {"type": "string", "minLength": 1, "maxLength": 100_000, "pattern": NON_BLANK_TEXT_PATTERN}
        ),
    ]
    """Also limited by `[api] max_question_chars` (2,000 by default); a blank question is a 422."""
    session_id: Identifier | None = None


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
    resolved_question: str = ""
    """The question answered: a follow-up ("那 P2 呢？") completed from the session's earlier questions."""
    needs: QuestionNeeds | None = None
    """What the question asks, one need per part (issue 11)."""
    need_coverage: list[NeedCoverage] = Field(default_factory=list)
    """Per need: met by which verified claims, or why not."""

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
            resolved_question=result.resolved_question or result.question,
            needs=result.needs,
            need_coverage=list(result.need_coverage),
        )

    @classmethod
    def from_failed(cls, failed: FailedRun) -> ChatResponse:
        """A run that raised: the fixed `DEGRADED` answer, no verdict (the verifier did not finish)."""
        return cls(
            run_id=failed.run_id,
            session_id=failed.session_id,
            question=failed.question,
            output_kind=OutputKind.DEGRADED.value,
            answer=failed.answer,
            stop_reason=failed.stop_reason,
            resolved_question=failed.question,
        )


class CheckBody(_Body):
    """The grounding checker's input: context passages and an answer (as `groundgate check`)."""

    id: Identifier | int | None = None
    question: Text | None = None
    context: (
        Annotated[
            list[Text],
            Field(min_length=1, json_schema_extra={"contains": {"type": "string", "pattern": NON_BLANK}}),
        ]
        | NonBlankText
    )
    """One passage, or a list of passages of which at least one is not blank (else 400)."""
    answer: NonBlankText
    """A blank answer is a 422, as `groundgate check -a ""` is a usage error."""

    @field_validator("id", mode="before")
    @classmethod
    def _integral_id(cls, value: Any) -> Any:
        # JSON Schema counts 30.0 as the integer 30; a boolean stays an error (strict).
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


class FeedbackRequest(_Body):
    """Seed 004 §7. `feedback` other than `useful` / `not_useful` is answered with HTTP 400."""

    run_id: Identifier | None = None
    """Omitted: the session's latest run (docs/design.md §6). An empty string is a 422, not "latest"."""
    session_id: Identifier
    feedback: str = Field(json_schema_extra={"enum": list(FEEDBACK_VALUES)})
    """Documented as the enum it is; still a plain string, so another value is the specified 400."""


class ErrorBody(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    error: str
    message: str
    detail: list[dict[str, Any]] | None = None
    correlation_id: str | None = None
    """On a 5xx: the request's `X-Correlation-ID`; the details are in the service log under it."""


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

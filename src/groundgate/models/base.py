"""The one seam through which groundgate talks to language models."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

OutputT = TypeVar("OutputT", bound=BaseModel)
T = TypeVar("T")

#: The narrow roles a model may fill. Each may be served by a different model.
Role = Literal["planner", "executor", "verifier", "composer", "judge"]


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message sent to a model."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage of one model call."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class ModelResponse(Generic[T]):
    """A parsed structured output with what it cost."""

    output: T
    usage: Usage = field(default_factory=Usage)
    model_name: str = ""
    raw_text: str = ""
    """The model's raw answer, kept as the step's `model_output` snapshot."""


@runtime_checkable
class Model(Protocol):
    """Messages and a pydantic output type in; the parsed object and token usage out.

    Implementations raise `groundgate.errors.ModelError` subclasses (timeout, refusal, invalid
    JSON, schema mismatch, HTTP) and never let a third-party exception escape.
    """

    @property
    def name(self) -> str: ...

    def request(
        self,
        messages: Sequence[Message],
        output_type: type[OutputT],
        *,
        role: Role,
    ) -> ModelResponse[OutputT]: ...

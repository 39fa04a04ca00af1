"""A model that answers from a script: for users' own tests and for offline demos of the model seam.

`ScriptedModel` returns prepared outputs per role, in order, or asks a function; it records every
request it was sent. Prepared outputs go through the same parsing as real model answers, so a raw
string that is not JSON raises `ModelInvalidJSONError` and a dict that misses a field raises
`ModelOutputError`, exactly as the HTTP model would.

"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from pydantic import BaseModel

from groundgate.errors import ModelError, ScriptExhaustedError, UsageError
from groundgate.models._parsing import estimate_tokens, parse_structured_output
from groundgate.models.base import Message, ModelResponse, OutputT, Role, Usage

ScriptedOutput: TypeAlias = (
    "BaseModel | Mapping[str, Any] | str | BaseException | type[BaseException] | ModelResponse[Any]"
)
"""What a script may hold for one call.

- a pydantic instance: returned (re-validated into the requested type when it is another type);
- a dict: validated into the requested type;
- a string: parsed like a model's raw answer (so `"not json"` simulates invalid JSON);
- an exception instance or class: raised (e.g. `ModelTimeoutError("slow")`);
- a `ModelResponse`: its output is handled as above and its usage is reported as scripted.
"""

ScriptFunction: TypeAlias = Callable[[Sequence[Message], type[BaseModel], Role], Any]
"""`(messages, output_type, role) -> ScriptedOutput`; it may also raise."""


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request a `ScriptedModel` received."""

    role: Role
    messages: tuple[Message, ...]
    output_type: str
    """The requested output type's class name."""

    @property
    def prompt(self) -> str:
        """All message contents joined, for easy `in` assertions."""
        return "\n".join(m.content for m in self.messages)


class ScriptedModel:
    """A `Model` that answers from per-role queues of prepared outputs, or from a function.

    Queued outputs for the requested role are used first, in order; when the role's queue is
    empty, `function` is asked; with neither, `ScriptExhaustedError` is raised. Token usage is
    estimated deterministically (`estimate_tokens`: characters / 4) unless a `ModelResponse` with
    its own usage was scripted.

    Example::

        model = ScriptedModel({"judge": [JudgeOutput(claims=[]), ModelTimeoutError("slow")]})
    """

    def __init__(
        self,
        outputs: Mapping[Role, Iterable[ScriptedOutput]] | None = None,
        *,
        function: ScriptFunction | None = None,
        name: str = "scripted",
    ) -> None:
        self._name = name
        self._function = function
        self._queues: dict[str, deque[Any]] = {}
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        """Every request received, in order (also those that raised)."""
        for role, items in (outputs or {}).items():
            self.add(role, *items)

    @property
    def name(self) -> str:
        return self._name

    def add(self, role: Role, *outputs: ScriptedOutput) -> ScriptedModel:
        """Append outputs to a role's queue; returns the model for chaining."""
        with self._lock:
            self._queues.setdefault(role, deque()).extend(outputs)
        return self

    def remaining(self, role: Role) -> int:
        """How many scripted outputs are left for `role`."""
        with self._lock:
            return len(self._queues.get(role, ()))

    def requests_for(self, role: Role) -> list[RecordedRequest]:
        """The recorded requests of one role."""
        return [r for r in self.requests if r.role == role]

    def request(
        self,
        messages: Sequence[Message],
        output_type: type[OutputT],
        *,
        role: Role,
    ) -> ModelResponse[OutputT]:
        with self._lock:
            self.requests.append(RecordedRequest(role, tuple(messages), output_type.__name__))
            queue = self._queues.get(role)
            scripted: Any = queue.popleft() if queue else _NOTHING
        if scripted is _NOTHING:
            if self._function is None:
                raise ScriptExhaustedError(
                    f"ScriptedModel {self._name!r} has no scripted output left for role {role!r} "
                    f"(request #{len(self.requests)}, output type {output_type.__name__})"
                )
            scripted = self._function(messages, output_type, role)
        return self._respond(scripted, messages, output_type, role)

    def _respond(
        self, scripted: Any, messages: Sequence[Message], output_type: type[OutputT], role: Role
    ) -> ModelResponse[OutputT]:
        usage: Usage | None = None
        if isinstance(scripted, ModelResponse):
            usage = scripted.usage
            scripted = scripted.output
        if isinstance(scripted, BaseException):
            raise scripted
        if isinstance(scripted, type) and issubclass(scripted, BaseException):
            if issubclass(scripted, ModelError):
                raise scripted(f"scripted {scripted.__name__} for role {role!r}")
            raise scripted()
        output, raw = _coerce(scripted, output_type, role)
        if usage is None:
            usage = Usage(
                input_tokens=sum(estimate_tokens(m.content) for m in messages),
                output_tokens=estimate_tokens(raw),
            )
        return ModelResponse(output=output, usage=usage, model_name=self._name, raw_text=raw)


_NOTHING = object()


def _coerce(scripted: Any, output_type: type[OutputT], role: Role) -> tuple[OutputT, str]:
    what = f"scripted {role}"
    if isinstance(scripted, output_type):
        return scripted, scripted.model_dump_json()
    if isinstance(scripted, BaseModel):
        raw = scripted.model_dump_json()
    elif isinstance(scripted, str):
        raw = scripted
    elif isinstance(scripted, Mapping):
        raw = json.dumps(scripted, ensure_ascii=False, default=str)
    else:
        raise UsageError(
            f"ScriptedModel cannot answer with a {type(scripted).__name__}; script a pydantic "
            "instance, a dict, a string or an exception"
        )
    return parse_structured_output(raw, output_type, what=what), raw

"""Parsing a model's text into a structured output; shared by every `Model` implementation."""

from __future__ import annotations

import json
import math
import re

from pydantic import ValidationError

from groundgate.errors import ModelInvalidJSONError, ModelOutputError
from groundgate.models.base import OutputT

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*[ \t]*\n?(?P<body>.*?)\n?```$", re.DOTALL)
_THINK = re.compile(r"^\s*<think>.*?</think>\s*", re.DOTALL)


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate: one token per four characters, rounded up."""
    return math.ceil(len(text) / 4)


def strip_reasoning(text: str) -> str:
    """Drop a leading `<think>...</think>` block (Qwen3, DeepSeek-R1 on vLLM/Ollama).

    Hidden reasoning is never kept (docs/design.md §1 invariant 9), not even in the raw-output snapshot.
    """
    return _THINK.sub("", text, count=1)


def strip_json_fences(text: str) -> str:
    """Remove one surrounding Markdown code fence (```json ... ```), if present."""
    stripped = text.strip()
    match = _FENCE.match(stripped)
    return match.group("body").strip() if match else stripped


def parse_structured_output(text: str, output_type: type[OutputT], *, what: str = "model") -> OutputT:
    """Parse a model's text answer into `output_type`.

    Tries the text as it is, then without a Markdown code fence. Raises `ModelInvalidJSONError`
    when neither is JSON and `ModelOutputError` when the JSON does not fit the schema; both keep
    `text` as `raw_output`.
    """
    candidate = text.strip()
    try:
        json.loads(candidate)
    except ValueError:
        candidate = strip_json_fences(candidate)
        try:
            json.loads(candidate)
        except ValueError as exc:
            raise ModelInvalidJSONError(
                f"{what} answer is not JSON ({exc.__class__.__name__}: {exc})", raw_output=text
            ) from None
    try:
        return output_type.model_validate_json(candidate)
    except ValidationError as exc:
        raise ModelOutputError(
            f"{what} answer does not fit {output_type.__name__}: {_summarize(exc)}", raw_output=text
        ) from None


def _summarize(exc: ValidationError, limit: int = 3) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    parts = [f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}" for e in errors[:limit]]
    more = f" (+{len(errors) - limit} more)" if len(errors) > limit else ""
    return "; ".join(parts) + more

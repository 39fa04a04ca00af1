"""`OpenAIModel`: structured calls to any OpenAI-compatible chat-completions endpoint.

Works with OpenAI, DashScope/Qwen (compatible mode), vLLM, Ollama and anything else that speaks
`POST {base_url}/chat/completions`. Output is requested as JSON: with `response_format`
`json_schema` (strict when the schema allows it) or, for servers that only know JSON mode,
`json_object` with the schema written into the system prompt. The answer is validated against the
pydantic output type in code either way.

Every failure is translated here into a `groundgate.errors.ModelError` subclass; no exception of
the `openai` SDK or of the HTTP client escapes `OpenAIModel.request`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, cast

import httpx
from pydantic import BaseModel

from groundgate.errors import (
    ConfigurationError,
    ModelError,
    ModelHTTPError,
    ModelInvalidJSONError,
    ModelRefusalError,
)
from groundgate.models._openai_errors import make_client, translate_openai_error
from groundgate.models._parsing import estimate_tokens, parse_structured_output, strip_reasoning
from groundgate.models.base import Message, ModelResponse, OutputT, Role, Usage

if TYPE_CHECKING:
    import httpx2
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
    from openai.types.chat.completion_create_params import ResponseFormat

StructuredOutputMode = Literal["json_schema", "json_object"]


_SCHEMA_NAME = re.compile(r"[^A-Za-z0-9_-]")


class OpenAIModel:
    """A `Model` served by an OpenAI-compatible HTTP endpoint through the official `openai` SDK.

    `http_client` is the seam for transports, proxies and tests (an `httpx2.Client`, or a legacy
    `httpx.Client`, which the SDK still accepts). An injected client belongs to the caller and is
    not closed by `close()`; the SDK's own client is.
    """

    def __init__(
        self,
        model_name: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 0,
        temperature: float | None = 0.0,
        structured_output: StructuredOutputMode = "json_schema",
        http_client: httpx2.Client | httpx.Client | None = None,
        extra_body: Mapping[str, object] | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Configure the model; nothing is sent until `request`.

        `api_key=None` lets the SDK read `OPENAI_API_KEY`; local servers (vLLM, Ollama) accept any
        non-empty key. `temperature=None` leaves it out (reasoning models reject it).
        `extra_body` is merged into every request body (e.g. `{"enable_thinking": False}` for
        Qwen3 on DashScope). `max_retries` defaults to 0: callers own retries and fallbacks.
        """
        if not model_name:
            raise ConfigurationError("OpenAIModel needs a model_name")
        if structured_output not in ("json_schema", "json_object"):
            raise ConfigurationError(
                f"structured_output must be 'json_schema' or 'json_object', not {structured_output!r}"
            )
        if timeout_seconds <= 0:
            raise ConfigurationError("timeout_seconds must be positive")
        self.model_name = model_name
        self.timeout_seconds = timeout_seconds
        self.temperature = temperature
        self.structured_output: StructuredOutputMode = structured_output
        self.extra_body = dict(extra_body) if extra_body else None
        self._owns_http_client = http_client is None
        self._client = make_client(
            api_key=api_key,
            base_url=base_url,
            timeout_seconds=timeout_seconds,
            max_retries=max_retries,
            default_headers=default_headers,
            http_client=http_client,
            what="OpenAI client",
        )

    # ------------------------------------------------------------------ Model protocol

    @property
    def name(self) -> str:
        return self.model_name

    def request(
        self,
        messages: Sequence[Message],
        output_type: type[OutputT],
        *,
        role: Role,
    ) -> ModelResponse[OutputT]:
        """Send `messages`, ask for JSON fitting `output_type`, return the validated output.

        Raises `ModelTimeoutError`, `ModelRefusalError`, `ModelInvalidJSONError`,
        `ModelOutputError` or `ModelHTTPError` (a plain `ModelError` when `output_type` has no JSON
        schema); never a third-party exception.
        """
        what = f"{role} model {self.model_name!r}"
        try:
            payload = self._build_messages(messages, output_type)
            response_format = self._response_format(output_type)
        except Exception as exc:  # a schema pydantic cannot render: a caller bug, still contained
            raise ModelError(f"{what}: cannot build the request: {exc}") from None
        completion = self._send(payload, response_format, what)
        prompt_estimate = sum(estimate_tokens(str(m.get("content") or "")) for m in payload)
        return self._parse(completion, output_type, what, prompt_estimate)

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the SDK's HTTP client (an injected `http_client` is left to its owner)."""
        if self._owns_http_client:
            self._client.close()

    def __enter__(self) -> OpenAIModel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"OpenAIModel(model_name={self.model_name!r}, base_url={str(self._client.base_url)!r}, "
            f"structured_output={self.structured_output!r})"
        )

    # ------------------------------------------------------------------ request building

    def _build_messages(
        self, messages: Sequence[Message], output_type: type[BaseModel]
    ) -> list[ChatCompletionMessageParam]:
        contents = [(m.role, m.content) for m in messages]
        if self.structured_output == "json_object":
            schema = json.dumps(output_type.model_json_schema(), ensure_ascii=False, separators=(",", ":"))
            instruction = (
                "Reply with one JSON object, and nothing else, that conforms to this JSON Schema:\n" + schema
            )
            if contents and contents[0][0] == "system":
                contents[0] = ("system", f"{contents[0][1]}\n\n{instruction}")
            else:
                contents.insert(0, ("system", instruction))
        params: list[ChatCompletionMessageParam] = []
        for msg_role, content in contents:
            if msg_role == "system":
                params.append({"role": "system", "content": content})
            elif msg_role == "assistant":
                params.append({"role": "assistant", "content": content})
            else:
                params.append({"role": "user", "content": content})
        return params

    def _response_format(self, output_type: type[BaseModel]) -> ResponseFormat:
        if self.structured_output == "json_object":
            return {"type": "json_object"}
        strict = openai_strict_schema(output_type)
        schema = strict if strict is not None else output_type.model_json_schema()
        return {
            "type": "json_schema",
            "json_schema": {
                "name": schema_name(output_type),
                "schema": schema,
                "strict": strict is not None,
            },
        }

    # ------------------------------------------------------------------ the call

    def _send(
        self,
        payload: list[ChatCompletionMessageParam],
        response_format: ResponseFormat,
        what: str,
    ) -> ChatCompletion:
        options: dict[str, Any] = {}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        if self.extra_body:
            options["extra_body"] = self.extra_body
        try:
            completion = self._client.chat.completions.create(
                model=self.model_name,
                messages=payload,
                response_format=response_format,
                **options,
            )
            return cast("ChatCompletion", completion)
        except Exception as exc:  # never let a third-party exception escape this boundary
            raise translate_openai_error(exc, what, self.timeout_seconds) from exc

    def _parse(
        self, completion: Any, output_type: type[OutputT], what: str, prompt_estimate: int
    ) -> ModelResponse[OutputT]:
        try:
            choice = completion.choices[0]
            message = choice.message
            finish_reason = getattr(choice, "finish_reason", None)
            refusal = getattr(message, "refusal", None)
            content = message.content if isinstance(message.content, str) else ""
            reported = getattr(completion, "usage", None)
            usage = (
                Usage(int(reported.prompt_tokens or 0), int(reported.completion_tokens or 0))
                if reported is not None
                else None
            )
            served_by = completion.model if isinstance(completion.model, str) else ""
        except Exception as exc:  # the server answered something other than a chat completion
            raise ModelHTTPError(f"{what} returned no usable choice ({type(exc).__name__}: {exc})") from None
        if refusal:
            raise ModelRefusalError(f"{what} refused: {refusal}", raw_output=str(refusal))
        text = strip_reasoning(content)
        if finish_reason == "content_filter":
            raise ModelRefusalError(f"{what} was stopped by its content filter", raw_output=text or None)
        if not text.strip():
            raise ModelInvalidJSONError(
                f"{what} returned no content (finish_reason={finish_reason})", raw_output=text
            )
        suffix = " (cut off: finish_reason=length)" if finish_reason == "length" else ""
        output = parse_structured_output(text, output_type, what=what + suffix)
        if usage is None:  # some compatible servers omit usage: estimate so budgets still move
            usage = Usage(input_tokens=prompt_estimate, output_tokens=estimate_tokens(text))
        return ModelResponse(
            output=output, usage=usage, model_name=served_by or self.model_name, raw_text=text
        )


# --------------------------------------------------------------------------- JSON schema helpers


def schema_name(output_type: type[BaseModel]) -> str:
    """`output_type`'s name as OpenAI accepts it for `json_schema.name` (`[A-Za-z0-9_-]{1,64}`)."""
    return _SCHEMA_NAME.sub("_", output_type.__name__)[:64] or "output"


# Keywords strict mode rejects outright: the schema is then sent non-strict.
_STRICT_UNSUPPORTED = frozenset(
    {
        "patternProperties",
        "unevaluatedProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "then",
        "else",
        "not",
        "prefixItems",
        "unevaluatedItems",
        "contains",
    }
)
# Validation-only keywords some strict implementations reject; pydantic checks them afterwards.
_STRICT_DROPPED = frozenset(
    {
        "default",
        "examples",
        "discriminator",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "minContains",
        "maxContains",
    }
)
_SUBSCHEMA_MAPS = frozenset({"properties", "$defs", "definitions"})
_SUBSCHEMAS = frozenset({"items", "anyOf", "oneOf", "allOf", "additionalProperties"})


class _NotStrictError(Exception):
    pass


def openai_strict_schema(output_type: type[BaseModel]) -> dict[str, Any] | None:
    """`output_type`'s JSON schema rewritten for OpenAI strict structured outputs, or None.

    Every object gets `additionalProperties: false` and lists all its properties as required
    (optional fields stay nullable through their `anyOf [..., null]`); `oneOf` becomes `anyOf`;
    a single-element `allOf` and a `$ref` with sibling keywords are inlined; validation-only
    keywords (`default`, lengths, bounds, `format`, `pattern`) are dropped because pydantic checks
    the answer afterwards. Returns None when the schema cannot be strict (free-form dicts,
    `dict[str, X]`, tuples, conditionals): the caller then sends it non-strict.
    """
    raw = output_type.model_json_schema()
    defs = raw.get("$defs", {})
    try:
        strict = _strictify(raw, defs)
    except _NotStrictError:
        return None
    if not isinstance(strict, dict) or strict.get("type") != "object":
        return None
    _prune_defs(strict)
    return strict


def _strictify(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, list):
        return [_strictify(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    unsupported = _STRICT_UNSUPPORTED.intersection(node)
    if unsupported:
        raise _NotStrictError(sorted(unsupported)[0])
    node = {key: value for key, value in node.items() if key not in _STRICT_DROPPED}
    if "$ref" in node and len(node) > 1:  # `$ref` may not have siblings in strict mode: inline it
        ref = node.pop("$ref")
        target = _resolve(ref, defs)
        node = {**target, **node}  # the field's own description wins over the definition's
    all_of = node.pop("allOf", None)
    if all_of is not None:
        if len(all_of) != 1:
            raise _NotStrictError("allOf")
        inner = _resolve(all_of[0]["$ref"], defs) if "$ref" in all_of[0] else all_of[0]
        node = {**inner, **node}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _STRICT_DROPPED:
            continue
        if key in _SUBSCHEMA_MAPS:
            out[key] = {name: _strictify(sub, defs) for name, sub in value.items()}
        elif key in _SUBSCHEMAS:
            out["anyOf" if key == "oneOf" else key] = _strictify(value, defs)
        else:
            out[key] = value
    if out.get("type") == "object" or "properties" in out:
        additional = out.get("additionalProperties")
        if additional not in (None, False) or "properties" not in out:
            raise _NotStrictError("free-form object")
        out["additionalProperties"] = False
        out["required"] = list(out["properties"])
    return out


def _prune_defs(schema: dict[str, Any]) -> None:
    """Drop `$defs` entries no longer referenced (after inlining)."""
    defs = schema.get("$defs")
    if not isinstance(defs, dict):
        return
    used: set[str] = set()
    stack: list[Any] = [{k: v for k, v in schema.items() if k != "$defs"}]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name not in used and name in defs:
                    used.add(name)
                    stack.append(defs[name])
            stack.extend(v for k, v in node.items() if k != "$ref")
    kept = {name: sub for name, sub in defs.items() if name in used}
    if kept:
        schema["$defs"] = kept
    else:
        del schema["$defs"]


def _resolve(ref: str, defs: Mapping[str, Any]) -> dict[str, Any]:
    prefix = "#/$defs/"
    if not ref.startswith(prefix) or ref[len(prefix) :] not in defs:
        raise _NotStrictError(f"unresolvable $ref {ref}")
    return cast(dict[str, Any], copy.deepcopy(defs[ref[len(prefix) :]]))


# --------------------------------------------------------------------------- error details

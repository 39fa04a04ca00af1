"""`OpenAIModel` over real HTTP: the official `openai` SDK against a local OpenAI-compatible server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from enum import StrEnum
from typing import Any, Literal

import httpx
import httpx2
import pytest
from pydantic import BaseModel, ConfigDict, Field

from groundgate.errors import (
    ConfigurationError,
    ModelError,
    ModelHTTPError,
    ModelInvalidJSONError,
    ModelOutputError,
    ModelRefusalError,
    ModelTimeoutError,
)
from groundgate.models.base import Message, Model
from groundgate.models.openai import OpenAIModel, openai_strict_schema, schema_name
from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply, unused_base_url

#: Real servers or whole CLI runs: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

API_KEY = "sk-test-123"


class Finding(BaseModel):
    model_config = ConfigDict(extra="forbid")

    component: str
    error_code: str | None = None
    count: int = 0


class Nested(BaseModel):
    model_config = ConfigDict(extra="forbid")

    findings: list[Finding]
    summary: str = ""


class FreeForm(BaseModel):
    labels: dict[str, int]


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = Field(default=9, ge=0, le=9)


class Dog(BaseModel):
    kind: Literal["dog"]
    name: str = Field(min_length=1, pattern=r"^[A-Z]")


class Level(StrEnum):
    LOW = "low"
    HIGH = "high"


class Tree(BaseModel):
    label: str
    children: list[Tree] = []


class Mixed(BaseModel):
    pet: Cat | Dog = Field(discriminator="kind")
    best: Finding = Field(default=Finding(component="x"), description="The best finding.")
    maybe: Finding | None = None
    level: Level = Field(description="How bad.")
    tree: Tree


MESSAGES = [Message("system", "You extract findings."), Message("user", "pay-api returned E1024 3 times")]
GOOD = {"component": "pay-api", "error_code": "E1024", "count": 3}


@pytest.fixture
def server() -> Iterator[OpenAICompatibleServer]:
    with OpenAICompatibleServer(api_key=API_KEY) as srv:
        yield srv


@pytest.fixture
def model(server: OpenAICompatibleServer) -> Iterator[OpenAIModel]:
    with OpenAIModel("test-model", base_url=server.base_url, api_key=API_KEY, timeout_seconds=5) as m:
        yield m


def test_is_a_model(model: OpenAIModel) -> None:
    assert isinstance(model, Model)
    assert model.name == "test-model"


def test_structured_output_over_the_wire(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply.json(GOOD, prompt_tokens=42, completion_tokens=7, model="served-model"))

    response = model.request(MESSAGES, Finding, role="executor")

    assert response.output == Finding(component="pay-api", error_code="E1024", count=3)
    assert response.usage.input_tokens == 42
    assert response.usage.output_tokens == 7
    assert response.model_name == "served-model"
    assert json.loads(response.raw_text) == GOOD

    sent = server.chat_requests[-1]
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert sent.body["model"] == "test-model"
    assert sent.body["temperature"] == 0
    assert sent.messages == [
        {"role": "system", "content": "You extract findings."},
        {"role": "user", "content": "pay-api returned E1024 3 times"},
    ]
    fmt = sent.response_format
    assert fmt is not None
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Finding"
    assert fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["component", "error_code", "count"]
    assert schema["properties"]["error_code"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert "default" not in json.dumps(schema)


def test_nested_schema_is_strict_everywhere() -> None:
    schema = openai_strict_schema(Nested)
    assert schema is not None
    finding = schema["$defs"]["Finding"]
    assert finding["additionalProperties"] is False
    assert finding["required"] == ["component", "error_code", "count"]
    assert schema["required"] == ["findings", "summary"]


def test_strict_schema_rewrites_what_strict_mode_rejects() -> None:
    schema = openai_strict_schema(Mixed)
    assert schema is not None
    text = json.dumps(schema)
    for keyword in ("oneOf", "discriminator", "default", "minLength", "pattern", "minimum", "maximum"):
        assert f'"{keyword}"' not in text
    props = schema["properties"]
    assert schema["required"] == ["pet", "best", "maybe", "level", "tree"]
    assert len(props["pet"]["anyOf"]) == 2
    # `$ref` with siblings is inlined; the field's description wins.
    assert "$ref" not in props["best"]
    assert props["best"]["description"] == "The best finding."
    assert props["best"]["additionalProperties"] is False
    assert props["level"] == {
        "description": "How bad.",
        "enum": ["low", "high"],
        "title": "Level",
        "type": "string",
    }
    assert props["maybe"]["anyOf"][1] == {"type": "null"}
    # Recursive models keep their reference; unused definitions are pruned.
    assert schema["$defs"]["Tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}
    assert "Level" not in schema["$defs"]
    for definition in schema["$defs"].values():
        if definition.get("type") == "object":
            assert definition["additionalProperties"] is False
            assert definition["required"] == list(definition["properties"])
    # And pydantic still validates what strict mode no longer enforces.
    assert (
        Mixed.model_validate(
            {
                "pet": {"kind": "dog", "name": "Rex"},
                "best": GOOD,
                "maybe": None,
                "level": "low",
                "tree": {"label": "t"},
            }
        ).pet.kind
        == "dog"
    )


def test_free_form_schema_is_sent_non_strict(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    assert openai_strict_schema(FreeForm) is None
    server.enqueue(ScriptedReply.json({"labels": {"a": 1}}))

    response = model.request(MESSAGES, FreeForm, role="planner")

    assert response.output.labels == {"a": 1}
    fmt = server.chat_requests[-1].response_format
    assert fmt is not None
    assert fmt["json_schema"]["strict"] is False
    assert fmt["json_schema"]["schema"] == FreeForm.model_json_schema()


def test_schema_name_is_sanitized() -> None:
    weird = type("Odd Name.v2", (BaseModel,), {"__annotations__": {"x": int}})
    assert schema_name(weird) == "Odd_Name_v2"


def test_json_object_mode_puts_schema_in_system_prompt(server: OpenAICompatibleServer) -> None:
    server.enqueue(ScriptedReply.json(GOOD), ScriptedReply.json(GOOD))
    with OpenAIModel(
        "qwen-plus",
        base_url=server.base_url,
        api_key=API_KEY,
        structured_output="json_object",
        temperature=None,
        extra_body={"enable_thinking": False},
    ) as model:
        assert model.request(MESSAGES, Finding, role="executor").output.count == 3
        model.request([Message("user", "no system prompt here")], Finding, role="executor")

    first, second = server.chat_requests
    assert first.response_format == {"type": "json_object"}
    assert "temperature" not in first.body
    assert first.body["enable_thinking"] is False
    system = first.messages[0]
    assert system["role"] == "system"
    assert system["content"].startswith("You extract findings.\n\n")
    assert "JSON Schema" in system["content"]
    assert json.dumps(Finding.model_json_schema(), separators=(",", ":")) in system["content"]
    assert len(first.messages) == 2
    # Without a system message, one is added in front.
    assert [m["role"] for m in second.messages] == ["system", "user"]


@pytest.mark.parametrize(
    "content",
    [
        '```json\n{"component": "pay-api", "error_code": "E1024", "count": 3}\n```',
        '```\n{"component": "pay-api", "error_code": "E1024", "count": 3}\n```',
        '  \n{"component": "pay-api", "error_code": "E1024", "count": 3}\n',
        '<think>hidden musing</think>\n{"component": "pay-api", "error_code": "E1024", "count": 3}',
    ],
)
def test_fenced_or_padded_json_is_accepted(
    server: OpenAICompatibleServer, model: OpenAIModel, content: str
) -> None:
    server.enqueue(ScriptedReply(content=content))
    response = model.request(MESSAGES, Finding, role="executor")
    assert response.output.error_code == "E1024"
    assert "hidden musing" not in response.raw_text


def test_bad_json_keeps_raw_output(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply(content="The component is pay-api."))
    with pytest.raises(ModelInvalidJSONError) as caught:
        model.request(MESSAGES, Finding, role="executor")
    assert caught.value.status == "INVALID_JSON"
    assert caught.value.raw_output == "The component is pay-api."


def test_empty_content_is_invalid_json(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply(content=None))
    with pytest.raises(ModelInvalidJSONError):
        model.request(MESSAGES, Finding, role="executor")


def test_schema_mismatch(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply.json({"component": "pay-api", "count": "many"}))
    with pytest.raises(ModelOutputError) as caught:
        model.request(MESSAGES, Finding, role="executor")
    assert not isinstance(caught.value, ModelInvalidJSONError)
    assert caught.value.status == "SCHEMA_MISMATCH"
    assert caught.value.raw_output is not None
    assert json.loads(caught.value.raw_output)["count"] == "many"
    assert "count" in str(caught.value)


def test_refusal(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply(refusal="I can't help with that."))
    with pytest.raises(ModelRefusalError) as caught:
        model.request(MESSAGES, Finding, role="executor")
    assert caught.value.status == "REFUSED"
    assert caught.value.raw_output == "I can't help with that."


def test_content_filter_is_a_refusal(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply(content=None, finish_reason="content_filter"))
    with pytest.raises(ModelRefusalError):
        model.request(MESSAGES, Finding, role="executor")


@pytest.mark.slow
def test_timeout(server: OpenAICompatibleServer) -> None:
    server.enqueue(ScriptedReply.json(GOOD, delay_seconds=1.0))
    with (
        OpenAIModel("test-model", base_url=server.base_url, api_key=API_KEY, timeout_seconds=0.3) as model,
        pytest.raises(ModelTimeoutError) as caught,
    ):
        model.request(MESSAGES, Finding, role="verifier")
    assert caught.value.status == "TIMEOUT"
    assert "0.3" in str(caught.value)
    assert len(server.chat_requests) == 1  # max_retries=0: no silent second attempt


@pytest.mark.parametrize(
    ("reply", "status_code"),
    [
        (ScriptedReply.error(500, "upstream exploded"), 500),
        (ScriptedReply(status=502, body="<html>bad gateway</html>"), 502),
        (ScriptedReply.error(429, "slow down"), 429),
    ],
)
def test_http_errors(
    server: OpenAICompatibleServer, model: OpenAIModel, reply: ScriptedReply, status_code: int
) -> None:
    server.enqueue(reply)
    with pytest.raises(ModelHTTPError) as caught:
        model.request(MESSAGES, Finding, role="composer")
    assert caught.value.status == "ERROR"
    assert f"HTTP {status_code}" in str(caught.value)
    assert len(server.chat_requests) == 1


def test_wrong_api_key_is_http_401(server: OpenAICompatibleServer) -> None:
    with (
        OpenAIModel("test-model", base_url=server.base_url, api_key="sk-wrong") as model,
        pytest.raises(ModelHTTPError) as caught,
    ):
        model.request(MESSAGES, Finding, role="executor")
    assert "HTTP 401" in str(caught.value)
    assert "Incorrect API key" in str(caught.value)


def test_connection_refused() -> None:
    with (
        OpenAIModel("test-model", base_url=unused_base_url(), api_key=API_KEY, timeout_seconds=2) as model,
        pytest.raises(ModelHTTPError) as caught,
    ):
        model.request(MESSAGES, Finding, role="executor")
    assert "unreachable" in str(caught.value)


def test_missing_usage_is_estimated(server: OpenAICompatibleServer, model: OpenAIModel) -> None:
    server.enqueue(ScriptedReply.json(GOOD, include_usage=False))
    response = model.request(MESSAGES, Finding, role="executor")
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0


@pytest.mark.parametrize("client_factory", [httpx.Client, httpx2.Client], ids=["httpx", "httpx2"])
def test_injected_http_client_is_used_and_left_open(
    server: OpenAICompatibleServer, client_factory: Any
) -> None:
    server.enqueue(ScriptedReply.json(GOOD))
    with client_factory(headers={"x-probe": "injected"}) as client:
        with OpenAIModel(
            "test-model", base_url=server.base_url, api_key=API_KEY, http_client=client
        ) as model:
            assert model.request(MESSAGES, Finding, role="executor").output.count == 3
        assert not client.is_closed  # the caller owns it
    assert server.chat_requests[-1].headers["x-probe"] == "injected"


@pytest.mark.parametrize(
    "reply",
    [
        ScriptedReply(body={"object": "list", "data": []}),
        ScriptedReply(body={"choices": []}),
        ScriptedReply(body="plain text, not JSON"),
        ScriptedReply(body={"choices": [{"index": 0, "finish_reason": "stop"}]}),
    ],
    ids=["not-a-completion", "no-choices", "text-body", "no-message"],
)
def test_malformed_200_answers_become_model_errors(
    server: OpenAICompatibleServer, model: OpenAIModel, reply: ScriptedReply
) -> None:
    server.enqueue(reply)
    with pytest.raises(ModelError) as caught:
        model.request(MESSAGES, Finding, role="executor")
    assert type(caught.value).__module__ == "groundgate.errors"


def test_failing_handler_answers_500() -> None:
    def broken(request: dict[str, Any]) -> ScriptedReply:
        raise RuntimeError("boom")

    with OpenAICompatibleServer(broken) as server:
        with OpenAIModel("m", base_url=server.base_url, api_key="k") as model, pytest.raises(ModelHTTPError):
            model.request(MESSAGES, Finding, role="executor")
        assert [str(e) for e in server.handler_errors] == ["boom"]


def test_configuration_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="api_key"):
        OpenAIModel("m", base_url="http://127.0.0.1:1/v1")
    with pytest.raises(ConfigurationError):
        OpenAIModel("", base_url="http://127.0.0.1:1/v1", api_key="k")
    with pytest.raises(ConfigurationError):
        OpenAIModel("m", base_url="http://127.0.0.1:1/v1", api_key="k", structured_output="xml")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        OpenAIModel("m", base_url="http://127.0.0.1:1/v1", api_key="k", timeout_seconds=0)


def test_models_endpoint(server: OpenAICompatibleServer) -> None:
    with httpx.Client() as client:
        answer = client.get(f"{server.base_url}/models", headers={"Authorization": f"Bearer {API_KEY}"})
    assert answer.status_code == 200
    assert answer.json()["data"][0]["id"] == "test-model"

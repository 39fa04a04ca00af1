"""`ScriptedModel`: per-role queues, functions, exceptions, raw strings, recording, exhaustion."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import BaseModel, ConfigDict

from groundgate.errors import (
    ModelInvalidJSONError,
    ModelOutputError,
    ModelRefusalError,
    ModelTimeoutError,
    ScriptExhaustedError,
    UsageError,
)
from groundgate.models._parsing import estimate_tokens, parse_structured_output, strip_json_fences
from groundgate.models.base import Message, Model, ModelResponse, Role, Usage
from groundgate.models.scripted import ScriptedModel


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tool: str
    query: str = ""


class Other(BaseModel):
    tool: str


MESSAGES = [Message("system", "plan it"), Message("user", "why did pay-api fail?")]


def test_is_a_model() -> None:
    model = ScriptedModel(name="script-1")
    assert isinstance(model, Model)
    assert model.name == "script-1"


def test_queues_are_per_role_and_in_order() -> None:
    model = ScriptedModel(
        {
            "planner": [Plan(tool="search"), {"tool": "logs", "query": "E1024"}],
            "composer": [Plan(tool="compose")],
        }
    )
    assert model.request(MESSAGES, Plan, role="planner").output == Plan(tool="search")
    assert model.request(MESSAGES, Plan, role="composer").output.tool == "compose"
    second = model.request(MESSAGES, Plan, role="planner")
    assert second.output == Plan(tool="logs", query="E1024")
    assert model.remaining("planner") == 0
    assert model.remaining("composer") == 0


def test_add_chains_and_appends() -> None:
    model = ScriptedModel().add("judge", {"tool": "a"}).add("judge", {"tool": "b"})
    assert model.remaining("judge") == 2
    assert [model.request(MESSAGES, Plan, role="judge").output.tool for _ in range(2)] == ["a", "b"]


def test_other_pydantic_type_is_revalidated() -> None:
    model = ScriptedModel({"planner": [Other(tool="search")]})
    assert model.request(MESSAGES, Plan, role="planner").output == Plan(tool="search")


def test_raw_strings_are_parsed_like_model_answers() -> None:
    model = ScriptedModel(
        {
            "executor": [
                '{"tool": "search"}',
                '```json\n{"tool": "fenced"}\n```',
                "Sure! Here is the plan: search.",
                '{"tool": 5, "extra": true}',
            ]
        }
    )
    assert model.request(MESSAGES, Plan, role="executor").output.tool == "search"
    assert model.request(MESSAGES, Plan, role="executor").output.tool == "fenced"
    with pytest.raises(ModelInvalidJSONError) as bad_json:
        model.request(MESSAGES, Plan, role="executor")
    assert bad_json.value.raw_output == "Sure! Here is the plan: search."
    with pytest.raises(ModelOutputError) as mismatch:
        model.request(MESSAGES, Plan, role="executor")
    assert mismatch.value.status == "SCHEMA_MISMATCH"
    assert mismatch.value.raw_output == '{"tool": 5, "extra": true}'


def test_dict_that_misses_a_field_is_a_schema_mismatch() -> None:
    model = ScriptedModel({"planner": [{"query": "no tool"}]})
    with pytest.raises(ModelOutputError):
        model.request(MESSAGES, Plan, role="planner")


def test_exceptions_are_raised() -> None:
    model = ScriptedModel(
        {"verifier": [ModelTimeoutError("slow"), ModelRefusalError, KeyError("not a model error")]}
    )
    with pytest.raises(ModelTimeoutError, match="slow"):
        model.request(MESSAGES, Plan, role="verifier")
    with pytest.raises(ModelRefusalError, match="verifier"):
        model.request(MESSAGES, Plan, role="verifier")
    with pytest.raises(KeyError):
        model.request(MESSAGES, Plan, role="verifier")


def test_function_answers_when_the_queue_is_empty() -> None:
    seen: list[tuple[Role, str, int]] = []

    def answer(messages: Sequence[Message], output_type: type[BaseModel], role: Role) -> object:
        seen.append((role, output_type.__name__, len(messages)))
        if role == "composer":
            raise ModelTimeoutError("function timeout")
        return {"tool": f"from-function-{role}"}

    model = ScriptedModel({"planner": [Plan(tool="queued")]}, function=answer)
    assert model.request(MESSAGES, Plan, role="planner").output.tool == "queued"
    assert model.request(MESSAGES, Plan, role="planner").output.tool == "from-function-planner"
    assert model.request(MESSAGES, Plan, role="judge").output.tool == "from-function-judge"
    with pytest.raises(ModelTimeoutError):
        model.request(MESSAGES, Plan, role="composer")
    assert seen == [("planner", "Plan", 2), ("judge", "Plan", 2), ("composer", "Plan", 2)]


def test_function_may_return_raw_strings_and_exceptions() -> None:
    model = ScriptedModel(function=lambda m, t, r: "not json" if r == "planner" else ModelRefusalError("no"))
    with pytest.raises(ModelInvalidJSONError):
        model.request(MESSAGES, Plan, role="planner")
    with pytest.raises(ModelRefusalError):
        model.request(MESSAGES, Plan, role="judge")


def test_requests_are_recorded_even_when_they_fail() -> None:
    model = ScriptedModel({"planner": [Plan(tool="a"), ModelTimeoutError("t")]})
    model.request(MESSAGES, Plan, role="planner")
    with pytest.raises(ModelTimeoutError):
        model.request([Message("user", "second")], Plan, role="planner")
    with pytest.raises(ScriptExhaustedError):
        model.request(MESSAGES, Other, role="judge")

    assert [(r.role, r.output_type) for r in model.requests] == [
        ("planner", "Plan"),
        ("planner", "Plan"),
        ("judge", "Other"),
    ]
    assert model.requests[0].messages == tuple(MESSAGES)
    assert "why did pay-api fail?" in model.requests[0].prompt
    assert [r.prompt for r in model.requests_for("planner")][1] == "second"


def test_exhaustion_is_a_clear_usage_error() -> None:
    model = ScriptedModel({"planner": [Plan(tool="only")]}, name="my-script")
    model.request(MESSAGES, Plan, role="planner")
    with pytest.raises(ScriptExhaustedError) as caught:
        model.request(MESSAGES, Plan, role="planner")
    assert isinstance(caught.value, UsageError)
    message = str(caught.value)
    assert "'my-script'" in message
    assert "'planner'" in message
    assert "Plan" in message


def test_unsupported_script_item() -> None:
    model = ScriptedModel({"planner": [42]})  # type: ignore[list-item]
    with pytest.raises(UsageError, match="int"):
        model.request(MESSAGES, Plan, role="planner")


def test_usage_is_a_deterministic_estimate() -> None:
    model = ScriptedModel({"planner": [Plan(tool="search"), Plan(tool="search")]})
    first = model.request(MESSAGES, Plan, role="planner")
    second = model.request(MESSAGES, Plan, role="planner")
    expected_in = estimate_tokens("plan it") + estimate_tokens("why did pay-api fail?")
    assert first.usage == second.usage == Usage(expected_in, estimate_tokens(first.raw_text))
    assert first.raw_text == '{"tool":"search","query":""}'
    assert first.model_name == "scripted"


def test_scripted_model_response_keeps_its_usage() -> None:
    model = ScriptedModel({"planner": [ModelResponse(Plan(tool="x"), Usage(1000, 50))]})
    response = model.request(MESSAGES, Plan, role="planner")
    assert response.usage.total_tokens == 1050
    assert response.output.tool == "x"


def test_estimate_tokens() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2


def test_helpers() -> None:
    assert strip_json_fences('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_json_fences('{"a": 1}') == '{"a": 1}'
    assert parse_structured_output('  ```JSON\n{"tool": "t"}```  ', Plan).tool == "t"

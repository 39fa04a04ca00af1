"""`/metrics` counts model tokens only for the steps a model answered: the offline roles (rules,
extraction, the offline checker) and the fixed templates record size estimates, not model tokens."""

from __future__ import annotations

import pytest

from _databases import make_run_result
from groundgate.api.metrics import Metrics, model_tokens
from groundgate.contracts import AgentStep, ParseStatus


def _step(model_name: str, status: ParseStatus, tokens: tuple[int, int]) -> AgentStep:
    return AgentStep(
        role="verifier",
        round=1,
        thought="",
        reason_code="",
        parse_status=status,
        model_name=model_name,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
    )


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ([("offline-rules", ParseStatus.OK, (0, 0))], (0, 0)),
        ([("offline-checker", ParseStatus.NOT_CALLED, (812, 0))], (0, 0)),
        ([("offline-extractive", ParseStatus.OK, (40, 3))], (0, 0)),
        ([("templates", ParseStatus.NOT_CALLED, (5, 5))], (0, 0)),
        ([("qwen-plus", ParseStatus.OK, (900, 120))], (900, 120)),
        ([("qwen-plus", ParseStatus.TIMEOUT, (900, 0))], (900, 0)),
        (
            [
                ("qwen-plus", ParseStatus.OK, (900, 120)),
                ("offline-checker", ParseStatus.NOT_CALLED, (700, 0)),
            ],
            (900, 120),
        ),
    ],
    ids=[
        "offline planner",
        "offline checker estimate",
        "offline executor",
        "templates",
        "a model",
        "a model that timed out",
        "a model and the offline checker",
    ],
)
def test_model_tokens_count_only_steps_a_model_answered(
    steps: list[tuple[str, ParseStatus, tuple[int, int]]], expected: tuple[int, int]
) -> None:
    result = make_run_result().model_copy(update={"steps": [_step(*s) for s in steps]})
    assert model_tokens(result) == expected


def test_an_offline_run_adds_no_tokens_to_the_exposition() -> None:
    metrics = Metrics()
    result = make_run_result().model_copy(
        update={
            "steps": [_step("offline-checker", ParseStatus.NOT_CALLED, (812, 0))],
            "input_tokens": 812,
        }
    )
    metrics.observe_run(result)
    text = metrics.exposition()
    assert 'groundgate_model_tokens_total{direction="input"} 0\n' in text
    assert (
        'groundgate_runs_total{verdict="PASS",output_kind="NORMAL"} 1\n' in text
        or "groundgate_runs_total{" in text
    )

"""The pipeline over real HTTP: OpenAI-compatible models (the `openai` SDK) per role, served by a
local test server on 127.0.0.1 that scripts each role's JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_pipeline import DOCS, KnowledgeArgs, LogArgs, NoArgs  # the same small tools

from groundgate.apps.chat import RoleModels, build_orchestrator
from groundgate.contracts import (
    DocumentEvidence,
    ExecutionContext,
    OutputKind,
    ParseStatus,
    ToolOutput,
    ToolSpec,
    Verdict,
)
from groundgate.models.openai import OpenAIModel
from groundgate.testing import OpenAICompatibleServer, ScriptedReply
from groundgate.tools.registry import ToolRegistry

CTX = ExecutionContext(tenant="acme", user="alice")


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    reg = ToolRegistry()

    def knowledge(args: KnowledgeArgs, ctx: ExecutionContext) -> ToolOutput:
        return ToolOutput(
            documents=[DocumentEvidence(citation_id="errors#1", source="docs/errors.md", text=DOCS["errors"])]
        )

    def logs(args: LogArgs, ctx: ExecutionContext) -> ToolOutput:
        return ToolOutput()

    reg.register(
        ToolSpec(name="lookup_knowledge", description="docs", argument_model=KnowledgeArgs), knowledge
    )
    reg.register(ToolSpec(name="query_logs", description="logs", argument_model=LogArgs), logs)
    reg.register(ToolSpec(name="noop", description="noop", argument_model=NoArgs), lambda a, c: ToolOutput())
    yield reg
    reg.close()


def _role(request: dict[str, Any]) -> str:
    system = request["messages"][0]["content"]
    if "planner" in system:
        return "planner"
    if "executor" in system:
        return "executor"
    return "verifier"


def _handler(*, verifier_reply: ScriptedReply | None = None) -> Any:
    def handle(request: dict[str, Any]) -> ScriptedReply:
        role = _role(request)
        if role == "planner":
            return ScriptedReply.json(
                {
                    "intent": "lookup",
                    "calls": [{"tool": "lookup_knowledge", "arguments": {"query": "ERR_TIMEOUT"}}],
                    "evidence_targets": ["definition"],
                }
            )
        if role == "executor":
            user = request["messages"][-1]["content"]
            invocation = user.split("invocation_id=")[1].split()[0]
            return ScriptedReply.json(
                {
                    "schema_version": "executor_evidence_v2",
                    "claims": [
                        {
                            "id": "c1",
                            "text": "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。",
                            "critical": True,
                            "evidence_refs": [
                                {
                                    "invocation_id": invocation,
                                    "citation_id": "errors#1",
                                    "excerpt": DOCS["errors"][:30],
                                }
                            ],
                        }
                    ],
                    "final_answer": "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。",
                }
            )
        if verifier_reply is not None:
            return verifier_reply
        return ScriptedReply.json(
            {
                "claims": [
                    {
                        "claim_index": 1,
                        "key": True,
                        "category": "direct_evidence",
                        "passage": 1,
                        "excerpt": DOCS["errors"][:30],
                        "rationale": "stated",
                    }
                ]
            }
        )

    return handle


def _models(base_url: str) -> RoleModels:
    def model() -> OpenAIModel:
        return OpenAIModel("test-model", base_url=base_url, api_key="k", timeout_seconds=5)

    return RoleModels(planner=model(), executor=model(), verifier=model())


@pytest.mark.slow
def test_every_role_over_real_http(registry: ToolRegistry) -> None:
    with OpenAICompatibleServer(_handler()) as server:
        result = build_orchestrator(registry, models=_models(server.base_url)).run(
            "ERR_TIMEOUT 是什么意思？", CTX
        )
        roles = [_role(r.body) for r in server.chat_requests]
    assert roles == ["planner", "executor", "verifier"]
    assert result.output_kind is OutputKind.NORMAL
    assert result.verdict is Verdict.PASS
    steps = {s.role: s for s in result.steps}
    for role in ("planner", "executor", "verifier"):
        assert steps[role].parse_status is ParseStatus.OK
        assert steps[role].input_tokens > 0  # usage recorded from the server's answer
    sent = json.dumps([r.body for r in server.chat_requests], ensure_ascii=False)
    assert "acme" not in sent
    assert "alice" not in sent  # the ExecutionContext never goes over the wire


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (ScriptedReply(content="definitely not json"), ParseStatus.INVALID_JSON),
        (ScriptedReply.error(500, "boom"), ParseStatus.ERROR),
        (ScriptedReply(refusal="I can't help with that"), ParseStatus.REFUSED),
    ],
)
def test_verifier_model_failure_falls_back_to_the_offline_checker(
    registry: ToolRegistry, reply: ScriptedReply, status: ParseStatus
) -> None:
    with OpenAICompatibleServer(_handler(verifier_reply=reply)) as server:
        result = build_orchestrator(registry, models=_models(server.base_url)).run(
            "ERR_TIMEOUT 是什么意思？", CTX
        )
    verifier = next(s for s in result.steps if s.role == "verifier")
    assert verifier.parse_status is status
    assert result.verdict is Verdict.PASS  # the offline checker classified the quoted claim
    assert result.output_kind is OutputKind.NORMAL

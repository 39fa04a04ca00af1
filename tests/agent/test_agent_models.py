"""The planner and composer seams over a real OpenAI-compatible HTTP model (the test server): what goes
over the wire carries no execution context, and what comes back is still validated in code."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from groundgate.agent import (
    AgentRuntime,
    DecisionStatus,
    PlanSource,
    ReasonCode,
    StaticDocumentSource,
    TaskStore,
    register_agent_tools,
)
from groundgate.demo.hr import DEMO_NOW, demo_context, demo_documents, load_tasks
from groundgate.models.openai import OpenAIModel
from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply
from groundgate.tools.registry import ToolRegistry

PLAN = {
    "intent": "POLICY_QUESTION",
    "domain": "leave",
    "normalized_question": "病假需要提供哪些材料？",
    "entities": ["病假"],
    "needs": ["MATERIALS"],
    "actions": [
        {"tool": "KNOWLEDGE_SEARCH", "arguments": {"query": "病假需要提供哪些材料？", "domain": "leave"}}
    ],
}
ANSWER = {
    "summary": "",
    "statements": [
        {
            "need": "MATERIALS",
            "text": "病假需提供二级以上医院出具的诊断证明。",
            "citations": ["hr-sick-leave#0"],
        },
        {"need": "MATERIALS", "text": "病假还需提供单位领导的签字同意书。", "citations": ["hr-sick-leave#0"]},
    ],
    "steps": [],
}


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    with ToolRegistry() as reg:
        register_agent_tools(
            reg, documents=StaticDocumentSource(demo_documents()), tasks=tasks, clock=lambda: DEMO_NOW
        )
        yield reg


def test_an_http_planner_and_composer_are_validated_like_any_model(registry: ToolRegistry) -> None:
    with OpenAICompatibleServer([ScriptedReply.json(PLAN), ScriptedReply.json(ANSWER)]) as server:
        model = OpenAIModel("test-model", base_url=server.base_url, api_key="sk-test")
        result = AgentRuntime(
            registry, planner_model=model, composer_model=model, clock=lambda: DEMO_NOW
        ).run("病假需要提供哪些材料？", demo_context())
        sent = [json.dumps(r.messages, ensure_ascii=False) for r in server.chat_requests]
    assert result.plan is not None
    assert result.plan.source is PlanSource.MODEL
    assert result.status is DecisionStatus.ANSWERED
    assert result.answer_model_called
    assert [s.text for s in result.answer.statements] == ["病假需提供二级以上医院出具的诊断证明。"]
    assert [d.reason for d in result.dropped_statements] == [ReasonCode.STATEMENT_NOT_ENTAILED]
    assert len(sent) == 2
    for body in sent:  # seed L72: the ExecutionContext never enters a model's input
        for private in ("hrdemo", "u-li", "proj-east"):
            assert private not in body


def test_an_http_planner_that_names_a_tenant_is_discarded(registry: ToolRegistry) -> None:
    smuggled = {
        **PLAN,
        "actions": [{"tool": "KNOWLEDGE_SEARCH", "arguments": {"query": "病假材料", "TenantId": "acme"}}],
    }
    with OpenAICompatibleServer([ScriptedReply.json(smuggled)]) as server:
        model = OpenAIModel("test-model", base_url=server.base_url, api_key="sk-test")
        result = AgentRuntime(registry, planner_model=model, clock=lambda: DEMO_NOW).run(
            "病假需要提供哪些材料？", demo_context()
        )
    assert result.plan is not None
    assert result.plan.source is PlanSource.RULES_AFTER_DISCARD
    assert result.plan.validation[0] is ReasonCode.AUTHORIZATION_FIELD_IN_PLAN
    assert result.status is DecisionStatus.ANSWERED
    assert all("TenantId" not in a.arguments for a in result.actions)

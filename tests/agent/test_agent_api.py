"""`POST /api/agent/ask`: authenticated, context from the principal, additive reply, refs re-authorised."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.workspace import open_workspace
from groundgate.settings import Settings
from groundgate.store import open_store

LI = {"Authorization": "Bearer li-key"}
WANG = {"Authorization": "Bearer wang-key"}
ACME = {"Authorization": "Bearer acme-key"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir = tmp_path_factory.mktemp("agent-api")
    keys = {
        hash_key("li-key"): {
            "tenant": "hrdemo",
            "user": "u-li",
            "roles": ["user"],
            "allowed_projects": ["proj-east"],
        },
        hash_key("wang-key"): {
            "tenant": "hrdemo",
            "user": "u-wang",
            "roles": ["user"],
            "allowed_projects": ["proj-west"],
        },
        hash_key("acme-key"): {"tenant": "acme", "user": "alice", "roles": ["user"]},
    }
    settings = Settings(data_dir=data_dir, api={"keys": keys})  # type: ignore[arg-type]
    store = open_store(data_dir)
    with open_workspace(data_dir) as workspace:
        app = create_app(settings, workspace=workspace, store=store)
        with TestClient(app) as test_client:
            yield test_client
        hr = getattr(app.state, "agent_hr", None)
        if hr is not None:
            hr.close()
    store.close()


def _ask(client: TestClient, headers: dict[str, str], code: int = 200, **body: Any) -> dict[str, Any]:
    response = client.post("/api/agent/ask", json=body, headers=headers)
    assert response.status_code == code, response.text
    payload: dict[str, Any] = response.json()
    return payload


def test_an_answer_keeps_answer_citations_and_data_and_adds_the_decision(client: TestClient) -> None:
    # seed L95 "HTTP DTO 在兼容期保持 additive，旧客户端可继续读取 answer/citations/data"
    body = _ask(client, LI, question="一线城市出差住宿标准是多少？")
    assert body["decision"] == "ANSWERED"
    assert "600 元" in body["answer"]
    assert body["citations"][0]["citationId"] == "hr-travel-policy-2026#0"
    assert body["coveredNeeds"] == ["AMOUNT_RULE"]
    assert body["data"] == {}


def test_the_context_comes_from_the_api_key_never_the_body(client: TestClient) -> None:
    # seed L56 "授权与作用域参数始终由 ExecutionContext 注入"
    _ask(client, LI, 422, question="我有哪些待办？", tenantId="acme")
    _ask(client, LI, 422, question="我有哪些待办？", userId="u-wang")
    mine = _ask(client, LI, question="我有哪些待办？")
    theirs = _ask(client, WANG, question="我有哪些待办？")
    assert "审批王芳的病假申请" in mine["answer"]
    assert "审批王芳的病假申请" not in theirs["answer"]
    assert "审批西部项目组采购申请" in theirs["answer"]
    other_tenant = _ask(client, ACME, question="一线城市出差住宿标准是多少？")
    assert other_tenant["decision"] == "NO_EVIDENCE"


def test_a_session_carries_refs_that_only_their_owner_can_use(client: TestClient) -> None:
    # seed L181 "引用再次使用时必须按当前 tenant/app/user/conversation/project/version 重新读取 … 不能接受客户端回传的事实内容"
    _ask(client, LI, question="我有哪些待办？", sessionId="api-s1")
    second = _ask(client, LI, question="第二个任务什么时候截止？", sessionId="api-s1")
    assert second["relation"] == "REFERENCE"
    assert "完成年度体检预约" in second["answer"]
    assert (
        client.post(
            "/api/agent/ask", json={"question": "第一个任务是什么？", "sessionId": "api-s1"}, headers=WANG
        ).status_code
        == 403
    )
    forged = _ask(
        client, LI, question="第一个任务什么时候截止？", factRefs=["fact-forged"], sessionId="api-s2"
    )
    assert forged["decision"] == "NEEDS_INPUT"


def test_the_endpoint_needs_a_key(client: TestClient) -> None:
    assert client.post("/api/agent/ask", json={"question": "我有哪些待办？"}).status_code == 401


def test_a_question_the_agent_cannot_plan_falls_back_to_the_recorded_chat_pipeline(
    client: TestClient,
) -> None:
    # seed L197 "新 Evidence Evaluator 和 Grounded Composer 只接管新 Planner 能完整规划的请求，其他请求回退旧链路"
    body = _ask(client, LI, question="ERR_TIMEOUT 是哪个组件返回的？")
    assert body["fallback"] is True
    run = body["fallbackRun"]
    assert body["answer"] == run["answer"]
    trace = client.get(f"/api/trace/{run['runId']}", headers=LI)
    assert trace.status_code == 200, trace.text
    assert trace.json()["mode"] == "agent-fallback"


def test_an_agent_run_is_recorded_and_traceable_like_a_chat_run(client: TestClient) -> None:
    body = _ask(client, LI, question="差旅报销需要谁审批？", sessionId="api-trace")
    trace = client.get(f"/api/trace/{body['runId']}", headers=LI)
    assert trace.status_code == 200, trace.text
    run = trace.json()
    assert (run["mode"], run["decisionStatus"], run["outputKind"]) == ("agent", "ANSWERED", "NORMAL")
    assert [s["role"] for s in run["steps"]] == ["planner", "gatekeeper", "composer"]
    assert [t["tool"] for t in run["toolInvocations"]] == ["KNOWLEDGE_SEARCH"]
    assert client.get(f"/api/trace/{body['runId']}", headers=WANG).status_code == 200  # same tenant
    assert client.get(f"/api/trace/{body['runId']}", headers=ACME).status_code == 404  # another tenant

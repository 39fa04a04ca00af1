"""The HTTP API through FastAPI's TestClient, on the demo workspace loaded once into a temp data dir."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from _databases import make_run_result
from groundgate.api import check_bind_address, create_app
from groundgate.api.auth import Principal, hash_key
from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import DEMO_ROOT, Workspace, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, RunResult, ToolCall, ToolStatus
from groundgate.errors import ModelError, UsageError
from groundgate.settings import Settings
from groundgate.store import Store, open_store
from groundgate.store.recorder import record_run
from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply

ACME_KEY = "acme-secret-key"
ACME2_KEY = "acme-second-user-key"
GLOBEX_KEY = "globex-secret-key"
VIEWER_KEY = "acme-viewer-key"
PAYMENT_KEY = "acme-payment-project-key"
HR_KEY = "acme-hr-project-key"
NORMAL_Q = "ERR_TIMEOUT 是哪个组件返回的？含义是什么？"
ACME = {"Authorization": f"Bearer {ACME_KEY}"}
GLOBEX = {"X-API-Key": GLOBEX_KEY}
VIEWER = {"Authorization": f"Bearer {VIEWER_KEY}"}
MAX_BODY = 4096


def _settings(data_dir: Path, *, keys: bool = True, **more: Any) -> Settings:
    api: dict[str, Any] = {"max_body_bytes": MAX_BODY}
    if keys:
        api["keys"] = {
            hash_key(ACME_KEY): {"tenant": "acme", "user": "alice", "roles": ["sre"]},
            hash_key(ACME2_KEY): {"tenant": "acme", "user": "bob", "roles": ["user"]},
            hash_key(GLOBEX_KEY): {"tenant": "globex", "user": "gina", "roles": ["admin"]},
            hash_key(VIEWER_KEY): {"tenant": "acme", "user": "victor", "roles": ["viewer"]},
            hash_key(PAYMENT_KEY): {
                "tenant": "acme",
                "user": "paula",
                "roles": ["sre"],
                "allowed_projects": ["payment"],
            },
            hash_key(HR_KEY): {
                "tenant": "acme",
                "user": "harry",
                "roles": ["user"],
                "allowed_projects": ["hr"],
            },
        }
    return Settings(data_dir=data_dir, api=api, **more)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("api-data")


@pytest.fixture(scope="module")
def workspace(data_dir: Path) -> Iterator[Workspace]:
    with open_workspace(data_dir) as ws:
        load_demo(ws)
        yield ws


@pytest.fixture(scope="module")
def store(data_dir: Path) -> Iterator[Store]:
    st = open_store(data_dir)
    yield st
    st.close()


@pytest.fixture(scope="module")
def client(data_dir: Path, workspace: Workspace, store: Store) -> Iterator[TestClient]:
    app = create_app(_settings(data_dir), workspace=workspace, store=store)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def acme_run(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/chat", json={"question": NORMAL_Q}, headers=ACME)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# ---------------------------------------------------------------- service endpoints


@pytest.mark.slow
def test_healthz_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "mode": "keys"}
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/chat",
        "/api/check",
        "/api/feedback",
        "/api/trace/{run_id}",
        "/api/sessions/{session_id}/runs",
        "/api/cases",
        "/api/runs",
        "/healthz",
        "/metrics",
    ):
        assert path in paths


def test_openapi_declares_how_to_authenticate(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    schemes = document["components"]["securitySchemes"]
    assert (schemes["bearer"]["type"], schemes["bearer"]["scheme"]) == ("http", "bearer")
    assert schemes["apiKey"]["in"] == "header"
    assert schemes["apiKey"]["name"] == "X-API-Key"
    assert {"bearer": []} in document["paths"]["/api/runs"]["get"]["security"]
    # the key headers are not ordinary parameters any more
    params = document["paths"]["/api/runs"]["get"].get("parameters", [])
    assert not [p for p in params if p["in"] == "header"]


def test_framework_errors_have_the_error_body(client: TestClient) -> None:
    not_utf8 = client.post(
        "/api/chat", content=b'{"question": "\xff\xfe"}', headers={**ACME, "Content-Type": "application/json"}
    )
    assert not_utf8.status_code in (400, 422)
    assert {"error", "message"} <= not_utf8.json().keys()
    unknown = client.get("/api/no-such-endpoint", headers=ACME)
    assert unknown.status_code == 404
    assert unknown.json() == {"error": "not_found", "message": "Not Found"}
    wrong_method = client.delete("/api/runs", headers=ACME)
    assert wrong_method.status_code == 405
    assert wrong_method.json()["error"] == "method_not_allowed"
    assert "GET" in wrong_method.headers["allow"]


def test_metrics_count_runs_tools_and_tokens(client: TestClient, acme_run: dict[str, Any]) -> None:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert 'groundgate_runs_total{verdict="PASS",output_kind="NORMAL"}' in text
    assert 'groundgate_tool_latency_seconds_count{tool="lookup_knowledge",status="OK"}' in text
    # Offline, no model ran: the offline roles' size estimates on their steps are not model tokens.
    assert 'groundgate_model_tokens_total{direction="input"} 0\n' in text
    assert 'groundgate_model_tokens_total{direction="output"} 0\n' in text


# ---------------------------------------------------------------- chat


def test_chat_answers_with_verdict_citations_and_gaps(acme_run: dict[str, Any]) -> None:
    assert acme_run["outputKind"] == "NORMAL"
    assert acme_run["verdict"] == "PASS"
    assert acme_run["groundednessScore"] == 1.0
    assert acme_run["citations"]
    assert {"runId", "sessionId", "answer", "gaps", "toolCalls", "stopReason"} <= acme_run.keys()


def test_chat_stream_has_the_stages_in_order_and_ends_with_the_result(client: TestClient) -> None:
    events: list[tuple[str, dict[str, Any]]] = []
    with client.stream(
        "POST", "/api/chat", json={"question": NORMAL_Q}, headers={**ACME, "Accept": "text/event-stream"}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        event = ""
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((event, json.loads(line.removeprefix("data: "))))
    names = [name for name, _ in events]
    order = [
        "run_started",
        "planning",
        "tool_call",
        "tool_result",
        "gatekeeper",
        "verifier",
        "final",
        "result",
    ]
    positions = [names.index(stage) for stage in order]
    assert positions == sorted(positions), names
    assert names[-1] == "result"
    assert names.count("result") == 1
    tool_result = next(data for name, data in events if name == "tool_result")
    assert tool_result["detail"]["status"] == "OK"
    result = events[-1][1]
    assert result["outputKind"] == "NORMAL"
    assert result["runId"] == events[0][1]["detail"]["run_id"]


def test_chat_continues_a_session(client: TestClient, acme_run: dict[str, Any]) -> None:
    response = client.post(
        "/api/chat",
        json={"question": "etcd 备份的保留周期是多少天？", "sessionId": acme_run["sessionId"]},
        headers=ACME,
    )
    assert response.status_code == 200
    assert response.json()["sessionId"] == acme_run["sessionId"]
    assert response.json()["outputKind"] == "DEGRADED"


def test_chat_limits_and_bad_input(client: TestClient) -> None:
    too_long = client.post("/api/chat", json={"question": "x" * 2001}, headers=ACME)
    assert too_long.status_code == 422
    assert "2000" in too_long.json()["message"]
    empty = client.post("/api/chat", json={"question": "   "}, headers=ACME)
    assert empty.status_code == 422
    malformed = client.post(
        "/api/chat", content=b'{"question": ', headers={**ACME, "Content-Type": "application/json"}
    )
    assert malformed.status_code == 422
    assert malformed.json()["message"] == "the request body is not valid JSON"
    missing = client.post("/api/chat", json={}, headers=ACME)
    assert missing.status_code == 422
    assert "question" in missing.json()["message"]


def test_oversized_body_is_413(client: TestClient) -> None:
    response = client.post("/api/chat", json={"question": "x" * (MAX_BODY + 10)}, headers=ACME)
    assert response.status_code == 413
    assert response.json()["error"] == "payload_too_large"


@pytest.mark.parametrize("field", ["tenantId", "tenant", "userId", "roles"])
def test_a_body_cannot_set_identity(client: TestClient, field: str) -> None:
    response = client.post("/api/chat", json={"question": NORMAL_Q, field: "globex"}, headers=ACME)
    assert response.status_code == 422
    assert "come from the API key" in response.json()["message"]


def test_unknown_body_fields_are_rejected(client: TestClient) -> None:
    response = client.post("/api/chat", json={"question": NORMAL_Q, "extra": 1}, headers=ACME)
    assert response.status_code == 422


# ---------------------------------------------------------------- auth


def test_missing_or_invalid_key_is_401(client: TestClient) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer nope"},
        {"X-API-Key": "nope"},
        {"Authorization": "Basic x"},
    ):
        response = client.get("/api/runs", headers=headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"] == "Bearer"
    assert client.post("/api/chat", json={"question": NORMAL_Q}).status_code == 401


def test_me_says_who_the_key_acts_as(client: TestClient) -> None:
    assert client.get("/api/me", headers=ACME).json() == {
        "tenant": "acme",
        "user": "alice",
        "roles": ["sre"],
        "allowedProjects": [],
        "mode": "keys",
        "canWrite": True,
    }
    viewer = client.get("/api/me", headers=VIEWER).json()
    assert (viewer["user"], viewer["canWrite"]) == ("victor", False)
    assert client.get("/api/me").status_code == 401


def test_viewer_reads_but_cannot_chat_check_or_give_feedback(
    client: TestClient, acme_run: dict[str, Any]
) -> None:
    assert client.get("/api/runs", headers=VIEWER).status_code == 200
    assert client.get(f"/api/trace/{acme_run['runId']}", headers=VIEWER).status_code == 200
    assert client.post("/api/chat", json={"question": NORMAL_Q}, headers=VIEWER).status_code == 403
    check_body = {"context": "a", "answer": "a"}
    assert client.post("/api/check", json=check_body, headers=VIEWER).status_code == 403
    feedback = {"sessionId": acme_run["sessionId"], "feedback": "useful"}
    assert client.post("/api/feedback", json=feedback, headers=VIEWER).status_code == 403


# ---------------------------------------------------------------- reading runs, tenants


def test_trace_and_session_runs_of_own_tenant(client: TestClient, acme_run: dict[str, Any]) -> None:
    trace = client.get(f"/api/trace/{acme_run['runId']}", headers=ACME)
    assert trace.status_code == 200
    body = trace.json()
    assert body["runId"] == acme_run["runId"]
    assert body["status"] == "SUCCEEDED"
    assert body["session"]["tenant"] == "acme"
    assert body["toolInvocations"]
    runs = client.get(f"/api/sessions/{acme_run['sessionId']}/runs", headers=ACME)
    assert runs.status_code == 200
    assert acme_run["runId"] in [r["runId"] for r in runs.json()]
    # another user of the same tenant sees the tenant's runs
    assert client.get(f"/api/trace/{acme_run['runId']}", headers={"X-API-Key": ACME2_KEY}).status_code == 200


def test_another_tenant_gets_404(client: TestClient, acme_run: dict[str, Any]) -> None:
    assert client.get(f"/api/trace/{acme_run['runId']}", headers=GLOBEX).status_code == 404
    assert client.get(f"/api/sessions/{acme_run['sessionId']}/runs", headers=GLOBEX).status_code == 404
    listed = client.get("/api/runs", headers=GLOBEX).json()
    assert acme_run["runId"] not in [r["runId"] for r in listed]
    assert (
        client.get("/api/runs", params={"sessionId": acme_run["sessionId"]}, headers=GLOBEX).status_code
        == 404
    )
    feedback = {"runId": acme_run["runId"], "sessionId": acme_run["sessionId"], "feedback": "useful"}
    assert client.post("/api/feedback", json=feedback, headers=GLOBEX).status_code == 404
    chat = {"question": NORMAL_Q, "sessionId": acme_run["sessionId"]}
    assert client.post("/api/chat", json=chat, headers=GLOBEX).status_code == 404
    assert client.get("/api/trace/no-such-run", headers=ACME).status_code == 404


def test_globex_runs_are_its_own(client: TestClient) -> None:
    run = client.post("/api/chat", json={"question": NORMAL_Q}, headers=GLOBEX).json()
    assert client.get(f"/api/trace/{run['runId']}", headers=GLOBEX).status_code == 200
    assert client.get(f"/api/trace/{run['runId']}", headers=ACME).status_code == 404
    assert [r["runId"] for r in client.get("/api/runs", headers=GLOBEX).json()] == [run["runId"]]


# ---------------------------------------------------------------- feedback and cases


def _chat(client: TestClient, question: str = NORMAL_Q, session_id: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"question": question}
    if session_id:
        body["sessionId"] = session_id
    response = client.post("/api/chat", json=body, headers=ACME)
    assert response.status_code == 200
    result: dict[str, Any] = response.json()
    return result


def test_feedback_without_run_id_binds_the_latest_run(client: TestClient) -> None:
    first = _chat(client)
    second = _chat(client, "etcd 备份的保留周期是多少天？", first["sessionId"])
    response = client.post(
        "/api/feedback", json={"sessionId": first["sessionId"], "feedback": "not_useful"}, headers=ACME
    )
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "message": "反馈已记录",
        "runId": second["runId"],
        "fallbackToLatestRun": True,
        "caseId": None,
        "inCaseLibrary": False,
    }
    bad = client.get("/api/runs", params={"feedback": "not_useful"}, headers=ACME).json()
    assert second["runId"] in [r["runId"] for r in bad]
    assert all(r["feedback"] == "not_useful" for r in bad)
    trace = client.get(f"/api/trace/{second['runId']}", headers=ACME).json()
    assert trace["status"] == "SUCCEEDED"
    assert trace["feedback"] == "not_useful"


def test_feedback_run_of_another_session_is_400(client: TestClient) -> None:
    one = _chat(client)
    other = _chat(client)
    response = client.post(
        "/api/feedback",
        json={"runId": one["runId"], "sessionId": other["sessionId"], "feedback": "useful"},
        headers=ACME,
    )
    assert response.status_code == 400
    assert "does not belong" in response.json()["message"]


def test_feedback_invalid_value_is_400(client: TestClient, acme_run: dict[str, Any]) -> None:
    for value in ("great", "USEFUL", ""):
        response = client.post(
            "/api/feedback",
            json={"runId": acme_run["runId"], "sessionId": acme_run["sessionId"], "feedback": value},
            headers=ACME,
        )
        assert response.status_code == 400, value
    unknown = client.post("/api/feedback", json={"sessionId": "nope", "feedback": "useful"}, headers=ACME)
    assert unknown.status_code == 404
    assert client.get("/api/runs", params={"feedback": "meh"}, headers=ACME).status_code == 400


def test_useful_twice_makes_one_case(client: TestClient) -> None:
    run = _chat(client)
    body = {"runId": run["runId"], "sessionId": run["sessionId"], "feedback": "useful"}
    first = client.post("/api/feedback", json=body, headers=ACME).json()
    second = client.post("/api/feedback", json=body, headers=ACME).json()
    assert first["caseId"]
    assert first["caseId"] == second["caseId"]
    assert first["fallbackToLatestRun"] is False
    cases = client.get("/api/cases", headers=ACME).json()
    mine = [c for c in cases if c["diagnosisId"] == run["runId"]]
    assert len(mine) == 1
    assert mine[0]["caseId"] == first["caseId"]
    assert mine[0]["title"] == NORMAL_Q
    assert all(c["diagnosisId"] != run["runId"] for c in client.get("/api/cases", headers=GLOBEX).json())


# ---------------------------------------------------------------- check


def test_check_endpoint(client: TestClient) -> None:
    response = client.post(
        "/api/check",
        json={
            "id": "p1",
            "context": ["差旅住宿标准：一线城市每晚不超过 600 元。超标部分需部门总监审批。"],
            "answer": "一线城市住宿每晚最多报销 600 元。超标部分无需审批。",
        },
        headers=ACME,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["id"] == "p1"
    assert body["verdict"] == "REJECT"
    assert body["groundedness_score"] == 0.0
    assert [c["category"] for c in body["claims"]] == ["direct_evidence", "contradicted"]
    # no passage, a blank passage, a wrongly typed id, no answer: the document says so, 422
    for bad in (
        {"context": [], "answer": "x"},
        {"context": "  ", "answer": "x"},
        {"context": "x", "answer": "x", "id": False},
        {"context": "x"},
    ):
        response = client.post("/api/check", json=bad, headers=ACME)
        assert response.status_code == 422, bad
    # a list of blank passages only (the document's `contains`, checked by the endpoint): 400
    # an integral number is an integer id, as JSON Schema counts it
    numbered = client.post("/api/check", json={"context": "x", "answer": "x", "id": 30.0}, headers=ACME)
    assert numbered.status_code == 200
    assert numbered.json()["id"] == 30
    assert (
        client.post("/api/check", json={"context": "x", "answer": "x", "id": 0.5}, headers=ACME).status_code
        == 422
    )
    blank = client.post("/api/check", json={"context": [" ", ""], "answer": "x"}, headers=ACME)
    assert blank.status_code == 400
    assert blank.json()["error"] == "bad_request"


# ---------------------------------------------------------------- projects (allowed_projects)


def _demo_scopes() -> dict[str, str]:
    """Demo document path (as tools report it, `payment/x.md`) → its `scope` (the project)."""
    scopes: dict[str, str] = {}
    for path in (DEMO_ROOT / "docs").rglob("*.md"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("scope:"):
                scopes[path.relative_to(DEMO_ROOT / "docs").as_posix()] = line.removeprefix("scope:").strip()
                break
    return scopes


def _documents_read(client: TestClient, run: dict[str, Any], headers: dict[str, str]) -> list[str]:
    trace = client.get(f"/api/trace/{run['runId']}", headers=headers).json()
    return [
        doc
        for inv in trace["toolInvocations"]
        if inv["tool"] == "lookup_knowledge"
        for doc in (inv["retrievalDetails"] or {}).get("source_documents", [])
    ]


def test_a_project_restricted_key_gets_no_evidence_from_another_project(client: TestClient) -> None:
    # The ERR_TIMEOUT answer lives in payment-scoped documents (the error-code table).
    scopes = _demo_scopes()
    assert scopes["payment/payment-gateway-error-codes.md"] == "payment"
    hr = {"X-API-Key": HR_KEY}
    run = client.post("/api/chat", json={"question": NORMAL_Q}, headers=hr).json()
    assert run["outputKind"] != "NORMAL"
    assert not any(scopes.get(c["source"].split(" > ")[0]) == "payment" for c in run["citations"])
    read = _documents_read(client, run, hr)
    assert all(scopes[doc] == "hr" for doc in read), read
    # the same question, unrestricted (same tenant): the payment documents answer it
    assert any(scopes[doc] == "payment" for doc in _documents_read(client, _chat(client), ACME))


def test_an_allowed_project_works(client: TestClient) -> None:
    scopes = _demo_scopes()
    payment = {"X-API-Key": PAYMENT_KEY}
    run = client.post("/api/chat", json={"question": NORMAL_Q}, headers=payment).json()
    assert run["outputKind"] == "NORMAL"
    assert run["verdict"] == "PASS"
    read = _documents_read(client, run, payment)
    assert read
    assert all(scopes[doc] == "payment" for doc in read), read
    me = client.get("/api/me", headers=payment).json()
    assert me["allowedProjects"] == ["payment"]


def test_a_domain_outside_the_allowed_projects_is_denied(client: TestClient, workspace: Workspace) -> None:
    # The offline planner names no domain; a model planner may. The context is the one the API
    # builds from the key, and the registry runs the call as a run of the pipeline would.
    ctx = Principal(tenant="acme", user="harry", roles=("user",), allowed_projects=("hr",)).context()
    denied = workspace.registry.execute(
        ToolCall(tool="lookup_knowledge", arguments={"query": "ERR_TIMEOUT", "domain": "payment"}),
        ctx,
        run_id="r-projects",
        round=1,
    )
    assert denied.status is ToolStatus.DENIED
    assert not denied.documents
    allowed = workspace.registry.execute(
        ToolCall(tool="lookup_knowledge", arguments={"query": "差旅补贴", "domain": "hr"}),
        ctx,
        run_id="r-projects",
        round=1,
    )
    assert allowed.status is ToolStatus.OK
    assert allowed.documents


# ---------------------------------------------------------------- sessions without a tenant


@pytest.fixture(scope="module")
def untenanted_run(store: Store) -> RunResult:
    """A run whose session has no tenant (NULL), as older or tenant-less recorders left them."""
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session, mode="chat", tenant=None)
    return result


def test_a_session_without_tenant_is_invisible_to_keyed_tenants(
    client: TestClient, untenanted_run: RunResult
) -> None:
    run_id, session_id = untenanted_run.run_id, untenanted_run.session_id
    for headers in (ACME, GLOBEX, VIEWER):
        assert client.get(f"/api/trace/{run_id}", headers=headers).status_code == 404
        assert client.get(f"/api/sessions/{session_id}/runs", headers=headers).status_code == 404
        assert client.get("/api/runs", params={"sessionId": session_id}, headers=headers).status_code == 404
        listed = client.get("/api/runs", params={"limit": 200}, headers=headers).json()
        assert run_id not in [r["runId"] for r in listed]
    feedback = {"runId": run_id, "sessionId": session_id, "feedback": "useful"}
    assert client.post("/api/feedback", json=feedback, headers=ACME).status_code == 404
    only_session = {"sessionId": session_id, "feedback": "not_useful"}
    assert client.post("/api/feedback", json=only_session, headers=ACME).status_code == 404
    chat = {"question": NORMAL_Q, "sessionId": session_id}
    assert client.post("/api/chat", json=chat, headers=ACME).status_code == 404


# ---------------------------------------------------------------- check with the judge model

POLICY = "差旅住宿标准：一线城市每晚不超过 600 元。超标部分需部门总监审批。"
POLICY_ANSWER = "一线城市住宿每晚最多报销 600 元。超标部分无需审批。"
JUDGE_OUTPUT = {
    "claims": [
        {
            "claim_index": 1,
            "key": True,
            "category": "direct_evidence",
            "passage": 1,
            "excerpt": "一线城市每晚不超过 600 元",
            "rationale": "JUDGE-SAYS the cap is stated.",
        },
        {
            "claim_index": 2,
            "key": True,
            "category": "contradicted",
            "passage": 1,
            "excerpt": "超标部分需部门总监审批",
            "rationale": "JUDGE-SAYS approval is required.",
        },
    ]
}


@pytest.fixture
def judge_server() -> Iterator[OpenAICompatibleServer]:
    with OpenAICompatibleServer(api_key="sk-judge") as server:
        yield server


def _judged_client(
    data_dir: Path, workspace: Workspace, store: Store, server: OpenAICompatibleServer, section: str
) -> TestClient:
    model = {"name": "judge-model", "base_url": server.base_url, "api_key": "sk-judge", "timeout_seconds": 5}
    configured = {"roles": {"judge": model}} if section == "roles.judge" else {"model": model}
    # chat stays offline: only /api/check is under test here
    offline = build_orchestrator(workspace.registry)
    app = create_app(
        _settings(data_dir, **configured), workspace=workspace, store=store, orchestrator=offline
    )
    return TestClient(app)


def _check(client: TestClient) -> dict[str, Any]:
    response = client.post(
        "/api/check", json={"id": "j1", "context": [POLICY], "answer": POLICY_ANSWER}, headers=ACME
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("section", ["roles.judge", "model"])
def test_check_uses_the_configured_judge_model(
    data_dir: Path, workspace: Workspace, store: Store, judge_server: OpenAICompatibleServer, section: str
) -> None:
    judge_server.enqueue(ScriptedReply.json(JUDGE_OUTPUT))
    with _judged_client(data_dir, workspace, store, judge_server, section) as judged:
        body = _check(judged)
    assert body["checker"] == "llm"
    assert body["judge_status"] == "OK"
    assert body["id"] == "j1"
    assert body["verdict"] == "REJECT"
    assert [c["category"] for c in body["claims"]] == ["direct_evidence", "contradicted"]
    assert body["claims"][0]["rationale"].startswith("JUDGE-SAYS")
    (sent,) = judge_server.chat_requests
    assert sent.body["model"] == "judge-model"
    assert POLICY in json.dumps(sent.messages, ensure_ascii=False)


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (ScriptedReply.error(500, "upstream exploded"), "ERROR"),
        (ScriptedReply(content="not json at all"), "INVALID_JSON"),
    ],
    ids=["http-500", "bad-json"],
)
def test_check_falls_back_to_the_offline_checker_when_the_judge_fails(
    client: TestClient,
    data_dir: Path,
    workspace: Workspace,
    store: Store,
    judge_server: OpenAICompatibleServer,
    reply: ScriptedReply,
    status: str,
) -> None:
    offline = _check(client)
    assert offline["checker"] == "offline"
    judge_server.enqueue(reply)
    with _judged_client(data_dir, workspace, store, judge_server, "roles.judge") as judged:
        body = _check(judged)
    assert len(judge_server.chat_requests) == 1
    assert body["checker"] == "offline"
    assert body["judge_status"] == status
    for field in ("verdict", "groundedness_score", "critical_fact_count"):
        assert body[field] == offline[field], field
    assert [c["category"] for c in body["claims"]] == [c["category"] for c in offline["claims"]]


# ---------------------------------------------------------------- outage, local mode, serve


class _BrokenOrchestrator:
    def run(self, question: str, ctx: ExecutionContext, **_kwargs: Any) -> RunResult:
        raise ModelError("the model endpoint is down")


def test_an_outage_is_a_degraded_answer_and_a_recorded_run(
    data_dir: Path, workspace: Workspace, store: Store
) -> None:
    app = create_app(
        _settings(data_dir),
        workspace=workspace,
        store=store,
        orchestrator=_BrokenOrchestrator(),  # type: ignore[arg-type]
    )
    with TestClient(app) as broken:
        response = broken.post("/api/chat", json={"question": NORMAL_Q}, headers=ACME)
        assert response.status_code == 200
        body = response.json()
        assert body["outputKind"] == "DEGRADED"
        assert body["verdict"] is None
        trace = broken.get(f"/api/trace/{body['runId']}", headers=ACME).json()
        assert trace["status"] == "FAILED"
        assert trace["outputKind"] == "DEGRADED"
        assert "ModelError" in trace["stopReason"]
        assert "groundgate_run_failures_total 1" in broken.get("/metrics").text


def test_a_run_that_cannot_be_recorded_is_not_answered(
    tmp_path: Path, data_dir: Path, workspace: Workspace
) -> None:
    """No answer without its audit record: a store that cannot record the run gives 503, not a 200."""
    from sqlalchemy import text

    broken_store = open_store(tmp_path / "broken")
    with broken_store.engine.begin() as connection:
        connection.execute(text("DROP TABLE diagnosis_run"))
    app = create_app(_settings(data_dir), workspace=workspace, store=broken_store)
    try:
        with TestClient(app) as client:
            response = client.post("/api/chat", json={"question": NORMAL_Q}, headers=ACME)
            assert response.status_code == 503
            assert response.json()["error"] == "unavailable"
            assert "nothing was answered without its audit record" in response.json()["message"]
            assert response.json()["correlationId"] == response.headers["x-correlation-id"]
            streamed = client.post(
                "/api/chat",
                json={"question": NORMAL_Q},
                headers={**ACME, "Accept": "text/event-stream"},
            )
            assert streamed.status_code == 200  # headers go out before the run starts
            events = [block.split("\n", 1)[0] for block in streamed.text.strip().split("\n\n")]
            assert events[-1] == "event: error"
            assert "event: result" not in events
            assert "nothing was answered without its audit record" in streamed.text
    finally:
        broken_store.close()


def test_local_mode_needs_no_key_and_acts_as_the_local_tenant(
    data_dir: Path, workspace: Workspace, store: Store
) -> None:
    app = create_app(
        _settings(data_dir, keys=False),
        workspace=workspace,
        store=store,
        orchestrator=build_orchestrator(workspace.registry),
    )
    with TestClient(app) as local:
        assert local.get("/healthz").json()["mode"] == "local"
        run = local.post("/api/chat", json={"question": NORMAL_Q}).json()
        trace = local.get(f"/api/trace/{run['runId']}").json()
        assert trace["session"]["tenant"] == "acme"


def test_local_mode_sees_sessions_without_tenant(
    data_dir: Path, workspace: Workspace, store: Store, untenanted_run: RunResult
) -> None:
    app = create_app(_settings(data_dir, keys=False), workspace=workspace, store=store)
    with TestClient(app) as local:
        trace = local.get(f"/api/trace/{untenanted_run.run_id}")
        assert trace.status_code == 200
        assert trace.json()["session"]["tenant"] is None
        runs = local.get(f"/api/sessions/{untenanted_run.session_id}/runs").json()
        assert [r["runId"] for r in runs] == [untenanted_run.run_id]


@pytest.mark.slow
def test_serve_refuses_a_public_address_without_keys(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"refusing to bind 0\.0\.0\.0"):
        check_bind_address(_settings(tmp_path, keys=False), "0.0.0.0")
    check_bind_address(_settings(tmp_path, keys=False), "127.0.0.1")
    check_bind_address(_settings(tmp_path, keys=True), "0.0.0.0")
    completed = subprocess.run(
        [sys.executable, "-m", "groundgate.cli", "serve", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "refusing to bind 0.0.0.0" in completed.stderr


def test_a_follow_up_in_the_same_session_is_understood_from_the_earlier_question(client: TestClient) -> None:
    first = client.post("/api/chat", json={"question": "P1 告警要求多长时间内确认？"}, headers=ACME).json()
    assert "5 分钟" in first["answer"]
    second = client.post(
        "/api/chat", json={"question": "那 P2 呢？", "sessionId": first["sessionId"]}, headers=ACME
    ).json()
    assert "15 分钟" in second["answer"], second
    trace = client.get(f"/api/trace/{second['runId']}", headers=ACME).json()
    planner = next(s for s in trace["steps"] if s["role"] == "planner")
    assert "P2" in planner["modelOutput"]["question_needs"]["resolved_question"]
    # the same words in a new session have nothing to lean on: not answered as P2's 15 minutes
    alone = client.post("/api/chat", json={"question": "那 P2 呢？"}, headers=ACME).json()
    assert alone["outputKind"] != "NORMAL" or "15 分钟" not in alone["answer"]

"""`[agent] mode`: the business agent beside `POST /api/chat` — off, shadow (seed "迁移顺序" 1), active (3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.api.auth import hash_key
from groundgate.apps.agent_rollout import shadow_session_id
from groundgate.apps.workspace import open_workspace
from groundgate.errors import ConfigurationError
from groundgate.settings import Settings, load_settings
from groundgate.store import open_store

#: Whole services on real stores: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

LI = {"Authorization": "Bearer li-key"}
WANG = {"Authorization": "Bearer wang-key"}
ACME = {"Authorization": "Bearer acme-key"}
KEYS = {
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
POLICY = "一线城市出差住宿标准是多少？"  # the agent plans it fully: AMOUNT_RULE
UNPLANNABLE = "ERR_TIMEOUT 是哪个组件返回的？"  # no HR need: the agent hands it back
VOLATILE = {"runId", "sessionId", "elapsedMs"}


class Service:
    def __init__(self, app: FastAPI, client: TestClient) -> None:
        self.app = app
        self.client = client

    def chat(self, headers: dict[str, str], **body: Any) -> dict[str, Any]:
        response = self.client.post("/api/chat", json=body, headers=headers)
        assert response.status_code == 200, response.text
        payload: dict[str, Any] = response.json()
        return payload

    def stream(self, headers: dict[str, str], **body: Any) -> list[tuple[str, dict[str, Any]]]:
        response = self.client.post(
            "/api/chat", json=body, headers={**headers, "Accept": "text/event-stream"}
        )
        assert response.status_code == 200, response.text
        events = []
        for block in response.text.strip().split("\n\n"):
            name, data = block.split("\n", 1)
            events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
        return events

    def drain(self) -> None:
        shadow = getattr(self.app.state, "agent_shadow", None)
        if shadow is not None:
            assert shadow.drain(timeout=30)

    def runs_of(self, headers: dict[str, str], session_id: str) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/sessions/{session_id}/runs", headers=headers)
        if response.status_code == 404:
            return []
        assert response.status_code == 200, response.text
        runs: list[dict[str, Any]] = response.json()
        return runs

    def trace(self, headers: dict[str, str], run_id: str) -> dict[str, Any]:
        response = self.client.get(f"/api/trace/{run_id}", headers=headers)
        assert response.status_code == 200, response.text
        trace: dict[str, Any] = response.json()
        return trace


@pytest.fixture
def service(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Service]:
    mode: str = request.param
    settings = Settings(data_dir=tmp_path, api={"keys": KEYS}, agent={"mode": mode})
    store = open_store(tmp_path)
    with open_workspace(tmp_path) as workspace:
        app = create_app(settings, workspace=workspace, store=store)
        with TestClient(app) as client:
            yield Service(app, client)
    store.close()


def _stable(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in VOLATILE}


def test_the_mode_is_off_by_default_and_a_misspelt_mode_is_refused() -> None:
    assert Settings().agent.mode == "off"
    with pytest.raises(ConfigurationError, match=r"agent\.mode"):
        load_settings(agent={"mode": "on"})
    with pytest.raises(ConfigurationError, match="agent"):
        load_settings(agent={"mode": "shadow", "ratio": 0.5})


@pytest.mark.parametrize("service", ["off"], indirect=True)
def test_off_mode_answers_with_the_chat_pipeline_alone(service: Service) -> None:
    body = service.chat(LI, question=POLICY)
    assert "answeredBy" not in body
    service.drain()
    assert service.runs_of(LI, shadow_session_id(body["runId"])) == []
    assert getattr(service.app.state, "agent_shadow", None) is None


@pytest.mark.parametrize("service", ["shadow"], indirect=True)
def test_shadow_mode_records_the_agents_decision_and_never_changes_the_chat_reply(
    service: Service, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # seed L195 "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"
    body = service.chat(LI, question=POLICY, sessionId="shadow-chat")
    service.drain()
    # The same reply as with the agent off (another service, its own data directory).
    off_dir = tmp_path_factory.mktemp("off")
    store = open_store(off_dir)
    with open_workspace(off_dir) as workspace:
        app = create_app(Settings(data_dir=off_dir, api={"keys": KEYS}), workspace=workspace, store=store)
        with TestClient(app) as client:
            off = Service(app, client).chat(LI, question=POLICY, sessionId="shadow-chat")
    store.close()
    assert _stable(body) == _stable(off)

    # The decision is recorded, in a session of its own found from the chat run's id.
    shadows = service.runs_of(LI, shadow_session_id(body["runId"]))
    assert [(r["mode"], r["query"]) for r in shadows] == [("agent-shadow", POLICY)]
    trace = service.trace(LI, shadows[0]["runId"])
    assert (trace["decisionStatus"], trace["outputKind"]) == ("ANSWERED", "NORMAL")
    # The chat session holds the chat run alone: its history and its latest run are unchanged.
    assert [r["mode"] for r in service.runs_of(LI, "shadow-chat")] == ["api"]


@pytest.mark.parametrize("service", ["shadow"], indirect=True)
def test_shadow_mode_also_runs_beside_a_streamed_chat(service: Service) -> None:
    events = service.stream(LI, question=POLICY)
    result = dict(events)["result"]
    assert "answeredBy" not in result
    service.drain()
    shadows = service.runs_of(LI, shadow_session_id(result["runId"]))
    assert [r["mode"] for r in shadows] == ["agent-shadow"]


@pytest.mark.parametrize("service", ["shadow"], indirect=True)
def test_an_agent_that_raises_in_shadow_mode_leaves_the_chat_reply_alone(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = service.chat(LI, question=POLICY)  # opens the HR workspace
    service.drain()

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the agent broke")

    monkeypatch.setattr(service.app.state.agent_hr.runtime, "run", boom)
    second = service.chat(LI, question=POLICY)
    service.drain()
    assert _stable(second) == _stable(first)
    # Recorded as it ran: the failure is an auditable FAILED run, not a silent gap.
    shadows = service.runs_of(LI, shadow_session_id(second["runId"]))
    assert [(r["mode"], r["status"]) for r in shadows] == [("agent-shadow", "FAILED")]
    assert shadows[0]["stopReason"] == "error: RuntimeError: the agent broke"
    assert service.chat(LI, question=POLICY)["answer"] == first["answer"]  # and the service goes on


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_active_mode_answers_a_fully_planned_question_with_the_agent_additively(service: Service) -> None:
    # seed L95 "HTTP DTO 在兼容期保持 additive，旧客户端可继续读取 answer/citations/data"
    body = service.chat(LI, question=POLICY)
    assert (body["answeredBy"], body["decision"], body["outputKind"]) == ("agent", "ANSWERED", "NORMAL")
    assert "600 元" in body["answer"]
    cited = body["citations"][0]
    assert (cited["number"], cited["citationId"]) == (1, "hr-travel-policy-2026#0")
    assert body["data"] == {}
    assert body["coveredNeeds"] == ["AMOUNT_RULE"]
    for field in ("runId", "sessionId", "question", "verdict", "groundednessScore", "gaps", "stopReason"):
        assert field in body  # the chat response's fields, as old clients read them
    trace = service.trace(LI, body["runId"])
    assert (trace["mode"], trace["decisionStatus"]) == ("agent", "ANSWERED")


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_active_mode_continues_the_agents_conversation_in_the_replys_session(service: Service) -> None:
    tasks = service.chat(LI, question="我有哪些待办？")
    second = service.chat(LI, question="第二个任务什么时候截止？", sessionId=tasks["sessionId"])
    assert (second["answeredBy"], second["relation"]) == ("agent", "REFERENCE")
    assert "完成年度体检预约" in second["answer"]
    assert [r["mode"] for r in service.runs_of(LI, tasks["sessionId"])] == ["agent", "agent"]


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_active_mode_refuses_another_users_conversation_before_any_stream_starts(service: Service) -> None:
    # seed L181 "引用再次使用时必须按当前 tenant/app/user/conversation/project/version 重新读取"
    mine = service.chat(LI, question="我有哪些待办？")
    follow = {"question": "第一个任务是什么？", "sessionId": mine["sessionId"]}
    assert service.client.post("/api/chat", json=follow, headers=WANG).status_code == 403
    streamed = service.client.post("/api/chat", json=follow, headers={**WANG, "Accept": "text/event-stream"})
    assert streamed.status_code == 403


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_active_mode_falls_back_to_the_chat_pipeline_recorded_as_such(service: Service) -> None:
    # seed L197 "新 Evidence Evaluator 和 Grounded Composer 只接管新 Planner 能完整规划的请求，其他请求回退旧链路"
    body = service.chat(ACME, question=UNPLANNABLE)
    assert (body["answeredBy"], body["fallback"]) == ("chat", True)
    assert "decision" not in body
    assert service.trace(ACME, body["runId"])["mode"] == "agent-fallback"
    # One record per question: the chat run (the agent's hand-back is what its mode says).
    assert [r["mode"] for r in service.runs_of(ACME, body["sessionId"])] == ["agent-fallback"]


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_active_mode_streams_an_agent_answer_and_a_fallback(service: Service) -> None:
    events = service.stream(LI, question=POLICY)
    assert [name for name, _ in events] == ["final", "result"]
    assert events[1][1]["answeredBy"] == "agent"
    events = service.stream(ACME, question=UNPLANNABLE)
    names = [name for name, _ in events]
    assert names[0] == "run_started"
    assert names[-1] == "result"
    result = events[-1][1]
    assert (result["answeredBy"], result["fallback"]) == ("chat", True)
    assert service.trace(ACME, result["runId"])["mode"] == "agent-fallback"


@pytest.mark.parametrize("service", ["active"], indirect=True)
def test_an_agent_that_raises_in_active_mode_falls_back_to_the_chat_pipeline(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.chat(LI, question=POLICY)  # opens the HR workspace

    def boom(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the agent broke")

    monkeypatch.setattr(service.app.state.agent_hr.runtime, "run", boom)
    body = service.chat(LI, question=POLICY)
    assert (body["answeredBy"], body["fallback"]) == ("chat", True)
    assert service.trace(LI, body["runId"])["mode"] == "agent-fallback"


def test_the_cli_ask_records_a_shadow_decision_without_changing_its_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from groundgate.cli import app

    def cli(*args: str) -> Any:
        result = CliRunner().invoke(app, [*args, "--json", "--data-dir", str(tmp_path)])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    monkeypatch.setenv("GROUNDGATE_LOCAL__TENANT", "hrdemo")
    monkeypatch.setenv("GROUNDGATE_LOCAL__USER", "u-li")
    off = cli("ask", POLICY)
    monkeypatch.setenv("GROUNDGATE_AGENT__MODE", "shadow")
    shadow = cli("ask", POLICY)
    assert _stable(shadow) == _stable(off)
    runs = cli("runs", "--session", shadow_session_id(shadow["runId"]))
    assert [(r["mode"], r["query"]) for r in runs] == [("agent-shadow", POLICY)]
    unshadowed = CliRunner().invoke(
        app, ["runs", "--session", shadow_session_id(off["runId"]), "--data-dir", str(tmp_path)]
    )
    assert unshadowed.exit_code == 2
    assert "unknown session id" in unshadowed.output


def test_a_queued_shadow_decision_is_recorded_before_the_service_closes_its_store(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, api={"keys": KEYS}, agent={"mode": "shadow"})
    store = open_store(tmp_path)
    with open_workspace(tmp_path) as workspace:
        app = create_app(settings, workspace=workspace, store=store)
        with TestClient(app) as client:
            body = Service(app, client).chat(LI, question=POLICY)
            # No drain here: leaving the client stops the app, whose lifespan waits for the worker.
        assert app.state.agent_shadow is None
        assert app.state.agent_hr is None  # the HR workspace is closed with the app
        with TestClient(create_app(settings, workspace=workspace, store=store)) as client:
            shadows = Service(app, client).runs_of(LI, shadow_session_id(body["runId"]))
    store.close()
    assert [r["mode"] for r in shadows] == ["agent-shadow"]

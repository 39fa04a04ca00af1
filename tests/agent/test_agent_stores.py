"""The agent on real stores: the `agent_task` migration, scoped task reads, end-to-end questions over
a Qdrant Edge shard and the SQLite run store, the extra contract cases and the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from typer.testing import CliRunner, Result

from groundgate.agent import ConversationState, DecisionStatus, TaskStore
from groundgate.cli import app
from groundgate.demo.hr import HR_TENANT, demo_context, load_tasks
from groundgate.demo.hr.evaluation import evaluate, load_questions
from groundgate.demo.hr.golden import load_cases, run_case
from groundgate.demo.hr.workspace import HrWorkspace, open_hr_workspace
from groundgate.store import open_store
from groundgate.store.engine import current_revision, head_revision

#: Whole services on real stores: CI (`make test`) runs these, the fast lane leaves them out.
pytestmark = pytest.mark.slow

HERE = Path(__file__).parent
EXTRA = load_cases((HERE / "extra_cases.yaml").read_text("utf-8"))


def test_the_store_migrations_create_the_task_table(tmp_path: Path) -> None:
    # seed L219 "数据库变更使用 additive、幂等 … SQL；旧服务忽略新增列"
    store = open_store(tmp_path)
    try:
        # At head, which includes `0004` (the task table); later revisions belong to other rooms.
        assert current_revision(store.engine) == head_revision()
        assert head_revision() >= "0004"
        assert "agent_task" in inspect(store.engine).get_table_names()
        tasks = TaskStore(store)
        assert load_tasks(tasks) == load_tasks(tasks)  # replacing is idempotent
    finally:
        store.close()
    open_store(tmp_path).close()  # at head already: nothing to do


@pytest.mark.parametrize(
    ("user", "project", "keys"),
    [
        ("u-li", "proj-east", ["T-1006", "T-1003", "T-1001", "T-1002", "T-1004"]),
        ("u-li", "proj-west", ["T-1101"]),
        ("u-wang", "proj-west", ["T-2001", "T-2002"]),
        ("u-wang", "proj-east", []),
        ("nobody", None, []),
    ],
)
def test_a_task_read_is_scoped_by_tenant_user_and_project(
    user: str, project: str | None, keys: list[str]
) -> None:
    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    rows = tasks.tasks(tenant=HR_TENANT, assignee=user, project=project)
    assert [r.task_key for r in rows] == keys
    assert tasks.tasks(tenant="acme", assignee=user, project=project) == []


def test_a_caller_limited_to_projects_never_reads_another_projects_task() -> None:
    from groundgate.agent import StaticDocumentSource, register_agent_tools
    from groundgate.contracts import ExecutionContext, ToolCall
    from groundgate.tools.registry import ToolRegistry

    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    ctx = ExecutionContext(tenant=HR_TENANT, user="u-li", allowed_projects=("proj-west",))
    with ToolRegistry() as registry:
        register_agent_tools(registry, documents=StaticDocumentSource([]), tasks=tasks)
        result = registry.execute(ToolCall(tool="MY_CURRENT_TASKS", arguments={}), ctx, run_id="r", round=1)
    titles = [f.value["title"] for f in result.facts if f.fact_type == "task"]
    assert titles == ["西部项目周报汇总"]


def test_a_due_date_window_narrows_the_tasks() -> None:
    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    rows = tasks.tasks(
        tenant=HR_TENANT, assignee="u-li", project="proj-east", start=date(2026, 4, 1), end=date(2026, 4, 30)
    )
    assert [r.task_key for r in rows] == ["T-1001", "T-1002", "T-1004"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HrWorkspace]:
    data_dir = tmp_path_factory.mktemp("hr")
    store = open_store(data_dir)
    try:
        with open_hr_workspace(data_dir, TaskStore(store)) as hr:
            yield hr
    finally:
        store.close()


def test_the_end_to_end_questions_score_without_a_wrong_answer(workspace: HrWorkspace) -> None:
    # issue 13: "at least 100 end-to-end questions over the HR demo on real stores … wrong ANSWERED rate
    # (target 0)". The main set was tuned on: all of it must hold.
    report = evaluate(workspace.runtime)
    assert report.total >= 100
    assert report.wrong_answered == 0
    assert report.summary()["misses"] == []
    assert (report.slot_recall, report.slot_precision) == (1.0, 1.0)


def test_the_held_out_questions_are_never_wrongly_answered(workspace: HrWorkspace) -> None:
    # Never tuned on: misses are allowed (offline rules miss synonyms), a wrong ANSWERED is not.
    holdout = files("groundgate.demo.hr").joinpath("eval_holdout.yaml").read_text("utf-8")
    report = evaluate(workspace.runtime, load_questions(holdout))
    assert report.total == 20
    assert report.wrong_answered == 0


def test_the_second_item_is_re_read_from_the_real_task_table(workspace: HrWorkspace) -> None:
    state = ConversationState()
    first = workspace.runtime.run("我有哪些待办？", demo_context(), state=state)
    state.remember(first.resolved.resolved_question, first.new_refs, first.resolved.invalidated_refs)
    second = workspace.runtime.run("第二个任务什么时候截止？", demo_context(), state=state)
    assert second.status is DecisionStatus.ANSWERED
    assert "完成年度体检预约" in second.answer.render()
    assert [a.tool for a in second.actions] == ["MY_CURRENT_TASKS"]


@pytest.mark.parametrize("case", EXTRA, ids=[c.id for c in EXTRA])
def test_each_extra_contract_case_holds(case: Any) -> None:
    outcome = run_case(case)
    assert outcome.passed, f"seed L{case.seed} ({case.quote}): " + "; ".join(outcome.failures)


# --------------------------------------------------------------------------- the CLI


def invoke(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})
    assert result.exit_code == code, (result.output, result.exception)
    return result


def test_agent_golden_prints_the_table_of_thirty_passing_cases() -> None:
    result = invoke("agent", "golden")
    assert "golden set: 30/30 passed" in result.stdout
    assert result.stdout.count("PASS") == 30
    rows = json.loads(invoke("agent", "golden", "--json").stdout)
    assert len(rows) == 30
    assert all(row["passed"] for row in rows)


def test_agent_ask_answers_and_carries_a_session(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    first = json.loads(
        invoke("agent", "ask", "我有哪些待办？", "--session", "s1", "--json", "--data-dir", data).stdout
    )
    assert first["decision"] == "ANSWERED"
    assert "answer" in first
    assert "citations" in first
    assert len(first["data"]["tasks"]) == 5
    second = json.loads(
        invoke(
            "agent", "ask", "第二个任务什么时候截止？", "--session", "s1", "--json", "--data-dir", data
        ).stdout
    )
    assert second["relation"] == "REFERENCE"
    assert "完成年度体检预约" in second["answer"]
    refused = invoke(
        "agent",
        "ask",
        "第一个任务是什么？",
        "--session",
        "s1",
        "--user",
        "u-wang",
        "--data-dir",
        data,
        code=2,
    )
    assert "belongs to another user" in refused.output
    plain = invoke("agent", "ask", "一线城市出差住宿标准是多少？", "--data-dir", data)
    assert "ANSWERED" in plain.stdout
    assert "600 元" in plain.stdout


def test_agent_eval_reports_the_scores(tmp_path: Path) -> None:
    summary = json.loads(invoke("agent", "eval", "--json", "--data-dir", str(tmp_path / "data")).stdout)
    assert summary["questions"] >= 100
    assert summary["wrongAnswered"] == 0
    assert summary["decisionAccuracy"] == 1.0


def test_conversation_state_keeps_refs_not_facts_beside_the_legacy_turns(tmp_path: Path) -> None:
    # seed L172-181 "context_json 继续保持旧版 List<Turn> 格式。结构化状态使用 additive 的 state_json/state_version 列；
    # 其中的 factRef 仅映射到服务端保存的工具代码、业务参数、itemKey、时点、TTL、作用域、授权快照和审计引用，不保存工具事实正文"
    from sqlalchemy import select

    from groundgate.agent.sessions import StoreSessionStore, ask_in_session
    from groundgate.errors import AuthError
    from groundgate.store.tables import Conversation

    store = open_store(tmp_path)
    try:
        with open_hr_workspace(tmp_path, TaskStore(store)) as hr:
            sessions = StoreSessionStore(store)
            ask_in_session(hr.runtime, sessions, "我有哪些待办？", demo_context(), session_id="c1")
            with store.transaction() as connection:
                row = connection.execute(
                    select(Conversation.__table__).where(Conversation.session_id == "c1")
                ).one()
            assert [t["role"] for t in row.context_json] == ["user", "assistant"]
            assert row.state_version == 1
            stored = json.dumps(row.state_json, ensure_ascii=False)
            refs = row.state_json["state"]["refs"]
            assert len(refs) == 5
            assert set(refs[0]) == {
                "fact_ref", "tool", "arguments", "item_key", "ordinal", "queried_at",
                "ttl_seconds", "scope", "authorization_snapshot", "audit_ref",
            }  # fmt: skip
            assert "审批王芳的病假申请" not in stored  # the fact body is never kept
            second = ask_in_session(
                hr.runtime, sessions, "第一个任务什么时候截止？", demo_context(), session_id="c1"
            )
            assert "审批王芳的病假申请" in second.answer.render()
            with pytest.raises(AuthError):
                sessions.load("c1", demo_context("u-wang"))
    finally:
        store.close()


def test_a_shadow_run_is_recorded_beside_the_chat_run_and_never_fails_it(tmp_path: Path) -> None:
    # seed L191 "新契约和 Semantic Planner 以影子方式运行，不改变旧响应"
    from sqlalchemy import select

    from groundgate.agent.recording import SHADOW_MODE, run_in_shadow
    from groundgate.store.tables import DiagnosisRun

    store = open_store(tmp_path)
    try:
        with open_hr_workspace(tmp_path, TaskStore(store)) as hr:
            result = run_in_shadow(hr.runtime, store, "年假需要谁审批？", demo_context(), session_id="chat-1")
            assert result is not None
            assert result.status is DecisionStatus.ANSWERED

            class Broken:
                def run(self, *args: Any, **kwargs: Any) -> Any:
                    raise RuntimeError("boom")

            assert run_in_shadow(Broken(), store, "x", demo_context(), session_id="chat-1") is None  # type: ignore[arg-type]
        with store.transaction() as connection:
            rows = connection.execute(
                select(DiagnosisRun.mode, DiagnosisRun.session_id, DiagnosisRun.decision_status)
            ).all()
        assert [tuple(r) for r in rows] == [(SHADOW_MODE, "chat-1", "ANSWERED")]
    finally:
        store.close()

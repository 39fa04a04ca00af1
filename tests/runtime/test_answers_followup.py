"""Follow-up questions within a session, on a real SQLite store and a real Qdrant Edge shard.

The session's earlier *questions* are read back from the store (`load_session_history`) and the
follow-up is resolved against them for understanding only: the resolved question is recorded with
the run and shown in its trace; an earlier answer never counts as evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from groundgate.apps.chat import build_orchestrator
from groundgate.apps.history import load_session_history
from groundgate.apps.run_trace import get_trace
from groundgate.apps.workspace import Workspace, open_workspace
from groundgate.contracts import ExecutionContext, OutputKind, RunResult
from groundgate.knowledge import ingest_path
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.store import Store, open_store
from groundgate.store.recorder import RunRecorder, run_recorded

ACME = ExecutionContext(tenant="acme", user="demo", roles=("sre",))

DOCS = {
    "oncall.md": """---
title: 值班制度
doc_id: oncall-policy
authority: SRE
---
# 值班制度

## 响应时限

P1 告警要求 5 分钟内确认；P2 告警要求 15 分钟内确认；P3 告警在下一个工作日处理。
""",
    "team-a.md": """---
title: Team A handbook
doc_id: team-a-handbook
authority: Team-A
---
# Team A handbook

The Team A standup is at 09:30 every weekday in the Orion room.
""",
    "team-b.md": """---
title: Team B handbook
doc_id: team-b-handbook
authority: Team-B
---
# Team B handbook

The Team B standup is at 10:15 every weekday on the video bridge.
""",
    "approvals.md": """---
title: 费用报销审批流程
doc_id: expense-approval
authority: Finance
---
# 费用报销审批流程

## 审批层级

按单张报销单金额确定审批层级：2,000 元及以下由直属经理审批；2,000 元以上至 10,000 元由直属经理和部门总监依次审批；10,000 元以上还需财务 VP 审批。业务招待费不论金额都需部门总监审批。
""",
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    docs = tmp_path_factory.mktemp("followup-docs")
    for name, text in DOCS.items():
        (docs / name).write_text(text, "utf-8")
    with open_workspace(tmp_path_factory.mktemp("followup-data")) as ws:
        assert not ingest_path(docs, ws.index).bad_files
        yield ws


@pytest.fixture(scope="module")
def orchestrator(workspace: Workspace) -> Orchestrator:
    return build_orchestrator(workspace.registry)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "store")
    yield opened
    opened.close()


def ask_in_session(store: Store, orchestrator: Orchestrator, question: str, session_id: str) -> RunResult:
    """What the service does for one chat turn: read the session's earlier turns, run, record."""

    def execute(recorder: RunRecorder) -> RunResult:
        history = load_session_history(store, session_id, exclude_run_id=recorder.run_id)
        return orchestrator.run(
            question,
            ACME,
            run_id=recorder.run_id,
            session_id=recorder.session_id,
            sink=recorder,
            history=history,
        )

    return run_recorded(store, execute, question=question, session_id=session_id, tenant="acme")


@pytest.mark.slow
def test_a_follow_up_is_resolved_from_the_session_and_recorded_with_the_run(
    store: Store, orchestrator: Orchestrator
) -> None:
    first = ask_in_session(store, orchestrator, "P1 告警要求多久内确认？", "s-alerts")
    assert "5 分钟" in first.answer
    second = ask_in_session(store, orchestrator, "那 P2 呢？", "s-alerts")
    assert second.question == "那 P2 呢？"
    assert second.resolved_question == "P2 告警要求多久内确认？"
    assert second.output_kind is OutputKind.NORMAL, (second.answer, second.gaps)
    assert "P2 告警要求 15 分钟内确认" in second.answer
    assert "P1" not in second.answer

    assert load_session_history(store, "s-alerts") == [
        ("P1 告警要求多久内确认？", "P1 告警要求多久内确认？"),
        ("那 P2 呢？", "P2 告警要求多久内确认？"),
    ]
    with store.session() as session:
        trace = get_trace(second.run_id, session=session, tenant="acme")
    planner = next(s for s in trace.steps if s.role == "planner")
    assert planner.model_output["question_needs"]["resolved_question"] == "P2 告警要求多久内确认？"
    assert trace.verifier_evaluation is not None
    assert trace.verifier_evaluation.question_needs is not None
    assert trace.verifier_evaluation.question_needs.followup is True


def test_an_english_follow_up_names_the_other_team(store: Store, orchestrator: Orchestrator) -> None:
    ask_in_session(store, orchestrator, "When is the Team A standup?", "s-teams")
    result = ask_in_session(store, orchestrator, "and for Team B?", "s-teams")
    assert result.resolved_question == "When is the Team B standup?"
    assert "10:15" in result.answer
    assert "09:30" not in result.answer


def test_an_earlier_answer_is_never_evidence(store: Store, orchestrator: Orchestrator) -> None:
    first = ask_in_session(store, orchestrator, "P1 告警要求多久内确认？", "s-nofacts")
    assert "5 分钟" in first.answer
    # P9 is in no document: the earlier answer about P1 must not stand in for evidence about P9.
    result = ask_in_session(store, orchestrator, "那 P9 呢？", "s-nofacts")
    assert result.resolved_question == "P9 告警要求多久内确认？"
    assert result.output_kind is OutputKind.DEGRADED
    assert "5 分钟" not in result.answer
    assert result.citations == []


@pytest.mark.slow
def test_another_sessions_questions_are_not_history(store: Store, orchestrator: Orchestrator) -> None:
    ask_in_session(store, orchestrator, "When is the Team A standup?", "s-one")
    assert load_session_history(store, "s-two") == []
    result = ask_in_session(store, orchestrator, "and for Team B?", "s-two")
    assert result.resolved_question == "and for Team B?"  # nothing earlier in this session to lean on


def test_a_follow_up_with_another_amount_gets_that_amounts_tier_and_the_tier_it_adds_to(
    store: Store, orchestrator: Orchestrator
) -> None:
    first = ask_in_session(store, orchestrator, "一张 1,500 块的报销单，谁批就行？", "s-tiers")
    assert first.output_kind is OutputKind.NORMAL, (first.answer, first.gaps)
    assert "直属经理" in first.answer
    assert "财务 VP" not in first.answer
    # a bare number for the one amount of the question, in its unit
    second = ask_in_session(store, orchestrator, "那 12,000 的呢？", "s-tiers")
    assert second.resolved_question == "一张 12,000 块的报销单，谁批就行？"
    assert second.output_kind is OutputKind.NORMAL, (second.answer, second.gaps)
    # "10,000 元以上还需财务 VP 审批" adds to the tier before it, which is stated with it
    assert "财务 VP" in second.answer
    assert "部门总监" in second.answer
    assert "2,000 元及以下" not in second.answer
    # a case besides the figure is said first
    third = ask_in_session(store, orchestrator, "要是业务招待费，才 800 块呢？", "s-tiers")
    assert third.resolved_question == "业务招待费，一张 800 块的报销单，谁批就行？"
    assert "业务招待费不论金额都需部门总监审批" in third.answer

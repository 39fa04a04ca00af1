"""Recording a run: session, run, steps, tool invocations with evidence refs — on every backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.errors import RunError
from groundgate.store import NotFoundError, Store, StoreError, open_store
from groundgate.store.recorder import persist_run, record_run
from groundgate.store.repositories import get_run, latest_run, list_invocations
from groundgate.store.tables import AgentStepRow, DiagnosisSession


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


@pytest.mark.slow
def test_a_recorded_run_is_auditable(store: Store) -> None:
    result = make_run_result(verifier=verified(("PAY-5003 表示连接池耗尽", True)))
    persist_run(store, result)
    with store.session() as session:
        run = get_run(result.run_id, session=session)
        assert (run.query, run.answer, run.status, run.verdict, run.output_kind) == (
            result.question, result.answer, "SUCCEEDED", "PASS", "NORMAL",
        )  # fmt: skip
        assert (run.input_tokens, run.output_tokens, run.elapsed_ms, run.feedback) == (100, 20, 42.0, None)
        steps = session.scalars(
            select(AgentStepRow).where(AgentStepRow.run_id == result.run_id).order_by(AgentStepRow.seq)
        ).all()
        assert [(s.role, s.thought, s.reason_code) for s in steps] == [
            ("planner", "lookup PAY-5003", "plan_ok"),
            ("verifier", "1 claim derivable", "verdict_pass"),
        ]
        [invocation] = list_invocations(result.run_id, session=session)
        assert invocation.tool == "lookup_knowledge"
        assert invocation.retrieval_details["retrieval_layers"] == ["L0"]
        assert invocation.retrieval_details["evidence_refs"][0]["citation_id"] == "doc#1"
        assert invocation.arguments == {"query": "PAY-5003"}
        assert run.self_evaluation["verifier_evaluation"]["verdict"] == "PASS"
        assert run.self_evaluation["rule_evaluation"]["evidence_score"] == 65
        assert session.scalars(
            select(DiagnosisSession).where(DiagnosisSession.session_id == result.session_id)
        ).one()


def test_latest_run_follows_insertion_order(store: Store) -> None:
    first = make_run_result()
    second = make_run_result(session_id=first.session_id)
    with store.session() as session:
        record_run(first, session=session)
        record_run(second, session=session)
    with store.session() as session:
        latest = latest_run(first.session_id, session=session)
        assert latest is not None
        assert latest.run_id == second.run_id


def test_unknown_run_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError), store.session() as session:
        get_run("run-missing", session=session)


def test_a_duplicate_run_id_is_a_store_error(store: Store) -> None:
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
    with pytest.raises(StoreError, match="database error") as info, store.session() as session:
        record_run(result, session=session)
    assert isinstance(info.value, RunError)

"""The run trace (seed 004 §9, §10.1): run, session, steps, invocations, feedback and the
self-evaluation slots shown structured; `list_runs` filters — on every backend."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import update

from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.apps.feedback import submit_feedback
from groundgate.apps.run_trace import get_trace
from groundgate.apps.runs import list_runs
from groundgate.errors import InvalidInputError
from groundgate.store import NotFoundError, Store, open_store
from groundgate.store.recorder import persist_run
from groundgate.store.tables import DiagnosisRun


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


@pytest.mark.slow
def test_trace_shows_every_view_of_a_run(store: Store) -> None:
    result = make_run_result(verifier=verified(("PAY-5003 表示连接池耗尽", True)))
    persist_run(store, result, tenant="acme")
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.status == "SUCCEEDED"
    assert trace.feedback is None
    assert not trace.has_feedback
    assert trace.has_verifier_evaluation
    assert trace.has_rule_evaluation
    assert not trace.has_ai_ops_rule_evaluation
    assert trace.rule_evaluation is not None
    assert trace.rule_evaluation.evidence_score > 0
    assert trace.verifier_evaluation is not None
    assert trace.verifier_evaluation.claim_checks[0].claim_text == "PAY-5003 表示连接池耗尽"
    assert trace.session is not None
    assert trace.session.tenant == "acme"
    assert [s.role for s in trace.steps] == ["planner", "verifier"]
    invocation = trace.tool_invocations[0]
    assert invocation.tool == "lookup_knowledge"
    assert invocation.retrieval_details["evidence_refs"][0]["citation_id"] == "doc#1"
    payload = json.loads(trace.model_dump_json(by_alias=True))
    for key in ("feedback", "hasFeedback", "hasVerifierEvaluation", "hasAiOpsRuleEvaluation", "session"):
        assert key in payload
    assert payload["ruleEvaluation"]["source"] == "rule"
    assert payload["toolInvocations"][0]["invocationId"] == invocation.invocation_id


def test_feedback_shows_in_the_trace(store: Store) -> None:
    result = make_run_result()
    persist_run(store, result)
    with store.session() as session:
        submit_feedback(
            session=session, session_id=result.session_id, feedback="not_useful", run_id=result.run_id
        )
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.feedback == "not_useful"
    assert trace.has_feedback


def test_legacy_flat_self_evaluation_is_shown_in_its_slots(store: Store) -> None:
    result = make_run_result()
    persist_run(store, result)
    legacy = {"evidence_score": 40, "source": "rule", "factors": [], "note": "old writer"}
    with store.session() as session:
        session.execute(
            update(DiagnosisRun).where(DiagnosisRun.run_id == result.run_id).values(self_evaluation=legacy)
        )
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.rule_evaluation is not None
    assert trace.rule_evaluation.evidence_score == 40
    assert trace.has_rule_evaluation
    assert not trace.has_verifier_evaluation


def test_unknown_run_and_other_tenant_are_not_found(store: Store) -> None:
    result = make_run_result()
    persist_run(store, result, tenant="acme")
    with store.session() as session:
        with pytest.raises(NotFoundError, match="unknown run id"):
            get_trace("run-does-not-exist", session=session)
        with pytest.raises(NotFoundError):
            get_trace(result.run_id, session=session, tenant="globex")
        assert get_trace(result.run_id, session=session, tenant="acme").run_id == result.run_id


def test_list_runs_filters_by_session_and_feedback(store: Store) -> None:
    session_id = f"sess-{uuid.uuid4().hex[:12]}"
    first = make_run_result(session_id=session_id)
    second = make_run_result(session_id=session_id)
    other = make_run_result()
    for result in (first, second, other):
        persist_run(store, result)
    with store.session() as session:
        submit_feedback(session=session, session_id=session_id, feedback="not_useful", run_id=first.run_id)
    mine = list_runs(store, tenant=None, session_id=session_id, limit=10)
    assert [r.run_id for r in mine] == [second.run_id, first.run_id]  # newest first
    bad = list_runs(store, tenant=None, feedback="not_useful", limit=100)
    assert first.run_id in [r.run_id for r in bad]
    assert all(r.feedback == "not_useful" for r in bad)
    assert len(list_runs(store, tenant=None, limit=1)) == 1
    with pytest.raises(InvalidInputError):
        list_runs(store, tenant=None, limit=0)

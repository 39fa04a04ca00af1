"""User feedback (seed 004 §7) on SQLite, PostgreSQL and MariaDB; `useful` only on a run that succeeded."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select

from _databases import BACKENDS, database_url, make_run_result
from groundgate.apps.feedback import FeedbackResponse, give_feedback, language_from_header, submit_feedback
from groundgate.errors import InvalidInputError
from groundgate.store import NotFoundError, Store, open_store
from groundgate.store.recorder import RunRecorder, record_run
from groundgate.store.repositories import find_bad_cases, get_run, get_session_row
from groundgate.store.tables import CaseLibrary, DiagnosisSession


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


def _runs(store: Store, count: int = 1, question: str | None = None) -> tuple[str, list[str]]:
    first = make_run_result() if question is None else make_run_result(question=question)
    results = [first] + [make_run_result(session_id=first.session_id) for _ in range(count - 1)]
    with store.session() as session:
        for result in results:
            record_run(result, session=session)
    return first.session_id, [r.run_id for r in results]


def _feedback(store: Store, **kwargs: str | None) -> FeedbackResponse:
    with store.session() as session:
        return submit_feedback(session=session, **kwargs)  # type: ignore[arg-type]


def _case_count(store: Store, diagnosis_id: str) -> int:
    with store.session() as session:
        return (
            session.scalar(
                select(func.count()).select_from(CaseLibrary).where(CaseLibrary.diagnosis_id == diagnosis_id)
            )
            or 0
        )


@pytest.mark.slow
def test_useful_records_feedback_and_creates_a_case(store: Store) -> None:
    session_id, [run_id] = _runs(store)
    response = _feedback(store, session_id=session_id, run_id=run_id, feedback="useful")
    assert response.case_id is not None
    assert response.model_dump(by_alias=True) == {
        "success": True,
        "message": "反馈已记录：这条回答已在案例库中",
        "runId": run_id,
        "fallbackToLatestRun": False,
        "caseId": response.case_id,
        "inCaseLibrary": True,
    }
    with store.session() as session:
        run = get_run(run_id, session=session)
        assert (run.feedback, run.status) == ("useful", "SUCCEEDED")
    again = _feedback(store, session_id=session_id, run_id=run_id, feedback="useful")
    assert again.case_id == response.case_id
    assert _case_count(store, run_id) == 1


def test_not_useful_is_a_findable_bad_case_and_keeps_status(store: Store) -> None:
    session_id, [run_id] = _runs(store)
    response = _feedback(store, session_id=session_id, run_id=run_id, feedback="not_useful")
    assert (response.case_id, response.run_id) == (None, run_id)
    with store.session() as session:
        run = get_run(run_id, session=session)
        assert (run.feedback, run.status) == ("not_useful", "SUCCEEDED")
        assert run_id in [r.run_id for r in find_bad_cases(session=session)]
    assert _case_count(store, run_id) == 0


def test_without_run_id_the_latest_run_is_bound(store: Store) -> None:
    session_id, run_ids = _runs(store, count=3)
    response = _feedback(store, session_id=session_id, feedback="not_useful")
    assert (response.run_id, response.fallback_to_latest_run) == (run_ids[-1], True)
    assert response.model_dump(by_alias=True)["fallbackToLatestRun"] is True


def test_legacy_session_without_runs_uses_the_session_fallback(store: Store) -> None:
    with store.session() as session:
        session.add(DiagnosisSession(session_id="legacy-s1", query="旧会话问题 " * 20, answer="旧会话答案"))
    response = _feedback(store, session_id="legacy-s1", feedback="useful")
    assert (response.run_id, response.fallback_to_latest_run) == (None, False)
    assert response.case_id is not None
    with store.session() as session:
        assert get_session_row("legacy-s1", session=session).feedback == "useful"
        case = session.scalars(select(CaseLibrary).where(CaseLibrary.diagnosis_id == "legacy-s1")).one()
        assert case.root_cause == "旧会话答案"
        assert len(case.title) == 100


@pytest.mark.parametrize("value", ["", "USEFUL", "good", "not-useful", None])
def test_invalid_feedback_values_are_rejected_and_nothing_changes(store: Store, value: str | None) -> None:
    session_id, [run_id] = _runs(store)
    with pytest.raises(InvalidInputError, match="feedback must be one of useful, not_useful"):
        _feedback(store, session_id=session_id, run_id=run_id, feedback=value)
    with store.session() as session:
        assert get_run(run_id, session=session).feedback is None


def test_a_run_of_another_session_is_rejected_and_nothing_changes(store: Store) -> None:
    session_a, _ = _runs(store)
    _session_b, [run_b] = _runs(store)
    with pytest.raises(InvalidInputError, match="does not belong to session"):
        _feedback(store, session_id=session_a, run_id=run_b, feedback="useful")
    with store.session() as session:
        assert get_run(run_b, session=session).feedback is None
    assert _case_count(store, run_b) == 0


def test_unknown_ids_are_not_found(store: Store) -> None:
    session_id, _ = _runs(store)
    with pytest.raises(NotFoundError, match="unknown run id"):
        _feedback(store, session_id=session_id, run_id="run-nope", feedback="useful")
    with pytest.raises(NotFoundError, match="unknown session id"):
        _feedback(store, session_id="sess-nope", feedback="useful")


def test_two_concurrent_useful_feedbacks_create_one_case(store: Store) -> None:
    for _ in range(3):
        session_id, [run_id] = _runs(store)
        barrier = threading.Barrier(2)

        def send(
            _: int, session_id: str = session_id, run_id: str = run_id, barrier: threading.Barrier = barrier
        ) -> str | None:
            barrier.wait(timeout=30)
            return _feedback(store, session_id=session_id, run_id=run_id, feedback="useful").case_id

        with ThreadPoolExecutor(max_workers=2) as pool:
            case_ids = list(pool.map(send, range(2)))
        assert case_ids[0] is not None
        assert case_ids[0] == case_ids[1]
        assert _case_count(store, run_id) == 1


def _unfinished_runs(store: Store) -> dict[str, tuple[str, str]]:
    """A RUNNING and a FAILED run (status → (session id, run id)), as the recorder leaves them."""
    runs: dict[str, tuple[str, str]] = {}
    for status in ("RUNNING", "FAILED"):
        recorder = RunRecorder(
            store,
            run_id=f"run-{uuid.uuid4().hex[:12]}",
            session_id=f"sess-{uuid.uuid4().hex[:12]}",
            question="q",
        )
        recorder.start()
        if status == "FAILED":
            recorder.fail("error: ModelError: the model endpoint is down")
        store.heartbeat.release(recorder.run_id)  # no process keeps it alive: this is a test
        runs[status] = (recorder.session_id, recorder.run_id)
    return runs


@pytest.mark.parametrize("status", ["RUNNING", "FAILED"])
@pytest.mark.parametrize("by_run_id", [True, False], ids=["runId", "latest run"])
def test_useful_on_a_run_that_did_not_succeed_is_refused_and_creates_no_case(
    store: Store, status: str, by_run_id: bool
) -> None:
    session_id, run_id = _unfinished_runs(store)[status]
    with pytest.raises(
        InvalidInputError, match=f"is {status}: only a run that succeeded can be marked useful"
    ):
        _feedback(store, session_id=session_id, run_id=run_id if by_run_id else None, feedback="useful")
    assert _case_count(store, run_id) == 0
    with store.session() as session:
        assert get_run(run_id, session=session).feedback is None


def test_not_useful_on_a_failed_run_is_a_bad_case(store: Store) -> None:
    session_id, run_id = _unfinished_runs(store)["FAILED"]
    response = _feedback(store, session_id=session_id, run_id=run_id, feedback="not_useful")
    assert (response.run_id, response.case_id) == (run_id, None)
    with store.session() as session:
        assert run_id in [r.run_id for r in find_bad_cases(session=session)]


@pytest.mark.parametrize("run_id", ["", "   "])
def test_an_empty_run_id_is_refused_not_taken_for_the_latest_run(store: Store, run_id: str) -> None:
    session_id, run_ids = _runs(store, count=2)
    with pytest.raises(InvalidInputError, match="runId is empty"):
        _feedback(store, session_id=session_id, run_id=run_id, feedback="not_useful")
    with store.session() as session:
        assert [get_run(r, session=session).feedback for r in run_ids] == [None, None]


@pytest.mark.parametrize(
    ("sequence", "in_library", "last_message"),
    [
        (["useful", "not_useful"], False, "反馈已记录：这条回答已移出案例库"),
        (["not_useful", "useful"], True, "反馈已记录：这条回答已在案例库中"),
        (["useful", "not_useful", "useful"], True, "反馈已记录：这条回答已在案例库中"),
        (["not_useful", "not_useful"], False, "反馈已记录"),
    ],
    ids=["useful then not_useful", "not_useful then useful", "back and forth", "not_useful twice"],
)
def test_the_case_library_follows_the_latest_feedback_and_the_reply_says_so(
    store: Store, sequence: list[str], in_library: bool, last_message: str
) -> None:
    session_id, [run_id] = _runs(store)
    for value in sequence:
        response = _feedback(store, session_id=session_id, run_id=run_id, feedback=value)
    assert (response.in_case_library, response.message) == (in_library, last_message)
    assert (response.case_id is not None) == in_library
    assert _case_count(store, run_id) == (1 if in_library else 0)
    with store.session() as session:
        assert get_run(run_id, session=session).feedback == sequence[-1]


@pytest.mark.parametrize(
    ("question", "language", "expected"),
    [
        ("支付网关 PAY-5003 是什么原因？", None, "反馈已记录：这条回答已在案例库中"),
        (
            "What does PAY-5003 mean on the payment gateway?",
            None,
            "Feedback recorded: this answer is in the case library",
        ),
        ("支付网关 PAY-5003 是什么原因？", "en", "Feedback recorded: this answer is in the case library"),
        ("What does PAY-5003 mean on the payment gateway?", "zh-CN", "反馈已记录：这条回答已在案例库中"),
    ],
    ids=["zh question", "en question", "zh question, en caller", "en question, zh caller"],
)
def test_the_feedback_reply_is_in_the_callers_language(
    store: Store, question: str, language: str | None, expected: str
) -> None:
    session_id, [run_id] = _runs(store, question=question)
    response = _feedback(store, session_id=session_id, run_id=run_id, feedback="useful", language=language)
    assert response.message == expected


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, None),
        ("", None),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR, en;q=0.5, zh;q=0.7", "zh-CN"),
        ("de, *;q=0.1", None),
        ("zh;q=0, en", "en"),
        ("zh;q=oops, en", "en"),
    ],
)
def test_accept_language_names_the_reply_language_when_it_names_zh_or_en(
    header: str | None, language: str | None
) -> None:
    assert language_from_header(header) == language


@pytest.mark.parametrize("tenant", ["acme", None], ids=["the run's tenant", "the operator"])
def test_give_feedback_rates_a_visible_run_from_its_id_alone(store: Store, tenant: str | None) -> None:
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
        get_session_row(result.session_id, session=session).tenant = "acme"
    response = give_feedback(store, tenant=tenant, run_id=result.run_id, feedback="not_useful")
    assert (response.run_id, response.fallback_to_latest_run) == (result.run_id, False)


@pytest.mark.parametrize("by_session", [True, False], ids=["by session", "by run id"])
def test_give_feedback_on_another_tenants_run_is_not_found_and_changes_nothing(
    store: Store, by_session: bool
) -> None:
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
        get_session_row(result.session_id, session=session).tenant = "acme"
    with pytest.raises(NotFoundError):
        give_feedback(
            store,
            tenant="globex",
            session_id=result.session_id if by_session else None,
            run_id=result.run_id,
            feedback="useful",
        )
    assert _case_count(store, result.run_id) == 0

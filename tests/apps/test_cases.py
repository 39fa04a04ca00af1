"""Case library (seed 004 §8): field mapping, extraction from verified claims, idempotence, races."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select, update

from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.apps.cases import CaseRecord, create_case_from_run, extract_case_facts
from groundgate.errors import InvalidInputError
from groundgate.store import NotFoundError, Store, open_store
from groundgate.store.recorder import record_run
from groundgate.store.repositories import find_case
from groundgate.store.tables import CaseLibrary, DiagnosisRun


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


def test_extraction_reads_category_codes_and_service() -> None:
    category, codes, service = extract_case_facts(
        ["PAY-5003 表示 payment-db-proxy 连接池耗尽", "payment-db-proxy 返回 PAY-5001 与 PAY-5003"]
    )
    assert (category, codes, service) == ("DATABASE", ["PAY-5003", "PAY-5001"], "payment-db-proxy")
    assert extract_case_facts([]) == ("GENERAL", [], None)
    assert extract_case_facts(["订单 ORD-20260314-00042 已发货"])[1] == []


@pytest.mark.slow
def test_a_case_maps_the_seed_fields_from_verified_claims_only(store: Store) -> None:
    question = "为什么支付网关报 PAY-4009？" * 10
    result = make_run_result(
        question=question,
        answer="PAY-4009 是限流。",
        verifier=verified(
            ("PAY-4009 表示 payment-gateway 触发限流 rate limit", True),
            ("PAY-5003 由 order-service 数据库导致", False),  # not derivable: ignored
        ),
    )
    with store.session() as session:
        record_run(result, session=session)
    with store.session() as session:
        case, created = create_case_from_run(result.run_id, session=session)
    assert created
    assert case.model_dump(by_alias=True) == {
        "caseId": case.case_id,
        "diagnosisId": result.run_id,
        "sourceType": "AUTO",
        "faultCategory": "RATE_LIMIT",
        "title": question[:100],
        "rootCause": "PAY-4009 是限流。",
        "solution": "PAY-4009 是限流。",
        "errorCodes": ["PAY-4009"],
        "service": "payment-gateway",
        "createdBy": "system",
    }
    with store.session() as session:
        again, created_again = create_case_from_run(result.run_id, session=session)
    assert (again, created_again) == (case, False)


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("ERR_TIMEOUT 由 payment-gateway 返回", ["ERR_TIMEOUT"]),
        ("ERR_POOL_EXHAUSTED then ERR_TIMEOUT, HTTP 504", ["ERR_POOL_EXHAUSTED", "ERR_TIMEOUT", "HTTP 504"]),
        ("PAY-4009 and SQLSTATE 40001", ["PAY-4009", "SQLSTATE 40001"]),
        ("status FAILED, LOW_CONFID, payment_gateway_error_rate", []),
    ],
)
def test_error_codes_are_extracted_in_both_styles(text: str, codes: list[str]) -> None:
    assert extract_case_facts([text])[1] == codes


def test_without_verified_claims_the_category_stays_general(store: Store) -> None:
    result = make_run_result()  # answer mentions PAY-5003 but nothing was verified
    with store.session() as session:
        record_run(result, session=session)
        case, _ = create_case_from_run(result.run_id, session=session)
    assert (case.fault_category, case.error_codes, case.service) == ("GENERAL", [], None)


def test_unknown_run_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError), store.session() as session:
        create_case_from_run("run-missing", session=session)


def test_racing_creations_make_one_case(store: Store) -> None:
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
    barrier = threading.Barrier(4)

    def create(_: int) -> CaseRecord:
        barrier.wait(timeout=30)
        with store.session() as session:
            return create_case_from_run(result.run_id, session=session)[0]

    with ThreadPoolExecutor(max_workers=4) as pool:
        cases = list(pool.map(create, range(4)))
    assert len({c.case_id for c in cases}) == 1
    with store.session() as session:
        count = session.scalar(
            select(func.count()).select_from(CaseLibrary).where(CaseLibrary.diagnosis_id == result.run_id)
        )
    assert count == 1


def test_an_insert_that_loses_the_race_returns_the_winner(store: Store) -> None:
    if store.backend == "sqlite":
        pytest.skip("SQLite transactions are serialized by BEGIN IMMEDIATE; the loser never overlaps")
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
    with store.session() as loser:
        assert find_case(result.run_id, session=loser) is None  # MariaDB: fixes the REPEATABLE READ snapshot
        with store.session() as winner_session:
            winner, created = create_case_from_run(result.run_id, session=winner_session)
        assert created
        case, created_again = create_case_from_run(result.run_id, session=loser)
    assert (case.case_id, created_again) == (winner.case_id, False)


@pytest.mark.parametrize("status", ["RUNNING", "FAILED"])
def test_a_run_that_did_not_succeed_never_becomes_a_case(store: Store, status: str) -> None:
    result = make_run_result()
    with store.session() as session:
        record_run(result, session=session)
        session.execute(
            update(DiagnosisRun).where(DiagnosisRun.run_id == result.run_id).values(status=status)
        )
    with store.session() as session, pytest.raises(InvalidInputError, match=f"is {status}"):
        create_case_from_run(result.run_id, session=session)
    with store.session() as session:
        assert find_case(result.run_id, session=session) is None

"""Self-evaluation container: pure merge, legacy wrapping, and read-modify-write under concurrency."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.contracts.verification import AiOpsRuleEvaluation, RuleEvaluation, RuleFactor
from groundgate.errors import InvalidInputError
from groundgate.evaluation.self_evaluation import (
    MAX_SELF_EVALUATION_BYTES,
    load_container,
    parse_self_evaluation,
    put_slot,
    wrap_legacy,
)
from groundgate.store import NotFoundError, Store, StoreError, open_store
from groundgate.store.recorder import record_run
from groundgate.store.repositories import (
    merge_self_evaluation_slot,
    read_self_evaluation,
    read_session_self_evaluation,
)
from groundgate.store.tables import DiagnosisSession

WRITERS = 50


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url, pool_size=20, max_overflow=40) if "sqlite" not in url else open_store(url)
        try:
            yield opened
        finally:
            opened.close()


def _new_run(store: Store, **kwargs: Any) -> str:
    result = make_run_result(**kwargs)
    with store.session() as session:
        record_run(result, session=session)
    return result.run_id


# --- pure -----------------------------------------------------------------------------------------


def test_legacy_flat_rule_json_is_wrapped_into_rule_evaluation() -> None:
    assert wrap_legacy({"evidence_score": 65, "source": "rule", "factors": []}) == {
        "rule_evaluation": {"evidence_score": 65, "source": "rule", "factors": []}
    }


def test_legacy_flat_verifier_json_is_wrapped_into_verifier_evaluation() -> None:
    wrapped = load_container(json.dumps({"verdict": "LOW_CONFID", "groundedness_score": 0.42, "round": 1}))
    assert wrapped == {
        "verifier_evaluation": {"verdict": "LOW_CONFID", "groundedness_score": 0.42, "round": 1}
    }


def test_mixed_legacy_json_splits_into_both_slots_and_keeps_unknown_keys() -> None:
    wrapped = wrap_legacy({"evidence_score": 30, "verdict": "PASS", "groundedness_score": 1.0})
    assert wrapped == {
        "rule_evaluation": {"evidence_score": 30},
        "verifier_evaluation": {"verdict": "PASS", "groundedness_score": 1.0},
    }
    assert wrap_legacy({"note": "x"}) == {"note": "x"}


def test_put_slot_keeps_every_other_slot() -> None:
    container = {"verifier_evaluation": {"verdict": "PASS"}, "custom": 1}
    merged = put_slot(container, "rule_evaluation", RuleEvaluation(evidence_score=65))
    assert merged["verifier_evaluation"] == {"verdict": "PASS"}
    assert merged["custom"] == 1
    assert merged["rule_evaluation"]["evidence_score"] == 65
    assert "rule_evaluation" not in container  # pure: the input is not modified


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("x" * (MAX_SELF_EVALUATION_BYTES + 1), "over the"),
    ],
)
def test_bad_stored_values_are_clear_errors(raw: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        load_container(raw)


def test_invalid_slot_payload_and_unknown_slot_are_rejected() -> None:
    with pytest.raises(InvalidInputError, match="invalid rule_evaluation"):
        put_slot({}, "rule_evaluation", {"evidence_score": "lots"})
    with pytest.raises(InvalidInputError, match="unknown self_evaluation slot"):
        put_slot({}, "other", {})  # type: ignore[arg-type]


def test_parse_keeps_a_legacy_slot_that_does_not_fit_its_contract() -> None:
    parsed = parse_self_evaluation(
        {"rule_evaluation": {"evidence_score": 65}, "verifier_evaluation": {"verdict": "LOW_CONFID"}}
    )
    assert parsed.rule_evaluation is not None
    assert parsed.rule_evaluation.evidence_score == 65
    assert parsed.verifier_evaluation is None
    assert parsed.model_extra == {"legacy_verifier_evaluation": {"verdict": "LOW_CONFID"}}


# --- store ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_merge_keeps_the_verifier_slot_written_by_the_run(store: Store) -> None:
    run_id = _new_run(store, verifier=verified(("PAY-5003 表示连接池耗尽", True)))
    with store.session() as session:
        merge_self_evaluation_slot(
            run_id, "rule_evaluation", RuleEvaluation(evidence_score=65), session=session
        )
    with store.session() as session:
        container = read_self_evaluation(run_id, session=session)
    assert container["rule_evaluation"]["evidence_score"] == 65
    assert container["verifier_evaluation"]["verdict"] == "PASS"


@pytest.mark.slow
def test_concurrent_writers_on_two_slots_lose_nothing(store: Store) -> None:
    run_id = _new_run(store, verifier=verified(("keep me", True)))
    barrier = threading.Barrier(min(WRITERS, 20))

    def write(i: int) -> None:
        if i < 20:
            barrier.wait(timeout=30)
        with store.session() as session:
            if i % 2 == 0:
                merge_self_evaluation_slot(
                    run_id,
                    "rule_evaluation",
                    lambda cur, i=i: RuleEvaluation(
                        evidence_score=i % 101,
                        factors=[*(cur or {}).get("factors", []), RuleFactor(rule=f"w{i}", delta=0)],
                    ),
                    session=session,
                )
            else:
                merge_self_evaluation_slot(
                    run_id,
                    "aiops_rule_evaluation",
                    lambda cur, i=i: AiOpsRuleEvaluation(
                        verdict="ok", checks=[*(cur or {}).get("checks", []), {"writer": i}]
                    ),
                    session=session,
                )

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        list(pool.map(write, range(WRITERS)))
    with store.session() as session:
        container = read_self_evaluation(run_id, session=session)
        version = session.execute(
            text("SELECT self_evaluation_version FROM diagnosis_run WHERE run_id = :r"), {"r": run_id}
        ).scalar_one()
    assert sorted(int(f["rule"][1:]) for f in container["rule_evaluation"]["factors"]) == list(
        range(0, WRITERS, 2)
    )
    assert sorted(c["writer"] for c in container["aiops_rule_evaluation"]["checks"]) == list(
        range(1, WRITERS, 2)
    )
    assert container["verifier_evaluation"]["claim_checks"][0]["claim_text"] == "keep me"
    assert version == WRITERS


def test_legacy_flat_row_is_wrapped_on_merge(store: Store) -> None:
    run_id = _new_run(store)
    legacy = json.dumps({"verdict": "LOW_CONFID", "groundedness_score": 0.42})
    with store.session() as session:
        session.execute(
            text("UPDATE diagnosis_run SET self_evaluation = :v WHERE run_id = :r"),
            {"v": legacy, "r": run_id},
        )
    with store.session() as session:
        merged = merge_self_evaluation_slot(
            run_id, "rule_evaluation", RuleEvaluation(evidence_score=30), session=session
        )
    assert merged["verifier_evaluation"] == {"verdict": "LOW_CONFID", "groundedness_score": 0.42}
    assert merged["rule_evaluation"]["evidence_score"] == 30


def _raw(store: Store, run_id: str) -> tuple[object, int]:
    with store.session() as session:
        row = session.execute(
            text("SELECT self_evaluation, self_evaluation_version FROM diagnosis_run WHERE run_id = :r"),
            {"r": run_id},
        ).one()
    return row[0], row[1]


def test_oversized_legacy_row_is_a_clear_error_and_stays_untouched(store: Store) -> None:
    run_id = _new_run(store)
    big = json.dumps({"evidence_score": 1, "blob": "x" * (MAX_SELF_EVALUATION_BYTES + 10)})
    with store.session() as session:
        session.execute(
            text("UPDATE diagnosis_run SET self_evaluation = :v WHERE run_id = :r"), {"v": big, "r": run_id}
        )
    before = _raw(store, run_id)
    with pytest.raises(InvalidInputError, match="over the"), store.session() as session:
        merge_self_evaluation_slot(
            run_id, "rule_evaluation", RuleEvaluation(evidence_score=30), session=session
        )
    assert _raw(store, run_id) == before


def test_non_json_legacy_row_is_a_clear_error_and_stays_untouched(store: Store) -> None:
    run_id = _new_run(store)
    if store.backend != "sqlite":  # their JSON columns refuse non-JSON text at write time
        with pytest.raises(StoreError), store.session() as session:
            session.execute(
                text("UPDATE diagnosis_run SET self_evaluation = :v WHERE run_id = :r"),
                {"v": "score=65;ok", "r": run_id},
            )
        return
    with store.session() as session:
        session.execute(
            text("UPDATE diagnosis_run SET self_evaluation = :v WHERE run_id = :r"),
            {"v": "score=65;ok", "r": run_id},
        )
    before = _raw(store, run_id)
    with pytest.raises(InvalidInputError, match="not valid JSON"), store.session() as session:
        merge_self_evaluation_slot(
            run_id, "rule_evaluation", RuleEvaluation(evidence_score=30), session=session
        )
    assert _raw(store, run_id) == before
    assert before[0] == "score=65;ok"


def test_unknown_run_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError, match="unknown run id"), store.session() as session:
        merge_self_evaluation_slot(
            "run-nope", "rule_evaluation", RuleEvaluation(evidence_score=1), session=session
        )


def test_path_data_dir_store_round_trip(tmp_path: Path) -> None:
    local = open_store(tmp_path / "data")
    try:
        run_id = _new_run(local)
        with local.session() as session:
            assert read_self_evaluation(run_id, session=session) == {}
    finally:
        local.close()


def test_legacy_session_self_evaluation_is_read_wrapped(store: Store) -> None:
    with store.session() as session:
        session.add(DiagnosisSession(session_id="legacy-eval", self_evaluation={"evidence_score": 65}))
    with store.session() as session:
        assert read_session_self_evaluation("legacy-eval", session=session) == {
            "rule_evaluation": {"evidence_score": 65}
        }
    with pytest.raises(NotFoundError, match="unknown session id"), store.session() as session:
        read_session_self_evaluation("nope", session=session)


def test_need_coverage_is_stored_next_to_the_verdict_and_older_slots_still_read() -> None:
    from groundgate.contracts import NeedCoverage, Verdict, VerifierEvaluation
    from groundgate.questions import derive_needs

    needs = derive_needs("产假多少天？婚假多少天？")
    evaluation = VerifierEvaluation(
        verdict=Verdict.PASS,
        groundedness_score=1.0,
        critical_fact_count=1,
        question_needs=needs,
        need_coverage=[
            NeedCoverage(need_id="n1", label="产假天数", met=True, claim_ids=["c1"]),
            NeedCoverage(need_id="n2", label="婚假天数", met=False, reason_codes=["need:no_supported_claim"]),
        ],
    )
    stored = json.loads(json.dumps(put_slot({}, "verifier_evaluation", evaluation)))
    parsed = parse_self_evaluation(load_container(json.dumps(stored))).verifier_evaluation
    assert parsed is not None
    assert parsed.verdict is Verdict.PASS
    assert [c.met for c in parsed.need_coverage] == [True, False]
    assert parsed.question_needs == needs
    older = {"verifier_evaluation": {"verdict": "PASS", "groundedness_score": 1.0, "critical_fact_count": 1}}
    legacy = parse_self_evaluation(load_container(json.dumps(older))).verifier_evaluation
    assert legacy is not None
    assert legacy.need_coverage == []
    assert legacy.question_needs is None

"""Rule evaluation (seed 004 §4): the table exactly, pure, plus the after-run store service."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _databases import database_url, make_run_result
from groundgate.contracts.enums import RetrievalLayer, ToolStatus
from groundgate.contracts.tools import ToolResult
from groundgate.evaluation.rule_evaluation import InvocationRecord, evaluate_rules
from groundgate.store import Store, open_store
from groundgate.store import recorder as recorder_module
from groundgate.store.recorder import apply_rule_evaluation, persist_run
from groundgate.store.repositories import read_self_evaluation


def rec(status: str = "OK", layers: tuple[str, ...] = (), tool: str = "lookup_knowledge") -> InvocationRecord:
    return InvocationRecord.from_row(
        tool=tool, status=status, retrieval_details={"retrieval_layers": list(layers)}
    )


def rules(evaluation: object) -> list[tuple[str, int]]:
    return [(f.rule, f.delta) for f in evaluation.factors]  # type: ignore[attr-defined]


def test_failed_run_scores_zero_whatever_the_calls() -> None:
    evaluation = evaluate_rules([rec(layers=("L0",))], run_status="FAILED")
    assert evaluation.evidence_score == 0
    assert rules(evaluation) == [("execution_failed", 0)]
    assert evaluation.source == "rule"


def test_no_tool_call_scores_zero() -> None:
    evaluation = evaluate_rules([], run_status="SUCCEEDED")
    assert (evaluation.evidence_score, rules(evaluation)) == (0, [("no_tool_call", 0)])


def test_l0_hit_scores_65() -> None:
    evaluation = evaluate_rules([rec(layers=("L0", "L1"))], run_status="SUCCEEDED")
    assert evaluation.evidence_score == 65
    assert rules(evaluation) == [("has_successful_tool_call", 30), ("l0_exact_match", 35)]


def test_l1_counts_only_without_l0() -> None:
    evaluation = evaluate_rules([rec(layers=("L1",)), rec(tool="query_metrics")], run_status="SUCCEEDED")
    assert evaluation.evidence_score == 50
    assert rules(evaluation) == [("has_successful_tool_call", 30), ("l1_semantic_match", 20)]


def test_retrieval_without_hit_loses_10() -> None:
    evaluation = evaluate_rules([rec(status="EMPTY")], run_status="SUCCEEDED")
    assert evaluation.evidence_score == 20
    assert rules(evaluation) == [("has_successful_tool_call", 30), ("retrieval_no_hit", -10)]


def test_non_retrieval_success_scores_30() -> None:
    assert evaluate_rules([rec(tool="query_orders")], run_status="SUCCEEDED").evidence_score == 30


def test_all_calls_failed_clips_to_zero() -> None:
    evaluation = evaluate_rules(
        [rec(status="ERROR"), rec(status="TIMEOUT", tool="query_logs")], run_status="SUCCEEDED"
    )
    assert evaluation.evidence_score == 0
    assert rules(evaluation) == [("retrieval_no_hit", -10), ("all_tool_calls_failed", -20)]


def test_a_failed_call_with_layers_is_not_a_hit() -> None:
    evaluation = evaluate_rules(
        [rec(status="ERROR", layers=("L0",)), rec(tool="query_orders")], run_status="SUCCEEDED"
    )
    assert rules(evaluation) == [("has_successful_tool_call", 30), ("retrieval_no_hit", -10)]


def test_from_tool_result_reads_layers_and_refs() -> None:
    record = InvocationRecord.from_tool_result(
        ToolResult(
            invocation_id="i",
            tool="lookup_knowledge",
            status=ToolStatus.OK,
            retrieval_layers=[RetrievalLayer.L1],
        )
    )
    assert record.retrieval_layers == ("L1",)
    assert record.is_retrieval


@pytest.mark.slow
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["OK", "EMPTY", "ERROR", "TIMEOUT", "DENIED"]),
            st.lists(st.sampled_from(["L0", "L1"]), max_size=2),
            st.sampled_from(["lookup_knowledge", "query_metrics"]),
        ),
        max_size=6,
    ),
    st.sampled_from(["SUCCEEDED", "FAILED"]),
)
def test_score_is_always_within_0_and_100_and_l0_l1_exclusive(
    calls: list[tuple[str, list[str], str]], status: str
) -> None:
    evaluation = evaluate_rules([rec(s, tuple(layers), tool) for s, layers, tool in calls], run_status=status)
    assert 0 <= evaluation.evidence_score <= 100
    names = [f.rule for f in evaluation.factors]
    assert not {"l0_exact_match", "l1_semantic_match"} <= set(names)


# --- after the run, from tool_invocation rows ---------------------------------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url("sqlite", tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


def test_persist_run_computes_rule_evaluation_from_stored_invocations(store: Store) -> None:
    result = make_run_result()
    evaluation = persist_run(store, result)
    assert evaluation is not None
    assert evaluation.evidence_score == 65
    with store.session() as session:
        container = read_self_evaluation(result.run_id, session=session)
    assert container["rule_evaluation"]["evidence_score"] == 65


def test_rule_evaluation_failure_is_logged_and_leaves_the_slot_missing(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    result = make_run_result()
    with store.session() as session:
        recorder_module.record_run(result, session=session)

    def boom(run_id: str, *, session: object) -> None:
        raise RuntimeError("evaluation broke")

    monkeypatch.setattr(recorder_module, "compute_rule_evaluation", boom)
    with caplog.at_level(logging.ERROR, logger="groundgate.store.recorder"):
        assert apply_rule_evaluation(store, result.run_id) is None
    assert "rule evaluation failed" in caplog.text
    with store.session() as session:
        assert "rule_evaluation" not in read_self_evaluation(result.run_id, session=session)

"""The labelled pipeline question set and `benchmarks/eval_pipeline.py`: schema, scoring rules, a sample run."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def _load_eval() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # eval_pipeline imports its sibling `_report` when it writes
    try:
        spec = importlib.util.spec_from_file_location("eval_pipeline", BENCHMARKS / "eval_pipeline.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["eval_pipeline"] = module  # dataclasses look their module up while being built
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


ev = _load_eval()
QUESTIONS = ev.load_questions()


# --------------------------------------------------------------------------- the set


def test_the_set_has_at_least_120_questions_in_both_languages_and_every_category() -> None:
    assert len(QUESTIONS) >= 120
    langs = Counter(q.lang for q in QUESTIONS)
    assert min(langs["zh"], langs["en"]) >= 0.4 * len(QUESTIONS)
    assert set(Counter(q.category for q in QUESTIONS)) == set(ev.CATEGORIES)
    assert set(Counter(q.expected for q in QUESTIONS)) == set(ev.EXPECTED)


def test_about_forty_percent_of_the_questions_are_for_tuning() -> None:
    dev = sum(q.split == "dev" for q in QUESTIONS) / len(QUESTIONS)
    assert 0.35 <= dev <= 0.45


def test_every_referenced_document_exists_and_every_added_document_is_used() -> None:
    assert ev.missing_documents(QUESTIONS) == []
    used = {name for q in QUESTIONS for name in q.documents}
    assert {p.name for p in ev.ADDED_DOCS.glob("*.md")} == used


def test_follow_ups_belong_to_ordered_sessions() -> None:
    sessions: dict[str, list[Any]] = {}
    for q in QUESTIONS:
        if q.session:
            sessions.setdefault(q.session, []).append(q)
    assert len(sessions) >= 8
    for turns in sessions.values():
        assert [q.turn for q in turns] == list(range(1, len(turns) + 1))
        assert turns[0].category != "follow_up"
        assert all(q.category == "follow_up" for q in turns[1:])


def test_cross_language_questions_name_the_document_to_find() -> None:
    cross = [q for q in QUESTIONS if q.category == "cross_language"]
    assert len(cross) >= 20
    assert {q.lang for q in cross} == {"zh", "en"}
    assert all(q.relevant_docs for q in cross)


BROKEN = [
    ({"questions": "nope"}, "top-level `questions:` list"),
    ({"questions": [{"id": "x"}]}, "`question` is missing"),
    (
        {
            "questions": [
                {
                    "id": "x",
                    "question": "q",
                    "lang": "fr",
                    "category": "answerable",
                    "expected": "answer",
                    "split": "dev",
                    "must_contain": ["1"],
                }
            ]
        },
        "lang 'fr'",
    ),
    (
        {
            "questions": [
                {
                    "id": "x",
                    "question": "q",
                    "lang": "en",
                    "category": "answerable",
                    "expected": "answer",
                    "split": "dev",
                }
            ]
        },
        "needs must_contain",
    ),
    (
        {
            "questions": [
                {
                    "id": "x",
                    "question": "q",
                    "lang": "en",
                    "category": "cross_language",
                    "expected": "answer",
                    "split": "dev",
                    "must_contain": ["1"],
                }
            ]
        },
        "needs relevant_doc",
    ),
    (
        {
            "questions": [
                {
                    "id": "x",
                    "question": "q",
                    "lang": "en",
                    "category": "unanswerable",
                    "expected": "unanswerable",
                    "split": "dev",
                    "colour": 1,
                }
            ]
        },
        "unknown fields",
    ),
    (
        {
            "questions": [
                {
                    "id": "a",
                    "question": "q",
                    "lang": "en",
                    "category": "answerable",
                    "expected": "answer",
                    "split": "dev",
                    "must_contain": ["1"],
                    "session": "s",
                    "turn": 2,
                },
                {
                    "id": "b",
                    "question": "q",
                    "lang": "en",
                    "category": "follow_up",
                    "expected": "answer",
                    "split": "dev",
                    "must_contain": ["1"],
                    "session": "s",
                    "turn": 1,
                },
            ]
        },
        "turns are not listed in order",
    ),
    (
        {
            "questions": [
                {
                    "id": "x",
                    "question": "q",
                    "lang": "en",
                    "category": "follow_up",
                    "expected": "answer",
                    "split": "dev",
                    "must_contain": ["1"],
                }
            ]
        },
        "follow_up outside a session",
    ),
]


@pytest.mark.parametrize(("raw", "problem"), BROKEN, ids=[p for _, p in BROKEN])
def test_schema_problems_are_named(raw: dict[str, Any], problem: str) -> None:
    _questions, problems = ev.parse_questions(raw)
    assert any(problem in p for p in problems), problems


def test_the_shipped_file_parses_without_problems() -> None:
    _questions, problems = ev.parse_questions(yaml.safe_load(ev.QUESTIONS.read_text(encoding="utf-8")))
    assert problems == []


# --------------------------------------------------------------------------- scoring rules


@pytest.mark.parametrize(
    ("answer", "value", "found"),
    [
        ("满 10 年不满 20 年：10 天", "10 天", True),
        ("年休假15天", "5 天", False),
        ("可休 5天。", "5 天", True),
        ("阈值为 1500 ms", "500 ms", False),
        ("quota 600 QPS", "600", True),
        ("max 2.5 hours", "5 hours", False),
        ("Retry after 15 s", "15", True),
        ("ＥＲＲ＿ＴＩＭＥＯＵＴ", "ERR_TIMEOUT", True),
        ("GET /api/v1/pay/orders/{order_id}", "get /api/v1/pay/orders/{ORDER_ID}", True),
        ("anything", "", False),
        # a digit across whitespace does not touch: the log line's time holds `14:18`
        ("- 2026-03-14 14:18:39 payment-db-proxy ERROR", "14:18", True),
        ("at 1414:18", "14:18", False),
    ],
)
def test_values_match_without_whitespace_case_or_a_touching_digit(
    answer: str, value: str, found: bool
) -> None:
    assert ev.contains(answer, value) is found


def _question(expected: str, must: tuple[tuple[str, ...], ...] = (), trap: tuple[str, ...] = ()) -> Any:
    return ev.Question(
        id="q",
        question="q",
        lang="zh",
        category="answerable",
        expected=expected,
        split="dev",
        must_contain=must,
        must_not_contain=trap,
    )


@pytest.mark.parametrize(
    ("expected", "kind", "answer", "correct", "wrong_pass", "degraded"),
    [
        ("answer", "NORMAL", "满 12 年：10 天", True, False, False),
        ("answer", "LOW_CONFID_WITH_DISCLAIMER", "10 天", True, False, False),
        ("answer", "NORMAL", "5 天", False, True, False),
        ("answer", "NORMAL", "5 天或 10 天", False, True, False),
        ("answer", "DEGRADED", "无法回答", False, False, True),
        ("partial", "DEGRADED", "无法回答", False, False, True),
        ("unanswerable", "NORMAL", "CEO 是张三", False, True, False),
        ("unanswerable", "DEGRADED", "没有证据", True, False, False),
        ("unanswerable", "LOW_CONFID_WITH_DISCLAIMER", "可能是 5 天", False, False, False),
        ("answer", "NORMAL", "10 天\n\n引用：\n[1] hr/leave.md > 满 5 天", True, False, False),
    ],
    ids=[
        "right-row",
        "right-row-with-disclaimer",
        "wrong-row-passed",
        "both-rows-passed",
        "needless-degraded",
        "needless-degraded-partial",
        "unanswerable-passed",
        "unanswerable-degraded",
        "unanswerable-trap-in-disclaimer",
        "sources-are-not-the-answer",
    ],
)
def test_answers_are_judged_by_outcome_and_values(
    expected: str, kind: str, answer: str, correct: bool, wrong_pass: bool, degraded: bool
) -> None:
    must = (("10 天",),) if expected != "unanswerable" else ()
    judgement = ev.judge(_question(expected, must, ("5 天",)), kind, answer)
    assert (judgement.correct, judgement.wrong_pass, judgement.unnecessary_degraded) == (
        correct,
        wrong_pass,
        degraded,
    )


# --------------------------------------------------------------------------- a sample, end to end


SAMPLE = ["ans-zh-01", "xl-en-01", "none-en-01", "ent-en-01", "fu-zh-01a", "fu-zh-01b"]


@pytest.mark.slow
def test_a_sample_runs_through_the_real_pipeline_and_is_reported(tmp_path: Path) -> None:
    questions = [q for q in QUESTIONS if q.id in SAMPLE]
    seen: list[str] = []
    run = ev.run_questions(questions, data_dir=tmp_path / "data", on_answer=lambda o: seen.append(o.id))
    assert sorted(seen) == sorted(SAMPLE)
    assert seen.index("fu-zh-01a") + 1 == seen.index("fu-zh-01b")  # a session's turns in order
    by_id = {o.id: o for o in run.outcomes}
    assert {o.output_kind for o in run.outcomes} <= {"NORMAL", "LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"}
    assert by_id["xl-en-01"].recall_hit is True  # the lexicon finds the Chinese travel policy
    assert by_id["xl-en-01"].recall_hit_without_lexicon is False
    assert by_id["ans-zh-01"].correct  # ERR_TIMEOUT: payment-gateway, 3 seconds
    assert all(o.recall_hit is None for o in run.outcomes if o.id != "xl-en-01")
    if run.history_supported:  # the follow-up is asked with its session's earlier turn, as the service does
        assert by_id["fu-zh-01b"].with_history
        assert not by_id["fu-zh-01a"].with_history
    report = ev.render(run)
    assert "| dev |" in report
    assert "cross-language Recall@5" in report
    for outcome in run.outcomes:
        assert outcome.correct or outcome.id in report  # every failure is listed

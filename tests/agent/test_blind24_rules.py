"""Session 31 (blind 24): worked totals, computed in code from a cited figure and the question's numbers."""

from __future__ import annotations

import pytest

from groundgate.agent.contracts import GroundedAnswer, GroundedStatement, NeedCode
from groundgate.agent.totals import CHANGE_LABEL, unworked_change, with_total, worked_total


def _amount(text: str) -> GroundedStatement:
    return GroundedStatement(need=NeedCode.AMOUNT_RULE, text=text, citations=["doc:1"])


TOTALS = [
    ("深圳 住5晚 住宿最多能报多少", ["一线城市（北京、上海、广州、深圳）每晚不超过 600 元"], "3000"),
    ("二线城市住3晚 住宿封顶多少钱", ["二线城市每晚不超过 450 元"], "1350"),
    ("病假4天 基本工资一天500 能拿多少", ["病假期间工资按基本工资的 80% 发放"], "1600"),
    ("出差4天 伙食补贴一共多少", ["伙食补贴每天 100 元"], "400"),
]

NO_TOTAL = [
    ("住宿标准 住5晚 一共多少", ["一线城市每晚不超过 600 元", "二线城市每晚不超过 450 元"]),
    ("病假4天 能拿多少", ["病假期间工资按基本工资的 80% 发放"]),
    ("深圳住宿标准是什么", ["一线城市每晚不超过 600 元"]),
]


@pytest.mark.parametrize(("question", "texts", "total"), TOTALS)
def test_a_total_is_worked_from_the_cited_figure_and_the_questions_count(
    question: str, texts: list[str], total: str
) -> None:
    worked = worked_total(question, [_amount(t) for t in texts])
    assert worked is not None
    assert f"{total} 元" in worked.text
    assert worked.citations == ["doc:1"]


@pytest.mark.parametrize(("question", "texts"), NO_TOTAL)
def test_no_total_is_stated_when_a_factor_is_missing_or_none_is_asked(
    question: str, texts: list[str]
) -> None:
    assert worked_total(question, [_amount(t) for t in texts]) is None


def test_the_total_is_added_beside_the_rate_it_is_worked_from() -> None:
    answer = GroundedAnswer(summary="", statements=[_amount("二线城市每晚不超过 450 元")])
    statements = with_total(answer, "住4晚 一共多少").statements
    assert statements[0].text == "二线城市每晚不超过 450 元"
    assert "1800 元" in statements[1].text


CHANGES = [
    ("一线城市住宿 今年比去年涨了多少", ["一线城市每晚不超过 600 元"], True),
    ("一线城市住宿 今年比去年涨了多少", ["2026 年每晚不超过 600 元", "2025 年每晚不超过 500 元"], False),
    ("一线城市住宿一晚多少", ["一线城市每晚不超过 600 元"], False),
]


@pytest.mark.parametrize(("question", "texts", "unworked"), CHANGES)
def test_a_change_asked_with_one_versions_figure_is_a_missing_part(
    question: str, texts: list[str], unworked: bool
) -> None:
    answer = GroundedAnswer(summary="", statements=[_amount(t) for t in texts])
    assert unworked_change(answer, question) is unworked
    assert CHANGE_LABEL

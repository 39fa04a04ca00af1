"""Tiered rules: a claim's result must be the one of the row its condition meets (docs/design.md §2.1,
"Condition rows")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.fidelity import read_condition_rows
from groundgate.verify.grounding_check import check

_LEAVE = "第十二条 员工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；已满20年的，年休假15天。"
_LEAVE_EN = (
    "Employees with 1 to 10 years of service get 5 days of leave; with 10 to 20 years, 10 days; "
    "after 20 years, 15 days."
)


@pytest.mark.parametrize(
    ("claim", "evidence", "conflicts", "applied"),
    [
        ("您工作满12年，每年可以休15天年假。", _LEAVE, ["15天"], None),
        ("您工作满12年，每年可以休10天年假。", _LEAVE, [], "12年"),
        ("工作满25年有10天年假。", _LEAVE, ["10天"], None),
        ("工作满3年有5天年假。", _LEAVE, [], "3年"),
        ("With 12 years of service you get 15 days of leave.", _LEAVE_EN, ["15 days"], None),
        ("With 12 years of service you get 10 days of leave.", _LEAVE_EN, [], "12 years"),
        # One row only: nothing to choose between.
        ("工作满12年有10天年假。", "已满10年不满20年的，年休假10天。", [], None),
    ],
)
def test_the_row_a_claims_condition_meets_gives_its_result(
    claim: str, evidence: str, conflicts: list[str], applied: str | None
) -> None:
    rows = read_condition_rows(claim, evidence)
    assert list(rows.conflicts) == conflicts
    assert rows.applied == applied


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("您工作满12年，按制度每年可以休10天年假。", True),
        ("您工作满12年，按制度每年可以休15天年假。", False),
    ],
)
def test_a_tier_applied_to_the_question_passes_and_another_tiers_result_does_not(
    answer: str, passes: bool
) -> None:
    result = check(context=_LEAVE, answer=answer, question="我工作满12年，有几天年假？")
    assert (result.verdict is Verdict.PASS) is passes, [c.reason_codes for c in result.claims]

"""A Chinese hour said with no daypart (`2点08分`) may be either half of the day (docs/design.md §2.1
and §8): a need's time condition, and the minute it asks a value at, accept 02:08 and 14:08; a
daypart said (`凌晨`, `下午`) keeps one reading."""

from __future__ import annotations

import pytest

from groundgate.contracts import ConditionKind, Need, NeedCondition
from groundgate.questions import derive_needs, statement
from groundgate.questions.conditions import CONFLICT, SATISFIED, clock_readings, condition_outcome
from groundgate.questions.moments import asked_minutes, not_at_asked_minute


def _time_condition(question: str) -> tuple[Need, NeedCondition]:
    need = derive_needs(question).needs[0]
    return need, next(c for c in need.conditions if c.kind is ConditionKind.TIME)


@pytest.mark.parametrize(
    ("question", "readings"),
    [
        ("2点08分 支付成功率是多少？", ("02:08", "14:08")),
        ("两点半支付成功率是多少？", ("02:30", "14:30")),
        ("凌晨2点08分 支付成功率是多少？", ("02:08",)),
        ("下午2点08分 支付成功率是多少？", ("14:08",)),
        ("14点20分 支付成功率是多少？", ("14:20",)),
        ("What was the payment success rate at 02:08?", ("02:08",)),
    ],
)  # fmt: skip
def test_a_time_condition_is_read_in_either_half_of_the_day_only_when_no_daypart_is_said(
    question: str, readings: tuple[str, ...]
) -> None:
    _, condition = _time_condition(question)
    assert clock_readings(condition) == readings


@pytest.mark.parametrize(
    ("question", "said", "outcome"),
    [
        ("2点08分 支付成功率是多少？", "payment_success_rate 在 2026-03-14 14:08 UTC 的值为 97.1。", SATISFIED),
        ("2点08分 支付成功率是多少？", "payment_success_rate 在 2026-03-14 02:08 UTC 的值为 97.1。", SATISFIED),
        ("2点08分 支付成功率是多少？", "payment_success_rate 在 2026-03-14 15:30 UTC 的值为 97.1。", CONFLICT),
        ("凌晨2点08分 支付成功率是多少？", "payment_success_rate 在 2026-03-14 14:08 UTC 的值为 97.1。", CONFLICT),
    ],
)  # fmt: skip
def test_a_statement_of_either_half_of_the_day_meets_a_time_said_without_a_daypart(
    question: str, said: str, outcome: str
) -> None:
    _, condition = _time_condition(question)
    assert condition_outcome(statement(said), condition) == outcome


def test_the_value_at_a_minute_said_without_a_daypart_is_the_point_of_either_half() -> None:
    need, _ = _time_condition("2点08分 支付成功率是多少？")
    assert asked_minutes(need) == ("02:08", "14:08")
    assert not not_at_asked_minute(
        statement("payment_success_rate 在 2026-03-14 14:08 UTC 的值为 97.1。"), need
    )
    assert not_at_asked_minute(statement("payment_success_rate 在 2026-03-14 14:09 UTC 的值为 97.0。"), need)

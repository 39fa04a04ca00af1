"""A measure asked at one minute asks its value then; a window's extreme, a rough time or two times
ask something a window's summary answers (docs/design.md §8)."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.moments import asks_value_at


@pytest.mark.parametrize(
    ("question", "minute"),
    [
        ("3 月 14 日 14:12（UTC）那一分钟的支付成功率是多少？", "14:12"),
        ("What was the p99 latency of payment-gateway at 14:03 UTC on March 14?", "14:03"),
        ("3 月 14 号中午 12:30 那会儿支付成功率是多少？", None),  # roughly: a short window answers
        # an alert diagnosis asks the window's maximum between two times
        ("db_pool_active_connections 在 13:51 至 14:21 的最大值是多少？", None),
        ("What was the peak p99 latency at 14:03 UTC?", None),
        ("ERR_TIMEOUT 是什么意思？", None),
    ],
)
def test_only_a_value_at_one_minute_is_asked_at_that_minute(question: str, minute: str | None) -> None:
    assert [asks_value_at(n) for n in derive_needs(question).needs][-1] == minute

"""A threshold the context holds for a time, retold as met at once, is not shown (never contradicted);
the same threshold retold with its duration, or without saying it is met at once, is no finding."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check
from groundgate.verify.persistence import persistence_dropped

ZH = "当 5xx 错误率连续 10 分钟高于 2% 时，一线值班应在 20 分钟内完成初步定位。"
EN = "If the queue depth stays above 50,000 messages for more than 10 minutes, scale the consumer group to 12 pods."


@pytest.mark.parametrize(
    ("context", "claim", "found"),
    [
        (ZH, "只要 5xx 错误率有一次冲过 2%，一线值班就得在二十分钟之内完成初步定位。", True),
        (
            EN,
            "As soon as the queue depth crosses 50,000 messages, scale the consumer group to 12 pods.",
            True,
        ),
        (EN, "A single spike above 50,000 messages is enough to scale the consumer group to 12 pods.", True),
        # the duration kept, or simply left out without an immediacy cue: no finding
        (ZH, "5xx 错误率连续十分钟都在 2% 以上时，一线值班要在 20 分钟内完成初步定位。", False),
        (EN, "When the queue depth stays over 50,000 for more than ten minutes, scale to 12 pods.", False),
        (EN, "If the queue depth is above 50,000 messages, scale the consumer group to 12 pods.", False),
        # `一旦` ("whenever") with the duration kept is the same trigger
        (ZH, "5xx 错误率一旦高于 2% 而且持续十分钟，一线值班就要在 20 分钟内完成初步定位。", False),
        # at once, but of another figure than the held threshold
        (ZH, "一旦收到告警，一线值班就要在 20 分钟内完成初步定位。", False),
    ],
)
def test_a_held_threshold_retold_as_met_at_once_is_found(context: str, claim: str, found: bool) -> None:
    assert bool(persistence_dropped(claim, context)) is found


def test_the_claim_is_not_shown_and_never_rejected() -> None:
    result = check(
        context=ZH, answer="只要 5xx 错误率有一次冲过 2%，一线值班就得在二十分钟之内完成初步定位。"
    )
    assert result.verdict is Verdict.LOW_CONFID
    assert any(
        code.startswith("condition:persistence_dropped") for c in result.claims for code in c.reason_codes
    )

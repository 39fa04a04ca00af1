"""True paraphrases that read like contradictions to a word-level check: an A-not-A question
(`有没有`), a vote (`voted no`), a negative prefix against `no …` (`unrestricted` / `no
restrictions`), a remainder the claim works out from its own figures (`还剩 7 天`). Each was a false
`REJECT` of the blind dev set v4 (docs/benchmarks.md); the wrong versions stay flagged."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check

MEMORY = (
    "search-api 的 Pod CPU 使用率连续 5 分钟超过 80% 时，HPA 自动扩容；内存使用率超过 90% 时只发告警，"
    "不触发扩容，需要值班人员手动排查是否存在内存泄漏。"
)
VOTE = (
    "The council voted 7–2 to approve the plan. Two council members who voted against the plan cited "
    "concerns about the loss of about 300 street parking spaces."
)
PERMITS = "Permits are valid from 8 am to 6:30 pm, Monday to Saturday; parking is unrestricted on Sundays."
LEAVE = '{"employee": "陈思远", "annual_leave_total": 12, "annual_leave_used": 5}'


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (MEMORY, "内存使用率超过 90% 只会发告警，不会触发扩容，需要值班人员手动排查有没有内存泄漏。"),
        (
            VOTE,
            "The two council members who voted no were concerned about losing roughly 300 parking spaces.",
        ),
        (
            PERMITS,
            "A permit covers you Monday through Saturday, and there are no parking restrictions on Sundays.",
        ),
        (LEAVE, "陈思远的年假一共 12 天，已经用了 5 天，还剩 7 天。"),
    ],
)
def test_a_true_paraphrase_is_not_rejected(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT, [(c.text, c.reason_codes) for c in result.claims]


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # the plain opposite is still a flip
        (MEMORY, "内存使用率超过 90% 时会触发扩容。"),
        (
            PERMITS,
            "A permit covers you from 8 am to 6:30 pm, Monday through Saturday, and parking on Sundays is restricted too.",
        ),
        # a remainder that does not add up is still wrong
        (LEAVE, "陈思远的年假一共 12 天，已经用了 5 天，还剩 8 天。"),
    ],
)
def test_the_wrong_version_is_still_flagged(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


def test_a_word_the_context_states_only_with_a_negative_prefix_is_a_flip() -> None:
    answer = "A permit covers you from 8 am to 6:30 pm, Monday through Saturday, and parking on Sundays is restricted too."
    result = check(context=PERMITS, answer=answer)
    assert result.verdict is Verdict.REJECT
    assert any("fidelity:negation_flip" in c.reason_codes for c in result.claims)

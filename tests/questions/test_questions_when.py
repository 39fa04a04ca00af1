"""A "when" need is met only by a statement that states a time or date (docs/design.md §8).

"When did the success rate recover?", `什么时候恢复的`, `几点`: a clock time, a date, a day or a span
said from an event answers; a sentence with no time (`recovered after the restart`, a condition
with a rate) does not say when, however well it matches the subject.
"""

from __future__ import annotations

import pytest

from groundgate.contracts import AnswerKind, Need
from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.when import states_a_time


def _when_need(question: str) -> Need:
    need = derive_needs(question).needs[0]
    assert need.kind is AnswerKind.TIME
    return need


@pytest.mark.parametrize(
    ("question", "answer", "met"),
    [
        # a clock time or a date says when
        ("When did the payment success rate recover?", "The payment success rate recovered at 14:32.", True),
        ("支付成功率什么时候恢复的？", "支付成功率在 3 月 14 日恢复。", True),
        ("支付成功率什么时候恢复的？", "支付成功率于 14:32 恢复到 99.5%。", True),
        # no time: what happened is said, not when
        ("When did the payment success rate recover?",
         "The payment success rate recovered after the connection pool was enlarged.", False),
        ("支付成功率什么时候恢复的？", "连接池扩容后支付成功率恢复。", False),
        # a rate is no time
        ("When did the payment success rate recover?", "The payment success rate recovered to 99.5%.", False),
    ],
)  # fmt: skip
def test_a_when_need_is_met_only_by_a_statement_that_states_a_time(
    question: str, answer: str, met: bool
) -> None:
    assert match_need(_when_need(question), answer).met is met


@pytest.mark.parametrize(
    ("text", "says_time"),
    [
        ("recovered at 2:41 pm", True),
        ("recovered on 14 March", True),
        ("P3 告警在下一个工作日处理", True),
        ("退款 1 到 3 个工作日到账", True),
        ("熔断器 5 分钟后转为半开", True),
        ("every Monday morning", True),
        ("当错误率超过 5% 时触发", False),
        ("recovered after the restart", False),
        ("fires when the error rate is above 5%", False),
    ],
)  # fmt: skip
def test_a_time_is_a_clock_time_a_date_a_day_or_a_span_never_a_condition_alone(
    text: str, says_time: bool
) -> None:
    assert states_a_time(statement(text)) is says_time

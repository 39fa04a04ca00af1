"""Session 34 (tune29, a merchant's developer integrating the payment APIs; docs/design.md §8).

- a statement put up for confirmation ("X，而且 Y，对吗") asks the tag of each asserted clause;
- a clause confirmed with a figure is answered only by a statement giving a figure of that measure;
- an English lead-in before a colon ("SRE question: what …") asks nothing and names no subject word.
"""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs, match_need, statement
from groundgate.questions.confirmations import confirmed_clauses, says_asserted_figures
from groundgate.questions.lead_ins import after_lead, soften_en_lead
from groundgate.questions.parts import en_asks, split_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("退款只能在支付成功后 90 天内发起，而且每笔订单最多 5 次部分退款，对吗？",
         ["退款只能在支付成功后 90 天内发起，对吗", "每笔订单最多 5 次部分退款，对吗"]),
        ("报销要在 30 天内提交，并且超过 5000 元要 VP 审批，对吧？",
         ["报销要在 30 天内提交，对吧", "超过 5000 元要 VP 审批，对吧"]),
        ("我们按 MD5 签名，时钟偏差 600 秒以内不会被拒，是吗？",
         ["我们按 MD5 签名，是吗", "时钟偏差 600 秒以内不会被拒，是吗"]),
    ],
)  # fmt: skip
def test_a_confirmation_tag_asks_of_each_asserted_clause_before_it(question: str, parts: list[str]) -> None:
    assert split_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "退款只能在支付成功后 90 天内发起，对吗？",  # one clause: one part, as before
        "出差当天出发的话，补贴按全天算，对吗？",  # a case set before the clause is no assertion
        "如果超过 10 天，工资按 80% 发，对吗？",
        "年假是按工龄算的，而且可以结转，对吗？",  # no figure or name: left whole
    ],
)  # fmt: skip
def test_a_single_clause_a_case_or_a_clause_without_figure_is_left_whole(question: str) -> None:
    assert len(split_parts(question)) == 1
    assert confirmed_clauses(question.rstrip("？"), lambda c: False) == []


def test_a_clause_that_asks_is_no_assertion_to_confirm() -> None:
    assert confirmed_clauses("退款 3 天到账，部分退款最多几次，对吗", lambda c: "几" in c) == []


@pytest.mark.parametrize(
    ("part", "answer", "said"),
    [
        ("每笔订单最多 5 次部分退款，对吗", "一笔订单支持多次部分退款，但最多 10 次。", True),
        ("每笔订单最多 5 次部分退款，对吗", "退款必须在原支付成功后 180 天内发起。", False),
        ("退款只能在支付成功后 90 天内发起，对吗", "退款必须在原支付成功后 180 天内发起。", True),
        ("退款只能在支付成功后 90 天内发起，对吗", "一笔订单最多 10 次部分退款。", False),
        ("单笔超过 5000 元要 VP 审批，对吧", "单笔 10000 元以上需财务 VP 审批。", True),
        # no tag, or no figure: not held to a figure
        ("每笔订单最多能部分退款几次", "退款必须在原支付成功后 180 天内发起。", True),
        ("部分退款要审批，对吗", "部分退款无需审批。", True),
        # a year is no span of years: `2026 年` asks no duration of the statement
        ("新规则 2026 年起生效，对吗", "新规则自 2026 年 1 月 1 日起执行。", True),
        ("日志保留 5 年，对吗", "审计日志至少保留 3 年。", True),
        ("日志保留 5 年，对吗", "审计日志存放在对象存储中。", False),
    ],
)  # fmt: skip
def test_a_clause_confirmed_with_a_figure_needs_a_figure_of_the_same_measure(
    part: str, answer: str, said: bool
) -> None:
    assert says_asserted_figures(answer, part) is said


def test_the_refund_window_no_longer_meets_the_confirmed_number_of_partial_refunds() -> None:
    needs = derive_needs("退款只能在支付成功后 90 天内发起，而且每笔订单最多 5 次部分退款，对吗？").needs
    window = statement("退款必须在原支付成功后 180 天内发起，超过 180 天的订单只能线下处理。")
    count = statement("一笔订单支持多次部分退款，但最多 10 次，且累计退款金额不能超过原支付金额。")
    assert [match_need(n, window).met for n in needs] == [True, False]
    assert match_need(needs[1], count).met


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("SRE question: what is the availability SLO of POST /api/v1/pay", "what is the availability SLO of POST /api/v1/pay"),
        ("Before launch: what are acme's contracted quotas", "what are acme's contracted quotas"),
        ("Refund rules for our integration: how long after the payment can we still refund",
         "how long after the payment can we still refund"),
        # no lead-in: a question before the colon, a clock time, a statement after it
        ("What happened at 14:05: was it the pool", "What happened at 14:05: was it the pool"),
        ("Note: the pool was full", "Note: the pool was full"),
        ("Which error at 14:05 came first", "Which error at 14:05 came first"),
    ],
)  # fmt: skip
def test_an_english_lead_in_before_a_colon_asks_nothing(text: str, rest: str) -> None:
    assert after_lead(text, en_asks) == rest


def test_a_question_after_a_lead_in_is_its_own_part() -> None:
    parts = split_parts(
        "Before launch: what are acme's contracted quotas for POST /api/v1/pay, "
        "and which gateway config key holds our pay quota?"
    )
    assert parts == [
        "Before launch: what are acme's contracted quotas for POST /api/v1/pay",
        "which gateway config key holds our pay quota",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "Gateway p99 latency: what was the peak and when, and over which minutes was it above the 800 ms line?",
        "Pool saturation: what was the peak, and when did it go back under 80%?",
    ],
)  # fmt: skip
def test_a_lead_in_the_question_refers_back_to_is_its_subject(question: str) -> None:
    needs = derive_needs(question).needs
    assert len(needs) == 1
    assert not needs[0].soft_terms


@pytest.mark.parametrize(
    ("question", "soft"),
    [
        ("SRE limits review: what is payment-db.pool.max_size by default?", ["sre", "limits", "review"]),
        ("Refund rules for our integration: how long after the payment can we still refund?", ["rules", "integration"]),
    ],
)  # fmt: skip
def test_the_words_of_a_lead_in_are_soft_terms_the_answer_need_not_say(
    question: str, soft: list[str]
) -> None:
    need = derive_needs(question).needs[0]
    assert need.soft_terms == soft
    assert not set(soft) & set(need.terms)


def test_a_lead_in_word_the_question_says_again_stays_a_term() -> None:
    terms, soft = soften_en_lead(
        "Pool limits: what are the pool limits of payment-db", ["pool", "limits", "payment"], [], en_asks
    )
    assert terms == ["pool", "limits", "payment"]
    assert soft == []

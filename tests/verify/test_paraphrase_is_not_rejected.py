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


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # `登记后半年内` is six months after registering, not the second half of a year
        ("员工须在登记后 1 年内一次性休完婚假。", "婚假需要在登记后半年内一次性休完。"),
        # the piece about the increment is read against the increment, not the minimum of the same sentence
        ("起购金额 1 万元，以 1000 元的整数倍递增。", "起购金额 1 万元，之后按 1 万元的整数倍递增。"),
        # the same words lead to another bare number; a `10` elsewhere in the context is another figure
        (
            "当 lag 连续 10 分钟超过 50 万条时触发告警。处理顺序：1）检查实例是否存活；2）若实例正常，将副本数从 6 扩到 12。",
            "如果实例都正常，把副本数从 6 扩到 10。",
        ),
    ],
)
def test_a_changed_figure_inside_a_longer_sentence_is_not_passed(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        ("员工须在登记后 1 年内一次性休完婚假。", "婚假需要在登记后一年内一次性休完。"),
        ("起购金额 1 万元，以 1000 元的整数倍递增。", "起购金额 1 万元，之后按 1000 元的整数倍递增。"),
        # `Day 1` is stated, only in another sentence than the aligned `By Day 5`
        (
            "Day 1: collect your laptop. Day 2: meet your buddy. By Day 5: sign the code of conduct.",
            "Before day 5 you collect your laptop on day 1 and meet your buddy on day 2.",
        ),
    ],
)
def test_the_same_figures_said_right_pass(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.PASS


def test_a_negated_light_verb_negates_the_thing_after_it() -> None:
    context = "目前样品仅在实验室的纽扣电池中完成测试，尚未进行软包电池验证。"
    flipped = check(context=context, answer="目前样品已在纽扣电池中完成测试，软包电池验证也已初步通过。")
    assert flipped.verdict is Verdict.REJECT
    kept = check(context=context, answer="样品只在纽扣电池里测过，还没有做软包电池验证。")
    assert kept.verdict is not Verdict.REJECT


@pytest.mark.parametrize(
    ("spoken", "clock"),
    [
        ("上午九点到十二点、下午一点半到五点对外办公", "09:00 到 12:00 、 13:30 到 17:00"),
        ("营业到晚上十点", "22:00"),
        ("下午四点二十分下单", "16:20"),
        ("16 时 30 分开始", "16:30"),
        ("使用率达到百分之八十五", "85%"),
        ("一周以前的归档", "7天"),
        ("60 日内提交", "60天内"),
    ],
)
def test_clock_times_said_in_words_are_read_as_clock_times(spoken: str, clock: str) -> None:
    from groundgate.verify.synonyms import canonical

    assert clock in canonical(spoken)


def test_opening_hours_said_in_words_are_supported() -> None:
    context = "办事大厅办公时间：周一至周五 9:00-12:00、13:30-17:00，16:30 后停止取号。"
    answer = "周一到周五，上午九点到十二点、下午一点半到五点对外办公，不过下午四点半以后就不再取号了。"
    assert check(context=context, answer=answer).verdict is Verdict.PASS
    wrong = "周一到周五，上午九点到十二点、下午两点到五点对外办公，不过下午四点半以后就不再取号了。"
    assert check(context=context, answer=wrong).verdict is not Verdict.PASS


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # a negated word says what its opposite says: 不允许 is 禁止
        (
            "11 月 1 日至 15 日为封网期，除紧急修复外禁止一切变更。",
            "11 月 1 日到 15 日是封网期，除了紧急修复，那段时间所有变更都不允许。",
        ),
    ],
)
def test_a_negated_word_is_read_as_said(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.PASS


def test_an_indirect_question_states_no_cause() -> None:
    context = "招待费报销须注明招待对象和事由，人均不超过 300 元。"
    result = check(context=context, answer="报招待费要写清楚招待的是谁、因为什么事，人均不能超过 300 元。")
    assert not any(code.startswith("cause_not_in_evidence") for c in result.claims for code in c.reason_codes)
    invented = check(context=context, answer="人均不能超过 300 元，因为公司今年预算紧张。")
    assert invented.verdict is not Verdict.PASS


def test_a_figure_qualified_for_another_case_is_not_shown_for_the_claims_case() -> None:
    context = "Adult passport renewal: The fee is £88.50 online or £100 by paper form."
    assert check(context=context, answer="The online fee is £100.").verdict is not Verdict.PASS
    assert check(context=context, answer="The online fee is £88.50.").verdict is Verdict.PASS
    assert check(context=context, answer="By paper form the fee is £100.").verdict is Verdict.PASS


def test_a_figure_after_and_is_labelled_by_its_own_words_not_by_the_figure_before_it() -> None:
    # "38% less water" qualifies the 38%; the 9% of "and yielded around 9% more" is the yields' figure.
    context = "Drip-irrigated plots used 38% less water and produced yields about 9% higher."
    answer = "Drip plots used 38% less water than furrow plots and yielded around 9% more."
    assert check(context=context, answer=answer).verdict is Verdict.PASS


def test_an_alternative_denied_with_rather_than_keeps_the_evidences_not() -> None:
    context = "Claims must be made in store or via live chat, not by email."
    answer = "You need to make the claim in a store or over live chat rather than by email."
    result = check(context=context, answer=answer)
    assert not any("negation_flip" in code for c in result.claims for code in c.reason_codes)
    flipped = check(context=context, answer="You can make the claim in a store, over live chat or by email.")
    assert flipped.verdict is not Verdict.PASS

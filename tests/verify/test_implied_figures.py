"""Figures an answer works out with a count that a word implies (`for the week` over a daily rate,
`there and back` over `each way`), and figures stated in forms the scan must read: a right one passes,
a wrong one is still flagged (docs/design.md §2.1, "Session 31")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.fidelity import check_claim, extract
from groundgate.verify.grounding_check import check

# (context, answer, question): every figure is the context's, or worked out from it exactly
_RIGHT = [
    (
        "Young driver surcharge: drivers aged 21–24 pay €12 per day.",
        "Drivers aged 21–24 add €12 per day, which is €84 for the week.",
        None,
    ),
    (
        "The Corrie Falls trail is linear, 6.4 km each way.",
        "It's a linear trail of 6.4 km each way, so 12.8 km there and back.",
        None,
    ),
    (
        "Cats board at £15 per night. Medication is given for £2 per day.",
        "A cat is £15 a night, so a seven-night stay comes to £105 (plus £2 a day for medication, i.e. "
        "another £14).",
        "What does a seven-night stay cost for a cat that needs medication?",
    ),
    (
        "Large dogs (over 25 kg) board at £33 per night. A peak surcharge of £4 per night applies in August.",
        "A large dog costs £33 a night; August is peak, so add £4 — £37 a night, or £259 for seven nights.",
        "What does a week in August cost for a large dog?",
    ),
    (
        "StowAway Eastbridge: rent is charged four-weekly in advance by direct debit.",
        "At Eastbridge the rent is taken every four weeks in advance by direct debit.",
        None,
    ),
    (
        "Under-21 category: free entry, deadline 31 August 2025. Entrants must be 20 or under.",
        "Under-21s enter free; their deadline is 31 August 2025.",
        None,
    ),
    (
        "Compact cars cost €42 per day from 1 April to 30 September 2025.",
        "A compact for a July pickup costs €42 a day.",
        "What does a compact cost in July?",
    ),
    (
        "Dogs collected after 12:00 are charged for an extra day.",
        "Collect your dog before noon, because dogs collected after 12:00 are charged an extra day.",
        None,
    ),
]

_RIGHT += [
    ("每 100 毫升含能量 226 千焦。", "每 100 毫升含能量 226 千焦，约合 54 千卡。", None),
    ("拉坯体验课时长 2.5 小时，价格 268 元/人。", "拉坯体验课 2 个半小时，每人 268 元。", None),
    (
        "草坪婚礼套餐（2026 年 4–10 月）：每桌 4,888 元，最低 15 桌。",
        "草坪套餐适用于 2026 年 4 月到 10 月。",
        None,
    ),
    (
        "二等奖 3 名，每名 8,000 元；一等奖 1 名，奖金 20,000 元。",
        "一等奖奖金 2 万元；二等奖 3 名，每人 8,000 元，合计 2.4 万元，比一等奖还多 4,000 元。",
        None,
    ),
    ("每桌 4,888 元，最低 15 桌。", "每桌 4,888 元，至少订 15 桌，所以最低花费约 7.3 万元。", None),
    (
        "「夜鸢」的暴击伤害加成由 60% 下调至 50%。",
        "「夜鸢」的暴击伤害加成被削了 10 个百分点，降到 50%。",
        None,
    ),
    ("众筹目标 8 万元，最终筹得 92,600 元。", "目标 8 万元，最终筹到 92,600 元，完成率约 116%。", None),
    (
        "每日体力上限由 160 提高到 200，体力恢复速度保持每 6 分钟 1 点。",
        "体力上限提到 200，恢复速度仍是 6 分钟 1 点，也就是说从零回满需要 20 个小时。",
        None,
    ),
]

# (context, answer): the worked figure or the restated figure is wrong
_WRONG = [
    ("高层住宅：2.10元/平方米·月。", "高层住宅每平方米每月2.10元，100平方米一年就是2.10×100×12＝2620元。"),
    (
        "Young driver surcharge: drivers aged 21–24 pay €12 per day.",
        "Drivers aged 21–24 add €12 per day, which is €96 for the week.",
    ),
    (
        "The Corrie Falls trail is linear, 6.4 km each way.",
        "It's a linear trail of 6.4 km each way, so 14.8 km there and back.",
    ),
    (
        "Cats board at £15 per night.",
        "A cat is £15 a night, so a seven-night stay comes to £115.",
    ),
    (
        "StowAway Eastbridge: rent is charged four-weekly in advance by direct debit.",
        "At Eastbridge the rent is taken every two weeks in advance by direct debit.",
    ),
    (
        "Dogs collected after 12:00 are charged for an extra day.",
        "Dogs collected before 12:00 are charged an extra day.",
    ),
    ("每 100 毫升含能量 226 千焦。", "每 100 毫升含能量 226 千焦，约合 94 千卡。"),
    ("草坪婚礼套餐（2026 年 4–10 月）：每桌 4,888 元。", "草坪套餐适用于 2026 年 4 月到 11 月。"),
    (
        "二等奖 3 名，每名 8,000 元；一等奖 1 名，奖金 20,000 元。",
        "二等奖合计 2.4 万元，比一等奖还多 6,000 元。",
    ),
    ("每桌 4,888 元，最低 15 桌。", "每桌 4,888 元，至少订 15 桌，所以最低花费约 8.3 万元。"),
    ("「夜鸢」的暴击伤害加成由 60% 下调至 50%。", "「夜鸢」的暴击伤害加成被削了 15 个百分点，降到 50%。"),
    (
        "每日体力上限由 160 提高到 200，体力恢复速度保持每 6 分钟 1 点。",
        "体力上限提到 200，恢复速度仍是 6 分钟 1 点，也就是说从零回满需要 24 个小时。",
    ),
    (
        # a changed count is not excused by some count of the answer times some percent (300 × 50 %)
        "「铁律」的护盾值由 1800 提升至 2100；「夜鸢」的暴击伤害加成由 60% 下调至 50%。"
        "通关全部关卡可获得 120 颗星晶。",
        "「铁律」的护盾值增加了 300 点，达到 2100；「夜鸢」的暴击伤害加成降到 50%。全部通关能拿到 150 颗星晶。",
    ),
]


@pytest.mark.parametrize(("context", "answer", "question"), _RIGHT)
def test_a_figure_worked_out_with_an_implied_count_or_read_in_its_own_form_is_no_finding(
    context: str, answer: str, question: str | None
) -> None:
    result = check(context=context, answer=answer, question=question)
    # the wording may still rest on indirect support; no figure, date or comparator is a finding
    assert result.verdict is not Verdict.REJECT
    assert [code for c in result.claims for code in c.reason_codes if code.startswith("fidelity:")] == []


@pytest.mark.parametrize(("context", "answer"), _WRONG)
def test_a_wrong_worked_or_restated_figure_is_still_flagged(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


def test_a_spaced_em_dash_between_two_amounts_is_not_a_range() -> None:
    kinds = [(m.kind, m.value) for m in extract("so add £4 — £37 a night")]
    assert kinds == [("amount", 4.0), ("amount", 37.0)]
    assert [m.kind for m in extract("£4–£37 a night")] == ["range"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("可以打95折", [("percent", 95.0)]),
        ("打八折", [("percent", 80.0)]),
        ("八五折", [("percent", 85.0)]),
        ("legal in 16 US states", [("number", 16.0)]),
        ("a 16 us delay", [("duration", 1.6e-05)]),
    ],
)
def test_a_discount_and_the_united_states_are_read_as_what_they_are(
    text: str, found: list[tuple[str, float]]
) -> None:
    assert [(m.kind, m.value) for m in extract(text)] == found


def test_a_figure_equal_to_the_expression_written_before_it_is_worked_out_and_a_wrong_one_is_not() -> None:
    evidence = "高层住宅：2.10元/平方米·月。按年预缴，12月31日前缴清。"
    question = "我家100平方米，一年物业费多少？"
    right = "100平方米一年就是2.10×100×12＝2520元。"
    wrong = "100平方米一年就是2.10×100×12＝2620元。"
    assert check_claim(right, evidence, evidence, question=question) == []
    assert {i.code for i in check_claim(wrong, evidence, evidence, question=question)} == {"number_mismatch"}


# (context, answer): a wrong figure the answer works out, or one that meets none of several figures of
# the window, is flagged but not called a contradiction: it is unshown (LOW_CONFID), not a changed fact
_UNSHOWN_NOT_CONTRADICTED = [
    ("续重每公斤5元，不足1公斤按1公斤计。", "续重4公斤，每公斤5元，就是25元。"),
    (
        "Each 20-minute ride costs £1.50 to unlock plus £0.10 per minute.",
        "A ride is £1.50 plus £2.00, so £4.50 a ride.",
    ),
    (
        "admission: adults £12, children £6, concessions £9\nfamily ticket: £30",
        "Two adults and two children would pay £40 in total, more than the family ticket.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _UNSHOWN_NOT_CONTRADICTED)
def test_a_wrong_worked_figure_is_flagged_as_unshown_not_as_contradicted(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.LOW_CONFID


# (context, answer): the figure stands where one figure of the window stood: a contradiction
_REPLACED = [
    (
        "admission: adults £12, under-16s free, concessions £9",
        "成人票 15 英镑，优惠票 9 英镑，16 岁以下免费。",
    ),
    (
        "Refunds above $500 need approval; refunds under $50 are automatic.",
        "Refunds over $800 need approval.",
    ),
    ("第一阶梯每吨3.50元，第二阶梯每吨5.25元。", "第一阶梯每吨3.80元。"),
]


@pytest.mark.parametrize(("context", "answer"), _REPLACED)
def test_a_figure_put_in_place_of_the_windows_figure_is_a_contradiction(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.REJECT


def test_months_between_two_dates_the_claim_states_are_worked_out_and_a_wrong_count_is_not() -> None:
    evidence = "Paper returns are due by 31 March 2025. Online returns are due by 31 May 2025."
    right = "Your return is due by 31 May 2025, two months after the 31 March cut-off."
    wrong = "Your return is due by 31 May 2025, three months after the 31 March cut-off."
    assert "two months" not in {i.claim_mention for i in check_claim(right, evidence, evidence)}
    assert "three months" in {i.claim_mention for i in check_claim(wrong, evidence, evidence)}


def test_a_remainder_said_with_leaving_is_worked_out() -> None:
    evidence = "There are 30,000 places, 12,000 of them for the full marathon."
    claim = (
        "There are 30,000 places in total, 12,000 of them for the full marathon, leaving 18,000 for the rest."
    )
    assert check_claim(claim, evidence, evidence) == []

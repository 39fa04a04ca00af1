"""Forms of a right answer the checker used to call contradictions, and the lies beside them it must
still catch (docs/design.md §2.1, "Session 32"): a record field left empty said as a negation, a
prohibition retold as a warning, a numbered name inside a stated range, figures worked out from the
question's own figures, a date moved back by a notice period, a count of the context's records, and
numbered steps retold out of order."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.certainty import cause_hedged, hedge_dropped, only_widened
from groundgate.verify.directions import from_to_swapped
from groundgate.verify.fidelity import extract
from groundgate.verify.fidelity.negated_forms import field_left_empty
from groundgate.verify.fidelity.record_counts import counted_in_records
from groundgate.verify.grounding_check import check
from groundgate.verify.stated_comparisons import comparison_wrong
from groundgate.verify.step_order import steps_swapped
from groundgate.verify.voice import voice_reversed

_EMPTY_FIELDS = [
    ("queued", "worker stats (busy=12, queued=0)", True),
    ("退票", "票号 T-1182 | 状态 已出票 | 退票 — | 渠道 APP", True),
    ("assignee", '{"ticket": "OPS-77", "assignee": null}', True),
    ("queued", "worker stats (busy=12, queued=40)", False),
    ("assignee", '{"ticket": "OPS-77", "assignee": "lin.h"}', False),
]


@pytest.mark.parametrize(("word", "text", "empty"), _EMPTY_FIELDS)
def test_a_field_is_empty_only_when_its_value_is_zero_a_dash_or_null(
    word: str, text: str, empty: bool
) -> None:
    assert field_left_empty(word, text) is empty


_RIGHT = [
    # "none queued" over `queued=0`
    (
        "2025-02-03T09:14:00Z WARN worker pool saturated (busy=40, queued=25)\n"
        "2025-02-03T09:21:30Z INFO worker pool drained (busy=12, queued=0)",
        "When the pool drained at 09:21:30 it had 12 busy workers and none queued.",
        None,
    ),
    # "还没有退票" over a dash in the record's 退票 column
    (
        "订单查询\n票号 T-1182 | 车次 G1375 | 金额 ¥312.50 | 状态 已出票 | 退票 — | 渠道 APP",
        "票号 T-1182(车次 G1375,¥312.50)目前状态是已出票,还没有退票。",
        None,
    ),
    # a numbered name inside a range the runbook states
    (
        "Runbook: drain the cache tier\n1. Announce in #ops.\n2. Stop writes to cache-a.\n"
        "3. Restart the relays (relay-1..4) one at a time.",
        "Restart relay-1 to relay-4 one at a time.",
        None,
    ),
    # a figure worked out from the question's figure and the policy's rate
    (
        "补充医疗:门诊费用在社保报销后剩余部分按 70% 报销,每年上限 4,000 元。",
        "可以报 1,400 元,也就是 2,000 元的 70%,在 4,000 元上限以内。",
        "社保报完后门诊自付 2,000 元,补充医疗能报多少?",
    ),
    # a date moved back by the notice period the table gives
    (
        "合同编号 | 到期日 | 自动续约 | 提前通知期\nHT-9 | 2025-10-20 | 是 | 45 天",
        "HT-9 在 10 月 20 日到期,通知期 45 天,最晚在 9 月 5 日通知。",
        None,
    ),
]


@pytest.mark.parametrize(("context", "answer", "question"), _RIGHT)
def test_a_right_answer_in_these_forms_passes(context: str, answer: str, question: str | None) -> None:
    assert check(context=context, answer=answer, question=question).verdict is Verdict.PASS


_WRONG = [
    # the record holds queued workers: "none queued" is a flip
    (
        "2025-02-03T09:21:30Z INFO worker pool drained (busy=12, queued=7)",
        "When the pool drained at 09:21:30 it had 12 busy workers and none queued.",
        None,
    ),
    # a name outside the stated range
    (
        "Runbook: drain the cache tier\n1. Announce in #ops.\n2. Stop writes to cache-a.\n"
        "3. Restart the relays (relay-1..4) one at a time.",
        "Restart relay-1 to relay-6 one at a time.",
        None,
    ),
    # a worked figure that is not what the question's figure and the rate give
    (
        "补充医疗:门诊费用在社保报销后剩余部分按 70% 报销,每年上限 4,000 元。",
        "可以报 1,600 元。",
        "社保报完后门诊自付 2,000 元,补充医疗能报多少?",
    ),
    # the notice period counted wrong
    (
        "合同编号 | 到期日 | 自动续约 | 提前通知期\nHT-9 | 2025-10-20 | 是 | 45 天",
        "HT-9 在 10 月 20 日到期,通知期 45 天,最晚在 9 月 15 日通知。",
        None,
    ),
]


@pytest.mark.parametrize(("context", "answer", "question"), _WRONG)
def test_the_lie_beside_each_form_does_not_pass(context: str, answer: str, question: str | None) -> None:
    assert check(context=context, answer=answer, question=question).verdict is not Verdict.PASS


def test_a_prohibition_retold_as_a_warning_is_no_flip_but_retold_as_a_permission_is() -> None:
    context = "Do not rotate the signing key during a deploy: in-flight requests fail verification."
    warned = "The runbook warns that rotating the signing key during a deploy makes in-flight requests fail verification."
    allowed = "You may rotate the signing key during a deploy."
    assert "fidelity:negation_flip" not in check(context=context, answer=warned).claims[0].reason_codes
    assert check(context=context, answer=allowed).verdict is not Verdict.PASS


_LOG = "\n".join(
    [
        '{"ts":"09:00:01","level":"ERROR","service":"cart-api","code":"LOCK_WAIT"}',
        '{"ts":"09:00:04","level":"ERROR","service":"cart-api","code":"LOCK_WAIT"}',
        '{"ts":"09:00:05","level":"WARN","service":"stock-svc","code":"QUEUE_DEEP"}',
        '{"ts":"09:00:09","level":"ERROR","service":"cart-api","code":"LOCK_WAIT"}',
    ]
)


@pytest.mark.parametrize(
    ("claim", "counted"),
    [
        ("cart-api logged LOCK_WAIT three times.", True),
        ("cart-api logged LOCK_WAIT 3 times.", True),
        ("cart-api logged LOCK_WAIT four times.", False),
        ("cart-api 报了 2 次 LOCK_WAIT。", False),
    ],
)
def test_a_count_is_backed_only_by_that_many_records_carrying_its_names(claim: str, counted: bool) -> None:
    count = next(m for m in extract(claim).items if m.kind in {"count", "number"})
    assert counted_in_records(count, claim, _LOG) is counted


_RUNBOOK = (
    "Failover\n1. Page the database on-call.\n2. Freeze schema migrations.\n"
    "3. Promote replica db-b with `promote db-b`.\n4. Point the DSN alias at db-b.\n"
    "5. Recycle the app pods one zone at a time."
)


@pytest.mark.parametrize(
    ("claim", "swapped"),
    [
        ("Recycle the app pods one zone at a time, and then point the DSN alias at db-b.", True),
        ("Point the DSN alias at db-b, then recycle the app pods one zone at a time.", False),
        ("Freeze schema migrations; next, promote replica db-b.", False),
        ("Promote replica db-b, and then freeze schema migrations.", True),
    ],
)
def test_numbered_steps_retold_out_of_order_are_read(claim: str, swapped: bool) -> None:
    assert bool(steps_swapped(claim, _RUNBOOK)) is swapped


_VOICE = [
    # the agent of the claim's passive is the object of the context's active verb
    (
        "Harwick Mills acquired the small spinning firm Oaten & Reed in 1994.",
        "In 1994 Harwick was bought by Oaten & Reed.",
        True,
    ),
    ("2019年，青川收购了杭州的物流公司远帆达。", "2019年它被杭州的物流公司远帆达收购了。", True),
    # the same direction, in the passive on both sides or retold in the active
    (
        "In 1994 Harwick Mills was bought by Oaten & Reed.",
        "In 1994 Harwick was bought by Oaten & Reed.",
        False,
    ),
    ("2019年，青川收购了杭州的物流公司远帆达。", "2019年青川收购了远帆达。", False),
    # a passive whose `verb` is no verb that ends it
    (
        "个人在一年内受到两次以上处罚的，记入个人信用记录。",
        "要是一年内被处罚两次以上，会记入信用记录。",
        False,
    ),
]


@pytest.mark.parametrize(("context", "claim", "reversed_"), _VOICE)
def test_a_relation_turned_round_by_the_passive_is_read(context: str, claim: str, reversed_: bool) -> None:
    assert bool(voice_reversed(claim, context)) is reversed_


@pytest.mark.parametrize(
    ("text", "clock"),
    [("备份本身是成功的:01:00 开始", "01:00"), ("Opened:07:45 by the desk", "07:45")],
)
def test_a_clock_time_after_a_label_colon_is_read_as_a_time(text: str, clock: str) -> None:
    assert [str(m.value) for m in extract(text).items if m.kind == "time"] == [clock]


_BACKUP_LOG = (
    "01:47:15 INFO 开始上传至对象存储 bucket=bk-cold\n02:58:40 ERROR 上传失败 code=RequestTimeout\n"
    "02:58:41 ERROR 备份任务失败"
)


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("上传阶段从开始到报错共持续了 1 小时 11 分 25 秒。", True),
        ("上传阶段从开始到报错共持续了 1 小时 12 分 25 秒。", False),
    ],
)
def test_a_span_exact_to_the_second_between_two_logged_times_is_worked_out(answer: str, shown: bool) -> None:
    codes = check(context=_BACKUP_LOG, answer=answer).claims[0].reason_codes
    assert ("fidelity:number_not_in_evidence" not in codes) is shown


@pytest.mark.parametrize(
    ("context", "claim", "flagged"),
    [
        (
            "The gallery is closed for rewiring. We hope to reopen it in late March.",
            "It will reopen in late March.",
            True,
        ),
        ("如遇台风，航班可能延误或取消，届时短信通知。", "如遇台风，航班就会直接取消。", True),
        ("新馆预计明年五月开馆。", "新馆确定明年五月开馆。", True),
        # the claim keeps the hedge, reports someone's view, or the context is a forecast news writes as `will`
        ("We hope to reopen it in late March.", "They hope to reopen it in late March.", False),
        (
            "The striker may miss Saturday's match.",
            "The coach said the striker will miss Saturday's match.",
            False,
        ),
        (
            "The striker is expected to miss Saturday's match.",
            "The striker will miss Saturday's match.",
            False,
        ),
    ],
)
def test_a_hedged_plan_stated_flatly_is_flagged(context: str, claim: str, flagged: bool) -> None:
    assert bool(hedge_dropped(claim, context)) is flagged


_MORE_RIGHT = [
    # a thing the source says to avoid, retold in the negative
    (
        "3. Use a plastic spudger to open the case; avoid metal screwdrivers, which can scratch the board.",
        "Open the case with a plastic spudger (not a metal screwdriver, which can scratch the board).",
    ),
    ("生长季每半月浇一次营养液，冬季停止浇营养液。", "生长季每半个月浇一次营养液，冬天就不要浇了。"),
    # a day range written before its month
    (
        "The Harbour Book Fair runs from 4 to 9 June at the old customs house.",
        "The book fair is on from 4 to 9 June.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _MORE_RIGHT)
def test_more_right_answers_in_other_words_pass(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT
    assert all("fidelity:negation_flip" not in c.reason_codes for c in result.claims)
    assert all("fidelity:date_mismatch" not in c.reason_codes for c in result.claims)


def test_a_short_sentence_opening_a_list_is_no_key_fact() -> None:
    claims = check(
        context="绿萝喜散射光。冬季室温不低于10℃。", answer="给你几个要点：\n绿萝喜散射光。"
    ).claims
    assert [c.key for c in claims] == [False, True]


def test_a_superlative_turned_into_its_opposite_is_flagged() -> None:
    context = "1. Shift to the smallest rear cog and release the brake.\n2. Remove the wheel."
    assert check(
        context=context, answer="Shift onto the largest rear cog and release the brake."
    ).verdict is not (Verdict.PASS)


def test_a_case_the_source_excludes_named_as_an_exception_is_no_flip() -> None:
    context = "退货政策：签收后 15 天内可无理由退货。生鲜类商品不支持无理由退货。"
    answer = "签收后 15 天内支持无理由退货，生鲜类商品则不在此列。"
    assert all(
        "fidelity:negation_flip" not in c.reason_codes for c in check(context=context, answer=answer).claims
    )


def test_a_case_the_source_excludes_said_to_be_covered_is_still_a_flip() -> None:
    context = "退货政策：签收后 15 天内可无理由退货。生鲜类商品不支持无理由退货。"
    assert check(context=context, answer="生鲜类商品也支持无理由退货。").verdict is not Verdict.PASS


@pytest.mark.parametrize(("text", "clock"), [("静音到明早8点", "08:00"), ("今早9点开会", "09:00")])
def test_a_morning_of_today_or_tomorrow_reads_its_hour_as_a_time(text: str, clock: str) -> None:
    assert [str(m.value) for m in extract(text).items if m.kind == "time"] == [clock]


@pytest.mark.parametrize(
    ("context", "claim", "flagged"),
    [
        (
            "行政群消息：我们正在考虑把午餐补贴提高到每天 30 元。",
            "行政部已经决定把午餐补贴提高到每天 30 元。",
            True,
        ),
        (
            "Status: the working theory is a bad DNS change at the CDN; not yet confirmed.",
            "The engineers have traced it to a bad DNS change at the CDN.",
            True,
        ),
        (
            "Status: the outage was traced to a bad DNS change at the CDN.",
            "It was traced to a bad DNS change.",
            False,
        ),
    ],
)
def test_a_suspicion_or_idea_stated_as_settled_is_flagged(context: str, claim: str, flagged: bool) -> None:
    codes = check(context=context, answer=claim).claims[0].reason_codes
    assert any(c.startswith("certainty_added") for c in codes) is flagged


@pytest.mark.parametrize(
    ("claim", "flagged"),
    [
        ("Refund vouchers can be used in any region.", True),
        ("Swansea have lost all three games.", False),
        ("退款无需提供任何额外材料。", False),
    ],
)
def test_a_rule_kept_to_one_case_widened_to_all_is_flagged(claim: str, flagged: bool) -> None:
    context = (
        "Refund vouchers are valid only in the region where the order was placed. Swansea lost three games."
    )
    assert bool(only_widened(claim, context)) is flagged


def test_an_obligation_retold_as_up_to_the_reader_is_flagged() -> None:
    context = "报销须知：发票原件必须在报销后十个工作日内交到财务。"
    claim = "发票原件可视情况在报销后十个工作日内交到财务。"
    assert check(context=context, answer=claim).verdict is not Verdict.PASS


def test_a_month_written_in_words_is_no_unknown_name() -> None:
    context = (
        '{"service": "ledger-api", "version": "4.12.1", "deployed_at": "2031-03-05T10:15Z", "result": "ok"}'
    )
    answer = "Version 4.12.1 of ledger-api was deployed on 5 March 2031."
    codes = check(context=context, answer=answer).claims[0].reason_codes
    assert not any(c.startswith("unsupported_entity") for c in codes)


@pytest.mark.parametrize(
    ("context", "claim", "reversed_"),
    [
        (
            "In 5.0 the cache directory moves from /var/tmp/gg to /var/cache/gg.",
            "The cache directory moves from /var/cache/gg to /var/tmp/gg.",
            True,
        ),
        ("手续费率由 0.38% 调整为 0.6%。", "手续费率从 0.6% 降到 0.38%。", True),
        (
            "In 5.0 the cache directory moves from /var/tmp/gg to /var/cache/gg.",
            "The cache directory moves from /var/tmp/gg to /var/cache/gg.",
            False,
        ),
        # another change of the same two ends, not this one turned round
        (
            "Downgrading from Team to Solo removes shared folders.",
            "Moving from Solo to Team is an upgrade.",
            False,
        ),
    ],
)
def test_a_change_told_the_wrong_way_round_is_read(context: str, claim: str, reversed_: bool) -> None:
    assert bool(from_to_swapped(claim, context)) is reversed_


@pytest.mark.parametrize(
    ("context", "claim", "flagged"),
    [
        (
            "Replica lag peaked at 90 s. The alert notes it may have been caused by a backfill job on the primary.",
            "The lag was caused by a backfill job on the primary.",
            True,
        ),
        (
            "对账任务 03:10 失败一次，原因还在查，可能和上游文件延迟有关。",
            "对账任务失败的原因是上游文件延迟。",
            True,
        ),
        (
            "Replica lag peaked at 90 s. It was caused by a backfill job on the primary.",
            "The lag was caused by a backfill job on the primary.",
            False,
        ),
        (
            "The alert notes it may have been caused by a backfill job on the primary.",
            "The lag may have been caused by a backfill job on the primary.",
            False,
        ),
    ],
)
def test_a_suspected_cause_stated_as_the_cause_is_flagged(context: str, claim: str, flagged: bool) -> None:
    assert bool(cause_hedged(claim, context)) is flagged


@pytest.mark.parametrize(
    ("claim", "wrong"),
    [
        ("At EUR 4,200 the order falls within the EUR 3,000 team-lead limit.", True),
        ("The job ran at 97.2% success, which is above the 98% target.", True),
        ("你每晚 520 元，超出 600 元的标准。", True),
        ("At EUR 2,200 the order falls within the EUR 3,000 team-lead limit.", False),
        ("We counted 1,210 visitors, 85 more than the 1,125 of last year.", False),
        ("一周最多两天可以在家办公。", False),
    ],
)
def test_a_comparison_wrong_by_the_claims_own_figures_is_read(claim: str, wrong: bool) -> None:
    assert bool(comparison_wrong(claim)) is wrong

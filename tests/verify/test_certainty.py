"""A hedge or a causation disclaimer of the context that the answer drops: not shown, never rejected."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.certainty import (
    causation_not_shown,
    certainty_added,
    exception_added,
    obligation_dropped,
    scope_widened,
)
from groundgate.verify.grounding_check import check

PILOT = "团队表示，该材料目前仍处于实验室阶段，预计 2 至 3 年后才可能进入中试。"
STUDY = (
    "Those who walked at least 7,000 steps a day had a 31% lower risk of cardiovascular events. The "
    "authors stress that the study was observational and cannot establish that walking caused the lower risk."
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("目前仍处于实验室阶段，团队已经敲定在两到三年后正式进入中试。", True),
        ("目前仍处于实验室阶段，估计两三年后才有可能进入中试。", False),  # hedged as the source is
        ("目前仍处于实验室阶段，两到三年后进入中试。", False),  # hedge left out, no "decided" said
        ("公司已经确定年底发布新版本。", False),  # settled, but nothing of the context about it
    ],
)
def test_a_forecast_retold_as_decided_is_found(claim: str, found: bool) -> None:
    assert bool(certainty_added(claim, PILOT)) is found


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("Walking at least 7,000 steps a day lowers the risk of cardiovascular events by 31%.", True),
        ("Walking at least 7,000 steps a day was associated with a 31% lower risk.", False),
        (
            "People who walked 7,000 steps had a 31% lower risk, though the study cannot establish that walking caused it.",
            False,
        ),
    ],
)
def test_a_cause_the_context_disclaims_is_found(claim: str, found: bool) -> None:
    assert bool(causation_not_shown(claim, STUDY)) is found


def test_a_cause_is_only_questioned_where_the_context_disclaims_one() -> None:
    assert causation_not_shown("Walking lowers the risk.", "Walking lowers the risk, the trial showed.") == []


def test_the_surer_claim_is_not_shown_and_never_rejected() -> None:
    result = check(context=PILOT, answer="该材料目前仍处于实验室阶段，团队已经敲定在两到三年后正式进入中试。")
    assert result.verdict is Verdict.LOW_CONFID


@pytest.mark.parametrize(
    ("claim", "context", "found"),
    [
        (
            "书柜签收后七天内可以无理由退货，即使已经拆封安装也可以退。",
            "家具类商品签收后 7 天内可无理由退货，但已拆封安装的不支持无理由退货。",
            True,
        ),
        (
            "Even if the box was opened, you can still return it.",
            "Items whose box was opened cannot be returned.",
            True,
        ),
        (
            "Even if the box was opened, you can still return it.",
            "Opened items can be returned within 7 days.",
            False,
        ),
        (
            "签收后七天内可以无理由退货。",
            "家具类商品签收后 7 天内可无理由退货，但已拆封安装的不支持无理由退货。",
            False,
        ),
    ],
)
def test_an_exception_the_context_rules_out_is_not_shown(claim: str, context: str, found: bool) -> None:
    assert bool(exception_added(claim, context)) is found


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("物业验收已经完成，研发中心定于 2025 年 3 月搬到新办公楼。", True),
        ("The building inspection has been completed, so the move is on.", True),
        ("搬迁日期要等物业验收完成后另行通知。", False),
    ],
)
def test_a_step_the_context_still_awaits_is_not_done(claim: str, found: bool) -> None:
    context = (
        "上海研发中心计划于 2025 年 3 月迁往新办公楼，具体搬迁日期待物业验收完成后另行通知。"
        " The move date will be announced once the building inspection is completed."
    )
    assert bool(certainty_added(claim, context)) is found


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("到凌晨1:25，剩下约700户的分光箱也已处理完毕，全部用户恢复上网。", True),
        ("The line card was installed at 11:35 and the incident was closed at 13:35.", True),
        ("到凌晨1:25，剩下约700户的分光箱还在处理，预计4点前恢复。", False),
        ("The observation window ended at 13:35; the incident would be closed if no errors appeared.", False),
    ],
)
def test_a_step_the_context_says_is_still_under_way_is_not_done(claim: str, found: bool) -> None:
    context = (
        "【更新】2025-08-04 01:25 剩余约700户分光箱仍在处理中，预计04:00前恢复。\n"
        "2025-03-12 13:35 UTC  Observation window ends; incident to be closed if no errors"
    )
    assert bool(certainty_added(claim, context)) is found


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("技术团队查明是当天上线的派单服务版本引入了数据库死锁，回滚后下单成功率逐步恢复。", False),
        ("技术团队回滚了当天发布的派单服务版本后，下单成功率逐步恢复。", True),
    ],
)
def test_a_found_cause_the_context_never_states_is_not_shown(answer: str, shown: bool) -> None:
    context = "技术团队在 20:52 回滚了当天 18:30 发布的派单服务版本后，下单成功率逐步恢复。"
    assert (check(context=context, answer=answer).verdict is Verdict.PASS) is shown


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        ("公司已经确认后续还会扩大召回范围。", "公司表示，不排除后续扩大召回范围。"),
        (
            "The company has confirmed it will widen the recall.",
            "A wider recall cannot be ruled out, the company said.",
        ),
    ],
)
def test_a_possibility_not_ruled_out_is_not_a_confirmed_plan(claim: str, context: str) -> None:
    assert certainty_added(claim, context)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("各车间主任每周一会抽查全厂各车间的防护用品佩戴情况。", True),
        ("各车间主任每周一抽查本车间的防护用品佩戴情况。", False),
        ("Each workshop head spot-checks every workshop's protective gear on Mondays.", True),
    ],
)
def test_a_rule_kept_to_ones_own_is_not_widened_to_everything(claim: str, found: bool) -> None:
    context = (
        "各车间主任每周一对本车间的防护用品佩戴情况进行抽查，结果报安环部。"
        " Each workshop head spot-checks protective gear in their own workshop on Mondays."
    )
    assert bool(scope_widened(claim, context)) is found


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        (
            "Let the mould cool below 50 °C first; heat-resistant gloves are advisable but not compulsory.",
            True,
        ),
        ("Let the mould cool below 50 °C first; heat-resistant gloves are mandatory.", False),
        ("冷却到 50 °C 以下再操作，耐热手套可选。", True),
    ],
)
def test_what_the_context_requires_is_not_made_optional(claim: str, found: bool) -> None:
    context = (
        "2) Allow the mould to cool below 50 °C before handling; heat-resistant gloves are mandatory. "
        "模具冷却到 50 °C 以下才能操作，必须佩戴耐热手套。"
    )
    assert bool(obligation_dropped(claim, context)) is found


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("The 22 affected beds have already been moved to the Pemberton Wing.", True),
        ("The 22 affected beds will move to the Pemberton Wing during the works.", False),
        ("The 22 affected beds have already been booked for the Pemberton Wing.", False),  # another verb
    ],
)
def test_what_the_context_says_will_happen_has_not_already_happened(claim: str, found: bool) -> None:
    context = "During the works, 22 beds will move temporarily to the Pemberton Wing."
    assert bool(certainty_added(claim, context)) is found

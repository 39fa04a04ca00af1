"""An approver, owner or escalation target swapped for another in the clause about the same action
is not shown (`verify/actors.py`, docs/design.md §2.1 "Actors"); the same role said again, or a role
the window's clause names too, is no swap."""

from __future__ import annotations

import pytest

from groundgate.contracts import FactCategory, Verdict
from groundgate.verify.actors import actor_swaps
from groundgate.verify.grounding_check import check

DISK = "如果使用率仍高于 85%，申请扩容，扩容工单需由存储组审批。备注：日志节点的 /var 分区由主机组负责。"
HANDOFF = (
    "If the incoming engineer has not acknowledged the handoff within 30 minutes, the outgoing engineer "
    "stays on call and escalates to the team lead."
)
LEAVING = "员工提出离职后，由部门经理指定交接人并签字确认交接清单。部门总监仅在核心岗位离职时参与面谈。"


@pytest.mark.parametrize(
    ("window", "claim", "pair"),
    [
        (DISK, "如果使用率仍然高于 85%，就申请扩容，扩容工单需要主机组审批。", ("主机组", "存储组")),
        (LEAVING, "员工提出离职后，由部门总监指定交接人并在交接清单上签字确认。", ("部门总监", "部门经理")),
        # who bears a cost is a party too
        (
            "公司为员工本人购买补充商业医疗保险；员工配偶及子女可自愿加保，加保保费由员工个人承担。",
            "配偶和孩子都可以自愿加保，加保的保费由公司承担。",
            ("公司", "员工个人"),
        ),
        # the same action in other words (超出标准 for 超标, 批准 for 审批): matched by character pairs too
        (
            "超标部分需由部门总监书面审批，否则由员工自行承担。",
            "超出标准的部分得有财务经理的书面批准，否则只能自己承担。",
            ("财务经理", "部门总监"),
        ),
        (
            HANDOFF,
            "If the incoming engineer hasn't acknowledged within 30 minutes, the outgoing engineer stays on call and pages the engineering manager.",
            ("engineering manager", "team lead"),
        ),
    ],
)
def test_another_role_in_the_clause_about_the_same_action_is_a_swap(
    window: str, claim: str, pair: tuple[str, str]
) -> None:
    assert pair in actor_swaps(claim, window)
    result = check(context=window, answer=claim)
    assert result.verdict is not Verdict.PASS
    assert any(c.category is FactCategory.NO_EVIDENCE for c in result.claims)


@pytest.mark.parametrize(
    ("window", "claim"),
    [
        (DISK, "使用率还高于 85% 的话就申请扩容，扩容工单由存储组审批。"),
        (LEAVING, "部门经理指定交接人，并签字确认交接清单。"),
        ("超标部分需由部门总监书面审批，否则由员工自行承担。", "超出标准的部分得有部门总监的书面批准。"),
        (
            HANDOFF,
            "After 30 minutes without an acknowledgement the outgoing engineer escalates to the team leader.",
        ),
        # news prose: a club's manager is no approver
        (
            "Fulham manager Kit Symons says his team must improve.",
            "The Fulham manager admits his team must improve.",
        ),
    ],
)
def test_the_same_role_said_again_is_no_swap(window: str, claim: str) -> None:
    assert actor_swaps(claim, window) == []

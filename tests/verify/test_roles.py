"""People named with their role in Chinese prose (docs/design.md §2.1, "People and roles")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check
from groundgate.verify.roles import role_name_findings

_LAUNCH = "澜图科技 CEO 陈嘉禾在发布会上表示，T3 Pro 将于 5 月 1 日起在线上渠道开售，线下门店 6 月跟进。"
_EARNINGS = "星禾科技第二季度毛利率 41.5%。财务总监刘珊表示，毛利率下降主要是由于新工厂投产初期良率偏低。"


@pytest.mark.parametrize(
    ("claim", "context", "findings"),
    [
        ("据产品总监林晓介绍，T3 Pro 将于 5 月 1 日起在线上开售。", _LAUNCH, ["name_not_in_evidence:林晓"]),
        (
            "首席执行官刘珊表示，毛利率下降是由于新工厂良率偏低。",
            _EARNINGS,
            ["role_elsewhere:首席执行官刘珊->财务总监"],
        ),
        ("CEO 陈嘉禾表示，T3 Pro 5 月 1 日开售。", _LAUNCH, []),
        ("财务总监刘珊表示，毛利率下降是由于良率偏低。", _EARNINGS, []),
        # A verb after the role is no person; the same post with other words before it is the same.
        ("需要部门经理签字确认后提交。", "提交前需部门负责人审批。", []),
        ("北港后卫唐远用头球完成绝杀。", "第 88 分钟北港联队后卫唐远头球破门完成绝杀。", []),
    ],
)
def test_a_person_is_named_with_the_role_the_context_gives_them(
    claim: str, context: str, findings: list[str]
) -> None:
    assert role_name_findings(claim, context) == findings


def test_a_statement_attributed_to_another_person_or_post_is_not_passed() -> None:
    assert (
        check(context=_EARNINGS, answer="财务总监刘珊表示，毛利率下降主要是由于新工厂良率偏低。").verdict
        is Verdict.PASS
    )
    assert (
        check(context=_EARNINGS, answer="首席执行官刘珊表示，毛利率下降主要是由于新工厂良率偏低。").verdict
        is not Verdict.PASS
    )
    assert (
        check(context=_LAUNCH, answer="据产品总监林晓介绍，T3 Pro 将于 5 月 1 日起在线上开售。").verdict
        is not Verdict.PASS
    )

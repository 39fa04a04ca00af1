"""Who does what: a claim that binds a person or role to a task must find that pairing in the
context, not the two apart (`groundgate.verify.bindings`)."""

from __future__ import annotations

import pytest

from groundgate.contracts import FactCategory, Verdict
from groundgate.verify.bindings import unbound_agents
from groundgate.verify.grounding_check import check

REVIEW = "改进项：配置变更增加数值范围校验（负责人：林涛，6 月前完成）；连接池耗尽增加告警（负责人：沈悦）。"
OVERTIME = (
    "加班管理办法：工作日加班需提前在 OA 提交加班申请，经直属上级批准后生效。"
    "值班补贴：法定节假日值班每天补贴 300 元，由 HRBP 每月统一核算后随工资发放。"
)
APPROVAL = "按单张报销单金额确定审批层级：2,000 元及以下由直属经理审批；10,000 元以上还需财务 VP 审批。"


@pytest.mark.parametrize(
    ("claim", "context", "unbound"),
    [
        ("连接池耗尽告警由林涛负责，数值范围校验由沈悦负责。", REVIEW, ["林涛", "沈悦"]),
        ("连接池耗尽告警由沈悦负责，数值范围校验由林涛负责。", REVIEW, []),
        ("工作日加班需要提前在 OA 提交申请，由 HRBP 审批通过后生效。", OVERTIME, ["HRBP"]),
        ("值班补贴由 HRBP 每月核算。", OVERTIME, []),
        # `2,000` is one figure, not two segments
        ("2,000 元及以下由直属经理审批。", APPROVAL, []),
        # `负责人` is a noun, not `负责`
        ("需要先提变更单，由缓存组负责人审批。", "变更须由缓存组负责人审批后执行。", []),
        # an agent the context never names is left to the other rules
        ("报销由财务总监审批。", APPROVAL, []),
        ("The change was approved by the SRE lead.", "Schema changes need DBA approval. The SRE lead owns the pager.", ["SRE"]),
    ],
)  # fmt: skip
def test_an_agent_is_bound_only_where_the_context_binds_it(
    claim: str, context: str, unbound: list[str]
) -> None:
    assert [b.agent.split()[0] for b in unbound_agents(claim, context)] == unbound


def test_a_swapped_owner_is_not_shown_but_not_rejected() -> None:
    result = check(context=REVIEW, answer="连接池耗尽告警由林涛负责。")
    assert result.verdict is Verdict.LOW_CONFID
    assert result.claims[0].category is FactCategory.NO_EVIDENCE
    assert "agent_unbound:林涛" in result.claims[0].reason_codes
    assert check(context=REVIEW, answer="连接池耗尽告警由沈悦负责。").verdict is Verdict.PASS


@pytest.mark.parametrize(
    ("claim", "unbound"),
    [
        ("二十人以上的团队要提前三天联系典藏部预约讲解。", ["典藏部"]),
        ("二十人以上的团队要提前三天联系宣教部预约讲解。", []),
        (
            "Groups of 20 or more must contact the Collections Office three days ahead to book a guided tour.",
            ["Collections Office"],
        ),
    ],
)
def test_the_office_a_task_goes_to_must_be_the_one_the_context_gives_it(
    claim: str, unbound: list[str]
) -> None:
    context = (
        "团队参观（20人以上）须提前3天联系宣教部预约讲解。文物捐赠及征集事宜请联系典藏部。"
        " Groups of 20 or more must contact the Education Office three days ahead to book a guided tour."
        " Donations go to the Collections Office."
    )
    assert [b.agent for b in unbound_agents(claim, context)] == unbound

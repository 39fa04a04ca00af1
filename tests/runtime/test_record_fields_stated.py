"""Session 30 (tune22): the asked fields of the one order a question names are stated.

A support engineer asks several fields of one order in one breath; the part is one need no single
field meets, so the fields were read and left unsaid. Offline roles over the bundled demo workspace:
each asked field of the named order is stated (with a disclaimer for what stays unanswered), and a
field not asked, or a field of another order, is not.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, OutputKind
from groundgate.runtime.orchestrator import Orchestrator

ACME = ExecutionContext(tenant="acme", user="demo", roles=("sre",))


@pytest.fixture(scope="module")
def orchestrator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Orchestrator]:
    workspace: Workspace
    with open_workspace(tmp_path_factory.mktemp("record-fields")) as workspace:
        load_demo(workspace)
        yield build_orchestrator(workspace.registry)


@pytest.mark.parametrize(
    ("question", "stated", "unstated"),
    [
        (
            "A shopper writes that ORD-20260314-00221 is still processing after lunch. "
            "What's its current status and channel, and did the bank call back yet?",
            ["order.status [order:ORD-20260314-00221:status]: PENDING", "ICBC"],
            ["order.amount"],
        ),
        (
            "客服转来投诉：ORD-20260314-00132 付不了，订单最终状态、走的哪家银行、失败码分别是什么？",
            ["FAILED", "CMB", "PAY-4005"],
            ["order.amount"],
        ),
    ],
)
def test_each_asked_field_of_the_named_order_is_stated_and_no_other(
    orchestrator: Orchestrator, question: str, stated: list[str], unstated: list[str]
) -> None:
    result = orchestrator.run(question, ACME)
    assert result.output_kind is not OutputKind.DEGRADED, (result.answer, result.gaps)
    assert all(s in result.answer for s in stated), result.answer
    assert not any(u in result.answer for u in unstated), result.answer

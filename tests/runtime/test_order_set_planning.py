"""The rule planner reads a set of orders asked by status, code and window with one count_orders call
(its window the asked clock times on the live day, bounding when they failed when the question says so), and the executor states the set's summary line,
quoted whole from the cited fact."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from test_offline_roles import TOOLS

from groundgate.contracts import EvidenceType
from groundgate.questions import derive_needs
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.roles import ExecuteRequest, PlanRequest
from groundgate.verify.evidence_items import EvidenceItem

LIVE_UNTIL = datetime(2026, 3, 14, 16, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "arguments"),
    [
        (
            "how many orders failed with ERR_TIMEOUT for us between 14:00 and 15:00?",
            {
                "failure_code": ["ERR_TIMEOUT"],
                "start": "2026-03-14T14:00:00+00:00",
                "end": "2026-03-14T15:00:00+00:00",
                "window_by": "updated",  # "failed between": when they failed, not when placed
            },
        ),
        ("which orders are still pending?", {"status": ["PENDING", "PROCESSING"]}),
        (
            "13 点档下的单里，还是支付成功的有几笔？",
            {"start": "2026-03-14T13:00:00+00:00", "end": "2026-03-14T14:00:00+00:00"},
        ),
    ],
)
def test_a_set_of_orders_asked_is_read_with_one_count_orders_call(
    question: str, arguments: dict[str, Any]
) -> None:
    request = PlanRequest(
        question=question,
        tools=[*TOOLS, {"name": "count_orders"}],
        round=1,
        needs=derive_needs(question),
    )
    calls = RulePlanner(now=LIVE_UNTIL, live_until=lambda: LIVE_UNTIL).plan(request).output.calls
    assert [c.arguments for c in calls if c.tool == "count_orders"] == [arguments]


@pytest.mark.parametrize(
    "question",
    [
        "3月14日 14:00 到 15:00 我们有多少笔订单因为 ERR_TIMEOUT 失败？",
        "How many orders failed with ERR_TIMEOUT between 14:00 and 15:00 on 2026-03-14?",
    ],
)
def test_a_window_on_a_named_day_is_read_on_that_day_not_on_the_live_day(question: str) -> None:
    live = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)  # the CLI demo's live day is later than the data's
    request = PlanRequest(
        question=question,
        tools=[*TOOLS, {"name": "count_orders"}],
        round=1,
        needs=derive_needs(question),
    )
    calls = RulePlanner(now=live, live_until=lambda: live).plan(request).output.calls
    (arguments,) = [c.arguments for c in calls if c.tool == "count_orders"]
    assert (arguments["start"], arguments["end"]) == (
        "2026-03-14T14:00:00+00:00",
        "2026-03-14T15:00:00+00:00",
    )


def test_without_the_tool_no_count_is_planned() -> None:
    question = "which orders are still pending?"
    request = PlanRequest(question=question, tools=TOOLS, round=1, needs=derive_needs(question))
    assert all(c.tool != "count_orders" for c in RulePlanner(now=LIVE_UNTIL).plan(request).output.calls)


def test_the_executor_states_the_order_sets_summary_quoted_whole() -> None:
    summary = "3 orders (status PENDING/PROCESSING), total 3827: 3 PENDING (total 3827: ORD-20260314-00200, ORD-20260314-00220, ORD-20260314-00221)"
    value = {"count": 3, "filters": "status PENDING/PROCESSING", "summary": summary}
    item = EvidenceItem(
        invocation_id="inv-1",
        citation_id="orderset:0123456789abcdef",
        tool="count_orders",
        source="order_store orderset:0123456789abcdef",
        text=f"order.set [orderset:0123456789abcdef]: summary {summary}",
        quote_text=f'{{"count": 3, "summary": "{summary}"}}',
        evidence_type=EvidenceType.VERIFIED_FACT,
        round=1,
        value=value,
        fact_type="order.set",
    )
    question = "which orders are still pending?"
    output = (
        ExtractiveExecutor()
        .execute(ExecuteRequest(question=question, evidence=[item], round=1, needs=derive_needs(question)))
        .output
    )
    assert output is not None
    assert [c.text for c in output.claims] == [summary]
    assert [(r.citation_id, r.excerpt) for r in output.claims[0].evidence_refs] == [
        (item.citation_id, summary)
    ]

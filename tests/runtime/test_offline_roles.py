"""The offline roles on their own: the rule planner (round 1 per need, orders and traces named in the
question; round 2 live telemetry in the question's window and the unmet needs' own words) and the
extractive executor (verbatim quotes with citations, nothing of its own, the higher authority wins)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from groundgate.contracts import EvidenceType, ParseStatus, RetryContext, ToolCall
from groundgate.contracts.evidence import Authority
from groundgate.questions import derive_needs
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.orchestrator import _covered_by_windows
from groundgate.runtime.roles import ExecuteRequest, PlanRequest
from groundgate.verify.evidence_items import EvidenceItem

TOOLS: list[dict[str, Any]] = [
    {"name": "lookup_knowledge"},
    {"name": "query_logs"},
    {"name": "query_metrics"},
    {"name": "query_order"},
]
NOW = datetime(2026, 3, 20, tzinfo=UTC)


def _plan(
    question: str, *, tools: list[dict[str, Any]] = TOOLS, retry: RetryContext | None = None
) -> list[ToolCall]:
    request = PlanRequest(
        question=question,
        tools=tools,
        round=2 if retry else 1,
        retry_context=retry,
        needs=derive_needs(question),
    )
    outcome = RulePlanner(now=NOW).plan(request)
    assert outcome.output is not None
    assert outcome.step.role == "planner"
    assert outcome.step.parse_status is ParseStatus.OK
    assert outcome.step.model_name == "offline-rules"
    return outcome.output.calls


def test_round_one_searches_the_documents_once_per_need() -> None:
    calls = _plan("产假和婚假分别多少天？")
    searches = [c for c in calls if c.tool == "lookup_knowledge"]
    assert len(searches) == 2
    assert {c.purpose for c in searches} == {n.label for n in derive_needs("产假和婚假分别多少天？").needs}


def test_round_one_reads_an_order_and_a_trace_named_in_the_question() -> None:
    calls = _plan("订单 ORD-20260314-00042 为什么失败？trace 4bf92f3577b34da6 里有什么？")
    assert (
        ToolCall(tool="query_order", arguments={"order_id": "ORD-20260314-00042"}, purpose="order state")
        in calls
    )
    assert any(c.tool == "query_logs" and c.arguments == {"trace_id": "4bf92f3577b34da6"} for c in calls)


def test_the_planner_only_plans_registered_tools() -> None:
    calls = _plan("订单 ORD-20260314-00042 现在是什么状态？", tools=[{"name": "query_order"}])
    assert [c.tool for c in calls] == ["query_order"]


def test_round_two_reads_logs_and_metrics_of_the_questions_window() -> None:
    question = "3月14日 14:05 开始的支付超时根因是什么？"
    retry = RetryContext(round=1, missing_evidence_facts=["the logs around 14:05"])
    calls = _plan(question, retry=retry)
    logs = next(c for c in calls if c.tool == "query_logs")
    assert logs.arguments["level"] == "ERROR"
    assert logs.arguments["start"] == "2026-03-14T13:35:00+00:00"
    assert logs.arguments["end"] == "2026-03-14T14:35:00+00:00"
    metrics = [c for c in calls if c.tool == "query_metrics"]
    assert "payment_gateway_error_rate" in {c.arguments["name"] for c in metrics}
    # The gap prose is never a query.
    assert all("the logs around" not in str(c.arguments) for c in calls)


@pytest.mark.parametrize(
    ("live_until", "start"),
    [
        # a replay whose data ends at 16:00 on the 14th: that day's 14:16
        (datetime(2026, 3, 14, 16, 0, tzinfo=UTC), "2026-03-14T14:01:00+00:00"),
        # live data ending at 09:00: 14:16 has not come yet today, so it is yesterday's
        (datetime(2026, 3, 20, 9, 0, tzinfo=UTC), "2026-03-19T14:01:00+00:00"),
    ],
)
def test_a_clock_time_without_a_day_is_the_last_such_minute_before_the_live_data_ends(
    live_until: datetime, start: str
) -> None:
    question = "payment success rate at 14:16 UTC?"
    request = PlanRequest(
        question=question,
        tools=TOOLS,
        round=2,
        retry_context=RetryContext(round=1, missing_evidence_facts=["x"], unmet_need_ids=["n1"]),
        needs=derive_needs(question),
    )
    calls = RulePlanner(now=NOW, live_until=lambda: live_until).plan(request).output.calls
    metric = next(c for c in calls if c.tool == "query_metrics")
    assert metric.arguments["name"] == "payment_success_rate"
    assert metric.arguments["start"] == start


def test_without_live_data_a_clock_time_is_read_against_now() -> None:
    request = PlanRequest(
        question="p99 latency at 14:03?",
        tools=TOOLS,
        round=2,
        retry_context=RetryContext(round=1, missing_evidence_facts=["x"], unmet_need_ids=["n1"]),
        needs=derive_needs("p99 latency at 14:03?"),
    )
    calls = RulePlanner(now=NOW, live_until=lambda: None).plan(request).output.calls
    metric = next(c for c in calls if c.tool == "query_metrics")
    assert metric.arguments["start"].startswith("2026-03-19T")  # NOW is midnight of the 20th


@pytest.mark.parametrize(
    "question",
    [
        "Why did ORD-20260314-00097 fail?",
        "ORD-20260314-00097 为什么支付失败？",
        "ORD-20260314-00097 为啥没付成功？",
        "Customer says ORD-20260314-00097 got declined. What was the reason?",
    ],
)
def test_round_two_of_a_why_about_a_record_reads_every_line_of_that_record(question: str) -> None:
    # The cause may be a warning (`acquire connection timeout …`) or an INFO line (`declined …
    # reason=insufficient_balance`): every level, only that record's lines.
    retry = RetryContext(
        round=1, missing_evidence_facts=["cause of the ORD-20260314-00097"], unmet_need_ids=["n1"]
    )
    logs = next(c for c in _plan(question, retry=retry) if c.tool == "query_logs")
    assert logs.arguments == {"keywords": ["ORD-20260314-00097"]}


@pytest.mark.parametrize(
    ("question", "arguments"),
    [
        # an alert rule's lines are warnings and INFO pages: every level, that rule's lines only
        (
            "PaymentTimeoutRateHigh 告警触发的那条记录里，超时率写的是多少？",
            {"keywords": ["PaymentTimeoutRateHigh"]},
        ),
        # named beside an error code, the alert's own lines still (`alert firing … rate=10.8` is a WARN)
        (
            "When exactly did PaymentTimeoutRateHigh fire, and what ERR_TIMEOUT rate did the alert report?",
            {"keywords": ["PaymentTimeoutRateHigh"]},
        ),
        # an error code named in a question about a value stays among the errors
        ("ERR_TIMEOUT 的比例最高到过多少？", {"level": "ERROR", "keywords": ["ERR_TIMEOUT"]}),
    ],
)
def test_round_two_reads_every_level_of_a_named_alert_rule(
    question: str, arguments: dict[str, object]
) -> None:
    retry = RetryContext(round=1, missing_evidence_facts=["the value"], unmet_need_ids=["n1"])
    logs = next(c for c in _plan(question, retry=retry) if c.tool == "query_logs")
    assert logs.arguments == arguments


@pytest.mark.parametrize(
    "question",
    [
        "How far behind was the order-settlement consumer group at 14:34?",
        "order-settlement 消费组 14:34 积压多少？",
    ],
)
def test_round_two_reads_the_lag_series_for_a_consumer_group_asked_at_a_minute(question: str) -> None:
    retry = RetryContext(round=1, missing_evidence_facts=["the value"], unmet_need_ids=["n1"])
    metrics = [c.arguments["name"] for c in _plan(question, retry=retry) if c.tool == "query_metrics"]
    assert "kafka_consumer_lag" in metrics


@pytest.mark.parametrize(
    ("question", "level"),
    [
        ("Was ORD-20260314-00066 refunded? Give me the refund id.", None),  # refund lines are INFO
        ("ORD-20260314-00066 退款了吗？退款单号是多少？", None),
        ("ORD-20260314-00200 一直卡在 PENDING，客户问要不要再付一次？", "ERROR"),
    ],
)
def test_round_two_reads_every_level_of_an_orders_refund(question: str, level: str | None) -> None:
    retry = RetryContext(round=1, missing_evidence_facts=["the refund id"], unmet_need_ids=["n1"])
    logs = next(c for c in _plan(question, retry=retry) if c.tool == "query_logs")
    assert logs.arguments.get("level") == level


@pytest.mark.parametrize(
    ("question", "arguments"),
    [
        # a moment of the order's life: its own lines, every level (the wait is a warning)
        (
            "那 ORD-20260314-00093 在 payment-db 连接池拿连接超时的时候，前面排着多少个请求？",
            {"keywords": ["ORD-20260314-00093"]},
        ),
        (
            "How long did ORD-20260314-00042 wait for a payment-db connection?",
            {"keywords": ["ORD-20260314-00042"]},
        ),
        # not a moment of its life: among the errors, as before
        (
            "ORD-20260314-00042 的 payment-db 错误码是多少？",
            {"level": "ERROR", "keywords": ["ORD-20260314-00042", "payment-db"]},
        ),
    ],
)
def test_round_two_reads_an_orders_own_lines_at_a_moment_of_its_life(
    question: str, arguments: dict[str, object]
) -> None:
    retry = RetryContext(round=1, missing_evidence_facts=["the value"], unmet_need_ids=["n1"])
    logs = next(c for c in _plan(question, retry=retry) if c.tool == "query_logs")
    assert {k: v for k, v in logs.arguments.items() if k in ("level", "keywords")} == arguments


def test_round_two_without_a_date_or_identifier_reads_no_telemetry() -> None:
    retry = RetryContext(round=1, missing_evidence_facts=["退款手续费由谁承担"])
    calls = _plan("退款手续费由谁承担？", retry=retry)
    assert {c.tool for c in calls} <= {"lookup_knowledge"}


def _item(text: str, n: int, *, authority: Authority | None = Authority.OWNED) -> EvidenceItem:
    return EvidenceItem(
        invocation_id=f"inv{n}",
        citation_id=f"doc{n}#0",
        tool="lookup_knowledge",
        source=f"doc{n}.md",
        text=text,
        quote_text=text,
        evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
        round=1,
        authority=authority,
    )


def _execute(question: str, evidence: list[EvidenceItem]) -> list[tuple[str, list[str]]]:
    outcome = ExtractiveExecutor().execute(
        ExecuteRequest(question=question, evidence=evidence, round=1, needs=derive_needs(question))
    )
    assert outcome.output is not None
    assert outcome.step.role == "executor"
    assert outcome.step.model_name == "offline-extractive"
    return [(c.text, [r.excerpt for r in c.evidence_refs]) for c in outcome.output.claims]


def test_the_executor_quotes_the_evidence_verbatim_with_its_citation() -> None:
    passage = "ERR_TIMEOUT 由支付网关返回，表示银行通道在 3000 毫秒内没有响应。"
    claims = _execute("ERR_TIMEOUT 是哪个组件返回的？", [_item(passage, 1)])
    assert claims
    for text, excerpts in claims:
        assert text in passage
        assert excerpts
        assert all(e in passage for e in excerpts)


def test_the_executor_states_nothing_without_evidence() -> None:
    assert _execute("etcd 备份的保留周期是多少天？", []) == []


def test_a_passage_outranked_by_a_contradicting_official_one_is_not_stated() -> None:
    unverified = _item("Refunds reach the card within 10 working days.", 1, authority=Authority.UNVERIFIED)
    official = _item("Refunds reach the card within 3 working days.", 2, authority=Authority.OFFICIAL)
    claims = _execute("How long do refunds take to reach the card?", [unverified, official])
    stated = " ".join(text for text, _ in claims)
    assert "3 working days" in stated
    assert "10 working days" not in stated


def test_round_one_reads_the_logs_of_the_day_a_record_identifier_names() -> None:
    calls = _plan("When INC-20260314-01 was closed, what impact window got recorded?")
    logs = [c for c in calls if c.tool == "query_logs"]
    assert logs == [
        ToolCall(
            tool="query_logs",
            arguments={
                "keywords": ["INC-20260314-01"],
                "start": "2026-03-14T00:00:00+00:00",
                "end": "2026-03-15T00:00:00+00:00",
            },
            purpose="record INC-20260314-01",
        )
    ]
    # an order has its own tool, and a number that is no calendar day names no day
    assert not [c for c in _plan("ORD-20260314-00042 为什么失败？") if c.tool == "query_logs"]
    assert not [c for c in _plan("What is CHG-20261399-001?") if c.tool == "query_logs"]


def test_a_clause_of_a_sentence_stated_whole_is_stated_once() -> None:
    passage = "PAY-4012 金额超过单笔限额 50,000 CNY。订单关闭后不能再支付。"
    claims = _execute("单笔限额是多少？超了报哪个错误码？", [_item(passage, 1)])
    texts = [t.rstrip("。") for t, _ in claims]
    assert len(texts) == len(set(texts))
    assert not any(a != b and a in b for a in texts for b in texts)


def test_a_follow_up_reads_the_record_the_turn_before_named() -> None:
    # "后来改过吗？" names nothing: the needs carry INC-… over from the previous question, and round 1
    # reads that record's day of logs as if the question had named it.
    question = "后来改过吗？什么时候改的，为啥？"
    request = PlanRequest(
        question=question,
        tools=[{"name": "query_logs"}, {"name": "lookup_knowledge"}],
        round=1,
        needs=derive_needs(question, previous_question="INC-20260314-01 刚开的时候定的是几级？"),
    )
    output = RulePlanner(now=NOW).plan(request).output
    assert output is not None
    logs = [c for c in output.calls if c.tool == "query_logs"]
    assert logs
    assert logs[0].arguments["keywords"] == ["INC-20260314-01"]


@pytest.mark.parametrize(
    ("question", "live_until", "start"),
    [
        # `2点08分` says no half of the day: data of the afternoon that ends at 15:10 holds 14:08
        ("2点08分 支付成功率是多少？", datetime(2026, 3, 14, 15, 10, tzinfo=UTC), "2026-03-14T13:53:00+00:00"),
        # live data ending at 09:00: 02:08 of that morning is the later of the two
        ("2点08分 支付成功率是多少？", datetime(2026, 3, 14, 9, 0, tzinfo=UTC), "2026-03-14T01:53:00+00:00"),
        # a daypart said is kept: `凌晨` is the early morning, even when the data is of the afternoon
        ("凌晨2点08分 支付成功率是多少？", datetime(2026, 3, 14, 15, 10, tzinfo=UTC), "2026-03-14T01:53:00+00:00"),
    ],
)  # fmt: skip
def test_a_chinese_hour_without_a_daypart_is_the_last_such_minute_of_either_half_of_the_day(
    question: str, live_until: datetime, start: str
) -> None:
    request = PlanRequest(
        question=question,
        tools=TOOLS,
        round=2,
        retry_context=RetryContext(round=1, missing_evidence_facts=["x"], unmet_need_ids=["n1"]),
        needs=derive_needs(question),
    )
    output = RulePlanner(now=NOW, live_until=lambda: live_until).plan(request).output
    assert output is not None
    metric = next(c for c in output.calls if c.tool == "query_metrics")
    assert metric.arguments["start"] == start


@pytest.mark.parametrize(
    ("question", "covered"),
    [
        ("2点08分 支付成功率是多少？", {"2点08分"}),  # either half of the day: 14:08 is in the window
        ("凌晨2点08分 支付成功率是多少？", set()),  # the early morning is not
    ],
)
def test_a_window_around_the_afternoon_reading_keeps_a_chinese_hour_said_without_a_daypart(
    question: str, covered: set[str]
) -> None:
    window = {"start": "2026-03-14T13:53:00+00:00", "end": "2026-03-14T14:23:00+00:00"}
    calls = [ToolCall(tool="query_metrics", arguments={"name": "payment_success_rate", **window})]
    assert _covered_by_windows(question, calls) == covered

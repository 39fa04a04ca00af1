"""Session 33 (tune28, an engineer writing an incident's postmortem): recovery asked against a bound,
a name only the logs speak of, and lines of one kind among the candidates (docs/design.md §8)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from groundgate.contracts import QuestionNeeds, RetryContext, ToolResult, ToolStatus, VerifiedFact
from groundgate.questions import derive_needs
from groundgate.questions.window_stats import StatKind, asked_stats
from groundgate.runtime.line_kinds import repeated_lines, unspoken_names
from groundgate.runtime.offline import RulePlanner
from groundgate.runtime.roles import PlanRequest
from groundgate.runtime.window_stats import window_stat_units
from groundgate.testing.evidence import metric_fact
from groundgate.verify.evidence_items import EvidenceItem
from groundgate.verify.series import confirms_point


def _asked(question: str) -> list[tuple[StatKind, float | None]]:
    return [(s.kind, s.threshold) for n in derive_needs(question).needs for s in asked_stats(n)]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # recovery with its bound said anywhere in the part
        ("按恢复标准（0.5% 以下），它是几点回到正常的？", [(StatKind.BACK_UNDER, 0.5)]),
        ("When did it recover, i.e. below 0.5 again?", [(StatKind.BACK_UNDER, 0.5)]),
        # back at a level: the series says from which side
        ("from which minute was it back at the 99.5% objective?", [(StatKind.BACK_AT, 99.5)]),
        # a span over a threshold with "the" before its figure
        ("over which minutes was the gateway p99 above the 800 ms line?", [(StatKind.ABOVE, 800.0)]),
    ],
)
def test_a_recovery_or_span_is_read_against_the_bound_the_part_gives(
    question: str, expected: list[tuple[StatKind, float | None]]
) -> None:
    assert _asked(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "它是几点恢复的？",  # recovery without a bound: the verifier's own recovery rule answers it
        "按手册，错误率 0.5% 以下算正常吗？",  # a bound without a recovery asked
    ],
)
def test_no_bounded_recovery_is_read_without_both_a_recovery_and_a_bound(question: str) -> None:
    assert all(kind is not StatKind.BACK_UNDER for kind, _ in _asked(question))


SUCCESS = {"name": "payment_success_rate", "labels": {"service": "payment-gateway"}}


def _points(values: list[float]) -> tuple[EvidenceItem, EvidenceItem]:
    value: dict[str, Any] = {
        **SUCCESS,
        "step_seconds": None,
        "aggregation": "raw",
        "points": [[f"2026-03-14T14:{m:02d}:00Z", v] for m, v in enumerate(values)],
    }
    summary = {
        **SUCCESS,
        "count": len(values),
        "first_at": "2026-03-14T14:00:00Z",
        "last_at": f"2026-03-14T14:{len(values) - 1:02d}:00Z",
        "max": max(values),
    }
    return metric_fact("rate:points", "metric.points", value), metric_fact("rate", "metric.summary", summary)


@pytest.mark.parametrize(
    ("values", "says"),
    [
        # a success rate dips under the level and comes back: the first minute at or over it
        ([99.8, 99.7, 97.1, 80.5, 90.2, 99.4, 99.6, 99.7], ["14:03 UTC", "was 14:06 UTC", "at 99.6"]),
        # a latency goes over it and comes back: the first minute at or under it
        ([700, 900, 3000, 2000, 850, 790, 760, 700], ["14:02 UTC", "was 14:05 UTC", "at 790"]),
    ],
)
def test_back_at_a_level_is_the_first_minute_back_after_the_furthest_excursion(
    values: list[float], says: list[str]
) -> None:
    level = "99.5%" if values[0] < 100 else "800 ms"
    need = derive_needs(f"payment success rate: from which minute was it back at the {level} line?").needs[0]
    points, summary = _points(values)
    stated = window_stat_units([summary, points], need, zh=False)
    assert len(stated) == 1
    text, quotes = stated[0]
    assert all(s in text for s in says)
    assert all(excerpt in item.quote_text for item, excerpt in quotes)
    assert any(confirms_point(text, item.value) for item, _ in quotes)


def test_back_at_a_level_the_series_never_crossed_or_never_regained_states_nothing() -> None:
    need = derive_needs("payment success rate: from which minute was it back at the 99.5% line?").needs[0]
    for values in ([99.8, 99.7, 99.9, 99.6], [99.8, 99.1, 80.5, 90.2, 95.1]):
        points, summary = _points(values)
        assert window_stat_units([summary, points], need, zh=False) == []


def _log(ref: str, message: str, service: str = "payment-db-proxy") -> VerifiedFact:
    return VerifiedFact(
        fact_ref=ref,
        fact_type="log.line",
        value={"ts": "2026-03-14T14:00:02.310Z", "service": service, "level": "INFO", "message": message},
        source_system="log_store",
        queried_at=datetime(2026, 3, 14, 16, tzinfo=UTC),
        scope="platform",
    )


def _result(facts: list[VerifiedFact], *, status: ToolStatus = ToolStatus.OK) -> ToolResult:
    return ToolResult(invocation_id="inv", tool="query_logs", status=status, facts=facts)


def test_a_line_repeating_the_kind_of_an_earlier_one_is_a_repeat_and_the_first_of_each_kind_is_not() -> None:
    facts = [
        _log("a", "batch job recon-daily started host=pay-mysql-01 schedule=14:00"),
        _log("b", "slow query host=pay-mysql-01 sql_tag=recon_report_scan took_ms=3797 job=recon-daily"),
        _log("c", "slow query host=pay-mysql-01 sql_tag=recon_report_scan took_ms=4374 job=recon-daily"),
        _log("d", "slow query host=pay-mysql-01 sql_tag=recon_report_scan took_ms=2774 job=recon-daily"),
        # the same words from another service are another kind
        _log(
            "e", "slow query host=pay-mysql-01 sql_tag=recon_report_scan took_ms=1 job=recon-daily", "other"
        ),
    ]
    assert repeated_lines([_result(facts)]) == {"c", "d"}
    assert repeated_lines([_result(facts, status=ToolStatus.EMPTY)]) == frozenset()


def _needs(question: str) -> QuestionNeeds:
    return derive_needs(question)


def test_a_name_nothing_read_mentions_is_unspoken_and_one_a_document_names_is_not() -> None:
    needs = _needs(
        "When did the recon-daily batch job start and which team owns the recon_report_scan query?"
    )
    doc_result = ToolResult(
        invocation_id="k",
        tool="lookup_knowledge",
        status=ToolStatus.OK,
        documents=[
            {
                "citation_id": "d1",
                "source": "runbook.md",
                "text": "recon_report_scan is owned by the DBA team.",
            }
        ],
    )
    assert unspoken_names([doc_result], needs) == ("recon-daily",)
    assert unspoken_names([], needs) == ("recon-daily", "recon_report_scan")


def _retry_logs(question: str, unspoken: tuple[str, ...]) -> list[dict[str, Any]]:
    needs = derive_needs(question)
    request = PlanRequest(
        question=question,
        tools=[{"name": "query_logs"}],
        round=2,
        retry_context=RetryContext(
            round=1, missing_evidence_facts=[question], unmet_need_ids=[n.id for n in needs.needs]
        ),
        needs=needs,
        unspoken_names=unspoken,
    )
    output = RulePlanner(live_until=lambda: datetime(2026, 3, 14, 16, tzinfo=UTC)).plan(request).output
    assert output is not None
    return [c.arguments for c in output.calls if c.tool == "query_logs"]


@pytest.mark.parametrize(
    ("unspoken", "level"),
    [
        # no document spoke of the job: its lines at every level (it `started` at INFO)
        (("recon-daily",), None),
        # a document spoke of it: the errors naming it, as before
        ((), "ERROR"),
    ],
)
def test_the_follow_up_reads_every_level_of_a_name_only_the_logs_speak_of(
    unspoken: tuple[str, ...], level: str | None
) -> None:
    (read,) = _retry_logs("What did the recon-daily job do and on which host?", unspoken)
    assert read["keywords"] == ["recon-daily"]
    assert read.get("level") == level

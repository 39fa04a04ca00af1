"""The log lines of one kind stated as a set from two one-line reads (docs/design.md §8, Session 30)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from groundgate.contracts import EvidenceType
from groundgate.questions import derive_needs
from groundgate.runtime.log_lines import line_set_units
from groundgate.runtime.offline import RulePlanner
from groundgate.runtime.roles import PlanRequest
from groundgate.verify.evidence_items import EvidenceItem

QUESTION = "first + last 'pool saturated' warn from payment-db-proxy, and how many of them"
FILTERS = "service=payment-db-proxy, keywords 'pool saturated'"


def _item(inv: str, cid: str, fact_type: str, value: dict[str, Any], text: str) -> EvidenceItem:
    return EvidenceItem(
        inv,
        cid,
        "query_logs",
        "log_store",
        text,
        text,
        EvidenceType.VERIFIED_FACT,
        1,
        0.0,
        fact_type,
        None,
        value,
    )


def _read(inv: str, line_ts: str, *, total: int = 100) -> list[EvidenceItem]:
    line = {
        "ts": line_ts,
        "service": "payment-db-proxy",
        "level": "WARN",
        "message": "pool saturated pool=payment-db",
    }
    count = {"total": total, "shown": 1, "filters": FILTERS}
    return [
        _item(
            inv, f"line:{line_ts}", "log.line", line, f"{line_ts[:19]} payment-db-proxy WARN: pool saturated"
        ),
        _item(
            inv, f"count:{inv}", "log.count", count, f"log.count: total {total}, shown 1, filters {FILTERS}"
        ),
    ]


def _stated(evidence: list[EvidenceItem]) -> list[str]:
    need = derive_needs(QUESTION).needs[0]
    return [text for text, _ in line_set_units(evidence, need, QUESTION, zh=False)]


def test_two_one_line_reads_give_the_count_the_first_and_the_last_line() -> None:
    evidence = _read("desc", "2026-03-14T14:29:45Z") + _read("asc", "2026-03-14T14:05:00Z")
    (text,) = _stated(evidence)
    assert text.startswith("100 log lines match")
    assert text.index("14:05:00") < text.index("14:29:45")


def test_two_reads_of_the_same_end_say_nothing_of_the_other_end() -> None:
    assert _stated(_read("a", "2026-03-14T14:05:00Z") + _read("b", "2026-03-14T14:05:00Z")) == []


def test_one_read_alone_gives_no_set() -> None:
    assert _stated(_read("asc", "2026-03-14T14:05:00Z")) == []


def test_the_planner_reads_the_live_days_lines_of_that_kind_oldest_and_newest_first() -> None:
    request = PlanRequest(
        question=QUESTION, tools=[{"name": "query_logs"}], round=1, needs=derive_needs(QUESTION)
    )
    output = RulePlanner(live_until=lambda: datetime(2026, 3, 14, 15, 59, tzinfo=UTC)).plan(request).output
    assert output is not None
    reads = [c.arguments for c in output.calls if c.tool == "query_logs"]
    assert [(r["order"], r["limit"], r["service"], r["keywords"]) for r in reads] == [
        ("asc", 1, "payment-db-proxy", ["pool saturated"]),
        ("desc", 1, "payment-db-proxy", ["pool saturated"]),
    ]
    assert all("level" not in r and r["start"].startswith("2026-03-14T00:00") for r in reads)

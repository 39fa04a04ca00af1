"""LogStore and the query_logs tool: load, search (zh/en, identifiers), counts, tenancy, bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from groundgate.contracts import ExecutionContext, ToolCall, ToolResult, ToolStatus
from groundgate.errors import InvalidInputError, UsageError
from groundgate.tools import ReasonCode, ToolRegistry
from groundgate.tools.builtin.logs import LogStore, QueryLogsArgs, query_logs_tool

ACME = ExecutionContext(tenant="acme", user="alice")
GLOBEX = ExecutionContext(tenant="globex", user="bob")
TRACE = "4f1c9a2e7b3d4a10"


def _line(
    ts: str, service: str, level: str, message: str, tenant: str = "acme", trace: str | None = None
) -> str:
    obj: dict[str, Any] = {"ts": ts, "service": service, "level": level, "tenant": tenant, "message": message}
    if trace:
        obj["trace_id"] = trace
    return json.dumps(obj, ensure_ascii=False)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def log_files(tmp_path: Path) -> dict[str, Path]:
    jsonl = [
        _line(
            "2026-03-14T14:00:00Z", "payment-gateway", "INFO", "payment accepted order_id=ORD-20260314-00041"
        ),
        _line(
            "2026-03-14T14:05:03.120Z",
            "payment-gateway",
            "ERROR",
            "ERR_TIMEOUT bank channel CMB no response in 3000ms order_id=ORD-20260314-00042",
            trace=TRACE,
        ),
        _line("2026-03-14T14:05:04Z", "payment-gateway", "WARN", "支付网关超时，重试第1次", trace=TRACE),
        _line(
            "2026-03-14T22:06:00+08:00", "payment-db-proxy", "ERROR", "连接池耗尽 pool=payment-db active=100"
        ),
        "{not json",
        _line(
            "2026-03-14T14:07:00Z", "payment-gateway", "ERROR", "ERR_TIMEOUT globex secret", tenant="globex"
        ),
        json.dumps({"ts": "2026-03-14T14:08:00Z", "service": "x"}),
        json.dumps({"ts": "yesterday", "message": "bad time", "tenant": "acme"}),
        _line("2026-03-14T14:09:00Z", "order-service", "WARNING", "slow query 1200ms"),
    ]
    text = [
        "2026-03-14T14:05:03.120Z ERROR payment-gateway [trace=4f1c9a2e] bank channel timeout 银行渠道无响应",
        "    at com.example.BankClient.call(BankClient.java:88)",
        "2026-03-14 14:05:09,500 WARN risk-engine decision delayed trace_id=9a9a9a9a9a9a",
    ]
    return {
        "jsonl": _write(tmp_path / "payment.jsonl", jsonl),
        "text": _write(tmp_path / "app.log", text),
    }


@pytest.fixture
def store(log_files: dict[str, Path]) -> Iterator[LogStore]:
    with LogStore() as s:
        s.load_jsonl(log_files["jsonl"])
        s.load_text(log_files["text"], tenant="acme")
        yield s


@pytest.fixture
def registry(store: LogStore) -> Iterator[ToolRegistry]:
    with ToolRegistry() as reg:
        reg.register(*query_logs_tool(store))
        yield reg


def _query(reg: ToolRegistry, ctx: ExecutionContext = ACME, **arguments: Any) -> ToolResult:
    return reg.execute(ToolCall(tool="query_logs", arguments=arguments), ctx, run_id="run-1", round=1)


# --------------------------------------------------------------------------- loading


def test_load_reports_counts_and_invalid_lines_with_numbers(log_files: dict[str, Path]) -> None:
    with LogStore() as store:
        report = store.load_jsonl(log_files["jsonl"])
        assert report.loaded == 6
        assert report.invalid_count == 3
        assert [(item.line_no, item.reason.split(":")[0]) for item in report.invalid_lines] == [
            (5, "invalid JSON"),
            (7, "missing string field 'message'"),
            (8, "bad timestamp 'yesterday'"),
        ]
        assert "3 invalid lines (line 5, 7, 8)" in report.detail
        text = store.load_text(log_files["text"], tenant="acme")
        assert (text.loaded, text.unparsed, text.invalid_count) == (3, 1, 0)
        assert store.count() == 9


def test_reload_is_idempotent_and_a_changed_file_replaces_its_lines(
    log_files: dict[str, Path], tmp_path: Path
) -> None:
    with LogStore(tmp_path / "logs.db") as store:
        store.load_jsonl(log_files["jsonl"])
        again = store.load_jsonl(log_files["jsonl"])
        assert again.skipped
        assert again.loaded == 0
        copy = tmp_path / "copy.jsonl"
        copy.write_bytes(log_files["jsonl"].read_bytes())
        assert store.load_jsonl(copy).skipped  # same content under another name
        assert store.count() == 6

        path = log_files["jsonl"]
        path.write_text(
            path.read_text(encoding="utf-8") + _line("2026-03-14T15:00:00Z", "a", "INFO", "later") + "\n"
        )
        changed = store.load_jsonl(path)
        assert changed.replaced
        assert changed.loaded == 7
        assert store.count() == 7
        assert store.query("acme", keywords="later").total == 1

    # The file-backed store keeps what it loaded across reopening, and still skips the same file.
    with LogStore(tmp_path / "logs.db") as reopened:
        assert reopened.count() == 7
        assert reopened.load_jsonl(path).skipped
        assert reopened.query("acme", keywords="ERR_TIMEOUT").total == 1


def test_missing_file_and_directory_are_clear_errors(tmp_path: Path) -> None:
    with LogStore() as store:
        with pytest.raises(InvalidInputError, match=r"log file not found: .*nope\.jsonl"):
            store.load_jsonl(tmp_path / "nope.jsonl")
        with pytest.raises(InvalidInputError, match="directory"):
            store.load_text(tmp_path)


def test_lines_without_a_tenant_are_platform_lines(tmp_path: Path) -> None:
    lines = [
        _line(
            "2026-03-14T14:00:00Z", "payment-db-proxy", "WARN", "pool stats pool=payment-db active=100/100"
        ),
        json.dumps(
            {
                "ts": "2026-03-14T14:00:01Z",
                "service": "db",
                "level": "INFO",
                "tenant": None,
                "message": "probe",
            }
        ),
        _line("2026-03-14T14:00:02Z", "payment-gateway", "ERROR", "acme only ERR_TIMEOUT"),
    ]
    path = _write(tmp_path / "mixed.jsonl", [lines[0].replace('"tenant": "acme", ', ""), lines[1], lines[2]])
    with LogStore() as shared:
        report = shared.load_jsonl(path)
        assert report.untenanted == 2
        assert "2 without a tenant (platform lines)" in report.detail
        # Platform lines are shared by every tenant; a tenant's line stays its own.
        assert shared.query("globex").total == 2
        assert shared.query("acme").total == 3
        assert shared.query("globex", keywords="ERR_TIMEOUT").total == 0
        platform = shared.query("globex", keywords="pool stats").lines[0]
        assert platform.platform
        assert shared.get_line("globex", platform.fact_ref) is not None
        assert "payment-db-proxy" in shared.services("globex")
        assert "payment-gateway" not in shared.services("globex")
        with ToolRegistry() as reg:
            reg.register(*query_logs_tool(shared))
            result = _query(reg, GLOBEX, keywords="pool stats")
            assert [fact.scope for fact in result.facts if fact.fact_type == "log.line"] == ["platform"]
            assert [fact.scope for fact in _query(reg, keywords="acme only").facts][:1] == ["tenant"]
    with LogStore(platform_lines=False) as strict:
        strict.load_jsonl(path)
        assert strict.query("globex").total == 0
        assert strict.query("acme").total == 1
        assert strict.services("acme") == ["payment-gateway"]


def test_text_lines_are_parsed_best_effort(store: LogStore) -> None:
    lines = store.query("acme", keywords=["BankClient", "银行渠道", "decision delayed"]).lines
    by_message = {line.message: line for line in lines}
    parsed = by_message["bank channel timeout 银行渠道无响应"]
    assert (parsed.service, parsed.level, parsed.trace_id) == ("payment-gateway", "ERROR", "4f1c9a2e")
    assert parsed.ts == datetime(2026, 3, 14, 14, 5, 3, 120_000, tzinfo=UTC)
    stack = by_message["at com.example.BankClient.call(BankClient.java:88)"]
    assert (stack.service, stack.level, stack.ts) == ("unknown", "UNKNOWN", None)
    delayed = by_message["decision delayed trace_id=9a9a9a9a9a9a"]
    assert delayed.service == "risk-engine"
    assert (delayed.level, delayed.trace_id) == ("WARN", "9a9a9a9a9a9a")
    assert delayed.ts == datetime(2026, 3, 14, 14, 5, 9, 500_000, tzinfo=UTC)


# --------------------------------------------------------------------------- queries


def test_text_lines_may_name_their_tenant(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "t.log",
        [
            "2026-03-14T14:00:00Z ERROR svc [trace=abcdef12 tenant=globex] globex line",
            "2026-03-14T14:00:01Z ERROR svc [trace=abcdef12] default line",
        ],
    )
    with LogStore() as store:
        assert store.load_text(path, tenant="acme").untenanted == 0
        assert [line.message for line in store.query("globex").lines] == ["globex line"]
        assert [line.message for line in store.query("acme").lines] == ["default line"]


def test_query_by_trace_id_matches_full_and_short_forms(store: LogStore) -> None:
    full = store.query("acme", trace_id=TRACE)
    assert full.total == 3  # two JSONL lines with the full id, one text line with its 8-char prefix
    assert full.by_level == {"ERROR": 2, "WARN": 1}
    short = store.query("acme", trace_id="4F1C9A2E")
    assert short.total == 3
    assert store.query("acme", trace_id="4f1c9a2e00000000").total == 1  # only the short text form
    assert store.query("acme", trace_id="ffffffffffff").total == 0


def test_query_by_service_level_and_time_range(store: LogStore) -> None:
    assert store.query("acme", service="PAYMENT-GATEWAY").total == 4
    errors = store.query("acme", level="ERROR")
    assert errors.total == 3
    assert errors.by_service == {"payment-gateway": 2, "payment-db-proxy": 1}
    assert store.query("acme", level=["warning", "ERR"]).total == 6
    window = store.query(
        "acme",
        start=datetime(2026, 3, 14, 14, 5, 3, 120_000, tzinfo=UTC),
        end=datetime(2026, 3, 14, 14, 6, tzinfo=UTC),  # inclusive
    )
    assert window.total == 5
    assert [line.ts.isoformat() if line.ts else None for line in window.lines][:2] == [
        "2026-03-14T14:05:03.120000+00:00",
        "2026-03-14T14:05:03.120000+00:00",
    ]
    # `+08:00` input was normalised to UTC: 22:06+08:00 is 14:06Z.
    assert any(line.service == "payment-db-proxy" for line in window.lines)


@pytest.mark.parametrize("full_text", [True, False])
@pytest.mark.parametrize(
    ("keyword", "expected"),
    [
        ("ERR_TIMEOUT", 1),
        ("err_timeout", 1),
        ("order_id=ORD-20260314-00042", 1),
        ("ORD-20260314", 2),
        ("超时", 1),
        ("连接池耗尽", 1),
        ("银行渠道", 1),
        ("bank channel", 2),
        ("ms", 2),
        ("nothing-like-this", 0),
    ],
)
def test_keyword_search_zh_en_and_identifiers(
    log_files: dict[str, Path], full_text: bool, keyword: str, expected: int
) -> None:
    with LogStore(full_text=full_text) as store:
        assert store.full_text is full_text
        store.load_jsonl(log_files["jsonl"])
        store.load_text(log_files["text"], tenant="acme")
        result = store.query("acme", keywords=keyword)
        assert result.total == expected
        assert all(keyword.lower() in line.message.lower() for line in result.lines)


def test_keyword_modes(store: LogStore) -> None:
    any_hit = store.query("acme", keywords=["ERR_TIMEOUT", "超时"])
    assert any_hit.total == 2
    assert any_hit.keyword_hits == {"ERR_TIMEOUT": 1, "超时": 1}
    assert store.query("acme", keywords=["ERR_TIMEOUT", "超时"], keyword_mode="all").total == 0
    assert store.query("acme", keywords=["ERR_TIMEOUT", "CMB"], keyword_mode="all").total == 1


def test_quotes_and_sql_in_keywords_are_just_text(store: LogStore) -> None:
    assert store.query("acme", keywords=['" OR 1=1 --']).total == 0
    assert store.query("acme", keywords=["'; DROP TABLE log_lines; --"]).total == 0
    assert store.count() == 9


def test_shown_n_of_m_and_order(store: LogStore) -> None:
    result = store.query("acme", limit=2)
    assert result.total == 8
    assert len(result.lines) == 2
    assert sum(result.by_level.values()) == 8
    newest = store.query("acme", limit=1, order="desc").lines[0]
    assert newest.message == "slow query 1200ms"
    with pytest.raises(UsageError):
        store.query("acme", limit=0)
    with pytest.raises(UsageError):
        store.query("", keywords="x")


def test_tenant_isolation(store: LogStore) -> None:
    assert store.query("globex").total == 1
    assert store.query("globex", keywords="ERR_TIMEOUT").lines[0].message == "ERR_TIMEOUT globex secret"
    assert all("globex" not in line.message for line in store.query("acme", limit=200).lines)
    assert store.query("initech").total == 0
    ref = store.query("acme", trace_id=TRACE).lines[0].fact_ref
    assert store.get_line("acme", ref) is not None
    assert store.get_line("globex", ref) is None


def test_fact_refs_are_stable_across_rebuilds(log_files: dict[str, Path]) -> None:
    def refs() -> list[str]:
        with LogStore() as fresh:
            fresh.load_text(log_files["text"], tenant="acme")
            fresh.load_jsonl(log_files["jsonl"])
            return sorted(line.fact_ref for line in fresh.query("acme", limit=200).lines)

    first = refs()
    assert first == refs()
    assert len(set(first)) == len(first) == 8
    assert all(ref.startswith("log:") for ref in first)


# --------------------------------------------------------------------------- the tool


def test_tool_returns_facts_counts_and_refs(registry: ToolRegistry) -> None:
    result = _query(registry, service="payment-gateway", limit=2)
    assert result.status == ToolStatus.OK
    assert (
        result.observation
        == "shown 2 of 4 lines; levels: ERROR 2, INFO 1, WARN 1; services: payment-gateway 4"
    )
    lines = [fact for fact in result.facts if fact.fact_type == "log.line"]
    counts = [fact for fact in result.facts if fact.fact_type == "log.count"]
    assert len(lines) == 2
    assert len(counts) == 1
    assert counts[0].value["total"] == 4
    assert counts[0].value["shown"] == 2
    assert lines[0].value == {
        "ts": "2026-03-14T14:00:00Z",
        "service": "payment-gateway",
        "level": "INFO",
        "message": "payment accepted order_id=ORD-20260314-00041",
        "source": "payment.jsonl:1",
    }
    assert all(fact.authorization_snapshot == {"tenant": "acme", "user": "alice"} for fact in result.facts)
    # The tenant is not part of a line's value (it never goes to a model).
    assert all("tenant" not in fact.value for fact in lines)
    assert [ref.citation_id for ref in result.evidence_refs] == [fact.fact_ref for fact in lines]
    assert {ref.invocation_id for ref in result.evidence_refs} == {result.invocation_id}
    assert result.source_documents == ["payment.jsonl"]
    again = _query(registry, service="payment-gateway", limit=2)
    assert [f.fact_ref for f in again.facts] == [f.fact_ref for f in result.facts]


def test_tool_empty_with_gaps(registry: ToolRegistry) -> None:
    result = _query(registry, service="billing", keywords=["ERR_TIMEOUT"])
    assert result.status == ToolStatus.EMPTY
    assert result.facts == []
    assert result.gaps[0] == "no log lines match (service=billing, keywords 'ERR_TIMEOUT')"
    assert any(
        "known services: order-service, payment-db-proxy, payment-gateway" in gap for gap in result.gaps
    )
    assert len(result.gaps) == 2  # every keyword missed: the first gap already says so


def test_tool_all_mode_names_the_keyword_that_missed(registry: ToolRegistry) -> None:
    result = _query(registry, keywords=["ERR_TIMEOUT", "熔断"], keyword_mode="all")
    assert result.status == ToolStatus.EMPTY
    assert result.gaps == [
        "no log lines match (keywords 'ERR_TIMEOUT' and '熔断')",
        "keyword '熔断' matched no log lines",
    ]


def test_tool_reports_keywords_that_found_nothing(registry: ToolRegistry) -> None:
    result = _query(registry, keywords=["超时", "熔断"])
    assert result.status == ToolStatus.OK
    assert result.gaps == ["keyword '熔断' matched no log lines"]


def test_tool_is_scoped_by_the_contexts_tenant(registry: ToolRegistry) -> None:
    acme = _query(registry, keywords="ERR_TIMEOUT")
    globex = _query(registry, GLOBEX, keywords="ERR_TIMEOUT")
    assert [f.value["message"] for f in acme.facts if f.fact_type == "log.line"] == [
        "ERR_TIMEOUT bank channel CMB no response in 3000ms order_id=ORD-20260314-00042"
    ]
    assert [f.value["message"] for f in globex.facts if f.fact_type == "log.line"] == [
        "ERR_TIMEOUT globex secret"
    ]
    refused = _query(registry, keywords="ERR_TIMEOUT", tenant="globex")
    assert refused.status == ToolStatus.ERROR
    assert refused.error is not None
    assert refused.error.startswith(ReasonCode.AUTHORIZATION_FIELD_IN_PLAN.value)


def test_arguments_are_validated_and_normalised() -> None:
    args = QueryLogsArgs.model_validate(
        {
            "keywords": " 超时 ",
            "level": "warning",
            "trace_id": TRACE.upper(),
            "start": "2026-03-14T22:00:00+08:00",
        }
    )
    assert args.keywords == ["超时"]
    assert args.level == ["WARN"]
    assert args.trace_id == TRACE
    assert args.start == datetime(2026, 3, 14, 14, 0, tzinfo=UTC)
    for bad in (
        {"limit": 201},
        {"trace_id": "short"},
        {"start": "2026-03-14T15:00:00Z", "end": "2026-03-14T14:00:00Z"},
        {"level": ["ERROR!"]},
        {"keywords": ["x" * 201]},
        {"order_id": "ORD-20260314-00042"},
    ):
        with pytest.raises(ValueError, match=r"."):
            QueryLogsArgs.model_validate(bad)


def test_the_store_knows_when_its_newest_line_was_written(store: LogStore) -> None:
    # every tenant's lines count: the newest is the latest time any stored line carries
    times = [line.ts for tenant in ("acme", "globex") for line in store.query(tenant=tenant).lines if line.ts]
    assert times
    assert store.latest() == max(times)
    with LogStore() as empty:
        assert empty.latest() is None

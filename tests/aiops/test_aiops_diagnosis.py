"""Alert diagnosis (issue 14): one alert through the same gate, its report, and the AIOps rule evaluation.

Over the bundled demo and its AIOps incident (a `PaymentHighErrorRate` alert on payment-api):
the report cites the alert's metric and the service's logs; a second, unrelated alert in the same
notification is never the subject; a Prometheus outage is a recorded tool failure with honest gaps;
an alert nothing speaks about is `DEGRADED`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _servers import free_port

from groundgate.aiops.alert_focus import AlertFocus, parse_expression
from groundgate.apps.diagnosis import diagnose_recorded, load_alert, read_alert_file
from groundgate.apps.workspace import AIOPS_DEMO_ROOT, Workspace, load_aiops_demo, load_demo
from groundgate.contracts import ExecutionContext, OutputKind, ToolStatus
from groundgate.evaluation.aiops_rule_evaluation import AiOpsRunFacts, evaluate_aiops_rules
from groundgate.settings import load_settings
from groundgate.store import Store, open_store
from groundgate.store.repositories import read_self_evaluation
from groundgate.wiring import build_configured_orchestrator, open_configured_workspace

ACME = ExecutionContext(tenant="acme", user="sre", roles=("sre",))
DEMO_ALERT = AIOPS_DEMO_ROOT / "alerts" / "payment-high-error-rate.json"


def _payload() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DEMO_ALERT.read_text(encoding="utf-8"))
    return data


def _unrelated_alert() -> dict[str, Any]:
    return {
        "status": "firing",
        "labels": {"alertname": "RedisHitRateLow", "service": "cache-service", "severity": "P3"},
        "annotations": {"summary": "cache-service Redis 命中率低于 90%"},
        "startsAt": "2026-03-21T09:14:00Z",
        "endsAt": "0001-01-01T00:00:00Z",
        "generatorURL": "http://prometheus.example:9090/graph?g0.expr=redis_hit_rate%7Bservice%3D%22cache-service%22%7D+%3C+90",
        "fingerprint": "a1b2c3d4e5f60718",
    }


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    settings = load_settings(data_dir=tmp_path_factory.mktemp("diagnosis"))
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        load_aiops_demo(ws)
        yield ws


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = open_store(tmp_path_factory.mktemp("diagnosis-store"))
    yield opened
    opened.close()


def test_an_expression_gives_its_metric_equality_matchers_and_range() -> None:
    metric, matchers, span = parse_expression(
        'sum(rate(http_requests_total{service="payment-api",code=~"5.."}[5m])) > 0.05'
    )
    assert (metric, matchers, span.total_seconds()) == (
        "http_requests_total",
        {"service": "payment-api"},
        300,
    )


def test_the_focus_window_surrounds_starts_at_and_reads_the_rule_from_the_generator_url() -> None:
    alert, _ = load_alert(_payload())
    focus = AlertFocus.from_alert(
        labels=alert.labels,
        annotations=alert.annotations,
        starts_at=alert.starts_at,
        generator_url=alert.generator_url,
    )
    assert focus.metric == "payment_api_error_ratio"
    assert focus.query_labels == {"service": "payment-api"}
    start, end = focus.window
    assert (start.isoformat(), end.isoformat()) == ("2026-03-21T09:00:00+00:00", "2026-03-21T09:30:00+00:00")


@pytest.mark.slow
def test_the_payment_alert_is_diagnosed_from_its_metric_logs_and_runbook(
    workspace: Workspace, store: Store
) -> None:
    alert, _others = read_alert_file(DEMO_ALERT)
    diagnosis = diagnose_recorded(
        store, build_configured_orchestrator(load_settings(), workspace), alert, ACME
    )
    run = diagnosis.run
    assert run.output_kind is OutputKind.NORMAL, run.answer
    for heading in ("## 告警说明", "## 关键发现", "## 根因候选", "## 建议下一步", "## 证据缺口"):
        assert heading in diagnosis.report
    kinds = {f.evidence_kind for f in diagnosis.sections.findings}
    assert {"metrics", "logs"} <= kinds
    assert all(f.citations for f in diagnosis.sections.findings)
    assert diagnosis.sections.candidates
    assert all(c.category and c.evidence_kind for c in diagnosis.sections.candidates)
    assert "ERR_POOL_EXHAUSTED" in diagnosis.report
    assert "0.184" in diagnosis.report
    assert {r.tool for r in run.tool_results} >= {"lookup_knowledge", "query_logs", "query_metrics"}
    assert diagnosis.evaluation.verdict == "PASS"
    assert [c["name"] for c in diagnosis.evaluation.checks] == [
        "final_report_present",
        "payload_focus",
        "evidence_tools_called",
        "no_unrelated_alert_promoted",
    ]
    with store.session() as session:
        slots = read_self_evaluation(run.run_id, session=session)
    assert {"verifier_evaluation", "rule_evaluation", "aiops_rule_evaluation"} <= set(slots)
    assert slots["aiops_rule_evaluation"]["verdict"] == "PASS"


@pytest.mark.slow
def test_a_second_unrelated_alert_firing_at_the_same_time_is_not_diagnosed_as_the_cause(
    workspace: Workspace, store: Store
) -> None:
    payload = _payload()
    payload["alerts"].append(_unrelated_alert())
    alert, others = load_alert(payload)
    assert alert.alertname == "PaymentHighErrorRate"
    assert [o.alertname for o in others] == ["RedisHitRateLow"]
    diagnosis = diagnose_recorded(
        store, build_configured_orchestrator(load_settings(), workspace), alert, ACME, others=others
    )
    assert "RedisHitRateLow" not in diagnosis.report
    assert "cache-service" not in diagnosis.report
    assert all(r.arguments.get("service") in (None, "payment-api") for r in diagnosis.run.tool_results)
    checks = {c["name"]: c for c in diagnosis.evaluation.checks}
    assert checks["no_unrelated_alert_promoted"]["passed"]
    assert checks["payload_focus"]["passed"]


@pytest.mark.slow
def test_a_prometheus_outage_during_diagnosis_is_a_recorded_tool_failure_with_honest_gaps(
    tmp_path: Path, store: Store
) -> None:
    settings = load_settings(
        data_dir=tmp_path, prometheus={"url": f"http://127.0.0.1:{free_port()}", "timeout_seconds": 1}
    )
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        load_aiops_demo(ws)
        alert, _ = read_alert_file(DEMO_ALERT)
        diagnosis = diagnose_recorded(store, build_configured_orchestrator(settings, ws), alert, ACME)
    metrics = [r for r in diagnosis.run.tool_results if r.tool == "query_metrics"]
    assert metrics
    assert {r.status for r in metrics} == {ToolStatus.ERROR}
    assert any("query_metrics" in gap for gap in diagnosis.sections.gaps)
    assert "0.184" not in diagnosis.report  # no figure nobody read
    assert all(f.evidence_kind != "metrics" for f in diagnosis.sections.findings)
    with store.session() as session:
        assert "aiops_rule_evaluation" in read_self_evaluation(diagnosis.run.run_id, session=session)


@pytest.mark.slow
def test_an_alert_nothing_speaks_about_is_degraded_with_its_gaps(workspace: Workspace, store: Store) -> None:
    alert, _ = load_alert(
        {
            "labels": {"alertname": "LedgerLagHigh", "service": "ledger-service"},
            "annotations": {"summary": "ledger lag"},
            "startsAt": "2026-05-02T03:00:00Z",
            "generatorURL": "http://p/graph?g0.expr=ledger_lag_seconds+%3E+60",
            "fingerprint": "0badc0de",
        }
    )
    diagnosis = diagnose_recorded(
        store, build_configured_orchestrator(load_settings(), workspace), alert, ACME
    )
    assert diagnosis.run.output_kind is OutputKind.DEGRADED
    assert diagnosis.report.startswith("当前无法基于已获取证据生成可靠结论")
    assert "## 关键发现" not in diagnosis.report
    assert diagnosis.sections.gaps
    assert diagnosis.payload()["sections"]["rootCauseCandidates"] == []


def _facts(**changes: Any) -> AiOpsRunFacts:
    base: dict[str, Any] = {
        "alertname": "PaymentHighErrorRate",
        "service": "payment-api",
        "report_text": "## 告警说明\n…",
        "report_subject": "PaymentHighErrorRate",
        "report_sections": ["## 告警说明"],
        "calls": [
            ("lookup_knowledge", {"query": "PaymentHighErrorRate"}),
            ("query_logs", {"service": "payment-api"}),
            ("query_metrics", {"name": "payment_api_error_ratio"}),
        ],
        "other_alerts": [{"alertname": "RedisHitRateLow", "service": "cache-service"}],
    }
    return AiOpsRunFacts(**{**base, **changes})


def test_the_rule_evaluation_passes_a_focused_report_with_every_evidence_kind() -> None:
    assert evaluate_aiops_rules(_facts()).verdict == "PASS"


def test_a_missing_evidence_kind_is_a_warning_naming_it() -> None:
    result = evaluate_aiops_rules(_facts(calls=[("query_logs", {"service": "payment-api"})]))
    assert result.verdict == "WARN"
    tools = next(c for c in result.checks if c["name"] == "evidence_tools_called")
    assert tools["missing"] == ["knowledge", "metrics"]


def test_an_unrelated_alert_as_the_subject_or_a_queried_service_fails_the_evaluation() -> None:
    assert evaluate_aiops_rules(_facts(report_subject="RedisHitRateLow")).verdict == "FAIL"
    queried = _facts(calls=[*_facts().calls, ("query_logs", {"service": "cache-service"})])
    result = evaluate_aiops_rules(queried)
    assert result.verdict == "FAIL"
    assert not next(c for c in result.checks if c["name"] == "no_unrelated_alert_promoted")["passed"]


def test_a_missing_report_fails_the_evaluation() -> None:
    result = evaluate_aiops_rules(_facts(report_text="", report_sections=[]))
    assert result.verdict == "FAIL"


def test_a_finding_naming_another_alert_is_context_but_most_findings_about_it_promote_it() -> None:
    from groundgate.evaluation.aiops_rule_evaluation import Stated

    own = [Stated("payment-api ERROR error_code=ERR_POOL_EXHAUSTED"), Stated("max 0.184")]
    aside = Stated("RedisHitRateLow 同时在 cache-service 触发")
    context = evaluate_aiops_rules(_facts(findings=[*own, aside], candidates=own[:1]))
    assert context.verdict == "PASS"
    row = next(c for c in context.checks if c["name"] == "no_unrelated_alert_promoted")
    assert row["context"] == ["RedisHitRateLow"]
    assert row["alertmanager"] == "not configured"
    assert row["considered"] == [
        {"alertname": "RedisHitRateLow", "service": "cache-service", "source": "payload", "ref": None}
    ]
    most = evaluate_aiops_rules(_facts(findings=[own[0], aside, Stated("RedisHitRateLow: hit rate 71%")]))
    assert most.verdict == "FAIL"
    cause = evaluate_aiops_rules(_facts(findings=own, candidates=[Stated("RedisHitRateLow 导致支付失败")]))
    assert cause.verdict == "FAIL"


def test_the_input_alerts_own_alertmanager_record_is_not_another_alert() -> None:
    from groundgate.evaluation.aiops_rule_evaluation import ActiveAlert, Stated

    own = ActiveAlert({"alertname": "PaymentHighErrorRate", "service": "payment-api"}, "alert:ab:1", "ab")
    renamed = ActiveAlert(
        {"alertname": "PaymentHighErrorRate", "service": "payment-api", "x": "y"}, "alert:ab:1", "ab"
    )
    facts = _facts(
        other_alerts=[],
        active_alerts=[own, renamed],
        fingerprint="AB",
        alertmanager="read",
        candidates=[Stated("PaymentHighErrorRate fired", ("alert:ab:1",))],
    )
    result = evaluate_aiops_rules(facts)
    assert result.verdict == "PASS"
    row = next(c for c in result.checks if c["name"] == "no_unrelated_alert_promoted")
    assert row["considered"] == []


@pytest.mark.slow
def test_an_alertmanager_outage_is_a_recorded_failure_and_the_check_says_the_list_was_not_read(
    tmp_path: Path, store: Store
) -> None:
    settings = load_settings(
        data_dir=tmp_path, alertmanager={"url": f"http://127.0.0.1:{free_port()}", "timeout_seconds": 1}
    )
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        load_aiops_demo(ws)
        alert, others = read_alert_file(DEMO_ALERT)
        diagnosis = diagnose_recorded(
            store, build_configured_orchestrator(settings, ws), alert, ACME, others=others
        )
    first = diagnosis.run.tool_results[0]
    assert first.tool == "list_active_alerts"
    assert first.status is ToolStatus.ERROR
    assert any("list_active_alerts" in gap for gap in diagnosis.sections.gaps)
    row = next(c for c in diagnosis.evaluation.checks if c["name"] == "no_unrelated_alert_promoted")
    assert row["alertmanager"].startswith("failed: ")
    assert row["passed"]
    assert diagnosis.run.output_kind is OutputKind.NORMAL


@pytest.mark.slow
def test_offline_a_runbook_sentence_about_the_alert_is_a_cited_knowledge_finding(
    workspace: Workspace, store: Store
) -> None:
    alert, _ = read_alert_file(DEMO_ALERT)
    diagnosis = diagnose_recorded(
        store, build_configured_orchestrator(load_settings(), workspace), alert, ACME
    )
    knowledge = [f for f in diagnosis.sections.findings if f.evidence_kind == "knowledge"]
    assert knowledge, diagnosis.report
    assert all(f.citations and f.category == "direct_evidence" for f in knowledge)
    step = next(s for s in diagnosis.run.steps if s.role == "executor")
    matches = (step.model_output or {})["runbook_matches"]
    assert matches
    assert all(m["citation"] and m["identifier"] for m in matches)
    # A documented symptom or threshold is a finding; only a sentence that states a cause is a candidate.
    for f in diagnosis.sections.candidates:
        if f.evidence_kind == "knowledge":
            assert any(w in f.text for w in ("原因", "导致", "引起", "由于"))

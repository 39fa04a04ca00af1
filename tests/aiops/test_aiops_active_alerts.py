"""The focus check against what Alertmanager holds at diagnosis time (a real Alertmanager).

A diagnosis with `[alertmanager]` configured reads `list_active_alerts` once (recorded as the run's
first tool invocation, context only) and the `no_unrelated_alert_promoted` check considers the other
active alerts it lists, not only those of the webhook notification. Here a `DiskFull` on `report-db`
is active at the same time as the demo's `PaymentHighErrorRate` on `payment-api`: the diagnosis is
about payment-api and passes; a report whose root cause were the DiskFull alert would fail; one that
only names it as context passes. The Alertmanager is this module's own (its alerts do not leak into
`test_aiops_alertmanager.py`). Skipped without Debian's `prometheus-alertmanager` unless
`GROUNDGATE_REQUIRE_PROMETHEUS=1`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from _servers import Server, WebhookSink, post_alerts, start_alertmanager, wait_until

from groundgate.aiops import AlertmanagerClient
from groundgate.apps.diagnosis import Diagnosis, active_alerts_of, diagnose_recorded, read_alert_file
from groundgate.apps.workspace import AIOPS_DEMO_ROOT, load_aiops_demo, load_demo
from groundgate.contracts import ExecutionContext, OutputKind, ToolStatus
from groundgate.evaluation.aiops_rule_evaluation import AiOpsRunFacts, Stated, evaluate_aiops_rules
from groundgate.settings import load_settings
from groundgate.store import open_store
from groundgate.store.repositories import list_invocations, read_self_evaluation
from groundgate.wiring import build_configured_orchestrator, open_configured_workspace

pytestmark = pytest.mark.slow

ACME = ExecutionContext(tenant="acme", user="sre", roles=("sre",))
DEMO_ALERT = AIOPS_DEMO_ROOT / "alerts" / "payment-high-error-rate.json"


def _held(alert: dict[str, Any], ends: datetime) -> dict[str, Any]:
    return {
        "labels": alert["labels"],
        "annotations": alert["annotations"],
        "startsAt": alert["startsAt"],
        "endsAt": ends.isoformat(),
        "generatorURL": alert.get("generatorURL", ""),
    }


@pytest.fixture(scope="module")
def active_alertmanager(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    sink = WebhookSink()
    server = start_alertmanager(tmp_path_factory.mktemp("am-active"), sink)
    try:
        ends = datetime.now(UTC) + timedelta(hours=2)
        payment = json.loads(DEMO_ALERT.read_text(encoding="utf-8"))["alerts"][0]
        disk = {
            "labels": {"alertname": "DiskFull", "service": "report-db", "severity": "P2"},
            "annotations": {"summary": "report-db 数据盘使用率超过 95%"},
            "startsAt": "2026-03-21T09:12:00Z",
        }
        post_alerts(server.url, [_held(payment, ends), _held(disk, ends)])
        client = AlertmanagerClient(server.url)
        wait_until(lambda: len(client.alerts()) == 2, timeout=20, what="Alertmanager to hold both alerts")
        yield server
    finally:
        server.stop()
        sink.close()


@pytest.fixture(scope="module")
def diagnosed(
    active_alertmanager: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, Diagnosis]]:
    settings = load_settings(
        data_dir=tmp_path_factory.mktemp("active-ws"),
        alertmanager={"url": active_alertmanager.url, "timeout_seconds": 5},
    )
    store = open_store(tmp_path_factory.mktemp("active-store"))
    with open_configured_workspace(settings) as ws:
        load_demo(ws)
        load_aiops_demo(ws)
        alert, others = read_alert_file(DEMO_ALERT)
        diagnosis = diagnose_recorded(
            store, build_configured_orchestrator(settings, ws), alert, ACME, others=others
        )
    try:
        yield store, diagnosis
    finally:
        store.close()


def _check(diagnosis: Diagnosis) -> dict[str, Any]:
    return next(c for c in diagnosis.evaluation.checks if c["name"] == "no_unrelated_alert_promoted")


def test_the_active_list_is_read_once_and_recorded_as_a_tool_invocation(
    diagnosed: tuple[Any, Diagnosis],
) -> None:
    store, diagnosis = diagnosed
    first = diagnosis.run.tool_results[0]
    assert (first.tool, first.status) == ("list_active_alerts", ToolStatus.OK)
    assert [r.tool for r in diagnosis.run.tool_results].count("list_active_alerts") == 1
    with store.session() as session:
        rows = [
            row
            for row in list_invocations(diagnosis.run.run_id, session=session)
            if row.tool == "list_active_alerts"
        ]
        slot = read_self_evaluation(diagnosis.run.run_id, session=session)["aiops_rule_evaluation"]
    (row,) = rows
    assert row.status == "OK"
    assert "DiskFull" in (row.output_summary or "")
    stored = next(c for c in slot["checks"] if c["name"] == "no_unrelated_alert_promoted")
    # Auditable from the stored run: the check names the record it considered, which the invocation holds.
    (considered,) = stored["considered"]
    assert considered["alertname"] == "DiskFull"
    assert considered["source"] == "alertmanager"
    refs = {ref["citation_id"] for ref in (row.retrieval_details or {})["evidence_refs"]}
    assert considered["ref"] in refs


def test_another_active_alert_is_considered_and_the_focused_report_passes(
    diagnosed: tuple[Any, Diagnosis],
) -> None:
    _, diagnosis = diagnosed
    assert diagnosis.run.output_kind is OutputKind.NORMAL, diagnosis.report
    check = _check(diagnosis)
    assert check["passed"], check
    assert check["alertmanager"] == "read"
    # The input alert's own record (same name, same service) is not "another" alert.
    assert [(c["alertname"], c["service"]) for c in check["considered"]] == [("DiskFull", "report-db")]
    assert "DiskFull" not in diagnosis.report
    assert "report-db" not in diagnosis.report
    assert diagnosis.evaluation.verdict == "PASS"


def test_a_report_whose_root_cause_is_the_other_active_alert_fails_and_context_does_not(
    diagnosed: tuple[Any, Diagnosis],
) -> None:
    _, diagnosis = diagnosed
    active, state = active_alerts_of(diagnosis.run.tool_results[0])
    disk = next(a for a in active if a.labels["alertname"] == "DiskFull")
    base: dict[str, Any] = {
        "alertname": "PaymentHighErrorRate",
        "service": "payment-api",
        "report_text": diagnosis.report,
        "report_subject": "PaymentHighErrorRate",
        "report_sections": ["## 告警说明"],
        "calls": [(r.tool, r.arguments) for r in diagnosis.run.tool_results],
        "active_alerts": active,
        "alertmanager": state,
    }
    own = [
        Stated("payment-api ERROR error_code=ERR_POOL_EXHAUSTED", ("log:1",)),
        Stated("max 0.184", ("metric:1",)),
    ]
    by_name = Stated("DiskFull 告警触发：report-db 磁盘写满导致支付失败", ())
    by_record = Stated("report-db 数据盘写满导致支付失败", (disk.ref,))
    for candidate in (by_name, by_record):
        failed = evaluate_aiops_rules(
            AiOpsRunFacts(**base, findings=[*own, candidate], candidates=[candidate])
        )
        assert failed.verdict == "FAIL"
        row = next(c for c in failed.checks if c["name"] == "no_unrelated_alert_promoted")
        assert row["detail"] == "DiskFull (alertmanager): a root-cause candidate"
    subject = evaluate_aiops_rules(AiOpsRunFacts(**{**base, "report_subject": "DiskFull"}))
    assert subject.verdict == "FAIL"
    context = Stated("同一时段 report-db 的 DiskFull 告警也在触发（与本告警无关）", (disk.ref,))
    passed = evaluate_aiops_rules(AiOpsRunFacts(**base, findings=[*own, context], candidates=own[:1]))
    assert passed.verdict == "PASS"
    row = next(c for c in passed.checks if c["name"] == "no_unrelated_alert_promoted")
    assert row["context"] == ["DiskFull"]

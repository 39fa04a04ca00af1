"""Configuration switches the tools: a configured URL replaces the embedded store's tool, none keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from groundgate.errors import ConfigurationError
from groundgate.settings import load_settings
from groundgate.tools.builtin.logs import QueryLogsArgs
from groundgate.tools.builtin.metrics import QueryMetricsArgs
from groundgate.tools.prometheus import PrometheusMetricsArgs
from groundgate.wiring import open_configured_workspace


def _tools(tmp_path: Path, **overrides: Any) -> dict[str, Any]:
    settings = load_settings(data_dir=tmp_path / "data", **overrides)
    with open_configured_workspace(settings) as workspace:
        return {spec.name: spec for spec in workspace.registry.specs()}


def test_without_urls_the_embedded_stores_answer_and_there_is_no_alerts_tool(tmp_path: Path) -> None:
    tools = _tools(tmp_path)
    assert tools["query_metrics"].argument_model is QueryMetricsArgs
    assert tools["query_logs"].description.startswith("Search application logs by")
    assert "list_active_alerts" not in tools


def test_configured_urls_switch_metrics_logs_and_add_the_alerts_tool(tmp_path: Path) -> None:
    tools = _tools(
        tmp_path,
        prometheus={"url": "http://127.0.0.1:9", "timeout_seconds": 3, "bearer_token": "t"},
        alertmanager={"url": "http://127.0.0.1:9"},
        loki={"url": "https://loki.example", "tenant_mode": "label"},
    )
    assert tools["query_metrics"].argument_model is PrometheusMetricsArgs
    assert tools["query_metrics"].timeout_seconds == 5.0
    assert tools["query_logs"].argument_model is QueryLogsArgs
    assert "Loki" in tools["query_logs"].description
    assert "list_active_alerts" in tools
    assert {"query_order", "get_current_datetime"} <= set(tools)


def test_each_url_switches_only_its_own_tool(tmp_path: Path) -> None:
    tools = _tools(tmp_path, prometheus={"url": "http://127.0.0.1:9"})
    assert tools["query_metrics"].argument_model is PrometheusMetricsArgs
    assert "Loki" not in tools["query_logs"].description
    assert "list_active_alerts" not in tools


def test_urls_are_read_from_the_environment_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROUNDGATE_ALERTMANAGER__URL", "http://127.0.0.1:9093")
    monkeypatch.setenv("GROUNDGATE_PROMETHEUS__BEARER_TOKEN", "s3cret")
    settings = load_settings()
    assert settings.alertmanager.configured
    assert settings.prometheus.bearer_token is not None
    assert "s3cret" not in repr(settings.prometheus)


@pytest.mark.parametrize(
    ("overrides", "complaint"),
    [
        ({"prometheus": {"url": "file:///etc/passwd"}}, "prometheus.url"),
        ({"alertmanager": {"url": "127.0.0.1:9093"}}, "alertmanager.url"),
        ({"prometheus": {"url": "http://p", "timeout_seconds": 0}}, "prometheus.timeout_seconds"),
        ({"prometheus": {"url": "http://p", "token": "x"}}, "prometheus.token"),
        ({"loki": {"url": "http://l", "tenant_mode": "none"}}, "loki.tenant_mode"),
        ({"loki": {"url": "http://l", "service_label": 'app"}'}}, "loki.service_label"),
    ],
)
def test_bad_monitoring_settings_are_configuration_errors(overrides: dict[str, Any], complaint: str) -> None:
    with pytest.raises(ConfigurationError, match=complaint.replace(".", r"\.")):
        load_settings(**overrides)


def test_a_blank_url_means_not_configured() -> None:
    assert not load_settings(prometheus={"url": " "}).prometheus.configured

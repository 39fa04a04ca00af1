"""The `alert` driver of the regression loop: one alert diagnosis over recorded tool outputs (issue 14).

A fixture's input is an Alertmanager alert or webhook body (`input.alert`); the case runs exactly
what `groundgate diagnose` runs — `groundgate.apps.diagnosis`: the alert's planner in the configured
pipeline, the gate, the report, the AIOps rule evaluation — with the fixture's recorded calls
answering the tools (`ReplayTools`) and its scripted models (if any) the roles. The report is the
observed answer; `expect.aiops_verdict` checks the `aiops_rule_evaluation` verdict. With a store
(`groundgate eval run --record`), the diagnosis is recorded like one from the CLI.

The suite's cases live in `suites/aiops/` (`groundgate eval run --suite aiops`).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from groundgate.regression.fixtures import AlertInput, Fixture
from groundgate.regression.judge import Observed, observe
from groundgate.regression.replay import ReplayTools, scripted_role_models

__all__ = ["run_alert"]


def run_alert(fixture: Fixture, env: Any) -> Observed:
    """Run one `alert` fixture (see the module docstring)."""
    from groundgate.apps import build_orchestrator
    from groundgate.apps.diagnosis import (
        alert_focus,
        alert_orchestrator,
        build_diagnosis,
        diagnose_recorded,
        diagnosis_question,
        load_alert,
        read_active_alerts,
    )
    from groundgate.contracts import ExecutionContext

    given = fixture.input
    assert isinstance(given, AlertInput)
    alert, others = load_alert(given.alert)
    replay = fixture.tools.mode == "replay"
    tools: Any = (
        ReplayTools(fixture.tools.calls, available=fixture.tools.available, strict=fixture.tools.strict)
        if replay
        else env.workspace(fixture.tools.workspace).registry
    )
    ctx = ExecutionContext(tenant=given.tenant, user=given.user, roles=tuple(given.roles))
    try:
        base = build_orchestrator(tools, models=scripted_role_models(fixture.models))
        started = time.perf_counter()
        if env.store is not None:
            diagnosis = diagnose_recorded(env.store, base, alert, ctx, others=others)
        else:
            focus = alert_focus(alert)
            run_id = f"eval-{uuid.uuid4().hex[:20]}"
            active = read_active_alerts(tools, ctx, run_id=run_id)
            result = alert_orchestrator(base, focus).run(
                diagnosis_question(focus),
                ctx,
                run_id=run_id,
                session_id=f"eval-{uuid.uuid4().hex[:20]}",
            )
            diagnosis = build_diagnosis(focus, result, others=[dict(o.labels) for o in others], active=active)
        latency = (time.perf_counter() - started) * 1000
    finally:
        if replay:
            tools.close()
    seen = observe(
        diagnosis.run,
        latency_ms=latency,
        misses=tools.misses if replay else [],
        recorded=env.store is not None,
    )
    return seen.model_copy(update={"aiops_verdict": diagnosis.evaluation.verdict})

"""`groundgate diagnose ALERT.json`: one alert through the evidence gate, recorded (issue 14).

The file is an Alertmanager webhook body (version 4: its first firing alert is diagnosed, the others
are only checked against) or one alert object (`labels`, `annotations`, `startsAt`, `generatorURL`,
`fingerprint`). `--demo` loads the bundled demo workspace and its AIOps incident first (the
`PaymentHighErrorRate` alert on payment-api is `groundgate diagnose --demo`'s default file).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from groundgate.cli._common import (
    DataDirOption,
    JsonOption,
    command,
    echo_json,
    err,
    out,
    settings,
    store_closing,
)
from groundgate.errors import UsageError

if TYPE_CHECKING:
    from groundgate.apps.diagnosis import Diagnosis

DEMO_ALERT = "payment-high-error-rate.json"


def diagnose_command(
    alert_file: Annotated[
        Path | None, typer.Argument(help="The alert: a webhook body or one alert, JSON.", show_default=False)
    ] = None,
    demo: Annotated[
        bool, typer.Option("--demo", help="Load the demo workspace and its AIOps incident first.")
    ] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Diagnose one alert with only what the read-only tools proved."""
    from groundgate.apps.diagnosis import diagnose_recorded, read_alert_file
    from groundgate.apps.workspace import AIOPS_DEMO_ROOT, load_aiops_demo, load_demo
    from groundgate.wiring import build_configured_orchestrator, local_context, open_configured_workspace

    if alert_file is None:
        if not demo:
            raise UsageError("name an alert file (or use --demo)")
        alert_file = AIOPS_DEMO_ROOT / "alerts" / DEMO_ALERT
    alert, others = read_alert_file(alert_file)
    config = settings(data_dir)
    with open_configured_workspace(config) as workspace, store_closing(config) as store:
        if demo:
            if not as_json:
                err().print(f"[dim]loading the demo workspace into {config.data_dir} …[/dim]")
            load_demo(workspace)
            load_aiops_demo(workspace)
        diagnosis = diagnose_recorded(
            store,
            build_configured_orchestrator(config, workspace),
            alert,
            local_context(config),
            others=others,
        )
    if as_json:
        echo_json(diagnosis.payload())
        return
    print_diagnosis(diagnosis)


def print_diagnosis(diagnosis: Diagnosis) -> None:
    """The verdict line and the report panel of one diagnosis (also shown by `groundgate demo`)."""
    from rich.markup import escape
    from rich.panel import Panel

    run = diagnosis.run
    verdict = run.verdict.value if run.verdict else "—"
    console = out()
    console.print(
        f"[bold]{run.output_kind.value}[/bold]  verdict {verdict}  aiops {diagnosis.evaluation.verdict}  "
        f"tools {', '.join(f'{r.tool}:{r.status.value}' for r in run.tool_results) or 'none'}"
    )
    title = f"{diagnosis.focus.alertname} · {diagnosis.focus.service or '—'} · run {run.run_id}"
    console.print(Panel(escape(diagnosis.report), title=escape(title), expand=True))


def register(app: typer.Typer) -> None:
    command(app, "diagnose")(diagnose_command)

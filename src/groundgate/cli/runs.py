"""`groundgate runs` (list, `runs recover`) and `groundgate trace RUN_ID`: the recorded runs.

Reads go through `groundgate.apps` (`list_runs`, `get_trace`), as the API's do, with `tenant=None`:
whoever can run the CLI holds the store itself, so every tenant's runs are visible (operator access).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from groundgate.cli._common import (
    DataDirOption,
    JsonOption,
    command,
    echo_json,
    out,
    settings,
    store_closing,
    sub_app,
)

if TYPE_CHECKING:
    from rich.console import Console

    from groundgate.apps.run_trace import RunTrace
    from groundgate.apps.runs import RunSummary

# Wide enough for one line per run with full ids; narrower terminals get a row of stacked cells.
WIDE_COLUMNS = 160
QUESTION_CHARS = 160


def runs_command(
    ctx: typer.Context,
    session: Annotated[
        str | None, typer.Option("--session", metavar="ID", help="Only this session's runs.")
    ] = None,
    feedback: Annotated[
        str | None,
        typer.Option(
            "--feedback", metavar="VALUE", help="Only runs with this feedback (useful, not_useful)."
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", help="At most this many runs (newest first).")] = 50,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """List stored runs, newest first (--feedback not_useful: the bad cases).

    `groundgate runs recover` marks FAILED the runs whose process is gone."""
    if ctx.invoked_subcommand is not None:
        # `runs --data-dir X recover`: the subcommand uses the group's --data-dir unless it has its own.
        ctx.ensure_object(dict)["data_dir"] = data_dir
        return
    from groundgate.apps.feedback import FEEDBACK_VALUES
    from groundgate.apps.runs import list_runs
    from groundgate.errors import UsageError

    if feedback is not None and feedback not in FEEDBACK_VALUES:
        raise UsageError(f"--feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")
    config = settings(data_dir)
    with store_closing(config) as store:
        runs = list_runs(store, tenant=None, session_id=session, feedback=feedback, limit=limit)
    if as_json:
        echo_json([r.model_dump(mode="json", by_alias=True) for r in runs])
    else:
        print_runs(runs, out())


def print_runs(runs: list[RunSummary], console: Console) -> None:
    """A table that fits the terminal without cutting an id: on a wide one a line per run; on a
    narrow one (80 columns) run and session ids stacked in one cell, the outcome and the question
    (wrapping) in the other. Ids are never truncated or wrapped, so they can be copied."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    wide = console.width >= WIDE_COLUMNS
    # No vertical rules (a copied id carries no "│"); a blank line between the stacked rows.
    table = Table(
        title=f"{len(runs)} runs", box=box.SIMPLE_HEAD, title_justify="left", leading=0 if wide else 1
    )
    if wide:
        for column in ("run", "session", "status", "output", "verdict", "feedback"):
            table.add_column(column, no_wrap=True)
        table.add_column("question", overflow="fold", min_width=12)
        for run in runs:
            table.add_row(
                run.run_id,
                run.session_id,
                run.status,
                run.output_kind or "—",
                run.verdict or "—",
                run.feedback or "—",
                escape(_clip(run.query)),
            )
    else:
        table.add_column("run / session", no_wrap=True)
        table.add_column("outcome / question", overflow="fold", min_width=20)
        for run in runs:
            outcome = "  ".join(
                [
                    run.status,
                    run.output_kind or "—",
                    run.verdict or "—",
                    *([run.feedback] if run.feedback else []),
                ]
            )
            table.add_row(
                f"{run.run_id}\n[dim]{run.session_id}[/dim]", f"{outcome}\n{escape(_clip(run.query))}"
            )
    console.print(table)


def _clip(question: str) -> str:
    """A question as listed: its first QUESTION_CHARS characters (`trace` shows all of it)."""
    flat = " ".join(question.split())
    return flat if len(flat) <= QUESTION_CHARS else flat[: QUESTION_CHARS - 1] + "…"


def recover_command(ctx: typer.Context, as_json: JsonOption = False, data_dir: DataDirOption = None) -> None:
    """Mark FAILED the RUNNING runs whose lease expired (their process was killed, or lost the store
    for longer than the lease, store.lease_seconds); prints how many and their ids.

    Safe beside a running service: a run whose process still renews its lease is never touched."""
    from groundgate.store.leases import recover_interrupted_runs

    if data_dir is None and isinstance(ctx.obj, dict):
        data_dir = ctx.obj.get("data_dir")
    # Not at opening: what this command recovers is what it reports.
    with store_closing(settings(data_dir), recover=False) as store:
        recovered = recover_interrupted_runs(store)
    if as_json:
        echo_json({"recovered": len(recovered), "runIds": recovered})
        return
    typer.echo(f"marked {len(recovered)} interrupted run(s) FAILED")
    for run_id in recovered:
        typer.echo(f"  {run_id}")


def trace_command(
    run_id: Annotated[str, typer.Argument(help="The run id (`runId` of `ask --json`, or from `runs`).")],
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Show one stored run: status, verdict, feedback, self-evaluation, steps and tool invocations.

    Operator access: any tenant's run (whoever can run the CLI holds the store itself)."""
    from groundgate.apps.run_trace import get_trace

    with store_closing(settings(data_dir)) as store:
        trace = get_trace(store, run_id, tenant=None)
    if as_json:
        echo_json(trace.model_dump(mode="json", by_alias=True))
    else:
        print_trace(trace, out())


def print_trace(trace: RunTrace, console: Console) -> None:
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    rule = trace.rule_evaluation
    verifier = trace.verifier_evaluation
    console.print(
        f"[bold]run {escape(trace.run_id)}[/bold]  session {escape(trace.session_id)}  "
        f"status [bold]{trace.status}[/bold]  {trace.output_kind or '—'}  verdict {trace.verdict or '—'}  "
        f"feedback {trace.feedback or '—'}  rounds {trace.rounds}  {trace.elapsed_ms:.0f} ms"
    )
    console.print(
        f"evidence score {rule.evidence_score if rule else '—'}  "
        f"groundedness {f'{verifier.groundedness_score:.2f}' if verifier else '—'}  "
        f"stop {escape(trace.stop_reason or '—')}"
    )
    console.print(Panel(escape(trace.answer or "(no answer)"), title=escape(trace.query), expand=True))
    steps = Table(title="steps")
    for column in ("#", "round", "role", "reason", "thought"):
        steps.add_column(column)
    for step in trace.steps:
        steps.add_row(
            str(step.seq), str(step.round), step.role, escape(step.reason_code), escape(step.thought[:120])
        )
    console.print(steps)
    calls = Table(title="tool invocations")
    for column in ("round", "tool", "status", "arguments", "observation"):
        calls.add_column(column)
    for call in trace.tool_invocations:
        calls.add_row(
            str(call.round),
            call.tool,
            call.status,
            escape(json.dumps(call.arguments, ensure_ascii=False)[:80]),
            escape(call.output_summary[:100]),
        )
    console.print(calls)


def register(app: typer.Typer) -> None:
    command(app, "trace")(trace_command)
    # A group that still runs on its own: `groundgate runs [--session …]` lists, `runs recover` recovers.
    runs_app = sub_app(invoke_without_command=True)
    runs_app.callback()(runs_command)
    command(runs_app, "recover")(recover_command)
    app.add_typer(runs_app, name="runs")

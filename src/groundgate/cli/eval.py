"""`groundgate eval`: run fixtures and golden sets (`eval run`), turn stored runs into fixtures
(`eval capture`), list the suites (`eval suites`), send stored runs to an OpenTelemetry collector
(`eval export`, the otel extra). See docs/eval.md.

`eval run` exits 1 on any regression (a case failing its expectations, erroring, or worse than the
baseline), 2 on a usage error (a malformed fixture names its file and field), 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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
    sub_app,
)
from groundgate.errors import UsageError

if TYPE_CHECKING:
    from groundgate.regression.baseline import BaselineDiff
    from groundgate.regression.fixtures import Fixture
    from groundgate.regression.runner import EvalRun

_STATUS_STYLE = {
    "passed": "green",
    "failed": "bold red",
    "error": "bold red",
    "known_failure": "yellow",
    "fixed": "cyan",
    "skipped": "dim",
}


def run_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Fixture files or folders (searched for *.yaml).", show_default=False),
    ] = None,
    suite: Annotated[
        list[str] | None,
        typer.Option(
            "--suite", metavar="NAME", help="A named golden set (repeatable); `all` runs every suite."
        ),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", metavar="FILE", help="Compare with this baseline; report what changed."),
    ] = None,
    write_baseline_to: Annotated[
        Path | None, typer.Option("--write-baseline", metavar="FILE", help="Record this run as a baseline.")
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE",
            help="Write the HTML report here (and its figures as .json beside it).",
        ),
    ] = None,
    trace_url: Annotated[
        str | None,
        typer.Option(
            "--trace-url", metavar="URL", help="Link run ids in the report to this web page's traces."
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Cases run at once.")] = 4,
    record: Annotated[
        bool, typer.Option("--record", help="Record every run in the store (mode eval), so `trace` shows it.")
    ] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Run fixtures offline, in parallel; print a table; exit 1 on any regression."""
    from contextlib import ExitStack

    from groundgate.regression.baseline import compare_baseline, load_baseline, write_baseline
    from groundgate.regression.fixtures import load_fixtures
    from groundgate.regression.runner import EvalEnvironment
    from groundgate.regression.suites import load_suites

    if not paths and not suite:
        raise UsageError("name fixture files or folders, or --suite NAME (--suite all runs every golden set)")
    fixtures = load_fixtures(paths or [])
    counts: dict[str, int] = {}
    if suite:
        extra, counts = load_suites(suite)
        fixtures += extra
    keys = [f.key for f in fixtures]
    duplicate = next((k for k in keys if keys.count(k) > 1), None)
    if duplicate is not None:
        raise UsageError(f"case {duplicate!r} is named twice (a path inside a suite that is run too?)")
    prior = load_baseline(baseline) if baseline is not None else None
    if any(f.input.kind == "agent_turn" for f in fixtures):
        import logging

        # The agent's golden cases inject tool failures on purpose (as `groundgate agent golden`
        # says): the registry's warnings with tracebacks would only bury the table.
        logging.getLogger("groundgate.tools.registry").setLevel(logging.CRITICAL)
    with ExitStack() as stack:
        store = stack.enter_context(store_closing(settings(data_dir))) if record else None
        env = stack.enter_context(EvalEnvironment(store=store))
        run = _run_with_progress(fixtures, env, jobs=jobs, show=not as_json)
    diff = compare_baseline(prior, run.results) if prior is not None else None
    if write_baseline_to is not None:
        write_baseline(write_baseline_to, run.results)
    written: tuple[Path, Path] | None = None
    if report is not None:
        from groundgate.regression.report import write_report

        written = write_report(report, run, diff, trace_url=trace_url)
    if as_json:
        echo_json(_payload(run, diff, counts))
    else:
        _print_run(run, diff, counts)
        if written is not None:
            err().print(f"[dim]report: {written[0]} (figures: {written[1]})[/dim]")
    _raise_on_regression(run, diff)


def _run_with_progress(fixtures: list[Fixture], env: Any, *, jobs: int, show: bool) -> EvalRun:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from groundgate.regression.runner import run_fixtures

    console = err()
    if not show or not console.is_terminal:
        return run_fixtures(fixtures, jobs=jobs, env=env)
    with Progress(
        TextColumn("[bold]eval"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("", total=len(fixtures))
        return run_fixtures(
            fixtures,
            jobs=jobs,
            env=env,
            on_result=lambda r: bar.update(task, advance=1, description=f"{r.key}: {r.status.value}"),
        )


def _payload(run: EvalRun, diff: BaselineDiff | None, counts: dict[str, int]) -> dict[str, Any]:
    return {
        "summary": run.counts(),
        "suites": counts,
        "seconds": round(run.seconds, 3),
        "regressions": list(
            dict.fromkeys(
                [r.key for r in run.regressions] + ([c.key for c in diff.regressions] if diff else [])
            )
        ),
        "cases": [r.model_dump(mode="json") for r in run.results],
        "changes": [c.model_dump(mode="json") for c in diff.changes] if diff is not None else None,
    }


def _print_run(run: EvalRun, diff: BaselineDiff | None, counts: dict[str, int]) -> None:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    console = out()
    wide = console.width >= 140
    table = Table(box=box.SIMPLE_HEAD, title_justify="left", title=f"{len(run.results)} cases")
    table.add_column("case", no_wrap=wide, overflow="fold", min_width=18)
    table.add_column("status", no_wrap=True)
    table.add_column("output", no_wrap=True)
    columns = ("verdict", "grounded", "tokens", "ms") if wide else ("grounded",)
    for column in columns:
        table.add_column(column, no_wrap=True)
    table.add_column("why", overflow="fold", min_width=16)
    for r in run.results:
        seen = r.observed
        style = _STATUS_STYLE[r.status.value]
        why = "; ".join(r.failures) or r.error or r.note or (r.known_failure or "")
        if r.needs_review:
            why = ("awaiting review (reviewer_expected is empty); " + why).rstrip("; ")
        kind = (seen.output_kind or seen.decision or "—") if seen else "—"
        figures = {
            "verdict": (seen.verdict or "—") if seen else "—",
            "grounded": f"{seen.groundedness:.2f}" if seen else "—",
            "tokens": str(seen.tokens) if seen else "—",
            "ms": f"{seen.latency_ms:.0f}" if seen else "—",
        }
        table.add_row(
            escape(r.key),
            f"[{style}]{r.status.value}[/{style}]",
            kind if wide else kind.replace("LOW_CONFID_WITH_DISCLAIMER", "DISCLAIMER"),
            *(figures[c] for c in columns),
            escape(why),
        )
    console.print(table)
    empty = [name for name, n in counts.items() if n == 0]
    if empty:
        console.print(f"[dim]suites with no cases yet: {', '.join(empty)}[/dim]")
    if diff is not None:
        console.print(
            f"against the baseline: {len(diff.changed_keys)} case(s) changed, {len(diff.regressions)} regression(s)"
        )
        for change in diff.changes:
            mark = "[bold red]regression[/bold red]" if change.regression else "change"
            console.print(
                f"  {mark} {escape(change.key)} {change.kind}: {escape(change.before)} → {escape(change.after)}"
            )
    summary = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in run.counts().items() if n)
    console.print(f"{summary or 'no cases'} in {run.seconds:.1f} s")


def _raise_on_regression(run: EvalRun, diff: BaselineDiff | None) -> None:
    from groundgate.errors import RegressionError

    keys = [r.key for r in run.regressions]
    if diff is not None:
        keys += [c.key for c in diff.regressions]
    keys = list(dict.fromkeys(keys))
    if keys:
        shown = ", ".join(keys[:10]) + (f" and {len(keys) - 10} more" if len(keys) > 10 else "")
        raise RegressionError(f"{len(keys)} regression(s): {shown}", cases=keys)


def _agent_tools(stack: Any, store: Any, data_dir: Path) -> Callable[[datetime], Any]:
    """The HR workspace's agent tools for re-executing an agent run's calls, opened on first use (a
    chat-only capture never opens it) with its clock set to each run's recorded time."""
    clock: list[datetime] = []
    opened: list[Any] = []

    def at(now: datetime) -> Any:
        clock[:] = [now]
        if not opened:
            from groundgate.agent.tasks_store import TaskStore
            from groundgate.demo.hr.workspace import open_hr_workspace

            opened.append(
                stack.enter_context(open_hr_workspace(data_dir, TaskStore(store), clock=lambda: clock[0]))
            )
        return opened[0].registry

    return at


def capture_command(
    run_id: Annotated[
        str | None, typer.Argument(help="The stored run to capture.", show_default=False)
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write the fixture here (default: print it)."),
    ] = None,
    feedback: Annotated[
        str | None,
        typer.Option(
            "--feedback", metavar="VALUE", help="Capture every run rated this (not_useful, useful)."
        ),
    ] = None,
    since: Annotated[
        str, typer.Option("--since", metavar="AGE", help="With --feedback: runs this recent (7d, 12h).")
    ] = "7d",
    folder: Annotated[
        Path, typer.Option("--dir", metavar="DIR", help="With --feedback: write one fixture per run here.")
    ] = Path("eval/captured"),
    reexecute: Annotated[
        bool,
        typer.Option(
            "--reexecute/--no-reexecute",
            help="Run the recorded tool calls again over the workspace for their full outputs (default), "
            "or rebuild them from the stored summaries.",
        ),
    ] = True,
    force: Annotated[bool, typer.Option("--force", help="Overwrite fixture files that exist.")] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Turn a stored run into a fixture; with --feedback, every bad (or useful) case since --since."""
    from contextlib import ExitStack

    from groundgate.apps import FEEDBACK_VALUES
    from groundgate.regression.capture import capture_feedback, capture_run, parse_since
    from groundgate.regression.fixtures import dump_fixture, write_fixture

    if (run_id is None) == (feedback is None):
        raise UsageError("give a RUN_ID, or --feedback not_useful|useful (not both)")
    if feedback is not None and feedback not in FEEDBACK_VALUES:
        raise UsageError(f"--feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")
    age = parse_since(since)
    config = settings(data_dir)
    with ExitStack() as stack:
        store = stack.enter_context(store_closing(config))
        tools = None
        agent_tools = None
        if reexecute:
            from groundgate.wiring import open_configured_workspace

            tools = stack.enter_context(open_configured_workspace(config)).registry
            agent_tools = _agent_tools(stack, store, config.data_dir)
        skipped: list[str] = []
        if run_id is not None:
            fixtures = [capture_run(store, run_id, tenant=None, tools=tools, agent_tools=agent_tools)]
        else:
            assert feedback is not None
            captured = capture_feedback(
                store, feedback=feedback, since=age, tenant=None, tools=tools, agent_tools=agent_tools
            )
            fixtures, skipped = captured.fixtures, captured.skipped
    if run_id is not None and output is None:
        typer.echo(dump_fixture(fixtures[0]), nl=False)
        _warn_drift(fixtures)
        return
    written: list[str] = []
    for fixture in fixtures:
        target = output if output is not None else folder / f"{fixture.id}.yaml"
        if target.exists() and not force:
            raise UsageError(f"{target} exists; give --force to overwrite it")
        written.append(str(write_fixture(target, fixture)))
    for line in skipped:
        err().print(f"[yellow]skipped {line}[/yellow]")
    if as_json:
        echo_json(
            {
                "written": written,
                "runIds": [f.source.run_id for f in fixtures if f.source],
                "skipped": skipped,
            }
        )
    else:
        typer.echo(f"captured {len(written)} fixture(s)" + (f" into {folder}" if output is None else ""))
        for path in written:
            typer.echo(f"  {path}")
    _warn_drift(fixtures)


def _warn_drift(fixtures: list[Fixture]) -> None:
    for fixture in fixtures:
        if fixture.source is None:
            continue
        if fixture.source.fidelity == "summary":
            err().print(
                f"[yellow]{fixture.id}: tool outputs rebuilt from the stored summaries; "
                "the replay may not reproduce the run[/yellow]"
            )
        for line in fixture.source.drift:
            err().print(f"[yellow]{fixture.id}: the workspace answers differently now: {line}[/yellow]")


def export_command(
    run_ids: Annotated[list[str], typer.Argument(help="The stored runs to export.", show_default=False)],
    endpoint: Annotated[
        str,
        typer.Option(
            "--otlp-endpoint",
            metavar="URL",
            help="The OTLP/HTTP collector (http://127.0.0.1:4318 or its /v1/traces URL).",
        ),
    ] = "http://127.0.0.1:4318",
    header: Annotated[
        list[str] | None,
        typer.Option("--header", metavar="NAME=VALUE", help="An HTTP header for the collector (repeatable)."),
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Send stored runs to an OpenTelemetry collector, one trace per run (needs the otel extra)."""
    from groundgate.apps import get_trace
    from groundgate.regression.otel import export_runs

    headers: dict[str, str] = {}
    for item in header or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--header {item!r}: give NAME=VALUE")
        headers[name.strip()] = value.strip()
    with store_closing(settings(data_dir)) as store:
        traces = [get_trace(store, run_id, tenant=None) for run_id in run_ids]
    sent = export_runs(traces, endpoint=endpoint, headers=headers)
    typer.echo(f"exported {sent} run(s) to {endpoint}")


def suites_command(as_json: JsonOption = False) -> None:
    """List the golden sets `--suite` can name and how many cases each holds."""
    from groundgate.regression.suites import suites

    rows = [(s.name, len(s.load()), s.description) for s in suites()]
    if as_json:
        echo_json([{"name": n, "cases": c, "description": d} for n, c, d in rows])
        return
    for name, cases, description in rows:
        typer.echo(f"{name:10} {cases:4} cases  {description}")


def register(app: typer.Typer) -> None:
    eval_app = sub_app("Run eval fixtures and golden sets; capture stored runs as fixtures (docs/eval.md).")
    command(eval_app, "run")(run_command)
    command(eval_app, "capture")(capture_command)
    command(eval_app, "suites")(suites_command)
    command(eval_app, "export")(export_command)
    app.add_typer(eval_app, name="eval")

"""`groundgate agent golden`, `ask` and `eval`: the constrained business agent (seed 003).

`golden` runs the seed's 30-case golden set (in memory, scripted models; `groundgate.demo.hr.golden`)
and prints one row per case; it exits 1 when any case fails. `ask` answers over the HR demo on real
stores: the policy documents in a Qdrant Edge shard under `--data-dir`, the tasks in the run store's
`agent_task` table; `--session ID` carries the conversation's structured state between calls. Each
`ask` is recorded in the run store as it happens (`agent.recording.record_agent_run`): `groundgate
trace RUN_ID` shows its plan and tool calls while it runs, and a run that raises is left `FAILED`.
`eval` scores the end-to-end questions (`groundgate.demo.hr.evaluation`) on the same stores.
"""

from __future__ import annotations

from typing import Annotated

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


def golden_command(as_json: JsonOption = False) -> None:
    """Run the 30-case golden set and print a table (exit 1 when a case fails)."""
    import logging

    from groundgate.demo.hr.golden import run_cases

    # A golden case injects tool failures on purpose: the registry's warnings would only be noise.
    logging.getLogger("groundgate.tools.registry").setLevel(logging.CRITICAL)
    outcomes = list(run_cases())
    failed = [o for o in outcomes if not o.passed]
    if as_json:
        echo_json(
            [
                {
                    "id": o.case.id,
                    "category": o.case.category,
                    "seedLine": o.case.seed,
                    "decision": o.status,
                    "passed": o.passed,
                    "failures": o.failures,
                }
                for o in outcomes
            ]
        )
    else:
        from rich import box
        from rich.markup import escape
        from rich.table import Table

        table = Table(
            title=f"golden set: {len(outcomes) - len(failed)}/{len(outcomes)} passed",
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        # Narrow terminals fold the case id and the category; the verdict columns never wrap.
        table.add_column("case", overflow="fold", ratio=3)
        table.add_column("category", overflow="fold", ratio=1)
        table.add_column("seed", justify="right", no_wrap=True, min_width=4)
        table.add_column("decision", no_wrap=True, min_width=11)
        table.add_column("result", no_wrap=True, min_width=4)
        for o in outcomes:
            result = "[green]PASS[/green]" if o.passed else "[red]FAIL[/red] " + escape("; ".join(o.failures))
            table.add_row(escape(o.case.id), escape(o.case.category), f"L{o.case.seed}", o.status, result)
        out().print(table)
    if failed:
        raise typer.Exit(1)


def ask_command(
    question: Annotated[str, typer.Argument(help="The question, e.g. 一线城市出差住宿标准是多少？")],
    session: Annotated[
        str | None, typer.Option("--session", metavar="ID", help="Continue (or start) this conversation.")
    ] = None,
    user: Annotated[
        str, typer.Option("--user", help="The HR demo user to ask as (u-li or u-wang).")
    ] = "u-li",
    project: Annotated[
        str | None, typer.Option("--project", help="The project to ask in (default: the user's own).")
    ] = None,
    use_model: Annotated[
        bool,
        typer.Option(
            "--model",
            help="Plan with the [roles.planner] model and compose with the [roles.executor] model "
            "(else [model]); their output is still validated in code.",
        ),
    ] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Ask the business agent over the HR demo (its day is 2026-04-15)."""
    from groundgate.agent.sessions import StoreSessionStore, ask_in_session, decision_payload
    from groundgate.agent.tasks_store import TaskStore
    from groundgate.demo.hr import demo_context
    from groundgate.demo.hr.workspace import open_hr_workspace
    from groundgate.errors import UsageError

    if not question.strip():
        raise UsageError("the question is empty")
    config = settings(data_dir)
    ctx = demo_context(user, project=project)
    models = None
    if use_model:
        from groundgate.wiring import role_models

        models = role_models(config)
        if models.planner is None and models.executor is None:
            raise UsageError("--model needs a configured model: set GROUNDGATE_MODEL__NAME or [model]")
    with (
        store_closing(config) as store,
        open_hr_workspace(
            config.data_dir,
            TaskStore(store),
            planner_model=models.planner if models else None,
            composer_model=models.executor if models else None,
        ) as hr,
    ):
        result = ask_in_session(
            hr.runtime, StoreSessionStore(store), question, ctx, session_id=session, record_in=store
        )
    if as_json:
        echo_json(decision_payload(result, session_id=session))
        return
    from rich.markup import escape
    from rich.panel import Panel

    style = {"ANSWERED": "bold green", "PARTIAL": "bold yellow", "CONFLICT": "bold magenta"}.get(
        result.status.value, "bold red"
    )
    console = out()
    covered = ", ".join(n.value for n in result.covered_needs) or "none"
    missing = ", ".join(n.value for n in result.missing_needs) or "none"
    console.print(
        f"[{style}]{result.status.value}[/{style}]  {result.reason.value}  rounds {result.rounds}  "
        f"covered {covered}  missing {missing}"
    )
    console.print(Panel(escape(result.answer.render()), title=escape(result.resolved.resolved_question)))
    for citation in result.answer.citations:
        console.print(f"  [{citation.citation_id}] {citation.source} {citation.excerpt}", markup=False)


def eval_command(
    holdout: Annotated[
        bool, typer.Option("--holdout", help="Score the held-out questions (never tuned on) instead.")
    ] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Score the end-to-end questions over the HR demo on real stores (decision accuracy, wrong
    ANSWERED rate, slot recall and precision); exit 1 when anything was wrongly ANSWERED."""
    from importlib.resources import files

    from groundgate.agent.tasks_store import TaskStore
    from groundgate.demo.hr.evaluation import evaluate, load_questions
    from groundgate.demo.hr.workspace import open_hr_workspace

    config = settings(data_dir)
    name = "eval_holdout.yaml" if holdout else "eval_questions.yaml"
    items = load_questions(files("groundgate.demo.hr").joinpath(name).read_text("utf-8"))
    with store_closing(config) as store, open_hr_workspace(config.data_dir, TaskStore(store)) as hr:
        report = evaluate(hr.runtime, items)
    summary = report.summary()
    if as_json:
        echo_json(summary)
    else:
        console = out()
        console.print(
            f"{summary['questions']} questions ({name}): decision accuracy {summary['decisionAccuracy']:.1%}, "
            f"wrong ANSWERED {summary['wrongAnswered']} ({summary['wrongAnsweredRate']:.1%}), "
            f"slot recall {summary['slotRecall']:.1%}, slot precision {summary['slotPrecision']:.1%}",
            markup=False,
        )
        for miss in summary["misses"]:
            console.print(f"  miss: {miss['question']} — {'; '.join(miss['problems'])}", markup=False)
    if report.wrong_answered:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    agent_app = sub_app("The constrained business agent over the HR demo.", no_args_is_help=True)
    command(agent_app, "golden")(golden_command)
    command(agent_app, "ask")(ask_command)
    command(agent_app, "eval")(eval_command)
    app.add_typer(agent_app, name="agent")

"""`groundgate feedback RUN_ID VALUE` and `groundgate cases`: rating runs and the case library.

Both go through `groundgate.apps` (`give_feedback`, `list_cases`) as the API does, with
`tenant=None`: the operator, who may rate any run and read every tenant's cases.
"""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli._common import DataDirOption, JsonOption, command, echo_json, out, settings, store_closing
from groundgate.errors import UsageError

FEEDBACK_VALUES = ("useful", "not_useful")  # checked here too, before the store is opened


def feedback_command(
    run_id: Annotated[str, typer.Argument(help="The run id.")],
    value: Annotated[str, typer.Argument(help="useful or not_useful.")],
    session: Annotated[
        str | None,
        typer.Option("--session", metavar="ID", help="The run's session id (default: the run's own)."),
    ] = None,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Record feedback on a run: `useful` distils a case (once), `not_useful` marks a bad case."""
    from groundgate.apps.feedback import give_feedback

    if value not in FEEDBACK_VALUES:
        raise UsageError(f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {value!r}")
    with store_closing(settings(data_dir)) as store:
        response = give_feedback(store, tenant=None, feedback=value, session_id=session, run_id=run_id)
    if as_json:
        echo_json(response.model_dump(mode="json", by_alias=True))
    else:
        case = f"  case {response.case_id}" if response.case_id else ""
        typer.echo(f"{value} recorded for run {run_id}{case}")  # never wrapped: ids stay whole


def cases_command(
    limit: Annotated[int, typer.Option("--limit", help="At most this many cases (newest first).")] = 50,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """List the case library (cases distilled from `useful` runs) of every tenant (operator access)."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from groundgate.apps.cases import list_cases

    with store_closing(settings(data_dir)) as store:
        cases = list_cases(store, tenant=None, limit=limit)
    if as_json:
        echo_json([c.model_dump(mode="json", by_alias=True) for c in cases])
        return
    # Ids stacked and never cut (to copy into `trace`); what the case is about wraps beside them.
    table = Table(title=f"{len(cases)} cases", box=box.SIMPLE_HEAD, title_justify="left", leading=1)
    table.add_column("case / run", no_wrap=True)
    table.add_column("about", overflow="fold", min_width=20)
    for case in cases:
        about = "  ".join([case.fault_category, case.service or "—", ", ".join(case.error_codes) or "—"])
        table.add_row(
            f"{case.case_id}\n[dim]{case.diagnosis_id}[/dim]", f"{escape(about)}\n{escape(case.title)}"
        )
    out().print(table)


def register(app: typer.Typer) -> None:
    command(app, "feedback")(feedback_command)
    command(app, "cases")(cases_command)

"""The `groundgate` command: reads configuration, builds objects, prints results (Rich or `--json`).

One module per command group (`check`, `check_eval`, `ask`, `ingest`, `runs`, `feedback`, `db`,
`serve`, `docs`, `diagnose`); `_common` holds what they share. Every command module is imported here to
register its signature, so their top levels stay cheap: heavy imports (pydantic models, the checker,
SQLAlchemy, FastAPI, the openai SDK) happen inside the command that needs them, and `groundgate
--help` starts in a fraction of a second (figures in docs/benchmarks.md, `bench:startup`).

Help is plain text (`rich_markup_mode=None`): Rich markup would eat `[api.keys]` and `[check]`
from the help, and loading Rich for it costs start-up time.
"""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli import (
    agent,
    ask,
    check,
    check_eval,
    db,
    diagnose,
    docs,
    eval,
    feedback,
    ingest,
    runs,
    serve,
)
from groundgate.cli._common import Group

__all__ = ["app", "main"]

app = typer.Typer(
    name="groundgate",
    cls=Group,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from groundgate import __version__

        typer.echo(f"groundgate {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_print_version),
    ] = False,
) -> None:
    """Answers operations and business questions only with what its read-only tools proved."""


for _module in (check, check_eval, ingest, docs, ask, runs, feedback, db, serve, agent, eval, diagnose):
    _module.register(app)


def main() -> None:
    """Console entry point: usage errors exit 2 with a clear message, run errors exit 1 (see `Group`)."""
    app()

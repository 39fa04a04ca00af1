"""What every `groundgate` command shares: options, consoles, settings, the store, the help format.

Cheap to import on purpose: `groundgate --help` imports every command module to read its
signature, so nothing here (or in a command module's top level) may import pydantic, the checker,
SQLAlchemy, FastAPI or the openai SDK. Those are imported inside the command that needs them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from groundgate.errors import GroundgateError, UsageError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from groundgate.settings import Settings
    from groundgate.store import Store
    from groundgate.verify.assessment import ClaimClassifier

# Newer Typer (0.29 here) passes its vendored click's contexts and parameters (`typer._click`),
# older Typer plain click's: the overrides below accept either.
Ctx = Any

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]
DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        help="Where the workspace and the run store live (default: GROUNDGATE_DATA_DIR, else ~/.groundgate).",
    ),
]
ModelOption = Annotated[
    bool,
    typer.Option(
        "--model",
        help="Classify with the configured OpenAI-compatible model (GROUNDGATE_MODEL__NAME etc.) "
        "instead of the offline checker. Verdicts are still computed by code.",
    ),
]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite output files that already exist.")]


# ---------------------------------------------------------------- help and errors


class _UntypedArgument(TyperArgument):
    def display_type_rich(self, ctx: Ctx) -> str | None:
        return None


def _conventional_metavars(params: list[Any]) -> None:
    """Newer Typer (0.29 here) labels values by Python type (`<list[str]>`, `<bool>`, `{path}`); a
    user reads the conventional `TEXT`, `PATH`, `RUN_ID`, and a flag takes no value to label."""
    for param in params:
        if isinstance(param, TyperArgument):
            # Its name is its label (`PATH`); a type after it (`PATH <path>`) says nothing more.
            param.__class__ = _UntypedArgument
        if param.metavar is not None:
            continue
        if isinstance(param, TyperArgument):
            param.metavar = (param.name or "value").upper()
        elif isinstance(param, TyperOption):
            descriptor = getattr(param, "type_descriptor", None)  # absent from older Typer
            if param.is_flag:
                param.metavar = ""
            elif descriptor is not None:
                annotation = getattr(descriptor, "annotation", None)
                if getattr(descriptor, "is_path", False):
                    param.metavar = "PATH"
                elif annotation is int:
                    param.metavar = "INTEGER"
                elif annotation is float:
                    param.metavar = "NUMBER"
                else:
                    param.metavar = "TEXT"


class Command(TyperCommand):
    """A command whose help reads like any Unix tool's: `Usage: groundgate ingest [OPTIONS] PATH`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _conventional_metavars(self.params)

    def collect_usage_pieces(self, ctx: Ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "value").upper()
                pieces.append(name if param.required else f"[{name}]")
        return pieces


class Group(TyperGroup):
    """A command group with the same help conventions; the root one also turns groundgate's errors
    into exit codes: usage errors exit 2 with `error: …`, run errors exit 1 with `failed: …` — in
    the console script and under `CliRunner` alike."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _conventional_metavars(self.params)

    def invoke(self, ctx: Ctx) -> Any:
        if ctx.parent is not None:  # only the root translates, once
            return super().invoke(ctx)
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            print_error("error", str(exc))
            raise typer.Exit(2) from None
        except GroundgateError as exc:
            print_error("failed", str(exc))
            raise typer.Exit(1) from None


def print_error(label: str, message: str) -> None:
    from rich.markup import escape

    err().print(f"[red]{label}:[/red] {escape(message)}")


def command(app: typer.Typer, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`app.command(name)` with groundgate's help conventions."""
    return app.command(name, cls=Command)


def sub_app(help_text: str | None = None, **kwargs: Any) -> typer.Typer:
    """A command group (`runs`, `db`, `docs`) with groundgate's help conventions; without
    `help_text` its callback's docstring is its help."""
    if help_text is not None:
        kwargs["help"] = help_text
    return typer.Typer(cls=Group, rich_markup_mode=None, **kwargs)


# ---------------------------------------------------------------- output


def out() -> Console:
    """A console on stdout, made when needed: Rich is not imported for `--help`, and the width is
    read from the terminal (or COLUMNS) of this invocation."""
    from rich.console import Console

    return Console()


def err() -> Console:
    """A console on stderr (progress, warnings, errors)."""
    from rich.console import Console

    return Console(stderr=True)


def echo_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))


def progress(enabled: bool) -> Progress | None:
    """A transient progress bar on stderr, or None (not a terminal, or JSON output)."""
    if not enabled:
        return None
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]checking"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=err(),
        transient=True,
    )


# ---------------------------------------------------------------- settings and state


def settings(data_dir: Path | None = None) -> Settings:
    """The configuration (environment, groundgate.toml), with `--data-dir` over both."""
    from groundgate.settings import load_settings

    return load_settings(data_dir=data_dir) if data_dir is not None else load_settings()


@contextmanager
def store_closing(config: Settings, *, recover: bool = True) -> Iterator[Store]:
    """The configured store, closed afterwards; `recover`: runs whose lease expired are FAILED first."""
    from groundgate.wiring import open_configured_store

    store = open_configured_store(config, recover=recover)
    try:
        yield store
    finally:
        store.close()


def classifier(config: Settings, use_model: bool) -> ClaimClassifier:
    """The offline checker, or with `--model` the configured judge (offline as its fallback)."""
    from groundgate.wiring import check_classifier, offline_checker

    if not use_model:
        return offline_checker(config)
    if not config.judge_model().configured:
        raise UsageError(
            "--model needs a configured model: set GROUNDGATE_MODEL__NAME (and __BASE_URL, __API_KEY) "
            "or [model] in groundgate.toml"
        )
    return check_classifier(config)

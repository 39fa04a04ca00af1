"""The CLI's help, version and start-up: what a person sees before running anything.

In-process through Typer's `CliRunner`, except the start-up checks, where a fresh process is the point
(what `groundgate --help` imports is only visible in a process that has imported nothing else).
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

import groundgate
from groundgate.cli import app

COMMANDS = [
    ("check",),
    ("check-eval",),
    ("ingest",),
    ("docs", "list"),
    ("docs", "remove"),
    ("ask",),
    ("demo",),
    ("trace",),
    ("runs",),
    ("runs", "recover"),
    ("feedback",),
    ("cases",),
    ("db", "upgrade"),
    ("serve",),
]
HEAVY_MODULES = ["sqlalchemy", "alembic", "fastapi", "uvicorn", "openai", "qdrant_edge", "pydantic", "rich"]


def _help(*path: str, flag: str = "--help") -> str:
    result = CliRunner().invoke(app, [*path, flag], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _command(*path: str) -> Any:
    """The click command behind `groundgate PATH…` (newer Typer vendors its own click)."""
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return command


def test_version_prints_the_installed_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"groundgate {groundgate.__version__}\n"
    assert groundgate.__version__ == version("groundgate")


@pytest.mark.parametrize("path", [(), *COMMANDS], ids=lambda p: " ".join(p) or "groundgate")
def test_dash_h_is_the_same_as_help(path: tuple[str, ...]) -> None:
    assert _help(*path, flag="-h") == _help(*path)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_keeps_every_word_of_the_docstring_and_option_help(path: tuple[str, ...]) -> None:
    """Bracketed words such as `[api.keys]` and `[ingest] max_file_bytes` are printed, not eaten
    as markup."""
    command = _command(*path)
    shown = " ".join(_help(*path).split())
    texts = [inspect.cleandoc(command.help or ""), *(getattr(p, "help", None) or "" for p in command.params)]
    for text in texts:
        for bracketed in re.findall(r"\[[^\]]+\]", text):
            assert bracketed in shown, f"{bracketed} missing from {' '.join(path)} --help"
        for word in text.split():
            assert word in shown, f"{word!r} missing from {' '.join(path)} --help"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_usage_lines_and_option_values_use_conventional_names(path: tuple[str, ...]) -> None:
    """`PATH`, `TEXT`, `RUN_ID`: never Python type names such as `<list[str]>` or `{path}`."""
    text = _help(*path)
    usage = text.splitlines()[0]
    assert usage.startswith(f"Usage: groundgate {' '.join(path)} [OPTIONS]")
    assert not re.search(r"[<{]", usage), usage
    assert not re.search(r"<\w+(\[\w+\])?>", text), text


@pytest.mark.parametrize(
    ("path", "usage"),
    [
        (("ingest",), "Usage: groundgate ingest [OPTIONS] PATH"),
        (("trace",), "Usage: groundgate trace [OPTIONS] RUN_ID"),
        (("feedback",), "Usage: groundgate feedback [OPTIONS] RUN_ID VALUE"),
        (("docs", "remove"), "Usage: groundgate docs remove [OPTIONS] ID"),
        (("ask",), "Usage: groundgate ask [OPTIONS] QUESTION"),
    ],
)
def test_arguments_appear_by_name_in_the_usage_line(path: tuple[str, ...], usage: str) -> None:
    assert _help(*path).splitlines()[0] == usage


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_takes_data_dir(path: tuple[str, ...]) -> None:
    assert "--data-dir DIR" in _help(*path)


def test_help_fits_80_columns() -> None:
    for path in [(), *COMMANDS]:
        for line in _help(*path).splitlines():
            assert len(line) <= 80, line


def _fresh_process(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_importing_the_cli_loads_no_heavy_library() -> None:
    """What `groundgate --help` pays for: Typer and the command signatures, nothing else."""
    loaded = _fresh_process(
        "import json, sys, groundgate.cli; "
        f"print(json.dumps([m for m in {HEAVY_MODULES!r} if m in sys.modules]))"
    )
    assert loaded == []


@pytest.mark.slow
@pytest.mark.parametrize("path", [(), ("check",), ("runs",), ("serve",)], ids=lambda p: " ".join(p) or "root")
def test_help_in_a_fresh_process_loads_no_heavy_library(path: tuple[str, ...]) -> None:
    # Newer Typer (0.29 here) validates a command's option values with pydantic, even for --help: that one is
    # Typer's, not ours.
    heavy = HEAVY_MODULES if not path else [m for m in HEAVY_MODULES if m != "pydantic"]
    loaded = _fresh_process(
        "import contextlib, io, json, sys\n"
        "from groundgate.cli import app\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    app([*{list(path)!r}, '--help'])\n"
        f"print(json.dumps([m for m in {heavy!r} if m in sys.modules]))"
    )
    assert loaded == []


@pytest.mark.slow
def test_importing_groundgate_is_lazy_and_its_public_names_still_work() -> None:
    loaded = _fresh_process(
        "import json, sys, groundgate\n"
        "before = [m for m in ('pydantic', 'groundgate.contracts', 'groundgate.verify') if m in sys.modules]\n"
        "names = [n for n in groundgate.__all__ if getattr(groundgate, n, None) is None]\n"
        "print(json.dumps(before + names))"
    )
    assert loaded == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("entry", "args", "code", "stderr"),
    [
        (["-m", "groundgate.cli"], ["--version"], 0, ""),
        (
            ["-m", "groundgate.cli"],
            ["check", "-c", "missing.md", "-a", "x"],
            2,
            "error: --context missing.md",
        ),
        (
            ["-c", "from groundgate.cli import main; main()"],
            ["trace", "nope", "--data-dir", "{tmp}"],
            2,
            "error:",
        ),
        (["-c", "from groundgate.cli import main; main()"], ["nope"], 2, "No such command"),
    ],
)
def test_the_console_entry_points_exit_with_the_documented_status(
    entry: list[str], args: list[str], code: int, stderr: str, tmp_path: Path
) -> None:
    """`python -m groundgate.cli` and the `groundgate.cli:main` console script, in a real process."""
    done = subprocess.run(
        [sys.executable, *entry, *(a.replace("{tmp}", str(tmp_path)) for a in args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == code, done.stderr
    assert stderr in done.stderr
    assert "Traceback" not in done.stderr

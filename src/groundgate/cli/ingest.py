"""`groundgate ingest PATH`: documents into the knowledge index, through `groundgate.apps.documents`
(what the API calls too)."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from groundgate.cli._common import DataDirOption, JsonOption, command, echo_json, err, out, progress, settings


def ingest_command(
    path: Annotated[Path, typer.Argument(help="A Markdown/text file or a folder of them.")],
    force: Annotated[bool, typer.Option("--force", help="Re-index unchanged files too.")] = False,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Ingest documents (front matter: authority, kind, version, effective dates, scope, tenant).

    Links leading outside PATH and files over [ingest] max_file_bytes are skipped and listed.
    """
    from rich.markup import escape

    from groundgate.apps.documents import (
        ingest_documents,
        ingest_report_json,
        ingest_summary,
        open_document_index,
    )

    config = settings(data_dir)
    with open_document_index(config) as index:
        bar = progress(err().is_terminal and not as_json)
        with bar if bar is not None else nullcontext():
            task = bar.add_task("ingest", total=None) if bar is not None else None

            def advance(*_args: object) -> None:
                if bar is not None and task is not None:
                    bar.advance(task, 1)

            report = ingest_documents(
                index, path, force=force, max_file_bytes=config.ingest.max_file_bytes, on_progress=advance
            )
    for bad in report.bad_files:
        err().print(f"[red]skipped {escape(bad.path)}:[/red] {escape(bad.reason)}")
    if report.instruction_chunks:
        # Kept and shown as written, but never a claim's evidence: worth a look by the owner.
        err().print(
            f"[yellow]instruction-like text (never cited) in {len(report.instruction_chunks)} chunks:[/yellow] "
            + escape(", ".join(report.instruction_chunks[:10]))
        )
    if as_json:
        echo_json(ingest_report_json(report))
    else:
        out().print(ingest_summary(report), markup=False)


def register(app: typer.Typer) -> None:
    command(app, "ingest")(ingest_command)

"""`groundgate docs list` and `groundgate docs remove ID`: the documents in the knowledge index.

Both call `groundgate.apps.documents` (as the API does) with `tenant=None`, the operator's view:
every tenant's documents and the shared ones.
"""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli._common import DataDirOption, JsonOption, command, echo_json, out, settings, sub_app


def list_command(as_json: JsonOption = False, data_dir: DataDirOption = None) -> None:
    """List the indexed documents: id, chunks, tenant (or shared), source file and title."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from groundgate.apps.documents import list_documents, open_document_index

    with open_document_index(settings(data_dir)) as index:
        documents = list_documents(index, tenant=None)
    if as_json:
        echo_json([d.to_json() for d in documents])
        return
    table = Table(title=f"{len(documents)} documents", box=box.SIMPLE_HEAD, title_justify="left")
    # The id is what `docs remove` takes: never cut (a narrow terminal wraps the title instead).
    table.add_column("document", no_wrap=True)
    table.add_column("chunks", justify="right", no_wrap=True)
    table.add_column("tenant", no_wrap=True)
    table.add_column("source / title", overflow="fold", min_width=10)
    for doc in documents:
        title = f"\n[dim]{escape(doc.title)}[/dim]" if doc.title else ""
        table.add_row(escape(doc.doc_id), str(doc.chunks), doc.tenant or "shared", escape(doc.source) + title)
    out().print(table)


def remove_command(
    document_id: Annotated[str, typer.Argument(metavar="ID", help="The document id (from `docs list`).")],
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Remove a document and all its chunks from the index (its file is left alone)."""
    from groundgate.apps.documents import open_document_index, remove_document

    with open_document_index(settings(data_dir)) as index:
        removed = remove_document(index, document_id, tenant=None)
    if as_json:
        echo_json(removed.to_json())
    else:
        out().print(f"removed {removed.doc_id} ({removed.chunks} chunks, {removed.source})", markup=False)


def register(app: typer.Typer) -> None:
    docs_app = sub_app("The documents in the knowledge index.", no_args_is_help=True)
    command(docs_app, "list")(list_command)
    command(docs_app, "remove")(remove_command)
    app.add_typer(docs_app, name="docs")

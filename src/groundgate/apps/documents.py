"""Documents you can manage: ingest a file or a folder, list what is indexed, remove one document.

What `groundgate ingest PATH`, `groundgate docs list` and `groundgate docs remove ID` (and the API)
call. Each function takes an open index, so the API passes the one its workspace holds (an embedded
shard is locked by the process that opened it); the CLI opens one with `open_document_index`.

```python
with open_document_index(settings) as index:
    report = ingest_documents(index, "docs/", max_file_bytes=settings.ingest.max_file_bytes)
    print(ingest_summary(report))          # ingested 3 of 4 files (1 unchanged), 2 removed, ...
    for doc in list_documents(index):
        print(doc.doc_id, doc.chunks, doc.source)
    removed = remove_document(index, "payment-errors")   # NotFoundError for an unknown id
```

Tenants: the index is tenant-aware (a document's front matter `tenant`, else shared by every tenant).
`tenant=None` is the operator's view: every document. With a tenant, `list_documents` shows that
tenant's documents and the shared ones (what its searches can find), and `remove_document` removes
only that tenant's own documents: a shared document, or another tenant's, is "not found" for it
(one error on purpose, so ids of other tenants are not revealed).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any

from groundgate.errors import NotFoundError
from groundgate.knowledge import (
    IngestReport,
    KnowledgeIndex,
    QdrantKnowledgeIndex,
    ingest_path,
    open_index,
)
from groundgate.knowledge.documents import format_of
from groundgate.knowledge.index import IndexedDocument
from groundgate.knowledge.ingest import DEFAULT_MAX_FILE_BYTES, ProgressCallback
from groundgate.settings import Settings

__all__ = [
    "DocumentSummary",
    "ingest_documents",
    "ingest_report_json",
    "ingest_summary",
    "list_documents",
    "open_document_index",
    "remove_document",
]


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    """One indexed document, as `docs list` shows it."""

    doc_id: str
    title: str | None
    source: str
    """Path relative to the folder it was ingested from (`payment/errors.md`)."""
    path: str | None
    """Absolute path of its file; None when indexed before paths were recorded."""
    format: str
    """`markdown`, `text`, `pdf`, `html` or `docx` (from the file name)."""
    chunks: int
    tenant: str | None
    """None: shared by every tenant."""
    kind: str | None = None
    authority: str | None = None
    version: str | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    scopes: tuple[str, ...] = ()

    @classmethod
    def of(cls, document: IndexedDocument) -> DocumentSummary:
        meta = document.meta
        return cls(
            doc_id=meta.doc_id,
            title=meta.title,
            source=meta.source,
            path=document.path,
            format=format_of(PurePosixPath(meta.source).suffix),
            chunks=document.chunks,
            tenant=meta.tenant,
            kind=meta.kind,
            authority=meta.authority,
            version=meta.version,
            effective_from=meta.effective_from,
            effective_to=meta.effective_to,
            scopes=meta.scopes,
        )

    def to_json(self) -> dict[str, Any]:
        """camelCase JSON, as `docs list --json` and the API write it."""
        return {
            "docId": self.doc_id,
            "title": self.title,
            "source": self.source,
            "path": self.path,
            "format": self.format,
            "chunks": self.chunks,
            "tenant": self.tenant,
            "kind": self.kind,
            "authority": self.authority,
            "version": self.version,
            "effectiveFrom": self.effective_from.isoformat() if self.effective_from else None,
            "effectiveTo": self.effective_to.isoformat() if self.effective_to else None,
            "scopes": list(self.scopes),
        }


@contextmanager
def open_document_index(settings: Settings) -> Iterator[QdrantKnowledgeIndex]:
    """The configured knowledge index (`[knowledge]`, with `[embedding]` for dense vectors), closed after.

    Raises `KnowledgeIndexError` (a `RunError`) when the embedded shard is held by another process
    (a running `groundgate serve`): manage documents through the API then, or stop the server.
    """
    from groundgate.wiring import embedding_encoder  # wiring imports the apps: import it late

    key = settings.knowledge.qdrant_api_key
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    index = open_index(
        data_dir=settings.data_dir,
        url=settings.knowledge.qdrant_url,
        api_key=key.get_secret_value() if key else None,
        collection=settings.knowledge.collection,
        dense=embedding_encoder(settings),
    )
    try:
        yield index
    finally:
        index.close()


def ingest_documents(
    index: KnowledgeIndex,
    path: Path | str,
    *,
    force: bool = False,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    on_progress: ProgressCallback | None = None,
) -> IngestReport:
    """Ingest a file or a folder (see `groundgate.knowledge.ingest` for every rule).

    A folder's documents whose files are gone are removed (`report.removed`); a `doc_id` already
    taken by a file of another folder is refused (`report.bad_files`, code `doc_id_taken`); every
    skipped file is named with its reason. Raises `InvalidInputError` for a missing path and
    `NoDocumentsError` for a folder without a single supported file (nothing is changed then).
    """
    return ingest_path(path, index, force=force, max_file_bytes=max_file_bytes, on_progress=on_progress)


def ingest_summary(report: IngestReport) -> str:
    """The one-line summary `groundgate ingest` prints."""
    removed = f", {len(report.removed)} removed (files gone)" if report.removed else ""
    skipped = f", {len(report.bad_files)} skipped" if report.bad_files else ""
    return (
        f"ingested {report.ingested} of {report.files} files ({report.unchanged} unchanged){removed}{skipped}, "
        f"{report.chunks} chunks in {report.seconds:.2f} s"
    )


def ingest_report_json(report: IngestReport) -> dict[str, Any]:
    """`groundgate ingest --json` (and the API): camelCase, every skipped file with code and reason."""
    return {
        "files": report.files,
        "ingested": report.ingested,
        "unchanged": report.unchanged,
        "removed": list(report.removed),
        "chunks": report.chunks,
        "documents": list(report.documents),
        "badFiles": [{"path": b.path, "reason": b.reason, "code": b.code.value} for b in report.bad_files],
        "instructionChunks": list(report.instruction_chunks),
        "withoutDense": report.without_dense,
        "denseError": report.dense_error,
        "seconds": round(report.seconds, 3),
    }


def list_documents(index: KnowledgeIndex, *, tenant: str | None = None) -> list[DocumentSummary]:
    """Every indexed document, by `doc_id`; with `tenant`, that tenant's and the shared ones."""
    return [
        DocumentSummary.of(document)
        for document in index.documents()
        if tenant is None or document.meta.tenant in (None, tenant)
    ]


def remove_document(index: KnowledgeIndex, document_id: str, *, tenant: str | None = None) -> DocumentSummary:
    """Remove every chunk of `document_id` and return what it was.

    Raises `NotFoundError` when no such document is indexed, or (with `tenant`) when it is not that
    tenant's own. Its file is left alone: ingesting its folder again brings the document back.
    """
    document_id = document_id.strip()
    document = index.document(document_id) if document_id else None
    if document is None or (tenant is not None and document.meta.tenant != tenant):
        whose = f" of tenant {tenant!r}" if tenant is not None else ""
        raise NotFoundError(
            f"no document {document_id!r}{whose} in the knowledge index (`groundgate docs list` shows them)"
        )
    index.delete_document(document_id)
    index.flush()
    return DocumentSummary.of(document)

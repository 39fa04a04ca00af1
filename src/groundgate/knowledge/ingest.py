"""`groundgate ingest PATH`: read a file or a folder of documents into a `KnowledgeIndex`.

- Markdown (`.md`, `.markdown`) and plain text (`.txt`); hidden files and folders are skipped.
- A file whose content hash matches what the index holds is skipped; a changed file replaces all
  of its chunks (the old ones are deleted first, so a shorter version leaves no stale tail).
- A bad file (unreadable, not UTF-8, malformed front matter, invalid dates, a `doc_id` already used by
  another file of the same run) is reported with its reason, and ingestion goes on.
- `on_progress(done, total, path)` is called after each file (the CLI draws a progress bar with it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from groundgate.errors import InvalidInputError
from groundgate.knowledge.documents import SUPPORTED_SUFFIXES, Chunk, read_document
from groundgate.knowledge.index import KnowledgeIndex

ProgressCallback = Callable[[int, int, Path], None]

#: Chunks buffered before one engine write.
WRITE_BATCH = 512


@dataclass(frozen=True, slots=True)
class BadFile:
    """A file that was not ingested, and why."""

    path: str
    reason: str


@dataclass(slots=True)
class IngestReport:
    """What one ingestion did."""

    root: str
    files: int = 0
    """Supported files found."""
    ingested: int = 0
    """Files (re)indexed."""
    unchanged: int = 0
    """Files skipped because the index already holds this exact content."""
    chunks: int = 0
    """Chunks written."""
    bad_files: list[BadFile] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    """Document ids (re)indexed."""
    seconds: float = 0.0

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


def discover(path: Path) -> list[Path]:
    """The supported files under `path` (or `path` itself), sorted, hidden ones left out."""
    if path.is_file():
        return [path]
    return sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and p.suffix.lower() in SUPPORTED_SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
    )


def ingest_path(
    path: Path | str,
    index: KnowledgeIndex,
    *,
    on_progress: ProgressCallback | None = None,
    force: bool = False,
) -> IngestReport:
    """Ingest a file or a folder. `force` re-indexes unchanged files too."""
    started = time.perf_counter()
    path = Path(path)
    if not path.exists():
        raise InvalidInputError(f"{path}: no such file or folder")
    root = path if path.is_dir() else path.parent
    report = IngestReport(root=str(path))
    if path.is_file() and path.suffix.lower() not in SUPPORTED_SUFFIXES:
        report.bad_files.append(BadFile(str(path), f"unsupported file type {path.suffix or '(none)'!r}"))
        report.seconds = time.perf_counter() - started
        return report

    files = discover(path)
    report.files = len(files)
    owners: dict[str, Path] = {}
    buffer: list[Chunk] = []
    for done, file in enumerate(files, start=1):
        try:
            document = read_document(file, root=root)
            doc_id = document.meta.doc_id
            if doc_id in owners:
                raise InvalidInputError(
                    f"{file}: doc_id {doc_id!r} is already used by {owners[doc_id]} (set doc_id in the front matter)"
                )
            owners[doc_id] = file
            if not document.chunks:
                raise InvalidInputError(f"{file}: no text to index")
        except InvalidInputError as exc:
            report.bad_files.append(BadFile(str(file), str(exc)))
        else:
            indexed_hash = index.document_hash(doc_id)
            if indexed_hash == document.meta.content_hash and not force:
                report.unchanged += 1
            else:
                if indexed_hash is not None:
                    index.delete_document(doc_id)
                buffer.extend(document.chunks)
                report.ingested += 1
                report.chunks += len(document.chunks)
                report.documents.append(doc_id)
                if len(buffer) >= WRITE_BATCH:
                    index.upsert(buffer)
                    buffer = []
        if on_progress is not None:
            on_progress(done, len(files), file)
    if buffer:
        index.upsert(buffer)
    if report.ingested:
        index.flush()
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["WRITE_BATCH", "BadFile", "IngestReport", "ProgressCallback", "discover", "ingest_path"]

"""`groundgate ingest PATH`: read a file or a folder of documents into a `KnowledgeIndex`.

- Markdown (`.md`, `.markdown`) and plain text (`.txt`); hidden files and folders are skipped.
- Ingestion never leaves its root (the folder given, or the folder of the file given). A symbolic
  link, to a file or to a folder, whose target lies outside the root is skipped and reported
  (`link_outside_root`): otherwise `passwd.md -> /etc/passwd` becomes a shared document quoted to
  every tenant. A link that stays inside the root is read once: a link to a file already found is
  the same document, and folder links are never followed (their target is walked where it lies, so a
  link cycle cannot loop). A broken link is reported (`broken_link`). Files are opened through their
  resolved path without following a last-moment link, and the root check is repeated right before.
- A file over `max_file_bytes` (`[ingest] max_file_bytes`, 5 MB by default) is skipped and reported
  with its size and the limit (`too_large`); the read itself is bounded too, for a file that grows.
- A file whose content hash matches what the index holds is skipped; a changed file replaces all
  of its chunks (the old ones are deleted first, so a shorter version leaves no stale tail).
- A bad file (unreadable, not UTF-8, malformed front matter, invalid dates, a `doc_id` already used by
  another file of the same run) is reported with its reason, and ingestion goes on.
- Chunks with instruction-like text (addressed to the assistant; `groundgate.verify.instructions`)
  are indexed with those sentences marked, and listed in `IngestReport.instruction_chunks`.
- With an embedding endpoint configured, chunks are written with dense vectors; when the endpoint
  fails, they are written with BM25 only and the report says how many and why
  (`IngestReport.without_dense`, `dense_error`); the next ingestion re-indexes them.
- `on_progress(done, total, path)` is called after each file (the CLI draws a progress bar with it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Final

from groundgate.errors import InvalidInputError
from groundgate.knowledge.documents import SUPPORTED_SUFFIXES, Chunk, ParsedDocument, decode_document
from groundgate.knowledge.index import KnowledgeIndex
from groundgate.settings import IngestSettings

ProgressCallback = Callable[[int, int, Path], None]

#: Chunks buffered before one engine write.
WRITE_BATCH = 512

#: The default size limit: `[ingest] max_file_bytes` left unset.
DEFAULT_MAX_FILE_BYTES: Final = IngestSettings().max_file_bytes

#: Refuse to open the final path component if it became a symbolic link after the checks.
_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class SkipCode(StrEnum):
    """Why a file was not ingested."""

    INVALID = "invalid"
    """Unreadable, not UTF-8, malformed front matter, a duplicate `doc_id`, no text."""
    UNSUPPORTED = "unsupported"
    """A file given by name that is not Markdown or text."""
    LINK_OUTSIDE_ROOT = "link_outside_root"
    BROKEN_LINK = "broken_link"
    TOO_LARGE = "too_large"


LINK_OUTSIDE_ROOT_REASON: Final = "symbolic link leads outside the ingestion root"


@dataclass(frozen=True, slots=True)
class BadFile:
    """A file that was not ingested, and why."""

    path: str
    reason: str
    code: SkipCode = SkipCode.INVALID


@dataclass(slots=True)
class IngestReport:
    """What one ingestion did."""

    root: str
    files: int = 0
    """Supported files found (links leaving the root are not files of it)."""
    ingested: int = 0
    """Files (re)indexed."""
    unchanged: int = 0
    """Files skipped because the index already holds this exact content."""
    chunks: int = 0
    """Chunks written."""
    bad_files: list[BadFile] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    """Document ids (re)indexed."""
    instruction_chunks: list[str] = field(default_factory=list)
    """Chunk ids (re)indexed with instruction-like text: kept visible, never evidence."""
    without_dense: int = 0
    """Chunks written without a dense vector because the embedding endpoint failed."""
    dense_error: str | None = None
    """The embedding endpoint's failure, when it failed."""
    seconds: float = 0.0

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


@dataclass(slots=True)
class _Scan:
    files: list[Path]
    skipped: list[BadFile]


def discover(path: Path) -> list[Path]:
    """The supported files under `path` (or `path` itself), sorted, hidden ones and links that leave
    the root left out."""
    return _scan(path).files


def ingest_path(
    path: Path | str,
    index: KnowledgeIndex,
    *,
    on_progress: ProgressCallback | None = None,
    force: bool = False,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> IngestReport:
    """Ingest a file or a folder. `force` re-indexes unchanged files too; larger files are skipped."""
    started = time.perf_counter()
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise InvalidInputError(f"{path}: no such file or folder")
    # A folder given by name is the root, even through a link (the user named it); a file's root is
    # its folder, so a file given by name is judged like the same file found in that folder.
    root = path if path.is_dir() else path.parent
    report = IngestReport(root=str(path))
    if not path.is_dir() and path.suffix.lower() not in SUPPORTED_SUFFIXES:
        report.bad_files.append(
            BadFile(str(path), f"unsupported file type {path.suffix or '(none)'!r}", SkipCode.UNSUPPORTED)
        )
        report.seconds = time.perf_counter() - started
        return report

    scan = _scan(path)
    report.bad_files.extend(scan.skipped)
    files = scan.files
    report.files = len(files)
    root_real = root.resolve()
    owners: dict[str, Path] = {}
    buffer: list[Chunk] = []
    for done, file in enumerate(files, start=1):
        try:
            document = _read(file, root, root_real, max_file_bytes)
            doc_id = document.meta.doc_id
            if doc_id in owners:
                raise InvalidInputError(
                    f"{file}: doc_id {doc_id!r} is already used by {owners[doc_id]} (set doc_id in the front matter)"
                )
            owners[doc_id] = file
            if not document.chunks:
                raise InvalidInputError(f"{file}: no text to index")
        except _SkippedError as exc:
            report.bad_files.append(exc.bad)
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
                report.instruction_chunks.extend(c.chunk_id for c in document.chunks if c.instruction_spans)
                if len(buffer) >= WRITE_BATCH:
                    _upsert(index, buffer, report)
                    buffer = []
        if on_progress is not None:
            on_progress(done, len(files), file)
    if buffer:
        _upsert(index, buffer, report)
    if report.ingested:
        index.flush()
    report.seconds = time.perf_counter() - started
    return report


def _upsert(index: KnowledgeIndex, chunks: list[Chunk], report: IngestReport) -> None:
    written = index.upsert(chunks)
    if written is not None and written.without_dense:
        report.without_dense += written.without_dense
        report.dense_error = report.dense_error or written.dense_error


# --------------------------------------------------------------------------- finding files


def _scan(path: Path) -> _Scan:
    """Walk `path` without following folder links; links are judged by where they lead."""
    if not path.is_dir():
        root_real = path.parent.resolve()
        bad = _judge_link(path, root_real) if path.is_symlink() else None
        return _Scan([] if bad else [path], [bad] if bad else [])
    root_real = path.resolve()
    found: dict[Path, Path] = {}  # resolved path -> the path it was found under
    linked: list[tuple[Path, Path]] = []  # file links inside the root: (link, resolved target)
    skipped: list[BadFile] = []
    folders = [path]
    while folders:
        folder = folders.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(BadFile(str(folder), f"cannot list folder: {exc.strerror or exc}"))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            entry_path = Path(entry.path)
            supported = entry_path.suffix.lower() in SUPPORTED_SUFFIXES
            if entry.is_symlink():
                bad = _judge_link(entry_path, root_real)
                if bad is not None:
                    if supported or (bad.code is SkipCode.LINK_OUTSIDE_ROOT and _is_dir(entry_path)):
                        skipped.append(bad)
                    continue
                # Inside the root. A folder link's target is walked where it lies (so no cycle);
                # a file link is the document it points at, counted once.
                if supported and entry_path.is_file():
                    linked.append((entry_path, entry_path.resolve()))
            elif entry.is_dir(follow_symlinks=False):
                folders.append(entry_path)
            elif supported and entry.is_file(follow_symlinks=False):
                found[entry_path.resolve()] = entry_path
    for link, target in linked:
        found.setdefault(target, link)  # a target hidden from the walk is read under the link's name
    return _Scan(sorted(found.values()), skipped)


def _judge_link(link: Path, root_real: Path) -> BadFile | None:
    """None for a link that resolves inside `root_real`; else why it is skipped."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):  # missing target, or a cycle of links
        return BadFile(str(link), "broken symbolic link (its target does not exist)", SkipCode.BROKEN_LINK)
    if not target.is_relative_to(root_real):
        return BadFile(str(link), f"{LINK_OUTSIDE_ROOT_REASON} (to {target})", SkipCode.LINK_OUTSIDE_ROOT)
    return None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


# --------------------------------------------------------------------------- reading


class _SkippedError(Exception):
    """A file skipped by policy (not a malformed one)."""

    def __init__(self, bad: BadFile) -> None:
        super().__init__(bad.reason)
        self.bad = bad


def _read(file: Path, root: Path, root_real: Path, max_file_bytes: int) -> ParsedDocument:
    """Read a discovered file: re-check where it leads, bound its size, then parse it."""
    # Checked again right before reading: the tree may have changed since it was walked.
    bad = _judge_link(file, root_real) if file.is_symlink() else None
    real = file.resolve()
    if bad is None and not real.is_relative_to(root_real):
        bad = BadFile(str(file), f"{LINK_OUTSIDE_ROOT_REASON} (to {real})", SkipCode.LINK_OUTSIDE_ROOT)
    if bad is not None:
        raise _SkippedError(bad)
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as exc:
        raise InvalidInputError(f"{file}: cannot read file: {exc.strerror or exc}") from exc
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        # Bounded even when the size looked fine: a file may grow between the stat and the read.
        data = handle.read(max_file_bytes + 1) if size <= max_file_bytes else b""
    if size > max_file_bytes or len(data) > max_file_bytes:
        what = f"{size:,} bytes" if size > max_file_bytes else "growing while read"
        raise _SkippedError(
            BadFile(
                str(file),
                f"file is {what}, over the {max_file_bytes:,}-byte limit (ingest.max_file_bytes)",
                SkipCode.TOO_LARGE,
            )
        )
    return decode_document(data, file, root=root)


__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "LINK_OUTSIDE_ROOT_REASON",
    "WRITE_BATCH",
    "BadFile",
    "IngestReport",
    "ProgressCallback",
    "SkipCode",
    "discover",
    "ingest_path",
]

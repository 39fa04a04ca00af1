"""`groundgate ingest PATH`: read a file or a folder of documents into a `KnowledgeIndex`.

- Markdown (`.md`, `.markdown`), plain text (`.txt`), PDF (`.pdf`), HTML (`.html`, `.htm`) and Word
  (`.docx`; text through `knowledge.formats`); hidden files and folders are left out unreported
  (`.git/` and editor files are not documents). Any other file of the folder is skipped and named
  (`unsupported`), so that a `.doc` or `.pptx` the reader expected to be searchable is not silently
  missing.
- A folder without a single supported file raises `NoDocumentsError` (the CLI exits 2) and nothing
  is changed: an empty or mistyped folder is not mistaken for "every document is gone".
- Ingestion never leaves its root (the folder given, or the folder of the file given). A symbolic
  link, to a file or to a folder, whose target lies outside the root is skipped and reported
  (`link_outside_root`): otherwise `passwd.md -> /etc/passwd` becomes a shared document quoted to
  every tenant. A link that stays inside the root is read once: a link to a file already found is
  the same document, and folder links are never followed (their target is walked where it lies, so a
  link cycle cannot loop). A broken link is reported (`broken_link`). Files are opened through their
  resolved path without following a last-moment link, and the root check is repeated right before.
- A file over `max_file_bytes` (`[ingest] max_file_bytes`, 5 MB by default) is skipped and reported
  with its size and the limit (`too_large`); the read itself is bounded too, for a file that grows.
  A `.docx` (a zip) whose members expand past `EXPANSION_FACTOR` times the limit, and a PDF, HTML or
  Word file whose extracted text is longer than the limit in characters, are `too_large` as well.
- A file whose content hash matches what the index holds (read from the same path) is skipped; a
  changed file replaces all of its chunks (the old ones are deleted first, so a shorter version
  leaves no stale tail).
- Every document records the absolute path of its file (`DocumentMeta.path`, stored in the index).
  A `doc_id` the index holds for a file of another folder is refused (`doc_id_taken`, naming that
  file) instead of silently replacing the other document; a file moved within the folder being
  ingested keeps its `doc_id` (its old path is gone from the folder). Documents indexed before paths
  were recorded are taken over by the first file that names their `doc_id`.
- Re-ingesting a folder removes the documents the index holds for files under that folder which are
  gone (deleted, renamed, or now naming another `doc_id`): `IngestReport.removed`. A file that is
  still there but skipped this time (too large, unreadable...) keeps its indexed document. A single
  file given by name removes nothing.
- A bad file (unreadable, not UTF-8, malformed front matter, invalid dates, a damaged PDF, a
  `doc_id` already used by another file of the same run) is reported with its reason, and ingestion
  goes on.
- Chunks with instruction-like text (addressed to the assistant; `groundgate.text.instructions`)
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

from groundgate.errors import InvalidInputError, NoDocumentsError
from groundgate.knowledge.documents import (
    SUPPORTED_SUFFIXES,
    SUPPORTED_TYPES,
    Chunk,
    ParsedDocument,
    decode_document,
)
from groundgate.knowledge.formats import EXTRACTED_SUFFIXES, expanded_size
from groundgate.knowledge.index import IndexedDocument, KnowledgeIndex
from groundgate.settings import IngestSettings

ProgressCallback = Callable[[int, int, Path], None]

#: Chunks buffered before one engine write.
WRITE_BATCH = 512

#: The default size limit: `[ingest] max_file_bytes` left unset.
DEFAULT_MAX_FILE_BYTES: Final = IngestSettings().max_file_bytes

#: A `.docx` may expand to this many times `max_file_bytes` (its XML is verbose; images count too).
EXPANSION_FACTOR: Final = 20

#: Refuse to open the final path component if it became a symbolic link after the checks.
_OPEN_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class SkipCode(StrEnum):
    """Why a file was not ingested."""

    INVALID = "invalid"
    """Unreadable, not UTF-8, malformed front matter, a damaged PDF, a duplicate `doc_id`, no text."""
    UNSUPPORTED = "unsupported"
    """Not a supported type (see `SUPPORTED_TYPES`)."""
    LINK_OUTSIDE_ROOT = "link_outside_root"
    BROKEN_LINK = "broken_link"
    TOO_LARGE = "too_large"
    DOC_ID_TAKEN = "doc_id_taken"
    """The `doc_id` is indexed for a file of another folder; that document is left as it is."""


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
    removed: list[str] = field(default_factory=list)
    """Document ids removed because their files are gone from the folder (sorted)."""
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
    unlisted: list[Path] = field(default_factory=list)
    """Folders that could not be listed (their documents are not taken for gone)."""


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
    """Ingest a file or a folder. `force` re-indexes unchanged files too; larger files are skipped.

    Raises `InvalidInputError` for a path that does not exist, `NoDocumentsError` for a folder
    without a supported file (nothing is changed then).
    """
    started = time.perf_counter()
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise InvalidInputError(f"{path}: no such file or folder")
    folder = path.is_dir()
    # A folder given by name is the root, even through a link (the user named it); a file's root is
    # its folder, so a file given by name is judged like the same file found in that folder.
    root = path if folder else path.parent
    report = IngestReport(root=str(path))
    if not folder and path.suffix.lower() not in SUPPORTED_SUFFIXES:
        report.bad_files.append(BadFile(str(path), _unsupported(path), SkipCode.UNSUPPORTED))
        report.seconds = time.perf_counter() - started
        return report

    scan = _scan(path)
    if folder and not scan.files:
        raise NoDocumentsError(_nothing_to_ingest(path, scan, index), skipped=scan.skipped)
    report.bad_files.extend(scan.skipped)
    report.files = len(scan.files)
    run = _Run(index, report, root, root.resolve(), folder=folder, force=force, max_file_bytes=max_file_bytes)
    run.expect(scan.files)
    for done, file in enumerate(scan.files, start=1):
        run.ingest(file)
        if on_progress is not None:
            on_progress(done, len(scan.files), file)
    run.finish(scan.unlisted)
    report.seconds = time.perf_counter() - started
    return report


class _Run:
    """One ingestion's state: what was seen, kept and buffered, and the writes."""

    def __init__(
        self,
        index: KnowledgeIndex,
        report: IngestReport,
        root: Path,
        root_real: Path,
        *,
        folder: bool,
        force: bool,
        max_file_bytes: int,
    ) -> None:
        self.index, self.report = index, report
        self.root, self.root_real = root, root_real
        self.folder, self.force, self.max_file_bytes = folder, force, max_file_bytes
        self.owners: dict[str, Path] = {}
        """doc_id → the file of this run that has it."""
        self.found: set[str] = set()
        """Absolute paths of this run's files."""
        self.kept: set[str] = set()
        """Absolute paths of files still there but skipped: their indexed documents stay."""
        self.buffer: list[Chunk] = []

    def file_path(self, file: Path) -> str:
        """The absolute path recorded for `file` (the root resolved, the rest as found)."""
        return str(self.root_real / file.relative_to(self.root))

    def expect(self, files: list[Path]) -> None:
        self.found = {self.file_path(file) for file in files}

    def ingest(self, file: Path) -> None:
        file_path = self.file_path(file)
        try:
            document = _read(file, self.root, self.root_real, self.max_file_bytes, file_path)
            doc_id = document.meta.doc_id
            if doc_id in self.owners:
                raise InvalidInputError(
                    f"{file}: doc_id {doc_id!r} is already used by {self.owners[doc_id]} "
                    "(set doc_id in the front matter)"
                )
            if not document.chunks:
                raise InvalidInputError(f"{file}: no text to index")
            indexed = self.index.document(doc_id)
            taken = self._taken_by(indexed, file_path)
            if taken is not None:
                raise _SkippedError(
                    BadFile(
                        str(file),
                        f"doc_id {doc_id!r} is already indexed for {taken}, which is left as it is: give this "
                        "file another doc_id (front matter `doc_id:`, or rename the file), or remove that "
                        f"document first (groundgate docs remove {doc_id})",
                        SkipCode.DOC_ID_TAKEN,
                    )
                )
        except _SkippedError as exc:
            self.report.bad_files.append(exc.bad)
            self.kept.add(file_path)
        except InvalidInputError as exc:
            self.report.bad_files.append(BadFile(str(file), str(exc)))
            self.kept.add(file_path)
        else:
            self.owners[doc_id] = file
            self._write(document, indexed)

    def _taken_by(self, indexed: IndexedDocument | None, file_path: str) -> str | None:
        """The other file that holds this doc_id in the index, when it is not this one's to replace."""
        if indexed is None or indexed.path is None or indexed.path == file_path:
            return None  # new, indexed before paths were recorded (taken over), or this very file
        moved = (
            self.folder
            and Path(indexed.path).is_relative_to(self.root_real)
            and indexed.path not in self.found
        )
        return None if moved else indexed.path

    def _write(self, document: ParsedDocument, indexed: IndexedDocument | None) -> None:
        meta, report = document.meta, self.report
        if (
            not self.force
            and indexed is not None
            and indexed.path == meta.path
            and self.index.document_hash(meta.doc_id) == meta.content_hash
        ):
            report.unchanged += 1
            return
        if indexed is not None:
            self.index.delete_document(meta.doc_id)
        self.buffer.extend(document.chunks)
        report.ingested += 1
        report.chunks += len(document.chunks)
        report.documents.append(meta.doc_id)
        report.instruction_chunks.extend(c.chunk_id for c in document.chunks if c.instruction_spans)
        if len(self.buffer) >= WRITE_BATCH:
            self._flush_buffer()

    def _flush_buffer(self) -> None:
        written = self.index.upsert(self.buffer)
        self.buffer = []
        if written is not None and written.without_dense:
            self.report.without_dense += written.without_dense
            self.report.dense_error = self.report.dense_error or written.dense_error

    def finish(self, unlisted: list[Path]) -> None:
        """Write what is buffered, remove the folder's documents whose files are gone, flush."""
        if self.buffer:
            self._flush_buffer()
        if self.folder:
            self._remove_gone([folder.resolve() for folder in unlisted])
        if self.report.ingested or self.report.removed:
            self.index.flush()

    def _remove_gone(self, unlisted: list[Path]) -> None:
        accepted = set(self.owners)
        for document in self.index.documents():
            path = document.path
            if path is None or document.doc_id in accepted or path in self.kept:
                continue
            where = Path(path)
            if not where.is_relative_to(self.root_real) or any(where.is_relative_to(u) for u in unlisted):
                continue  # another folder's document, or one under a folder that could not be read
            self.index.delete_document(document.doc_id)
            self.report.removed.append(document.doc_id)
        self.report.removed.sort()


def _unsupported(path: Path) -> str:
    return (
        f"unsupported file type {path.suffix.lower() or '(none)'!r} (not Markdown, text, PDF, HTML or Word)"
    )


def _nothing_to_ingest(path: Path, scan: _Scan, index: KnowledgeIndex) -> str:
    message = f"{path}: no documents to ingest: the folder holds no {SUPPORTED_TYPES} file"
    if scan.skipped:
        names = ", ".join(Path(bad.path).name for bad in scan.skipped[:3])
        more = f" and {len(scan.skipped) - 3} more" if len(scan.skipped) > 3 else ""
        message += f" (skipped: {names}{more})"
    root_real = path.resolve()
    indexed = [d.doc_id for d in index.documents() if d.path and Path(d.path).is_relative_to(root_real)]
    if indexed:
        # Emptying a folder is not taken as "remove everything": a mistyped path would do the same.
        held = (
            "the document indexed from it stays"
            if len(indexed) == 1
            else f"the {len(indexed)} documents indexed from it stay"
        )
        message += f"; {held} (remove one with `groundgate docs remove ID`)"
    return message + "; nothing was changed"


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
    unlisted: list[Path] = []
    folders = [path]
    while folders:
        folder = folders.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(BadFile(str(folder), f"cannot list folder: {exc.strerror or exc}"))
            unlisted.append(folder)
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
            elif entry.is_file(follow_symlinks=False):
                if supported:
                    found[entry_path.resolve()] = entry_path
                else:  # named, so that a `.doc` or `.pptx` expected to be searchable is not missed
                    skipped.append(BadFile(str(entry_path), _unsupported(entry_path), SkipCode.UNSUPPORTED))
    for link, target in linked:
        found.setdefault(target, link)  # a target hidden from the walk is read under the link's name
    return _Scan(sorted(found.values()), sorted(skipped, key=lambda bad: bad.path), unlisted)


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


def _read(file: Path, root: Path, root_real: Path, max_file_bytes: int, file_path: str) -> ParsedDocument:
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
    extracted = file.suffix.lower() in EXTRACTED_SUFFIXES
    if extracted and (expanded := expanded_size(data, file.suffix)) > EXPANSION_FACTOR * max_file_bytes:
        raise _SkippedError(
            BadFile(
                str(file),
                f"file expands to {expanded:,} bytes, over {EXPANSION_FACTOR} times the "
                f"{max_file_bytes:,}-byte limit (ingest.max_file_bytes)",
                SkipCode.TOO_LARGE,
            )
        )
    document = decode_document(data, file, root=root, file_path=file_path)
    if extracted and len(document.text) > max_file_bytes:
        raise _SkippedError(
            BadFile(
                str(file),
                f"extracted text is {len(document.text):,} characters, over the {max_file_bytes:,} limit "
                "(ingest.max_file_bytes)",
                SkipCode.TOO_LARGE,
            )
        )
    return document


__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "EXPANSION_FACTOR",
    "LINK_OUTSIDE_ROOT_REASON",
    "WRITE_BATCH",
    "BadFile",
    "IngestReport",
    "ProgressCallback",
    "SkipCode",
    "discover",
    "ingest_path",
]

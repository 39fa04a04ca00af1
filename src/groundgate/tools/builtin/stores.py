"""The plumbing the built-in stores share: one SQLite database each, idempotent loading by content
hash, line readers that report malformed lines (see the package docs)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from groundgate.errors import ConfigurationError, InvalidInputError, RunError
from groundgate.tools.builtin.clock import format_utc, utc_now

__all__ = [
    "MAX_REPORTED_INVALID_LINES",
    "EmbeddedStore",
    "InvalidLine",
    "LoadReport",
    "iter_json_objects",
    "iter_lines",
]

#: A load report lists at most this many invalid lines (all are counted).
MAX_REPORTED_INVALID_LINES = 50

R = TypeVar("R")

_FILES_DDL = """
CREATE TABLE IF NOT EXISTS loaded_files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    records INTEGER NOT NULL DEFAULT 0,
    invalid INTEGER NOT NULL DEFAULT 0,
    loaded_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS loaded_files_sha256 ON loaded_files (sha256);
"""


class InvalidLine(BaseModel):
    """A line that could not be loaded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line_no: int
    """1-based line number in the file."""
    reason: str


class LoadReport(BaseModel):
    """What one `load_*` call did."""

    model_config = ConfigDict(extra="forbid")

    path: str
    """The file as given."""
    source: str
    """The name records cite (the file name unless the caller chose one)."""
    loaded: int = 0
    """Records stored by this call."""
    skipped: bool = False
    """True when the same content was already loaded: nothing was stored again."""
    replaced: bool = False
    """True when this path had been loaded with different content, whose records were replaced."""
    invalid_count: int = 0
    invalid_lines: list[InvalidLine] = Field(default_factory=list)
    """The first `MAX_REPORTED_INVALID_LINES` invalid lines with their reasons."""
    unparsed: int = 0
    """Plain-text log lines kept as bare messages (service and level unknown)."""
    untenanted: int = 0
    """Records stored without a tenant (platform log lines: see `LogStore(platform_lines=...)`)."""
    detail: str = ""

    def add_invalid(self, line_no: int, reason: str) -> None:
        """Count an invalid line, keeping the first few with their reasons."""
        self.invalid_count += 1
        if len(self.invalid_lines) < MAX_REPORTED_INVALID_LINES:
            self.invalid_lines.append(InvalidLine(line_no=line_no, reason=reason))


@dataclass(slots=True)
class _Fingerprint:
    sha256: str
    size: int
    mtime_ns: int
    key: str = field(default="")


def _fingerprint(path: Path, kind: str) -> _Fingerprint:
    digest = hashlib.sha256()
    try:
        stat = path.stat()
        with path.open("rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    except FileNotFoundError:
        raise InvalidInputError(f"{kind} file not found: {path}") from None
    except IsADirectoryError:
        raise InvalidInputError(f"{kind} path is a directory, not a file: {path}") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot read {kind} file {path}: {exc.strerror or exc}") from None
    return _Fingerprint(digest.hexdigest(), stat.st_size, stat.st_mtime_ns, str(path.resolve()))


def iter_lines(path: Path) -> Iterator[tuple[int, str | None]]:
    """(line number, text) for every non-blank line; text is None when it is not valid UTF-8."""
    try:
        with path.open("rb") as handle:
            for line_no, raw in enumerate(handle, start=1):
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    yield line_no, None
                    continue
                if line_no == 1:
                    text = text.removeprefix("\ufeff")
                text = text.rstrip("\r\n")
                if text.strip():
                    yield line_no, text
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None


def iter_json_objects(
    path: Path, report: LoadReport, *, parse_float: Callable[[str], Any] = float
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every JSON-object line; other lines are counted in `report`.

    `parse_float=Decimal` keeps decimal numbers exactly as written (`199.00`).
    """
    for line_no, text in iter_lines(path):
        if text is None:
            report.add_invalid(line_no, "not valid UTF-8")
            continue
        try:
            value = json.loads(text, parse_float=parse_float)
        except json.JSONDecodeError as exc:
            report.add_invalid(line_no, f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        if not isinstance(value, dict):
            report.add_invalid(line_no, f"expected a JSON object, got {type(value).__name__}")
            continue
        yield line_no, value


class EmbeddedStore:
    """One SQLite database with load tracking; subclasses add their tables and queries."""

    #: What the store holds, for messages (`log`, `metric`, `order`).
    kind: ClassVar[str] = "record"
    #: The subclass's tables (executed once with `executescript`; use `IF NOT EXISTS`).
    schema: ClassVar[str] = ""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(self.path, check_same_thread=False)
            self._conn.row_factory = sqlite3.Row
            self._conn.executescript(_FILES_DDL + self.schema)
        except sqlite3.Error as exc:
            raise ConfigurationError(f"cannot open the {self.kind} store at {self.path}: {exc}") from exc

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ helpers for subclasses

    def _read(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        """Run a read under the lock, translating SQLite errors into `RunError`."""
        with self._lock:
            try:
                return fn(self._conn)
            except sqlite3.Error as exc:
                raise RunError(f"{self.kind} store query failed: {exc}") from exc

    def _delete_file_records(self, conn: sqlite3.Connection, file_id: int) -> None:
        """Delete every record loaded from `file_id` (before its path is loaded again)."""
        raise NotImplementedError

    def _load(
        self,
        path: str | Path,
        source: str | None,
        records: Callable[[Path, LoadReport], Iterable[R]],
        write: Callable[[sqlite3.Connection, int, R], bool],
    ) -> LoadReport:
        """Load one file idempotently.

        `records` parses the file, counting bad lines in the report; `write` stores one record
        (returning whether it had a tenant, for the `untenanted` count).
        """
        file = Path(path)
        name = source or file.name
        fingerprint = _fingerprint(file, self.kind)
        report = LoadReport(path=str(path), source=name)
        with self._lock:
            try:
                with self._conn:
                    conn = self._conn
                    same = conn.execute(
                        "SELECT source FROM loaded_files WHERE sha256 = ? LIMIT 1", (fingerprint.sha256,)
                    ).fetchone()
                    if same is not None:
                        report.skipped = True
                        report.detail = f"same content already loaded as {same['source']}"
                        return report
                    previous = conn.execute(
                        "SELECT id FROM loaded_files WHERE path = ?", (fingerprint.key,)
                    ).fetchone()
                    if previous is not None:
                        self._delete_file_records(conn, int(previous["id"]))
                        conn.execute("DELETE FROM loaded_files WHERE id = ?", (previous["id"],))
                        report.replaced = True
                    cursor = conn.execute(
                        "INSERT INTO loaded_files (path, source, sha256, size, mtime_ns, loaded_at)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            fingerprint.key,
                            name,
                            fingerprint.sha256,
                            fingerprint.size,
                            fingerprint.mtime_ns,
                            format_utc(utc_now()),
                        ),
                    )
                    file_id = int(cursor.lastrowid or 0)
                    for record in records(file, report):
                        if not write(conn, file_id, record):
                            report.untenanted += 1
                        report.loaded += 1
                    conn.execute(
                        "UPDATE loaded_files SET records = ?, invalid = ? WHERE id = ?",
                        (report.loaded, report.invalid_count, file_id),
                    )
            except sqlite3.Error as exc:
                raise RunError(f"loading {self.kind} file {path} failed: {exc}") from exc
        parts = [f"{report.loaded} {self.kind} records from {name}"]
        if report.replaced:
            parts.append("replacing the earlier content of this path")
        if report.invalid_count:
            lines = ", ".join(str(item.line_no) for item in report.invalid_lines[:10])
            parts.append(f"{report.invalid_count} invalid lines (line {lines})")
        if report.unparsed:
            parts.append(f"{report.unparsed} lines kept as bare messages (unparsed)")
        if report.untenanted:
            parts.append(f"{report.untenanted} without a tenant (platform lines)")
        report.detail = "; ".join(parts)
        return report

    def loaded_files(self) -> list[dict[str, Any]]:
        """The files loaded so far: source, sha256, size, records, invalid lines, loaded_at."""

        def read(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                "SELECT source, sha256, size, records, invalid, loaded_at FROM loaded_files ORDER BY id"
            ).fetchall()
            return [dict(row) for row in rows]

        return self._read(read)

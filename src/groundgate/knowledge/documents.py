"""Governed documents: front matter, chunking by heading, stable chunk ids, exact offsets.

A document is a Markdown (`.md`, `.markdown`) or plain-text (`.txt`) file with an optional YAML front
matter block (`---` ... `---`) naming its governance metadata, all optional, or a PDF (`.pdf`), HTML
(`.html`, `.htm`) or Word (`.docx`) file whose text is extracted first (`knowledge.formats`: no
front matter there; the title comes from the file's own properties):

```yaml
---
title: 支付网关错误码手册
doc_id: payment-errors        # default: the file name without extension
authority: SRE                # who owns it
kind: manual                  # runbook, policy, manual, architecture, ...
version: "2.1"                # kept as written (`2.10` stays `2.10`)
effective_from: 2024-01-01    # ISO dates, inclusive
effective_to: 2024-12-31
scope: payment                # or a list: [payment, checkout]
tenant: acme                  # absent: shared by every tenant
aliases: [Payment gateway error codes, 错误码表]   # other names, any language (or one string)
---
```

`aliases` are other names of the document, typically its title in another language: they are indexed
with the title (BM25, dense vectors and exact title keys), so a question that names the document in
either language finds it. A single string is one alias (titles may hold commas).

Markdown is cut at ATX headings (`#` ... `######`, outside fenced code); every chunk keeps its heading
path (`支付网关错误码手册 > ERR_TIMEOUT`). Sections longer than `MAX_CHARS` are split on paragraph
boundaries (then lines, then sentences, then hard cuts), sections shorter than `MIN_CHARS` are merged
with what follows while the result stays within `MAX_CHARS` (a last scrap under `MIN_CHARS // 3`
joins the chunk before it). Plain text is cut into blank-line
paragraphs packed the same way. Every chunk records `start`/`end` character offsets into the decoded
file, and `text == source_text[start:end]` always holds: the passage is quoted exactly as stored.

Chunk ids are `{doc_id}#{n}` (n counts from 0 in document order), stable while the file is unchanged.

`authority` names who vouches for the document; `DocumentMeta.authority_level` is its ordered level
(`groundgate.contracts.Authority`: no authority → `unverified`, a named owner → `owned`,
`authority: official` → `official`). Where passages of different levels disagree, the higher one wins.

Every chunk records its instruction-like sentences (`Chunk.instruction_spans`, offsets into the chunk's
text; see `groundgate.text.instructions`): text addressed to the assistant ("ignore previous
instructions…", "你现在是…") stays in the stored passage, visible as written, but is never evidence.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Final

import yaml  # type: ignore[import-untyped]  # no PyYAML stubs in the dev environment

from groundgate.contracts.evidence import Authority
from groundgate.errors import InvalidInputError
from groundgate.knowledge.formats import EXTRACTED_FORMATS, EXTRACTED_SUFFIXES, EXTRACTOR_VERSION, extract
from groundgate.text.instructions import find_instructions

#: Bumped when chunking changes, so that unchanged files are re-chunked once (it is part of the hash).
#: 2: chunks carry their instruction-like sentences. 3: titles and aliases are indexed with their
#: lexicon translations (the search text changed, so every document is re-indexed once).
CHUNKER_VERSION: Final = "3"
#: Target upper bound of a chunk, in characters.
MAX_CHARS: Final = 1000
#: Sections shorter than this are merged with the following ones.
MIN_CHARS: Final = 150
#: A single paragraph is cut (on lines, then sentences) only when longer than this.
HARD_MAX_CHARS: Final = 1500

MARKDOWN_SUFFIXES: Final = frozenset({".md", ".markdown"})
TEXT_SUFFIXES: Final = frozenset({".txt"})
SUPPORTED_SUFFIXES: Final = MARKDOWN_SUFFIXES | TEXT_SUFFIXES | EXTRACTED_SUFFIXES
#: How error messages name the supported types.
SUPPORTED_TYPES: Final = (
    "Markdown (.md, .markdown), text (.txt), PDF (.pdf), HTML (.html, .htm) or Word (.docx)"
)

HEADING_SEPARATOR: Final = " > "

_FRONT_MATTER_KEYS: Final = frozenset(
    {
        "title",
        "doc_id",
        "authority",
        "kind",
        "version",
        "effective_from",
        "effective_to",
        "scope",
        "tenant",
        "aliases",
    }
)
#: libyaml's loader when PyYAML was built with it (about 20x faster); the base loader keeps strings.
_YAML_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
_DOC_ID = re.compile(r"^[\w.\-/\u3400-\u9fff]{1,200}$")
_NOT_DOC_ID = re.compile(r"[^\w.\-/\u3400-\u9fff]+")


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """Governance metadata of one document (front matter, with defaults filled in)."""

    doc_id: str
    source: str
    """Path relative to the ingestion root, POSIX style (`payment/errors.md`)."""
    title: str | None = None
    authority: str | None = None
    kind: str | None = None
    version: str | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    scopes: tuple[str, ...] = ()
    tenant: str | None = None
    content_hash: str = ""
    """sha256 of the file bytes and the chunker version: unchanged files are skipped on re-ingest."""
    aliases: tuple[str, ...] = ()
    """Other names of the document (front matter `aliases`), indexed with the title."""
    path: str | None = None
    """Absolute path of the file, set by ingestion and stored in the index (see `knowledge.index`);
    None on chunks read back from a search, so that answers never carry server paths."""

    @property
    def authority_level(self) -> Authority:
        """The ordered level of `authority` (no authority: the lowest)."""
        return Authority.of(self.authority)

    @property
    def scope(self) -> str | None:
        """The scopes as one display string (`payment, checkout`), None when unscoped."""
        return ", ".join(self.scopes) if self.scopes else None


@dataclass(frozen=True, slots=True)
class Chunk:
    """One passage of a document, the unit that is indexed, retrieved and cited."""

    chunk_id: str
    doc_id: str
    ordinal: int
    text: str
    """Exactly `source_text[start:end]`."""
    start: int
    end: int
    heading: str | None
    """Heading path, `A > B > C`; siblings merged into one chunk read `A > B / C`."""
    meta: DocumentMeta
    headings: tuple[str, ...] = field(default=())
    """Every heading path whose text this chunk holds (for exact heading matches)."""
    instruction_spans: tuple[tuple[int, int], ...] = field(default=())
    """`[start, end)` offsets into `text` of sentences addressed to the assistant: never evidence."""


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A document and its chunks."""

    meta: DocumentMeta
    chunks: tuple[Chunk, ...]
    text: str
    """The decoded file, which chunk offsets point into."""


# --------------------------------------------------------------------------- reading


def read_document(path: Path, *, root: Path | None = None) -> ParsedDocument:
    """Read, parse and chunk one file. Raises `InvalidInputError` naming the file (and line).

    Ingestion reads the bytes itself (it checks links and sizes first) and calls `decode_document`.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"{path}: cannot read file: {exc.strerror or exc}") from exc
    return decode_document(data, path, root=root)


def default_doc_id_of(path: Path) -> str:
    """The `doc_id` of a file without one in its front matter: its name without the extension, each
    run of other characters than `_DOC_ID` allows made one `-` (`Payment Guide (v2).pdf` →
    `Payment-Guide-v2`), since PDF and Word files, often named so, have no front matter to set one."""
    return _NOT_DOC_ID.sub("-", path.stem).strip("-")[:200] or "document"


def format_of(suffix: str) -> str:
    """`markdown`, `text`, `pdf`, `html` or `docx`: the format of a file with this suffix."""
    suffix = suffix.lower()
    if suffix in EXTRACTED_FORMATS:
        return EXTRACTED_FORMATS[suffix]
    return "text" if suffix in TEXT_SUFFIXES else "markdown"


def decode_document(
    data: bytes, path: Path, *, root: Path | None = None, file_path: str | None = None
) -> ParsedDocument:
    """Parse and chunk the bytes of the file at `path` (which names it: source, default doc_id).

    `file_path` (the absolute path, set by ingestion) is recorded in `DocumentMeta.path`.
    """
    source = path.relative_to(root).as_posix() if root is not None and path != root else path.name
    suffix = path.suffix.lower()
    default_doc_id = default_doc_id_of(path)
    if suffix in EXTRACTED_SUFFIXES:
        extracted = extract(data, suffix, label=str(path))
        digest = hashlib.sha256(data + f"{CHUNKER_VERSION}/{EXTRACTOR_VERSION}".encode()).hexdigest()
        return parse_document(
            extracted.text,
            source=source,
            default_doc_id=default_doc_id,
            markdown=extracted.markdown,
            content_hash=digest,
            label=str(path),
            front_matter=False,
            title=extracted.title,
            file_path=file_path,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InvalidInputError(f"{path}:{line}: not UTF-8 text (byte {exc.start})") from exc
    digest = hashlib.sha256(data + CHUNKER_VERSION.encode()).hexdigest()
    return parse_document(
        text,
        source=source,
        default_doc_id=default_doc_id,
        markdown=suffix not in TEXT_SUFFIXES,
        content_hash=digest,
        label=str(path),
        file_path=file_path,
    )


def parse_document(
    text: str,
    *,
    source: str,
    default_doc_id: str,
    markdown: bool = True,
    content_hash: str | None = None,
    label: str | None = None,
    front_matter: bool = True,
    title: str | None = None,
    file_path: str | None = None,
) -> ParsedDocument:
    """Parse front matter and chunk `text`. `label` names the input in error messages.

    `front_matter=False`: the text has none (extracted from a PDF, HTML or Word file), and `title`
    is the file's own title. `file_path` is recorded in `DocumentMeta.path`.
    """
    label = label or source
    body_start, raw_meta = _split_front_matter(text, label) if front_matter else (0, {})
    if title and not raw_meta.get("title"):
        raw_meta = {**raw_meta, "title": title}
    if markdown and not raw_meta.get("title"):
        first_h1 = _first_h1(text, body_start)
        if first_h1:
            raw_meta = {**raw_meta, "title": first_h1}
    meta = _build_meta(
        raw_meta,
        source=source,
        default_doc_id=default_doc_id,
        content_hash=content_hash or hashlib.sha256((text + CHUNKER_VERSION).encode()).hexdigest(),
        label=label,
        text=text,
        file_path=file_path,
    )
    pieces = (
        _chunk_markdown(text, body_start, meta.title)
        if markdown
        else _chunk_plain(text, body_start, meta.title)
    )
    chunks = tuple(
        Chunk(
            chunk_id=f"{meta.doc_id}#{n}",
            doc_id=meta.doc_id,
            ordinal=n,
            text=text[piece.start : piece.end],
            start=piece.start,
            end=piece.end,
            heading=_merged_heading(piece.paths),
            meta=meta,
            headings=tuple(HEADING_SEPARATOR.join(p) for p in piece.paths if p),
            instruction_spans=tuple(
                (span.start, span.end) for span in find_instructions(text[piece.start : piece.end])
            ),
        )
        for n, piece in enumerate(pieces)
    )
    return ParsedDocument(meta=meta, chunks=chunks, text=text)


# --------------------------------------------------------------------------- front matter


def _split_front_matter(text: str, label: str) -> tuple[int, dict[str, object]]:
    """(offset where the body starts, the front matter mapping or {})."""
    offset = 1 if text.startswith("\ufeff") else 0
    lines = text[offset:].splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n").rstrip() != "---":
        return offset, {}
    position = offset + len(lines[0])
    block: list[str] = []
    for line in lines[1:]:
        if line.rstrip("\r\n").rstrip() in ("---", "..."):
            position += len(line)
            break
        block.append(line)
        position += len(line)
    else:
        raise InvalidInputError(f"{label}:1: front matter opened with '---' is never closed")
    try:
        loaded = yaml.load("".join(block), Loader=_YAML_LOADER)  # every scalar stays a string
    except yaml.MarkedYAMLError as exc:
        line_no = (exc.problem_mark.line + 2) if exc.problem_mark is not None else 1
        raise InvalidInputError(f"{label}:{line_no}: malformed front matter: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise InvalidInputError(f"{label}:1: malformed front matter: {exc}") from exc
    if loaded is None:
        return position, {}
    if not isinstance(loaded, dict):
        raise InvalidInputError(f"{label}:2: front matter must be a mapping of keys to values")
    return position, {str(k): v for k, v in loaded.items()}


def _key_line(text: str, key: str) -> int:
    """The 1-based line of `key:` inside the front matter (1 when not found)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"^\s*{re.escape(key)}\s*:", line):
            return number
        if number > 1 and line.strip() == "---":
            break
    return 1


def _build_meta(
    raw: dict[str, object],
    *,
    source: str,
    default_doc_id: str,
    content_hash: str,
    label: str,
    text: str,
    file_path: str | None = None,
) -> DocumentMeta:
    def fail(key: str, problem: str) -> InvalidInputError:
        return InvalidInputError(f"{label}:{_key_line(text, key)}: front matter '{key}': {problem}")

    def scalar(key: str) -> str | None:
        value = raw.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise fail(key, "expected a single value")
        value = value.strip()
        return value or None

    def a_date(key: str) -> date | None:
        value = scalar(key)
        if value is None:
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise fail(key, f"{value!r} is not a date (YYYY-MM-DD)") from None

    scopes_raw = raw.get("scope")
    if scopes_raw is None:
        scopes: tuple[str, ...] = ()
    elif isinstance(scopes_raw, str):
        scopes = tuple(s.strip() for s in scopes_raw.split(",") if s.strip())
    elif isinstance(scopes_raw, list) and all(isinstance(s, str) for s in scopes_raw):
        scopes = tuple(s.strip() for s in scopes_raw if isinstance(s, str) and s.strip())
    else:
        raise fail("scope", "expected a value or a list of values")

    aliases_raw = raw.get("aliases")
    if aliases_raw is None:
        aliases: tuple[str, ...] = ()
    elif isinstance(aliases_raw, str):
        aliases = (aliases_raw.strip(),) if aliases_raw.strip() else ()
    elif isinstance(aliases_raw, list) and all(isinstance(a, str) for a in aliases_raw):
        aliases = tuple(dict.fromkeys(a.strip() for a in aliases_raw if isinstance(a, str) and a.strip()))
    else:
        raise fail("aliases", "expected a name or a list of names")
    if any(len(alias) > 200 for alias in aliases):
        raise fail("aliases", "an alias is longer than 200 characters")

    doc_id = scalar("doc_id") or default_doc_id
    if not _DOC_ID.match(doc_id):
        raise fail("doc_id", f"{doc_id!r} may hold only letters, digits, CJK, '_', '-', '.', '/'")
    effective_from, effective_to = a_date("effective_from"), a_date("effective_to")
    if effective_from and effective_to and effective_from > effective_to:
        raise fail("effective_to", f"{effective_to} is before effective_from {effective_from}")
    return DocumentMeta(
        doc_id=doc_id,
        source=source,
        title=scalar("title"),
        authority=scalar("authority"),
        kind=scalar("kind"),
        version=scalar("version"),
        effective_from=effective_from,
        effective_to=effective_to,
        scopes=scopes,
        tenant=scalar("tenant"),
        content_hash=content_hash,
        aliases=aliases,
        path=file_path,
    )


# --------------------------------------------------------------------------- chunking


@dataclass(slots=True)
class _Piece:
    start: int
    end: int
    paths: list[tuple[str, ...]]


@dataclass(slots=True)
class _Section:
    path: tuple[str, ...]
    start: int
    end: int
    body_start: int
    """Where the text after the heading line starts (== start for a preamble)."""


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BLANK_RUN = re.compile(r"\n[ \t]*(?:\r?\n[ \t]*)+")
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[.])(?=\s)")


def _first_h1(text: str, body_start: int) -> str | None:
    """The first level-1 ATX heading outside fenced code, used as title when front matter has none."""
    fence = False
    for line in text[body_start:].splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        heading = None if fence else _ATX.match(line)
        if heading and len(heading.group(1)) == 1 and (heading.group(2) or "").strip():
            return (heading.group(2) or "").strip()
    return None


def _chunk_markdown(text: str, body_start: int, title: str | None) -> list[_Piece]:
    sections: list[_Section] = []
    stack: list[tuple[int, str]] = []
    root = (title,) if title else ()
    current = _Section(root, body_start, len(text), body_start)
    fence: str | None = None
    position = body_start
    for line in text[body_start:].splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        fence_match = _FENCE.match(stripped)
        if fence_match:
            marker = fence_match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
        heading = _ATX.match(stripped) if fence is None else None
        if heading and (heading.group(2) or "").strip():
            current.end = position
            sections.append(current)
            level, name = len(heading.group(1)), (heading.group(2) or "").strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, name))
            names = tuple(n for _, n in stack)
            # The title heads every path, unless the document's own level-1 heading does.
            path = names if (title is None or names[0] == title or stack[0][0] == 1) else (title, *names)
            current = _Section(path, position, len(text), position + len(line))
        position += len(line)
    current.end = len(text)
    sections.append(current)

    pieces: list[_Piece] = []
    for section in sections:
        for start, end in _split_long(text, section.start, section.end, section.body_start):
            pieces.append(_Piece(start, end, [section.path]))
    return _merge_small(text, pieces)


def _chunk_plain(text: str, body_start: int, title: str | None) -> list[_Piece]:
    path = (title,) if title else ()
    paragraphs = [_Piece(s, e, [path]) for s, e in _paragraphs(text, body_start, len(text))]
    packed: list[_Piece] = []
    for paragraph in paragraphs:
        for start, end in _split_long(text, paragraph.start, paragraph.end, paragraph.start):
            if packed and end - packed[-1].start <= MAX_CHARS:
                packed[-1].end = end
            else:
                packed.append(_Piece(start, end, [path]))
    return packed


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Blank-line separated spans of text[start:end], trimmed, outside fenced code blocks."""
    spans: list[tuple[int, int]] = []
    cursor = start
    fence = False
    position = start
    for line in text[start:end].splitlines(keepends=True):
        if _FENCE.match(line):
            fence = not fence
        elif not fence and not line.strip():
            span = _trim(text, cursor, position)
            if span[0] < span[1]:
                spans.append(span)
            cursor = position + len(line)
        position += len(line)
    span = _trim(text, cursor, end)
    if span[0] < span[1]:
        spans.append(span)
    return spans


def _split_long(text: str, start: int, end: int, body_start: int) -> list[tuple[int, int]]:
    """Cut text[start:end] into trimmed spans of at most MAX_CHARS, on the best boundary available."""
    start, end = _trim(text, start, end)
    if start >= end:
        return []
    if end - start <= MAX_CHARS:
        return [(start, end)]
    spans: list[tuple[int, int]] = []
    for p_start, p_end in _paragraphs(text, start, end):
        units = (
            [(p_start, p_end)]
            if p_end - p_start <= HARD_MAX_CHARS
            else _split_paragraph(text, p_start, p_end)
        )
        for u_start, u_end in units:
            if spans and u_end - spans[-1][0] <= MAX_CHARS:
                spans[-1] = (spans[-1][0], u_end)
            else:
                spans.append((u_start, u_end))
    return spans


def _split_paragraph(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A paragraph longer than HARD_MAX_CHARS: cut at lines, then sentence ends, then every MAX_CHARS."""
    boundaries = [m.end() for m in re.finditer(r"\n", text[start:end])]
    if not boundaries:
        boundaries = [m.start() for m in _SENTENCE_END.finditer(text[start:end]) if m.start() > 0]
    cuts: list[tuple[int, int]] = []
    cursor = start
    last_ok = start
    for offset in [*boundaries, end - start]:
        point = start + offset
        if point - cursor > MAX_CHARS and last_ok > cursor:
            cuts.append((cursor, last_ok))
            cursor = last_ok
        while point - cursor > HARD_MAX_CHARS:  # no boundary at all: cut hard
            cuts.append((cursor, cursor + MAX_CHARS))
            cursor += MAX_CHARS
        last_ok = point
    cuts.append((cursor, end))
    trimmed = [_trim(text, s, e) for s, e in cuts]
    return [(s, e) for s, e in trimmed if s < e]


def _merge_small(text: str, pieces: list[_Piece]) -> list[_Piece]:
    """Merge a piece shorter than MIN_CHARS into the next while the result stays within MAX_CHARS."""
    merged: list[_Piece] = []
    for piece in pieces:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.end - previous.start < MIN_CHARS
            and piece.end - previous.start <= MAX_CHARS
        ):
            previous.end = piece.end
            previous.paths.extend(p for p in piece.paths if p not in previous.paths)
        else:
            merged.append(_Piece(piece.start, piece.end, list(piece.paths)))
    if len(merged) > 1 and merged[-1].end - merged[-1].start < MIN_CHARS // 3:
        last = merged[-1]
        if last.end - merged[-2].start <= MAX_CHARS:  # a scrap at the end joins the chunk before it
            merged.pop()
            merged[-1].end = last.end
            merged[-1].paths.extend(p for p in last.paths if p not in merged[-1].paths)
    return merged


def _merged_heading(paths: Sequence[tuple[str, ...]]) -> str | None:
    """One heading for a chunk that holds one or more sections.

    Ancestors of another held section are dropped (a title's short intro merged into its first
    subsection reads as that subsection); siblings share their parent: `A > B / C`.
    """
    kept = [p for p in paths if p and not any(len(o) > len(p) and o[: len(p)] == p for o in paths)]
    if not kept:
        return None
    if len(kept) == 1:
        return HEADING_SEPARATOR.join(kept[0])
    common: list[str] = []
    for names in zip(*kept, strict=False):
        if all(n == names[0] for n in names):
            common.append(names[0])
        else:
            break
    leaves = list(dict.fromkeys(HEADING_SEPARATOR.join(p[len(common) :]) for p in kept))
    return HEADING_SEPARATOR.join([*common, " / ".join(leaves)])


__all__ = [
    "CHUNKER_VERSION",
    "HEADING_SEPARATOR",
    "MARKDOWN_SUFFIXES",
    "MAX_CHARS",
    "MIN_CHARS",
    "SUPPORTED_SUFFIXES",
    "SUPPORTED_TYPES",
    "TEXT_SUFFIXES",
    "Chunk",
    "DocumentMeta",
    "ParsedDocument",
    "decode_document",
    "default_doc_id_of",
    "format_of",
    "parse_document",
    "read_document",
]

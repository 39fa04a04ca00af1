"""Text out of PDF, HTML and Word files, through maintained libraries, for the chunker.

| suffix | library | what is kept | chunked as |
|---|---|---|---|
| `.pdf` | `pypdf` | each page's text, pages separated by a blank line; title from the PDF's `/Title` | plain text |
| `.html`, `.htm` | `beautifulsoup4` on the stdlib `html.parser` | visible text: `<script>`, `<style>`, `<template>`, `<noscript>`, `<svg>`, `<nav>` and `<head>` dropped; `<h1>`-`<h6>` become Markdown headings, list items `- ` lines, table rows ` \\| `-joined cells; title from `<title>` | Markdown |
| `.docx` | `python-docx` | paragraphs and tables in document order; `Title` and `Heading N` styles become Markdown headings; title from the document properties | Markdown |

The extracted text is the document's text: chunk offsets point into it and passages quote it
exactly, as for Markdown and text files. These formats have no front matter: `doc_id` is the file
name without extension, the document is shared by every tenant, and it has no authority, kind,
version, dates or scope (write a Markdown file when a document needs them).

Every failure of a library on a file (a damaged PDF, an encrypted one, a `.docx` that is not a Word
package) becomes an `InvalidInputError` naming the file: the file is skipped with that reason and
ingestion goes on. A PDF without a text layer (scanned pages) extracts to nothing, and is reported
as having no text to index.

`html.parser` rather than lxml for HTML: it is in the standard library, so no native parser is
needed; BeautifulSoup adds the encoding detection (`<meta charset>`, byte-order marks) and a
tolerant tree for real-world markup.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from dataclasses import dataclass
from typing import Final

from groundgate.errors import InvalidInputError

#: Suffix → format name of the files extracted here.
EXTRACTED_FORMATS: Final = {".pdf": "pdf", ".html": "html", ".htm": "html", ".docx": "docx"}
EXTRACTED_SUFFIXES: Final = frozenset(EXTRACTED_FORMATS)
#: Bumped when extraction changes, so that unchanged files of these formats are re-extracted once.
EXTRACTOR_VERSION: Final = "1"

#: Not text a reader reads as the page's content (`nav`: menus, repeated on every page of a site).
_DROPPED_HTML: Final = ("script", "style", "template", "noscript", "svg", "head", "nav")
_BLOCK_HTML: Final = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "aside",
        "blockquote",
        "pre",
        "table",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "figure",
        "figcaption",
        "form",
        "hr",
        "address",
        "details",
        "summary",
    }
)
_HEADING_STYLE = re.compile(r"^heading\s*([1-6])$", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\f\v\u00a0\u3000]+")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass(frozen=True, slots=True)
class Extracted:
    """The text of a PDF, HTML or Word file."""

    text: str
    title: str | None
    markdown: bool
    """True when headings were kept as Markdown headings (chunk by heading), else plain text."""


def extract(data: bytes, suffix: str, *, label: str) -> Extracted:
    """The text of `data`, a file of type `suffix`. Raises `InvalidInputError` naming `label`."""
    kind = EXTRACTED_FORMATS.get(suffix.lower())
    if kind is None:
        raise InvalidInputError(f"{label}: no text extractor for {suffix!r}")
    # The libraries warn about odd input (a stray byte, a guessed encoding); that is not an error of
    # ours, and under warnings-as-errors it would abort a file that reads fine.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if kind == "pdf":
                return _pdf(data, label)
            if kind == "html":
                return _html(data)
            return _docx(data)
        except InvalidInputError:
            raise
        except Exception as exc:  # each library raises its own (and plain ValueError/KeyError)
            name = {"pdf": "PDF", "html": "HTML", "docx": "Word (.docx)"}[kind]
            raise InvalidInputError(f"{label}: not a readable {name} file: {_reason(exc)}") from exc


def expanded_size(data: bytes, suffix: str) -> int:
    """Bytes the file expands to when read: a `.docx` is a zip, so its members' size; else its size.

    Checked against the size limit before parsing, so a small zip bomb is refused unopened.
    """
    if suffix.lower() != ".docx":
        return len(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            return sum(member.file_size for member in package.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return len(data)  # not a zip: `extract` reports it with its reason


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _tidy(text: str) -> str:
    """One space between words, no trailing spaces, at most one blank line in a row."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


# --------------------------------------------------------------------------- PDF


def _pdf(data: bytes, label: str) -> Extracted:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    # An owner password alone still lets anyone read: pypdf opens those with the empty password.
    if reader.is_encrypted and not reader.decrypt(""):
        raise InvalidInputError(f"{label}: encrypted PDF (it needs a password to read)")
    pages = [_tidy(page.extract_text() or "") for page in reader.pages]
    metadata = reader.metadata
    title = metadata.title if metadata is not None else None
    return Extracted(
        "\n\n".join(page for page in pages if page),
        title.strip() if isinstance(title, str) and title.strip() else None,
        markdown=False,
    )


# --------------------------------------------------------------------------- HTML


def _html(data: bytes) -> Extracted:
    from bs4 import BeautifulSoup, Tag

    soup = BeautifulSoup(data, "html.parser")
    title_tag = soup.find("title")
    title = title_tag.get_text(" ", strip=True) if isinstance(title_tag, Tag) else None
    for name in _DROPPED_HTML:
        for tag in soup.find_all(name):
            tag.decompose()
    for tag in soup.find_all(re.compile(r"^h[1-6]$")):
        level = int(tag.name[1])
        text = " ".join(tag.get_text(" ", strip=True).split())
        tag.replace_with(f"\n\n{'#' * level} {text}\n\n" if text else "\n")
    for tag in soup.find_all("br"):
        tag.replace_with("\n")
    for tag in soup.find_all("li"):
        tag.insert_before("\n- ")
    for tag in soup.find_all(["td", "th"]):
        tag.insert_after(" | ")
    for tag in soup.find_all("tr"):
        tag.insert_after("\n")
    for tag in soup.find_all(_BLOCK_HTML):
        tag.insert_before("\n\n")
        tag.insert_after("\n\n")
    text = "\n".join(line.rstrip(" |") for line in soup.get_text().split("\n"))
    return Extracted(_tidy(text), title or None, markdown=True)


# --------------------------------------------------------------------------- Word


def _docx(data: bytes) -> Extracted:
    import docx
    from docx.table import Table

    document = docx.Document(io.BytesIO(data))
    blocks: list[str] = []
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            rows: list[str] = []
            for row in block.rows:
                # A merged cell is repeated once per grid column it spans: keep it once.
                cells = [" ".join(cell.text.split()) for cell in row.cells]
                kept = [c for i, c in enumerate(cells) if c and (i == 0 or c != cells[i - 1])]
                if kept:
                    rows.append(" | ".join(kept))
            if rows:
                blocks.append("\n".join(rows))  # one table, one paragraph: its rows chunk together
            continue
        text = block.text.strip()
        if not text:
            continue
        style = block.style.name if block.style is not None else ""
        heading = _HEADING_STYLE.match(style or "")
        level = 1 if style == "Title" else int(heading.group(1)) if heading else 0
        blocks.append(f"{'#' * level} {text}" if level else text)
    title = (document.core_properties.title or "").strip() or None
    return Extracted(_tidy("\n\n".join(blocks)), title, markdown=True)


__all__ = [
    "EXTRACTED_FORMATS",
    "EXTRACTED_SUFFIXES",
    "EXTRACTOR_VERSION",
    "Extracted",
    "expanded_size",
    "extract",
]

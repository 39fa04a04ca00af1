"""The payload layout of a chunk's point, the same on both backends (see `knowledge.index`).

Split from `knowledge.index` (which re-exports every name here): what a point holds and how a
`Chunk`, a `DocumentMeta` or an `IndexedDocument` is read back from it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from groundgate.knowledge.documents import HEADING_SEPARATOR, Chunk, DocumentMeta
from groundgate.knowledge.terms import extract_identifiers, title_keys
from groundgate.text.instructions import find_instructions
from groundgate.text.lexicon import Lexicon, default_lexicon

#: Version of the payload layout, stored in every point. 2: `instructions`. 3: `aliases`, `has_dense`.
#: 4: `path`.
LAYOUT_VERSION: Final = 4
#: `f_tenant` of documents without a tenant: visible to every tenant.
SHARED_TENANT: Final = "__shared__"
OPEN_START: Final = 0
OPEN_END: Final = 100_000_000
TENANT_FIELD: Final = "f_tenant"
#: Most lexicon translations added to a chunk's search text.
MAX_HEAD_TRANSLATIONS: Final = 24

_NAMESPACE: Final = uuid.UUID("6f1c8a52-2d0e-5c43-9d64-5b0b5e3c1a77")


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    """One document as the index holds it (read back from its points)."""

    meta: DocumentMeta
    """Its metadata (`meta.path` is None here: the path is `path`)."""
    path: str | None
    """Absolute path of the file it was read from; None when indexed before paths were recorded."""
    chunks: int = 0
    """Chunks indexed."""
    has_dense: bool = False

    @property
    def doc_id(self) -> str:
        return self.meta.doc_id


def point_id(chunk_id: str) -> str:
    """The Qdrant point id of a chunk: UUIDv5 of the chunk id."""
    return str(uuid.uuid5(_NAMESPACE, chunk_id))


def lower_values(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(v.strip().lower() for v in values if v and v.strip()))


def chunk_search_text(chunk: Chunk, *, lexicon: Lexicon | None = None) -> str:
    """What BM25 and dense vectors are computed from: title, aliases, heading path, their lexicon
    translations (from `lexicon`, default the bundled one), then the text."""
    meta = chunk.meta
    head = chunk.heading or meta.title or ""
    if meta.title and head and not head.startswith(meta.title):
        head = f"{meta.title}{HEADING_SEPARATOR}{head}"
    if meta.aliases:
        head = f"{head} ({'; '.join(meta.aliases)})" if head else "; ".join(meta.aliases)
    if not head:
        return chunk.text
    words = (lexicon if lexicon is not None else default_lexicon()).translations(
        head, limit=MAX_HEAD_TRANSLATIONS
    )
    if words:
        head = f"{head}\n{'; '.join(words)}"
    return f"{head}\n{chunk.text}"


def chunk_payload(chunk: Chunk, *, search_text: str | None = None, has_dense: bool = False) -> dict[str, Any]:
    """The payload of a chunk's point (same on both backends)."""
    meta = chunk.meta
    # The BM25 input (computed once by the caller, else here); extraction is cached.
    identifiers = extract_identifiers(search_text if search_text is not None else chunk_search_text(chunk))
    payload: dict[str, Any] = {
        "layout": LAYOUT_VERSION,
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "ordinal": chunk.ordinal,
        "text": chunk.text,
        "start": chunk.start,
        "end": chunk.end,
        "heading": chunk.heading,
        "source": meta.source,
        "title": meta.title,
        "authority": meta.authority,
        "kind": meta.kind,
        "version": meta.version,
        "effective_from": meta.effective_from.isoformat() if meta.effective_from else None,
        "effective_to": meta.effective_to.isoformat() if meta.effective_to else None,
        "scopes": list(meta.scopes),
        "tenant": meta.tenant,
        "content_hash": meta.content_hash,
        "path": meta.path,
        TENANT_FIELD: meta.tenant or SHARED_TENANT,
        "f_kind": meta.kind.strip().lower() if meta.kind else None,
        "f_authority": meta.authority.strip().lower() if meta.authority else None,
        "f_scopes": lower_values(meta.scopes),
        "f_from": meta.effective_from.toordinal() if meta.effective_from else OPEN_START,
        "f_to": meta.effective_to.toordinal() if meta.effective_to else OPEN_END,
        "identifiers": list(identifiers),
        "title_keys": title_keys(
            [meta.title, *meta.aliases, *(h.split(HEADING_SEPARATOR)[-1] for h in chunk.headings)]
        ),
        "has_dense": has_dense,
    }
    if meta.aliases:
        payload["aliases"] = list(meta.aliases)
    if chunk.instruction_spans:
        payload["instructions"] = [offset for span in chunk.instruction_spans for offset in span]
    return payload


def _a_date(value: object) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) and value else None


#: The payload fields `documents()` reads from every point (not the text: it is the bulk).
DOCUMENT_FIELDS: Final = (
    "doc_id",
    "ordinal",
    "source",
    "path",
    "title",
    "authority",
    "kind",
    "version",
    "effective_from",
    "effective_to",
    "scopes",
    "tenant",
    "content_hash",
    "aliases",
    "has_dense",
)


def meta_from_payload(payload: dict[str, Any]) -> DocumentMeta:
    """The document metadata stored in a point's payload (`path` left out: see the module docs)."""
    return DocumentMeta(
        doc_id=str(payload["doc_id"]),
        source=str(payload.get("source") or payload["doc_id"]),
        title=payload.get("title"),
        authority=payload.get("authority"),
        kind=payload.get("kind"),
        version=payload.get("version"),
        effective_from=_a_date(payload.get("effective_from")),
        effective_to=_a_date(payload.get("effective_to")),
        scopes=tuple(payload.get("scopes") or ()),
        tenant=payload.get("tenant"),
        content_hash=str(payload.get("content_hash") or ""),
        aliases=tuple(str(a) for a in payload.get("aliases") or ()),
    )


def chunk_from_payload(payload: dict[str, Any]) -> Chunk:
    """Rebuild a chunk from its point payload."""
    meta = meta_from_payload(payload)
    text = str(payload["text"])
    if int(payload.get("layout") or 1) >= 2:
        flat = [int(v) for v in payload.get("instructions") or ()]
        spans = tuple(zip(flat[::2], flat[1::2], strict=True))
    else:  # indexed before chunks recorded their instructions: look now
        spans = tuple((span.start, span.end) for span in find_instructions(text))
    return Chunk(
        chunk_id=str(payload["chunk_id"]),
        doc_id=meta.doc_id,
        ordinal=int(payload.get("ordinal", 0)),
        text=text,
        start=int(payload.get("start", 0)),
        end=int(payload.get("end", 0)),
        heading=payload.get("heading"),
        meta=meta,
        instruction_spans=spans,
    )


def indexed_document(payload: dict[str, Any], *, chunks: int) -> IndexedDocument:
    path = payload.get("path")
    return IndexedDocument(
        meta=meta_from_payload(payload),
        path=path if isinstance(path, str) and path else None,
        chunks=chunks,
        has_dense=bool(payload.get("has_dense")),
    )


__all__ = [
    "DOCUMENT_FIELDS",
    "LAYOUT_VERSION",
    "MAX_HEAD_TRANSLATIONS",
    "OPEN_END",
    "OPEN_START",
    "SHARED_TENANT",
    "TENANT_FIELD",
    "IndexedDocument",
    "chunk_from_payload",
    "chunk_payload",
    "chunk_search_text",
    "indexed_document",
    "lower_values",
    "meta_from_payload",
    "point_id",
]

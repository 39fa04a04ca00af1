"""The knowledge index: one interface, one Qdrant collection layout, two deployments.

`KnowledgeIndex` is what ingestion and the `lookup_knowledge` tool use. Two implementations share
every line of search logic (`QdrantKnowledgeIndex`) and differ only in how they talk to the engine:

- `EdgeKnowledgeIndex` (`knowledge.edge`): Qdrant Edge, the engine in-process, a shard directory
  under the data directory. The default.
- `ServerKnowledgeIndex` (`knowledge.server`): a Qdrant server or cluster by URL via `qdrant-client`.

## Collection layout (both backends)

| name | kind | what |
|---|---|---|
| `bm25` | sparse vector, `Modifier.IDF` | BM25 (see `knowledge.sparse`) of title + heading path + text |
| `dense` | dense vector, cosine (optional) | only when a `DenseEncoder` is configured |
| `doc_id` | keyword index | delete / replace a document |
| `f_tenant` | keyword index (`is_tenant`) | the tenant, or `__shared__` for documents every tenant sees |
| `f_kind`, `f_authority`, `f_scopes` | keyword indexes | lower-cased governance values (`f_scopes` a list) |
| `f_from`, `f_to` | integer range indexes | effective dates as day ordinals (open ends: 0 and 10^8) |
| `identifiers`, `title_keys` | keyword indexes | the L0 keys (`knowledge.terms`) |

Point ids are UUIDv5 of the chunk id. The payload also keeps the chunk (text, offsets, heading path) and
the document's metadata and content hash (lists are few: they cost most to convert on the edge).

## Search

Governance filters run **inside the engine, before ranking**, in every stage: tenant (a tenant sees
its own documents and shared ones, never another tenant's), `as_of` (`effective_from ≤ as_of ≤
effective_to`, so superseded versions drop out), and optional kinds / authorities / scopes.

1. **L0, exact keys.** Identifiers and title/heading keys found in the query are matched against the
   `identifiers` / `title_keys` keyword indexes (a filtered query, BM25-ordered, topped up by a
   filter-only query for exact hits that share no BM25 term). L0 hits come first, ranked by the number
   of identifiers matched, then title keys matched, then BM25. Hits on a title or heading alone take
   at most half of `limit`, so naming a document does not crowd out ranked passages.
2. **L1, ranked relevance.** BM25 over the sparse vector; with a `DenseEncoder`, BM25 and dense
   prefetches fused by reciprocal rank fusion in the engine. L0 hits are not repeated.

## Relevance levels

BM25 scores are not comparable across corpora and queries, so levels combine two bounded measures:
*coverage* (share of the query's BM25 terms present in the chunk) and *relative score* (score over the
best L1 score of this search).

| level | rule |
|---|---|
| `high` | an L0 identifier hit; or coverage ≥ 0.6 and relative score ≥ 0.5 |
| `medium` | an L0 title/heading hit; or coverage ≥ 0.3; or relative score ≥ 0.5 with some coverage |
| `low` | anything else (e.g. one common term, or a dense-only neighbour) |
"""

from __future__ import annotations

import functools
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from types import TracebackType
from typing import Any, Final, ParamSpec, Protocol, Self, TypeVar, runtime_checkable

from groundgate.contracts import RetrievalLayer
from groundgate.errors import RunError
from groundgate.knowledge.documents import Chunk, DocumentMeta
from groundgate.knowledge.sparse import Bm25Encoder, SparseVec
from groundgate.knowledge.terms import extract_identifiers, title_candidates, title_keys

#: Version of the payload layout, stored in every point.
LAYOUT_VERSION: Final = 1
#: Default collection name on a Qdrant server.
DEFAULT_COLLECTION: Final = "groundgate_knowledge"
#: `f_tenant` of documents without a tenant: visible to every tenant.
SHARED_TENANT: Final = "__shared__"
OPEN_START: Final = 0
OPEN_END: Final = 100_000_000

HIGH: Final = "high"
MEDIUM: Final = "medium"
LOW: Final = "low"

P = ParamSpec("P")
R = TypeVar("R")

_NAMESPACE: Final = uuid.UUID("6f1c8a52-2d0e-5c43-9d64-5b0b5e3c1a77")

#: Fields with a keyword payload index, and those with an integer range index.
KEYWORD_FIELDS: Final = ("doc_id", "f_kind", "f_authority", "f_scopes", "identifiers", "title_keys")
TENANT_FIELD: Final = "f_tenant"
RANGE_FIELDS: Final = ("f_from", "f_to")


class KnowledgeIndexError(RunError):
    """The search engine failed (unreachable server, corrupt shard, incompatible layout)."""


# --------------------------------------------------------------------------- public types


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """Governance filters, applied inside the engine before ranking."""

    tenant: str | None = None
    """The caller's tenant. None: shared documents only."""
    as_of: date | None = None
    """Only chunks in effect on this day. None: no date filter."""
    kinds: tuple[str, ...] = ()
    authorities: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    """Each non-empty tuple keeps only chunks with one of these values (case-insensitive)."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One retrieved chunk."""

    chunk: Chunk
    score: float
    """BM25 score (L0 hits found by filter only: 0.0; with dense fusion: the RRF score)."""
    layer: RetrievalLayer
    relevance: str
    """`high`, `medium` or `low` (see the module docs)."""
    matched: tuple[str, ...] = ()
    """For L0: the query's identifiers / title spans that matched, as the query spelled them."""
    coverage: float = 0.0
    """Share of the query's BM25 terms present in the chunk."""


class DenseEncoder(Protocol):
    """An embedding endpoint. When configured, dense vectors are fused with BM25 in L1."""

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@runtime_checkable
class KnowledgeIndex(Protocol):
    """What ingestion and the knowledge tool need from a search backend."""

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        """Insert or replace chunks (by chunk id)."""
        ...

    def delete_document(self, doc_id: str) -> None:
        """Remove every chunk of a document."""
        ...

    def document_hash(self, doc_id: str) -> str | None:
        """The content hash the document was indexed with, or None when it is not indexed."""
        ...

    def search(self, query: str, *, filters: SearchFilter, limit: int = 5) -> list[SearchHit]:
        """L0 exact hits first, then L1 ranked hits; at most `limit`."""
        ...

    def count(self) -> int:
        """Number of chunks indexed."""
        ...

    def flush(self) -> None:
        """Make what was written durable (and compact it where the engine needs that)."""
        ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------- payload layout


def point_id(chunk_id: str) -> str:
    """The Qdrant point id of a chunk: UUIDv5 of the chunk id."""
    return str(uuid.uuid5(_NAMESPACE, chunk_id))


def _lower(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(v.strip().lower() for v in values if v and v.strip()))


def chunk_search_text(chunk: Chunk) -> str:
    """What BM25 and dense vectors are computed from: title, heading path and text."""
    head = chunk.heading or chunk.meta.title or ""
    if chunk.meta.title and head and not head.startswith(chunk.meta.title):
        head = f"{chunk.meta.title} > {head}"
    return f"{head}\n{chunk.text}" if head else chunk.text


def chunk_payload(chunk: Chunk) -> dict[str, Any]:
    """The payload of a chunk's point (same on both backends)."""
    meta = chunk.meta
    identifiers = extract_identifiers(chunk_search_text(chunk))  # the BM25 input: computed once, cached
    return {
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
        TENANT_FIELD: meta.tenant or SHARED_TENANT,
        "f_kind": meta.kind.strip().lower() if meta.kind else None,
        "f_authority": meta.authority.strip().lower() if meta.authority else None,
        "f_scopes": _lower(meta.scopes),
        "f_from": meta.effective_from.toordinal() if meta.effective_from else OPEN_START,
        "f_to": meta.effective_to.toordinal() if meta.effective_to else OPEN_END,
        "identifiers": list(identifiers),
        "title_keys": title_keys([meta.title, *(h.split(" > ")[-1] for h in chunk.headings)]),
    }


def chunk_from_payload(payload: dict[str, Any]) -> Chunk:
    """Rebuild a chunk from its point payload."""

    def a_date(value: object) -> date | None:
        return date.fromisoformat(value) if isinstance(value, str) and value else None

    meta = DocumentMeta(
        doc_id=str(payload["doc_id"]),
        source=str(payload.get("source") or payload["doc_id"]),
        title=payload.get("title"),
        authority=payload.get("authority"),
        kind=payload.get("kind"),
        version=payload.get("version"),
        effective_from=a_date(payload.get("effective_from")),
        effective_to=a_date(payload.get("effective_to")),
        scopes=tuple(payload.get("scopes") or ()),
        tenant=payload.get("tenant"),
        content_hash=str(payload.get("content_hash") or ""),
    )
    return Chunk(
        chunk_id=str(payload["chunk_id"]),
        doc_id=meta.doc_id,
        ordinal=int(payload.get("ordinal", 0)),
        text=str(payload["text"]),
        start=int(payload.get("start", 0)),
        end=int(payload.get("end", 0)),
        heading=payload.get("heading"),
        meta=meta,
    )


# --------------------------------------------------------------------------- engine-neutral filters


@dataclass(frozen=True, slots=True)
class AnyOf:
    """A keyword field holds one of these values."""

    field: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Between:
    """An integer field lies within [gte, lte]."""

    field: str
    gte: int | None = None
    lte: int | None = None


Condition = AnyOf | Between


@dataclass(frozen=True, slots=True)
class EngineFilter:
    """All of `must`, and at least one of `should` when it is not empty."""

    must: tuple[Condition, ...] = ()
    should: tuple[Condition, ...] = ()


def governance_filter(filters: SearchFilter) -> EngineFilter:
    """The governance conditions of `filters` as an engine filter."""
    tenants = (filters.tenant, SHARED_TENANT) if filters.tenant else (SHARED_TENANT,)
    must: list[Condition] = [AnyOf(TENANT_FIELD, tenants)]
    if filters.as_of is not None:
        day = filters.as_of.toordinal()
        must += [Between("f_from", lte=day), Between("f_to", gte=day)]
    for name, values in (
        ("f_kind", filters.kinds),
        ("f_authority", filters.authorities),
        ("f_scopes", filters.scopes),
    ):
        if values:
            must.append(AnyOf(name, tuple(_lower(values))))
    return EngineFilter(must=tuple(must))


@dataclass(frozen=True, slots=True)
class EngineHit:
    """A point as the engine returned it."""

    payload: dict[str, Any]
    score: float
    terms: frozenset[int] = frozenset()
    """The term ids of its stored BM25 vector (returned with the point, to measure coverage)."""


@dataclass(frozen=True, slots=True)
class PreparedPoint:
    """A chunk ready for the engine."""

    id: str
    sparse: SparseVec
    dense: list[float] | None
    payload: dict[str, Any]


# --------------------------------------------------------------------------- shared implementation


@dataclass(slots=True)
class _Candidate:
    hit: EngineHit
    id_matches: list[str] = field(default_factory=list)
    title_matches: list[str] = field(default_factory=list)


class QdrantKnowledgeIndex(ABC):
    """Search logic shared by the embedded and the server backend; subclasses talk to the engine."""

    #: Points per engine write.
    batch_size: int = 256

    def __init__(self, *, dense: DenseEncoder | None = None) -> None:
        self._bm25 = Bm25Encoder()
        self._dense = dense

    # -- engine primitives, one implementation per backend

    @abstractmethod
    def _write(self, points: Sequence[PreparedPoint]) -> None: ...

    @abstractmethod
    def _delete(self, flt: EngineFilter) -> None: ...

    @abstractmethod
    def _query(
        self, *, sparse: SparseVec | None, dense: list[float] | None, flt: EngineFilter, limit: int
    ) -> list[EngineHit]:
        """Sparse, dense, fused (both given, RRF) or filter-only (neither) query, filtered in the engine.

        Hits carry their payload and the term ids of their stored BM25 vector.
        """

    @abstractmethod
    def _count(self) -> int: ...

    @abstractmethod
    def _payload(self, point: str) -> dict[str, Any] | None: ...

    @abstractmethod
    def close(self) -> None: ...

    def flush(self) -> None:  # noqa: B027 - optional hook, a no-op where writes are durable on return
        """Make writes durable; a no-op where the engine acknowledges durable writes."""

    # -- KnowledgeIndex

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        for offset in range(0, len(chunks), self.batch_size):
            batch = chunks[offset : offset + self.batch_size]
            texts = [chunk_search_text(c) for c in batch]
            denses: list[list[float]] | list[None] = (
                self._dense.embed(texts) if self._dense is not None else [None] * len(batch)
            )
            self._write(
                [
                    PreparedPoint(point_id(c.chunk_id), self._bm25.document(t), d, chunk_payload(c))
                    for c, t, d in zip(batch, texts, denses, strict=True)
                ]
            )

    def delete_document(self, doc_id: str) -> None:
        self._delete(EngineFilter(must=(AnyOf("doc_id", (doc_id,)),)))

    def document_hash(self, doc_id: str) -> str | None:
        payload = self._payload(point_id(f"{doc_id}#0"))
        return str(payload["content_hash"]) if payload and payload.get("content_hash") else None

    def count(self) -> int:
        return self._count()

    def search(self, query: str, *, filters: SearchFilter, limit: int = 5) -> list[SearchHit]:
        query = query.strip()
        if not query or limit < 1:
            return []
        gov = governance_filter(filters)
        sparse = self._bm25.query(query)
        query_terms = frozenset(sparse.indices)
        dense = self._dense.embed([query])[0] if self._dense is not None else None

        l0 = self._l0(query, sparse, gov, limit)
        seen = {c.hit.payload["chunk_id"] for c in l0}
        l1: list[EngineHit] = []
        if len(l0) < limit and (sparse or dense is not None):
            found = self._query(sparse=sparse or None, dense=dense, flt=gov, limit=limit + len(l0))
            l1 = [h for h in found if h.payload["chunk_id"] not in seen][: limit - len(l0)]

        top = max((h.score for h in l1), default=0.0)
        hits: list[SearchHit] = []
        for candidate in l0:
            chunk = chunk_from_payload(candidate.hit.payload)
            coverage = _coverage(query_terms, candidate.hit.terms)
            level = (
                HIGH
                if candidate.id_matches
                else _stronger(MEDIUM, _level(coverage, candidate.hit.score, top))
            )
            hits.append(
                SearchHit(
                    chunk=chunk,
                    score=candidate.hit.score,
                    layer=RetrievalLayer.L0,
                    relevance=level,
                    matched=tuple(dict.fromkeys(candidate.id_matches + candidate.title_matches)),
                    coverage=coverage,
                )
            )
        for hit in l1:
            chunk = chunk_from_payload(hit.payload)
            coverage = _coverage(query_terms, hit.terms)
            hits.append(
                SearchHit(
                    chunk=chunk,
                    score=hit.score,
                    layer=RetrievalLayer.L1,
                    relevance=_level(coverage, hit.score, top),
                    coverage=coverage,
                )
            )
        return hits

    # -- internals

    def _l0(self, query: str, sparse: SparseVec, gov: EngineFilter, limit: int) -> list[_Candidate]:
        identifiers = extract_identifiers(query)
        titles = title_candidates(query)
        if not identifiers and not titles:
            return []
        should: list[Condition] = []
        if identifiers:
            should.append(AnyOf("identifiers", tuple(identifiers)))
        if titles:
            should.append(AnyOf("title_keys", tuple(titles)))
        flt = EngineFilter(must=gov.must, should=tuple(should))
        cap = max(4 * limit, 20)
        found = self._query(sparse=sparse, dense=None, flt=flt, limit=cap) if sparse else []
        if not found:
            # An exact key whose chunk shares no BM25 term with the query (say a backticked number,
            # which the tokenizer drops): found by the filter alone. When BM25 found any exact hit,
            # this cannot happen for the others, since every key also enters BM25 as one term.
            found = [
                EngineHit(h.payload, 0.0, h.terms)
                for h in self._query(sparse=None, dense=None, flt=flt, limit=cap)
            ]

        candidates: list[_Candidate] = []
        for hit in found:
            stored_ids = set(hit.payload.get("identifiers") or ())
            stored_titles = set(hit.payload.get("title_keys") or ())
            candidates.append(
                _Candidate(
                    hit,
                    [spelling for key, spelling in identifiers.items() if key in stored_ids],
                    [span for key, span in titles.items() if key in stored_titles],
                )
            )
        candidates.sort(key=lambda c: (-len(c.id_matches), -len(c.title_matches), -c.hit.score))
        by_identifier = [c for c in candidates if c.id_matches][:limit]
        by_title = [c for c in candidates if not c.id_matches][: max(1, limit // 2)]
        return (by_identifier + by_title)[:limit]

    # -- context manager

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


_ORDER: Final = {LOW: 0, MEDIUM: 1, HIGH: 2}


def _coverage(query_terms: frozenset[int], chunk_terms: frozenset[int]) -> float:
    return len(query_terms & chunk_terms) / len(query_terms) if query_terms else 0.0


def _stronger(a: str, b: str) -> str:
    return a if _ORDER[a] >= _ORDER[b] else b


def _level(coverage: float, score: float, top: float) -> str:
    relative = score / top if top > 0 else (1.0 if score > 0 else 0.0)
    if coverage >= 0.6 and relative >= 0.5:
        return HIGH
    if coverage >= 0.3 or (relative >= 0.5 and coverage > 0):
        return MEDIUM
    return LOW


def translate_errors(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: engine exceptions become `KnowledgeIndexError` naming the operation."""

    def wrap(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def inner(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return function(*args, **kwargs)
            except KnowledgeIndexError:
                raise
            except Exception as exc:  # the engines raise plain Exception subclasses
                raise KnowledgeIndexError(f"knowledge index: {what} failed: {exc}") from exc

        return inner

    return wrap


__all__ = [
    "DEFAULT_COLLECTION",
    "HIGH",
    "KEYWORD_FIELDS",
    "LAYOUT_VERSION",
    "LOW",
    "MEDIUM",
    "RANGE_FIELDS",
    "SHARED_TENANT",
    "TENANT_FIELD",
    "AnyOf",
    "Between",
    "DenseEncoder",
    "EngineFilter",
    "EngineHit",
    "KnowledgeIndex",
    "KnowledgeIndexError",
    "PreparedPoint",
    "QdrantKnowledgeIndex",
    "SearchFilter",
    "SearchHit",
    "chunk_from_payload",
    "chunk_payload",
    "chunk_search_text",
    "governance_filter",
    "point_id",
    "translate_errors",
]

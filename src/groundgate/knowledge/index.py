"""The knowledge index: one interface, one Qdrant collection layout, two deployments.

`KnowledgeIndex` is what ingestion and the `lookup_knowledge` tool use. Two implementations share
every line of search logic (`QdrantKnowledgeIndex`) and differ only in how they talk to the engine:

- `EdgeKnowledgeIndex` (`knowledge.edge`): Qdrant Edge, the engine in-process, a shard directory
  under the data directory. The default.
- `ServerKnowledgeIndex` (`knowledge.server`): a Qdrant server or cluster by URL via `qdrant-client`.

## Collection layout (both backends)

| name | kind | what |
|---|---|---|
| `bm25` | sparse vector, `Modifier.IDF` | BM25 (see `knowledge.sparse`) of the search text (below) |
| `dense` | dense vector, cosine (optional) | only when a `DenseEncoder` is configured |
| `doc_id` | keyword index | delete / replace a document |
| `f_tenant` | keyword index (`is_tenant`) | the tenant, or `__shared__` for documents every tenant sees |
| `f_kind`, `f_authority`, `f_scopes` | keyword indexes | lower-cased governance values (`f_scopes` a list) |
| `f_from`, `f_to` | integer range indexes | effective dates as day ordinals (open ends: 0 and 10^8) |
| `identifiers`, `title_keys` | keyword indexes | the L0 keys (`knowledge.terms`) |

The search text of a chunk is its title, aliases and heading path, the lexicon translations of those
(`knowledge.lexicon`: `差旅费用报销标准 > 住宿标准` also reads `travel expense … hotel limit`), then
the chunk's text. Point ids are UUIDv5 of the chunk id. The payload also keeps the chunk (text, offsets, heading path) and
the document's metadata and content hash (lists are few: they cost most to convert on the edge).
`has_dense` (layout 3) says whether the point got a dense vector (an embedding endpoint that failed
during ingestion leaves it out: the document is re-indexed when the endpoint works again).
`instructions` (layout 2) holds the chunk's instruction-like sentences as flat `[start, end, ...]`
offsets, only when there are any; chunks of layout 1 (indexed before) are scanned when read.
`path` (layout 4) is the absolute path of the file the document was read from: ingestion uses it to
refuse a `doc_id` already taken by a file of another folder, and to remove the documents whose files
are gone. It is never rebuilt into a `Chunk`, so search results do not carry server paths.

## Documents

`documents()` lists what is indexed, one `IndexedDocument` per `doc_id` (its metadata, file path and
number of chunks), by scrolling every point with a few payload fields; `document(doc_id)` reads one
(its chunk `#0`). `delete_document` removes every chunk of one.

## Search

Governance filters run **inside the engine, before ranking**, in every stage: tenant (a tenant sees
its own documents and shared ones, never another tenant's), `as_of` (`effective_from ≤ as_of ≤
effective_to`, so superseded versions drop out), and optional kinds / authorities / scopes.

1. **L0, exact keys.** Identifiers and title/heading keys found in the query are matched against the
   `identifiers` / `title_keys` keyword indexes (a filtered query, BM25-ordered, topped up by a
   filter-only query for exact hits that share no BM25 term). L0 hits come first, ranked by the number
   of identifiers matched, then title keys matched, then BM25. Hits on a title or heading alone take
   at most half of `limit`, so naming a document does not crowd out ranked passages.
2. **L1, ranked relevance.** BM25 over the sparse vector, the query expanded through the bilingual
   lexicon (`knowledge.sparse`); with a `DenseEncoder`, BM25 and dense prefetches fused by reciprocal
   rank fusion in the engine. L0 hits are not repeated.

When the embedding endpoint fails at query time (timeout, HTTP error, a vector of the wrong size:
`groundgate.errors.ModelError`), the search runs on BM25 alone and says so in `SearchResults.notes`;
the endpoint is then left alone for `DENSE_COOLDOWN_SECONDS`, so a dead endpoint does not cost every
query its timeout.

## Relevance levels

BM25 scores are not comparable across corpora and queries, so levels combine two bounded measures:
*coverage* (share of the query's BM25 terms present in the chunk, directly or through a lexicon
alternate) and *relative score* (score over the
best L1 score of this search).

| level | rule |
|---|---|
| `high` | an L0 identifier hit; or coverage ≥ 0.6 and relative score ≥ 0.5 |
| `medium` | an L0 title/heading hit; or coverage ≥ 0.3; or relative score ≥ 0.5 with some coverage |
| `low` | anything else (e.g. one common term, or a dense-only neighbour); and any passage that holds none of the labelled names the query asks about (`Team C`: see `terms.label_terms`) |
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from types import TracebackType
from typing import Any, Final, ParamSpec, Protocol, Self, TypeVar, runtime_checkable

from groundgate.contracts import RetrievalLayer
from groundgate.errors import KnowledgeIndexError, ModelError
from groundgate.knowledge.documents import Chunk
from groundgate.knowledge.payload import (
    DOCUMENT_FIELDS,
    LAYOUT_VERSION,
    SHARED_TENANT,
    TENANT_FIELD,
    IndexedDocument,
    chunk_from_payload,
    chunk_payload,
    chunk_search_text,
    indexed_document,
    lower_values,
    meta_from_payload,
    point_id,
)
from groundgate.knowledge.sparse import Bm25Encoder, QueryTerms, SparseVec
from groundgate.knowledge.terms import extract_identifiers, title_candidates
from groundgate.text.lexicon import Lexicon, default_lexicon

#: Default collection name on a Qdrant server.
DEFAULT_COLLECTION: Final = "groundgate_knowledge"

#: After the embedding endpoint failed at query time, searches skip it for this long.
DENSE_COOLDOWN_SECONDS: Final = 30.0

HIGH: Final = "high"
MEDIUM: Final = "medium"
LOW: Final = "low"

_log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

#: Points per page when `documents()` scrolls the index.
SCROLL_PAGE: Final = 1024

#: Fields with a keyword payload index, and those with an integer range index.
KEYWORD_FIELDS: Final = ("doc_id", "f_kind", "f_authority", "f_scopes", "identifiers", "title_keys")
RANGE_FIELDS: Final = ("f_from", "f_to")


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


class SearchResults(list[SearchHit]):
    """The hits of one search, best first, and notes on what the search could not do.

    A plain list for every caller; `notes` say, for instance, that the dense half was skipped because
    the embedding endpoint timed out, and `expansions` which query words the lexicon translated.
    """

    def __init__(
        self,
        hits: Sequence[SearchHit] = (),
        *,
        notes: Sequence[str] = (),
        expansions: Sequence[tuple[str, tuple[str, ...]]] = (),
    ) -> None:
        super().__init__(hits)
        self.notes: tuple[str, ...] = tuple(notes)
        self.expansions: tuple[tuple[str, tuple[str, ...]], ...] = tuple(expansions)


class DenseEncoder(Protocol):
    """An embedding endpoint. When configured, dense vectors are fused with BM25 in L1.

    Both methods raise `groundgate.errors.ModelError` subclasses (never a third-party exception); the
    index then falls back to BM25 alone.
    """

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors of passages (at ingestion), in order."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of one query (at search time, where a shorter timeout applies)."""
        ...


@dataclass(frozen=True, slots=True)
class UpsertReport:
    """What one `upsert` wrote."""

    chunks: int = 0
    without_dense: int = 0
    """Chunks written without a dense vector because the embedding endpoint failed."""
    dense_error: str | None = None
    """Why, when it failed."""


@runtime_checkable
class KnowledgeIndex(Protocol):
    """What ingestion and the knowledge tool need from a search backend."""

    def upsert(self, chunks: Sequence[Chunk]) -> UpsertReport | None:
        """Insert or replace chunks (by chunk id)."""
        ...

    def delete_document(self, doc_id: str) -> None:
        """Remove every chunk of a document."""
        ...

    def document_hash(self, doc_id: str) -> str | None:
        """The content hash the document was indexed with, or None when it is not indexed."""
        ...

    def document(self, doc_id: str) -> IndexedDocument | None:
        """The indexed document `doc_id`, or None."""
        ...

    def documents(self) -> list[IndexedDocument]:
        """Every indexed document, by `doc_id`, with its chunk count."""
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
            must.append(AnyOf(name, tuple(lower_values(values))))
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

    def __init__(
        self,
        *,
        dense: DenseEncoder | None = None,
        lexicon: Lexicon | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lexicon = lexicon if lexicon is not None else default_lexicon()
        self._bm25 = Bm25Encoder(self._lexicon)
        self._dense = dense
        self._clock = clock
        self._dense_lock = threading.Lock()
        self._dense_down: tuple[float, str] | None = None
        """(when the endpoint failed, why) after a query-time failure; cleared after the cooldown."""

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
    def _count(self, flt: EngineFilter | None = None) -> int: ...

    @abstractmethod
    def _payload(self, point: str) -> dict[str, Any] | None: ...

    @abstractmethod
    def _scroll(self, fields: Sequence[str]) -> Iterator[dict[str, Any]]:
        """The payload (only `fields`) of every point, page by page."""

    @abstractmethod
    def close(self) -> None: ...

    def flush(self) -> None:  # noqa: B027 - optional hook, a no-op where writes are durable on return
        """Make writes durable; a no-op where the engine acknowledges durable writes."""

    # -- KnowledgeIndex

    def upsert(self, chunks: Sequence[Chunk]) -> UpsertReport:
        """Write chunks; with an embedding endpoint that fails, they are written without dense vectors."""
        without_dense = 0
        dense_error: str | None = None
        for offset in range(0, len(chunks), self.batch_size):
            batch = chunks[offset : offset + self.batch_size]
            texts = [chunk_search_text(c, lexicon=self._lexicon) for c in batch]
            denses: list[list[float]] | list[None] = [None] * len(batch)
            if self._dense is not None and dense_error is None:
                try:
                    denses = self._dense.embed(texts)
                except ModelError as exc:
                    # Keep ingesting: BM25 still finds these chunks, and `has_dense: false` makes the
                    # next ingestion re-index them once the endpoint works.
                    dense_error = f"{type(exc).__name__}: {exc}"
                    _log.warning("embedding endpoint failed during ingestion, writing BM25 only: %s", exc)
            if self._dense is not None and denses[0] is None:
                without_dense += len(batch)
            self._write(
                [
                    PreparedPoint(
                        point_id(c.chunk_id),
                        self._bm25.document(t),
                        d,
                        chunk_payload(c, search_text=t, has_dense=d is not None),
                    )
                    for c, t, d in zip(batch, texts, denses, strict=True)
                ]
            )
        return UpsertReport(chunks=len(chunks), without_dense=without_dense, dense_error=dense_error)

    def delete_document(self, doc_id: str) -> None:
        self._delete(EngineFilter(must=(AnyOf("doc_id", (doc_id,)),)))

    def document_hash(self, doc_id: str) -> str | None:
        payload = self._payload(point_id(f"{doc_id}#0"))
        if not payload or not payload.get("content_hash"):
            return None
        if self._dense is not None and not payload.get("has_dense"):
            return None  # indexed without a dense vector: re-index it now that an embedder is set
        return str(payload["content_hash"])

    def document(self, doc_id: str) -> IndexedDocument | None:
        payload = self._payload(point_id(f"{doc_id}#0"))
        if not payload or "doc_id" not in payload:
            return None
        return indexed_document(payload, chunks=self._count(EngineFilter(must=(AnyOf("doc_id", (doc_id,)),))))

    def documents(self) -> list[IndexedDocument]:
        # One pass over every point with a few small fields: the engine has no "distinct doc_id" that
        # both backends share, and a first chunk alone would not give the chunk count.
        first: dict[str, dict[str, Any]] = {}
        counts: dict[str, int] = {}
        for payload in self._scroll(DOCUMENT_FIELDS):
            doc_id = payload.get("doc_id")
            if not isinstance(doc_id, str):
                continue
            counts[doc_id] = counts.get(doc_id, 0) + 1
            known = first.get(doc_id)
            if known is None or int(payload.get("ordinal") or 0) < int(known.get("ordinal") or 0):
                first[doc_id] = payload
        return [indexed_document(first[doc_id], chunks=counts[doc_id]) for doc_id in sorted(first)]

    def count(self) -> int:
        return self._count()

    def search(self, query: str, *, filters: SearchFilter, limit: int = 5) -> SearchResults:
        query = query.strip()
        if not query or limit < 1:
            return SearchResults()
        gov = governance_filter(filters)
        terms = self._bm25.expanded_query(query)
        sparse = terms.sparse
        dense, notes = self._dense_query(query)

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
            coverage = terms.coverage(candidate.hit.terms)
            level = (
                HIGH
                if candidate.id_matches
                else _stronger(MEDIUM, _level(coverage, candidate.hit.score, top, terms, candidate.hit.terms))
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
            coverage = terms.coverage(hit.terms)
            hits.append(
                SearchHit(
                    chunk=chunk,
                    score=hit.score,
                    layer=RetrievalLayer.L1,
                    relevance=_level(coverage, hit.score, top, terms, hit.terms),
                    coverage=coverage,
                )
            )
        return SearchResults(hits, notes=notes, expansions=terms.expansions)

    def query_terms(self, query: str) -> QueryTerms:
        """The BM25 query `search` sends for `query`, lexicon expansion included (for diagnostics)."""
        return self._bm25.expanded_query(query.strip())

    # -- internals

    def _dense_query(self, query: str) -> tuple[list[float] | None, list[str]]:
        """The query's dense vector, or None and why not (the search then runs on BM25 alone)."""
        if self._dense is None:
            return None, []
        with self._dense_lock:
            down = self._dense_down
            if down is not None and self._clock() - down[0] < DENSE_COOLDOWN_SECONDS:
                return None, [f"dense search skipped: the embedding endpoint failed recently ({down[1]})"]
        try:
            vector = self._dense.embed_query(query)
        except ModelError as exc:
            reason = f"{type(exc).__name__}: {exc}"
            _log.warning("embedding endpoint failed at query time, searching BM25 only: %s", exc)
            with self._dense_lock:
                self._dense_down = (self._clock(), reason)
            return None, [f"dense search unavailable, BM25 only ({reason})"]
        with self._dense_lock:
            self._dense_down = None
        return vector, []

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


def _stronger(a: str, b: str) -> str:
    return a if _ORDER[a] >= _ORDER[b] else b


def _level(
    coverage: float,
    score: float,
    top: float,
    terms: QueryTerms | None = None,
    chunk: frozenset[int] = frozenset(),
) -> str:
    if terms is not None and terms.names_other(chunk):
        return LOW  # the question names `Team C`; a passage about Team A or B is not about it
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
    "DENSE_COOLDOWN_SECONDS",
    "DOCUMENT_FIELDS",
    "HIGH",
    "KEYWORD_FIELDS",
    "LAYOUT_VERSION",
    "LOW",
    "MEDIUM",
    "RANGE_FIELDS",
    "SCROLL_PAGE",
    "SHARED_TENANT",
    "TENANT_FIELD",
    "AnyOf",
    "Between",
    "DenseEncoder",
    "EngineFilter",
    "EngineHit",
    "IndexedDocument",
    "KnowledgeIndex",
    "KnowledgeIndexError",
    "PreparedPoint",
    "QdrantKnowledgeIndex",
    "SearchFilter",
    "SearchHit",
    "SearchResults",
    "UpsertReport",
    "chunk_from_payload",
    "chunk_payload",
    "chunk_search_text",
    "governance_filter",
    "meta_from_payload",
    "point_id",
    "translate_errors",
]

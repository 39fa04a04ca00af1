"""The embedded backend: Qdrant Edge (`qdrant-edge-py`), the Qdrant engine in-process.

One shard directory (by default `<data_dir>/knowledge/shard`) holds the collection layout described in
`knowledge.index`. Qdrant Edge provides natively everything this backend uses:

- persistence: segments and a write-ahead log in the directory; `EdgeShard.load` reopens it;
- sparse vectors with `Modifier.Idf` (BM25 completed by the engine's IDF statistics);
- BM25 embedding (`qdrant_edge.Bm25`, multilingual tokenizer) - see `knowledge.sparse`;
- payload indexes (keyword with `is_tenant`, integer ranges) and filters evaluated inside the engine
  before ranking, in every prefetch;
- prefetch + reciprocal rank fusion for the optional dense vector;
- an in-process optimizer (`EdgeShard.optimize`), run by `flush()` after bulk writes.

Reads may run from several threads at once; writes are serialised by a lock. One process owns a shard
directory at a time (its write-ahead log is locked): a second opener gets a `KnowledgeIndexError`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from groundgate.knowledge.index import (
    KEYWORD_FIELDS,
    RANGE_FIELDS,
    SCROLL_PAGE,
    TENANT_FIELD,
    AnyOf,
    Condition,
    DenseEncoder,
    EngineFilter,
    EngineHit,
    KnowledgeIndexError,
    PreparedPoint,
    QdrantKnowledgeIndex,
    translate_errors,
)
from groundgate.knowledge.sparse import DENSE_VECTOR, RRF_K, SPARSE_VECTOR, SparseVec
from groundgate.text.lexicon import Lexicon

_CONFIG_FILE = "edge_config.json"


def shard_path(data_dir: Path) -> Path:
    """Where the knowledge shard lives inside a data directory."""
    return data_dir / "knowledge" / "shard"


def _condition(condition: Condition) -> qe.FieldCondition:
    if isinstance(condition, AnyOf):
        values = list(condition.values)
        match: qe.MatchValue | qe.MatchAny = (
            qe.MatchValue(values[0]) if len(values) == 1 else qe.MatchAny(values)
        )
        return qe.FieldCondition(condition.field, match=match)
    gte = float(condition.gte) if condition.gte is not None else None
    lte = float(condition.lte) if condition.lte is not None else None
    return qe.FieldCondition(condition.field, range=qe.RangeFloat(gte=gte, lte=lte))


def _terms(vector: object) -> frozenset[int]:
    sparse = vector.get(SPARSE_VECTOR) if isinstance(vector, dict) else None
    return frozenset(sparse.indices) if isinstance(sparse, qe.SparseVector) else frozenset()


def _filter(flt: EngineFilter) -> qe.Filter:
    must: list[Any] = [_condition(c) for c in flt.must]
    should: list[Any] | None = [_condition(c) for c in flt.should] or None
    return qe.Filter(must=must or None, should=should)


SEARCH_THREADS = 1
"""Threads one search of the shard may use. One: the service already searches for several chats at
once, and the shard's own default (8 threads, whatever the machine) had them spin and preempt the
interpreter on a 2-core machine, hundreds of context switches per chat (docs/benchmarks.md,
"Service throughput"). More helps the latency of one search over a large shard on idle cores."""


class EdgeKnowledgeIndex(QdrantKnowledgeIndex):
    """`KnowledgeIndex` on a Qdrant Edge shard directory (created on first use)."""

    def __init__(
        self,
        path: Path | str,
        *,
        dense: DenseEncoder | None = None,
        lexicon: Lexicon | None = None,
        search_threads: int = SEARCH_THREADS,
    ) -> None:
        super().__init__(dense=dense, lexicon=lexicon)
        self.path = Path(path)
        self.search_threads = search_threads
        self._lock = threading.Lock()
        self._closed = False
        self._shard = self._open(dense)

    @translate_errors("opening the shard")
    def _open(self, dense: DenseEncoder | None) -> qe.EdgeShard:
        sparse = {SPARSE_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)}
        vectors = (
            {DENSE_VECTOR: qe.EdgeVectorParams(size=dense.dimension, distance=qe.Distance.Cosine)}
            if dense
            else None
        )
        threads = self.search_threads
        if (self.path / _CONFIG_FILE).exists():
            try:
                shard = qe.EdgeShard.load(
                    str(self.path), qe.EdgeConfig(sparse_vectors=sparse, max_search_threads=threads)
                )
            except Exception as exc:
                if "WouldBlock" in str(exc):  # the write-ahead log is locked by another opener
                    raise KnowledgeIndexError(
                        f"knowledge index: the shard at {self.path} is in use by another process "
                        "(stop the server, or point both at a Qdrant server URL)"
                    ) from exc
                raise
            config = (
                qe.EdgeConfig(vectors=vectors, sparse_vectors=sparse, max_search_threads=threads)
                if dense
                else None
            )
            if config is not None:  # check that the stored layout has the dense vector of this size
                shard.close()
                try:
                    shard = qe.EdgeShard.load(str(self.path), config)
                except Exception as exc:
                    raise KnowledgeIndexError(
                        f"knowledge index: the shard at {self.path} has no {DENSE_VECTOR!r} vector of size "
                        f"{dense.dimension if dense else 0}; remove it and ingest again to use this embedding "
                        f"endpoint ({exc})"
                    ) from exc
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            shard = qe.EdgeShard.create(
                str(self.path),
                qe.EdgeConfig(vectors=vectors, sparse_vectors=sparse, max_search_threads=threads),
            )
        existing = set(shard.info().payload_schema)
        for name in KEYWORD_FIELDS:
            if name not in existing:
                shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        if TENANT_FIELD not in existing:
            shard.update(
                qe.UpdateOperation.create_field_index(TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True))
            )
        for name in RANGE_FIELDS:
            if name not in existing:
                shard.update(
                    qe.UpdateOperation.create_field_index(
                        name, qe.IntegerIndexParams(lookup=False, range=True)
                    )
                )
        return shard

    def _live(self) -> qe.EdgeShard:
        if self._closed:
            raise KnowledgeIndexError(f"knowledge index: the shard at {self.path} is closed")
        return self._shard

    @translate_errors("writing points")
    def _write(self, points: Sequence[PreparedPoint]) -> None:
        records = []
        for point in points:
            vector: dict[str, Any] = {
                SPARSE_VECTOR: qe.SparseVector(point.sparse.indices, point.sparse.values)
            }
            if point.dense is not None:
                vector[DENSE_VECTOR] = point.dense
            records.append(qe.Point(point.id, vector, point.payload))
        with self._lock:
            self._live().update(qe.UpdateOperation.upsert_points(records))

    @translate_errors("deleting points")
    def _delete(self, flt: EngineFilter) -> None:
        with self._lock:
            self._live().update(qe.UpdateOperation.delete_points_by_filter(_filter(flt)))

    @translate_errors("querying")
    def _query(
        self, *, sparse: SparseVec | None, dense: list[float] | None, flt: EngineFilter, limit: int
    ) -> list[EngineHit]:
        engine_filter = _filter(flt)
        sparse_query = (
            qe.Query.Nearest(qe.SparseVector(sparse.indices, sparse.values), using=SPARSE_VECTOR)
            if sparse
            else None
        )
        dense_query = qe.Query.Nearest(dense, using=DENSE_VECTOR) if dense is not None else None
        if sparse_query is not None and dense_query is not None:
            depth = max(4 * limit, 20)
            fusion: Any = qe.Fusion.Rrf(k=RRF_K)  # the stubs do not type Fusion.Rrf as a Fusion
            request = qe.QueryRequest(
                limit=limit,
                prefetches=[
                    qe.Prefetch(depth, query=sparse_query, filter=engine_filter),
                    qe.Prefetch(depth, query=dense_query, filter=engine_filter),
                ],
                query=fusion,
                filter=engine_filter,
                with_payload=True,
                with_vector=[SPARSE_VECTOR],
            )
        else:
            request = qe.QueryRequest(
                limit=limit,
                query=sparse_query or dense_query,
                filter=engine_filter,
                with_payload=True,
                with_vector=[SPARSE_VECTOR],
            )
        return [
            EngineHit(dict(p.payload or {}), float(p.score), _terms(p.vector))
            for p in self._live().query(request)
        ]

    @translate_errors("counting")
    def _count(self, flt: EngineFilter | None = None) -> int:
        engine_filter = _filter(flt) if flt is not None else None
        return int(self._live().count(qe.CountRequest(exact=True, filter=engine_filter)))

    @translate_errors("reading a point")
    def _payload(self, point: str) -> dict[str, Any] | None:
        records = self._live().retrieve([point], True, False)
        return dict(records[0].payload or {}) if records else None

    @translate_errors("listing points")
    def _scroll(self, fields: Sequence[str]) -> Iterator[dict[str, Any]]:
        offset: qe.PointId | None = None
        while True:
            request = qe.ScrollRequest(
                offset=offset, limit=SCROLL_PAGE, with_payload=list(fields), with_vector=False
            )
            records, offset = self._live().scroll(request)
            for record in records:
                yield dict(record.payload or {})
            if offset is None or not records:
                return

    @translate_errors("flushing")
    def flush(self) -> None:
        """Persist pending writes and let the in-process optimizer compact and index the segments."""
        with self._lock:
            shard = self._live()
            shard.flush()
            shard.optimize()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._shard.flush()
            finally:
                self._shard.close()


__all__ = ["EdgeKnowledgeIndex", "shard_path"]

"""The scale-out backend: a Qdrant server or cluster by URL, through `qdrant-client`.

Same collection layout, same vectors (computed by `knowledge.sparse` on the client, as on the edge),
same filters, same search logic as the embedded shard: moving from a laptop to a cluster is a URL.
Needs the `qdrant-server` extra (`pip install groundgate[qdrant-server]`).

`ServerKnowledgeIndex.local()` runs the same code against `qdrant-client`'s local mode, a pure-Python
stand-in that speaks the client API. It is what the tests use; it is far too slow to serve (about
600 ms a query at 20,000 points) and ignores payload indexes, so none are created there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from qdrant_client import QdrantClient
from qdrant_client import models as qm

from groundgate.knowledge.index import (
    DEFAULT_COLLECTION,
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


def _condition(condition: Condition) -> qm.FieldCondition:
    if isinstance(condition, AnyOf):
        values = list(condition.values)
        match: qm.MatchValue | qm.MatchAny = (
            qm.MatchValue(value=values[0]) if len(values) == 1 else qm.MatchAny(any=values)
        )
        return qm.FieldCondition(key=condition.field, match=match)
    return qm.FieldCondition(key=condition.field, range=qm.Range(gte=condition.gte, lte=condition.lte))


def _terms(vector: object) -> frozenset[int]:
    sparse = vector.get(SPARSE_VECTOR) if isinstance(vector, dict) else None
    return frozenset(sparse.indices) if isinstance(sparse, qm.SparseVector) else frozenset()


def _filter(flt: EngineFilter) -> qm.Filter:
    must: list[Any] = [_condition(c) for c in flt.must]
    should: list[Any] | None = [_condition(c) for c in flt.should] or None
    return qm.Filter(must=must or None, should=should)


class ServerKnowledgeIndex(QdrantKnowledgeIndex):
    """`KnowledgeIndex` on a collection of a Qdrant server (created with its indexes on first use)."""

    def __init__(
        self,
        client: QdrantClient,
        *,
        collection: str = DEFAULT_COLLECTION,
        dense: DenseEncoder | None = None,
        payload_indexes: bool = True,
        owns_client: bool = True,
        lexicon: Lexicon | None = None,
    ) -> None:
        super().__init__(dense=dense, lexicon=lexicon)
        self.client = client
        self.collection = collection
        self._owns_client = owns_client
        self._closed = False
        self._ensure_collection(dense, payload_indexes)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        api_key: str | None = None,
        collection: str = DEFAULT_COLLECTION,
        dense: DenseEncoder | None = None,
        timeout: int = 10,
    ) -> ServerKnowledgeIndex:
        """Connect to a Qdrant server or cluster (`http://qdrant:6333`, a Qdrant Cloud URL...)."""
        try:
            client = QdrantClient(url=url, api_key=api_key, timeout=timeout, check_compatibility=False)
        except Exception as exc:
            raise KnowledgeIndexError(f"knowledge index: cannot connect to Qdrant at {url}: {exc}") from exc
        return cls(client, collection=collection, dense=dense)

    @classmethod
    def local(
        cls,
        location: str = ":memory:",
        *,
        collection: str = DEFAULT_COLLECTION,
        dense: DenseEncoder | None = None,
        lexicon: Lexicon | None = None,
    ) -> ServerKnowledgeIndex:
        """`qdrant-client` local mode (`:memory:` or a path): the client API without a server, for tests."""
        client = QdrantClient(location=location) if location == ":memory:" else QdrantClient(path=location)
        return cls(client, collection=collection, dense=dense, payload_indexes=False, lexicon=lexicon)

    @translate_errors("preparing the collection")
    def _ensure_collection(self, dense: DenseEncoder | None, payload_indexes: bool) -> None:
        if self.client.collection_exists(self.collection):
            params = self.client.get_collection(self.collection).config.params
            if SPARSE_VECTOR not in (params.sparse_vectors or {}):
                raise KnowledgeIndexError(
                    f"knowledge index: collection {self.collection!r} exists without the "
                    f"{SPARSE_VECTOR!r} sparse vector; it was not created by groundgate"
                )
            vectors = params.vectors if isinstance(params.vectors, dict) else {}
            if dense is not None and DENSE_VECTOR not in vectors:
                raise KnowledgeIndexError(
                    f"knowledge index: collection {self.collection!r} has no {DENSE_VECTOR!r} vector; "
                    "re-create it to use an embedding endpoint"
                )
            return
        self.client.create_collection(
            self.collection,
            vectors_config=(
                {DENSE_VECTOR: qm.VectorParams(size=dense.dimension, distance=qm.Distance.COSINE)}
                if dense
                else {}
            ),
            sparse_vectors_config={SPARSE_VECTOR: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
        )
        if not payload_indexes:
            return
        for name in KEYWORD_FIELDS:
            self.client.create_payload_index(self.collection, name, qm.PayloadSchemaType.KEYWORD, wait=True)
        self.client.create_payload_index(
            self.collection,
            TENANT_FIELD,
            qm.KeywordIndexParams(type=qm.KeywordIndexType.KEYWORD, is_tenant=True),
        )
        for name in RANGE_FIELDS:
            self.client.create_payload_index(
                self.collection,
                name,
                qm.IntegerIndexParams(type=qm.IntegerIndexType.INTEGER, lookup=False, range=True),
                wait=True,
            )

    def _check_open(self) -> None:
        if self._closed:
            raise KnowledgeIndexError("knowledge index: the client is closed")

    @translate_errors("writing points")
    def _write(self, points: Sequence[PreparedPoint]) -> None:
        self._check_open()
        structs = []
        for point in points:
            vector: dict[str, Any] = {
                SPARSE_VECTOR: qm.SparseVector(indices=point.sparse.indices, values=point.sparse.values)
            }
            if point.dense is not None:
                vector[DENSE_VECTOR] = point.dense
            structs.append(qm.PointStruct(id=point.id, vector=vector, payload=point.payload))
        self.client.upsert(self.collection, points=structs, wait=True)

    @translate_errors("deleting points")
    def _delete(self, flt: EngineFilter) -> None:
        self._check_open()
        self.client.delete(self.collection, points_selector=qm.FilterSelector(filter=_filter(flt)), wait=True)

    @translate_errors("querying")
    def _query(
        self, *, sparse: SparseVec | None, dense: list[float] | None, flt: EngineFilter, limit: int
    ) -> list[EngineHit]:
        self._check_open()
        engine_filter = _filter(flt)
        sparse_query = qm.SparseVector(indices=sparse.indices, values=sparse.values) if sparse else None
        if sparse_query is not None and dense is not None:
            depth = max(4 * limit, 20)
            response = self.client.query_points(
                self.collection,
                prefetch=[
                    qm.Prefetch(query=sparse_query, using=SPARSE_VECTOR, filter=engine_filter, limit=depth),
                    qm.Prefetch(query=dense, using=DENSE_VECTOR, filter=engine_filter, limit=depth),
                ],
                query=qm.RrfQuery(rrf=qm.Rrf(k=RRF_K)),
                query_filter=engine_filter,
                limit=limit,
                with_payload=True,
                with_vectors=[SPARSE_VECTOR],
            )
        elif sparse_query is not None or dense is not None:
            response = self.client.query_points(
                self.collection,
                query=sparse_query if sparse_query is not None else dense,
                using=SPARSE_VECTOR if sparse_query is not None else DENSE_VECTOR,
                query_filter=engine_filter,
                limit=limit,
                with_payload=True,
                with_vectors=[SPARSE_VECTOR],
            )
        else:
            response = self.client.query_points(
                self.collection,
                query_filter=engine_filter,
                limit=limit,
                with_payload=True,
                with_vectors=[SPARSE_VECTOR],
            )
        return [EngineHit(dict(p.payload or {}), float(p.score), _terms(p.vector)) for p in response.points]

    @translate_errors("counting")
    def _count(self, flt: EngineFilter | None = None) -> int:
        self._check_open()
        engine_filter = _filter(flt) if flt is not None else None
        return int(self.client.count(self.collection, count_filter=engine_filter, exact=True).count)

    @translate_errors("reading a point")
    def _payload(self, point: str) -> dict[str, Any] | None:
        self._check_open()
        records = self.client.retrieve(self.collection, ids=[point], with_payload=True, with_vectors=False)
        return dict(records[0].payload or {}) if records else None

    @translate_errors("listing points")
    def _scroll(self, fields: Sequence[str]) -> Iterator[dict[str, Any]]:
        self._check_open()
        offset: Any = None
        while True:
            records, offset = self.client.scroll(
                self.collection,
                limit=SCROLL_PAGE,
                offset=offset,
                with_payload=list(fields),
                with_vectors=False,
            )
            for record in records:
                yield dict(record.payload or {})
            if offset is None or not records:
                return

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            self.client.close()


__all__ = ["ServerKnowledgeIndex"]

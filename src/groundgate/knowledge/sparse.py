"""BM25 sparse vectors, computed by Qdrant's own BM25 embedder for both backends.

What qdrant-edge-py 0.9 provides (and this module relies on):

- `qdrant_edge.Bm25` / `Bm25Config`: Qdrant's BM25 embedder, in Rust, in-process. It runs the same
  text pipeline as the server's text index and produces the same token ids (murmur3 hashes) and
  term-frequency weights as server-side BM25 inference ("vectors produced by the Qdrant Edge embedder
  use the same token IDs and scoring formula as Qdrant Server's text search pipeline").
- `TokenizerType.Multilingual`: segments Chinese (`支付网关错误码` → 支付 / 网关 / 错误 / 码) as well
  as Latin scripts. Pure-digit tokens are dropped by this tokenizer; identifiers that carry digits
  (`PAY-4031`) are therefore also indexed squashed into one term (`pay4031`) and matched exactly by L0.
- Sparse vectors with `Modifier.Idf`: the engine applies IDF at query time from its own collection
  statistics, which completes BM25 (document side: saturated, length-normalised term frequency; query
  side: weight 1 per distinct term).

So nothing of BM25 is computed in Python. The embedder lives in `qdrant-edge-py` (a core dependency),
and the server backend uploads the very same vectors, so one collection layout serves both and a
shard and a server collection rank alike. (Qdrant server could also embed server-side with
`models.Document(model="qdrant/bm25")`, but `qdrant-client`'s local mode cannot, and keeping the
embedding on the client keeps the two backends identical.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import qdrant_edge

from groundgate.knowledge.terms import extract_identifiers, squash

#: Name of the sparse vector in the collection layout (both backends).
SPARSE_VECTOR: Final = "bm25"
#: Name of the optional dense vector (when an embedding endpoint is configured).
DENSE_VECTOR: Final = "dense"
#: RRF constant for dense + BM25 fusion (Qdrant's default), the same on both backends.
RRF_K = 60

#: BM25 parameters: Qdrant's defaults (k1 1.2, b 0.75, expected document length 256 tokens).
BM25_K: Final = 1.2
BM25_B: Final = 0.75
BM25_AVG_LEN: Final = 256.0


@dataclass(frozen=True, slots=True)
class SparseVec:
    """A backend-neutral sparse vector."""

    indices: list[int]
    values: list[float]

    def __bool__(self) -> bool:
        return bool(self.indices)


def bm25_config() -> qdrant_edge.Bm25Config:
    """The one BM25 configuration: multilingual tokenizer, English + Chinese stopwords, English stemmer."""
    return qdrant_edge.Bm25Config(
        k=BM25_K,
        b=BM25_B,
        avg_len=BM25_AVG_LEN,
        tokenizer=qdrant_edge.TokenizerType.Multilingual,
        language="english",
        lowercase=True,
        stopwords=qdrant_edge.StopwordsSet(
            languages={qdrant_edge.Language.English, qdrant_edge.Language.Chinese}
        ),
    )


def with_identifier_terms(text: str) -> str:
    """`text` plus each identifier it holds squashed into one term (`ERR_TIMEOUT` → `errtimeout`)."""
    extra = {squash(key) for key in extract_identifiers(text)}
    extra.discard("")
    return f"{text}\n{' '.join(sorted(extra))}" if extra else text


class Bm25Encoder:
    """Document and query sparse vectors (thread-safe: the embedder is immutable)."""

    def __init__(self) -> None:
        self._bm25 = qdrant_edge.Bm25(bm25_config())

    def document(self, text: str) -> SparseVec:
        vector = self._bm25.embed_document(with_identifier_terms(text))
        return SparseVec(list(vector.indices), list(vector.values))

    def documents(self, texts: Iterable[str]) -> list[SparseVec]:
        return [self.document(text) for text in texts]

    def query(self, text: str) -> SparseVec:
        vector = self._bm25.embed_query(with_identifier_terms(text))
        return SparseVec(list(vector.indices), list(vector.values))

    def terms(self, text: str) -> frozenset[int]:
        """The distinct BM25 term ids of `text` (to measure query coverage of a hit)."""
        return frozenset(self._bm25.embed_query(with_identifier_terms(text)).indices)


__all__ = [
    "BM25_AVG_LEN",
    "BM25_B",
    "BM25_K",
    "DENSE_VECTOR",
    "SPARSE_VECTOR",
    "Bm25Encoder",
    "SparseVec",
    "bm25_config",
    "with_identifier_terms",
]

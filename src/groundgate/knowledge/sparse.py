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

So nothing of BM25 is computed in Python. The one thing added on the query side is **lexicon
expansion** (`Bm25Encoder.expanded_query`): every term of the bilingual lexicon found in the query
(`knowledge.lexicon`) brings its other-language terms and synonyms into the query vector at
`EXPANSION_WEIGHT` (the query's own terms weigh 1), so `hotel … per night … Beijing` also asks for
`住宿 … 每晚 … 北京`. Coverage (`QueryTerms.coverage`) counts a query term as present in a passage when
the passage holds it or every term of one of its alternates. The embedder lives in `qdrant-edge-py` (a core dependency),
and the server backend uploads the very same vectors, so one collection layout serves both and a
shard and a server collection rank alike. (Qdrant server could also embed server-side with
`models.Document(model="qdrant/bm25")`, but `qdrant-client`'s local mode cannot, and keeping the
embedding on the client keeps the two backends identical.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

import qdrant_edge

from groundgate.knowledge.terms import extract_identifiers, label_terms, squash
from groundgate.text.lexicon import Lexicon, default_lexicon

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
#: Query weight of a term that lexicon expansion added. Below 1 so that, for equal matches, a passage
#: holding the words the user typed ranks above one holding only their translations.
EXPANSION_WEIGHT: Final = 0.5
#: Query weight of a labelled name (`Team B` → `teamb`): the word that tells two otherwise identical
#: documents apart (Team A's standup from Team B's) must outweigh an incidental shared word.
LABEL_WEIGHT: Final = 2.0


@dataclass(frozen=True, slots=True)
class SparseVec:
    """A backend-neutral sparse vector."""

    indices: list[int]
    values: list[float]

    def __bool__(self) -> bool:
        return bool(self.indices)


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """A query's BM25 vector after lexicon expansion, and what is needed to measure coverage."""

    sparse: SparseVec
    """The query's own terms at weight 1, the terms lexicon expansion added at `EXPANSION_WEIGHT`."""
    own: frozenset[int]
    """The term ids of the query as typed."""
    alternates: Mapping[int, tuple[frozenset[int], ...]] = field(default_factory=dict)
    """Own term id → the term ids of each of its lexicon alternates."""
    expansions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(the query text matched, its alternates), for the trace."""
    labels: frozenset[int] = frozenset()
    """Term ids of the labelled names the query asks about (`Team B` → `teamb`)."""

    def names_other(self, chunk_terms: frozenset[int]) -> bool:
        """Whether the query names a labelled entity (`Team C`) and the passage holds none of them."""
        return bool(self.labels) and not (self.labels & chunk_terms)

    def coverage(self, chunk_terms: frozenset[int]) -> float:
        """Share of the query's own terms present in a passage, directly or through an alternate."""
        if not self.own:
            return 0.0
        covered = sum(
            1
            for term in self.own
            if term in chunk_terms or any(alt <= chunk_terms for alt in self.alternates.get(term, ()))
        )
        return covered / len(self.own)


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


_HYPHENATED: Final = re.compile(
    r"(?<![A-Za-z0-9_\-])[A-Za-z][A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![A-Za-z0-9_\-])"
)


def with_identifier_terms(text: str) -> str:
    """`text` plus each identifier it holds squashed into one term (`ERR_TIMEOUT` → `errtimeout`), and
    each labelled name as one term (`Team B` → `teamb`, see `terms.label_terms`)."""
    extra = {squash(key) for key in extract_identifiers(text)} | set(label_terms(text))
    # Hyphenated names (`order-db`, `payment-gateway`), also inside a dotted key (`order-db.pool.max_size`):
    # the tokenizer splits them into common words (`order`, `db`), so a question naming `order-db`
    # would rank every passage about orders or databases as high as the one about that database.
    extra |= {squash(m.group()) for m in _HYPHENATED.finditer(text)}
    extra.discard("")
    return f"{text}\n{' '.join(sorted(extra))}" if extra else text


class Bm25Encoder:
    """Document and query sparse vectors (thread-safe: the embedder and the lexicon are immutable).

    `lexicon`: the bilingual term layer used by `expanded_query` (default: the bundled one; pass
    `Lexicon([])` for none).
    """

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self._bm25 = qdrant_edge.Bm25(bm25_config())
        self.lexicon = lexicon if lexicon is not None else default_lexicon()
        self._term_ids = lru_cache(maxsize=8192)(self._ids)

    def _ids(self, text: str) -> frozenset[int]:
        return frozenset(self._bm25.embed_query(text).indices)

    def document(self, text: str) -> SparseVec:
        vector = self._bm25.embed_document(with_identifier_terms(text))
        return SparseVec(list(vector.indices), list(vector.values))

    def documents(self, texts: Iterable[str]) -> list[SparseVec]:
        return [self.document(text) for text in texts]

    def query(self, text: str) -> SparseVec:
        vector = self._bm25.embed_query(with_identifier_terms(text))
        return SparseVec(list(vector.indices), list(vector.values))

    def expanded_query(self, text: str) -> QueryTerms:
        """The query vector with lexicon alternates added (see the module docs)."""
        own = self.query(text)
        own_ids = frozenset(own.indices)
        weights = dict(zip(own.indices, own.values, strict=True))
        labels = label_terms(text)
        label_ids = self._term_ids(" ".join(labels)) & own_ids if labels else frozenset()
        for term in label_ids:
            weights[term] = LABEL_WEIGHT
        alternates: dict[int, list[frozenset[int]]] = {}
        expansions: list[tuple[str, tuple[str, ...]]] = []
        for match, terms in self.lexicon.expansions(text):
            source = self._term_ids(match.text) & own_ids
            alt_ids = [ids for ids in (self._term_ids(t) for t in terms) if ids and ids != source]
            if not source or not alt_ids:
                continue  # the matched words were stopwords, or every alternate tokenizes the same
            expansions.append((match.text, terms))
            for term in source:
                alternates.setdefault(term, []).extend(alt_ids)
            for ids in alt_ids:
                for term in ids - own_ids:
                    weights[term] = max(weights.get(term, 0.0), EXPANSION_WEIGHT)
        indices = sorted(weights)
        return QueryTerms(
            sparse=SparseVec(indices, [weights[i] for i in indices]),
            own=own_ids,
            alternates={term: tuple(dict.fromkeys(ids)) for term, ids in alternates.items()},
            expansions=tuple(expansions),
            labels=label_ids,
        )

    def terms(self, text: str) -> frozenset[int]:
        """The distinct BM25 term ids of `text` (to measure query coverage of a hit)."""
        return frozenset(self._bm25.embed_query(with_identifier_terms(text)).indices)


__all__ = [
    "BM25_AVG_LEN",
    "BM25_B",
    "BM25_K",
    "DENSE_VECTOR",
    "EXPANSION_WEIGHT",
    "LABEL_WEIGHT",
    "SPARSE_VECTOR",
    "Bm25Encoder",
    "QueryTerms",
    "SparseVec",
    "bm25_config",
    "with_identifier_terms",
]

"""Governed knowledge: ingestion, chunking and the index (Qdrant Edge embedded, or a Qdrant server).

```python
from groundgate.knowledge import SearchFilter, ingest_path, open_index

with open_index(data_dir=Path("~/.groundgate").expanduser()) as index:   # or url="http://qdrant:6333"
    report = ingest_path("docs/", index)     # Markdown, text, PDF, HTML, Word; report.removed: files gone
    documents = index.documents()            # what is indexed, with paths and chunk counts
    hits = index.search("ERR_TIMEOUT 怎么处理", filters=SearchFilter(tenant="acme"), limit=5)
```

Questions find documents in the other language through the bundled zh↔en lexicon
(`groundgate.text.lexicon`, re-exported here); pass `dense=OpenAIEmbeddings(...)` (`groundgate.models.embeddings`) to
`open_index` to fuse dense vectors with BM25.
"""

from __future__ import annotations

from pathlib import Path

from groundgate.errors import ConfigurationError
from groundgate.knowledge.documents import Chunk, DocumentMeta, ParsedDocument, parse_document, read_document
from groundgate.knowledge.edge import EdgeKnowledgeIndex, shard_path
from groundgate.knowledge.index import (
    DEFAULT_COLLECTION,
    DenseEncoder,
    IndexedDocument,
    KnowledgeIndex,
    KnowledgeIndexError,
    QdrantKnowledgeIndex,
    SearchFilter,
    SearchHit,
    SearchResults,
    UpsertReport,
)
from groundgate.knowledge.ingest import BadFile, IngestReport, SkipCode, ingest_path
from groundgate.text.lexicon import Lexicon, default_lexicon


def open_index(
    *,
    data_dir: Path | None = None,
    url: str | None = None,
    api_key: str | None = None,
    collection: str = DEFAULT_COLLECTION,
    dense: DenseEncoder | None = None,
) -> QdrantKnowledgeIndex:
    """The configured index: a Qdrant server when `url` is set, else the shard under `data_dir`."""
    if url:
        try:
            from groundgate.knowledge.server import ServerKnowledgeIndex
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise ConfigurationError(
                "a Qdrant server URL is configured but qdrant-client is not installed: "
                "pip install 'groundgate[qdrant-server]'"
            ) from exc
        return ServerKnowledgeIndex.from_url(url, api_key=api_key, collection=collection, dense=dense)
    if data_dir is None:
        raise ConfigurationError("the knowledge index needs a data directory or a Qdrant URL")
    return EdgeKnowledgeIndex(shard_path(data_dir), dense=dense)


__all__ = [
    # ingestion
    "BadFile",
    "IngestReport",
    "SkipCode",
    "ingest_path",
    # documents and chunking
    "Chunk",
    "DocumentMeta",
    "ParsedDocument",
    "parse_document",
    "read_document",
    # the index and search
    "DenseEncoder",
    "IndexedDocument",
    "KnowledgeIndex",
    "KnowledgeIndexError",
    "QdrantKnowledgeIndex",
    "SearchFilter",
    "SearchHit",
    "SearchResults",
    "UpsertReport",
    # the embedded Qdrant Edge shard
    "EdgeKnowledgeIndex",
    "shard_path",
    # the zh↔en lexicon (groundgate.text.lexicon)
    "Lexicon",
    "default_lexicon",
    # opening the configured index
    "open_index",
]

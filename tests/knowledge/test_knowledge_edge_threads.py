"""The embedded shard searches on `search_threads` threads (one by default), on a new shard and on
one created before the setting existed: the shard's own default of 8 threads spun and preempted the
interpreter on a 2-core machine (docs/benchmarks.md, "Service throughput")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import qdrant_edge as qe

from groundgate.knowledge import EdgeKnowledgeIndex, SearchFilter, ingest_path
from groundgate.knowledge.edge import SEARCH_THREADS


def _stored_threads(shard: Path) -> object:
    return json.loads((shard / "edge_config.json").read_text(encoding="utf-8")).get("max_search_threads")


@pytest.mark.parametrize("threads", [None, 1, 3])
def test_a_new_shard_searches_on_its_search_threads(tmp_path: Path, threads: int | None) -> None:
    options = {} if threads is None else {"search_threads": threads}
    with EdgeKnowledgeIndex(tmp_path / "shard", **options):  # type: ignore[arg-type]
        pass
    assert _stored_threads(tmp_path / "shard") == (threads or SEARCH_THREADS) == (threads or 1)


def test_a_shard_made_without_the_setting_is_reopened_with_it_and_keeps_its_documents(
    tmp_path: Path,
) -> None:
    shard = tmp_path / "shard"
    sparse = {"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)}
    qe.EdgeShard.create(str(shard), qe.EdgeConfig(sparse_vectors=sparse)).close()
    assert _stored_threads(shard) is None  # the shard's own default
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pool.md").write_text("# Pool runbook\n\nRaise max_size to 200 when the pool is exhausted.\n")
    with EdgeKnowledgeIndex(shard) as index:
        ingest_path(docs, index)
    with EdgeKnowledgeIndex(shard) as index:
        hits = list(index.search("pool exhausted max_size", filters=SearchFilter(), limit=3))
    assert _stored_threads(shard) == 1
    assert hits
    assert "200" in hits[0].chunk.text

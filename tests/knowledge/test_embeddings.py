"""`OpenAIEmbeddings` and the dense path over real HTTP, against the local OpenAI-compatible server."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from groundgate.contracts import ExecutionContext
from groundgate.errors import (
    ConfigurationError,
    ModelError,
    ModelHTTPError,
    ModelOutputError,
    ModelTimeoutError,
)
from groundgate.knowledge import EdgeKnowledgeIndex, SearchFilter, ingest_path
from groundgate.knowledge.index import DENSE_COOLDOWN_SECONDS, SearchResults, point_id
from groundgate.models.embeddings import OpenAIEmbeddings
from groundgate.settings import load_settings
from groundgate.testing.openai_server import (
    OpenAICompatibleServer,
    ScriptedReply,
    hashed_embedding,
    unused_base_url,
)
from groundgate.text.lexicon import Lexicon
from groundgate.tools.builtin.knowledge import LookupKnowledgeArgs, make_lookup_knowledge
from groundgate.wiring import embedding_encoder, open_configured_workspace

API_KEY = "sk-embed-test"
DIM = 64

DOCS = {
    "deploy.md": "# 发布与回滚手册\n\n发布失败时执行 deployment rollback：先暂停流量，再切回上一个版本。\n",
    "cache.md": "# Cache runbook\n\nWhen the cache hit rate drops, check evicted keys and warm the cache.\n",
    "refund.md": "# Refund FAQ\n\nRefunds to debit cards arrive in 1 to 3 working days.\n",
}


class Switch:
    """An embeddings handler the test can flip: None answers the real vectors."""

    def __init__(self) -> None:
        self.reply: ScriptedReply | None = None

    def __call__(self, body: dict[str, Any]) -> ScriptedReply | None:
        return self.reply


@pytest.fixture
def switch() -> Switch:
    return Switch()


@pytest.fixture
def server(switch: Switch) -> Iterator[OpenAICompatibleServer]:
    with OpenAICompatibleServer(api_key=API_KEY, embedding_dimensions=DIM, embedding_handler=switch) as srv:
        yield srv


@pytest.fixture
def client(server: OpenAICompatibleServer) -> Iterator[OpenAIEmbeddings]:
    with OpenAIEmbeddings(
        "embed-test", dimensions=DIM, base_url=server.base_url, api_key=API_KEY, query_timeout_seconds=0.5
    ) as c:
        yield c


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def write_docs(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


# --------------------------------------------------------------------------- the client


def test_vectors_come_back_in_order_with_the_configured_dimension(
    server: OpenAICompatibleServer, client: OpenAIEmbeddings
) -> None:
    texts = ["deployment rollback", "回滚发布", "cache hit rate"]
    vectors = client.embed(texts)
    assert [len(v) for v in vectors] == [DIM] * 3
    assert vectors == [pytest.approx(hashed_embedding(t, DIM)) for t in texts]
    sent = server.embedding_requests[-1]
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert sent.body == {"model": "embed-test", "input": texts, "encoding_format": "float"}


def test_similar_texts_are_near_and_unrelated_ones_are_not(client: OpenAIEmbeddings) -> None:
    query = client.embed_query("deploymnt rollbak")  # misspelt: no BM25 term in common
    near, far = client.embed(["deployment rollback", "退款到账时间"])
    assert cosine(query, near) > 0.5 > cosine(query, far)


def test_passages_are_sent_in_batches(server: OpenAICompatibleServer) -> None:
    with OpenAIEmbeddings("m", dimensions=DIM, base_url=server.base_url, api_key=API_KEY, batch_size=2) as c:
        assert len(c.embed([f"text {n}" for n in range(5)])) == 5
    assert [len(r.body["input"]) for r in server.embedding_requests] == [2, 2, 1]


def test_dimensions_are_sent_only_when_asked(server: OpenAICompatibleServer) -> None:
    with OpenAIEmbeddings(
        "m", dimensions=32, base_url=server.base_url, api_key=API_KEY, send_dimensions=True
    ) as c:
        assert len(c.embed_query("hello")) == 32  # the server honours `dimensions`
    assert server.embedding_requests[-1].body["dimensions"] == 32


def test_an_empty_query_is_sent_as_a_space(server: OpenAICompatibleServer, client: OpenAIEmbeddings) -> None:
    client.embed_query("   ")
    assert server.embedding_requests[-1].body["input"] == [" "]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "dimension", "error", "message"),
    [
        (ScriptedReply(delay_seconds=3.0), DIM, ModelTimeoutError, "did not answer within 0.5 s"),
        (ScriptedReply.error(500, "embedder crashed"), DIM, ModelHTTPError, "HTTP 500: embedder crashed"),
        (ScriptedReply.error(429, "slow down"), DIM, ModelHTTPError, "HTTP 429"),
        (None, 48, ModelOutputError, "dimension 64, configured 48"),
        (
            ScriptedReply(body={"object": "list", "data": [], "model": "m"}),
            DIM,
            ModelOutputError,
            "0 vectors for 1 inputs",
        ),
        (
            ScriptedReply(
                body={"object": "list", "data": [{"index": 0, "embedding": [0.0] * DIM}], "model": "m"}
            ),
            DIM,
            ModelOutputError,
            "no direction",
        ),
        (ScriptedReply(body="not json at all"), DIM, ModelError, "embedding model 'embed-test'"),
    ],
    ids=["timeout", "http-500", "http-429", "wrong-dimension", "wrong-count", "zero-vector", "not-json"],
)
def test_failures_become_groundgate_errors(
    server: OpenAICompatibleServer,
    switch: Switch,
    reply: ScriptedReply | None,
    dimension: int,
    error: type[ModelError],
    message: str,
) -> None:
    switch.reply = reply
    with (
        OpenAIEmbeddings(
            "embed-test",
            dimensions=dimension,
            base_url=server.base_url,
            api_key=API_KEY,
            query_timeout_seconds=0.5,
        ) as c,
        pytest.raises(error, match=message),
    ):
        c.embed_query("hotel limit per night")


def test_a_wrong_key_and_an_unreachable_endpoint_are_http_errors(server: OpenAICompatibleServer) -> None:
    with (
        OpenAIEmbeddings("m", dimensions=DIM, base_url=server.base_url, api_key="wrong") as c,
        pytest.raises(ModelHTTPError, match="HTTP 401"),
    ):
        c.embed(["x"])
    with (
        OpenAIEmbeddings("m", dimensions=DIM, base_url=unused_base_url(), api_key="k") as c,
        pytest.raises(ModelHTTPError, match="unreachable"),
    ):
        c.embed(["x"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"model_name": ""}, "needs a model_name"),
        ({"dimensions": 0}, "dimensions must be a positive number"),
        ({"query_timeout_seconds": 0}, "timeouts must be positive"),
        ({"batch_size": 0}, "batch_size"),
    ],
)
def test_a_bad_configuration_is_refused(kwargs: dict[str, Any], message: str) -> None:
    options: dict[str, Any] = {
        "model_name": "m",
        "dimensions": DIM,
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": "k",
    }
    with pytest.raises(ConfigurationError, match=message):
        OpenAIEmbeddings(**{**options, **kwargs})


# --------------------------------------------------------------------------- the dense path of the index


@pytest.mark.slow
def test_ingestion_stores_dense_vectors_and_search_fuses_them(
    server: OpenAICompatibleServer, client: OpenAIEmbeddings, tmp_path: Path
) -> None:
    with EdgeKnowledgeIndex(tmp_path / "shard", dense=client, lexicon=Lexicon([])) as index:
        report = ingest_path(write_docs(tmp_path / "docs"), index)
        assert report.without_dense == 0
        assert report.dense_error is None
        payload = index._payload(point_id("deploy#0"))
        assert payload is not None
        assert payload["has_dense"] is True
        before = len(server.embedding_requests)
        hits = index.search("deploymnt rollbak", filters=SearchFilter(), limit=2)  # no BM25 term in common
        assert isinstance(hits, SearchResults)
        assert hits[0].chunk.doc_id == "deploy"
        assert hits.notes == ()
        assert len(server.embedding_requests) == before + 1


@pytest.mark.slow
def test_a_failing_endpoint_at_query_time_falls_back_to_bm25_and_says_why(
    server: OpenAICompatibleServer, switch: Switch, client: OpenAIEmbeddings, tmp_path: Path
) -> None:
    now = [1000.0]
    with EdgeKnowledgeIndex(tmp_path / "shard", dense=client) as index:
        ingest_path(write_docs(tmp_path / "docs"), index)
        switch.reply = ScriptedReply.error(503, "overloaded")

        hits = index.search("cache hit rate", filters=SearchFilter(), limit=2)
        assert isinstance(hits, SearchResults)
        assert hits[0].chunk.doc_id == "cache"  # BM25 alone still answers
        assert any("dense search unavailable" in n and "HTTP 503" in n for n in hits.notes)

        index._clock = lambda: now[0]  # the cooldown is measured on the index's clock
        index._dense_down = (now[0], "ModelHTTPError: HTTP 503")
        calls = len(server.embedding_requests)
        skipped = index.search("cache hit rate", filters=SearchFilter(), limit=2)
        assert len(server.embedding_requests) == calls  # not asked again during the cooldown
        assert any("skipped" in n for n in skipped.notes)  # type: ignore[attr-defined]

        switch.reply = None
        now[0] += DENSE_COOLDOWN_SECONDS + 1
        recovered = index.search("cache hit rate", filters=SearchFilter(), limit=2)
        assert recovered.notes == ()  # type: ignore[attr-defined]
        assert len(server.embedding_requests) == calls + 1


@pytest.mark.slow
def test_the_knowledge_tool_reports_the_fallback(
    switch: Switch, client: OpenAIEmbeddings, tmp_path: Path
) -> None:
    with EdgeKnowledgeIndex(tmp_path / "shard", dense=client) as index:
        ingest_path(write_docs(tmp_path / "docs"), index)
        switch.reply = ScriptedReply(delay_seconds=3.0)
        run = make_lookup_knowledge(index)
        output = run(
            LookupKnowledgeArgs(query="refund debit card"), ExecutionContext(tenant="acme", user="u")
        )
    assert output.documents[0].source == "refund.md"
    assert "dense search unavailable, BM25 only (ModelTimeoutError" in output.observation


@pytest.mark.slow
def test_an_endpoint_that_fails_during_ingestion_leaves_bm25_and_reindexes_later(
    switch: Switch, client: OpenAIEmbeddings, tmp_path: Path
) -> None:
    docs = write_docs(tmp_path / "docs")
    with EdgeKnowledgeIndex(tmp_path / "shard", dense=client) as index:
        switch.reply = ScriptedReply.error(500, "down")
        report = ingest_path(docs, index)
        assert report.ingested == len(DOCS)
        assert report.without_dense == len(DOCS)
        assert report.dense_error is not None
        assert "HTTP 500" in report.dense_error
        assert index.search("cache hit rate", filters=SearchFilter(), limit=1)[0].chunk.doc_id == "cache"

        switch.reply = None
        again = ingest_path(docs, index)
        assert again.ingested == len(DOCS)  # unchanged files, but indexed without vectors: done again
        assert again.without_dense == 0
        assert ingest_path(docs, index).unchanged == len(DOCS)


# --------------------------------------------------------------------------- settings and wiring


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"embedding": {"model": "text-embedding-3-small"}}, "embedding.dimensions is required"),
        ({"embedding": {"model": "m", "dimensions": 0}}, "embedding.dimensions"),
        ({"embedding": {"model": "m", "dimensions": 8, "colour": "red"}}, "embedding.colour"),
        ({"embedding": {"model": "m", "dimensions": 8, "query_timeout_seconds": 0}}, "query_timeout_seconds"),
    ],
)
def test_embedding_settings_are_checked(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        load_settings(**overrides)


def test_embedding_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROUNDGATE_EMBEDDING__MODEL", "bge-m3")
    monkeypatch.setenv("GROUNDGATE_EMBEDDING__DIMENSIONS", "1024")
    monkeypatch.setenv("GROUNDGATE_EMBEDDING__API_KEY", "sk-local")
    settings = load_settings()
    assert settings.embedding.configured
    assert settings.embedding.dimensions == 1024
    assert embedding_encoder(settings) is not None


@pytest.mark.slow
def test_the_configured_workspace_ingests_and_searches_with_dense_vectors(
    server: OpenAICompatibleServer, tmp_path: Path
) -> None:
    assert embedding_encoder(load_settings(data_dir=tmp_path / "plain")) is None
    settings = load_settings(
        data_dir=tmp_path / "data",
        embedding={"model": "embed-test", "dimensions": DIM, "base_url": server.base_url, "api_key": API_KEY},
    )
    with open_configured_workspace(settings) as workspace:
        report = ingest_path(write_docs(tmp_path / "docs"), workspace.index)
        assert report.without_dense == 0
        payload = workspace.index._payload(point_id("refund#0"))
        assert payload is not None
        assert payload["has_dense"] is True
    assert {r.body["model"] for r in server.embedding_requests} == {"embed-test"}

"""Both backends (Qdrant Edge shard, qdrant-client local mode) through one parametrized suite."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path

import pytest

from groundgate.contracts import RetrievalLayer
from groundgate.knowledge import (
    EdgeKnowledgeIndex,
    KnowledgeIndex,
    KnowledgeIndexError,
    QdrantKnowledgeIndex,
    SearchFilter,
    ingest_path,
    open_index,
)
from groundgate.knowledge.index import governance_filter
from groundgate.knowledge.ingest import IngestReport
from groundgate.knowledge.server import ServerKnowledgeIndex
from groundgate.text.lexicon import Lexicon

FILLER_ZH = (
    "网关部署在两个可用区，每个可用区三个实例，前面是负载均衡器，后面是支付数据库代理和银行通道适配层。"
)

DOCS: dict[str, str] = {
    "payment/errors.md": f"""---
title: 支付网关错误码手册
doc_id: payment-errors
authority: SRE
kind: manual
scope: payment
---
# 支付网关错误码手册

## ERR_TIMEOUT

{FILLER_ZH * 4}
当网关在 3 秒内没有收到银行通道的响应时，返回 ERR_TIMEOUT，HTTP 状态码为 504。
{FILLER_ZH * 4}
""",
    "payment/timeouts-faq.md": """---
title: Timeout FAQ
doc_id: timeout-faq
kind: faq
scope: payment
---
# Timeout FAQ

The legacy API spelled it ERR-TIMEOUT. ERR-TIMEOUT means a timeout; retry an ERR-TIMEOUT once.
""",
    "hr/leave.md": """---
title: 年假制度
doc_id: hr-leave
authority: HR
kind: policy
scope: hr
---
# 年假制度

员工入职满一年后享有年假十天，满五年后每年年假十五天。年假需要提前三个工作日在系统中申请，并由直属主管审批。
""",
    "finance/refund.md": """---
title: Refund Policy
doc_id: refund-policy
authority: Finance
kind: policy
scope: finance
---
# Refund Policy

Refunds up to 500 USD are approved automatically. Larger refunds need a manager's approval, and
refunds above 5,000 USD also need finance sign-off before the money is released.
""",
    "tenants/acme.md": """---
title: ACME 结算说明
doc_id: acme-settlement
kind: faq
scope: finance
tenant: acme
---
# ACME 结算说明

ACME 商户的结算周期为 T+3，结算款打入商户在签约时登记的对公账户。
""",
    "tenants/globex.md": """---
title: Globex 结算说明
doc_id: globex-settlement
kind: faq
scope: finance
tenant: globex
---
# Globex 结算说明

Globex 商户的结算周期为 T+1，结算款按日汇总后统一划转。
""",
    "policy/travel-2024.md": """---
title: 差旅标准（2024）
doc_id: travel-2024
kind: policy
scope: hr
version: "2024"
effective_from: 2024-01-01
effective_to: 2024-12-31
---
# 差旅标准（2024）

一线城市住宿标准为每晚 500 元。
""",
    "policy/travel-2025.md": """---
title: 差旅标准（2025）
doc_id: travel-2025
kind: policy
scope: hr
version: "2025"
effective_from: 2025-01-01
---
# 差旅标准（2025）

一线城市住宿标准为每晚 650 元。
""",
}


def write_docs(root: Path, docs: dict[str, str] = DOCS) -> Path:
    for name, text in docs.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(params=["edge", "server"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantKnowledgeIndex]:
    backend: QdrantKnowledgeIndex = (
        EdgeKnowledgeIndex(tmp_path / "shard") if request.param == "edge" else ServerKnowledgeIndex.local()
    )
    with backend:
        yield backend


@pytest.fixture
def loaded(index: QdrantKnowledgeIndex, tmp_path: Path) -> QdrantKnowledgeIndex:
    report = ingest_path(write_docs(tmp_path / "docs"), index)
    assert report.bad_files == []
    assert report.ingested == len(DOCS)
    return index


def ids(hits: Sequence[object]) -> list[str]:
    return [h.chunk.doc_id for h in hits]  # type: ignore[attr-defined]


def test_both_backends_satisfy_the_protocol(index: QdrantKnowledgeIndex) -> None:
    assert isinstance(index, KnowledgeIndex)


@pytest.mark.slow
def test_l0_exact_identifier_beats_a_bm25_stronger_distractor(loaded: QdrantKnowledgeIndex) -> None:
    query = "ERR_TIMEOUT timeout"
    # Plain BM25 prefers the distractor: short, and it repeats a near-identical code (ERR-TIMEOUT).
    bm25 = loaded._query(
        sparse=loaded._bm25.query(query), dense=None, flt=governance_filter(SearchFilter()), limit=5
    )
    scores = {h.payload["doc_id"]: h.score for h in bm25}
    assert scores["timeout-faq"] > scores["payment-errors"]
    # L0 puts the exact identifier first.
    hits = loaded.search(query, filters=SearchFilter(), limit=3)
    assert hits[0].chunk.doc_id == "payment-errors"
    assert hits[0].layer is RetrievalLayer.L0
    assert hits[0].relevance == "high"
    assert "ERR_TIMEOUT" in hits[0].matched
    assert hits[0].chunk.heading == "支付网关错误码手册 > ERR_TIMEOUT"
    assert "timeout-faq" in ids(hits[1:])
    assert all(h.layer is RetrievalLayer.L1 for h in hits[1:])


@pytest.mark.slow
def test_title_is_an_exact_key(loaded: QdrantKnowledgeIndex) -> None:
    hits = loaded.search("Refund Policy 里大额退款要谁审批", filters=SearchFilter(), limit=3)
    assert hits[0].chunk.doc_id == "refund-policy"
    assert hits[0].layer is RetrievalLayer.L0


@pytest.mark.slow
def test_chinese_query_is_segmented(loaded: QdrantKnowledgeIndex) -> None:
    hits = loaded.search("入职满五年有几天年假", filters=SearchFilter(), limit=3)
    assert hits
    assert hits[0].chunk.doc_id == "hr-leave"
    assert hits[0].layer is RetrievalLayer.L1
    assert hits[0].coverage > 0.5


@pytest.mark.slow
def test_english_query(loaded: QdrantKnowledgeIndex) -> None:
    hits = loaded.search("who approves large refunds", filters=SearchFilter(), limit=3)
    assert hits[0].chunk.doc_id == "refund-policy"
    assert hits[0].relevance in {"high", "medium"}


@pytest.mark.slow
def test_tenant_isolation(loaded: QdrantKnowledgeIndex) -> None:
    acme = loaded.search("商户结算周期", filters=SearchFilter(tenant="acme"), limit=10)
    globex = loaded.search("商户结算周期", filters=SearchFilter(tenant="globex"), limit=10)
    nobody = loaded.search("商户结算周期", filters=SearchFilter(), limit=10)
    assert "acme-settlement" in ids(acme)
    assert "globex-settlement" not in ids(acme)
    assert "globex-settlement" in ids(globex)
    assert "acme-settlement" not in ids(globex)
    assert not {"acme-settlement", "globex-settlement"} & set(ids(nobody))
    # An exact identifier of another tenant's document does not leak through L0 either.
    assert "acme-settlement" not in ids(loaded.search("ACME 结算说明", filters=SearchFilter(tenant="globex")))
    # Shared documents are visible to every tenant.
    for tenant in ("acme", "globex", None):
        assert ids(loaded.search("ERR_TIMEOUT", filters=SearchFilter(tenant=tenant), limit=1)) == [
            "payment-errors"
        ]


@pytest.mark.slow
def test_as_of_drops_superseded_versions(loaded: QdrantKnowledgeIndex) -> None:
    query = "一线城市住宿标准"
    in_2025 = loaded.search(query, filters=SearchFilter(as_of=date(2025, 6, 1)), limit=5)
    in_2024 = loaded.search(query, filters=SearchFilter(as_of=date(2024, 6, 1)), limit=5)
    before = loaded.search(query, filters=SearchFilter(as_of=date(2023, 6, 1)), limit=5)
    always = loaded.search(query, filters=SearchFilter(), limit=5)
    assert "travel-2025" in ids(in_2025)
    assert "travel-2024" not in ids(in_2025)
    assert "travel-2024" in ids(in_2024)
    assert "travel-2025" not in ids(in_2024)
    assert not {"travel-2024", "travel-2025"} & set(ids(before))
    assert {"travel-2024", "travel-2025"} <= set(ids(always))
    # Bounds are inclusive.
    edge_day = loaded.search(query, filters=SearchFilter(as_of=date(2024, 12, 31)), limit=5)
    assert "travel-2024" in ids(edge_day)
    assert "travel-2025" not in ids(edge_day)


@pytest.mark.slow
def test_kind_authority_and_scope_filters(loaded: QdrantKnowledgeIndex) -> None:
    policies = loaded.search("审批", filters=SearchFilter(kinds=("Policy",)), limit=10)
    assert policies
    assert all(h.chunk.meta.kind == "policy" for h in policies)
    payment = loaded.search("ERR_TIMEOUT 超时", filters=SearchFilter(scopes=("payment",)), limit=10)
    assert payment
    assert all(h.chunk.meta.scopes == ("payment",) for h in payment)
    hr_only = loaded.search("ERR_TIMEOUT 超时", filters=SearchFilter(scopes=("HR",)), limit=10)
    assert "payment-errors" not in ids(hr_only)
    assert all(h.chunk.meta.scopes == ("hr",) for h in hr_only)
    hr = loaded.search("年假", filters=SearchFilter(authorities=("hr",)), limit=10)
    assert ids(hr) == ["hr-leave"]


@pytest.mark.slow
def test_empty_and_unmatched_queries(loaded: QdrantKnowledgeIndex) -> None:
    assert loaded.search("   ", filters=SearchFilter()) == []
    assert loaded.search("zzqqxx", filters=SearchFilter()) == []


@pytest.mark.slow
def test_delete_and_reingest(loaded: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    total = loaded.count()
    leave_chunks = len(
        [h for h in loaded.search("年假", filters=SearchFilter(), limit=20) if h.chunk.doc_id == "hr-leave"]
    )
    loaded.delete_document("hr-leave")
    assert loaded.count() == total - leave_chunks
    assert "hr-leave" not in ids(loaded.search("年假", filters=SearchFilter(), limit=10))
    assert loaded.document_hash("hr-leave") is None
    report = ingest_path(tmp_path / "docs", loaded)
    assert report.documents == ["hr-leave"]
    assert report.unchanged == len(DOCS) - 1
    assert loaded.count() == total
    assert "hr-leave" in ids(loaded.search("年假", filters=SearchFilter(), limit=10))


@pytest.mark.slow
def test_ingest_is_idempotent_and_replaces_changed_files(
    loaded: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    total = loaded.count()
    again = ingest_path(tmp_path / "docs", loaded)
    assert (again.ingested, again.unchanged, again.chunks) == (0, len(DOCS), 0)
    assert loaded.count() == total

    path = tmp_path / "docs" / "payment" / "errors.md"
    old_chunks = len(
        [
            h
            for h in loaded.search("ERR_TIMEOUT", filters=SearchFilter(), limit=20)
            if h.chunk.doc_id == "payment-errors"
        ]
    )
    path.write_text(
        "---\ndoc_id: payment-errors\ntitle: 支付网关错误码手册\n---\n# 支付网关错误码手册\n\n## ERR_BUSY\n\n网关繁忙。\n",
        encoding="utf-8",
    )
    changed = ingest_path(tmp_path / "docs", loaded)
    assert changed.documents == ["payment-errors"]
    assert changed.chunks == 1
    assert loaded.count() == total - old_chunks + 1
    hits = loaded.search("ERR_TIMEOUT", filters=SearchFilter(), limit=10)
    assert not [
        h for h in hits if h.chunk.doc_id == "payment-errors" and "ERR_TIMEOUT" in h.chunk.text
    ]  # no stale chunk
    assert loaded.search("ERR_BUSY", filters=SearchFilter(), limit=1)[0].chunk.doc_id == "payment-errors"
    forced = ingest_path(tmp_path / "docs", loaded, force=True)
    assert forced.ingested == len(DOCS)
    assert loaded.count() == total - old_chunks + 1


def test_bad_files_are_reported_and_ingestion_goes_on(index: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    root = write_docs(tmp_path / "docs", {"good.md": "# Good\n\nSome text about the deploy freeze window.\n"})
    (root / "bad.md").write_text("---\neffective_from: 2024-02-30\n---\nbody\n", encoding="utf-8")
    (root / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (root / "dup").mkdir()
    (root / "dup" / "good.md").write_text("# Another\n\nSame stem, so the same doc_id.\n", encoding="utf-8")
    (root / "image.png").write_bytes(b"\x89PNG")
    (root / ".hidden.md").write_text("# Hidden\n", encoding="utf-8")
    progress: list[tuple[int, int, str]] = []
    report: IngestReport = ingest_path(
        root, index, on_progress=lambda d, t, p: progress.append((d, t, p.name))
    )
    assert report.files == 4
    assert report.ingested == 1
    reasons = {Path(b.path).name: b.reason for b in report.bad_files}
    assert set(reasons) == {"bad.md", "latin1.txt", "good.md", "image.png"}
    assert reasons["image.png"].startswith("unsupported file type '.png'")
    assert "bad.md:2" in reasons["bad.md"]
    assert "effective_from" in reasons["bad.md"]
    assert "not UTF-8" in reasons["latin1.txt"]
    assert "already used" in reasons["good.md"]
    assert [p[:2] for p in progress] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert index.count() == 1
    assert report.chunks_per_second > 0


@pytest.mark.slow
def test_ingest_a_single_file_and_missing_paths(index: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    root = write_docs(tmp_path / "docs", {"one.md": "# One\n\nThe only document.\n"})
    report = ingest_path(root / "one.md", index)
    assert report.ingested == 1
    assert index.count() == 1
    assert index.search("only document", filters=SearchFilter())[0].chunk.meta.source == "one.md"
    png = root / "x.png"
    png.write_bytes(b"x")
    assert ingest_path(png, index).bad_files[0].reason.startswith("unsupported file type")
    with pytest.raises(Exception, match="no such file"):
        ingest_path(root / "nope", index)


def test_hits_carry_governance_and_offsets(loaded: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    hit = loaded.search("ERR_TIMEOUT", filters=SearchFilter(), limit=1)[0]
    meta = hit.chunk.meta
    assert (meta.source, meta.authority, meta.kind, meta.scope) == (
        "payment/errors.md",
        "SRE",
        "manual",
        "payment",
    )
    source = (tmp_path / "docs" / "payment" / "errors.md").read_text(encoding="utf-8")
    assert source[hit.chunk.start : hit.chunk.end] == hit.chunk.text


class FakeEmbedder:
    """Concept vectors: a stand-in for an embedding endpoint (cross-lingual on purpose)."""

    groups = (("rollback", "roll back", "回滚"), ("refund", "退款"), ("leave", "年假"), ("timeout", "超时"))

    @property
    def dimension(self) -> int:
        return len(self.groups) + 1

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0 if any(w in t.lower() for w in g) else 0.0 for g in self.groups] + [0.1] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text])[0]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["edge", "server"])
def test_dense_vectors_are_fused_when_configured(backend: str, tmp_path: Path) -> None:
    docs = {"deploy.md": "# 发布手册\n\n发布失败时执行回滚：先暂停流量，再切回上一个版本。\n", **DOCS}
    no_lexicon = Lexicon([])  # so that only the dense vector can bridge English and Chinese here
    index: QdrantKnowledgeIndex = (
        EdgeKnowledgeIndex(tmp_path / "shard", dense=FakeEmbedder(), lexicon=no_lexicon)
        if backend == "edge"
        else ServerKnowledgeIndex.local(dense=FakeEmbedder(), lexicon=no_lexicon)
    )
    with index:
        ingest_path(write_docs(tmp_path / "docs", docs), index)
        hits = index.search("how to roll back", filters=SearchFilter(), limit=3)
        assert hits[0].chunk.doc_id == "deploy"  # no shared BM25 term: found by the dense vector
        assert hits[0].layer is RetrievalLayer.L1
        tenant_hits = index.search("结算周期", filters=SearchFilter(tenant="globex"), limit=10)
        assert "acme-settlement" not in ids(tenant_hits)  # filters apply to the dense prefetch too


@pytest.mark.slow
def test_edge_shard_persists_across_reopen(tmp_path: Path) -> None:
    shard = tmp_path / "shard"
    with EdgeKnowledgeIndex(shard) as index:
        ingest_path(write_docs(tmp_path / "docs"), index)
        total = index.count()
        with pytest.raises(KnowledgeIndexError, match="in use by another process"):
            EdgeKnowledgeIndex(shard)
        expected = [(h.chunk.chunk_id, h.layer) for h in index.search("ERR_TIMEOUT", filters=SearchFilter())]
    with pytest.raises(KnowledgeIndexError, match="closed"):
        index.count()
    with EdgeKnowledgeIndex(shard) as reopened:
        assert reopened.count() == total
        assert [
            (h.chunk.chunk_id, h.layer) for h in reopened.search("ERR_TIMEOUT", filters=SearchFilter())
        ] == expected
        assert ingest_path(tmp_path / "docs", reopened).unchanged == len(DOCS)


def test_open_index_picks_the_backend(tmp_path: Path) -> None:
    with open_index(data_dir=tmp_path) as index:
        assert isinstance(index, EdgeKnowledgeIndex)
        assert index.path == tmp_path / "knowledge" / "shard"
    with pytest.raises(Exception, match="data directory or a Qdrant URL"):
        open_index()


DEMO_DOCS = Path(__file__).resolve().parents[2] / "src" / "groundgate" / "demo" / "workspace" / "docs"


@pytest.mark.slow
@pytest.mark.skipif(not DEMO_DOCS.is_dir(), reason="the demo documents are not there")
def test_demo_documents_smoke(tmp_path: Path) -> None:
    with EdgeKnowledgeIndex(tmp_path / "shard") as index:
        report = ingest_path(DEMO_DOCS, index)
        assert report.files > 0
        assert report.bad_files == []
        assert index.count() == report.chunks > 0
        hits = index.search("ERR_TIMEOUT", filters=SearchFilter(tenant="demo", as_of=date.today()), limit=5)
        assert hits
        assert hits[0].layer is RetrievalLayer.L0


@pytest.mark.slow
def test_edge_shard_without_dense_vector_is_refused_for_an_embedder(tmp_path: Path) -> None:
    EdgeKnowledgeIndex(tmp_path / "shard").close()
    with pytest.raises(KnowledgeIndexError, match="no 'dense' vector"):
        EdgeKnowledgeIndex(tmp_path / "shard", dense=FakeEmbedder())


def test_a_hyphenated_service_name_ranks_the_passage_that_names_it(tmp_path: Path) -> None:
    # `order-db` is split by the tokenizer into `order` and `db`, words of every passage about orders
    # or databases; the name as one term finds the one passage about that database's pool.
    with EdgeKnowledgeIndex(tmp_path / "shard") as index:
        ingest_path(DEMO_DOCS, index)
        hits = index.search(
            "order-service 连 order-db 的连接池上限是多少",
            filters=SearchFilter(tenant="acme", as_of=date(2026, 3, 14)),
            limit=5,
        )
        assert any("order-db.pool.max_size" in h.chunk.text for h in hits), [h.chunk.doc_id for h in hits]

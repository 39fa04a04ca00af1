"""`apps.documents`: what `groundgate docs list`, `docs remove` and `ingest` (and the API) call."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from groundgate.apps.documents import (
    DocumentSummary,
    ingest_documents,
    ingest_report_json,
    ingest_summary,
    list_documents,
    open_document_index,
    remove_document,
)
from groundgate.errors import NoDocumentsError, NotFoundError
from groundgate.knowledge import EdgeKnowledgeIndex, IngestReport, SearchFilter
from groundgate.knowledge.ingest import BadFile, SkipCode
from groundgate.settings import Settings

DOCS = {
    "shared/freeze.md": "---\ntitle: Deploy freeze\nkind: policy\nauthority: SRE\nversion: '3'\n"
    "effective_from: 2025-01-01\nscope: [deploy, release]\n---\n"
    "# Deploy freeze\n\nThe deploy freeze window starts every Friday at 18:00.\n",
    "acme/billing.md": "---\ndoc_id: acme-billing\ntenant: acme\n---\n# ACME billing\n\nACME is billed monthly.\n",
    "globex/billing.md": "---\ndoc_id: globex-billing\ntenant: globex\n---\n# Globex billing\n\nGlobex pays yearly.\n",
    "notes.txt": "Plain notes about the on-call rota.\n",
}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[EdgeKnowledgeIndex]:
    root = tmp_path / "docs"
    for name, text in DOCS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    with EdgeKnowledgeIndex(tmp_path / "shard") as backend:
        assert ingest_documents(backend, root).bad_files == []
        yield backend


def test_list_documents_shows_every_document_with_its_metadata_and_chunk_count(
    index: EdgeKnowledgeIndex, tmp_path: Path
) -> None:
    documents = list_documents(index)
    assert [d.doc_id for d in documents] == ["acme-billing", "freeze", "globex-billing", "notes"]
    freeze = documents[1]
    assert freeze == DocumentSummary(
        doc_id="freeze",
        title="Deploy freeze",
        source="shared/freeze.md",
        path=str((tmp_path / "docs" / "shared" / "freeze.md").resolve()),
        format="markdown",
        chunks=1,
        tenant=None,
        kind="policy",
        authority="SRE",
        version="3",
        effective_from=date(2025, 1, 1),
        scopes=("deploy", "release"),
    )
    assert documents[3].format == "text"
    assert freeze.to_json() == {
        "docId": "freeze",
        "title": "Deploy freeze",
        "source": "shared/freeze.md",
        "path": freeze.path,
        "format": "markdown",
        "chunks": 1,
        "tenant": None,
        "kind": "policy",
        "authority": "SRE",
        "version": "3",
        "effectiveFrom": "2025-01-01",
        "effectiveTo": None,
        "scopes": ["deploy", "release"],
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tenant", "visible"),
    [
        (None, ["acme-billing", "freeze", "globex-billing", "notes"]),
        ("acme", ["acme-billing", "freeze", "notes"]),
        ("globex", ["freeze", "globex-billing", "notes"]),
        ("initech", ["freeze", "notes"]),
    ],
    ids=["operator", "acme", "globex", "a-tenant-without-documents"],
)
def test_a_tenant_lists_its_own_and_the_shared_documents_only(
    index: EdgeKnowledgeIndex, tenant: str | None, visible: list[str]
) -> None:
    assert [d.doc_id for d in list_documents(index, tenant=tenant)] == visible


@pytest.mark.slow
def test_remove_document_removes_every_chunk_and_says_what_it_was(index: EdgeKnowledgeIndex) -> None:
    before = index.count()
    removed = remove_document(index, "freeze")
    assert (removed.doc_id, removed.chunks, removed.title) == ("freeze", 1, "Deploy freeze")
    assert index.count() == before - 1
    assert "freeze" not in [d.doc_id for d in list_documents(index)]
    assert index.search("deploy freeze window Friday", filters=SearchFilter()) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("document_id", "tenant", "message"),
    [
        ("nope", None, "no document 'nope' in the knowledge index"),
        ("", None, "no document ''"),
        ("globex-billing", "acme", "no document 'globex-billing' of tenant 'acme'"),
        ("freeze", "acme", "no document 'freeze' of tenant 'acme'"),
    ],
    ids=["unknown", "empty", "another-tenants", "shared-for-a-tenant"],
)
def test_removing_an_unknown_or_foreign_document_is_not_found_and_changes_nothing(
    index: EdgeKnowledgeIndex, document_id: str, tenant: str | None, message: str
) -> None:
    before = [d.doc_id for d in list_documents(index)]
    with pytest.raises(NotFoundError, match=message):
        remove_document(index, document_id, tenant=tenant)
    assert [d.doc_id for d in list_documents(index)] == before


@pytest.mark.slow
def test_a_tenant_removes_its_own_document(index: EdgeKnowledgeIndex) -> None:
    assert remove_document(index, "acme-billing", tenant="acme").tenant == "acme"
    assert [d.doc_id for d in list_documents(index, tenant="acme")] == ["freeze", "notes"]


@pytest.mark.parametrize(
    ("report", "line"),
    [
        (
            IngestReport(root="docs", files=3, ingested=2, unchanged=1, chunks=7, seconds=0.5),
            "ingested 2 of 3 files (1 unchanged), 7 chunks in 0.50 s",
        ),
        (
            IngestReport(
                root="docs",
                files=2,
                ingested=1,
                unchanged=0,
                chunks=3,
                removed=["old-a", "old-b"],
                bad_files=[BadFile("docs/x.png", "unsupported file type '.png'", SkipCode.UNSUPPORTED)],
                seconds=1.25,
            ),
            "ingested 1 of 2 files (0 unchanged), 2 removed (files gone), 1 skipped, 3 chunks in 1.25 s",
        ),
    ],
    ids=["plain", "removed-and-skipped"],
)
def test_the_ingest_summary_counts_removed_and_skipped_files(report: IngestReport, line: str) -> None:
    assert ingest_summary(report) == line


def test_the_ingest_json_names_removed_documents_and_skipped_files_with_their_code(tmp_path: Path) -> None:
    report = IngestReport(
        root="docs",
        removed=["gone"],
        bad_files=[
            BadFile("docs/guide.md", "doc_id 'guide' is already indexed for /x", SkipCode.DOC_ID_TAKEN)
        ],
    )
    payload = ingest_report_json(report)
    assert payload["removed"] == ["gone"]
    assert payload["badFiles"] == [
        {
            "path": "docs/guide.md",
            "reason": "doc_id 'guide' is already indexed for /x",
            "code": "doc_id_taken",
        }
    ]


@pytest.mark.slow
def test_the_configured_index_is_opened_from_settings_and_closed_after(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Guide\n\nThe deploy freeze window starts on Friday.\n", "utf-8")
    settings = Settings(data_dir=tmp_path / "data")
    with open_document_index(settings) as index:
        assert ingest_documents(index, docs).documents == ["guide"]
    with open_document_index(settings) as index:  # reopened: the first one released the shard
        assert [d.doc_id for d in list_documents(index)] == ["guide"]
        (docs / "guide.md").unlink()
        with pytest.raises(NoDocumentsError):
            ingest_documents(index, docs)

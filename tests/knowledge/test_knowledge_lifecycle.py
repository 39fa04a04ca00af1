"""Re-ingesting a folder: gone files leave the index, ids of other folders are refused, nothing to
ingest is an error, and every skipped file is named with its reason. Both backends."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from groundgate.errors import InvalidInputError, NoDocumentsError
from groundgate.knowledge import EdgeKnowledgeIndex, QdrantKnowledgeIndex, SearchFilter, ingest_path
from groundgate.knowledge.ingest import SkipCode
from groundgate.knowledge.server import ServerKnowledgeIndex

GUIDE = "# Deploy guide\n\nThe deploy freeze window starts every Friday at 18:00.\n"
POOL = "# Pool runbook\n\nWhen the connection pool is exhausted, raise max_size to 200.\n"
REFUND = "# Refund policy\n\nRefunds over 500 USD need a manager's approval.\n"


@pytest.fixture(params=["edge", "server"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantKnowledgeIndex]:
    backend: QdrantKnowledgeIndex = (
        EdgeKnowledgeIndex(tmp_path / "shard") if request.param == "edge" else ServerKnowledgeIndex.local()
    )
    with backend:
        yield backend


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def indexed(index: QdrantKnowledgeIndex) -> list[str]:
    return [d.doc_id for d in index.documents()]


def _delete(root: Path) -> None:
    (root / "pool.md").unlink()


def _rename(root: Path) -> None:
    (root / "pool.md").rename(root / "pool-v2.md")


def _new_doc_id(root: Path) -> None:
    (root / "pool.md").write_text("---\ndoc_id: pool-runbook\n---\n" + POOL, "utf-8")


def _move_to_subfolder(root: Path) -> None:
    (root / "runbooks").mkdir()
    (root / "pool.md").rename(root / "runbooks" / "pool.md")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "removed", "after"),
    [
        (_delete, ["pool"], ["guide"]),
        (_rename, ["pool"], ["guide", "pool-v2"]),
        (_new_doc_id, ["pool"], ["guide", "pool-runbook"]),
        (_move_to_subfolder, [], ["guide", "pool"]),
    ],
    ids=["deleted", "renamed", "doc-id-changed", "moved-within-the-folder"],
)
def test_reingesting_a_folder_removes_the_documents_whose_files_are_gone(
    index: QdrantKnowledgeIndex,
    tmp_path: Path,
    change: Callable[[Path], None],
    removed: list[str],
    after: list[str],
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE, "pool.md": POOL})
    assert ingest_path(root, index).removed == []
    change(root)
    report = ingest_path(root, index)
    assert report.removed == removed
    assert indexed(index) == after
    assert index.count() == len(after)
    hits = index.search("connection pool exhausted max_size", filters=SearchFilter())
    assert not {h.chunk.doc_id for h in hits} & set(removed)


def _too_large(root: Path) -> dict[str, object]:
    (root / "pool.md").write_text(POOL + "x" * 2_000, "utf-8")
    return {"max_file_bytes": 1_000}


def _malformed(root: Path) -> dict[str, object]:
    (root / "pool.md").write_text("---\neffective_from: 2024-02-30\n---\n" + POOL, "utf-8")
    return {}


@pytest.mark.slow
@pytest.mark.parametrize("spoil", [_too_large, _malformed], ids=["too-large", "malformed"])
def test_a_file_still_there_but_skipped_keeps_its_indexed_document(
    index: QdrantKnowledgeIndex, tmp_path: Path, spoil: Callable[[Path], dict[str, object]]
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE, "pool.md": POOL})
    ingest_path(root, index)
    options = spoil(root)
    report = ingest_path(root, index, **options)  # type: ignore[arg-type]
    assert [Path(b.path).name for b in report.bad_files] == ["pool.md"]
    assert report.removed == []
    assert indexed(index) == ["guide", "pool"]


@pytest.mark.slow
def test_another_folders_documents_are_never_removed(index: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    first = write(tmp_path / "team-a", {"guide.md": GUIDE})
    second = write(tmp_path / "team-b", {"refund.md": REFUND})
    ingest_path(first, index)
    ingest_path(second, index)
    (second / "refund.md").unlink()
    (second / "pool.md").write_text(POOL, "utf-8")
    report = ingest_path(second, index)
    assert report.removed == ["refund"]
    assert indexed(index) == ["guide", "pool"]


def test_a_single_file_given_by_name_removes_nothing(index: QdrantKnowledgeIndex, tmp_path: Path) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE, "pool.md": POOL})
    ingest_path(root, index)
    (root / "pool.md").unlink()
    assert ingest_path(root / "guide.md", index).removed == []
    assert indexed(index) == ["guide", "pool"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("second_name", "given"),
    [("other/guide.md", "folder"), ("other/guide.md", "file")],
    ids=["from-a-folder", "from-a-file"],
)
def test_a_doc_id_of_another_folder_is_refused_with_a_clear_message(
    index: QdrantKnowledgeIndex, tmp_path: Path, second_name: str, given: str
) -> None:
    first = write(tmp_path / "docs", {"guide.md": GUIDE})
    ingest_path(first, index)
    clash = write(tmp_path, {second_name: "# Other guide\n\nA different document with the same name.\n"})
    target = clash / second_name.split("/")[0] if given == "folder" else clash / second_name
    report = ingest_path(target, index)
    [bad] = report.bad_files
    assert bad.code is SkipCode.DOC_ID_TAKEN
    assert bad.path.endswith("other/guide.md")
    assert "doc_id 'guide' is already indexed for" in bad.reason
    assert str((first / "guide.md").resolve()) in bad.reason
    assert "groundgate docs remove guide" in bad.reason
    assert report.ingested == 0
    [hit] = index.search("deploy freeze window", filters=SearchFilter())
    assert hit.chunk.meta.source == "guide.md"  # the first document is untouched
    assert index.search("different document same name", filters=SearchFilter()) == []


@pytest.mark.slow
def test_the_same_file_reingested_through_its_own_folder_or_by_name_is_not_a_clash(
    index: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    root = write(tmp_path / "docs", {"runbooks/pool.md": POOL})
    ingest_path(root, index)
    assert ingest_path(root / "runbooks", index).unchanged == 1
    assert ingest_path(root / "runbooks" / "pool.md", index).unchanged == 1
    assert ingest_path(root, index).bad_files == []


def test_an_empty_folder_is_an_error_that_changes_nothing(
    index: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE})
    ingest_path(root, index)
    (root / "guide.md").unlink()
    with pytest.raises(NoDocumentsError, match="no documents to ingest") as caught:
        ingest_path(root, index)
    assert isinstance(caught.value, InvalidInputError)
    assert "; the document indexed from it stays (remove one with `groundgate docs remove ID`)" in str(
        caught.value
    )
    assert "nothing was changed" in str(caught.value)
    assert indexed(index) == ["guide"]


def test_a_folder_of_unsupported_files_names_them_in_the_error(
    index: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "deck.pptx").write_bytes(b"PK")
    (root / ".hidden.md").write_text(GUIDE, "utf-8")
    with pytest.raises(NoDocumentsError, match=r"skipped: deck\.pptx") as caught:
        ingest_path(root, index)
    assert [Path(str(getattr(b, "path", ""))).name for b in caught.value.skipped] == ["deck.pptx"]


def test_every_skipped_file_of_a_folder_is_named_with_its_reason(
    index: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE})
    (root / "notes.doc").write_bytes(b"\xd0\xcf\x11\xe0")
    (root / "Makefile").write_text("all:\n", "utf-8")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: main\n", "utf-8")
    report = ingest_path(root, index)
    reasons = {Path(b.path).name: (b.code, b.reason) for b in report.bad_files}
    assert set(reasons) == {"notes.doc", "Makefile", "broken.pdf"}
    assert reasons["notes.doc"] == (
        SkipCode.UNSUPPORTED,
        "unsupported file type '.doc' (not Markdown, text, PDF, HTML or Word)",
    )
    assert reasons["Makefile"][1].startswith("unsupported file type '(none)'")
    assert reasons["broken.pdf"][0] is SkipCode.INVALID
    assert "not a readable PDF file" in reasons["broken.pdf"][1]
    assert report.documents == ["guide"]


def test_documents_under_a_folder_that_cannot_be_listed_are_not_taken_for_gone(
    index: QdrantKnowledgeIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE, "locked/pool.md": POOL})
    ingest_path(root, index)
    scandir = os.scandir

    def denied(path: str | os.PathLike[str]) -> object:  # chmod 000 does not stop root, this does
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(os, "scandir", denied)
    report = ingest_path(root, index)
    assert [(Path(b.path).name, b.reason) for b in report.bad_files] == [
        ("locked", "cannot list folder: Permission denied")
    ]
    assert report.removed == []
    assert indexed(index) == ["guide", "pool"]


@pytest.mark.slow
def test_documents_indexed_before_paths_were_recorded_are_taken_over_once(
    index: QdrantKnowledgeIndex, tmp_path: Path
) -> None:
    root = write(tmp_path / "docs", {"guide.md": GUIDE})
    other = write(tmp_path / "other", {"guide.md": GUIDE})
    legacy = ingest_path(root, index)
    assert legacy.ingested == 1
    # What an index written before layout 4 holds: the same points, without `path`.
    [chunk] = index.search("deploy freeze window", filters=SearchFilter())[0:1]
    index.delete_document("guide")
    index.upsert([chunk.chunk])
    assert index.documents()[0].path is None
    report = ingest_path(other, index)
    assert report.bad_files == []
    assert report.ingested == 1  # re-indexed once, to record its path
    assert index.documents()[0].path == str((other / "guide.md").resolve())
    assert ingest_path(other, index).unchanged == 1

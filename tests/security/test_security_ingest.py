"""Ingestion stays inside its root: symbolic links that leave it are skipped and reported, links
inside it are read once, and files over `ingest.max_file_bytes` are skipped with their size.

Issue 9 item 5: `passwd.md -> /etc/passwd` was indexed as a shared document and quoted to every
tenant as a verified answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import Workspace, open_workspace
from groundgate.contracts import ExecutionContext
from groundgate.knowledge import IngestReport, SearchFilter, ingest_path
from groundgate.knowledge.ingest import SkipCode

ACME = ExecutionContext(tenant="acme", user="a", roles=("sre",))
GLOBEX = ExecutionContext(tenant="globex", user="g", roles=("sre",))

OUTSIDE_SECRET = "# Vault\n\nThe vault master password of payment-db is hunter2-staging.\n"
GUIDE = (
    "# Deploy guide\n\nThe deploy freeze window starts every Friday at 18:00 and ends on Monday at 09:00.\n"
)
NESTED = "# Pool runbook\n\nWhen the connection pool of payment-db is exhausted, raise max_size to 200.\n"

needs_passwd = pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="needs /etc/passwd")


def _tree(tmp_path: Path) -> Path:
    """An ingestion root with every kind of link, and a folder outside it that must never be read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(OUTSIDE_SECRET, "utf-8")
    root = tmp_path / "docs"
    (root / "runbooks").mkdir(parents=True)
    (root / "guide.md").write_text(GUIDE, "utf-8")
    (root / "runbooks" / "pool.md").write_text(NESTED, "utf-8")
    links = {
        "passwd.md": Path("/etc/passwd"),  # a system file
        "secret.md": outside / "secret.md",  # a file outside the root
        "outside-folder": outside,  # a folder outside the root
        "guide-alias.md": root / "guide.md",  # a file inside the root: fine, read once
        "runbooks-alias": root / "runbooks",  # a folder inside the root: fine, read once
        "loop": root,  # a cycle through a folder link: never followed round and round
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    return root


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    with open_workspace(tmp_path / "data") as ws:
        yield ws


@pytest.mark.slow
@needs_passwd
def test_links_leaving_the_root_are_skipped_and_reported_with_their_reason(
    workspace: Workspace, tmp_path: Path
) -> None:
    root = _tree(tmp_path)
    report = ingest_path(root, workspace.index)
    skipped = {Path(b.path).name: b for b in report.bad_files}
    assert set(skipped) == {"passwd.md", "secret.md", "outside-folder"}
    for bad in skipped.values():
        assert bad.code is SkipCode.LINK_OUTSIDE_ROOT
        assert "symbolic link leads outside the ingestion root" in bad.reason


@pytest.mark.slow
@needs_passwd
def test_links_inside_the_root_are_read_once_without_duplicates_or_loops(
    workspace: Workspace, tmp_path: Path
) -> None:
    report = ingest_path(_tree(tmp_path), workspace.index)
    assert sorted(report.documents) == ["guide", "pool"]
    assert report.ingested == 2
    assert workspace.index.count() == report.chunks == 2
    hits = workspace.index.search("deploy freeze window Friday", filters=SearchFilter(tenant="acme"))
    assert [h.chunk.meta.source for h in hits] == ["guide.md"]


@pytest.mark.slow
@needs_passwd
@pytest.mark.parametrize(
    ("question", "never"),
    [
        ("What does root:x:0:0 in passwd.md mean?", "root:x:0:0"),
        ("What is the vault master password of payment-db?", "hunter2"),
    ],
    ids=["etc-passwd", "file-outside-the-root"],
)
def test_no_tenant_is_ever_answered_from_a_file_outside_the_root(
    workspace: Workspace, tmp_path: Path, question: str, never: str
) -> None:
    ingest_path(_tree(tmp_path), workspace.index)
    orchestrator = build_orchestrator(workspace.registry)
    for ctx in (ACME, GLOBEX):
        result = orchestrator.run(question, ctx)
        assert never not in result.answer
        assert all(never not in c.excerpt for c in result.citations)
        documents = [d for r in result.tool_results for d in r.documents]
        assert all(d.source not in {"passwd.md", "secret.md"} for d in documents)


@pytest.mark.slow
def test_a_link_named_as_the_ingestion_path_is_judged_by_where_it_leads(
    workspace: Workspace, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(OUTSIDE_SECRET, "utf-8")
    root = tmp_path / "docs"
    root.mkdir()
    (root / "secret.md").symlink_to(outside / "secret.md")
    report = ingest_path(root / "secret.md", workspace.index)
    assert report.ingested == 0
    assert [b.code for b in report.bad_files] == [SkipCode.LINK_OUTSIDE_ROOT]
    assert workspace.index.count() == 0


@pytest.mark.slow
def test_a_broken_link_is_reported_and_ingestion_goes_on(workspace: Workspace, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "guide.md").write_text(GUIDE, "utf-8")
    (root / "gone.md").symlink_to(root / "missing.md")
    report = ingest_path(root, workspace.index)
    assert report.documents == ["guide"]
    assert [(Path(b.path).name, b.code) for b in report.bad_files] == [("gone.md", SkipCode.BROKEN_LINK)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "limit", "skipped"),
    [(2_000, 1_000, True), (1_000, 1_000, False), (999, 1_000, False)],
    ids=["over-the-limit", "at-the-limit", "under-the-limit"],
)
def test_files_over_the_size_limit_are_skipped_and_reported_with_size_and_limit(
    workspace: Workspace, tmp_path: Path, size: int, limit: int, skipped: bool
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    header = "# Big\n\n"
    (root / "big.md").write_text(header + "x" * (size - len(header)), "utf-8")
    (root / "guide.md").write_text(GUIDE, "utf-8")
    report: IngestReport = ingest_path(root, workspace.index, max_file_bytes=limit)
    assert "guide" in report.documents
    if skipped:
        assert "big" not in report.documents
        [bad] = report.bad_files
        assert bad.code is SkipCode.TOO_LARGE
        assert f"{size:,} bytes" in bad.reason
        assert f"{limit:,}" in bad.reason
    else:
        assert "big" in report.documents
        assert report.bad_files == []


@pytest.mark.slow
@needs_passwd
def test_the_ingest_command_prints_every_skipped_file_with_its_reason(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "big.md").write_text("# Big\n\n" + "y" * 5_000, "utf-8")
    env = {
        **os.environ,
        "GROUNDGATE_DATA_DIR": str(tmp_path / "data"),
        "GROUNDGATE_INGEST__MAX_FILE_BYTES": "4096",
    }

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "groundgate.cli", "ingest", str(root), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=180,
            check=False,
        )

    done = cli("--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    codes = {Path(b["path"]).name: b["code"] for b in payload["badFiles"]}
    assert codes == {
        "passwd.md": "link_outside_root",
        "secret.md": "link_outside_root",
        "outside-folder": "link_outside_root",
        "big.md": "too_large",
    }
    shown = " ".join(done.stderr.split())  # the console wraps long lines
    assert "passwd.md" in shown
    assert "symbolic link leads outside the ingestion root" in shown
    assert "over the 4,096-byte limit" in shown

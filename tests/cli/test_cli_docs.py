"""`groundgate ingest`, `docs list` and `docs remove`: managing the knowledge index from the CLI,
through `groundgate.apps.documents` as the API does. In-process through Typer's `CliRunner`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner, Result

from groundgate.cli import app

DOCUMENTS = {
    "payment-errors.md": "---\ntitle: Payment gateway error codes\ndoc_id: payment-errors\n---\n"
    "# Error codes\n\nERR_TIMEOUT is returned by the payment gateway after 3 seconds.\n",
    "refunds.md": "---\ntitle: Refunds\ndoc_id: refund-policy-2026-with-a-long-identifier\ntenant: acme\n---\n"
    "# Refunds\n\nRefunds arrive within 5 working days.\n",
}


def invoke(*args: str, data_dir: Path, code: int = 0) -> Result:
    result = CliRunner().invoke(app, [*args, "--data-dir", str(data_dir)], env={"COLUMNS": "80"})
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    data_dir = tmp_path / "data"
    report = json.loads(invoke("ingest", str(folder), "--json", data_dir=data_dir).stdout)
    assert report["ingested"] == 2
    return data_dir


def listed(data_dir: Path) -> list[dict[str, Any]]:
    documents: list[dict[str, Any]] = json.loads(invoke("docs", "list", "--json", data_dir=data_dir).stdout)
    return documents


@pytest.mark.slow
def test_docs_list_names_every_ingested_document(data_dir: Path) -> None:
    documents = {d["docId"]: d for d in listed(data_dir)}
    assert set(documents) == {"payment-errors", "refund-policy-2026-with-a-long-identifier"}
    assert documents["payment-errors"]["tenant"] is None
    assert documents["refund-policy-2026-with-a-long-identifier"]["tenant"] == "acme"
    text = invoke("docs", "list", data_dir=data_dir).stdout
    assert all(cell_len(line.rstrip()) <= 80 for line in text.splitlines()), text
    assert set(documents) <= set(text.split())  # ids whole, to copy into `docs remove`


@pytest.mark.slow
def test_docs_remove_takes_a_document_out_of_the_index(data_dir: Path) -> None:
    removed = json.loads(invoke("docs", "remove", "payment-errors", "--json", data_dir=data_dir).stdout)
    assert removed["docId"] == "payment-errors"
    assert [d["docId"] for d in listed(data_dir)] == ["refund-policy-2026-with-a-long-identifier"]
    said = invoke("docs", "remove", "refund-policy-2026-with-a-long-identifier", data_dir=data_dir).stdout
    assert said.startswith("removed refund-policy-2026-with-a-long-identifier")
    assert listed(data_dir) == []


@pytest.mark.slow
def test_removing_an_unknown_document_is_a_usage_error(data_dir: Path) -> None:
    result = invoke("docs", "remove", "no-such-doc", data_dir=data_dir, code=2)
    assert "no document 'no-such-doc'" in " ".join(result.stderr.split())

"""The labelled dev set (tests/data/check_dev.jsonl): schema, size, languages and splits."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "tests" / "data" / "check_dev.jsonl"
KEYS = [
    "id", "lang", "domain", "kind", "source", "split", "question", "context", "answer", "label",
    "hallucination_type", "note",
]  # fmt: skip
KINDS = {
    "qa", "paraphrase", "record_to_text", "clause_addition", "entity_swap", "flipped_obligation",
    "changed_time", "cross_language", "summary", "issue_example",
}  # fmt: skip


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in DEV.read_text("utf-8").splitlines() if line.strip()]


def test_every_line_has_the_documented_fields_in_order() -> None:
    rows = _rows()
    assert all(list(r) == KEYS for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)
    assert all((r["label"] == "supported") == (r["hallucination_type"] is None) for r in rows)
    assert all(isinstance(r["context"], list) and 1 <= len(r["context"]) <= 4 for r in rows)


def test_the_set_has_at_least_600_pairs_about_half_of_them_chinese() -> None:
    rows = _rows()
    langs = Counter(r["lang"] for r in rows)
    assert len(rows) >= 600
    assert set(langs) == {"zh", "en"}
    assert 0.4 < langs["zh"] / len(rows) < 0.6


def test_every_kind_is_present_in_both_splits_and_both_labels() -> None:
    rows = _rows()
    assert {r["kind"] for r in rows} == KINDS
    for kind in KINDS:
        of_kind = [r for r in rows if r["kind"] == kind]
        splits = Counter(r["split"] for r in of_kind)
        assert set(splits) == {"tune", "test"}, kind
        assert {r["label"] for r in of_kind} == {"supported", "hallucinated"}, kind
        assert abs(splits["tune"] - splits["test"]) <= max(4, len(of_kind) // 5), kind


def test_the_file_is_what_the_build_script_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "build_check_dev.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr

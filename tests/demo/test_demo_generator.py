"""The demo generator reproduces the bundled workspace byte for byte, and the workspace validates."""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path

from groundgate.demo._generate_workspace import WORKSPACE, generate, validate


def test_the_generator_reproduces_the_bundled_workspace(tmp_path: Path) -> None:
    copy = tmp_path / "workspace"
    shutil.copytree(WORKSPACE, copy)
    written = generate(copy)
    assert written["orders.jsonl"] == 221
    for name in written:
        assert filecmp.cmp(copy / name, WORKSPACE / name, shallow=False), name
    assert validate(copy)["log_lines"] == 5379

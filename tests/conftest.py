"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No test reads the developer's environment, groundgate.toml or ~/.groundgate."""
    import os

    for name in list(os.environ):
        if name.startswith("GROUNDGATE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("GROUNDGATE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return

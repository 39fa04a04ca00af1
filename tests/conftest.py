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


#: Store backends other than the embedded SQLite file: a server round trip per statement, a schema
#: per test. They run in CI (`make test`), not in the fast lane (README, "make test-fast").
_SERVER_BACKENDS = frozenset({"postgresql", "postgres", "mariadb", "mysql"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test parametrised with a database server backend is `slow`."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and any(
            isinstance(value, str) and value in _SERVER_BACKENDS for value in callspec.params.values()
        ):
            item.add_marker(pytest.mark.slow)

"""The security suite (issue: isolation races, injection through documents, planner authorization
fields, symlinks, NUL/control characters, oversized and slow inputs).

Every test under `tests/security/` carries the `security` marker, so the suite runs on its own with
`pytest -m security` and, like every other test, in CI (`make test`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.security)

"""Fixtures of the agent tests: a tool registry with the agent's tools over no documents and no tasks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groundgate.agent import StaticDocumentSource, TaskStore, register_agent_tools
from groundgate.tools.registry import ToolRegistry


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    with ToolRegistry() as reg:
        register_agent_tools(reg, documents=StaticDocumentSource([]), tasks=TaskStore.in_memory())
        yield reg

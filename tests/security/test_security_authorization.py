"""Authorization fields never come from a plan or a request body, in any spelling or at any depth.

Tenant, user, project, space, app, external party and roles come only from the server-resolved
`ExecutionContext` (docs/design.md §1, invariant 1). A model's plan naming one — `tenantId`,
`TENANT_ID`, `tenant-id`, a plural, nested in a filter — is discarded whole before any tool runs,
and a request body naming one is a 422 that says identity comes from the API key.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.apps.workspace import Workspace, load_demo, open_workspace
from groundgate.contracts import ToolCall
from groundgate.settings import Settings
from groundgate.tools.registry import ReasonCode, find_authorization_fields


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    with open_workspace(tmp_path_factory.mktemp("authz")) as ws:
        load_demo(ws)
        yield ws


SPELLINGS: list[tuple[str, dict[str, Any]]] = [
    ("camel", {"query": "ERR_TIMEOUT", "tenantId": "globex"}),
    ("upper snake", {"query": "ERR_TIMEOUT", "TENANT_ID": "globex"}),
    ("kebab", {"query": "ERR_TIMEOUT", "tenant-id": "globex"}),
    ("spaced", {"query": "ERR_TIMEOUT", "Tenant Id": "globex"}),
    ("plural", {"query": "ERR_TIMEOUT", "tenants": ["globex"]}),
    ("roles", {"query": "ERR_TIMEOUT", "Roles": ["admin"]}),
    ("nested", {"query": "ERR_TIMEOUT", "filters": [{"userId": "root"}]}),
    ("deep", {"query": "ERR_TIMEOUT", "a": {"b": {"c": {"ext_party_id": "x"}}}}),
    ("project", {"query": "ERR_TIMEOUT", "PROJECT": "hr"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "arguments"), SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_a_plan_naming_an_authorization_field_in_any_spelling_is_discarded_whole(
    workspace: Workspace, name: str, arguments: dict[str, Any]
) -> None:
    plan = [
        ToolCall(tool="query_logs", arguments={"keywords": ["a"]}),
        ToolCall(tool="lookup_knowledge", arguments=arguments),
    ]
    check = workspace.registry.validate_plan(plan)
    assert not check.ok
    assert check.reason_code == ReasonCode.AUTHORIZATION_FIELD_IN_PLAN
    assert find_authorization_fields(arguments)


@pytest.mark.slow
@pytest.mark.parametrize(
    "key", ["tenant", "tenantId", "TENANT_ID", "tenant-id", "userId", "roles", "projectId", "appId"]
)
def test_a_request_body_naming_an_authorization_field_is_a_422_in_any_spelling(
    workspace: Workspace, tmp_path: Path, key: str
) -> None:
    app = create_app(Settings(data_dir=tmp_path), workspace=workspace)
    with TestClient(app) as client:
        response = client.post("/api/chat", json={"question": "ERR_TIMEOUT 是什么？", key: "globex"})
    assert response.status_code == 422
    assert "come from the API key" in response.json()["message"]

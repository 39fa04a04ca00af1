"""The server-resolved authorization context (docs/design.md §1, invariant 1)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

#: Field names that carry authorization. A model plan naming any of them is discarded whole.
AUTHORIZATION_FIELDS: frozenset[str] = frozenset(
    {
        "tenant",
        "tenant_id",
        "tenantId",
        "user",
        "user_id",
        "userId",
        "project",
        "project_id",
        "projectId",
        "space",
        "space_id",
        "spaceId",
        "app",
        "app_id",
        "appId",
        "ext_party",
        "ext_party_id",
        "extPartyId",
        "role",
        "roles",
    }
)


class ExecutionContext(BaseModel):
    """Who is asking, resolved by the server from authentication. Never part of model input."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    tenant: str
    """Tenant id; every store read is scoped by it."""
    user: str
    """The authenticated principal."""
    roles: tuple[str, ...] = ()
    """Roles granted to the principal."""
    project: str | None = None
    """Current project, when the front end works inside one."""
    allowed_projects: tuple[str, ...] = ()
    """Projects the principal may read; empty means no project restriction."""
    space: str | None = None
    app: str | None = None
    ext_party: str | None = None
    request_id: str | None = None
    """Correlation id for logs; not an authorization field."""

"""API keys → principal → `ExecutionContext` (docs/design.md §1 invariant 1).

- Keys are configured hashed: `[api.keys."<sha256 hex of the key>"]` with `tenant`, `user`, `roles`,
  `allowed_projects`. A request sends the key as `Authorization: Bearer <key>` or `X-API-Key: <key>`
  (both declared as OpenAPI security schemes, `bearer` and `apiKey`; when both are sent, `X-API-Key`
  is used).
- No keys configured: local single-user mode; every request acts as `[local]` (the server then only
  binds to a loopback address).
- Missing or unknown key → 401. A key without the role an endpoint needs → 403: `viewer` may read
  (trace, runs, sessions, cases); `user`, `sre`, `operator` and `admin` may also chat, check and give
  feedback.
- `allowed_projects` (empty: no restriction) travels in the `ExecutionContext`; the knowledge tool
  then searches only documents scoped to those projects and denies a `domain` outside them, and
  `project`-policy tools are denied a target outside them (`groundgate.tools.registry`).
- The `ExecutionContext` is built from the principal alone. Request bodies never carry tenant, user,
  roles or projects: a body naming any authorization field is rejected with 422 (see `schemas`).
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass

from groundgate.contracts import ExecutionContext
from groundgate.errors import AuthError
from groundgate.settings import Settings

READ_ROLES = frozenset({"viewer", "user", "sre", "operator", "admin"})
WRITE_ROLES = frozenset({"user", "sre", "operator", "admin"})
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

__all__ = [
    "LOOPBACK_HOSTS",
    "READ_ROLES",
    "WRITE_ROLES",
    "AuthError",
    "Principal",
    "authenticate",
    "hash_key",
    "require_role",
]


@dataclass(frozen=True, slots=True)
class Principal:
    tenant: str
    user: str
    roles: tuple[str, ...]
    allowed_projects: tuple[str, ...] = ()

    def context(self, request_id: str | None = None) -> ExecutionContext:
        return ExecutionContext(
            tenant=self.tenant,
            user=self.user,
            roles=self.roles,
            allowed_projects=self.allowed_projects,
            request_id=request_id or uuid.uuid4().hex,
        )


def hash_key(key: str) -> str:
    """The sha256 hex digest under which a key is configured."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def authenticate(settings: Settings, *, bearer: str | None, x_api_key: str | None) -> Principal:
    """The principal of the request; `AuthError(401)` when keys are configured and none matches.

    `bearer` is the credential of an `Authorization: Bearer` header, `x_api_key` the `X-API-Key`
    header; when both are sent, `X-API-Key` is used.
    """
    keys = settings.api.keys
    if not keys:
        local = settings.local
        return Principal(tenant=local.tenant, user=local.user, roles=tuple(local.roles))
    key = (x_api_key or "").strip() or (bearer or "").strip()
    if not key:
        raise AuthError(401, "missing API key: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    digest = hash_key(key)
    for configured, entry in keys.items():
        if hmac.compare_digest(configured.lower(), digest):
            return Principal(
                tenant=entry.tenant,
                user=entry.user,
                roles=tuple(entry.roles),
                allowed_projects=tuple(entry.allowed_projects),
            )
    raise AuthError(401, "invalid API key")


def require_role(principal: Principal, allowed: frozenset[str], action: str) -> None:
    if not allowed.intersection(principal.roles):
        raise AuthError(403, f"the key's roles ({', '.join(principal.roles) or 'none'}) may not {action}")

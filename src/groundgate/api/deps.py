"""What routes depend on, typed: the shared `Services` (settings, workspace, store, orchestrator,
metrics, the check slots) and the caller (`Reader`, `Writer`: the principal of the API key, with the
role the route needs; `ReadScope`, `WriteScope`: the tenant scope `apps/` applies).

Routes declare these as `Annotated` parameters (`svc: Svc, who: Writer`); FastAPI resolves them per
request, and the OpenAPI document learns the security schemes from `principal`.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from anyio import CapacityLimiter, to_thread
from fastapi import Depends, Query, Request, Security
from fastapi import Path as FastAPIPath
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from groundgate.api.auth import READ_ROLES, WRITE_ROLES, Principal, authenticate, require_role
from groundgate.api.metrics import Metrics
from groundgate.api.schemas import ID_PATTERN
from groundgate.apps.runs import MAX_LIST_LIMIT
from groundgate.apps.workspace import Workspace
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import Settings
from groundgate.store import Store
from groundgate.verify.assessment import ClaimClassifier

T = TypeVar("T")

__all__ = [
    # shared state
    "CheckSlots",
    "Services",
    "Svc",
    "services",
    # the caller
    "API_KEY",
    "BEARER",
    "ReadScope",
    "Reader",
    "TenantScope",
    "WriteScope",
    "Writer",
    "principal",
    # parameters
    "Limit",
    "PathId",
]


class CheckSlots:
    """At most `limit` grounding checks at once; a request waits at most `timeout` seconds for a slot.

    Checks run in the threadpool the chat runs share, so without a bound a few large checks would
    hold its threads and slow every chat. Waiting happens on the event loop (no thread is held while
    waiting), first come first served. Use from the event loop only: `acquire` and `release` are not
    thread-safe, and need not be.
    """

    def __init__(self, limit: int, timeout: float) -> None:
        self.limit = limit
        self.timeout = timeout
        self._free = limit
        self._waiters: deque[asyncio.Future[bool]] = deque()

    async def acquire(self) -> bool:
        """Take a slot: True once one is free, False when none came free within `timeout`."""
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return True
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        self._waiters.append(waiter)
        timer = loop.call_later(self.timeout, self._expire, waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            # The request went away. A slot handed over just before that must not be lost.
            if waiter.done() and not waiter.cancelled() and waiter.result():
                self.release()
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise
        finally:
            timer.cancel()

    def release(self) -> None:
        """Give a slot back: to the longest waiter, if any."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(True)  # the slot passes straight to it
                return
        self._free += 1

    @property
    def busy(self) -> int:
        """Slots in use now."""
        return self.limit - self._free

    def _expire(self, waiter: asyncio.Future[bool]) -> None:
        if not waiter.done():
            self._waiters.remove(waiter)
            waiter.set_result(False)


@dataclass
class Services:
    settings: Settings
    workspace: Workspace
    store: Store
    orchestrator: Orchestrator
    classifier: ClaimClassifier
    """The grounding checker of `POST /api/check` (the judge model when configured, else offline)."""
    metrics: Metrics = field(default_factory=Metrics)
    check_slots: CheckSlots = field(init=False)
    """`POST /api/check` runs at most `check.max_concurrency` checks at once (see `CheckSlots`)."""

    _chat_limiter: CapacityLimiter | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        check = self.settings.check
        self.check_slots = CheckSlots(check.max_concurrency, check.queue_timeout_seconds)

    async def run_chat(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` on a worker thread, at most `Settings.chat_workers` at once.

        Chats do not share the threadpool of the other routes (40 threads): an offline chat is CPU
        work under the interpreter lock, and 40 of them at once spend a third of the CPU switching
        between threads (measured: docs/benchmarks.md, "Service throughput"). Waiting chats hold no
        thread. Call from the event loop: the limiter is made on first use, on the running loop.
        """
        if self._chat_limiter is None:
            self._chat_limiter = CapacityLimiter(self.settings.chat_workers)
        return await to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=self._chat_limiter)


@dataclass(frozen=True, slots=True)
class TenantScope:
    """What a caller may read: its tenant, and whether sessions without a tenant count as its own
    (only in local mode, no API keys: see `groundgate.apps.runs`)."""

    tenant: str
    include_untenanted: bool


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


# Declared as OpenAPI security schemes (either one), so `/docs` can authorize and clients and
# fuzzers see how to authenticate; `auto_error=False`: the 401 comes from `authenticate` (or, in local
# mode without keys, no key is needed at all).
BEARER = HTTPBearer(scheme_name="bearer", auto_error=False, description="`Authorization: Bearer <API key>`")
API_KEY = APIKeyHeader(
    name="X-API-Key", scheme_name="apiKey", auto_error=False, description="`X-API-Key: <API key>`"
)

Svc = Annotated[Services, Depends(services)]


def principal(
    svc: Svc,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
    x_api_key: Annotated[str | None, Security(API_KEY)],
) -> Principal:
    return authenticate(
        svc.settings, bearer=bearer.credentials if bearer is not None else None, x_api_key=x_api_key
    )


def reader(who: Annotated[Principal, Depends(principal)]) -> Principal:
    require_role(who, READ_ROLES, "read runs")
    return who


def writer(who: Annotated[Principal, Depends(principal)]) -> Principal:
    require_role(who, WRITE_ROLES, "ask, check or give feedback")
    return who


Reader = Annotated[Principal, Depends(reader)]
Writer = Annotated[Principal, Depends(writer)]


def read_scope(svc: Svc, who: Reader) -> TenantScope:
    return TenantScope(tenant=who.tenant, include_untenanted=not svc.settings.api.keys)


def write_scope(svc: Svc, who: Writer) -> TenantScope:
    return TenantScope(tenant=who.tenant, include_untenanted=not svc.settings.api.keys)


ReadScope = Annotated[TenantScope, Depends(read_scope)]
WriteScope = Annotated[TenantScope, Depends(write_scope)]

Limit = Annotated[int, Query(ge=1, le=MAX_LIST_LIMIT)]
# Documented for clients; enforced (with a message naming the character) by `RequestGuard`.
PathId = Annotated[str, FastAPIPath(json_schema_extra={"pattern": ID_PATTERN})]

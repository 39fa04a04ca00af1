"""The case library: cases distilled from the tenant's `useful` runs (docs/design.md §6)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from groundgate.api.deps import Limit, ReadScope, Svc
from groundgate.api.errors import ERROR_RESPONSES
from groundgate.apps.cases import CaseRecord, list_cases

__all__ = ["router"]

router = APIRouter(tags=["runs"], responses=ERROR_RESPONSES)


@router.get("/api/cases", response_model=list[CaseRecord], response_model_by_alias=True)
async def cases(svc: Svc, scope: ReadScope, limit: Limit = 50) -> list[CaseRecord]:
    """The tenant's case library, newest first. It follows the latest feedback: a run rated
    `not_useful` after `useful` is not in it."""
    return await run_in_threadpool(
        list_cases, svc.store, tenant=scope.tenant, limit=limit, include_untenanted=scope.include_untenanted
    )

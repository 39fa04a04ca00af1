"""Reading runs: a run's trace, a session's runs, the tenant's runs (the bad cases with
`feedback=not_useful`). The caller's tenant only: another tenant's run or session is 404."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse

from groundgate.api.deps import Limit, PathId, ReadScope, Svc
from groundgate.api.errors import ERROR_RESPONSES
from groundgate.api.schemas import ID_PATTERN
from groundgate.apps.feedback import FEEDBACK_VALUES
from groundgate.apps.run_trace import RunTrace, get_trace
from groundgate.apps.runs import RunSummary, list_runs

__all__ = ["router"]

router = APIRouter(tags=["runs"], responses=ERROR_RESPONSES)


@router.get("/api/trace/{run_id}", response_model=RunTrace, response_model_by_alias=True)
async def trace(run_id: PathId, svc: Svc, scope: ReadScope) -> RunTrace:
    """Everything stored about one run of the caller's tenant (404 for another tenant's run)."""
    return await run_in_threadpool(
        get_trace, svc.store, run_id, tenant=scope.tenant, include_untenanted=scope.include_untenanted
    )


@router.get("/api/sessions/{session_id}/runs", response_model=list[RunSummary], response_model_by_alias=True)
async def session_runs(session_id: PathId, svc: Svc, scope: ReadScope, limit: Limit = 50) -> list[RunSummary]:
    """The session's runs, newest first."""
    return await run_in_threadpool(
        list_runs,
        svc.store,
        tenant=scope.tenant,
        session_id=session_id,
        limit=limit,
        include_untenanted=scope.include_untenanted,
    )


@router.get("/api/runs", response_model=list[RunSummary], response_model_by_alias=True)
async def runs(
    svc: Svc,
    scope: ReadScope,
    feedback: Annotated[
        str | None,
        Query(description="useful or not_useful", json_schema_extra={"enum": list(FEEDBACK_VALUES)}),
    ] = None,
    session_id: Annotated[
        str | None, Query(alias="sessionId", json_schema_extra={"pattern": ID_PATTERN})
    ] = None,
    limit: Limit = 50,
) -> list[RunSummary]:
    """The tenant's runs, newest first (`feedback=not_useful`: the bad cases; another value: 400)."""
    return await run_in_threadpool(
        list_runs,
        svc.store,
        tenant=scope.tenant,
        session_id=session_id,
        feedback=feedback,
        limit=limit,
        include_untenanted=scope.include_untenanted,
    )


@router.get(
    "/api/runs/{run_id}/fixture",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"application/yaml": {}}, "description": "The run as a fixture (YAML)."},
        # Errors stay JSON (`ErrorBody`) whatever this route's own content type is.
        **{
            code: {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
            for code in ERROR_RESPONSES
        },
    },
)
async def run_fixture(run_id: PathId, svc: Svc, scope: ReadScope) -> PlainTextResponse:
    """The run as a replayable eval fixture (docs/eval.md): its question, its tool outputs re-read
    through this service's tools, its model outputs and its outcome as expectations; a bad case gets
    an empty `reviewer_expected` to fill in. Runs of the caller's tenant only (404 otherwise); a
    business agent run becomes an `agent_turn` fixture whose outputs are rebuilt from the stored
    excerpts (`groundgate eval capture` re-executes them over the HR workspace)."""
    from groundgate.regression.capture import capture_run
    from groundgate.regression.fixtures import dump_fixture

    def capture() -> str:
        # Visibility is the trace's rule (the capture itself reads as the operator would).
        get_trace(svc.store, run_id, tenant=scope.tenant, include_untenanted=scope.include_untenanted)
        return dump_fixture(capture_run(svc.store, run_id, tenant=scope.tenant, tools=svc.workspace.registry))

    text = await run_in_threadpool(capture)
    return PlainTextResponse(
        text,
        media_type="application/yaml",
        headers={"Content-Disposition": f'attachment; filename="{run_id}.yaml"'},
    )

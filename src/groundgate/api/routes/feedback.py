"""`POST /api/feedback` (docs/design.md §6): `useful` puts the run in the case library (once),
`not_useful` marks a bad case and takes the run out of the library again; other values are 400.

The reply's message is in the caller's language: `Accept-Language` (zh or en) when it names one,
else the language of the rated question."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header
from fastapi.concurrency import run_in_threadpool

from groundgate.api.deps import Svc, WriteScope
from groundgate.api.errors import ERROR_RESPONSES
from groundgate.api.schemas import FeedbackRequest
from groundgate.apps.feedback import FeedbackResponse, give_feedback, language_from_header

__all__ = ["router"]

router = APIRouter(tags=["runs"], responses=ERROR_RESPONSES)


@router.post("/api/feedback", response_model=FeedbackResponse, response_model_by_alias=True)
async def feedback(
    body: FeedbackRequest,
    svc: Svc,
    scope: WriteScope,
    accept_language: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> FeedbackResponse:
    """Seed 004 §7: `useful` distils a case (once), `not_useful` marks a bad case; others → 400."""
    return await run_in_threadpool(
        give_feedback,
        svc.store,
        tenant=scope.tenant,
        session_id=body.session_id,
        run_id=body.run_id,
        feedback=body.feedback,
        language=language_from_header(accept_language),
        include_untenanted=scope.include_untenanted,
    )

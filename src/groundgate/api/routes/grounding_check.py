"""`POST /api/check`: the grounding checker over HTTP, within the `[check]` budgets.

With a judge model configured (`[roles.judge]`, else `[model]`) the model classifies the claims
(`checker` `llm`), verified in code; when the model call fails the offline checker answers
(`checker` `offline`, `judge_status` says why) — still 200. Without a model, the offline checker.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from groundgate.api.deps import Svc, Writer
from groundgate.api.errors import ERROR_RESPONSES, error_response
from groundgate.api.schemas import CheckBody
from groundgate.apps.grounding_check import check_size, check_within_budget
from groundgate.contracts import CheckResult
from groundgate.errors import InvalidInputError

__all__ = ["router"]

router = APIRouter(tags=["check"], responses=ERROR_RESPONSES)


@router.post("/api/check", response_model=CheckResult)
async def check_answer(body: CheckBody, svc: Svc, _who: Writer) -> CheckResult | JSONResponse:
    """The grounding checker: verdict and groundedness score of an answer against context passages.

    Within the `[check]` budgets: a context or answer over its size limit is 413
    `payload_too_large`; at most `check.max_concurrency` checks run at once (in the threadpool,
    off the event loop), and a request that waits `check.queue_timeout_seconds` for a slot is
    503 `busy`; a check past `check.time_budget_seconds` is answered `LOW_CONFID`.
    """
    context = [body.context] if isinstance(body.context, str) else body.context
    if not context or not any(c.strip() for c in context):
        raise InvalidInputError("context needs at least one non-empty passage")
    budget = svc.settings.check
    check_size(context, body.answer, body.question, budget)  # CheckBudgetError → 413
    if not await svc.check_slots.acquire():
        response = error_response(
            503,
            "busy",
            f"{budget.max_concurrency} checks are running and none finished within "
            f"{budget.queue_timeout_seconds:g} s (settings check.max_concurrency, "
            "check.queue_timeout_seconds); retry later",
        )
        response.headers["Retry-After"] = str(max(1, round(budget.queue_timeout_seconds)))
        return response

    def run() -> CheckResult:
        result = check_within_budget(
            context=context,
            answer=body.answer,
            question=body.question,
            classifier=svc.classifier,
            budget=budget,
        )
        return result.model_copy(update={"id": body.id})

    try:
        return await run_in_threadpool(run)
    finally:
        svc.check_slots.release()

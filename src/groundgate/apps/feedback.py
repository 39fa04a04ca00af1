"""User feedback (docs/design.md §6, `FeedbackService`): `useful` / `not_useful` on a run.

- `runId` given: it must exist and belong to `sessionId`. An empty `runId` is refused (it is not
  "the latest run": the user would silently rate another run than the one they saw).
- `runId` missing: bind the session's latest run and answer `fallbackToLatestRun=true`.
- No run at all but a legacy `diagnosis_session`: write the session's feedback (no latest-run claim).
- `useful` creates or returns the run's case — only for a run that `SUCCEEDED`: a `RUNNING` run has
  no answer yet and a `FAILED` one has no verified answer, so either would be an empty case. It is
  refused (nothing changes; rate it once it has finished). `not_useful` marks a findable bad case, on
  any run (a failed run is a bad case worth finding).
- Feedback never changes `status`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy.orm import Session

from groundgate.apps.cases import create_case_from_legacy_session, create_case_from_run
from groundgate.errors import InvalidInputError
from groundgate.store.repositories import get_run, get_session_row, latest_run

FEEDBACK_VALUES = ("useful", "not_useful")
SUCCEEDED = "SUCCEEDED"
RECORDED_MESSAGE = "反馈已记录"


class FeedbackResponse(BaseModel):
    """The seed's response body: `success, message, runId, fallbackToLatestRun, caseId`."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    success: bool
    message: str
    run_id: str | None
    fallback_to_latest_run: bool = False
    case_id: str | None = None


def submit_feedback(
    *, session: Session, session_id: str, feedback: str, run_id: str | None = None
) -> FeedbackResponse:
    """Record feedback; raises `InvalidInputError` (HTTP 400) or `NotFoundError` and changes nothing then."""
    if feedback not in FEEDBACK_VALUES:
        raise InvalidInputError(f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")
    if not session_id:
        raise InvalidInputError("sessionId is required")
    fallback = False
    if run_id is not None and not run_id.strip():
        raise InvalidInputError("runId is empty; omit it to rate the session's latest run")
    if run_id is not None:
        run = get_run(run_id, session=session, lock=True)
        if run.session_id != session_id:
            raise InvalidInputError(f"run {run_id!r} does not belong to session {session_id!r}")
    else:
        latest = latest_run(session_id, session=session)
        if latest is None:
            return _legacy_session_feedback(session=session, session_id=session_id, feedback=feedback)
        run = get_run(latest.run_id, session=session, lock=True)
        fallback = True
    if feedback == "useful" and run.status != SUCCEEDED:
        raise InvalidInputError(
            f"run {run.run_id!r} is {run.status}: only a run that succeeded can be marked useful "
            "(it becomes a case); give not_useful, or rate it once it has finished"
        )
    run.feedback = feedback
    session.flush()
    case_id = None
    if feedback == "useful":
        case, _created = create_case_from_run(run.run_id, session=session)
        case_id = case.case_id
    return FeedbackResponse(
        success=True,
        message=RECORDED_MESSAGE,
        run_id=run.run_id,
        fallback_to_latest_run=fallback,
        case_id=case_id,
    )


def _legacy_session_feedback(*, session: Session, session_id: str, feedback: str) -> FeedbackResponse:
    row = get_session_row(session_id, session=session, lock=True)  # NotFoundError when unknown
    row.feedback = feedback
    session.flush()
    case_id = None
    if feedback == "useful":
        case, _created = create_case_from_legacy_session(session_id, session=session)
        case_id = case.case_id
    return FeedbackResponse(success=True, message=RECORDED_MESSAGE, run_id=None, case_id=case_id)

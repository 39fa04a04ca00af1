"""User feedback (docs/design.md §6, `FeedbackService`): `useful` / `not_useful` on a run.

- `runId` given: it must exist and belong to `sessionId`. An empty `runId` is refused (it is not
  "the latest run": the user would silently rate another run than the one they saw).
- `runId` missing: bind the session's latest run and answer `fallbackToLatestRun=true`.
- No run at all but a legacy `diagnosis_session`: write the session's feedback (no latest-run claim).
- `useful` creates or returns the run's case — only for a run that `SUCCEEDED`: a `RUNNING` run has
  no answer yet and a `FAILED` one has no verified answer, so either would be an empty case. It is
  refused (nothing changes; rate it once it has finished). `not_useful` marks a findable bad case, on
  any run (a failed run is a bad case worth finding).
- The case library follows the latest feedback: `not_useful` after `useful` removes the run's case,
  and the reply says so (`inCaseLibrary`, and the message).
- The reply's message is in the caller's language: the one asked for (the API's `Accept-Language`),
  else the language of the rated question.
- Feedback never changes `status`.

`give_feedback` is the entry point of the API and the CLI: it applies the tenant rule of
`groundgate.apps.runs` and then `submit_feedback` (the rule itself, inside a unit of work).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy.orm import Session

from groundgate.apps.cases import create_case_from_legacy_session, create_case_from_run, withdraw_case
from groundgate.apps.runs import FEEDBACK_VALUES, check_feedback_value, check_session_visible, visible
from groundgate.compose.composer import language_of
from groundgate.compose.templates import Language, templates
from groundgate.errors import InvalidInputError, NotFoundError
from groundgate.store import Store
from groundgate.store.repositories import find_session_row, get_run, get_session_row, latest_run

__all__ = [
    # entry points
    "give_feedback",
    "submit_feedback",
    # rules and shapes
    "FEEDBACK_VALUES",
    "FeedbackResponse",
    "check_feedback_value",
    "feedback_message",
    "language_from_header",
]

SUCCEEDED = "SUCCEEDED"

CaseChange = Literal["added", "removed", "none"]
_CaseFactory = Callable[[], str]


class FeedbackResponse(BaseModel):
    """The seed's response body `success, message, runId, fallbackToLatestRun, caseId`, plus
    `inCaseLibrary`: whether the rated run (or legacy session) is in the case library now."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    success: bool
    message: str
    run_id: str | None
    fallback_to_latest_run: bool = False
    case_id: str | None = None
    in_case_library: bool = False


def feedback_message(change: CaseChange, language: Language) -> str:
    texts = templates(language)
    if change == "added":
        return texts.feedback_case_added
    if change == "removed":
        return texts.feedback_case_removed
    return texts.feedback_recorded


def language_from_header(accept_language: str | None) -> Language | None:
    """The first of zh / en an `Accept-Language` header names (by q-value), or None.

    `*`, other languages and a missing header say nothing; the question's language decides then."""
    if not accept_language:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0  # a malformed weight counts as "not acceptable"
        if quality > 0:
            ranked.append((-quality, index, tag.strip().lower()))
    for _q, _i, tag in sorted(ranked):
        primary = tag.split("-", 1)[0]
        if primary == "zh":
            return "zh-CN"
        if primary == "en":
            return "en"
    return None


def give_feedback(
    store: Store,
    *,
    tenant: str | None,
    feedback: str,
    session_id: str | None = None,
    run_id: str | None = None,
    language: Language | None = None,
    include_untenanted: bool = False,
) -> FeedbackResponse:
    """Rate a run `tenant` may see (None: the operator, any run), in one transaction.

    `session_id` omitted: the run's own session (`run_id` is then required). A session or run the
    tenant may not see is `NotFoundError`, exactly as an unknown one."""
    check_feedback_value(feedback)
    _check_run_id(run_id)
    if session_id is None and run_id is None:
        raise InvalidInputError("give a run id or a session id")
    with store.session() as session:
        # The session named is checked first: "not yours" is about what the caller named.
        if session_id is not None:
            check_session_visible(
                session_id, session=session, tenant=tenant, include_untenanted=include_untenanted
            )
        if run_id is not None:
            run = get_run(run_id, session=session)
            owner = find_session_row(run.session_id, session=session)
            if owner is None or not visible(owner.tenant, tenant, include_untenanted=include_untenanted):
                raise NotFoundError(f"unknown run id {run_id!r}")
            session_id = session_id or run.session_id
        assert session_id is not None  # given, or the run's own
        return submit_feedback(
            session=session, session_id=session_id, feedback=feedback, run_id=run_id, language=language
        )


def submit_feedback(
    *,
    session: Session,
    session_id: str,
    feedback: str,
    run_id: str | None = None,
    language: Language | None = None,
) -> FeedbackResponse:
    """Record feedback; raises `InvalidInputError` (HTTP 400) or `NotFoundError` and changes nothing then.

    No tenant rule here: callers outside a unit of work use `give_feedback`."""
    check_feedback_value(feedback)
    if not session_id:
        raise InvalidInputError("sessionId is required")
    fallback = False
    _check_run_id(run_id)
    if run_id is not None:
        run = get_run(run_id, session=session, lock=True)
        if run.session_id != session_id:
            raise InvalidInputError(f"run {run_id!r} does not belong to session {session_id!r}")
    else:
        latest = latest_run(session_id, session=session)
        if latest is None:
            return _legacy_session_feedback(
                session=session, session_id=session_id, feedback=feedback, language=language
            )
        run = get_run(latest.run_id, session=session, lock=True)
        fallback = True
    if feedback == "useful" and run.status != SUCCEEDED:
        raise InvalidInputError(
            f"run {run.run_id!r} is {run.status}: only a run that succeeded can be marked useful "
            "(it becomes a case); give not_useful, or rate it once it has finished"
        )
    run.feedback = feedback
    session.flush()
    case_id, change = _follow_feedback(
        feedback, run.run_id, lambda: create_case_from_run(run.run_id, session=session)[0].case_id, session
    )
    return FeedbackResponse(
        success=True,
        message=feedback_message(change, language or language_of(run.query or "")),
        run_id=run.run_id,
        fallback_to_latest_run=fallback,
        case_id=case_id,
        in_case_library=case_id is not None,
    )


def _check_run_id(run_id: str | None) -> None:
    # An empty `runId` is a client bug, not "the latest run": rating another run than the one the
    # user saw would be silent. Omitting it rates the latest run.
    if run_id is not None and not run_id.strip():
        raise InvalidInputError("runId is empty; omit it to rate the session's latest run")


def _follow_feedback(
    feedback: str, diagnosis_id: str, create: _CaseFactory, session: Session
) -> tuple[str | None, CaseChange]:
    """The case library after `feedback`: (the case id if in it now, what changed)."""
    if feedback == "useful":
        return create(), "added"
    return None, "removed" if withdraw_case(diagnosis_id, session=session) else "none"


def _legacy_session_feedback(
    *, session: Session, session_id: str, feedback: str, language: Language | None
) -> FeedbackResponse:
    row = get_session_row(session_id, session=session, lock=True)  # NotFoundError when unknown
    row.feedback = feedback
    session.flush()
    case_id, change = _follow_feedback(
        feedback,
        session_id,
        lambda: create_case_from_legacy_session(session_id, session=session)[0].case_id,
        session,
    )
    return FeedbackResponse(
        success=True,
        message=feedback_message(change, language or language_of(row.query or "")),
        run_id=None,
        case_id=case_id,
        in_case_library=case_id is not None,
    )

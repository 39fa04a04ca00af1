"""A session's earlier turns, for understanding a follow-up question ("那 P2 呢？").

Only what the user asked is read — each earlier run's question and the question it was resolved to
(recorded in its round-1 planner step, `model_output.question_needs.resolved_question`). Answers are
never read: an earlier answer has no fact status (docs/design.md §1 invariant 11) and must not become evidence.
Read-only use of the store.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select

from groundgate.questions import Turn
from groundgate.store import Store
from groundgate.store.tables import AgentStepRow, DiagnosisRun

__all__ = ["DEFAULT_HISTORY_TURNS", "load_session_history"]

#: Earlier turns a follow-up is resolved against (the last one is what "那 P2 呢？" leans on).
DEFAULT_HISTORY_TURNS = 5


# Built once (a statement per call cost more than running it).
_LAST_RUNS = (
    select(DiagnosisRun.run_id, DiagnosisRun.query)
    .where(DiagnosisRun.session_id == bindparam("b_session_id"), DiagnosisRun.status != "RUNNING")
    .order_by(DiagnosisRun.id.desc())
    .limit(bindparam("b_limit"))
)
_PLANNER_STEPS = (
    select(AgentStepRow.run_id, AgentStepRow.model_output)
    .where(
        AgentStepRow.run_id.in_(bindparam("b_run_ids", expanding=True)),
        AgentStepRow.role == "planner",
        AgentStepRow.round == 1,
    )
    .order_by(AgentStepRow.seq)
)


def load_session_history(
    store: Store, session_id: str, *, limit: int = DEFAULT_HISTORY_TURNS, exclude_run_id: str | None = None
) -> list[Turn]:
    """The last `limit` finished turns of `session_id`, oldest first, as (question, resolved question).

    Runs still `RUNNING` (the run being answered, or a concurrent one) and `exclude_run_id` are left
    out; a run recorded before needs were derived counts with its question as its resolved question.
    """
    if limit <= 0:
        return []
    # One statement per read, each its own transaction where the store has an autocommit engine
    # (`Store.read`): the planner steps of a finished run were committed before the run finished.
    with store.read() as connection:
        rows = connection.execute(
            _LAST_RUNS,
            {
                "b_session_id": session_id,
                "b_limit": limit + (1 if exclude_run_id else 0),
            },
        ).all()
        runs = [(run_id, query or "") for run_id, query in rows if run_id != exclude_run_id][:limit]
        if not runs:
            return []
        steps = connection.execute(_PLANNER_STEPS, {"b_run_ids": [run_id for run_id, _ in runs]}).all()
    resolved: dict[str, str] = {}
    for run_id, output in steps:
        text = _resolved_question(output)
        if text and run_id not in resolved:
            resolved[run_id] = text
    return [(query, resolved.get(run_id, query)) for run_id, query in reversed(runs) if query.strip()]


def _resolved_question(model_output: Any) -> str:
    if not isinstance(model_output, dict):
        return ""
    needs = model_output.get("question_needs")
    if not isinstance(needs, dict):
        return ""
    value = needs.get("resolved_question")
    return value if isinstance(value, str) else ""

"""Shared helpers of the agent's rule tests: the demo day, the asker, and a plan made by the rules."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from groundgate.agent import PlanSource, ResolvedContext, validate_draft
from groundgate.agent.planning import propose_by_rules
from groundgate.contracts import ExecutionContext, VerifiedFact
from groundgate.tools.registry import ToolRegistry

#: The HR demo's day (a Wednesday) and the default asker (u-li in proj-east).
TODAY = date(2026, 4, 15)
NOW = datetime(2026, 4, 15, 9, 0, tzinfo=UTC)
CTX = ExecutionContext(tenant="hrdemo", user="u-li", project="proj-east")


def plan_by_rules(question: str, registry: ToolRegistry, **resolved: Any) -> Any:
    """The validated plan the offline rules make for `question` on `TODAY`."""
    ctx = ResolvedContext(question=question, resolved_question=question, **resolved)
    draft = propose_by_rules(ctx, TODAY)
    return validate_draft(draft, ctx, registry, today=TODAY, source=PlanSource.RULES)


def task_fact(ref: str, title: str) -> VerifiedFact:
    """A pending task of u-li in proj-east, as the task tool returns it."""
    return VerifiedFact.model_validate(
        {
            "fact_ref": ref,
            "fact_type": "task",
            "value": {"taskKey": ref, "title": title, "status": "PENDING"},
            "source_system": "hr-task-store",
            "queried_at": NOW,
            "ttl_seconds": 600,
            "scope": "proj-east",
            "authorization_snapshot": {"tenant": "hrdemo", "user": "u-li", "project": "proj-east"},
        }
    )

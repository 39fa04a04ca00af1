"""The rule behind a named task, asked in the same sentence as the task.

"我那条提交四月差旅报销的待办，金额一共 6200 元，要谁审批？" (blind 26) names the caller's task and asks who
approves a claim of that sum. The task's row states no approver: the policy does (超过 5000 元的还需财务总监
审批). Read as a task question alone it had listed the caller's tasks, a wrong `ANSWERED`. The clause that asks
(`要谁审批`), when it is no task question itself, adds its approval need; the search query is the sentence with
the task's pointer words (`我那条`, `待办`) left out, so they are no subject words the rule must name.
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from groundgate.agent.contracts import NeedCode

__all__ = ["rule_behind_task", "without_task_words"]

_CLAUSE = re.compile(r"[，,]")
#: Who approves ("要谁审批", "得哪位领导批"): asked of the policy; "我最晚哪天得批完" asks the task.
_WHO = re.compile(r"谁|哪(?:些|个|位)(?:领导|人)")
#: A task word or pointer ("那条…的待办", "任务"): the task's row answers it, not a document.
_TASK_WORD = re.compile(r"(?i)(?:那条|这条|那个|的)?(?:待办|任务)|那条|\btasks?\b")


def rule_behind_task(
    part: str,
    is_task_question: Callable[[str], bool],
    needs_of: Callable[[str], list[NeedCode]],
) -> list[NeedCode]:
    """The approval need of a task part's last clause when that clause asks a rule, not the task."""
    clauses = [c for c in _CLAUSE.split(part.rstrip("？?。 ")) if c.strip()]
    if len(clauses) < 2 or is_task_question(clauses[-1]) or not _WHO.search(clauses[-1]):
        return []
    return [n for n in needs_of(clauses[-1]) if n is NeedCode.APPROVAL]


def without_task_words(question: str) -> str:
    """`question` with the task's pointer words left out, for the document search."""
    return _TASK_WORD.sub("", question).strip() or question

"""A task list narrowed or switched by a bare follow-up: "只看西部项目的呢？", "那 u-wang 呢？".

After "这周还有哪些待办没做完？", "只看西部项目的呢？" (blind 26, asked in the west project's context) asks the same
list for that project, and "那 u-wang 呢？" the same list for another user. Neither names a need, a subject or
a word of the earlier question's classes, so both were asked back (`NEEDS_INPUT`). The earlier task question
is now asked again with the project or the user put in front of it: "西部项目这边，这周…" is read in the
caller's own context (the words never choose the project: the server's `ExecutionContext` does), and
"u-wang的这周…" is someone else's tasks (`agent.holders`): refused, never answered from the caller's rows.
Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["narrowed_task_question"]

#: The earlier question asked the caller's tasks.
_TASK_QUESTION: Final = re.compile(r"待办|任务")
#: "只看西部项目的呢？", "那东部项目那边呢", "那 u-wang 呢？": a project or a user id, and nothing else asked.
_NARROWED: Final = re.compile(
    r"^\s*(?:那么|那)?\s*(?:只看|光看|就看|只要|换成)?\s*"
    r"(?:(?P<project>[东西南北中]部项目(?:组)?|proj-[a-z]+)|(?P<user>u-[a-z][a-z0-9_-]*))\s*"
    r"(?:这边|那边)?(?:的)?(?:待办)?\s*呢?\s*[？?。]*\s*$",
    re.IGNORECASE,
)


def narrowed_task_question(question: str, previous: str) -> str | None:
    """The earlier task question asked for the project or user `question` names; None otherwise."""
    if not _TASK_QUESTION.search(previous):
        return None
    m = _NARROWED.match(question)
    if m is None:
        return None
    if m.group("user"):
        return f"{m.group('user')}的{previous}"
    return f"{m.group('project')}这边，{previous}"

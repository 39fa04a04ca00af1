"""A task's due date set against a policy deadline: the task alone cannot decide it.

"我那条提交三月差旅报销的待办…等到待办截止那天再交还来得及吗？", "确认年休假计划那条待办到期那天…当天才提申请来得
及吗？", "If I hand in my travel claim on that task's due date, is it still within the 30-day limit?" (blind 23)
ask whether doing something on a task's due day keeps within a rule's period (30 天内提交, 提前 3 个工作日).
The task's row gives the day; only the rule's period decides it, so such a question needs the amount rule
(a duration) besides the task's state — answered with the task alone it had been a wrong `ANSWERED`.
Pure: no I/O.
"""

from __future__ import annotations

import re

__all__ = ["due_against_deadline"]

#: The task's due day as the day something is done: "截止那天", "到期当天", "that task's due date".
_DUE_DAY = re.compile(r"(?:截止|到期)(?:的)?(?:那一?天|当天|那日|日)|(?i:due\s+(?:date|day))")
#: Whether that day keeps within a period: "来得及吗", "还在 30 天内吗", "赶得上吗", "within the 30-day limit".
_IN_TIME = re.compile(
    r"来得及|赶得上|还在[^，,。？?]{0,12}(?:内|以内|之内)|算不算逾期|会不会逾期|是不是逾期|还能(?:报|交|休|请)"
    r"|(?i:\bwithin\b|in\s+time|too\s+late)"
)


def due_against_deadline(question: str) -> bool:
    """Whether `question` asks if a task's due day keeps within a rule's period (module docs)."""
    return bool(_DUE_DAY.search(question)) and bool(_IN_TIME.search(question))


#: A task word or pointer ("待办", "那条", "that task's"): the task's row answers it, not a document.
_TASK_WORD = re.compile(r"(?i)待办|任务|那条|that\s+task'?s?|\btasks?\b")
#: The due day however reached ("等到待办截止那天", "拖到截止那天"): said plainly, so no verb stays a subject word.
_TO_DUE_DAY = re.compile(r"(?:等到|拖到|到了?)?(?:待办|任务)?(?:截止|到期)(?:的)?(?:那一?天|当天|那日)")
_CLAUSES = re.compile(r"(?<=[，,；;。？?！!])")


def deadline_query(question: str) -> str:
    """The rule part of `question` for the document search: clauses about the task itself ("我那条提交三月差旅
    报销的待办还没交", "确认年休假计划那条待办到期那天") left out, the due day said plainly in the clause that asks
    ("…截止那天再交还来得及吗？"), so the task's title is no subject word the rule must name."""
    kept: list[str] = []
    for clause in _CLAUSES.split(question):
        if not clause.strip():
            continue
        asks = bool(_IN_TIME.search(clause))
        if _TASK_WORD.search(clause) and not asks:
            continue
        kept.append(_TASK_WORD.sub("", _TO_DUE_DAY.sub("截止那天", clause)) if asks else clause)
    return "".join(kept).strip() or question

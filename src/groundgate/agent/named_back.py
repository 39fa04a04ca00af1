"""A turn that only names the task an earlier, unclear question meant (blind 27).

"我那个审批的活还没弄吧" fits two of the caller's approvals and is asked back; the user then answers with the
task alone: "哦 王芳病假那条". Read on its own that turn asks nothing (no task cue, no need), so it was asked
back again. It is the earlier question with its pointer now naming the task: "王芳病假那条待办还没弄吧" — the
title's words pick the one task (`task_pointers.named_tasks`), and what the earlier turn asked of it (its
state) is asked again. Only a turn made of the naming words, a pointer and at most a task word or a particle
reads so, and only after a question that pointed at a task. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["task_named_back"]

#: The whole turn: an interjection, the words naming the task, a pointer, perhaps a task word.
_NAMING_TURN: Final = re.compile(
    r"^(?:哦|噢|喔|嗯|啊|呃|就是|是)?\s*[，,。\s]*([\u4e00-\u9fff]{2,10}?)(?:的)?(?:那条|那个|那件|那项|那笔|那张)"
    r"(?:待办|任务|活儿?|单子|事儿?)?\s*[吧呢啊呀。！!]*$"
)
#: The earlier question's pointer at a task by its kind: "我那个审批的活", "我那条审批待办", "那个报销的单子".
_EARLIER_POINTER: Final = re.compile(
    r"(?:那|这)(?:个|条|件|项|笔|张)\s*[\u4e00-\u9fff]{0,4}?的?(?:活儿?|待办|任务|单子|事儿?)"
)


def task_named_back(question: str, previous: str) -> str | None:
    """The earlier question asked of the task `question` names ("哦 王芳病假那条" after "我那个审批的活还没弄吧"
    → "王芳病假那条待办还没弄吧"); None unless `question` only names a task and `previous` pointed at one."""
    named = _NAMING_TURN.match(question.strip())
    pointer = _EARLIER_POINTER.search(previous)
    if named is None or pointer is None:
        return None
    asked = previous[pointer.end() :].strip(" ，,") or "现在是什么状态？"
    return f"{named.group(1)}那条待办{asked}"

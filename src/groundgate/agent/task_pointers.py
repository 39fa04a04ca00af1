"""Which of the caller's tasks a question points at: by its title's words, or by its kind alone.

"王芳那个病假审批…" names 审批王芳的病假申请 by the words it shares with the title (`named_tasks`); "采购申请那个
审批" by the words right before the pointer. A singular reference by the task's kind alone ("我那个审批还剩几天",
"我手上那条审批任务") is asked back when it fits two or more of the caller's tasks (`ambiguous_tasks`) — and,
since blind 25, is that task when it fits exactly one: u-wang's "我手上那条审批任务什么时候截止？" is 审批西部项目组
采购申请 (his one approval), where the whole list had been shown (a wrong `ANSWERED`: the other task's due
day beside it). Only a reference the caller holds or points at with 那 narrows so: "这个月…" is a window.
Moved from `agent.evidence` in session 32 to keep that module within its size limit. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.agent.contracts import VerifiedFact
from groundgate.text import tokenize

__all__ = ["NAMED_TASK_MIN", "ambiguous_tasks", "named_tasks", "pointed_task"]

#: Words every task title may share that name no task ("审批…", "提交…报销").
_TITLE_GENERIC: Final = frozenset({"审批", "报销", "提交", "申请", "任务", "待办", "完成", "确认", "处理"})
#: Shared title words (in characters) that name a task: "王芳…病假", "体检预约", "三月…差旅".
NAMED_TASK_MIN: Final = 4


def named_tasks(
    question: str, facts: Sequence[VerifiedFact], pointed: dict[str, str] | None = None
) -> set[str]:
    """The refs of the tasks the question names by their title ("王芳那个病假审批…" → 审批王芳的病假申请):
    those sharing the most title words with it, at least `NAMED_TASK_MIN` characters of them; empty
    when it names none (a list question, or a task that is not in this list)."""
    if pointed is None:
        pointed = _pointed_titles(question, facts)
    if len(pointed) == 1:
        return set(pointed.values())
    asked = {t for t in tokenize(question) if len(t) > 1 and t not in _TITLE_GENERIC}
    scores: dict[str, int] = {}
    for fact in facts:
        if fact.fact_type != "task" or not isinstance(fact.value, dict):
            continue
        title = str(fact.value.get("title", ""))
        shared = {t for t in tokenize(title) if len(t) > 1 and t not in _TITLE_GENERIC} & asked
        scores[fact.fact_ref] = sum(len(t) for t in shared)
    best = max(scores.values(), default=0)
    if best >= NAMED_TASK_MIN:
        return {ref for ref, score in scores.items() if score == best}
    return _one_held(question, facts)


#: A singular reference to one task by a word of its kind alone ("我那个审批", "这笔报销"): which one is
#: meant. Not when words before it say which ("采购申请那个审批"); where the caller holds it
#: ("我手上那条审批任务", "手头那个", "名下那笔") says no more than 我 does.
_SINGULAR_REF = re.compile(
    r"(?:^|(?<=我)|(?<=我的)|(?<=[，,。？?！!\s])|(?<=手上)|(?<=手头)|(?<=手里)|(?<=名下)|(?<=这边))"
    r"(?:那|这)(?:个|项|笔|条|件|张)\s*([\u4e00-\u9fff]{2,4})"
)


#: A task said by what the caller has to do with it, before or after the pointer ("我要审批的那个待办",
#: "我名下那条要审批的单子", blind 18): as singular as "我那个审批".
_RELATIVE_REF = re.compile(
    r"(?:要|得|该)([\u4e00-\u9fff]{1,3}?)的(?:那|这)(?:个|项|笔|条|件|张)"
    r"|(?:那|这)(?:个|项|笔|条|件|张)(?:要|得|该)我?([\u4e00-\u9fff]{1,3}?)的"
)
_TASK_VERBS: Final = {"批": "审批", "交": "提交", "报": "报销"}


#: The words right before a pointer ("采购申请那个审批", "看下差旅那条待办"): they name the task.
_BEFORE_POINTER = re.compile(r"([\u4e00-\u9fff]{2,8})(?:那个|那张|那笔|那项|那条|那件)")


def _pointed_titles(question: str, facts: Sequence[VerifiedFact]) -> dict[str, str]:
    """title → ref of the tasks whose title holds the longest end (two characters or more, not a word
    every title may share) of the words before a pointer: "采购申请那个" → 审批西部项目组采购申请."""
    titles = {
        str(f.value.get("title", "")): f.fact_ref
        for f in facts
        if f.fact_type == "task" and isinstance(f.value, dict)
    }
    for m in _BEFORE_POINTER.finditer(question):
        # "报差旅的那个待办" is "报差旅那个待办": the 的 before a pointer names nothing.
        words = m.group(1).removesuffix("的")
        for n in range(len(words) - 1):
            end = words[n:]
            hits = {t: ref for t, ref in titles.items() if end in t}
            if end in _TITLE_GENERIC:
                # A word every title may share names no one task, but two that share it are two
                # candidates ("报销那条待办" with two claims open): asked back, never picked.
                return hits if len(hits) >= 2 else {}
            if hits:
                return hits
    return {}


def pointed_task(question: str, facts: Sequence[VerifiedFact]) -> set[str]:
    """The ref of the one task the words before a pointer name ("三月差旅报销那条deadline哪天？要带哪些票？"),
    for a question that asks a rule beside it (blind 27): its title words only, since the rule part's
    words (差旅, 报销) may be any task's. Empty unless exactly one title holds them."""
    pointed = _pointed_titles(question, facts)
    return set(pointed.values()) if len(pointed) == 1 else set()


def _titles(facts: Sequence[VerifiedFact]) -> dict[str, str]:
    return {
        str(f.value.get("title", "")): f.fact_ref
        for f in facts
        if f.fact_type == "task" and isinstance(f.value, dict)
    }


def _fitting(word: str, titles: Sequence[str]) -> list[str]:
    """The titles holding the longest start (two characters or more) of `word` that some title holds
    (`审批任务` → `审批`)."""
    return next(
        (found for n in range(len(word), 1, -1) if (found := [t for t in titles if word[:n] in t])), []
    )


#: A singular reference the caller holds ("我那条审批", "我手上那条审批任务", "名下那笔报销") or points at with
#: 那 ("那个审批"): one task, narrowed to the one its kind fits. "这个月…" is a window, never narrowed.
_HELD_REF = re.compile(
    r"(?:(?<=我)|(?<=我的)|(?<=手上)|(?<=手头)|(?<=手里)|(?<=名下))(?:那|这)(?:个|项|笔|条|件|张)\s*([\u4e00-\u9fff]{2,4})"
    r"|(?:^|(?<=[，,。？?！!\s]))那(?:个|项|笔|条|件|张)\s*([\u4e00-\u9fff]{2,4})"
)


def _one_held(question: str, facts: Sequence[VerifiedFact]) -> set[str]:
    """The ref of the one task a held singular reference fits ("我手上那条审批任务" with one approval open)."""
    titles = _titles(facts)
    for m in _HELD_REF.finditer(question):
        hits = _fitting(m.group(1) or m.group(2), list(titles))
        if len(hits) == 1:
            return {titles[hits[0]]}
    return set()


def ambiguous_tasks(question: str, facts: Sequence[VerifiedFact]) -> list[str]:
    """The titles of the tasks a singular reference ("我那个审批还剩几天") could mean, when it could
    mean more than one and the question names none by its title (`named_tasks`); else []."""
    pointed = _pointed_titles(question, facts)
    if named_tasks(question, facts, pointed):
        return []
    if len(pointed) >= 2:
        return list(pointed)
    titles = [
        str(f.value.get("title", "")) for f in facts if f.fact_type == "task" and isinstance(f.value, dict)
    ]
    words = [m.group(1) for m in _SINGULAR_REF.finditer(question)]
    # "要我批的那个单子": what the caller does with it (我 is the caller; 批 is 审批)
    words += [
        _TASK_VERBS.get(w, w)
        for m in _RELATIVE_REF.finditer(question)
        if (w := (m.group(1) or m.group(2)).lstrip("我"))
    ]
    for word in words:
        # The longest start of the words after it that some title holds (`审批还剩` → `审批`).
        hits = _fitting(word, titles)
        if len(hits) >= 2:
            return hits
    return []

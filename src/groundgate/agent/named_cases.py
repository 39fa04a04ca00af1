"""A colleague's case named by a bare full name is a third person's case (blind 28).

An approver or finance reviewer checks a colleague's concrete case against the rules and names the colleague
plainly, first in a clause: "张伟北京住了4晚 住宿发票一共2800 超了多少", "王芳2月份出差的饭补 按一天100批还是120",
"张伟4月1号出差回来的 现在报还来得及吗". The name had been a subject word no passage names (`NO_EVIDENCE`). A name
after a relation (`下属小孙`) or a nickname (`小王`) already reads as 他 (`agent.reports`); a bare full name
(two or three characters, a common surname first: `text.names`) opening a clause is read so too when what
follows it states a case — a date or a count, a city, `这单`/`那趟`, or a verb of a trip, a claim or a leave —
and so is a nickname anywhere (`新来的小孙还在试用期`), the class of employee said with it staying (`实习生小林` →
实习生, a condition the rule may hold for). The claim pointed at without its noun (`他那单一共4800`, `那整单要是
6800`) is the claim, `这笔报销`: the approval rule names 报销, never 那单.

A name stays where it names a task: the caller's task titles carry names (`审批王芳的病假申请`), so a clause
pointing at a task (`王芳病假那条`, `张伟那张北京差旅报销单的审批`, `…的待办`) keeps it, and so does a question
about someone's tasks (`agent.holders` refuses it by the name). Days of the week (`周三`) and words of work
that open with a surname's character are no name. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.reports import NICKNAME, read_reports
from groundgate.text.names import SURNAMES

__all__ = ["colleague_names", "read_colleagues", "read_named_case"]

_SURNAME: Final = "[" + "".join(sorted(SURNAMES)) + "]"
#: What states a case right after the name: a figure or a date, a city, the claim or trip pointed at, or a
#: verb of travelling, claiming or taking leave.
_CASE_OPENS: Final = (
    r"(?:[0-9０-９]|(?:这|那)(?:单|趟|次|笔)|北京|上海|广州|深圳|成都|杭州|西安|南京|武汉|重庆|天津|"
    r"出差|住了|住宿|请了|请假|病假|婚假|年假|产假|陪产假|事假|交了|报销|报了|去了|回来|入职|领证|领了|休了|带了|上个?月|下个?月|去年|今年)"
)
_NAME_THEN_CASE: Final = re.compile(
    rf"(?:^|(?<=[，,。？?！!；;\s]))({_SURNAME}[\u4e00-\u9fff]{{1,2}}?)(?={_CASE_OPENS})"
)
#: A nickname anywhere in the clause ("新来的小孙还在试用期", "实习生小林出差回来"), after the class of employee said
#: with it, which stays: a condition the rule may hold for.
_NICKNAME_CASE: Final = re.compile(
    rf"(?P<cls>实习生|试用期员工|新员工|新人|正式员工)?(?P<name>{NICKNAME.pattern})"
)
#: The claim pointed at without its noun ("他那单一共4800", "那整单要是6800"): the claim itself, a 报销.
_CLAIM_POINTED: Final = re.compile(r"(?:这|那|整)单(?![子据])")
#: A clause pointing at a task (whose title may carry the name) or asking about someone's tasks.
_TASK_POINTER: Final = re.compile(r"那条|这条|那张|这张|待办|任务|申请单|报销单|的审批|手上|手头|名下")
_NEVER_IN_NAMES: Final = frozenset("我你您他她它们的了是在有这那和与及也都就还要")
#: Words that open with a surname's character but name no one.
_NOT_NAMES: Final = re.compile(
    r"^(?:周[一二三四五六日天末内中报会]|月报|日报|年报|高铁|方案|安排|成本|时间|高层|上个|下个)"
)


def _clause_at(text: str, start: int) -> str:
    end = re.search(r"[，,。？?！!；;\s]", text[start:])
    return text[start : start + end.start()] if end else text[start:]


def _a_name(name: str) -> bool:
    return not any(c in _NEVER_IN_NAMES for c in name) and not _NOT_NAMES.match(name)


def colleague_names(text: str) -> frozenset[str]:
    """The bare full names of `text` that open a clause stating a case, task pointers included
    ("王芳病假那条，她连着请了4天…" → 王芳): a person, never a word a policy's passage names."""
    return frozenset(m.group(1) for m in _NAME_THEN_CASE.finditer(text) if _a_name(m.group(1)))


def read_named_case(text: str) -> str:
    """`text` with a bare full name opening a clause of a case read as 他 (see the module docstring)."""

    def third_person(m: re.Match[str]) -> str:
        name = m.group(1)
        if not _a_name(name):
            return name
        if _TASK_POINTER.search(_clause_at(text, m.start(1))):
            return name
        return "他"

    def nickname(m: re.Match[str]) -> str:
        if _TASK_POINTER.search(_clause_at(text, m.start("name"))):
            return m.group(0)
        return m.group("cls") or "他"

    text = _NICKNAME_CASE.sub(nickname, _NAME_THEN_CASE.sub(third_person, text))
    return _CLAIM_POINTED.sub("这笔报销", text)


def read_colleagues(text: str) -> str:
    """`text` with a named report (`agent.reports`), then a colleague named beside their case, read as 他."""
    return read_named_case(read_reports(text))

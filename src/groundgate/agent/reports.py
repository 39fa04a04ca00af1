"""A named report is a third person: the question gives their facts, policy answers them (blind 25).

A line manager asks for the people on their team, by relation and name: "下属小孙病假 6 天，…", "组里的小陈上个月刚
领了结婚证，…", "我部门的刘洋是 2004 年 3 月入职的，…", "我们组的实习生小刘…". The name and the relation had been
read as subject words no passage names (`OFF_SUBJECT`: `NO_EVIDENCE` for the 80 % of a sick day's pay, the
one-year limit of a marriage leave, the 15 days of 22 years' service). Whoever the report is, the rule for
any employee answers, with the figures the question gives — so the report is read as 他: a pronoun, no
subject word, and the class of employee said with the name (`实习生小刘`) stays, since it is a condition.

Read as 他, the report keeps what no rule may do for them: their tasks. `MY_CURRENT_TASKS` reads the
caller's own rows only, and "帮我查一下组里小王这周有哪些待办" had been answered with the caller's own list
(a wrong `ANSWERED`): as "帮我查一下他这周有哪些待办" it is someone else's tasks (`agent.holders`), refused.

Two more readings of a manager's question: the asker named as the approver already in the loop ("除了我这个直属
主管，还需要谁审批") is that approver put up for checking ("除了直属主管"); and a claim a report filed ("下属提交了一张
6800 元的差旅报销单，需要哪些人审批") is the claim itself ("6800 元的差旅报销"), as a claim a reviewer received is
(`agent.reviewing`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.text.names import SURNAMES

__all__ = ["NICKNAME", "read_reports"]

_SURNAME: Final = "[" + "".join(sorted(SURNAMES)) + "]"
#: "小王", "老张": a surname after 小/老 is a person — not "小时", "小于", "小康" (words, not people).
NICKNAME: Final = re.compile(rf"(?:小|老)(?!时|于|康|钱|金额){_SURNAME}")
#: How a manager names the people of their team: the relation, then (optionally) a class of employee.
#: A group is the asker's (`我部门`, `组里`), not one named by its own words (`西部项目组的…`, `财务部门的…`).
_RELATION: Final = (
    r"(?:我的|我们的)?(?:下属|下级|部下|手下的?|组员|团队成员|同事)"
    r"|(?:(?:我们?|咱们?)|(?<![\u4e00-\u9fff])|(?<=[下看查问帮给替]))"
    r"(?:部门|组|小组|团队|组内|组里|部门里|团队里)的?"
)
#: Classes of employee said with the name: conditions a rule may hold for (`实习生…事先书面批准`).
_CLASS: Final = r"实习生|试用期员工|新员工|新人|正式员工"
#: A full name (two or three characters, a surname first) is told by what follows it.
_AFTER_NAME: Final = r"(?=[，,。？?是的要在因刚已还想下上今明这那去到出请休入领结病家也都从本每])"
_NAME: Final = rf"(?:{NICKNAME.pattern}|{_SURNAME}[\u4e00-\u9fff]{{1,2}}?{_AFTER_NAME})"
_REPORT: Final = re.compile(rf"(?:{_RELATION})\s*(?:的)?\s*(?P<cls>{_CLASS})?\s*(?P<name>{_NAME})")
#: A nickname opening a clause ("小王下周去上海出差，…"), with no relation said.
_BARE_NICKNAME: Final = re.compile(rf"(?<![^，,。？?！!：:；;\s]){NICKNAME.pattern}")
#: "除了我这个直属主管": the asker, named as an approver already in the loop.
_ASKER_AS_APPROVER: Final = re.compile(r"我(?:这个|这位|作为)(直属主管|主管|部门经理|经理|部门负责人|组长)")
#: "下属提交了一张 6800 元的差旅报销单": a claim a report filed is the claim.
_FILED_CLAIM: Final = re.compile(
    rf"(?:{_RELATION}|他|她)?\s*(?:提交|交|递交|报)了?一(?:张|份|笔)([^，,：:。？?]{{0,12}}?)报销单"
)


def _as_third_person(m: re.Match[str]) -> str:
    return m.group("cls") or "他"


def read_reports(text: str) -> str:
    """`text` with a named report read as a third person, the asker's own approver role and a filed claim
    read out (see the module docstring)."""
    text = _FILED_CLAIM.sub(lambda m: f"{m.group(1).strip()}报销", text)
    text = _REPORT.sub(_as_third_person, text)
    text = _BARE_NICKNAME.sub("他", text)
    return _ASKER_AS_APPROVER.sub(r"\1", text)

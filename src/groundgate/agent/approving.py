"""The asker as approver: a manager's own approving, said as the circumstance of a policy question,
read out of it (blind 20).

"审批下属的病假时，她交的诊断证明得是什么级别的医院开的？" asks the materials a sick leave needs; the
approving is what the manager is doing, not who approves — yet the approval cue (`审批`) made it an
approver question, answered with the approvers (a wrong `ANSWERED`). The clause that only says the
asker approves ("审批下属的…时", "我在审批下属的…", "我审批前") keeps what is approved and loses the
verb, so the rest of the question says what is asked. "我这边能直接批给他报吗" — whether the approver may
let it through as it is — asks the claim's condition, read as "能直接报销吗". A task the asker must
approve ("我要审批张伟的…单", "我要审批的那个待办") is no circumstance and is left alone. An approver
put up for checking with a threshold ("差旅报销超过3000就得财务总监签字了对吧？") asks the approval rule,
which states its own threshold (5000 元), not an amount rule: `对吧` there checks the approver, and
a daily allowance is no answer to it. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.contracts import NeedCode
from groundgate.agent.vocabulary import NEED_CUES, OFFERED_FIGURES

__all__ = ["approver_checked", "read_approving"]

#: Whom a manager approves for: the asker's reports and colleagues, or 他/她.
_WHOM: Final = r"(?:下属|下级|组员|手下|员工|同事|部下|团队成员|他们|她们|他|她)"
#: "审批下属的病假时，", "我在审批下属的差旅报销单，": the approving as circumstance, its object kept.
_APPROVING_CLAUSE: Final = re.compile(
    r"(?:我(?:正)?在|在|我)?(?:审批|审核)(?="
    + _WHOM
    + r")([^，,。？?！!；;]{1,16}?)(?:的?时候|时|之前|前)?(?=[，,])"
)
#: "我审批前要看她交什么证明？": the asker's approving, said before what is asked.
_APPROVING_TIME: Final = re.compile(r"我(?:这边|这里)?(?:在)?(?:审批|审核|批)(?:之前|前|的时候|时)\s*[，,]?")
#: "他的差旅费我这边能直接批给他报吗？": whether it may be let through as it is, i.e. claimed directly.
_LET_THROUGH: Final = re.compile(
    r"(?:我(?:这边|这里)?)?(能|可以)(?:不能)?直接(?:批|审批|签)(?:给(?:他|她|他们))?(?:报销?)?\s*(?=[吗么嘛不]|[？?]|$)"
)


def read_approving(text: str) -> str:
    """`text` with the asker's own approving read as circumstance (see the module docstring)."""
    text = _APPROVING_CLAUSE.sub(r"\1", text)
    text = _APPROVING_TIME.sub("", text)
    return _LET_THROUGH.sub(r"，\1直接报销", text)


#: "…对吧", "…没错吧": a statement put up for checking.
_CHECKING_TAG: Final = re.compile(r"对吧|没错吧|对不对|对吗|是吧|是不是")
#: A threshold in the statement ("超过3000", "5000以上"): the case that picks the approver.
_THRESHOLD: Final = re.compile(
    r"(?:超过|超出|高于|大于|不到|低于|以内|以上|以下)\s*\d|\d+\s*(?:元|块)?\s*(?:以上|以内|以下)"
)


def approver_checked(question: str) -> bool:
    """Whether `question` only puts an approver up for checking beside a threshold (see the module
    docstring): with the checking tags and offered figures read out, no amount cue is left."""
    if not _THRESHOLD.search(question) or not _CHECKING_TAG.search(question):
        return False
    rest = OFFERED_FIGURES.sub(" ", _CHECKING_TAG.sub(" ", question))
    return not NEED_CUES[NeedCode.AMOUNT_RULE].search(rest)

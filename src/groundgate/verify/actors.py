"""Who does it: an approver, owner or escalation target swapped for another within one clause.

Support scoring counts shared words, so "扩容工单需要*主机组*审批" over "扩容工单需由*存储组*审批" and
"… stays on call and pages *the engineering manager*" over "… escalates to *the team lead*" score as
well as the true sentences: every other word is shared, and the claim's role often stands elsewhere
in the context (`主机组` owns another partition). The claim is read clause by clause: a clause that
names a role (a word ending in 经理, 总监, 主管, 负责人, 组, 团队 …, or "manager", "lead", "team" …)
is matched to the clause of the aligned window most about the same action (most of its other words);
when that clause names another role and not the claim's, the pair is reported and the claim is
`no_evidence` ("unjudged"), never `contradicted`: a role has paraphrases a table cannot list
(docs/design.md §2.1, "Actors"). Pure: no I/O.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Final

from groundgate.text import tokenize

__all__ = ["actor_swaps"]

#: The last characters of a Chinese role or team: who approves, owns, signs or is escalated to.
_ZH_HEAD: Final = re.compile(
    r"总经理|经理|总监|主管|负责人|组长|主任|总裁|专员|团队|小组|委员会|(?<=[\u4e00-\u9fff])组"
)
#: Characters that end what stands before a Chinese role (`由`, `需要`, `获得`, `的`): the role is what
#: follows the last of them, at most four characters before its head.
_ZH_STOP: Final = frozenset("由经需须向交给请找让被的和或及并要得到获拿先前后在与为是把从对按时有")
_EN_HEADS: Final = frozenset(
    {"manager", "director", "lead", "leader", "head", "officer", "partner", "team", "owner", "supervisor",
     "committee", "desk", "administrator", "admin", "coordinator", "chair", "vp"}
)  # fmt: skip
_EN_LEAD_WORDS: Final = frozenset(
    {"the", "a", "an", "to", "by", "from", "and", "or", "pages", "page", "paged", "escalates", "escalate",
     "notify", "notifies", "call", "calls", "contact", "contacts", "needs", "need", "requires", "with",
     "of", "for", "on", "their", "your", "its", "is", "are", "be", "must", "should", "approval", "approved"}
)  # fmt: skip
_EN_CUE: Final = re.compile(
    r"\b(?:approv\w*\s+(?:by|from)|approval\s+(?:of|from)|sign(?:s|ed)?[- ]off\s+(?:by|from)|signed\s+by|"
    r"escalat\w*\s+to|pag(?:e|es|ed|ing)|notif(?:y|ies|ied)|reports?\s+to|owned\s+by|assigned\s+to|"
    r"handled\s+by|decided\s+by|hand(?:s|ed)?\s+(?:it\s+)?(?:over\s+)?to)\b",
    re.IGNORECASE,
)
_CLAUSE: Final = re.compile(r"[，,；;。.!?！？：:]\s*")
#: Who bears or pays a cost (`由员工个人承担` / `由公司承担`): a party, named without a role's head.
_ZH_PARTY: Final = re.compile(r"由([\u4e00-\u9fff]{1,4}?)(?:自行|全额|一并)?(?:承担|支付|垫付|负担|出资)")


def _roles(clause: str) -> set[str]:
    """The roles a clause names, normalised (`部门总监`, `team lead`)."""
    found: set[str] = set()
    for m in _ZH_HEAD.finditer(clause):
        start = m.start()
        while start > 0 and m.start() - start < 4 and "\u4e00" <= clause[start - 1] <= "\u9fff":
            if clause[start - 1] in _ZH_STOP:
                break
            start -= 1
        role = clause[start : m.end()]
        if len(role) >= 2:
            found.add(role)
    found.update(m.group(1) for m in _ZH_PARTY.finditer(clause))
    # English only after a word of acting on someone's behalf (`approved by`, `escalates to`, `pages`):
    # elsewhere `team`, `lead` and `manager` are the common words of news prose (a club's manager).
    for cue in _EN_CUE.finditer(clause):
        words = re.findall(r"[A-Za-z]+", clause[cue.end() : cue.end() + 60].lower())
        for i, word in enumerate(words[:4]):
            if word not in _EN_HEADS or (i + 1 < len(words) and words[i + 1] in _EN_HEADS):
                continue
            before = [w for w in words[:i] if w not in _EN_LEAD_WORDS][-2:]
            found.add(" ".join([*before, word]).replace("leader", "lead"))
            break
    return found


def _same_role(a: str, b: str) -> bool:
    """One names the other (`经理` in `部门经理`, `lead` in `team lead`)."""
    return a in b or b in a


def _pairs(text: str, roles: set[str]) -> set[str]:
    """The Chinese character pairs of `text` outside its roles."""
    for role in roles:
        text = text.replace(role, " ")
    return {a + b for a, b in pairwise(text) if "\u4e00" <= a <= "\u9fff" and "\u4e00" <= b <= "\u9fff"}


def actor_swaps(claim: str, window: str) -> list[tuple[str, str]]:
    """`(claim role, window role)` for each clause of `claim` whose role the window's clause about the
    same action replaces with another (module docs)."""
    clauses = [(c, _roles(c)) for c in _CLAUSE.split(window) if c.strip()]
    swaps: list[tuple[str, str]] = []
    for piece in _CLAUSE.split(claim):
        mine = _roles(piece)
        if not mine:
            continue
        others = set(tokenize(piece)) - {w for r in mine for w in tokenize(r)}
        if len(others) < 2:
            continue
        best, best_shared = None, 0.0
        mine_pairs = _pairs(piece, mine)
        for text, roles in clauses:
            # Shared words, and for Chinese shared character pairs too: "超出标准的部分得有…书面批准"
            # retells "超标部分需由…书面审批" in other words.
            shared = len(others & set(tokenize(text))) + 0.5 * len(mine_pairs & _pairs(text, roles))
            if shared > best_shared:
                best, best_shared = (text, roles), shared
        if best is None or best_shared < max(2, (len(others) + 1) // 2):
            continue
        text, theirs = best
        for role in mine:
            if any(_same_role(role, r) for r in theirs) or role in text:
                continue
            rival = next((r for r in theirs if not any(_same_role(r, m) for m in mine)), None)
            if rival is not None:
                swaps.append((role, rival))
    return swaps

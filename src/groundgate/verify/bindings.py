"""Who does what: an agent the claim binds to an action must be bound to it in the context.

"慢查询告警由周敏负责" over a review that lists "慢查询告警（负责人：李航）… SQL 执行计划审查（负责人：周敏）": every
word of the claim is in the context, in one window even, but the context gives the task to another
person. A claim that says who approves, owns, handles or signs something (`由 X 审批`, `X 负责`,
`approved by X`, `owned by X`) is checked here: X must stand in one clause of the context with the
thing or the action. When X is in the context only in clauses about other things, the pairing is not
shown (`no_evidence`, never `contradicted`: a paraphrase may place the two further apart than a clause).

Pure: text in, finding out (docs/design.md §4, the checker's rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.text.segmentation import normalize

__all__ = ["Binding", "unbound_agents"]

#: `由 X 审批` / `由 X 负责`: the agent between 由 and the verb (a name, a role or an acronym).
_ZH_BY = re.compile(
    r"由\s*(?P<agent>[A-Za-z][A-Za-z0-9 ]{0,15}?|[\u4e00-\u9fff]{2,6}?)\s*"
    r"(?P<verb>负责|审批|批准|审核|处理|核算|发起|签字|签批|确认|执行|跟进|维护|主持)(?!人)"
)
#: `approved by X`, `owned by X`, `handled by the X`.
_EN_BY = re.compile(
    r"\b(?P<verb>approved|owned|handled|signed(?:\s+off)?|reviewed|run|led|maintained|performed)\s+by\s+"
    r"(?:the\s+)?(?P<agent>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})"
)
#: `联系宣教部预约讲解`, `contact the Education Office to book a tour`: the office whom a task goes to is
#: its agent too (`典藏部` handles donations, not tour bookings).
_ZH_CONTACT = re.compile(
    r"(?:联系|找|咨询|交给|报给|报送)\s*(?P<agent>[\u4e00-\u9fff]{1,5}?(?:部|处|科|室|中心|办公室|委员会))(?![门长])"
)
_EN_CONTACT = re.compile(
    r"\b(?:contact|ask|email|call)\s+(?:the\s+)?(?P<agent>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})"
)
#: Where one segment ends: a task and its owner are stated within one (or one and the one before).
_SEGMENT_END = re.compile(r"[。；;！？!?\n，]|,(?!\d{3})|(?<=[a-z)])\.(?=\s)")
#: Fewer character pairs than this left for the thing bound: too little to judge a binding by.
_MIN_SUBJECT = 3
#: Chinese words that are not the thing bound (the verb's own words, particles).
_ZH_SKIP = re.compile(r"[由的了和与及在是为将把被对给后前中内上下时需要应须必]")


@dataclass(frozen=True, slots=True)
class Binding:
    """One agent–action pairing the claim states and the context does not."""

    agent: str
    subject: str


def _segments(text: str) -> list[str]:
    return [c for c in _SEGMENT_END.split(text) if c.strip()]


def _bigrams(text: str) -> set[str]:
    chars = _ZH_SKIP.sub(" ", normalize(text))
    return {chars[i : i + 2] for i in range(len(chars) - 1) if " " not in chars[i : i + 2]}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z0-9-]{3,}", text.lower()))


def _with_lead(segments: list[str], n: int, drop: str) -> str:
    """Segment `n` without `drop`; with the segment before it when that leaves too little to judge
    ("…提交申请，由 HRBP 审批" binds HRBP to the request, "连接池耗尽增加告警（负责人：沈悦）" needs none)."""
    own = segments[n].replace(drop, " ")
    if len(_bigrams(own)) < _MIN_SUBJECT and n > 0:
        return segments[n - 1] + " " + own
    return own


def unbound_agents(claim: str, context: str) -> list[Binding]:
    """The agents of `claim` that the context names only beside other things.

    For each `由 X <verb>` (or `<verb> by X`) the thing bound is the rest of its comma segment (with
    the segment before when it is too short). X is bound when some context segment holding X (again
    with the one before when it is short) shares a third of that thing's character pairs (two words
    in English). An agent the context never names is left to the other rules (an invented name is
    no evidence already)."""
    found: list[Binding] = []
    if not (
        _ZH_BY.search(claim) or _EN_BY.search(claim) or _ZH_CONTACT.search(claim) or _EN_CONTACT.search(claim)
    ):
        return found  # most claims bind no agent: the context is not read
    context_segments = _segments(context)
    claim_segments = _segments(claim)
    for n, segment in enumerate(claim_segments):
        matches = [(m, True) for m in (*_ZH_BY.finditer(segment), *_ZH_CONTACT.finditer(segment))]
        matches += [(m, False) for m in (*_EN_BY.finditer(segment), *_EN_CONTACT.finditer(segment))]
        for m, zh in matches:
            agent = m.group("agent").strip()
            if len(agent) < 2:
                continue
            holding = [
                _with_lead(context_segments, k, agent)
                for k, c in enumerate(context_segments)
                if agent.lower() in c.lower()
            ]
            if not holding:
                continue
            subject = _with_lead(claim_segments, n, m.group())
            if zh:
                wanted = _bigrams(subject)
                if len(wanted) < _MIN_SUBJECT:
                    continue
                need = max(1, len(wanted) // 3)
                bound = any(len(wanted & _bigrams(c)) >= need for c in holding)
            else:
                wanted_en = _words(subject)
                if not wanted_en:
                    continue
                bound = any(len(wanted_en & _words(c)) >= min(2, len(wanted_en)) for c in holding)
            if not bound:
                found.append(Binding(agent=agent, subject=" ".join(subject.split())[:60]))
    return found

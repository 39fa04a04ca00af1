"""Causal clauses: the cause an answer gives must be one the evidence states.

An invented reason is a frequent hallucination (docs/design.md §2.1, "Causes"): "毛利率下降主要是因为
原材料涨价", "growth was driven by overseas expansion". The sentence shares its effect's words with
the evidence, so it scores well on support as a whole; only the cause is new. The cause is read off
its connective (`因为`, `由于`, `得益于`, `根因是`, `because`, `due to`, `driven by`…) up to the end of
its clause, and checked on its own words; so is a consequence the claim adds (`导致…`, `从而…`,
`leading to…`, `resulting in…`). Pure: no I/O.
"""

from __future__ import annotations

import re

from groundgate.text.segmentation import Span

__all__ = ["cause_phrases"]

_ZH_CAUSE = re.compile(
    r"(?:是因为|因为|由于|得益于|归因于|归功于|根因是|原因是|原因在于|源于|是由于|起因是|导致了?|从而|以致|造成了?|"
    # "技术团队查明是…版本引入了数据库死锁": a finding of the cause
    r"查明是|查明为|排查发现是?|调查发现是?|引入了|引发了)"
    r"\s*(?P<cause>[^，,；;。！？!?：:]+)"
)
#: "写清楚招待的是谁、因为*什么事*": an indirect question names no cause.
_ASKED_CAUSE = re.compile(r"(?:什么|啥|何|哪)|(?:what|which|whatever)\b", re.IGNORECASE)
_EN_CAUSE = re.compile(
    # "due to begin in March" is a schedule: `due to` before a verb names no cause
    r"\b(?:because(?: of)?|due to(?!\s+(?:be|begin|start|open|close|finish|end|arrive|launch|complete|"
    r"expire|run|take|reopen|resume|go|come|leave|land|depart|last|return|report|retire)\b)|caused by|driven by|thanks to|as a result of|owing to|"
    r"the root cause (?:is|was)|the reason (?:is|was)(?: that)?|leading to|resulting in|which (?:led to|caused))"
    r"\s+(?P<cause>[^,;.!?:]+)",
    re.IGNORECASE,
)


def cause_phrases(text: str) -> list[Span]:
    """The causes (and consequences) `text` states, each with its offsets into `text`."""
    found: list[Span] = []
    for pattern in (_ZH_CAUSE, _EN_CAUSE):
        for m in pattern.finditer(text):
            cause = m.group("cause").strip()
            if cause and not _ASKED_CAUSE.match(cause):
                start = m.start("cause") + (len(m.group("cause")) - len(m.group("cause").lstrip()))
                found.append(Span(cause, start, start + len(cause)))
    return found

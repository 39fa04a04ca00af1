"""Questions that compare one need across two policies of two domains, judged once per policy.

"病假要交的材料和差旅报销要交的材料分别是啥？" (blind 20) sets a kind of leave beside a kind of expense:
two policies, each with its own rule, in two domains. The words compared are of no one class
(`apart.compared_words`), so the question was judged as one subject no passage names (病假 and 差旅
both) and searched in the first domain named only. Here the comparing part is read once per policy,
naming that policy alone (what the asker says around it, `出差回来就发烧了`, belongs to neither
reading: in the other policy's reading its words would be conditions no passage names), and the
search is left unbounded by domain (`planning`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.vocabulary import ENTITY, WORD_CLASSES, entities_in

__all__ = ["policies_compared", "read_per_policy"]

#: The words that head a policy, by domain: a kind of leave, a kind of expense.
_HEADS: Final = (WORD_CLASSES[0], ("差旅", "住宿", "伙食", "交通"))
#: A part that sets its words side by side ("…和…分别是啥", "…各是多少", "…有什么不同").
_COMPARES: Final = re.compile(
    r"分别|各(?:是|为|要|需|有|自)|比起来|相比|对比|比较|两者|有什么(?:不同|区别)|有何(?:不同|区别)"
)
_PART: Final = re.compile(r"[^？?！!。；;]*[？?！!。；;]*")


def _comparing_part(question: str) -> str | None:
    parts = [p for p in _PART.findall(question) if p.strip() and _COMPARES.search(p)]
    return parts[-1] if len(parts) == 1 else None


def _heads_said(part: str) -> list[tuple[str, str]]:
    """(word as said, domain word) of each policy head `part` names, in order."""
    said = [(m.group(0), folded) for m in ENTITY.finditer(part) for folded in entities_in(m.group(0))[:1]]
    return [(surface, word) for surface, word in said if any(word in heads for heads in _HEADS)]


def policies_compared(question: str) -> list[str]:
    """The words of the one comparing part that head policies of two domains, in the order said
    (one word of each domain); [] when the part compares within one domain or names no two."""
    part = _comparing_part(question)
    if part is None:
        return []
    words = list(dict.fromkeys(word for _, word in _heads_said(part)))
    per_domain = [[w for w in words if w in heads] for heads in _HEADS]
    return words if all(len(ws) == 1 for ws in per_domain) else []


def read_per_policy(question: str) -> list[str]:
    """The comparing part once per policy compared, naming that policy in place of the other
    (as said: `出差` is 差旅); [] when the question compares no two policies of two domains."""
    compared = policies_compared(question)
    part = _comparing_part(question)
    if not compared or part is None:
        return []
    said = _heads_said(part)
    readings = []
    for word in compared:
        reading = part
        for surface, other in said:
            if other != word:
                reading = reading.replace(surface, word)
        readings.append(reading.strip())
    return readings

"""An obligation the claim waives: `合同无需备案` over `租赁合同须经备案`, `visitors don't need to register`
over `visitors must register`.

A flipped obligation must not pass (issue 10). The fidelity negation check pairs a negation with the
aligned window; when the window read is loose, or the claim adds the negation itself, it reports
nothing. Read here: the claim says something need not be done (`无需`, `不需要`, `不用`, `不必`, `need not`,
`don't need to`, `doesn't have to`, `is not required to`), and the context says that same thing must be
(`须`, `必须`, `需`, `应`, `must`, `is required to`, `has to`, `needs to`) (docs/design.md §2.1, "Session
31"). The claim is then `no_evidence` (`obligation_waived:`): not shown, though not read as contradicted,
since the context may waive it for another case. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["waived_obligations"]

_WAIVED: Final = re.compile(
    r"(?:无需|无须|不需要|不需|不用|不必)(?:再|经|先)?(?P<zh>[\u4e00-\u9fff]{2})"
    r"|\b(?:need not|needn't|no need to|(?:does|do) not need to|(?:doesn't|don't) need to"
    r"|(?:does|do) not have to|(?:doesn't|don't) have to|(?:is|are) not required to|(?:isn't|aren't) required to)"
    r"\s+(?P<en>[a-z]{3,})",
    re.IGNORECASE,
)


def waived_obligations(claim: str, context: str) -> list[str]:
    """`obligation_waived:<what>` for each thing the claim says need not be done that the context says
    must be."""
    found: list[str] = []
    for m in _WAIVED.finditer(claim):
        if m.group("zh"):
            what = m.group("zh")
            must = rf"(?:须|必须|需|需要|应|应当)(?:经|先|要)?{re.escape(what)}"
        else:
            what = m.group("en").lower()
            must = rf"\b(?:must|shall|(?:is|are) required to|(?:has|have) to|needs? to)\s+(?:be\s+)?{re.escape(what)}"
        # the context waives it too, for some case (`…须经审批；单笔 500 元以下无需审批`): nothing is read
        waived_too = any(
            w.group("zh") == what or (w.group("en") or "").lower() == what for w in _WAIVED.finditer(context)
        )
        if re.search(must, context, re.IGNORECASE) and not waived_too:
            found.append(f"obligation_waived:{what}")
    return found

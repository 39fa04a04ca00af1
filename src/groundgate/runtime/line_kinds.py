"""Log lines as evidence of a name: which names still need their lines read, and which read lines
repeat a kind already among the candidates.

A question naming a batch job, a query tag or a host (`recon-daily`, `recon_report_scan`: lower-case
names joined by hyphens or underscores) that no document speaks of asks about events only the logs hold, and those are INFO and WARN lines as often as
errors (`batch job recon-daily started host=pay-mysql-01`). When nothing read in the first round
mentions such a name, the follow-up round reads the lines naming it at every level (`unspoken_names`,
used by the rule planner).

A log read by a name returns every line naming it, and most of them are often of one kind: thirty
`slow query … job=recon-daily` warnings against one `started` line. The candidate budget takes each
call's lines most relevant first, and the repeats, which name the same words, crowd out the one line of
another kind that answers another part of the question (when the job started, on which host). Two
lines are of one kind when they differ only in their figures and identifiers (times, counts, order ids,
trace ids); a repeat is ranked as if it named one name less (`repeated_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from groundgate.contracts import QuestionNeeds, ToolResult, ToolStatus
from groundgate.verify import fidelity
from groundgate.verify.evidence_items import mentions_any, render_fact

__all__ = ["REPEAT_PENALTY", "repeated_lines", "unspoken_names"]

#: What a repeat loses in the candidate ranking: one name the question asks about (the orchestrator
#: counts a name twice a word), so a line of another kind naming the same name and a word of the
#: question comes first.
REPEAT_PENALTY: Final = 2.0

#: Figures and identifiers: what varies between lines of one kind.
_VARYING: Final = re.compile(r"[0-9a-f]{12,}|[A-Z]+-\d{8}-\d+|\d+(?:[.:]\d+)*")


def _kind(message: str) -> str:
    return _VARYING.sub("#", message)


def repeated_lines(results: Iterable[ToolResult]) -> frozenset[str]:
    """The fact refs of log lines that repeat the kind of an earlier line of the same call."""
    repeats: set[str] = set()
    for result in results:
        if result.status is not ToolStatus.OK:
            continue
        seen: set[tuple[str, str]] = set()
        for fact in result.facts:
            value = fact.value if isinstance(fact.value, dict) else {}
            message = value.get("message")
            if not fact.fact_type.startswith("log.") or not isinstance(message, str):
                continue
            kind = (str(value.get("service", "")), _kind(message))
            if kind in seen:
                repeats.add(fact.fact_ref)
            seen.add(kind)
    return frozenset(repeats)


def _is_system_name(name: str) -> bool:
    """A lower-case name joined by hyphens or underscores (`recon-daily`, `recon_report_scan`,
    `pay-mysql-02`): a job, query tag or host of the running system, whose events the logs write.
    An upper-case code (`ERR_NOPE`) is a documented code: the handbook speaks of it or nothing does."""
    mentions = fidelity.extract(name)
    return (
        len(mentions) == 1
        and mentions[0].kind == "identifier"
        and mentions[0].text == name
        and name == name.lower()
        and any(joiner in name for joiner in "-_")
    )


def unspoken_names(results: Sequence[ToolResult], needs: QuestionNeeds) -> tuple[str, ...]:
    """The system names the needs name (`_is_system_name`) that nothing the results hold mentions."""
    read = [f"{d.text} {d.source}" for r in results if r.status is ToolStatus.OK for d in r.documents]
    read += [render_fact(f) for r in results if r.status is ToolStatus.OK for f in r.facts]
    names = dict.fromkeys(a for n in needs.needs for a in n.anchors if _is_system_name(a))
    return tuple(a for a in names if not any(mentions_any(text, [a]) for text in read))

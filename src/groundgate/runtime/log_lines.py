"""The log lines of one kind stated as a set: how many, the first and the last (docs/design.md §8,
Session 30).

What a need asks is read by `questions.log_lines`; the planner reads the matching lines twice with the
same filters, oldest first and newest first, one line each. Of two such reads (their `log.count`
facts have the same filters and total, each shows one line) the earlier line is the first of all and
the later the last, so one statement gives the count with both lines, quoting the count fact and
both lines. Fails closed: two reads that show the same line while more than one matched (both read in
the same order), or any other shape, give no statement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from groundgate.compose.templates import templates
from groundgate.contracts import Need
from groundgate.questions.log_lines import asked_lines
from groundgate.verify.evidence_items import EvidenceItem

__all__ = ["line_set_units"]

#: A statement and what it quotes.
Stated = tuple[str, tuple[tuple[EvidenceItem, str], ...]]


def line_set_units(evidence: Sequence[EvidenceItem], need: Need, question: str, zh: bool) -> list[Stated]:
    """The count with the first and last line of the kind `need` asks about (module docs)."""
    ask = asked_lines(need, question)
    if ask is None:
        return []
    counts: dict[str, list[EvidenceItem]] = {}
    for item in evidence:
        value = item.value if item.fact_type == "log.count" and isinstance(item.value, Mapping) else None
        if (
            value is not None
            and repr(ask.phrase) in str(value.get("filters", ""))
            and value.get("shown") == 1
        ):
            counts.setdefault(str(value.get("filters")), []).append(item)
    stated: list[Stated] = []
    for reads in counts.values():
        totals = {r.value.get("total") for r in reads}
        lines = [
            line
            for read in reads
            for line in evidence
            if line.fact_type == "log.line" and line.invocation_id == read.invocation_id
        ]
        if len(reads) != 2 or len(totals) != 1 or len(lines) != 2:
            continue
        total = int(next(iter(totals)))
        first, last = sorted(lines, key=lambda line: str(line.value.get("ts", "")))
        if total > 1 and first.citation_id == last.citation_id:
            continue  # both read in the same order: the other end is unknown
        text = templates("zh-CN" if zh else "en").log_line_set.format(
            total=total, filters=reads[0].value.get("filters"), first=first.text, last=last.text
        )
        quotes = ((reads[0], reads[0].quote_text), (first, first.quote_text), (last, last.quote_text))
        stated.append((text, quotes))
    return stated

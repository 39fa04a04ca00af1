"""Figures an answer works out from the evidence: vetted, so support is not measured on them.

A paraphrase sums, subtracts, converts or rescales a figure (`2,500 fewer` from 7,000 and 4,500;
`8 千元` for 8000 元). The fidelity checks read such a figure and accept it; as a word, though, the
context never writes it, and the lexical support of its clause drops for a correct answer. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from groundgate.verify import fidelity

__all__ = ["FIGURE_TOKEN", "vetted_figures"]

#: Mention kinds that carry a plain value (not dates, times, versions or names).
_VALUE_KINDS = frozenset({"amount", "percent", "duration", "size", "measure", "count", "number", "range"})
#: A word that is a figure (`2500`, `$2300000`, `41.5%`), as tokenisation keeps it.
FIGURE_TOKEN = re.compile(r"[$€£¥]?\d+(?:\.\d+)?%?")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def vetted_figures(
    claim: str,
    novel: Sequence[str],
    issues: Sequence[fidelity.FidelityIssue],
    canonical: Callable[[str], str],
) -> frozenset[str]:
    """The words of `novel` (claim words the context never uses) that are figures the fidelity checks
    read in `claim` and accepted: each is part of a value or date mention of the claim that no issue
    names, and not a bound (`over 400` is consistent with the evidence's 700 but not what it states)."""
    figures = [word for word in novel if FIGURE_TOKEN.fullmatch(word)]
    if not figures:
        return frozenset()

    def values(text: str) -> set[str]:  # `1 月 25 日` -> {1, 25}; `$2.3 million` -> {2300000}
        return set(_NUMBER.findall(canonical(text)))

    flagged = {v for issue in issues if issue.claim_mention for v in values(issue.claim_mention)}
    read = {
        v
        for m in fidelity.extract(claim)
        if m.kind == "date" or (m.kind in _VALUE_KINDS and m.comparator is None)
        for v in values(m.text)
    }
    return frozenset(w for w in figures if (found := values(w)) and found <= read and not found & flagged)

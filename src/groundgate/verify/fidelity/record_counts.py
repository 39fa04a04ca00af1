"""A count the claim makes of the context's own records.

`Four checkout requests failed with UPSTREAM_TIMEOUT` over four log lines with that code; `报了 3 次
STOCK_LOCK_TIMEOUT` over three such lines; `two P1 tickets are open` over a ticket list with two open
P1 rows. No record states the figure: the reader counts the lines. Read here: the claim's names that a
record carries (codes, identifiers, hyphenated names, words in capitals), and the number of the
context's records (lines, or objects of a JSON array) that carry all the names the clause gives next to
the count; the count is backed when it equals that number for one such set of names
(docs/design.md §2.1, "Session 32"). Pure: no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations

from groundgate.verify.fidelity.model import Mention

#: A name a record carries: `UPSTREAM_TIMEOUT`, `checkout-api`, `SKU-77810`, `P1`, `ERROR`, `502`.
_NAME = re.compile(
    r"(?<![\w.-])(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Za-z][\w]*-[\w.-]*\w|[A-Z]{2,}\d*|[A-Z]\d{1,2}|[1-5]\d\d)(?![\w-])"
)
#: Where the clause of the count ends.
_CLAUSE = re.compile(r"[。；;！？!?\n]|[.,，](?=\s|$)")
_MIN, _MAX = 2, 60
#: Names combined at most: a count is of records that share one to three names.
_MAX_NAMES = 3


@lru_cache(maxsize=8)
def _records(context: str) -> tuple[str, ...]:
    """The context's records: its non-empty lines, a JSON array's objects split apart."""
    out: list[str] = []
    for line in context.splitlines():
        out.extend(p for p in re.split(r"\}\s*,\s*\{", line) if p.strip())
    return tuple(out)


def _clause_of(claim: str, m: Mention) -> str:
    starts = [e.end() for e in _CLAUSE.finditer(claim, 0, m.start)]
    end = _CLAUSE.search(claim, m.end)
    return claim[starts[-1] if starts else 0 : end.start() if end else len(claim)]


def counted_in_records(m: Mention, claim: str, context: str) -> bool:
    """Whether the whole-number count `m` is the number of the context's records that carry some of
    the names its clause gives (see the module)."""
    if m.kind not in {"count", "number"} or m.raw is None or m.raw != int(m.raw) or m.comparator:
        return False
    count = int(m.raw)
    if not _MIN <= count <= _MAX:
        return False
    records = _records(context)
    if len(records) < count:
        return False
    own = m.text.strip()
    names = sorted({n for n in _NAME.findall(_clause_of(claim, m)) if n != own and n in context})
    if not names:
        return False
    for size in range(1, min(_MAX_NAMES, len(names)) + 1):
        for group in combinations(names, size):
            if sum(1 for r in records if all(n in r for n in group)) == count:
                return True
    return False

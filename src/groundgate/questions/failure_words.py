"""The error codes a failure described in words stands for (docs/design.md §8, Session 31 round 6).

A product or finance person names a failure by what went wrong, not by its code: "payments that failed
for platform reasons (timeouts or the database pool being full)", "因为超时失败的订单", "连接池打满".
The gateway's error-code handbook defines each code by such a description (`ERR_TIMEOUT`: no answer
from the bank channel in time; `ERR_POOL_EXHAUSTED`: the payment-db connection pool full and its wait
queue too; `ERR_CHANNEL_UNAVAILABLE`: the bank channel down or its breaker open). `described_codes`
reads the codes a question's failure words describe, in the order the question says them, so that a
count of orders by failure code can be asked without the code being typed. A description is read only
beside a failure word (`failed`, `失败`, `declined`…), and a request refused by the rate limiter is no
such failure: it never becomes an order (HTTP 429 before the order is created), so "rate limited" maps
to no order's code.

Pure code over text: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["described_codes"]

#: A word saying that something failed: without it a description names a symptom, not a failure code.
_FAILED: Final = re.compile(r"失败|报错|\b(?:fail(?:ed|s|ures?)?|declined|errored|errors?)\b", re.IGNORECASE)

#: The handbook's codes by the words that describe them (English and Chinese).
_DESCRIPTIONS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"超时|\btime(?:d)?[\s-]?outs?\b|\btimed\s+out\b", re.IGNORECASE), "ERR_TIMEOUT"),
    (
        re.compile(
            r"连接池(?:已?[满耗]|打满|用尽|不够)"
            r"|\b(?:db|database|connection)\s+pool\s+(?:\w+\s+){0,2}(?:full|exhausted|saturated|ran\s+out|used\s+up)\b"
            r"|\bpool\s+(?:was\s+|is\s+|being\s+)?(?:full|exhausted|saturated)\b",
            re.IGNORECASE,
        ),
        "ERR_POOL_EXHAUSTED",
    ),
    (
        re.compile(
            r"通道(?:不可用|熔断)|\b(?:bank\s+)?channels?\s+(?:was\s+|were\s+|being\s+)?(?:unavailable|down)\b",
            re.IGNORECASE,
        ),
        "ERR_CHANNEL_UNAVAILABLE",
    ),
)


def described_codes(question: str) -> tuple[str, ...]:
    """The error codes the failures `question` describes in words stand for, in the order it says
    them; none when it says no failure word (module docs)."""
    if not _FAILED.search(question):
        return ()
    found = [(m.start(), code) for pattern, code in _DESCRIPTIONS for m in [pattern.search(question)] if m]
    return tuple(code for _, code in sorted(found))

"""A set of records asked for ("哪几笔订单是因为这个错误失败的", "which orders failed with
ERR_TIMEOUT") and the log lines that list it (docs/design.md §8, Session 31 round 4).

Such a question asks every record of the set, not one of them: a log line naming one order's
failure does not meet it (`answer_kinds.gives_kind`), so an answer of one line stays unsure. What the
answer can show is each record the read lines name beside the code the question names, one line per
record (`records_listed`, stated by the executor next to whatever else answers): the asker sees the
orders, and the gap says the set is not known to be whole. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.contracts import Need

__all__ = ["asks_record_set", "names_record_set", "records_listed"]

_ASKS_RECORDS: Final = re.compile(
    r"哪(?:几|些)(?:笔|单|个|条)?(?:订单|单子|单|笔|退款|支付|交易|付款)"
    r"|\bwhich\s+(?:(?:ones?\s+)?of\s+(?:the|our|their|today's|these|those)\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:orders|payments|refunds|transactions|purchases)\b",
    re.IGNORECASE,
)
_RECORD_ID: Final = re.compile(r"\b(?:ORD|RF|PAY|TXN)-\d{8}-\d+\b")
#: A stated log line: `2026-03-14 14:18:39 payment-db-proxy ERROR: …`.
_LOG_LINE: Final = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}\S*\s+\S+\s+[A-Z]+:")
#: Names of error or decline codes (`ERR_POOL_EXHAUSTED`, `PAY-4005`): what narrows the lines.
_CODE: Final = re.compile(r"^(?:ERR_[A-Z_]+|[A-Z]{2,6}-\d{3,4})$")
_MOST: Final = 10


def asks_record_set(text: str) -> bool:
    """Whether the question part asks which records (plural) are so."""
    return bool(_ASKS_RECORDS.search(text))


def names_record_set(text: str) -> bool:
    """Whether a statement names more than one record (a list, not one record's line)."""
    return len(set(_RECORD_ID.findall(text))) > 1


def records_listed(need: Need, texts: Sequence[str]) -> list[int]:
    """The positions in `texts` of one log line per record that names every code the need names,
    when the need asks a set of records (module docs); first line of each record, in order."""
    codes = [a for a in need.anchors if _CODE.match(a)]
    if not codes or not asks_record_set(need.text):
        return []
    seen: set[str] = set()
    picked: list[int] = []
    for n, text in enumerate(texts):
        ids = set(_RECORD_ID.findall(text))
        if (
            len(ids) != 1
            or not _LOG_LINE.match(text)
            or not all(re.search(rf"\b{re.escape(c)}\b", text) for c in codes)
        ):
            continue
        record = ids.pop()
        if record not in seen:
            seen.add(record)
            picked.append(n)
    return picked[:_MOST]

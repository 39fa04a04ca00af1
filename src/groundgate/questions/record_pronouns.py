"""A pronoun standing for the record the previous question named: "那*它*在 payment-db 连接池拿连接超时的时候，
前面排着多少个请求？" after "…ORD-20260314-00093 没付成功…" asks about ORD-20260314-00093.

Why: such a follow-up names things of its own (`payment-db`, a connection pool), so it is no short
follow-up and no bare pronoun question (`refers_back`); without the record, its needs are about the
pool in general and a document's configured bound (`max_waiters 300`) met them — a wrong `NORMAL`
for a question about one order's moment. Naming the record makes the answer say it (an anchor) and
lets the planner read the record (its order state, its log lines).

Pure: the previous question is read for understanding only, never as evidence (docs/design.md §8).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["RECORD_ID", "name_referred_record"]

#: A record identifier that names its day: `ORD-20260314-00093`, `RF-20260314-0004`,
#: `INC-20260314-01`, `CHG-20260314-007`.
RECORD_ID: Final = re.compile(r"(?<![A-Za-z0-9_-])[A-Z]{2,5}-\d{8}-\d{2,6}(?![A-Za-z0-9_-])")

#: Chinese words that point at one record: `它`, `这单`, `那笔`, `该订单`, `这个订单`.
_ZH_POINTER: Final = re.compile(r"它(?!们)|(?:这|那)(?:单|笔)(?!钱)|(?:该|这个|那个|这笔|那笔)订单")
#: English words that point at one record: "that refund", "this order", "it".
_EN_POINTER: Final = re.compile(
    r"\b(?:that|this|the\s+same)\s+(?P<kind>order|refund|payment|incident|change)\b|\b(?P<it>it)\b",
    re.IGNORECASE,
)

#: The kind of record each identifier prefix names.
_KINDS: Final = {
    "ORD": ("order", "payment"),
    "RF": ("refund",),
    "INC": ("incident",),
    "CHG": ("change",),
}


def name_referred_record(question: str, previous: str) -> str | None:
    """`question` with its pronoun replaced by the one record `previous` named, or None when the
    question names a record of its own, has no pronoun, or `previous` named no record or several."""
    if RECORD_ID.search(question):
        return None
    records = list(dict.fromkeys(RECORD_ID.findall(previous)))
    if len(records) != 1:
        return None
    record = records[0]
    zh = _ZH_POINTER.search(question)
    if zh is not None:
        before, after = question[: zh.start()], question[zh.end() :]
        return f"{before.rstrip()} {record} {after.lstrip()}".strip()
    en = _EN_POINTER.search(question)
    if en is None:
        return None
    kind = (en.group("kind") or "").lower()
    if kind and kind not in _KINDS.get(record.split("-")[0], ()):
        # "that refund" after an order → "the refund of ORD-…": the order's own refund.
        replacement = f"the {kind} of {record}"
    else:
        replacement = record
    # Every later "it" is the same record ("… and did our webhook for it get delivered?").
    rest = re.sub(r"\bit\b", record, question[en.end() :], flags=re.IGNORECASE)
    return f"{question[: en.start()]}{replacement}{rest}"

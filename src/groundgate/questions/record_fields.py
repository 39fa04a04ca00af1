"""The fields of a named record a question part asks for (issue 11, session 30, tune22).

A support engineer following one order asks several of its fields in one breath ("What's its current
status, amount and channel", `订单最终状态、金额、走的哪家银行、失败码`); the part then reads as one
long need whose words no single record field says, and the fields, though read, went unstated. This
module says which fields of the order store's records a part asks (`asked_fields`), which orders it
names (`named_orders`) and which record field a stated fact is (`record_field`), so that the executor
can state each asked field of the named record beside whatever else answers the part.

Pure code over text: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["asked_fields", "asks_field_stated", "named_orders", "record_field"]

#: An order id as the order store writes it.
_ORDER_ID: Final = re.compile(r"\bORD-\d{8}-\d{3,6}\b", re.IGNORECASE)

#: The words that ask one field of an order. `状态` after `退款` asks the refund's state, which the
#: order record does not hold; a code must be the order's own failure code, not a "status code"
#: (`HTTP 状态码`) or a "bank's code" the record never holds (only its failure code).
_FIELD_ASKS: Final = {
    "status": re.compile(
        r"(?<!退款)(?<!HTTP )(?<!HTTP)状态(?!码)|\b(?:status|state)\b(?!\s+code)", re.IGNORECASE
    ),
    "amount": re.compile(r"金额|多少钱|\bamount\b|\bhow\s+much\b", re.IGNORECASE),
    "channel": re.compile(r"通道|渠道|哪(?:家|个)银行|\bchannel\b|\bwhich\s+bank\b", re.IGNORECASE),
    "failure_code": re.compile(
        r"失败码|错误码|拒绝码|原因码|\b(?:error|failure|decline|reason)\s+code\b", re.IGNORECASE
    ),
}

#: A record field as the executor states it: `order.status [order:ORD-…:status]: PENDING`.
_RECORD_FIELD: Final = re.compile(r"^order\.(\w+) \[order:([^:\]]+):\w+\]: (.+)$")


def asked_fields(text: str) -> frozenset[str]:
    """The order fields `text` asks for by name (`status`, `amount`, `channel`, `failure_code`)."""
    return frozenset(field for field, pattern in _FIELD_ASKS.items() if pattern.search(text))


def named_orders(texts: Iterable[str]) -> list[str]:
    """The order ids `texts` name, upper-cased, first mention first."""
    return list(dict.fromkeys(m.upper() for t in texts for m in _ORDER_ID.findall(t)))


def record_field(text: str) -> tuple[str, str, str] | None:
    """`(order id, field, value)` when `text` states one field of an order record, else None."""
    m = _RECORD_FIELD.match(text)
    return (m.group(2).upper(), m.group(1), m.group(3)) if m else None


def asks_field_stated(need_text: str, anchors: Iterable[str], text: str) -> bool:
    """Whether `text` is a field of an order the need names (its text or its anchors) that the need
    asks by name: about the question, so shown, though no one field is all the need asks."""
    field = record_field(text)
    return (
        field is not None
        and field[0] in named_orders([need_text, *anchors])
        and field[1] in asked_fields(need_text)
    )

"""A count or a list of orders asked by status, failure code and time window (docs/design.md §8,
Session 31 round 5).

Product and finance people ask about orders as a set: "how many orders failed with ERR_TIMEOUT between
14:00 and 15:00", "我们 14:00-15:00 一共新下了多少单", "which orders are still waiting on a final payment
result", "13 点档下的单里还是支付成功的有几笔". No single order's lookup answers that; the order store
can count them (`count_orders`). This module reads what such a question asks (`asked_order_set`): the
window (two clock times of one part, or `N 点档`, the hour from N), the failure codes it names (or
describes in words, `questions/failure_words.py`), and —
only when it names no window, so that a window's count stays whole and is broken down by status — the
statuses its words name. Nothing here names a tenant: the tool reads the run's tenant only.

A window tied to an outcome ("how many orders *failed* between 14:05 and 14:32", "14:00 到 15:00
有多少笔订单因为 ERR_TIMEOUT 失败") bounds when the orders reached it, not when they were placed: an
order placed at 14:04:58 that failed at 14:05:03 is one of them (`OrderSetAsk.by_outcome`; the
planner reads such a window by each order's last status change). An order-placing word ("下的单",
"新下了", "placed", "created") keeps the window on creation.

Pure code over text: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from groundgate.contracts import Need
from groundgate.questions.failure_words import described_codes
from groundgate.questions.window_stats import asked_window

__all__ = ["OrderSetAsk", "asked_order_set"]

_ORDERS: Final = re.compile(
    r"订单|下了?.{0,6}单|[几多少]+(?:笔|单)|\b(?:orders?|payments?|refunds?)\b", re.IGNORECASE
)
_COUNT_OR_WHICH: Final = re.compile(
    r"多少|几笔|几单|哪(?:几|些)|合计|\bhow\s+many\b|\bwhich\b|\blist\b|\badd\s+up\b", re.IGNORECASE
)
_NAMED_ORDER: Final = re.compile(r"\bORD-\d{8}-\d{3,10}\b", re.IGNORECASE)
_CODE: Final = re.compile(r"\b(?:ERR_[A-Z][A-Z0-9_]+|PAY-\d{4})\b")
#: An outcome an order reaches at its last status change (the order store's `updated_at`).
_OUTCOME: Final = re.compile(r"失败|退款|\b(?:failed|declined|refunded|rejected)\b", re.IGNORECASE)
#: Words that bound the orders by when they were placed.
_PLACED: Final = re.compile(r"下[了的]?.{0,4}单|新下|下单|\b(?:placed|created|submitted)\b", re.IGNORECASE)
_HOUR_SLOT: Final = re.compile(r"(?<!\d)([01]?\d|2[0-3])\s*点档")
#: The statuses a word of the question names (the order store's own words, upper-cased).
_STATUS_WORDS: Final[tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]] = (
    (
        re.compile(r"处理中|待支付|未完成|\b(?:pending|processing|waiting\s+on)\b", re.IGNORECASE),
        ("PENDING", "PROCESSING"),
    ),
    (re.compile(r"失败|\b(?:failed|declined)\b", re.IGNORECASE), ("FAILED",)),
    (re.compile(r"已退款|\brefunded\b", re.IGNORECASE), ("REFUNDED",)),
)


@dataclass(frozen=True, slots=True)
class OrderSetAsk:
    """What a question asks of the order store as a set (module docs)."""

    window: tuple[str, str] | None
    """Created in [first, second), `HH:MM` clock times (of the day the question names, else the live
    day: read by the planner)."""
    statuses: tuple[str, ...]
    failure_codes: tuple[str, ...]
    by_outcome: bool = False
    """The window bounds when the orders reached the outcome the question names (module docs)."""


def _window(needs: Sequence[Need]) -> tuple[str, str] | None:
    for need in needs:
        window = asked_window(need)
        if window is not None:
            return window
        slot = _HOUR_SLOT.search(need.text)
        if slot is not None and int(slot.group(1)) < 23:
            hour = int(slot.group(1))
            return f"{hour:02d}:00", f"{hour + 1:02d}:00"
    return None


def asked_order_set(needs: Sequence[Need], question: str) -> OrderSetAsk | None:
    """The count or list of orders `question` asks (module docs), or None: it must speak of orders,
    ask how many or which, name no single order, and give a window, a status or a failure code."""
    if not _ORDERS.search(question) or not _COUNT_OR_WHICH.search(question):
        return None
    if _NAMED_ORDER.search(question):
        return None  # one order, looked up by id
    window = _window(needs)
    # a failure told in words ("timeouts or the database pool being full") stands for its codes
    codes = tuple(dict.fromkeys(_CODE.findall(question))) or described_codes(question)
    statuses: tuple[str, ...] = ()
    if window is None:
        statuses = tuple(
            dict.fromkeys(s for pattern, named in _STATUS_WORDS if pattern.search(question) for s in named)
        )
    if codes and not statuses and window is None:
        statuses = ("FAILED",)
    if window is None and not statuses and not codes:
        return None
    by_outcome = window is not None and bool(_OUTCOME.search(question)) and not _PLACED.search(question)
    return OrderSetAsk(window=window, statuses=statuses, failure_codes=codes, by_outcome=by_outcome)

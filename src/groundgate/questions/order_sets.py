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
    """Created in [first, second), `HH:MM` clock times of the live day, or of `day` when the question
    names one."""
    statuses: tuple[str, ...]
    failure_codes: tuple[str, ...]
    day: tuple[int | None, int, int] | None = None
    """(year or None, month, day) the question names (`3月14日`, `2026-03-14`, `March 14`)."""


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAY = re.compile(
    r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"
    r"|(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})"
    r"|\b(?P<en>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<ed>\d{1,2})\b",
    re.IGNORECASE,
)


def _named_day(question: str) -> tuple[int | None, int, int] | None:
    """The day `question` names, if one (a window's clock times are read on it)."""
    m = _DAY.search(question)
    if m is None:
        return None
    if m.group("m"):
        year = int(m.group("y")) if m.group("y") else None
        return year, int(m.group("m")), int(m.group("d"))
    if m.group("iy"):
        return int(m.group("iy")), int(m.group("im")), int(m.group("id"))
    return None, _MONTHS.index(m.group("en").lower()[:3]) + 1, int(m.group("ed"))


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
    return OrderSetAsk(window=window, statuses=statuses, failure_codes=codes, day=_named_day(question))

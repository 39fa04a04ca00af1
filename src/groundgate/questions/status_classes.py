"""A class of HTTP statuses named in a question ("payment-gateway 5xx 错误率峰值几点？", "the 5xx error
rate") and the error codes a document maps into it (docs/design.md §8, Session 31, round 3).

A metric series is labelled by error code (`error_code=ERR_TIMEOUT`), never by HTTP status: "5xx" names
no series. The error-code handbook says which status each code returns (`ERR_TIMEOUT … HTTP 状态码为
504`), so the codes of the class are read from the passages at hand: a passage (a handbook section)
whose first code is the one it is about and that names exactly one HTTP status maps that code to it.
A passage naming several statuses, or none, maps nothing, so an unclear mapping stays no mapping.

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["asked_status_class", "class_codes", "class_query"]

#: "5xx", "5XX", "5xx 错误": a class of HTTP statuses by its first digit.
_CLASS: Final = re.compile(r"(?<![\w.])([1-5])xx(?![\w])", re.IGNORECASE)
#: An error code as the handbook writes it (`ERR_TIMEOUT`, `PAY-5003`).
_CODE: Final = re.compile(r"(?<![\w-])(ERR_[A-Z][A-Z_]*[A-Z]|PAY-\d{4})(?![\w-])")
#: The HTTP status a passage gives (`HTTP 状态码为 504`, "HTTP status 503", "returns HTTP 429").
_STATUS: Final = re.compile(
    r"HTTP\s*(?:状态码|status(?:\s+code)?)?\s*(?:为|是|is|of|:|：)?\s*([1-5]\d\d)(?!\d)", re.IGNORECASE
)


def asked_status_class(text: str) -> str | None:
    """The first digit of the one status class `text` names ("5xx" → `5`), None for none or several."""
    found = {m.group(1) for m in _CLASS.finditer(text)}
    return found.pop() if len(found) == 1 else None


def class_query(digit: str, zh: bool) -> str:
    """A search for the passages that map error codes to the statuses of the class."""
    return f"HTTP {digit}xx 状态码 错误码" if zh else f"HTTP {digit}xx status code error code"


def class_codes(passages: Iterable[str], digit: str) -> set[str]:
    """The error codes the passages map to a status of the class (module docs)."""
    codes: set[str] = set()
    for text in passages:
        first = _CODE.search(text)
        statuses = {m.group(1) for m in _STATUS.finditer(text)}
        if first is not None and len(statuses) == 1 and statuses.pop().startswith(digit):
            codes.add(first.group(1))
    return codes

"""Log lines of one kind asked about as a set ("recon 在 pay-mysql-01 上一共打了几条 slow query 日志？最后一条
几点", "first + last 'pool saturated' warn from payment-db-proxy, and how many of them"): their count, and
the first and last of them (docs/design.md §8, Session 30).

Pure: no I/O. The kind is the phrase the lines say: a quoted phrase, or in a Chinese question a run of
two or more lower-case Latin words (`slow query`); the names besides it narrow the lines (a host, a job)
or name the service that writes them (`payment-db-proxy`). The planner reads the matching lines of the
live day twice, oldest first and newest first, one line each (`runtime.offline`); the executor states
the count with the first and last line (`runtime.log_lines`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from groundgate.contracts import Need
from groundgate.text.segmentation import is_cjk_text

__all__ = ["LinesAsk", "asked_lines", "line_set_unsaid"]


@dataclass(frozen=True, slots=True)
class LinesAsk:
    """What a need asks of the log lines of one kind."""

    phrase: str
    """What each line says (`pool saturated`)."""
    keywords: tuple[str, ...]
    """The phrase and the other names every line must hold (`pay-mysql-01`, `recon`)."""
    service: str | None
    """The service named as the lines' writer (`payment-db-proxy`), if any."""


_QUOTED: Final = re.compile(r"['‘\"“「]([A-Za-z][\w .\-]{2,40}?)['’\"”」]")
_LATIN_RUN: Final = re.compile(r"(?<![\w\-])([a-z][a-z_]*(?: [a-z][a-z_]*)+)(?![\w\-])")
_ASKS: Final = re.compile(
    r"几条|多少条|多少次|几次|第一条|最后一条|最早|最晚|首条|\bhow\s+many\b|\bnumber\s+of\b|\bcount\b"
    r"|\bfirst\b|\blast\b",
    re.IGNORECASE,
)
#: The lines are asked about as lines ("几条…日志", "warn", "log lines"), not a count of anything.
_LOG_WORDS: Final = re.compile(
    r"日志|报错|告警|条|\b(?:logs?|lines?|warns?|warnings?|errors?|entries)\b", re.IGNORECASE
)
#: A name that is a service by its suffix: it writes the lines, it is not in their text.
_SERVICE: Final = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|proxy|gateway|api|worker|server)$")


def asked_lines(need: Need, question: str = "") -> LinesAsk | None:
    """The log lines `need` asks about as a set (module docs), or None. `question`: the whole question,
    where a later part asks of the lines an earlier part named ("…几条 slow query 日志？最后一条几点")."""
    text = need.text
    if not _ASKS.search(text) or not _LOG_WORDS.search(question or text):
        return None
    phrase = _phrase(text) or (_phrase(question) if question else None)
    if phrase is None:
        return None
    words = set(phrase.lower().split())
    service = next((a for a in need.anchors if _SERVICE.match(a)), None)
    others = [a for a in need.anchors if a != service and a.lower() not in words and a.lower() != phrase]
    return LinesAsk(phrase=phrase, keywords=(phrase, *others), service=service)


def _phrase(text: str) -> str | None:
    quoted = _QUOTED.search(text)
    if quoted is not None:
        return quoted.group(1).strip()
    if is_cjk_text(text):
        run = _LATIN_RUN.search(text)
        if run is not None:
            return run.group(1)
    return None


_ASKS_COUNT: Final = re.compile(
    r"几条|多少条|多少次|几次|\bhow\s+many\b|\bnumber\s+of\b|\bcount\b", re.IGNORECASE
)
_ASKS_FIRST: Final = re.compile(r"第一条|最早|首条|\bfirst\b", re.IGNORECASE)
_ASKS_LAST: Final = re.compile(r"最后一条|最晚|\blast\b", re.IGNORECASE)
_SAYS_COUNT: Final = re.compile(r"共\s*\d+\s*条|\b\d+\s+(?:log\s+)?lines\b|\btotal\s+\d+", re.IGNORECASE)


def line_set_unsaid(need: Need, text: str) -> list[str]:
    """What a need asking the lines of one kind as a set wants and `text` does not say: their count
    (`共 28 条`, "100 log lines", `total 4`), the first or the last of them. One line of the kind is
    neither (its `waiters=12` counts something else)."""
    if asked_lines(need) is None:
        return []
    asked = need.text
    missing = []
    if _ASKS_COUNT.search(asked) and not _SAYS_COUNT.search(text):
        missing.append("count")
    if _ASKS_FIRST.search(asked) and not _ASKS_FIRST.search(text):
        missing.append("first")
    if _ASKS_LAST.search(asked) and not _ASKS_LAST.search(text):
        missing.append("last")
    return missing

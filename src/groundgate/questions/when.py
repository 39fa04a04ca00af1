"""What a "when" or yes/no need asks of its question's own clauses (moved out of `coverage`).

An English "when" question may carry a clause of its own ("When do merchants get reminded *before
the old key is revoked*"): it asks the time of its main clause's event, measured from the event of
the later clause; a yes/no question asks whether its main clause holds. And a "when" need is met
only by a statement that states a time (`states_a_time`): a condition alone does not say when.
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.contracts import AnswerKind, Need
from groundgate.questions.statements import Statement
from groundgate.text.segmentation import is_cjk_text

__all__ = ["predicate_codes", "reference_event_words", "states_a_time"]


#: Where an English yes/no question's main clause ends: "Are any minutes left out | when the SLO
#: is calculated" asks whether minutes are left out; the `when` clause only says of what.
_EN_SUBORDINATE: Final = re.compile(
    r"\b(?:when|whenever|if|while|after|before|because|during|since|until|unless|once)\b", re.IGNORECASE
)


def _when_clauses(need: Need) -> tuple[str, str, str] | None:
    """An English "when" question cut at its own clause: (main clause, the subordinator, the rest),
    the opening "when" left out ("When do merchants get reminded | before | the old key is revoked");
    None for any other need or a question with no such clause."""
    if need.kind is not AnswerKind.TIME or is_cjk_text(need.text):
        return None
    asked = _EN_WHEN_OPENER.sub("", need.text)
    m = _EN_SUBORDINATE.search(asked)
    if m is None or not asked[: m.start()].strip():
        return None
    return asked[: m.start()], m.group(0).lower(), asked[m.end() :]


def _words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9\-]*", text.lower()))


def reference_event_words(need: Need) -> set[str]:
    """The terms of an English "when" question's own before/after clause (`predicate_codes`)."""
    cut = _when_clauses(need)
    if cut is None or cut[1] not in ("before", "after", "until", "since"):
        return set()
    main, later = _words_of(cut[0]), _words_of(cut[2])
    return {t for t in need.terms if t.lower() in later and t.lower() not in main}


_EN_WHEN_OPENER: Final = re.compile(r"^\s*(?:(?:and|so|but|then)\s+)?when\b", re.IGNORECASE)


def predicate_codes(need: Need, checkable: Sequence[str], present: set[str]) -> list[str]:
    """A yes/no question asks whether its main clause holds: every word of that clause must be
    there ("Are any minutes left out" is not answered by a sentence on how the SLO counts minutes,
    which says nothing of leaving any out); a "when" question with a clause of its own (before,
    after, if …) asks the time of its main clause's event. English only: a Chinese question's
    clause is not cut this way (docs/design.md §8, "Coverage")."""
    if is_cjk_text(need.text):
        return []
    cut = _when_clauses(need)
    if cut is not None:
        # "When do merchants get reminded *before the old one is revoked*" names two events and asks
        # the time of the first: a sentence on when the key is revoked answers the other one.
        words = _words_of(cut[0]) - {"when", "what", "time", "and", "do", "does", "did"}
        unsaid = [t for t in checkable if t.lower() in words and t not in present]
        return ["need:predicate_unsaid:" + ",".join(unsaid)] if unsaid else []
    if need.kind is not AnswerKind.YES_NO:
        return []
    words = _words_of(_EN_SUBORDINATE.split(need.text, maxsplit=1)[0])
    unsaid = [t for t in checkable if t.lower() in words and t not in present]
    return ["need:predicate_unsaid:" + ",".join(unsaid)] if unsaid else []


#: Words that place a statement in time without a figure: a day, a daypart, a recurrence.
_TIME_WORDS: Final = re.compile(
    r"每天|每日|每周|每月|每年|工作日|周[一二三四五六日天]|星期|上午|下午|凌晨|晚上|早上|中午|月底|月初|"
    r"\b(?:daily|weekly|monthly|every|weekdays?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"morning|afternoon|evening|night|noon|midnight|am|pm)\b",
    re.IGNORECASE,
)
#: Mentions that state a time: a clock time, a date or period (`Q1`, `当天`), or a span said from an
#: event (`5 分钟后`, `1 到 3 个工作日`, `within 15 minutes`).
_TIME_MENTIONS: Final = frozenset({"time", "date", "period", "duration", "range"})


def states_a_time(s: Statement) -> bool:
    """Whether `s` states a time or date (`_TIME_MENTIONS`, `_TIME_WORDS`): what a "when" need asks.
    A condition alone (`when the error rate is above 5%`, `重启后恢复`) is no time: the asked
    moment stays unsaid, and a figure that is not a time (a rate, an amount) does not say it."""
    return any(m.kind in _TIME_MENTIONS for m in s.mentions) or bool(_TIME_WORDS.search(s.text))

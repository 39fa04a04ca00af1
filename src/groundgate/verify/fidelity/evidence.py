"""`EvidenceIndex`: the lookups a check needs of one evidence (or plan) text.

Built once per text: mentions by value and by kind (one per signature), sorted durations, times and
periods for range look-ups, a date index for long texts, the folded and squashed text, and the
negation analysis; plus finding a claim's candidates and identifiers in an index.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache

from groundgate.text.segmentation import CACHE_MAX_CHARS
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import (
    _SQUASH_RX,
    _approx_seconds,
    _contains_token,
    _date_fields,
    _date_match,
    _finest,
    _folded,
    _period_seconds,
    _squash,
    _time_seconds,
    _vkey,
    _weekday_of,
)
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.negation import _Polarity, _polarity

_SQUASHABLE = frozenset({"service", "config_key", "host"})


def _signature(m: Mention) -> tuple[object, ...]:
    """Everything the comparisons read of a mention: all but its offsets."""
    return (m.kind, m.value, m.text, m.unit, m.surface_unit, m.raw, m.comparator, m.spelled, m.qualifier)


class EvidenceIndex:
    """Lookups over one text's mentions, built once per text (see `index_evidence`).

    `by_value` and `by_kind` keep one mention per signature (the first in the text): a context that
    repeats `5 秒` ten thousand times is compared once per claim, not ten thousand times, and since
    the comparisons read only the signature and take the first match, the findings are the same.
    The folded and squashed forms of the text are computed when first needed; for a long text the
    token look-ups in them are memoised, as every claim of a check asks about the same context.
    """

    __slots__ = (
        "_dates",
        "_folded",
        "_members",
        "_memo",
        "_polarity",
        "_sorted",
        "_squashed",
        "by_kind",
        "by_value",
        "identifiers",
        "mentions",
        "squashed_identifiers",
    )

    def __init__(self, text: str) -> None:
        mentions = extract(text)
        by_value: dict[float, list[Mention]] = {}
        by_kind: dict[str, list[Mention]] = {}
        seen_value: set[tuple[float, tuple[object, ...]]] = set()
        seen_kind: set[tuple[object, ...]] = set()
        for m in mentions:
            signature = _signature(m)
            if signature not in seen_kind:
                seen_kind.add(signature)
                by_kind.setdefault(m.kind, []).append(m)
            keys: set[float] = set()
            if isinstance(m.value, float):
                keys.add(_vkey(m.value))
                if m.raw is not None:
                    keys.add(_vkey(m.raw))
            elif isinstance(m.value, tuple):
                keys.update(_vkey(v) for v in m.value)
            for key in keys:
                if (key, signature) not in seen_value:
                    seen_value.add((key, signature))
                    by_value.setdefault(key, []).append(m)
        ids = [str(m.value) for m in by_kind.get("identifier", [])]
        self.mentions = mentions
        self._members: frozenset[Mention] | None = None
        self.by_value = {k: tuple(v) for k, v in by_value.items()}
        self.by_kind = {k: tuple(v) for k, v in by_kind.items()}
        self.identifiers = frozenset(_folded(i) for i in ids)
        self.squashed_identifiers = frozenset(_squash(i) for i in ids)
        self._folded: str | None = None
        self._squashed: str | None = None
        self._polarity: _Polarity | None = None
        self._sorted: dict[str, tuple[list[float], list[Mention]]] = {}
        self._dates: _DateIndex | None = None
        self._memo: dict[tuple[str, str], bool] | None = {} if len(text) > CACHE_MAX_CHARS else None

    @property
    def text(self) -> str:
        return self.mentions.text

    @property
    def members(self) -> frozenset[Mention]:
        """The mentions as a set (asked of aligned windows only, so made when first asked)."""
        if self._members is None:
            self._members = frozenset(self.mentions.items)
        return self._members

    def folded(self) -> str:
        if self._folded is None:
            self._folded = _folded(self.text)
        return self._folded

    def squashed(self) -> str:
        if self._squashed is None:
            self._squashed = _SQUASH_RX.sub("", self.folded())
        return self._squashed

    def within(self, quantity: str, low: float, high: float) -> Sequence[Mention]:
        """The mentions whose `quantity` (`duration`, `time` or `period` seconds) is in [low, high].

        A long text has thousands of them (a log's timestamps): a range look-up in sorted values
        replaces scanning them all for every figure of every claim. Any order: callers ask `any`.
        """
        if not self.by_kind.get(quantity) or low != low or high != high:  # none, or NaN bounds
            return ()
        found = self._sorted.get(quantity)
        if found is None:
            seconds = _SECONDS_OF[quantity]
            pairs = [(v, e) for e in self.by_kind[quantity] if (v := seconds(e)) is not None and v == v]
            pairs.sort(key=lambda pair: pair[0])
            found = self._sorted[quantity] = ([v for v, _ in pairs], [e for _, e in pairs])
        keys, mentions = found
        return mentions[bisect_left(keys, low) : bisect_right(keys, high)]

    def date_matches(self, value: str) -> list[Mention]:
        """The date, period and time mentions (in that order, each in text order) `value` matches."""
        if self._memo is None:  # a short text: scan it
            return [
                e
                for kind in ("date", "period", "time")
                for e in self.by_kind.get(kind, ())
                if _date_match(value, str(e.value))
            ]
        if self._dates is None:
            self._dates = _DateIndex(self.by_kind)
        return self._dates.matches(value)

    def weekdays(self) -> frozenset[int | None]:
        """The weekdays of the text's absolute dates (None for the rest)."""
        if self._dates is None:
            self._dates = _DateIndex(self.by_kind)
        return self._dates.weekdays()

    def polarity(self) -> _Polarity:
        """The text's negation analysis (see `_negation_issues`)."""
        if self._polarity is None:
            self._polarity = _polarity(self.text)
        return self._polarity

    def contains_token(self, needle: str) -> bool:
        """`needle` (folded) occurs in the folded text, not glued to a longer identifier or number."""
        return self._remember("token", needle, lambda: _contains_token(self.folded(), needle))

    def contains_squashed(self, needle: str) -> bool:
        return self._remember("squashed", needle, lambda: needle in self.squashed())

    def _remember(self, kind: str, needle: str, compute: Callable[[], bool]) -> bool:
        if self._memo is None:
            return compute()
        key = (kind, needle)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = compute()
        return found


class _DateIndex:
    """Date, period and time mentions of a long text, looked up the way `_date_match` compares them.

    A match is the same value, a time one is a prefix of, or a date whose finest field the other
    states with the same value; the candidates of each way are found by key, then confirmed with
    `_date_match` itself, so the matches are the ones a scan finds, in the scan's order.
    """

    __slots__ = ("by_field", "by_value", "has_field", "order", "sorted_values", "weekday_set")

    def __init__(self, by_kind: dict[str, tuple[Mention, ...]]) -> None:
        self.order: list[Mention] = [e for kind in ("date", "period", "time") for e in by_kind.get(kind, ())]
        self.by_value: dict[str, list[int]] = {}
        self.by_field: dict[tuple[str, int], list[int]] = {}
        self.has_field: dict[str, list[int]] = {}
        for n, e in enumerate(self.order):
            value = str(e.value)
            self.by_value.setdefault(value, []).append(n)
            fields = _date_fields(value)
            for name, number in fields or ():
                self.by_field.setdefault((name, number), []).append(n)
                self.has_field.setdefault(name, []).append(n)
        self.sorted_values = sorted(self.by_value)
        self.weekday_set: frozenset[int | None] | None = None

    def matches(self, value: str) -> list[Mention]:
        found: set[int] = set(self.by_value.get(value, ()))
        if value[:1].isdigit() and value[2:3] == ":":
            for end in range(1, len(value)):  # values `value` starts with
                found.update(self.by_value.get(value[:end], ()))
            k = bisect_left(self.sorted_values, value)  # values starting with `value`
            while k < len(self.sorted_values) and self.sorted_values[k].startswith(value):
                found.update(self.by_value[self.sorted_values[k]])
                k += 1
        else:
            fields = _date_fields(value)
            if fields is not None:
                own = dict(fields)
                finest = _finest(own)
                if finest in own:
                    found.update(self.by_field.get((finest, own[finest]), ()))
                else:
                    found.update(self.has_field.get(finest, ()))
        return [self.order[n] for n in sorted(found) if _date_match(value, str(self.order[n].value))]

    def weekdays(self) -> frozenset[int | None]:
        if self.weekday_set is None:
            self.weekday_set = frozenset(_weekday_of(str(e.value)) for e in self.order)
        return self.weekday_set


_SECONDS_OF: dict[str, Callable[[Mention], float | None]] = {
    "duration": lambda e: _approx_seconds(e),
    "time": lambda e: _time_seconds(str(e.value)),
    "period": lambda e: _period_seconds(str(e.value)),
}


def index_evidence(text: str) -> EvidenceIndex:
    """The lookups `check_claim` needs of an evidence text; build it once to check many claims.

    Short texts are cached by the string; a long one (a whole context) is built afresh, so the
    caller decides how long it lives (the offline checker keeps it for one check).
    """
    if len(text) > CACHE_MAX_CHARS:
        return EvidenceIndex(text)
    return _index_cached(text)


@lru_cache(maxsize=4096)
def _index_cached(text: str) -> EvidenceIndex:
    return EvidenceIndex(text)


def _candidates(m: Mention, *indexes: EvidenceIndex) -> list[Mention]:
    keys = {_vkey(m.value)} if isinstance(m.value, float) else set()
    if m.raw is not None:
        keys.add(_vkey(m.raw))
    out: list[Mention] = []
    for index in indexes:
        for key in keys:
            out.extend(index.by_value.get(key, ()))
    return out


def _identifier_core(m: Mention) -> str:
    value = str(m.value)
    if m.qualifier == "http_status":
        return value.split()[-1]
    if m.qualifier == "path" and " " in value:
        return value.split(" ", 1)[1]
    return value


#: A numbered name's last number (`pgbouncer-3`, `node07`).
_NUMBERED_RX = re.compile(r"^(?P<stem>.*?[a-z][-_]?)(?P<n>\d{1,4})$")


def _in_named_range(value: str, index: EvidenceIndex) -> bool:
    """`pgbouncer-3` named by a range of the evidence: `pgbouncer-1..3`, `pgbouncer-1–3`,
    `pgbouncer-[1-3]`, `pgbouncer-1 to -3` (docs/design.md §2.1, "Session 32")."""
    numbered = _NUMBERED_RX.match(_folded(value))
    if numbered is None:
        return False
    n = int(numbered["n"])
    rx = (
        re.escape(numbered["stem"])
        + r"\[?(\d{1,4})\s*(?:\.\.\.?|[-–~]|to\s+(?:"
        + re.escape(numbered["stem"])
        + r")?)\s*(\d{1,4})\]?(?!\d)"
    )
    return any(int(a) <= n <= int(b) for a, b in re.findall(rx, index.folded()))


def _identifier_found(m: Mention, index: EvidenceIndex) -> bool:
    value = str(m.value)
    if _folded(value) in index.identifiers or index.contains_token(_folded(_identifier_core(m))):
        return True
    if _in_named_range(value, index):
        return True
    if m.qualifier in _SQUASHABLE:
        squashed = _squash(value)
        return squashed in index.squashed_identifiers or (
            len(squashed) >= 6 and index.contains_squashed(squashed)
        )
    return False

"""A statistic of a metric series over a window ("payment-db-proxy 的 p99 今天最高多少 几点", "how long
was the gateway p99 over 1500ms today? first + last minute", "first minute payment-db active conns went
back under 100"): what the question asks of the series, not a value at one minute (docs/design.md §8,
Session 30).

Pure: no I/O. The planner reads the series raw over the asked window (or the last hours of the live
data when none is named), and the executor computes the statistic from the points it read and states
each figure as one point of the series (`runtime.window_stats`), which the verifier confirms from the
cited points (`series:point_confirmed`): the peak and its minute; the first and last minute a series was
over / under a threshold (or non-zero, or at a level it "hit"); the first minute back under a value after
its peak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from groundgate.contracts import ConditionKind, Need

__all__ = ["AskedStat", "StatKind", "asked_stats", "asked_window", "stat_terms_said", "stats_unsaid"]


class StatKind(StrEnum):
    """What is asked of the series."""

    PEAK = "peak"
    """Its highest value and the minute it fell at."""
    LOW = "low"
    """Its lowest value and the minute it fell at."""
    ABOVE = "above"
    """The first and last minute it was over the threshold (at or over, for a level it "hit")."""
    BELOW = "below"
    """The first and last minute it was under the threshold."""
    BACK_UNDER = "back_under"
    """The first minute back under the threshold after the peak."""
    BACK_AT = "back_at"
    """The first minute back on the usual side of the threshold after the series' furthest excursion
    across it ("back at the 99.5% objective" after a low, "回到 800 ms" after a peak)."""


@dataclass(frozen=True, slots=True)
class AskedStat:
    """One statistic a need asks of a series."""

    kind: StatKind
    threshold: float | None = None
    inclusive: bool = False
    """`ABOVE` counts a value equal to the threshold ("顶到 300", "hit 300")."""
    word: str = ""
    """The question's own word for the comparison (`跌破`, `over`), said back by the statement."""


_NUMBER: Final = r"(\d+(?:\.\d+)?)"
#: "How long", "which minutes", "first and last minute", "when was it …": a span is asked.
_SPAN: Final = re.compile(
    r"多久|多长时间|多少分钟|哪几分钟|哪些分钟|几点到几点|从几点|持续|\bhow\s+long\b|\bwhich\s+minutes\b"
    r"|\bfirst\s*(?:\+|and|&|/)\s*last\b|\bwhen\s+(?:was|did)\b|\bfrom\s+when\b",
    re.IGNORECASE,
)
_OVER: Final = re.compile(
    r"(超过|高于|大于|over|above|exceed(?:ed|ing)?|higher\s+than|more\s+than|(?<!-)>)\s*(?:the\s+)?"
    + _NUMBER,
    re.IGNORECASE,
)
_UNDER: Final = re.compile(
    r"(跌破|低于|小于|不足|under|below|less\s+than|lower\s+than|<(?!-))\s*(?:the\s+)?" + _NUMBER,
    re.IGNORECASE,
)
#: A level the series reached ("顶到 300", "hit 300", "sat at 300"): at or over it.
_HIT: Final = re.compile(
    r"(顶到|打到|达到|到了|\bhit\b|\breached\b|\bsat\s+at\b)\s*" + _NUMBER, re.IGNORECASE
)
_NON_ZERO: Final = re.compile(r"\bnon-?zero\b|不为\s*0|不为零|非零|大于\s*0(?![\d.])", re.IGNORECASE)
#: The first minute *back* under a value: after an excursion over it.
_BACK_UNDER: Final = re.compile(
    r"\b(?:back|again)\s+(?:under|below)\s*"
    + _NUMBER
    + r"|(?:回到|降回|回落到|降到)\s*"
    + _NUMBER
    + r"\s*以下",
    re.IGNORECASE,
)
#: Back to normal, in the question's words ("几点回到正常", "when did it recover").
_RECOVERED: Final = re.compile(
    r"回到正常|恢复正常|恢复|回落|\bback\s+to\s+normal\b|\brecover(?:ed|y)?\b", re.IGNORECASE
)
#: The threshold of that normal, said as a bound anywhere in the part ("恢复标准（0.5% 以下）", "below 0.5%").
_BOUND_UNDER: Final = re.compile(
    _NUMBER + r"\s*%?\s*(以下)|\b(under|below)\s+(?:the\s+)?" + _NUMBER, re.IGNORECASE
)
#: Back at a level, its side left to the series ("back at the 99.5% objective", "回到 99.5%").
_BACK_AT: Final = re.compile(
    r"\bback\s+(?:at|to|above|over|within)\s+(?:the\s+)?"
    + _NUMBER
    + r"|(?:回到|回升到|回升至|恢复到|恢复至)\s*"
    + _NUMBER,
    re.IGNORECASE,
)
_FIRST: Final = re.compile(r"\bfirst\b|第一|首次|最早", re.IGNORECASE)
_PEAK: Final = re.compile(
    r"最高|峰值|最大|顶峰|\b(?:peak(?:ed)?|highest|max(?:imum)?)\b"
    # "how high did the consumer lag get", "how high did it go": the highest value it reached.
    r"|\bhow\s+high\s+(?:did|does|had|has|was|were|is)\b",
    re.IGNORECASE,
)
_LOW: Final = re.compile(r"最低|谷值|最小|\b(?:lowest|min(?:imum)?|trough)\b", re.IGNORECASE)
#: "the worst minute of gateway p99", `最差的一分钟`: the extreme in the bad direction of the metric.
_WORST: Final = re.compile(r"最差|最糟|最严重|\bworst\b", re.IGNORECASE)
#: A metric where lower is worse (a success or hit rate, availability): its worst is its low.
_LOWER_WORSE: Final = re.compile(
    r"成功率|命中率|可用性|\b(?:success|hit)\s+rate\b|\bavailability\b", re.IGNORECASE
)
#: A metric where higher is worse (latency, errors, lag, a queue): its worst is its peak.
_HIGHER_WORSE: Final = re.compile(
    r"延迟|耗时|错误率|积压|排队|\bp9\d\b|\blatency\b|\berror\s+rate\b|\blag\b|\bwait\s+queue\b",
    re.IGNORECASE,
)


def asked_stats(need: Need) -> tuple[AskedStat, ...]:
    """The statistics `need` asks of a series (module docs), none when it asks no such thing.

    A comparison (`over 1500`, `跌破90%`, `non-zero`) counts only with a span asked ("how long", "first
    and last minute", `持续`, `哪几分钟`): without one it is a condition of another ask ("is the p99 over
    1500 now?"). The first minute back under a value needs "first"/`第一`/`首次` or the word "back"."""
    text = need.text
    found: list[AskedStat] = []
    back = _BACK_UNDER.search(text)
    if back is not None:
        found.append(
            AskedStat(StatKind.BACK_UNDER, float(back.group(1) or back.group(2)), word=back.group(0))
        )
    elif _FIRST.search(text) and (under := _UNDER.search(text)) is not None:
        found.append(AskedStat(StatKind.BACK_UNDER, float(under.group(2)), word=under.group(1)))
    elif _RECOVERED.search(text) and (bound := _BOUND_UNDER.search(text)) is not None:
        # "按恢复标准（0.5% 以下），几点回到正常": recovery is being back under the bound it gives.
        figure = bound.group(1) or bound.group(4)
        found.append(AskedStat(StatKind.BACK_UNDER, float(figure), word=bound.group(2) or bound.group(3)))
    elif (level := _BACK_AT.search(text)) is not None:
        found.append(
            AskedStat(StatKind.BACK_AT, float(level.group(1) or level.group(2)), word=level.group(0))
        )
    elif _SPAN.search(text):
        found += _spans(text)
    if _PEAK.search(text) and not _asks_limit(text):
        found.append(AskedStat(StatKind.PEAK))
    elif _LOW.search(text) and not _asks_limit(text):
        found.append(AskedStat(StatKind.LOW))
    elif (worst := _worst(text)) is not None:
        found.append(AskedStat(worst))
    return tuple(found)


def _worst(text: str) -> StatKind | None:
    """ "The worst minute" of a metric (Session 31, round 3): its peak when higher is worse (latency, an
    error rate, lag), its low when lower is worse (a success or hit rate); None when the words name
    no metric of a known direction, or both."""
    if not _WORST.search(text) or _asks_limit(text):
        return None
    lower, higher = _LOWER_WORSE.search(text) is not None, _HIGHER_WORSE.search(text) is not None
    if lower == higher:
        return None
    return StatKind.LOW if lower else StatKind.PEAK


def _spans(text: str) -> list[AskedStat]:
    """The comparisons of a span asked."""
    if (hit := _HIT.search(text)) is not None:
        return [AskedStat(StatKind.ABOVE, float(hit.group(2)), inclusive=True, word=hit.group(1))]
    if (over := _OVER.search(text)) is not None:
        return [AskedStat(StatKind.ABOVE, float(over.group(2)), word=over.group(1))]
    if (under := _UNDER.search(text)) is not None:
        return [AskedStat(StatKind.BELOW, float(under.group(2)), word=under.group(1))]
    if (zero := _NON_ZERO.search(text)) is not None:
        return [AskedStat(StatKind.ABOVE, 0.0, word=zero.group(0))]
    return []


#: A configured bound ("max_size 的上限", "the max connections limit") is no observed peak.
_LIMIT: Final = re.compile(
    r"上限|下限|\blimit\b|\bcap\b|\bceiling\b|max_\w+|\w+_max\b|最大连接数", re.IGNORECASE
)


def _asks_limit(text: str) -> bool:
    return _LIMIT.search(text) is not None


def asked_window(need: Need) -> tuple[str, str] | None:
    """The window a need names by two clock times (`14:15~14:20`, "between 14:00 and 14:30"), as
    `HH:MM` minutes in order, or None."""
    times = sorted({c.value for c in need.conditions if c.kind is ConditionKind.TIME and len(c.value) == 5})
    if len(times) != 2:
        return None
    return times[0], times[1]


_SAYS: Final = {
    StatKind.PEAK: re.compile(r"峰值|最高|最大|\bpeak|\bhighest\b|\bmax(?:imum)?\b", re.IGNORECASE),
    StatKind.LOW: re.compile(r"最低|最小|谷值|\blowest\b|\bmin(?:imum)?\b", re.IGNORECASE),
}
_CLOCK: Final = re.compile(r"(?<!\d)(?:[01]\d|2[0-3]):[0-5]\d(?!\d)")
#: A series' summary over a window, as the metric tool renders it (`… 13:42–14:42 UTC: max 99.86 at …`).
_WINDOW_SUMMARY: Final = re.compile(r"\d{2}:\d{2}–\d{2}:\d{2} UTC: max ")


def stats_unsaid(need: Need, text: str) -> list[str]:
    """The statistics `need` asks that `text` does not give: an extreme not named as one, a span
    without its first and last minute, a first minute back under a value without a minute. A window's
    summary gives its extremes only: how long a series was over a value is not in it."""
    missing: list[str] = []
    summary = _WINDOW_SUMMARY.search(text) is not None
    for stat in asked_stats(need):
        if stat.kind in _SAYS:
            said = _SAYS[stat.kind].search(text) is not None
        elif stat.kind in (StatKind.BACK_UNDER, StatKind.BACK_AT):
            said = not summary and _CLOCK.search(text) is not None
        else:
            said = not summary and len(set(_CLOCK.findall(text))) >= 2
        if not said:
            missing.append(stat.kind.value)
    return missing


#: The words that ask the statistic itself (the extreme, its minute, its direction): a statement that
#: gives the statistic says them its own way ("peaked at 3046 at 14:20" for "the worst minute").
_STAT_WORDS: Final = re.compile(
    r"^(?:worst|peak(?:ed)?|highest|max(?:imum)?|lowest|min(?:imum)?|minute|minutes|value|最差|最糟|最严重"
    r"|最高|峰值|最大|最低|最小|谷值|几点|分钟|哪一分钟)$",
    re.IGNORECASE,
)
#: A metric's name and the everyday words for what it measures (`http_request_duration_p99_ms` is the
#: latency): a statement naming the series names them.
_METRIC_WORDS: Final = (
    (re.compile(r"\w*_duration_\w*|\w*_latency\w*"), re.compile(r"^(?:latency|延迟|耗时)$", re.IGNORECASE)),
    (re.compile(r"\w*_error_rate\b"), re.compile(r"^(?:error|errors|错误率)$", re.IGNORECASE)),
    (re.compile(r"\w*_consumer_lag\b"), re.compile(r"^(?:lag|积压|消费延迟)$", re.IGNORECASE)),
)


def stat_terms_said(need: Need, text: str) -> set[str]:
    """The need's words a statement giving the statistic it asks says its own way (Session 31, round 3):
    the words that ask the statistic (`worst`, `minute`), once the statement gives it (`stats_unsaid`
    finds nothing missing) — not a series' summary, which states every series' extremes alike — and the everyday words for the metric the statement names by its series
    name (`latency` for `http_request_duration_p99_ms{…}`). None for a need asking no statistic."""
    if not asked_stats(need) or _WINDOW_SUMMARY.search(text) or stats_unsaid(need, text):
        return set()  # a series' summary (`max 0.15 at 14:20`) is no statistic stated of the asked series
    said = {t for t in need.terms if _STAT_WORDS.match(t)}
    for name, words in _METRIC_WORDS:
        if name.search(text):
            said |= {t for t in need.terms if words.match(t)}
    # A word the statement says itself (`最高` of `峰值（最高值）`) is compared as usual.
    return {t for t in said if t.lower() not in text.lower()}

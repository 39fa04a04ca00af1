"""Statistics of a metric series over a window, computed from the raw points read (docs/design.md §8,
Session 30): the offline executor's answer to "payment-db-proxy 的 p99 今天最高多少 几点", "how long was
the gateway p99 over 1500ms? first + last minute", "first minute payment-db active conns went back under
100".

What a need asks is read by `questions.window_stats`; here each matching series' raw points (merged
over every points fact of the run: the planner reads a long window in raw chunks) give the answer, and
every figure is stated as one point of the series, quoted from the fact that holds it, so the verifier
confirms it from the cited points (`verify.series.confirms_point`: one minute, the value there, no other
figure). The threshold itself is never restated as a figure: the statement says "the asked threshold".

Fails closed: a series whose points are not evenly spaced (a chunk missing), a downsampled series, an
answer at the edge of what was read (the run may go on beyond it) or a need naming something no series
carries gives no statement, so a miss stays a gap instead of a wrong figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from groundgate.compose.templates import Templates, templates
from groundgate.contracts import Need
from groundgate.questions.status_classes import asked_status_class, class_codes
from groundgate.questions.window_stats import AskedStat, StatKind, asked_stats, asked_window
from groundgate.text.lexicon import default_lexicon
from groundgate.verify.evidence_items import EvidenceItem, mentions_any
from groundgate.verify.series import Point, plain, points_excerpt

__all__ = ["class_weight", "partial_summaries", "states_a_statistic", "window_stat_units"]


@dataclass(frozen=True, slots=True)
class _Series:
    """One series' raw points, in time order, each with the fact that holds it."""

    name: str
    labels: str
    """`service=payment-gateway` (sorted `k=v` pairs)."""
    points: tuple[tuple[str, float, EvidenceItem], ...]

    @property
    def title(self) -> str:
        return f"{self.name}{{{self.labels}}}"


def _raw_series(evidence: Sequence[EvidenceItem]) -> list[_Series]:
    """Every raw series of the run's points facts, the chunks of one series merged."""
    merged: dict[tuple[str, str], dict[str, tuple[float, EvidenceItem]]] = {}
    for item in evidence:
        value = item.value if item.fact_type == "metric.points" and isinstance(item.value, Mapping) else None
        if value is None or value.get("aggregation", "raw") != "raw":
            continue
        labels = ",".join(f"{k}={v}" for k, v in sorted(dict(value.get("labels") or {}).items()))
        into = merged.setdefault((str(value.get("name")), labels), {})
        for raw in value.get("points") or []:
            if isinstance(raw, list | tuple) and len(raw) == 2 and isinstance(raw[1], int | float):
                into.setdefault(str(raw[0]), (float(raw[1]), item))
    return [
        _Series(name, labels, tuple((ts, v, i) for ts, (v, i) in sorted(points.items())))
        for (name, labels), points in merged.items()
        if points
    ]


def partial_summaries(evidence: Sequence[EvidenceItem]) -> set[str]:
    """The summary facts of a series read over several windows (the chunks of a long window): each is
    a part only, so its maximum is no answer to a question about the whole ("today's peak")."""
    seen: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for item in evidence:
        if item.fact_type == "metric.summary" and isinstance(item.value, Mapping):
            value = item.value
            labels = sorted(dict(value.get("labels") or {}).items())
            span = (str(value.get("first_at", "")), str(value.get("last_at", "")), item.citation_id)
            seen.setdefault((str(value.get("name")), str(labels)), []).append(span)
    partial: set[str] = set()
    for spans in seen.values():
        start, end = min(s[0] for s in spans), max(s[1] for s in spans)
        # A read that spans all the others (the whole day beside its chunks) is a whole.
        partial |= {cid for first, last, cid in spans if (first, last) != (start, end)}
    return partial


def _whole(series: _Series, evidence: Sequence[EvidenceItem]) -> bool:
    """Whether a summary of the series (computed over every raw point of its read) says the raw
    points at hand are all there are: the same first and last point and as many points."""
    for item in evidence:
        value = item.value if item.fact_type == "metric.summary" and isinstance(item.value, Mapping) else None
        if value is None or str(value.get("name")) != series.name:
            continue
        labels = ",".join(f"{k}={v}" for k, v in sorted(dict(value.get("labels") or {}).items()))
        if (
            labels == series.labels
            and value.get("first_at") == series.points[0][0]
            and value.get("last_at") == series.points[-1][0]
            and value.get("count") == len(series.points)
        ):
            return True
    return False


def _evenly_spaced(points: Sequence[tuple[str, float, EvidenceItem]]) -> bool:
    """Whether no point is missing between the first and the last (per-minute samples, no gap)."""
    minutes = [_minute_of_day(ts) for ts, _, _ in points]
    days = {ts[:10] for ts, _, _ in points}
    steps = {b - a for a, b in pairwise(minutes)}
    return len(days) == 1 and len(steps) <= 1 and all(s > 0 for s in steps)


def _minute_of_day(stamp: str) -> int:
    return int(stamp[11:13]) * 60 + int(stamp[14:16])


def _matching(
    series: Sequence[_Series], need: Need, context: Sequence[str] = (), codes: frozenset[str] | None = None
) -> list[_Series]:
    """The series the need is about: every name it gives is carried by the series' name or labels
    (hyphens, underscores and the lexicon alike); with no name, the one series read, if only one.
    With a status class asked ("5xx"), every series labelled by one of its `codes`, and only those."""
    if not need.anchors:
        return list(series) if len(series) == 1 else []
    found = [s for s in series if all(mentions_any(f"{s.name} {s.labels}", [a]) for a in need.anchors)]
    if codes is not None:
        return [s for s in found if any(v in codes for v in _label_values(s))]
    return _unambiguous(found, context)


def _label_values(series: _Series) -> list[str]:
    return [pair.partition("=")[2] for pair in series.labels.split(",") if pair]


def _class_codes(evidence: Sequence[EvidenceItem], need: Need) -> frozenset[str] | None:
    """The error codes of the status class the need names ("5xx"), as the passages at hand map them
    (`questions.status_classes`); None when it names no class (Session 31, round 3)."""
    digit = asked_status_class(need.text)
    if digit is None:
        return None
    return frozenset(class_codes((i.text for i in evidence if not i.fact_type), digit))


def _unambiguous(series: Sequence[_Series], context: Sequence[str]) -> list[_Series]:
    """The series less those of a metric the need names more than one series of (Session 31): when
    `payment_gateway_error_rate` is read per `error_code` and the need names no code ("payment-gateway
    5xx 错误率峰值"), the peak of one code's series is not the peak asked, so none is stated — unless
    exactly one of them carries a word of the question's other parts (`网关` of "是不是网关 p99 根本没超过
    1500？p99 最高到过多少？": the gateway's p99, not notification-service's)."""
    per_name: dict[str, list[_Series]] = {}
    for s in series:
        per_name.setdefault(s.name, []).append(s)
    kept: list[_Series] = []
    for siblings in per_name.values():
        if len(siblings) == 1:
            kept += siblings
            continue
        told = [s for s in siblings if any(_carries(s, word) for word in context)]
        if len(told) == 1:
            kept += told
    return kept


def _carries(series: _Series, word: str) -> bool:
    """Whether a label value of the series says `word`, also through the lexicon (`网关` → gateway)."""
    labels = series.labels
    return mentions_any(labels, [word]) or any(
        mentions_any(labels, [t]) for t in default_lexicon().translations(word, limit=4)
    )


#: A statement and what it quotes: (points fact, the point's excerpt).
Stated = tuple[str, tuple[tuple[EvidenceItem, str], ...]]


def window_stat_units(
    evidence: Sequence[EvidenceItem], need: Need, zh: bool, context: Sequence[str] = ()
) -> list[Stated]:
    """The statements answering the window statistics `need` asks (module docs), each with its quote;
    `context` is the words of the question's other parts (they may tell sibling series apart)."""
    stats = asked_stats(need)
    if not stats:
        return []
    window = asked_window(need)
    texts = templates("zh-CN" if zh else "en")
    units: list[Stated] = []
    codes = _class_codes(evidence, need)
    matching = _matching(_raw_series(evidence), need, context, codes)
    for series in matching:
        said = _series_units(series, evidence, stats, window, texts, zh)
        if not said and codes is not None:
            return []  # a status class asked: some of its codes' figures without the others' is no answer
        units += said
    return units


def _series_units(
    series: _Series,
    evidence: Sequence[EvidenceItem],
    stats: Sequence[AskedStat],
    window: tuple[str, str] | None,
    texts: Templates,
    zh: bool,
) -> list[Stated]:
    """The statements of the asked statistics of one series, each with its quotes; none when the
    points read do not hold the whole window evenly."""
    points = [p for p in series.points if window is None or window[0] <= p[0][11:16] <= window[1]]
    if len(points) < 3 or not _evenly_spaced(points):
        return []
    if window is None and not _whole(series, evidence):
        return []  # the raw chunks may not hold all of the day: its peak may lie outside them
    if window is not None and (points[0][0][11:16], points[-1][0][11:16]) != window:
        return []  # the asked window was not read whole
    units: list[Stated] = []
    for stat in stats:
        for text, named in _statements(series, points, stat, texts, zh, window is not None):
            # Every minute the statement names is quoted from the points (the window's ends, the
            # peak a recovery is counted from); its one figure is the first point's value.
            quotes: dict[tuple[str, str], tuple[EvidenceItem, str]] = {}
            for ts, v, item in named:
                quotes.setdefault((item.citation_id, ts), (item, _excerpt(ts, v)))
            units.append((text, tuple(quotes.values())))
    return units


_Found = tuple[str, float, EvidenceItem]


def _statements(
    series: _Series, points: Sequence[_Found], stat: AskedStat, texts: Templates, zh: bool, named: bool
) -> list[tuple[str, tuple[_Found, ...]]]:
    """The statements of one statistic over `points` (the window), each with the points it names
    (the one whose value it states first)."""
    values = [v for _, v, _ in points]
    common: dict[str, Any] = {
        "series": series.title,
        "day": points[0][0][:10],
        "start": points[0][0][11:16],
        "end": points[-1][0][11:16],
    }
    last = len(points) - 1
    if stat.kind in (StatKind.PEAK, StatKind.LOW):
        pick = max if stat.kind is StatKind.PEAK else min
        extreme = pick(values)
        at = values.index(extreme)
        if at in (0, last) and not named:  # the read may have cut it: it may go further beyond
            return []
        template = texts.metric_peak if stat.kind is StatKind.PEAK else texts.metric_low
        return [(_say(template, common, points[at]), (points[at], points[0], points[-1]))]
    assert stat.threshold is not None
    cmp = _comparison(stat, zh)
    if stat.kind is StatKind.BACK_UNDER:
        top = values.index(max(values))
        if top in (0, last) or values[top] < stat.threshold:
            return []
        back = next((i for i in range(top + 1, len(points)) if values[i] < stat.threshold), None)
        if back is None:
            return []
        text = _say(
            texts.metric_back_under, {**common, "cmp": cmp, "peak_at": points[top][0][11:16]}, points[back]
        )
        return [(text, (points[back], points[top]))]
    if stat.kind is StatKind.BACK_AT:
        return _back_at(values, points, stat.threshold, texts, {**common, "cmp": cmp})
    meets = [i for i, v in enumerate(values) if _meets(v, stat)]
    if not meets or meets[0] == 0 or meets[-1] == last:
        return []  # never met, or met at the edge of what was read (it may have begun before)
    first, final = points[meets[0]], points[meets[-1]]
    text = _say(texts.metric_span, {**common, "cmp": cmp, "last": final[0][11:16]}, first)
    # The minutes either side are quoted too: they show the first and the last are that.
    return [(text, (first, points[meets[0] - 1], final, points[meets[-1] + 1]))]


def _back_at(
    values: Sequence[float],
    points: Sequence[_Found],
    level: float,
    texts: Templates,
    common: Mapping[str, Any],
) -> list[tuple[str, tuple[_Found, ...]]]:
    """ "Back at the 99.5% objective": the series' furthest excursion across `level` (a success
    rate's low under it, a latency's peak over it) says which side is the usual one; the first minute
    after that extreme back on the usual side (at or past the level) is the answer. Nothing when the
    extreme lies at an edge of what was read, or the series never came back."""
    below, above = level - min(values), max(values) - level
    if max(below, above) <= 0:
        return []
    low = below > above
    extreme = values.index(min(values)) if low else values.index(max(values))
    if extreme in (0, len(values) - 1):
        return []
    back = next(
        (i for i in range(extreme + 1, len(values)) if (values[i] >= level if low else values[i] <= level)),
        None,
    )
    if back is None:
        return []
    text = _say(texts.metric_back_at, {**common, "extreme_at": points[extreme][0][11:16]}, points[back])
    return [(text, (points[back], points[extreme]))]


def _excerpt(stamp: str, value: float) -> str:
    return points_excerpt(Point(day=stamp[:10], at=stamp[11:16], value=value, at_iso=stamp))


def _meets(value: float, stat: AskedStat) -> bool:
    assert stat.threshold is not None
    if stat.kind is StatKind.BELOW:
        return value < stat.threshold
    return value >= stat.threshold if stat.inclusive else value > stat.threshold


def _say(template: str, common: Mapping[str, Any], point: _Found) -> str:
    return template.format(**common, at=point[0][11:16], value=plain(point[1]))


_EN_OVER = ("over", "above")
_EN_UNDER = ("under", "below")
_ZH_OVER = ("超过", "高于", "大于")
_ZH_UNDER = ("跌破", "低于", "小于")


def _comparison(stat: AskedStat, zh: bool) -> str:
    """The comparison in the question's own word, without its figure (`跌破所问阈值`, "over the asked
    threshold", "non-zero")."""
    word = stat.word.strip().lower()
    if stat.threshold == 0 and stat.kind is StatKind.ABOVE and not stat.inclusive:
        return "不为零" if zh else "non-zero"
    if stat.kind is StatKind.ABOVE:
        if stat.inclusive:
            return "达到所问水平" if zh else "at or over the asked level"
        if zh:
            return f"{word if word in _ZH_OVER else '高于'}所问阈值"
        return f"{word if word in _EN_OVER else 'above'} the asked threshold"
    if stat.kind is StatKind.BACK_UNDER:
        return "回到所问阈值以下" if zh else "under the asked threshold"
    if stat.kind is StatKind.BACK_AT:
        return "回到所问水平" if zh else "at the asked level"
    if zh:
        return f"{word if word in _ZH_UNDER else '低于'}所问阈值"
    return f"{word if word in _EN_UNDER else 'below'} the asked threshold"


def class_weight(needs: Sequence[Need], passages: Iterable[str]) -> Callable[[EvidenceItem], float]:
    """How much more an item matters to a statistic asked of a status class ("5xx 错误率峰值"; Session
    31, round 3): the passages that map a code to the class, then the raw points and the summaries of
    the series of those codes, so that every one of them survives the candidate budget (of the five
    series a read returns, the class's are the ones asked). No weight when no class is asked."""
    digits = {d for n in needs if asked_stats(n) and (d := asked_status_class(n.text)) is not None}
    if len(digits) != 1:
        return lambda item: 0.0
    digit = digits.pop()
    codes = frozenset(class_codes(passages, digit))

    def weight(item: EvidenceItem) -> float:
        if not item.fact_type:
            return 3.0 if class_codes([item.text], digit) else 0.0
        value = item.value if isinstance(item.value, Mapping) else {}
        labels = dict(value.get("labels") or {})
        if not any(str(v) in codes for v in labels.values()):
            return 0.0
        if item.fact_type == "metric.points":
            return 4.0 if value.get("aggregation", "raw") == "raw" else 3.0
        return 3.5 if item.fact_type == "metric.summary" else 0.0

    return weight


def states_a_statistic(needs: Sequence[Need], evidence: Sequence[EvidenceItem], zh: bool) -> bool:
    """Whether the evidence states a window statistic one of the needs asks, of a series every name
    of that need is carried by (Session 31, round 3): "At the worst minute of gateway p99 latency,
    what was the p99 and when, and what was pay-mysql-01's CPU at that moment?" is answered in part
    although nothing read names pay-mysql-01."""
    words = [w for n in needs for w in (*n.anchors, *n.terms) if w]
    return any(window_stat_units(evidence, n, zh, words) for n in needs if asked_stats(n))

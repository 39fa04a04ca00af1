"""Per-kind checks of numeric mentions.

Numbers and quantities (match, currency, unit and value mismatches, figures missing from the
evidence), the comparators that govern them, the currency a plan states apart from its amount, ranges,
and comparators with no value of their own (plan check only).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from groundgate.verify.fidelity.arithmetic import (
    _from_own_figures,
    _priced_quantity,
    _product_of_own,
    _ratio_percent,
    _share_of,
    _stated_formula,
    _sum_or_difference,
)
from groundgate.verify.fidelity.differences import compared_difference, compared_range, difference_unstated
from groundgate.verify.fidelity.elapsed import days_between_dates, elapsed_worked_out, months_between_dates
from groundgate.verify.fidelity.evidence import EvidenceIndex, _candidates
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.from_question import worked_from_question
from groundgate.verify.fidelity.matching import (
    _CLOSE_SPAN,
    _NEAR_SPAN,
    _approx_seconds,
    _dimensioned,
    _near,
    _num_match,
    _period_seconds,
    _range_match,
    _same_kind,
    _time_seconds,
)
from groundgate.verify.fidelity.model import Mention, Severity
from groundgate.verify.fidelity.numbers import _close, _parse_number
from groundgate.verify.fidelity.record_counts import counted_in_records
from groundgate.verify.fidelity.replaced import _replaces, _slot
from groundgate.verify.fidelity.report import _KIND_NAMES, _Ctx, _describe, _fmt, _Report
from groundgate.verify.fidelity.tallies import counts_own_items
from groundgate.verify.fidelity.units import _CNUM, _CURRENCY_PREFIX, _EN_ONES, _NUM, _lookup_unit

_UPPER = frozenset({"<", "<="})


#: `没有超过10天`: applying a rule to a case ("did not exceed"), not restating the rule's comparator.
_FACTUAL_CMP_RX = re.compile(
    r"(?:未|没有?|并未)(?:超过|超出|达到|高于|低于|少于)"
    r"|(?<![A-Za-z])(?i:did[ \t]+not|didn['’]t|has[ \t]+not|hasn['’]t|have[ \t]+not|haven['’]t|was[ \t]+not|wasn['’]t)"
    r"[ \t]+(?i:exceed|reach|go[ \t]+over|surpass)"
)


# --------------------------------------------------------------------------- numbers


def _equivalent_duration(m: Mention, x: _Ctx) -> bool:
    """Durations stated another way: `半个月` ≈ `15天`, `2 hours 7 minutes 48 seconds` = `2:07:48`, `7天` ≈ `近7天`."""
    seconds = _approx_seconds(m)
    if seconds is None:
        return False
    near, close = _NEAR_SPAN * max(abs(seconds), 1e-9), _CLOSE_SPAN * max(abs(seconds), 1.0)
    for index in (x.aligned, x.everything):
        for e in index.within("duration", seconds - near, seconds + near):
            if e.unit != m.unit and _near(seconds, _approx_seconds(e)):
                return True
        for e in index.within("time", seconds - close, seconds + close):
            if _close(seconds, _time_seconds(str(e.value))):
                return True
        for e in index.within("period", seconds - near, seconds + near):
            if _near(seconds, _period_seconds(str(e.value))):
                return True
    return False


_EN_WORD_OF = {value: word for word, value in _EN_ONES.items()}
_UNIT_WORD_RX = re.compile(r"([A-Za-z]{3,})\W*$")
_EVERY_UNIT_RX = re.compile(r"\b(hour|day|week|month|year)s?\W*$", re.IGNORECASE)
_EVERY_ADVERB = {"hour": "hourly", "day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"}


def _every_so_often(m: Mention, everything: EvidenceIndex) -> bool:
    """`every four weeks` over `charged four-weekly`: a period the evidence writes as an adverb (`4-weekly`,
    `six-monthly`), which the scan does not read as a duration."""
    if m.kind != "duration" or m.raw is None or m.raw != int(m.raw) or m.raw < 2 or m.comparator:
        return False
    unit = _EVERY_UNIT_RX.search(m.text)
    if unit is None:
        return False
    adverb = _EVERY_ADVERB[unit.group(1).lower()]
    count = int(m.raw)
    spellings = {str(count), _EN_WORD_OF.get(count, str(count))}
    text = everything.mentions.text.lower()
    return any(f"{word}-{adverb}" in text or f"{word} {adverb}" in text for word in spellings)


def _count_before_unit(m: Mention, everything: EvidenceIndex) -> bool:
    """`eight years` over `eight long, barren years`: the evidence states the number and, a few words
    on, the claim's own unit word — the same quantity with a description in between."""
    if m.kind not in {"duration", "count"} or m.raw is None or m.raw != int(m.raw) or m.comparator:
        return False
    unit = _UNIT_WORD_RX.search(m.text)
    if unit is None:
        return False
    return (
        _before_unit_rx(_written_forms(int(m.raw)), unit.group(1).lower().rstrip("s")).search(
            everything.mentions.text
        )
        is not None
    )


def _bare_count_stated(m: Mention, everything: EvidenceIndex) -> bool:
    """`a mother of six tells CNN` over `the single mother of six.`: the scanner keeps a spelled count
    only before a content word, so the evidence's `six` at a clause end is no mention; the word (or
    its digits) standing alone in the evidence states the same count."""
    if m.kind != "count" or m.unit is not None or m.comparator or m.raw is None or m.raw != int(m.raw):
        return False
    return any(everything.contains_token(form) for form in _written_forms(int(m.raw)))


def _shown(x: _Ctx) -> Callable[[Mention], bool]:
    """Whether the evidence states a figure of the claim as it is (an operand of its own arithmetic)."""
    return lambda e: any(_num_match(e, c) for c in _candidates(e, x.aligned, x.everything))


def _tallied(m: Mention, x: _Ctx) -> bool:
    """`A、B、C 这三个`: the claim counts what it lists — unless the evidence counts the same things
    itself (`萎凋、轻揉和干燥三道工序` over `只有萎凋和干燥两道工序`: an item was added); or it counts the
    context's records that carry its names."""
    if x.plan:
        return False
    if counted_in_records(m, x.source, x.everything.text):
        return True  # `four requests failed` over four such log lines (fidelity/record_counts.py)
    return counts_own_items(m, x.source) and not any(
        e.kind == m.kind and e.unit == m.unit for e in x.aligned.mentions.items
    )


def _written_forms(number: int) -> tuple[str, ...]:
    """How a whole number is written: its digits, and its English word when it has one (`6`, `six`)."""
    word = _EN_WORD_OF.get(number)
    return (str(number), word) if word else (str(number),)


#: How far an estimate may sit from the figure it rounds (`almost 16 million` for `15.9 million`,
#: `将近 10 千米` for `9.6 千米`).
_ESTIMATE_SPAN = 0.1


def _rounded_estimate(m: Mention, x: _Ctx) -> Mention | None:
    """The evidence figure of the same sort that `m` rounds, if any: `m` is marked as an estimate
    right beside it and lies within `_ESTIMATE_SPAN`, or it is written with fewer significant digits
    and is the evidence figure rounded to them (`$3.6 million` for `$3.64 million`)."""
    if x.plan or not isinstance(m.value, float) or not m.value or m.comparator:
        return None  # a bound (`不到 7 米`) is checked as a bound
    hedged = x.hedged_near(m)
    digits = _significant_digits(m.text)
    bound = _ESTIMATE_SPAN * abs(m.value)
    for index in (x.aligned, x.everything):
        for e in index.mentions.items:
            if not isinstance(e.value, float) or not _same_kind(m, e):
                continue
            if hedged and abs(e.value - m.value) <= bound:
                return e
            if (
                digits
                and _roundable(e.text)
                and digits < _significant_digits(e.text)
                and _close(_round_to(e.value, digits), m.value)
            ):
                return e
    return None


def _converted(m: Mention, shown: Mention) -> bool:
    """`m` restates the measure `shown` in another unit (miles as km, kcal as kJ), rounded as a
    conversion is: within 1 % of it. A rounding in the same unit stays a warning."""
    if m.kind != "measure" or shown.kind != "measure" or m.surface_unit == shown.surface_unit:
        return False
    if not isinstance(m.value, float) or not isinstance(shown.value, float) or not shown.value:
        return False
    return abs(m.value - shown.value) <= 0.01 * abs(shown.value)


def _roundable(text: str) -> bool:
    """A figure written with decimals or of four digits and more: one people round when they retell
    it (`12 minutes` is not rounded to `10 minutes`, it is changed)."""
    found = _LITERAL_RX.search(text)
    if found is None:
        return False
    literal = found.group().replace(",", "")
    return "." in literal or len(literal.lstrip("0")) >= 4


_LITERAL_RX = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _significant_digits(text: str) -> int:
    """Significant digits of the first number written with digits in `text` (0 when none):
    `3.6` has 2, `3.64` has 3, `300,000` has 1."""
    found = _LITERAL_RX.search(text)
    if found is None:
        return 0
    literal = found.group().replace(",", "")
    if "." in literal:
        return len(literal.replace(".", "").lstrip("0"))
    return len(literal.lstrip("0").rstrip("0")) or 1


def _round_to(value: float, digits: int) -> float:
    if not value:
        return value
    return float(f"{value:.{digits}g}")


#: An example the answer supposes ("so a 13-hour delay would pay €100", "比如延误 13 小时"): its
#: figure is the case put, not a value claimed of the evidence (what the example yields is checked).
_EXAMPLE_BEFORE = re.compile(
    r"(?:\b(?:so|say|e\.g\.|for\s+example|for\s+instance)\s*,?\s*(?:a|an)\s*$)|(?:比如|例如|举个例子|打个比方)[^，。；]{0,6}$",
    re.IGNORECASE,
)
_WOULD_AFTER = re.compile(r"^[^.;!?]{0,40}?\bwould\b", re.IGNORECASE)
#: A remainder or the rest of a total ("the remaining £16 million", "其余 1600 万"): worked out from a
#: total the context states and a part the claim states.
_REMAINDER_BEFORE = re.compile(
    r"(?:\bremaining\b|\bthe\s+rest\b|\bleft\s*$|\bleav(?:es|ing)\b|剩余|剩下|其余|余下)[^,;，；]{0,12}$",
    re.I,
)


def _example_case(m: Mention, claim: str) -> bool:
    before = claim[max(0, m.start - 24) : m.start]
    found = _EXAMPLE_BEFORE.search(before)
    if not found:
        return False
    return bool(found.group(0).strip().startswith(("比", "例", "举", "打"))) or bool(
        _WOULD_AFTER.match(claim[m.end :])
    )


def _example_result(m: Mention, claim: str) -> bool:
    """The figure an example yields: after `would` in the clause whose case is an example."""
    start = max((claim.rfind(p, 0, m.start) for p in ",;，；"), default=-1) + 1
    clause = claim[start : m.start]
    return bool(re.search(r"\bwould\b", clause, re.IGNORECASE)) and any(
        _example_case(e, claim) for e in extract(claim).items if start <= e.start < m.start
    )


def _remainder_of_context(m: Mention, x: _Ctx) -> bool:
    if not isinstance(m.value, float) or not _REMAINDER_BEFORE.search(
        x.source[max(0, m.start - 24) : m.start]
    ):
        return False
    # Bare figures before it count in its unit ("taken 11.5 and another 4 booked, which leaves 12.5
    # days"): the unit is said once, at the end.
    said = re.search(r"\d+(?:\.\d+)?", m.text.replace(",", ""))
    scale = m.value / float(said.group()) if said and float(said.group()) else 1.0
    own = [
        e.value if _same_kind(m, e) else e.value * scale
        for e in extract(x.source).items
        if e.start != m.start
        and isinstance(e.value, float)
        and (_same_kind(m, e) or (e.kind == "number" and e.start < m.start))
    ]
    stated = [e.value for e in x.everything.mentions.items if isinstance(e.value, float) and _same_kind(m, e)]
    # "28 days available (25 + 3 carried over) … taken 11.5, another 4 booked, which leaves 12.5": the
    # total may itself be two stated figures together, and the parts all the claim's own figures.
    totals = set(stated)
    if len(stated) <= 12:
        totals |= {a + b for a, b in itertools.combinations(stated, 2)}
    # Several parts are all taken off ("11.5 taken and 4 booked leave 12.5", not 25 − 11.5).
    parts = {sum(own)} if len(own) > 1 else set(own)
    if not own and (m.value >= 10 or m.value != int(m.value)) and len(stated) <= 40:
        # `剩下的38托` after the answer told `40托` and `2托隔离`: the total and the part are both the
        # context's (a record's bare figures count in the claim's unit: `托盘=40`).
        parts = set(stated) | {
            e.value for e in x.everything.mentions.items if e.kind == "number" and isinstance(e.value, float)
        }
        totals |= parts
    return any(_close(t - part, m.value) for t in totals for part in parts if t > part)


_PAST_TARGET = re.compile(
    r"多出|超出|超额|超过了?|高出|差了?|少了?|\b(?:over|above|beyond|short\s+of|below|exceed(?:ed|s)?\s+(?:it\s+)?by)\s*$",
    re.IGNORECASE,
)


#: Price words that halve or scale a price: `半价`, `对折`, `half price`, `八折` (80 %).
_DISCOUNT = re.compile(r"半价|对折|half[- ]price|half off|([一二三四五六七八九1-9])\s*折", re.IGNORECASE)
_DISCOUNTS = {str(n): n / 10 for n in range(1, 10)} | {
    c: (i + 1) / 10 for i, c in enumerate("一二三四五六七八九")
}


def _worked_out(m: Mention, x: _Ctx) -> bool:
    """A figure the claim works out rather than states (docs/design.md §2.1, "Worked figures"): a
    duration elapsed between clock times the claim ties down (`elapsed.py`), or a value of the context
    moved by a percent the claim or its window states (600 元 `上浮 30%` → `780 元`; an exact product,
    so a chance match is rare)."""
    if not isinstance(m.value, float) or not m.value:
        return False
    if m.kind == "duration":
        return elapsed_worked_out(m, x)
    nearby = [*extract(x.source), *x.aligned.mentions.items]
    percents = {e.value for e in nearby if e.kind == "percent" and isinstance(e.value, float)}
    if m.kind == "percent" and _PAST_TARGET.search(x.source[max(0, m.start - 10) : m.start]):
        # `完成率 105.0%` retold as `比目标多出 5%`: how far a rate is past (or short of) the whole.
        return any(_close(abs(p - 100), m.value) for p in percents)
    factors = {1 + p / 100 for p in percents if 0 < p < 100} | {1 - p / 100 for p in percents if 0 < p < 100}
    for text in (x.source, x.aligned.text):
        factors |= {_DISCOUNTS.get(word, 0.5) for word in _DISCOUNT.findall(text)}
    factors.discard(0.0)
    if not factors:
        return False
    # The base may be stated a sentence before the rule that moves it (`每晚不超过 600 元。… 上浮 30%`).
    values = {e.value for e in x.everything.mentions.items if isinstance(e.value, float) and _same_kind(m, e)}
    return any(_close(a * f, m.value) for a in values for f in factors)


@lru_cache(maxsize=1024)
def _before_unit_rx(forms: tuple[str, ...], stem: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w.,])(?:{'|'.join(forms)})(?:[ \t,]+[a-z-]+){{1,3}}?[ \t,]+{re.escape(stem)}s?\b",
        re.IGNORECASE,
    )


def _clock_shaped(m: Mention, everything: EvidenceIndex) -> bool:
    """`11 minutes 5 seconds` over a log's `passed (11:05)`, `2 hours 30 minutes` over `2:30`: a
    duration written as a clock reading (minutes:seconds or hours:minutes)."""
    if m.kind != "duration" or not isinstance(m.value, float) or m.unit != "s":
        return False
    for e in everything.by_kind.get("time", ()):
        parts = str(e.value).split(":")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            first, second = int(parts[0]), int(parts[1])
            if _close(m.value, first * 60.0 + second) or _close(m.value, (first * 60.0 + second) * 60):
                return True
    return False


def _multiple_as_percent(m: Mention, everything: EvidenceIndex) -> bool:
    """`按小时工资的 1.5 倍算` over `按 150% 计发`, `time and a half (1.5x)` over `150%`: a multiple is the
    percent a hundred times it."""
    if m.kind != "count" or m.unit != "times" or not isinstance(m.value, float):
        return False
    return any(
        _close(e.value, m.value * 100)
        for e in everything.by_kind.get("percent", ())
        if isinstance(e.value, float)
    )


def _bound_satisfied(m: Mention, aligned: EvidenceIndex) -> bool:
    """`不到7米` is borne out by `6.8米`: a concrete evidence value of the same kind meets the claimed bound,
    and is near it — within a factor of two. `最多收 10 元` is not borne out by a `0.2 元` daily fee: a
    value that far below a cap is another figure, not the one the bound retells."""
    if m.comparator is None or not isinstance(m.value, float):
        return False
    bound = m.value
    for e in aligned.mentions:
        # A table's bare figure counts what the claim counts (`不到一万单` over `华北 | 9,880`).
        same = _same_kind(m, e) or (m.kind == "count" and e.kind == "number")
        if e.comparator is not None or not isinstance(e.value, float) or not same:
            continue
        if _LIMIT_BEFORE.search(aligned.text[max(0, e.start - 24) : e.start]):
            # `限流为每秒 50 次` is itself a cap: "每秒最多 100 次" states another cap, not one it meets.
            continue
        v = e.value
        if (
            (m.comparator == "<" and bound / 2 <= v < bound)
            or (m.comparator == "<=" and bound / 2 <= v <= bound)
            or (m.comparator == ">" and bound < v <= bound * 2)
            or (m.comparator == ">=" and bound <= v <= bound * 2)
        ):
            return True
    return False


#: Words that make the figure after them a limit (a cap or a quota), not a measured value.
_LIMIT_BEFORE = re.compile(
    r"限流|上限|限额|配额|\b(?:rate[- ]limit(?:ed)?|limit(?:ed)?|cap(?:ped)?|quota|maximum)\b", re.I
)


def _same_slot_rival(
    m: Mention, claim: str, aligned: EvidenceIndex, everything: EvidenceIndex
) -> Mention | None:
    """A bare number of the aligned window after the same word as the claim's (`扩到 12` for `扩到 10`),
    when the window has no bare number of the claim's value and the context never writes the claim's
    value after that word (`Day 1` stated in another sentence than the aligned `By Day 5`)."""
    if m.kind != "number" or not isinstance(m.value, float):
        return None
    slot = _slot(claim, m.start)
    if len(slot) < 2:
        return None
    bare = [e for e in aligned.mentions.items if e.kind == "number" and isinstance(e.value, float)]
    if any(_close(e.value, m.value) for e in bare if isinstance(e.value, float)):
        return None
    whole = everything.mentions.text
    if any(
        e.kind == "number"
        and isinstance(e.value, float)
        and _close(e.value, m.value)
        and _slot(whole, e.start) == slot
        for e in everything.mentions.items
    ):
        return None
    text = aligned.mentions.text
    return next((e for e in bare if _slot(text, e.start) == slot), None)


_DAYS_AFTER_RX = re.compile(r"[-\s]*(?:nights?|days?)\b|\s*(?:晚|天|夜)", re.IGNORECASE)
_A_WEEK_RX = re.compile(
    r"\b(?:a|one|per|each|for\s+the)\s+week\b|\bweek-long\b|\bweekly\b|一周|一星期|一个星期|每周"
)


def _week_as_days(m: Mention, x: _Ctx) -> bool:
    """`£259 for seven nights` for a question about `a week`, or over `£196 per week`: seven days or
    nights are the week the question or the evidence names."""
    if m.kind not in {"count", "number", "duration"} or m.raw != 7 or m.comparator:
        return False
    if _DAYS_AFTER_RX.match(x.source, m.end) is None:
        return False
    texts = [x.everything.mentions.text, x.given.mentions.text if x.given is not None else ""]
    return any(_A_WEEK_RX.search(text) for text in texts)


def _given_number(m: Mention, given: EvidenceIndex | None) -> bool:
    return given is not None and any(_num_match(m, g) for g in _candidates(m, given))


def _worked_figure(m: Mention, x: _Ctx) -> bool:
    """`m` is worked out from figures of the claim, its window or the context (`arithmetic.py`), or
    is the case or remainder of an example the claim supposes."""
    hedged = x.hedged_near(m)
    return (
        _sum_or_difference(m, x.aligned, hedged)
        or _stated_formula(m, x.source)
        or _worked_out(m, x)
        or _from_own_figures(m, x.source, hedged, x.earlier.mentions.items if x.earlier is not None else ())
        or _share_of(m, x)
        or _ratio_percent(m, x)
        or _priced_quantity(m, x)
        or days_between_dates(m, x)
        or months_between_dates(m, x)
        or compared_difference(m, x)
        or worked_from_question(m, x)
        or (
            not x.plan
            and (
                _example_case(m, x.source)
                or _remainder_of_context(m, x)
                or _product_of_own(m, x.source, _shown(x))
            )
        )
    )


def _stated_in_other_form(m: Mention, x: _Ctx) -> bool:
    """The evidence states `m` in another form: a bare token, a version, an equivalent duration, a
    multiple as a percent, a clock reading, a count before its unit or tallied, a frequency."""
    if m.kind == "number" and m.raw is not None and x.everything.contains_token(_fmt(m.raw)):
        return True
    if m.kind == "number" and "." in m.text and _is_version_prefix(m.text.strip(), x):
        return True  # `2.3` names the version `v2.3.1`
    return (
        _equivalent_duration(m, x)
        or _multiple_as_percent(m, x.everything)
        or _clock_shaped(m, x.everything)
        or _count_before_unit(m, x.everything)
        or _bare_count_stated(m, x.everything)
        or _tallied(m, x)
        or _every_so_often(m, x.everything)
    )


def _check_number(m: Mention, x: _Ctx) -> None:
    r = x.r
    matches = [e for e in _candidates(m, x.aligned, x.everything) if _num_match(m, e)]
    rival = (
        None
        if any(e in x.aligned.members for e in matches)
        else _same_slot_rival(m, x.source, x.aligned, x.everything)
    )
    if rival is not None and not x.plan and _product_of_own(m, x.source, _shown(x)):
        rival = None  # `480 元 × 50 个 … 24,000 元`: the claim's own product, not the window's rival figure
    if rival is not None and difference_unstated(m, x):
        rival = None  # `比沙洲大桥长180米`: a difference, not the bridge's length changed
    if rival is not None:
        # `把副本数从 6 扩到 10` over `将副本数从 6 扩到 12`: the same words lead to another bare number
        # in the aligned window; a `10` elsewhere in the context (`连续 10 分钟`) is another figure.
        r.changed("number_mismatch", m, rival, f"{m.text} vs {rival.text} after the same words")
        return
    if matches:
        _check_comparator(m, [e for e in matches if e in x.aligned.members] or matches, x)
        if (
            x.plan
            and m.kind == "amount"
            and m.unit
            and all(e.unit is None for e in matches if e.kind == "amount")
        ):
            _check_currency_stated(m, x.everything, r)
        return
    if _stated_in_other_form(m, x):
        return
    rounded = _rounded_estimate(m, x)
    if rounded is not None and _converted(m, rounded):
        return  # `150 英里（约 240 公里）`: the same figure in the reader's unit, to within 1 %
    if rounded is not None:
        # An estimate is a paraphrase, not an invented value; but a rounded figure is not the figure
        # shown either (`around 300,000` for `294,000`): a warning the checker reads as at most
        # indirect support.
        r.add(
            "number_rounded",
            "warning",
            f"The {r.side} rounds {_describe(rounded)} to {_describe(m)}.",
            m.text,
            rounded.text,
        )
        return
    if _worked_figure(m, x):
        return
    if not x.plan and _example_result(m, x.source):
        # What the supposed example yields (`would pay €100`) is worked out, not stated: not shown,
        # and not a changed value either.
        r.add(
            "number_not_in_evidence",
            "warning",
            f"The {r.side} works out {_describe(m)} for an example.",
            m.text,
            None,
        )
        return
    if not x.plan:
        if _given_number(m, x.given) or _week_as_days(m, x):
            return  # the user stated it in the question: a user assertion, not an invented figure
        if m.spelled and m.kind == "duration" and m.raw == 1 and m.comparator is None:
            return  # 一天 / one day: usually "per day", not a claimed duration
        if _bound_satisfied(m, x.aligned):
            return
    aligned = x.aligned.mentions.items
    if m.kind == "amount" and m.unit:
        for e in aligned:
            if e.kind == "amount" and e.unit and e.unit != m.unit and _close(m.raw, e.raw):
                r.changed("currency_mismatch", m, e, f"currency {m.unit} vs {e.unit}")
                return
    if (
        _dimensioned(m)
        and m.kind not in {"count", "amount"}
        and not any(e.kind == m.kind and e.surface_unit == m.surface_unit for e in aligned)
    ):
        for e in aligned:
            if (
                _dimensioned(e)
                and e.kind not in {"count", "amount"}
                and _close(m.raw, e.raw)
                and (m.kind != e.kind or m.surface_unit != e.surface_unit)
            ):
                r.changed("unit_mismatch", m, e, f"unit {m.surface_unit} vs {e.surface_unit}")
                return
    small_word = m.spelled and m.kind in {"count", "number"} and isinstance(m.value, float) and m.value <= 3
    differing = [e for e in aligned if _same_kind(m, e)]
    if differing:
        e = next((d for d in differing if d.comparator == m.comparator), differing[0])
        r.add(
            "number_mismatch",
            "warning"
            if small_word or difference_unstated(m, x) or (not x.plan and not _replaces(m, differing, x))
            else x.severity(m),
            f"The {r.side} states {_describe(m)} but the {r.other} states {_describe(e)} (different value).",
            m.text,
            e.text,
        )
        return
    if x.plan:
        severity: Severity = "warning" if m.kind in {"count", "number"} else "contradiction"
        r.add(
            "constraint_lost",
            severity,
            f"The question states the {_KIND_NAMES[m.kind]} {_describe(m)}, which the plan does not keep.",
            m.text,
            None,
        )
        return
    r.add(
        "number_not_in_evidence",
        "warning" if small_word or difference_unstated(m, x) else x.severity(m),
        f"The claim states the {_KIND_NAMES[m.kind]} {_describe(m)}, which appears nowhere in the evidence.",
        m.text,
        None,
    )


def _is_version_prefix(number: str, x: _Ctx) -> bool:
    versions = [*x.aligned.by_kind.get("version", ()), *x.everything.by_kind.get("version", ())]
    return any(str(v.value) == number or str(v.value).startswith(number + ".") for v in versions)


# --------------------------------------------------------------------------- comparators and currencies


def _check_comparator(m: Mention, matches: list[Mention], x: _Ctx) -> None:
    if m.comparator is None:
        return
    r = x.r
    if x.plan:
        if any(e.comparator == m.comparator for e in matches):
            return
        other = next((e for e in matches if e.comparator), None)
        if other is not None:
            r.changed("comparator_changed", m, other, f"comparator {m.comparator} became {other.comparator}")
        else:
            e = matches[0]
            r.add(
                "comparator_changed",
                "contradiction",
                f"The question states {_describe(m)} but the plan keeps only {_describe(e)} "
                f"(comparator {m.comparator} dropped).",
                m.text,
                e.text,
            )
        return
    direction = m.comparator in _UPPER
    if any(e.comparator is None or (e.comparator in _UPPER) == direction for e in matches):
        return
    if _FACTUAL_CMP_RX.search(x.source, max(0, m.start - 16), m.start):
        return  # "没有超过10天" applies the evidence's "超过10天" rule to a case
    if any(
        c.start != m.start and c.comparator and (c.comparator in _UPPER) != direction and _close_value(c, m)
        for c in extract(x.source).items
    ):
        return  # `ideally before noon, because collections after 12:00 are charged`: both sides, the rule kept
    e = matches[0]
    r.changed("comparator_changed", m, e, f"comparator {m.comparator} vs {e.comparator}")


def _close_value(a: Mention, b: Mention) -> bool:
    if isinstance(a.value, float) and isinstance(b.value, float):
        return _close(a.value, b.value)
    return a.value == b.value


def _check_unattached_comparator(m: Mention, x: _Ctx) -> None:
    other = x.everything
    ops = [e.value for e in other.by_kind.get("comparator", ())]
    ops += [e.comparator for e in other.mentions if e.comparator]
    if m.value in ops:
        return
    flipped = next((op for op in ops if op is not None and (op in _UPPER) != (m.value in _UPPER)), None)
    if flipped is not None:
        x.r.add(
            "comparator_changed",
            "contradiction",
            f"The question constrains with {_describe(m)} but the plan uses the comparator {flipped}.",
            m.text,
            None,
        )
    else:
        x.r.add(
            "constraint_lost",
            "contradiction",
            f"The question constrains with {_describe(m)}, which the plan does not keep.",
            m.text,
            None,
        )


_CURRENCY_WORDS_RX = re.compile(
    r"(?<![A-Za-z])(?:USD|RMB|CNY|EUR|GBP|JPY|HKD)(?![A-Za-z])|US\$|HK\$|[¥$€£]|人民币|美元|欧元|英镑|日元|港元|港币|元",
    re.IGNORECASE,
)


def _check_currency_stated(m: Mention, plan: EvidenceIndex, r: _Report) -> None:
    """The plan kept the amount but not next to its currency: is the currency stated elsewhere in the plan?"""
    found: set[str] = set()
    for cm in _CURRENCY_WORDS_RX.finditer(unicodedata.normalize("NFKC", plan.mentions.text)):
        token = cm.group()
        found.add(
            _CURRENCY_PREFIX.get(token.upper()) or _CURRENCY_PREFIX.get(token) or _lookup_currency(token)
        )
    if m.unit in found:
        return
    if found:
        r.add(
            "currency_mismatch",
            "contradiction",
            f"The question states {_describe(m)} but the plan names the currency {', '.join(sorted(found))}.",
            m.text,
            None,
        )
    else:
        r.add(
            "constraint_lost",
            "warning",
            f"The question states {_describe(m)}; the plan keeps the amount but never states the currency {m.unit}.",
            m.text,
            None,
        )


def _lookup_currency(token: str) -> str:
    unit = _lookup_unit(token)
    return unit.base if unit is not None and unit.kind == "amount" and unit.base else token.upper()


# --------------------------------------------------------------------------- ranges


def _check_range(m: Mention, x: _Ctx) -> None:
    r = x.r
    pool = [*x.aligned.by_kind.get("range", ()), *x.everything.by_kind.get("range", ())]
    if any(_range_match(m, e) for e in pool):
        return
    if (
        not x.plan
        and x.given is not None
        and any(_range_match(m, g) for g in x.given.by_kind.get("range", ()))
    ):
        return
    if not x.plan and _endpoints_stated(m, x):
        return  # `1 to 10 years` where the evidence states `满1年` and `不满10年` apart
    if not x.plan and compared_range(m, x):
        return  # `€70–90 million less than the €230 million` over `€140 million to €160 million`
    difference = difference_unstated(m, x)
    same = [e for e in x.aligned.by_kind.get("range", ()) if e.qualifier == m.qualifier]
    raw = _range_raw(m.text)
    for e in same:
        if raw is not None and raw == _range_raw(e.text) and e.surface_unit != m.surface_unit:
            r.changed("unit_mismatch", m, e, f"unit {m.surface_unit} vs {e.surface_unit}")
            return
    if same:
        r.add(
            "number_mismatch",
            "warning" if difference else x.severity(m),
            f"The {r.side} states the range {_describe(m)} but the {r.other} states {_describe(same[0])}.",
            m.text,
            same[0].text,
        )
        return
    if x.plan:
        r.add(
            "constraint_lost",
            "contradiction",
            f"The question states the range {_describe(m)}, which the plan does not keep.",
            m.text,
            None,
        )
    else:
        r.add(
            "number_not_in_evidence",
            "warning" if difference else x.severity(m),
            f"The claim states the range {_describe(m)}, which appears nowhere in the evidence.",
            m.text,
            None,
        )


_RANGE_NUMBERS_RX = re.compile(rf"{_NUM}|{_CNUM}")


def _endpoints_stated(m: Mention, x: _Ctx) -> bool:
    """Both ends of the claim's range are figures of the same kind the evidence states."""
    if not isinstance(m.value, tuple) or m.qualifier is None:
        return False
    stated = [
        e.value
        for index in (x.aligned, x.everything)
        for e in index.by_kind.get(m.qualifier, ())
        if isinstance(e.value, float) and e.unit == m.unit
    ]
    return all(any(_close(end, value) for value in stated) for end in m.value)


def _range_raw(text: str) -> tuple[float, ...] | None:
    numbers = [_parse_number(n) for n in _RANGE_NUMBERS_RX.findall(unicodedata.normalize("NFKC", text))]
    values = tuple(n[0] for n in numbers if n is not None)
    return values[:2] if len(values) >= 2 else None

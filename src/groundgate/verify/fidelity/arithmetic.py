"""Figures a claim works out rather than copies: sums, differences, remainders, products and shares.

`23 MB/s` retold as `约 184 Mbps` is a conversion; `一共 12 天，已经用了 5 天，还剩 7 天`, `about 17 minutes
more than allowed` (38.9 − 21.6), `$128.52` for 612 kWh at $0.21 and `roughly $54` a year on $2,500 at
2.15 % are worked out from figures the claim or its window states (docs/design.md §2.1, "Worked
figures"). A hedged figure is read at the precision it is written in. Pure: no I/O.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from groundgate.verify.fidelity.evidence import EvidenceIndex
from groundgate.verify.fidelity.extraction import extract
from groundgate.verify.fidelity.matching import _same_kind
from groundgate.verify.fidelity.model import Mention
from groundgate.verify.fidelity.numbers import _close
from groundgate.verify.fidelity.report import _Ctx

__all__ = [
    "_approx",
    "_stated_formula",
    "_product_of_own",
    "_from_own_figures",
    "_priced_quantity",
    "_ratio_percent",
    "_share_of",
    "_sum_or_difference",
]

_ADDS_UP_TO = re.compile(r"\badds?\s+up\s+to\s*$", re.IGNORECASE)
#: A multiple said as one: "是基础版的四倍", "ten times as many", "three times the".
_TIMES_AFTER = re.compile(r"\s*(?:倍|times\b|-fold\b|fold\b)", re.IGNORECASE)
_TIMES_BEFORE = re.compile(r"(?:是|为|达到)[^，。；,;]{0,8}的\s*$")
_PER_MONTH = re.compile(
    r"每月|每个月|一个月|/\s*月|\ba month\b|\b(?:per|every|each) month\b|\bmonthly\b|/mo\b", re.IGNORECASE
)
_OVER_A_YEAR = re.compile(
    r"一年|全年|每年|一整年|\bover a (?:full |whole )?year\b|\ba (?:full |whole )?year\b|\bper year\b|\bannually\b"
    r"|\byearly\b|\bfor\s+(?:the|a|one)\s+(?:full\s+|whole\s+)?year\b|\bper\s+annum\b",
    re.IGNORECASE,
)


#: Figures that count how many times a rate applies (days, people, items).
_COUNTED = frozenset({"duration", "count", "number"})


def _approx(a: float, m: Mention, hedged: bool) -> bool:
    """`a` is `m`'s value; for a hedged figure (`about 17 minutes`, `roughly 4,400`, `约 35 分钟`), `a`
    rounded to the precision `m` is written in (17.3 → 17, 4,410 → 4,400), and within 3 %."""
    if _close(a, m.value if isinstance(m.value, float) else None):
        return True
    if not hedged or not isinstance(m.value, float) or not m.raw:
        return False
    written = f"{m.raw:.10g}"
    if "." in written:
        unit = 10.0 ** -len(written.split(".")[1])
    else:
        unit = 10.0 ** (len(written) - len(written.rstrip("0"))) if written.rstrip("0") else 1.0
    slack = unit / 2 * abs(m.value / m.raw)
    gap = abs(a - m.value)
    return gap <= slack + 1e-9 and gap <= 0.03 * abs(m.value)


def _sum_or_difference(m: Mention, aligned: EvidenceIndex, hedged: bool = False) -> bool:
    """`上一代售价为 3699 元` over `售价 3299 元，较上一代降低 400 元`: the claim works out the sum or the
    difference of two figures of its own sort that the aligned window states. Small whole numbers
    are left out: too many pairs add up to them by chance."""
    if not isinstance(m.value, float) or m.comparator:
        return False
    if m.unit == "pp":
        # `被削了 10 个百分点，降到 50%` over `60% → 50%`: points are the difference of two percents
        values = [e.value for e in aligned.mentions.items if isinstance(e.value, float) and e.unit == "%"]
        return any(_approx(abs(a - b), m, hedged) for i, a in enumerate(values) for b in values[i + 1 :])
    if m.value == int(m.value) and abs(m.value) < 10:
        return False
    values = [e.value for e in aligned.mentions.items if isinstance(e.value, float) and _same_kind(m, e)]
    return any(
        _approx(a + b, m, hedged) or _approx(abs(a - b), m, hedged)
        for i, a in enumerate(values)
        for b in values[i + 1 :]
    )


#: Words that say a figure is worked out from others: a remainder, a total, a difference.
_ARITHMETIC_CUE = re.compile(
    r"还剩|剩下|剩余|剩|余下|合计|共计|总共|一共|加起来|差|多出|少了|多了|贵了?|便宜了?|高出|低了|"
    r"增加了?|减少了?|涨了|降了|提高了|下降了|净胜|领先|落后|省了?|还要|还需要?|还多|还少|削了?|砍了?|下调了?|上调了?|"
    # "fell by four percentage points, from 32% to 28%", "$30 over the limit", "$288 over a year"
    r"\b(?:fell|rose|dropped|climbed|grew|increased|decreased|declined|jumped|slipped|went\s+up|went\s+down)"
    r"\s+(?:by\s+)?(?:about\s+|roughly\s+|some\s+)?$|\byou'?re\s+$|\bthat'?s\s+$|\bthat\s+is\s+$|"
    r"\bremaining\b|\bleft\b|\bleaving\b|\bleaves\b|\bin total\b|\b(?:an?\s+)?(?:increase|decrease|drop|rise|gain|fall)\s+of\b|"
    r"\baltogether\b|\bcombined\b|\bdifference\b|\bmore than\b|\bless than\b|\bfewer than\b|"
    r"\bcomes? to\b|\badds? up to\b|\bin all\b|总计|共",
    re.IGNORECASE,
)


#: `seven units short (405 vs 412)`, `five over`: a gap said after the figure.
_GAP_AFTER = re.compile(
    r"\s*(?:[a-z]+\s+)?(?:short|over|fewer|more|less)\b|\s*(?:a\s+day\s+)?in\s+(?:total|all)\b|\s*altogether\b"
    r"|\s*(?:of\s+)?(?:headroom|spare|left|remaining)\b",
    re.IGNORECASE,
)
#: `bringing the charges to $142.47`, `taking the total to`: a running total said as one.
_BRINGING_TO = re.compile(r"\b(?:bringing|taking|bring|brings|takes)\b[^.;,]{0,30}\bto\s*$", re.IGNORECASE)


#: An estimate said right before the figure: only such a rate is a quotient read at its precision
#: (`每天八十元` beside `三天一共二百四十元` is a rate stated, which the context's `每天 100 元` must bear out).
_ABOUT_BEFORE = re.compile(
    r"(?:大约|大概|约|差不多|\b(?:about|around|roughly|approximately|some))\s*$", re.IGNORECASE
)
_MULTIPLE_WORD = re.compile(r"times|倍|×|(?<=\d)x\b", re.IGNORECASE)
#: A rate said as an average: `平均每小时`, `on average`, `per hour`, `a day`.
_AVERAGE = re.compile(
    r"平均|人均|均价|每(?:小时|天|日|分钟|月|人|平方米|平米|公里|千米|张|位|件|册|股|份|名|个)"
    r"|\b(?:average|on\s+average|per\s+\w+|an?\s+(?:hour|day|minute))\b",
    re.IGNORECASE,
)
#: An average named as one (`平均每张票`, `人均`, `averages out to`): the quotient is the claim's
#: own reading even without an estimate word.
_NAMED_AVERAGE = re.compile(r"平均|人均|均价|\baverag(?:e|es|ed|ing)\b", re.IGNORECASE)
#: What a rate divides by: a count, a duration, a plain number, a measure (`per square metre`).
_DIVISORS = frozenset({"duration", "count", "number", "measure"})
#: `一倍多`, `两倍以上`: more than the multiple.
_MORE_AFTER = re.compile(r"\s*(?:多|以上)")


def _ratio_pair(a: Mention, b: Mention) -> bool:
    return (
        isinstance(a.value, float)
        and isinstance(b.value, float)
        and a is not b
        and b.value > 0
        and a.value > b.value
        and a.kind == b.kind
        and a.kind != "count"
    )


def _meets(value: float, comparator: str, bound: float) -> bool:
    return {
        ">": value > bound,
        ">=": value >= bound,
        "<": value < bound,
        "<=": value <= bound,
    }.get(comparator, False)


def _from_own_figures(m: Mention, claim: str, hedged: bool = False, earlier: Sequence[Mention] = ()) -> bool:
    """`一共 12 天，已经用了 5 天，还剩 7 天`: a remainder or a total of two figures the claim itself
    states (each checked against the evidence on its own), said as one (`还剩`, `in total`, `贵`,
    `fell by`) right before it; a multiple of two of its figures said as one (`是基础版的四倍`, `ten
    times`); twelve months of a monthly figure (`$24 a month — $288 over a year`). The operands are
    the claim's, so small figures do not match by chance."""
    before = claim[max(0, m.start - 12) : m.start]
    if not isinstance(m.value, float):
        return False
    others = [e for e in extract(claim).items if e.start != m.start and isinstance(e.value, float)]
    own_count = len(others)
    # The answer's earlier supported sentences give operands too (`两项加起来每年可扣 84000 元`).
    others += [e for e in earlier if isinstance(e.value, float)]
    if m.unit == "times" and (m.comparator or _MORE_AFTER.match(claim, m.end)):
        # `more than six times the 0.3% baseline` (1.9 / 0.3), `高出一倍多` (1850 / 800): a bound on the
        # ratio of two of the claim's figures of one kind.
        ratios = [
            a.value / b.value
            for a in others
            for b in others
            if _ratio_pair(a, b) and isinstance(a.value, float) and isinstance(b.value, float)
        ]
        return any(_meets(r, m.comparator or ">", m.value) for r in ratios)
    # "add up to $70" reads as a bound ("up to"); it is a total
    if m.comparator and not _ADDS_UP_TO.search(before):
        return False
    # `four percentage points, from 32% to 28%`: points are the difference of two percents.
    unit = "%" if m.unit == "pp" else m.unit

    def operand(e: Mention) -> bool:
        return isinstance(e.value, float) and (
            ((_same_kind(m, e) or m.unit == "pp") and e.unit == unit)
            # `seven units short (405 vs 412)`: bare figures count what the claim counts
            or (m.kind == "count" and e.kind == "number")
        )

    values = [float(e.value) for e in others if operand(e) and isinstance(e.value, float)]
    own_values = [float(e.value) for e in others[:own_count] if operand(e) and isinstance(e.value, float)]
    # `climbed from 1.20 GiB to 1.97 GiB, an increase of 0.77 GiB`: a change written `from … to …` is
    # read as a range; its two ends are figures the claim states.
    values += _range_ends([*extract(claim).items, *earlier], m, unit)
    said_as_multiple = m.value >= 3 and _MULTIPLE_WORD.search(m.text) is not None  # `35 times`, `四倍`
    if said_as_multiple or _TIMES_AFTER.match(claim[m.end : m.end + 16]) or _TIMES_BEFORE.search(before):
        plain = [e.value for e in others if isinstance(e.value, float) and e.value > 0]
        # `peaked at 42,300 … about 35 times` (42,300 / 1,200): a hedged multiple at its precision
        if any(
            _close(a / b, m.value) or (hedged and _approx(a / b, m, True))
            for a in plain
            for b in plain
            if a > b
        ):
            return True
    near = claim[max(0, m.start - 16) : m.end + 12]
    if (
        _ABOUT_BEFORE.search(claim[max(0, m.start - 8) : m.start]) or _NAMED_AVERAGE.search(near)
    ) and _AVERAGE.search(near):
        # `8 小时少了 82 GiB，平均每小时大约 10 GiB`: a hedged rate is a quotient of two of the claim's figures
        quotients = [
            a.value / b.raw  # `8 小时`: eight of its own unit, not 28,800 seconds
            for a in others
            for b in others
            if a is not b
            and isinstance(a.value, float)
            and b.raw is not None
            and b.raw > 1
            and _same_kind(m, a)
            and b.kind in _DIVISORS
        ]
        if any(_approx(q, m, True) for q in quotients):
            return True
    if (
        _PER_MONTH.search(claim)
        and _OVER_A_YEAR.search(f"{before} {claim[m.end : m.end + 20]}")
        and any(_close(a * 12, m.value) for a in values)
    ):
        return True
    if (
        not _ARITHMETIC_CUE.search(before)
        and not _RESTATED_AS.search(claim[max(0, m.start - 24) : m.start])
        and not _BRINGING_TO.search(claim[max(0, m.start - 40) : m.start])
        and not _GAP_AFTER.match(claim, m.end)
    ):
        return False
    # `每天一百元，三天一共三百元`: a rate times the count the claim gives (3 days × 100 元); `€12 per day,
    # which is €84 for the week`: times the count a word beside the figure implies.
    counts = [e.raw for e in others if e.kind in _COUNTED and e.raw and e.raw == int(e.raw) and e.raw > 1]
    counts += _implied_counts(m, claim)
    return (
        any(
            _approx(a + b, m, hedged) or _approx(abs(a - b), m, hedged)
            for i, a in enumerate(values)
            for b in values[i + 1 :]
        )
        or any(_approx(a * k, m, hedged) for a in values for k in counts)
        # `$15 for breakfast, $20 for lunch and $35 for dinner … add up to $70`: a total of three or more
        # of the claim's own figures (across earlier sentences too many groups add up by chance)
        or any(
            _close(sum(group), m.value)
            for size in range(3, min(len(own_values), 6) + 1)
            for group in itertools.combinations(own_values, size)
        )
    )


def _range_ends(mentions: Sequence[Mention], m: Mention, unit: str | None) -> list[float]:
    """Both ends of each range among `mentions` in `m`'s unit (a measured unit, not a bare count)."""
    if not unit or m.kind in {"count", "number"}:
        return []
    ends: list[float] = []
    for e in mentions:
        if e.kind == "range" and e.unit == unit and isinstance(e.value, tuple):
            ends += [float(v) for v in e.value if isinstance(v, (int, float))]
    return ends


#: A figure said as the same thing restated: `which is €84 for the week`, `, or £3,420 a year`, `so 12.8 km
#: there and back`, `i.e. another £14`, `也就是 20 个小时`, `即 395 英镑`.
_RESTATED_AS = re.compile(
    r"\bwhich\s+(?:is|means|makes|works\s+out\s+(?:to|at))\s+(?:about\s+|roughly\s+|around\s+)?$"
    r"|(?:^|[,;(—–]\s*)(?:or|so|i\.e\.|that\s+is|making|meaning)\s+(?:another\s+|an\s+extra\s+|about\s+|roughly\s+)?$"
    r"|(?<=\d)\s+[—–]\s*$"  # `add £4 — £37 a night`: the sum said right after its last operand
    r"|(?:也就是(?:说)?|即|所以|折合|相当于|算下来)[^，。；,;\d]{0,8}$",
    re.IGNORECASE,
)
#: Words beside a worked figure that say how many times a rate applies, and the rate they apply to.
_IMPLIED = (
    # `€84 for the week` of `€12 per day`; `一周 588 元` of `每天 84 元`
    (
        re.compile(r"\b(?:a|the|one|per|each|for\s+a|for\s+the)\s+week\b|\bweekly\b|一周|每周|一星期", re.I),
        re.compile(
            r"\b(?:per|a|each|every)\s+(?:day|night)\b|\bdaily\b|\bnightly\b|每天|每日|每晚|一天|一晚", re.I
        ),
        7.0,
    ),
    # `12.8 km there and back` of `6.4 km each way`
    (
        re.compile(
            r"\bthere\s+and\s+back\b|\bround[\s-]trip\b|\bboth\s+ways\b|\breturn\s+(?:trip|journey)\b|来回|往返",
            re.I,
        ),
        re.compile(r"\beach\s+way\b|\bone[\s-]way\b|单程|每程", re.I),
        2.0,
    ),
    # `£1,300 a year` of `£25 a week`
    (_OVER_A_YEAR, re.compile(r"\b(?:per|a|each|every)\s+week\b|\bweekly\b|每周", re.I), 52.0),
    # `£420 a fortnight` of `£30 a day`
    (
        re.compile(r"\bfortnight\b|两周", re.I),
        re.compile(r"\b(?:per|a|each|every)\s+(?:day|night)\b|\bdaily\b|每天|每晚", re.I),
        14.0,
    ),
)


def _implied_counts(m: Mention, claim: str) -> list[float]:
    """The counts words beside `m` imply (`for the week` over a daily rate is 7): only where the claim
    also states the rate they apply to."""
    beside = claim[max(0, m.start - 12) : m.end + 24]
    return [k for said, rate, k in _IMPLIED if said.search(beside) and rate.search(claim)]


def _priced_quantity(m: Mention, x: _Ctx) -> bool:
    """`612 kWh at $0.21 per kWh … comes to $128.52`, `31 days × 45 cents = $13.95`: an amount that is
    exactly a price the claim or its window states times a quantity it states (as written, in its
    own unit). Exact to the cent, so a chance match is rare."""
    if m.kind != "amount" or not isinstance(m.value, float) or not m.value:
        return False
    if not _PRODUCT_CUE.search(x.source[max(0, m.start - 16) : m.start]):
        return False  # said as a result ("comes to", "adds", "合计"), not a price of its own
    nearby = _nearby(x)
    prices = _other_amounts(m, nearby)
    quantities = {
        e.raw for e in nearby if e.kind != "amount" and e.raw and e.raw > 1 and e.kind in _NUMERIC_OWN
    }
    per = _per_units(f"{x.source}\n{x.aligned.text}")
    return any(
        _close(round(p * q / n, 2), round(m.value, 2)) for p in prices for q in quantities for n in per
    )


#: A price per so many units: `$1.20 per 1,000 requests`, `price_per_1000`, `每千次 0.8 元`.
_PER_UNITS = re.compile(r"per[ _]?(\d[\d,]*)|per\s+(thousand|hundred)|每\s*(千|万|百)", re.IGNORECASE)
_PER_WORDS = {"thousand": 1000.0, "hundred": 100.0, "千": 1000.0, "万": 10000.0, "百": 100.0}


def _per_units(text: str) -> set[float]:
    """1, and every `per N` the text states (a price per thousand is a thousandth per unit)."""
    found = {1.0}
    for m in _PER_UNITS.finditer(text):
        if m.group(1):
            n = float(m.group(1).replace(",", ""))
            if n > 1:
                found.add(n)
        else:
            found.add(_PER_WORDS[(m.group(2) or m.group(3)).lower()])
    return found


_PRODUCT_CUE = re.compile(
    r"\b(?:comes?\s+to|adds?|bringing|totals?|costs?|that'?s|works?\s+out\s+(?:to|at))\b|合计|共计|一共|总共|算下来|折合|[，,]\s*共\s*$|就是|即为|等于|\bwould\s+cost\b"
    # a cap per night times the nights: `住 3 晚最多可以报 1740 元`, `up to 760 GBP for the four nights`
    r"|最多(?:可以|能)?报?|\bup\s+to\b",
    re.IGNORECASE,
)
_NUMERIC_OWN = frozenset({"measure", "count", "number", "duration", "size"})


_SHARED_KINDS = frozenset({"amount", "count", "number"})


def _share_of(m: Mention, x: _Ctx) -> bool:
    """`roughly $54` a year on `$2,500` at `2.15%`: a hedged amount that is an amount of the claim or
    its window taken at a percent of them (53.75, rounded as the figure is written). Unhedged, the
    product must be exact to the cent (`月服务费的15%，即7,200元` on 48,000 元; `pays 80% of that:
    $1,200` on $1,500): a chance match is rare."""
    if m.kind not in _SHARED_KINDS or not isinstance(m.value, float):
        return False
    # A count's share is read from the claim and its window only: with the answer's earlier figures too,
    # some count times some percent meets a changed count by chance (300 × 50 % for `150 颗` over `120 颗`).
    nearby = _nearby(x) if m.kind == "amount" else [*extract(x.source).items, *x.aligned.mentions.items]
    percents = {e.value for e in nearby if e.kind == "percent" and isinstance(e.value, float) and e.value}
    # `80% of max_connections, which is 400 of the 500`: a count or a bare figure is a share too
    amounts = (
        _other_amounts(m, nearby)
        if m.kind == "amount"
        else {
            e.value
            for e in nearby
            if e.kind in {"count", "number"} and isinstance(e.value, float) and e.value != m.value
        }
    )
    if x.hedged_near(m):
        # a hedged count (`约 1.2 万笔`) meets too many rounded shares of a record's figures by chance
        return m.kind == "amount" and any(_approx(a * p / 100, m, True) for a in amounts for p in percents)
    return any(_close(round(a * p / 100, 2), round(m.value, 2)) for a in amounts for p in percents)


def _ratio_percent(m: Mention, x: _Ctx) -> bool:
    """`about 87% of its water is already gone` (1,180 of 1,350), `完成率约96.1%` (11,533 of 12,000),
    `seven units short … about 1.7%` (7 of 412): a percent that is the ratio of two figures of one kind
    the claim or its window states, read at the precision it is written in. Only a hedged percent or
    one written with decimals: a whole percent matches some ratio of a long record by chance."""
    if m.kind != "percent" or not isinstance(m.value, float) or not m.value:
        return False
    hedged = x.hedged_near(m)
    # A whole percent said plainly (`同比增长两成` on 2.1 of 10.5) is the exact ratio of two of the
    # claim's own figures; a hedged one, or one with decimals, may take the window's too.
    loose = hedged or "." in m.text
    figures = [
        (e.kind, e.value)
        for e in (_nearby(x) if loose else extract(x.source).items)
        if isinstance(e.value, float) and e.value > 0 and e.kind in _RATIO_KINDS
    ]
    return any(
        _approx(100 * a / b, m, loose)
        for kind_a, a in figures
        for kind_b, b in figures
        # `完成率约 116%` (92,600 of a 80,000 target): a share may pass 100 % when the claim says so
        if (a < b or m.value > 100)
        and a != b
        and (kind_a == kind_b or {kind_a, kind_b} <= {"count", "number"})
    )


_RATIO_KINDS = frozenset({"amount", "count", "number", "measure", "duration", "size"})


def _nearby(x: _Ctx) -> list[Mention]:
    """The figures of the claim, of the window it was aligned with and of the answer's earlier
    supported sentences."""
    earlier = x.earlier.mentions.items if x.earlier is not None else ()
    return [*extract(x.source), *x.aligned.mentions.items, *earlier]


def _other_amounts(m: Mention, nearby: list[Mention]) -> set[float]:
    """The amounts among `nearby` other than `m`'s own value."""
    return {
        e.value for e in nearby if e.kind == "amount" and isinstance(e.value, float) and e.value != m.value
    }


def _product_of_own(m: Mention, claim: str, shown: Callable[[Mention], bool]) -> bool:
    """`每个账号一年 480 元，最少买 50 个，所以起步价是每年 24,000 元`, `£7,125 a quarter` of `£28,500 a
    year … paid quarterly`: the figure is the product or quotient of two other figures the claim states
    itself, exactly, at the precision written. Each operand must be `shown` by the evidence itself: a
    changed rate with a total kept consistent (`每天八十元，三天一共二百四十元` over `每天 100 元`) must not
    vouch for itself. A wrong product (`24,500`) is still a changed figure."""
    if not isinstance(m.value, float) or m.value < 10 or m.comparator:
        return False
    values = [
        v
        for e in extract(claim).items
        if e.start != m.start and isinstance(e.value, float) and e.value > 0 and shown(e)
        for v in [e.raw if e.kind in _COUNTED or e.raw is None else float(e.value)]
        if v is not None and v > 1 and not _close(v, m.value)
    ]
    target = m.raw if m.raw is not None and m.kind in _COUNTED else m.value
    if any(
        _close(a * b, target) or _close(a / b, target)
        for i, a in enumerate(values)
        for b in values[i + 1 :] + values[:i]
    ):
        return True
    if m.kind != "duration":
        return False
    # `6 分钟 1 点 … 200 点 … 回满需要 20 个小时`: a duration times a count, in seconds (360 s × 200)
    spans = [
        e.value for e in extract(claim).items if e.kind == "duration" and e.start != m.start and shown(e)
    ]
    return any(
        _close(float(d) * k, m.value)
        for d in spans
        if isinstance(d, float)
        for k in values
        if k == int(k) and not _close(k, float(d))
    )


#: `2.10×100×12＝2520元`, `£1.50 + £2.00 = £3.50`: an expression the claim writes out, right before `=`.
_FORMULA_BEFORE = re.compile(
    r"(?P<expr>[¥$€£]?\s*\d[\d,]*(?:\.\d+)?(?:\s*(?:[×xX*÷/+＋−-])\s*[¥$€£]?\s*\d[\d,]*(?:\.\d+)?)+)"
    r"\s*(?:[=＝]|等于)\s*[¥$€£]?\s*$"
)
_FORMULA_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?|[×xX*÷/+＋−-]")


def _evaluate(expr: str) -> float | None:
    """The value of `a op b op c …` with × and ÷ before + and −; None when it does not parse."""
    tokens = [t.replace(",", "") for t in _FORMULA_TOKEN.findall(expr)]
    if len(tokens) < 3 or len(tokens) % 2 == 0:
        return None
    terms: list[float] = [float(tokens[0])]
    signs: list[float] = [1.0]
    for op, number in zip(tokens[1::2], tokens[2::2], strict=True):
        value = float(number)
        if op in "×xX*":
            terms[-1] *= value
        elif op in "÷/":
            if value == 0:
                return None
            terms[-1] /= value
        else:
            terms.append(value)
            signs.append(-1.0 if op in "−-" else 1.0)
    return sum(sign * term for sign, term in zip(signs, terms, strict=True))


def _stated_formula(m: Mention, claim: str) -> bool:
    """`100平方米一年就是2.10×100×12＝2520元`: the figure is the value of the expression the claim writes
    out right before it (its operands are checked on their own), to the cent."""
    if not isinstance(m.value, float) or m.raw is None:
        return False
    found = _FORMULA_BEFORE.search(claim[max(0, m.start - 60) : m.start])
    if found is None:
        return False
    value = _evaluate(found.group("expr"))
    return value is not None and round(value, 2) == round(m.raw, 2)

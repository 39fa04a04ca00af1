"""Structured evidence: a context passage that is a JSON object or array, or `key: value` lines.

Tool results and records (orders, metrics summaries, business listings) state facts as fields, not
sentences: `"OutdoorSeating": false` says "no outdoor seating" without a word of English. Read as
prose, such a passage is one unbroken "sentence" of braces and camelCase keys, and a faithful
description of it is flagged almost always. Here each record becomes one evidence window whose words
are its fields read out (`outdoor seating: false (not outdoor seating)`), and its fields are checked
one by one:

- `parse(passage)` finds the records of a passage (each object of a top-level array is one record),
  with their offsets in the passage and their leaf fields;
- `field_conflicts(claim, fields)` reports the fields a claim contradicts: a yes/no field stated the
  other way round (`has outdoor seating` against `OutdoorSeating: false`), an enumerated value
  replaced by another of its kind (`cancelled` against `status: partially_shipped`), a figure given
  to a field that holds another (`128 stars` against `stars: 4.5`).

Numbers, dates and names in records are compared by the same fidelity checks as prose (the
window's text is the record read out, with units and currencies the keys carry put next to their
values); attributes a record lacks leave the claim without support (`no_evidence`). Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise

from groundgate.text.segmentation import tokenize
from groundgate.verify.record_glosses import gloss, said_otherwise
from groundgate.verify.record_hours import closed_day_conflicts
from groundgate.verify.record_roles import role_given_to_another
from groundgate.verify.record_units import RANGE_VALUE, with_unit

#: Records longer than this are read as prose (parsing them would cost more than it helps).
_MAX_RECORD_CHARS = 200_000
_KV_LINE = re.compile(
    r"^\s*[-*]?\s*([A-Za-z_][\w .\-/]{0,48}?|[\u4e00-\u9fff][\u4e00-\u9fff\w ]{0,15}?)\s*[:=：]\s*(\S.*?)\s*$"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+")
# `out of stock` says "not in stock"; `non-refundable` says "not refundable"; 缺货 says "no stock".
_NEGATION = re.compile(
    r"(?<![a-z])(?:not|no|never|without|none|nor|cannot|lacks?|lacking|out\s+of|non(?=-?[a-z]))(?![a-z])"
    r"|n['’]t(?![a-z])|不|没|无|非|未|禁止|缺(?!点)",
    re.IGNORECASE,
)
# `"1"` / `"0"` are counts (`Coach: 1`, `qty: 0`), never a yes/no: only words are.
_TRUE = frozenset({"true", "yes", "y", "是", "有", "enabled", "on"})
_FALSE = frozenset({"false", "no", "n", "否", "无", "没有", "disabled", "off", "none"})
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
#: A change written with its sign (`"-35"`, `"+8.5%"`).
_SIGNED = re.compile(r"([+\-−])\s*(\d+(?:\.\d+)?%?)")
# Yelp-style strings carry Python quoting: `u'free'`, `'quiet'`.
_QUOTED = re.compile(r"^u?'(.*)'$|^u?\"(.*)\"$")
# Yelp hours (`8:0-17:0`) are times without their zeros; padded, they read as times of day.
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}):(\d{1,2})(?!\d)")
_HOURS = re.compile(r"^\d{1,2}:\d{1,2}(?:\s*-\s*\d{1,2}:\d{1,2})?$")
#: Keys that name nothing without their parent (`parking.available`, `price.amount`).
_GENERIC = frozenset(
    {"available", "enabled", "allowed", "included", "amount", "value", "fee", "price", "cost", "count",
     "total", "type", "status", "state", "open", "close", "opens", "closes", "start", "end", "min", "max"}
)  # fmt: skip
#: Parents that are containers, not attributes (`attributes.WiFi` is the Wi-Fi, not an attribute's).
_CONTAINERS = frozenset({"attributes", "data", "result", "results", "items", "lines", "record", "fields"})
#: Mutually exclusive values of one kind: a record holding one is contradicted by a claim giving it
#: another (`status: partially_shipped` against "was cancelled"). Lower case, words apart.
_ENUMS: tuple[frozenset[str], ...] = (
    frozenset({"pending", "processing", "partially shipped", "delivered", "cancelled", "canceled",
               "refunded", "returned", "on hold", "in transit"}),
    frozenset({"open", "in progress", "resolved", "closed", "reopened", "on hold"}),
    frozenset({"low", "medium", "normal", "high", "critical", "urgent"}),
    frozenset({"healthy", "degraded", "down", "operational", "outage"}),
    frozenset({"quiet", "average", "loud", "very loud"}),
    frozenset({"free", "paid"}),
    frozenset({"black", "white", "silver", "gray", "grey", "red", "blue", "green", "gold", "pink",
               "yellow", "purple", "orange", "brown"}),
    frozenset({"ups", "fedex", "usps", "dhl", "顺丰", "圆通", "中通", "申通", "韵达", "京东物流", "邮政"}),
    frozenset({"黑色", "白色", "银色", "灰色", "红色", "蓝色", "绿色", "金色", "粉色"}),
    frozenset({"微信支付", "支付宝", "银联", "现金", "信用卡", "货到付款"}),
    frozenset({"待付款", "待发货", "已发货", "部分发货", "已签收", "已完成", "已取消", "已退款",
               "未发货"}),
)  # fmt: skip
# Values that say a thing is there, in some way (`WiFi: free`, `breakfast: included`).
_PRESENT = frozenset({"free", "paid", "included", "available", "complimentary"})
# Degree words: a value at one end is contradicted by a claim at the other.
_PARTIAL = frozenset({"partially", "partly", "partial", "semi", "half"})
_FULL = frozenset({"fully", "completely", "entirely", "totally", "full"})
# Key words of a charge (stems, as `tokenize` gives them), and of what it is charged per.
_MONEY_WORDS = frozenset({"fee", "price", "cost", "charg", "charge", "amount"})
_PER = frozenset({"per", "night", "day", "hour", "month", "year", "person", "unit", "item"})
# Words before a value that make it a plan, not a state (`will be delivered on the 18th`).
_MODAL = frozenset({"will", "would", "should", "could", "may", "might", "to", "expected", "scheduled", "once",
                    "until", "when", "before", "after", "if", "estimated", "pending"})  # fmt: skip
# Values that are also comparisons or common adjectives (`errors are down`, `latency is high`): they
# are the field's only when its key is named next to them (`low priority`).
_LOOSE = frozenset({"down", "high", "low", "normal", "medium", "average", "open", "red", "green", "orange"})
# Words before a value that give it to the claim's subject (`the service is down`).
_COPULA = frozenset(
    {"is", "are", "was", "were", "been", "be", "now", "currently", "marked", "as", "in", "via", "by", "with"}
)
# Words before a figure that make it an estimate or a bound, not the field's value.
_APPROX = re.compile(
    r"(?:about|around|over|under|nearly|almost|roughly|approximately|than|least|most|to|up|of|~)\s*$",
    re.IGNORECASE,
)
_FIGURE = re.compile(
    r"(?<![\w.$€£¥/:])(\d+(?:,\d{3})*(?:\.\d+)?)(?![\d:%])\s*-?\s*([A-Za-z]+(?:-[A-Za-z]+)*)"
)
#: A figure that is a day of a month (`by 20 June`): a date, not a value of the field `Used to 20 June`.
_MONTH_WORD = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$", re.IGNORECASE)
# Clause breaks: a negation scopes over its own clause only (`street parking but no garage`). An
# `and` starts a clause when a verb or subject follows (`doesn't allow dogs and has seating`), not
# when it joins nouns (`no Wi-Fi and parking`).
_CLAUSE = re.compile(
    r"[;，；。！？!?]|[,:](?!\d)|\b(?:but|while|whereas|although|though|however)\b|但是|但|而且|不过|而"
    r"|\band\b(?=\s+(?:has|have|had|is|are|was|were|does|do|did|can|will|offers?|allows?|serves?|"
    r"includes?|comes?|it|its|there|they|the)\b)",
    re.IGNORECASE,
)
#: Nouns a quality describes the whole of (`a quiet place`), not an attribute it lacks.
_HEAD_NOUNS = frozenset(
    {"place", "spot", "one", "option", "choice", "venue", "location", "setting", "atmosphere", "environment",
     "area", "vibe", "business", "shop", "store", "restaurant", "cafe", "bar", "hotel", "room", "space"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Field:
    """One leaf field of a record: its key words (the last key, split), and its value."""

    key: str
    words: frozenset[str]
    """Content tokens of the key (`OutdoorSeating` → `outdoor`, `seat`)."""
    value: str
    boolean: bool | None
    """The value read as a yes/no, when it is one."""
    record: int = 0
    """Which record of its passage the field belongs to (a window may join two)."""
    number: float | None = None
    """The value as a number, when it is one."""
    table_row: bool = False
    """A cell of a `|` table's row (`row_names`: the rows a claim is checked against one at a time)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One record of a passage: where it is, its fields, and its fields read out as text."""

    start: int
    end: int
    fields: tuple[Field, ...]
    text: str


def parse(passage: str) -> list[Record]:
    """The records of a structured passage; empty when the passage is prose."""
    stripped = passage.strip()
    if not stripped or len(stripped) > _MAX_RECORD_CHARS:
        return []
    if stripped[0] in "{[":
        return _json_records(passage)
    return _kv_records(passage)


def _json_records(passage: str) -> list[Record]:
    # Decimals keep a figure as written (`684.50`, not `684.5`): the claim quotes it so.
    decoder = json.JSONDecoder(parse_float=Decimal)
    start = len(passage) - len(passage.lstrip())
    try:
        value, end = decoder.raw_decode(passage, start)
    except ValueError:
        return []
    if passage[end:].strip():
        return []
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        return [_record(value, start, end, 0)] if isinstance(value, (dict, list)) else []
    # Each object of an array is its own record, cited by its own span.
    records: list[Record] = []
    i = start + 1
    while True:
        while i < len(passage) and passage[i] in " \t\r\n,":
            i += 1
        if i >= len(passage) or passage[i] == "]":
            break
        try:
            item, after = decoder.raw_decode(passage, i)
        except ValueError:
            return [_record(value, start, end, 0)]
        records.append(_record(item, i, after, len(records)))
        i = after
    return records


def _kv_records(passage: str) -> list[Record]:
    lines = [line for line in passage.splitlines() if line.strip()]
    if len(lines) < 3:
        return []
    pairs = [m for m in (_KV_LINE.match(line) for line in lines) if m is not None]
    if len(pairs) < 3 or len(pairs) < 0.6 * len(lines):
        return []
    fields = tuple(
        _field(m.group(1), m.group(2), numeric=_NUMBER.match(m.group(2).strip()) is not None) for m in pairs
    )
    start = len(passage) - len(passage.lstrip())
    return [Record(start, len(passage.rstrip()), fields, _read_out(fields))]


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(passage: str) -> list[Record]:
    """The rows of a table written with `|` between its cells (a title line above it may stay), each
    a record of its cells under the header's names (`区域: 华南; 平均配送时长: 45 分钟`). The passage
    stays prose for support (its windows are its lines); the rows only let a claim's figures be
    checked against the row it names (`record_rows.row_conflicts`)."""
    spans = [(m.start(), m.end(), m.group()) for m in re.finditer(r"[^\n]+", passage)]
    rows = [(a, b, line) for a, b, line in spans if line.count("|") >= 2 and not _TABLE_RULE.match(line)]
    rules = sum(1 for _, _, line in spans if _TABLE_RULE.match(line))
    if len(rows) < 3 or len(rows) + rules < 0.6 * len(spans):
        return []
    header = _cells(rows[0][2])
    records: list[Record] = []
    for a, b, line in rows[1:]:
        cells = _cells(line)
        if len(cells) != len(header):
            return []
        fields = tuple(
            _numbered(
                _field(key, cell, numeric=_NUMBER.match(cell.replace(",", "")) is not None),
                len(records),
                table_row=True,
            )
            for key, cell in zip(header, cells, strict=True)
            if key and cell
        )
        records.append(Record(a, b, fields, _read_out(fields)))
    return records


def _record(value: object, start: int, end: int, number: int) -> Record:
    fields: list[Field] = []
    _walk(value, "", "", fields, None)
    own = tuple(_numbered(f, number) for f in fields)
    return Record(start, end, own, _read_out(own))


def _numbered(f: Field, record: int, *, table_row: bool = False) -> Field:
    return Field(f.key, f.words, f.value, f.boolean, record, f.number, table_row)


def _walk(value: object, key: str, parent: str, out: list[Field], currency: str | None) -> None:
    if isinstance(value, dict):
        # A `currency` field names the currency of the amounts beside it (and below it).
        found = next(
            (v for k, v in value.items() if str(k).lower() == "currency" and isinstance(v, str)), None
        )
        here = found.strip().upper() if found and re.fullmatch(r"[A-Za-z]{3}", found.strip()) else currency
        for k, v in value.items():
            _walk(v, str(k), key, out, here)
    elif isinstance(value, list):
        if not value and key:
            # `"告警": []`, `"alerts": []`: there are none (read out as `false (not …)`).
            out.append(Field(_split(key), frozenset(tokenize(_split(key))), "none", False))
        for v in value:
            _walk(v, key, parent, out, currency)
    elif value is None:
        # A state never reached (`"resolved": null`, `"is_refunded": null`) says "not yet".
        words = _split(key).lower().split()
        if words and (words[-1].endswith("ed") or words[0] in {"is", "has"}):
            out.append(Field(_split(key), frozenset(tokenize(_split(key))), "null", False))
    else:
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        # Python-dict-like strings inside records (`"{'garage': False}"`): read their pairs too.
        if isinstance(value, str) and value.startswith("{") and ":" in value:
            for inner_key, inner_value in re.findall(r"'([^']+)'\s*:\s*([^,}]+)", value):
                out.append(_field(inner_key, inner_value.strip().strip("'\"")))
            return
        # A JSON number is a count or an amount, never a yes/no (`"shipped": 0` of an order line
        # counts the units shipped; it does not say "not shipped" of the whole order).
        numeric = isinstance(value, int | float | Decimal) and not isinstance(value, bool)
        out.append(_field(key, text, numeric=numeric, parent=parent, currency=currency))


def _split(key: str) -> str:
    # Pieces of two letters are one word cut by its capitals (`WiFi` is `Wi-Fi`, not `Wi Fi`).
    words = " ".join(w for w in _CAMEL.split(key.strip()) if w)
    return re.sub(r"(?<![A-Za-z])([A-Za-z]{1,2}) (?=[A-Za-z]{1,2}(?![A-Za-z]))", r"\1-", words)


def _field(
    key: str, value: str, *, numeric: bool = False, parent: str = "", currency: str | None = None
) -> Field:
    words = _split(key)
    quoted = _QUOTED.match(value.strip())
    value = (quoted.group(1) if quoted.group(1) is not None else quoted.group(2)) if quoted else value.strip()
    if _HOURS.match(value):
        # Prose says `5 pm` for `17:00`: both are read out, so that its words are matched too.
        clock = _CLOCK.sub(lambda m: f"{int(m.group(1)):02d}:{int(m.group(2)):02d}", value)
        value = f"{clock} ({_CLOCK.sub(_twelve_hour, clock).replace('-', ' to ')})"
    signed = None if numeric else _SIGNED.fullmatch(value)
    if signed:
        # `环比: {"p99_ms": "-35"}` is a fall of 35: read out in words too, so that `下降了 35 毫秒` /
        # `fell by 35` finds its words and its figure unsigned; a claim giving the other direction is
        # a field conflict (`_direction_conflicts`).
        value = f"{value} ({'上升 rise' if signed.group(1) == '+' else '下降 fall'} {signed.group(2)})"
    low = value.lower()
    boolean = None if numeric else True if low in _TRUE else False if low in _FALSE else None
    parts = words.lower().split()
    if parts and parts[0] in _GENERIC and parent and parent.lower() not in _CONTAINERS:
        # `available` of `parking`: the field is the parking's availability, not anything's.
        words = f"{_split(parent)} {words}"
    tokens = frozenset(tokenize(words))
    number = float(value.replace(",", "")) if numeric else None
    if number is not None:
        words, value = with_unit(words, value, number, currency)
    elif RANGE_VALUE.match(value):
        # `range_miles: "40-65"` is `40-65 miles`, as a description writes it.
        words, value = with_unit(words, value, 0.0, None)
    return Field(words, tokens, value, boolean, 0, number)


def _twelve_hour(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)) % 24, int(m.group(2))
    text = f"{hour % 12 or 12}" + (f":{minute:02d}" if minute else "")
    return f"{text} {'am' if hour < 12 else 'pm'}"


def _read_out(fields: tuple[Field, ...]) -> str:
    # `true`/`false`, one field a line: `no` would read as a negation cue scoping over the next field.
    # A `false` is also said in words (`not refundable`), clause-bound by the `;`: a claim that says
    # "not refundable" has its negation in the evidence, not flipped against it.
    parts = []
    for f in fields:
        # `Wi-Fi (WiFi)`: prose writes such a key either way, and its words are matched as written.
        key = (
            f"{f.key} ({f.key.replace('-', '')})"
            if re.search(r"\b[A-Za-z]{1,2}-[A-Za-z]{1,2}\b", f.key)
            else f.key
        )
        # `RestaurantsPriceRange2: 2` is "moderately priced": the phrases a description uses for a
        # common listing attribute, said the way the field holds it (`record_glosses`).
        said_as = gloss(f.key, f.value, f.boolean)
        said_as = f" ({said_as})" if said_as else ""
        if f.boolean is None:
            parts.append(f"{key}: {f.value}{said_as}")
        elif f.boolean:
            parts.append(f"{key}: true{said_as}")
        else:
            said = f"不{f.key}" if re.search(r"[\u4e00-\u9fff]", f.key) else f"not {f.key}"
            parts.append(f"{key}: false ({said}){said_as}")
    return ";\n".join(parts)


def _words(text: str) -> list[str]:
    """Content words of `text`, with hyphenated words also split and joined (`wi-fi`: wi, fi, wifi)."""
    found: list[str] = []
    for token in tokenize(text):
        found.append(token)
        if "-" in token:
            found.extend(p for p in token.split("-") if p)
            found.append(token.replace("-", ""))
    return found


def _same(word: str, other: str) -> bool:
    """One word or its stem (`upgrad` ~ `upgradeable`, `review` ~ `reviews`)."""
    if word == other:
        return True
    if not word.isascii():
        return len(word) > 1 and len(other) > 1 and (word in other or other in word)
    return len(word) >= 4 and len(other) >= 4 and (word.startswith(other) or other.startswith(word))


def _names(f: Field, words: Sequence[str]) -> tuple[bool, bool]:
    """Whether `words` name the field, and whether a negative prefix does (`unpaid`, `non-refundable`)."""
    if not f.words:
        return False, False
    joined = re.sub(r"[\s-]", "", f.key.lower())
    if joined in words or joined in {w.replace("-", "") for w in words}:
        return True, False
    prefixed = False
    for w in f.words:
        if any(_same(w, c) for c in words):
            continue
        if any(c.startswith(p) and _same(w, c[len(p) :]) for c in words for p in ("un", "non-", "non")):
            prefixed = True
            continue
        return False, False
    return True, prefixed


def field_conflicts(claim: str, fields: tuple[Field, ...]) -> list[str]:
    """The fields `claim` states otherwise: a yes/no field the other way round (`has outdoor seating`
    vs `false`), an enumerated value replaced by another (`cancelled` vs `partially_shipped`), a
    figure given to a field that holds another (`128 stars` vs `stars: 4.5`).

    A yes/no field counts when every content word of its key is among the words of a clause; the
    clause says "no" when it has a negation word. Keys of one word that is also common prose (`open`)
    count too: the claim names that attribute of the record.
    """
    found: list[str] = []
    claim_words = frozenset(tokenize(claim))
    for clause in _CLAUSE.split(claim):
        if not clause or not clause.strip():
            continue
        own = _own_fields(clause, fields)
        found += _boolean_conflicts(clause, own)
        found += _enum_conflicts(clause, own, fields)
        found += _figure_conflicts(clause, own)
        found += _degree_conflicts(clause, own)
        found += _charge_conflicts(clause, own)
        found += _direction_conflicts(clause, own, claim_words)
        found += role_given_to_another(clause, own)
        found += closed_day_conflicts(clause, fields)
        found += [f.key for f in fields if f.boolean is None and said_otherwise(f.key, f.value, clause)]
    return list(dict.fromkeys(found))


_UP_WORDS = re.compile(
    r"上升|上涨|增长|增加|提高|升高|多了|涨|\b(?:up|rose|risen|rise[sn]?|increased?|grew|grown|higher)\b",
    re.I,
)
_DOWN_WORDS = re.compile(
    r"下降|下跌|减少|降低|回落|少了|降|\b(?:down|fell|fallen|falls?|decreased?|dropped|lower)\b", re.I
)


def _direction_conflicts(clause: str, fields: tuple[Field, ...], claim_words: frozenset[str]) -> list[str]:
    """A change field written with its sign (`p99_ms: "-35"`) whose figure the clause gives with the
    other direction (`p99 延迟……比前一天上升了 35 毫秒`); the claim must name the field (`p99`)."""
    found: list[str] = []
    for f in fields:
        signed = _SIGNED.match(f.value)
        if signed is None or not any(len(w) > 1 and w in claim_words for w in f.words):
            continue
        figure = signed.group(2).rstrip("%")
        at = [m.start() for m in re.finditer(rf"(?<![\d.]){re.escape(figure)}(?![\d.])", clause)]
        if not at:
            continue
        near = clause[max(0, at[0] - 12) : at[0]]
        wrong = _UP_WORDS if signed.group(1) != "+" else _DOWN_WORDS
        right = _DOWN_WORDS if signed.group(1) != "+" else _UP_WORDS
        if wrong.search(near) and not right.search(near):
            found.append(f.key)
    return found


def _own_fields(clause: str, fields: tuple[Field, ...]) -> tuple[Field, ...]:
    """The fields of the record the clause speaks of, when a window joins several records: the one
    whose names (`Oat milk`) the clause uses; all of them when it names none or several."""
    if len({f.record for f in fields}) < 2:
        return fields
    low = clause.lower()
    named: dict[int, int] = {}
    for f in fields:
        if f.boolean is None and f.number is None and len(f.value) >= 3 and f.value.lower() in low:
            named[f.record] = named.get(f.record, 0) + len(f.value)
    if not named:
        return fields
    best = max(named.values())
    chosen = [r for r, n in named.items() if n == best]
    return tuple(f for f in fields if f.record == chosen[0]) if len(chosen) == 1 else fields


_ALLOW_STEMS = ("welcom", "permit", "allow")


def _boolean_conflicts(clause: str, fields: tuple[Field, ...]) -> list[str]:
    # Another field's value quoted in the clause (`状态: 部分发货`) is that field's, not a mention of
    # a yes/no key it happens to contain (`已发货: 否`).
    text = clause
    for f in fields:
        if f.boolean is None and f.number is None and _phrase_like(f.value):
            text = re.sub(re.escape(_enum_text(f.value)), " ", text, flags=re.IGNORECASE)
    words = _words(text)
    if not words:
        return []
    # `welcomes dogs`, `pets permitted`: a record's `DogsAllowed` retold with another verb.
    if any(w.startswith(_ALLOW_STEMS) for w in words):
        words.append("allowed")
    negated = _NEGATION.search(text) is not None
    # Records of one window that disagree on a key (one item in stock, the other not) tell nothing
    # of a clause that does not say which item it means.
    values: dict[str, set[bool]] = {}
    for f in fields:
        if _yes_no(f) is not None:
            values.setdefault(f.key.lower(), set()).add(_yes_no(f) is True)
    found: list[str] = []
    for f in fields:
        yes = _yes_no(f)
        if yes is None or len(values[f.key.lower()]) > 1:
            continue
        named, prefixed = _names(f, words)
        if named and yes == (negated != prefixed):
            found.append(f.key)
    return found


def _yes_no(f: Field) -> bool | None:
    """The field read as a yes/no: its boolean, or yes for a value that says how it is had (`WiFi:
    free` says there is Wi-Fi: "has no Wi-Fi" contradicts it)."""
    if f.boolean is not None:
        return f.boolean
    return True if f.number is None and _enum_text(f.value) in _PRESENT else None


def _phrase_like(value: str) -> bool:
    """A value of several words (`partially shipped`) or of several Chinese characters (`部分发货`)."""
    text = _enum_text(value)
    return len(text.split()) >= 2 or len(re.findall(r"[\u4e00-\u9fff]", text)) >= 3


def _enum_text(value: str) -> str:
    return value.replace("_", " ").strip().lower()


def _has_phrase(phrase: str, text: str) -> re.Match[str] | None:
    if not phrase.isascii():
        return re.search(re.escape(phrase), text)
    return re.search(rf"(?<![a-z0-9-]){re.escape(phrase)}(?![a-z0-9-])", text)


def _enum_conflicts(clause: str, fields: tuple[Field, ...], window: tuple[Field, ...]) -> list[str]:
    """Enumerated fields the clause gives another value of the same kind (`is cancelled` against
    `status: partially_shipped`, `低优先级` … `白色` against `颜色: 黑色`)."""
    low = clause.lower()
    if _NEGATION.search(low):
        return []  # `has not been delivered yet` agrees with any status before delivery
    taken = {_enum_text(f.value) for f in window if f.boolean is None}
    words = _words(clause)
    found: list[str] = []
    for f in fields:
        if f.boolean is not None or f.number is not None:
            continue
        value = _enum_text(f.value)
        kind = next((k for k in _ENUMS if value in k), None)
        if kind is None or _has_phrase(value, low):
            continue
        value_words = _words(value)
        if value.isascii() and all(any(_same(v, c) for c in words) for v in value_words):
            continue  # `partly shipped` for `partially_shipped`
        for other in kind - taken:
            match = _has_phrase(other, low)
            if match is None or any(other in t for t in taken if other != t):
                continue  # absent, or a part of a value the window holds (`shipped` of `partially shipped`)
            before = low[: match.start()].split()[-3:]
            if _MODAL & set(before):
                continue  # `will be delivered`: a plan, not the state
            near = _words(" ".join(before) + " " + " ".join(low[match.end() :].split()[:2]))
            copula = bool(before) and before[-1] in _COPULA and other not in _LOOSE
            if not other.isascii() or _names(f, near)[0] or copula:
                # The claim gives this field's value: named by its key next to it (`priority is
                # low`, `low priority`), or said of the subject itself (`the service is down`).
                found.append(f.key)
                break
    return found


def _degree_conflicts(clause: str, fields: tuple[Field, ...]) -> list[str]:
    """Values of a degree the clause states at the other end: `fully shipped` against
    `partially_shipped`, `fully flexible` against `semi-flexible`, and the reverse."""
    words = re.findall(r"[a-z]+", clause.lower())
    found: list[str] = []
    for f in fields:
        if f.boolean is not None or f.number is not None:
            continue
        value = re.findall(r"[a-z]+", f.value.lower())
        for i, word in enumerate(value[:-1]):
            side = _PARTIAL if word in _PARTIAL else _FULL if word in _FULL else None
            if side is None:
                continue
            other = _FULL if side is _PARTIAL else _PARTIAL
            head = value[i + 1]
            if any(w in other and _same(n, head) for w, n in pairwise(words)):
                found.append(f.key)
                break
    return found


def _charge_conflicts(clause: str, fields: tuple[Field, ...]) -> list[str]:
    """`free` said of a thing the record charges for (`parking is free` against `parking.fee: 18`)."""
    low = clause.lower()
    if not re.search(r"(?<![a-z])free(?![a-z])|免费", low) or _NEGATION.search(low):
        return []
    words = _words(clause)
    found: list[str] = []
    for f in fields:
        if f.number is None or f.number <= 0 or not f.words & _MONEY_WORDS:
            continue
        subject = f.words - _MONEY_WORDS - _PER
        if subject and all(any(_same(w, c) for c in words) for w in subject):
            found.append(f.key)
    return found


def _figure_conflicts(clause: str, fields: tuple[Field, ...]) -> list[str]:
    """Numeric fields named by the word after a figure of the clause that holds another value:
    `4-star` against `stars: 4.5`, `128 stars` against `stars: 4.5` (the 128 is the review count)."""
    found: list[str] = []
    numeric = [f for f in fields if f.number is not None]
    if not numeric:
        return found
    # Figures of the record's names (`Kestrel 14`) are names, not values (`Kestrel 14 price`).
    named_figures = {
        n
        for f in fields
        if f.number is None and ":" not in f.value
        for n in re.findall(r"\d+(?:\.\d+)?", f.value)
    }
    # Words the record writes after its own figures (`Annual entitlement: 25 days`) are units: `28
    # days` is a figure in days, not the field `Sick days taken`.
    units = {
        w
        for f in fields
        if re.match(r"[\d.,]+\s*[^\d\s]", f.value)
        for w in tokenize(re.sub(r"[\d.,]+", " ", f.value))
    }
    for m in _FIGURE.finditer(clause):
        if _APPROX.search(clause[: m.start()]):
            continue  # `about 130 reviews`, `4.5 out of 5 stars`: a bound or a scale, not the value
        if m.group(1) in named_figures:
            continue
        stated = float(m.group(1).replace(",", ""))
        if _MONTH_WORD.match(m.group(2)):
            continue  # `by 20 June`: a date
        # A compound unit (`acre-feet`) is read whole: it names no field `Acres`.
        word = [m.group(2).lower()] if "-" in m.group(2) else tokenize(m.group(2))
        if not word:
            continue
        same = (lambda a, b: a == b) if "-" in word[0] else _same
        if any(same(word[0], u) for u in units):
            continue
        named = [f for f in numeric if any(same(word[0], w) for w in f.words)]
        if named and not any(f.number is not None and abs(f.number - stated) < 1e-9 for f in named):
            found.append(named[0].key)
    return found + _spelled_count_conflicts(clause, numeric)


#: `for three adults`: a small count in words right before the word that is a field's whole key.
_SPELLED_COUNT = re.compile(
    r"(?<![A-Za-z-])(one|two|three|four|five|six|seven|eight|nine|ten)\s+([A-Za-z]+)(?![A-Za-z-])",
    re.IGNORECASE,
)
_SPELLED = {
    w: n
    for n, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 1)
}


def _spelled_count_conflicts(clause: str, numeric: list[Field]) -> list[str]:
    """A count in words given to a field whose key is that one word (`three adults` against `adults:
    2`); a field of more words (`parking per space`, `review count`) is not named by one of them."""
    found: list[str] = []
    for m in _SPELLED_COUNT.finditer(clause):
        word = tokenize(m.group(2))
        if not word:
            continue
        keyed = [f for f in numeric if f.words == frozenset(word)]
        if keyed and all(f.number != _SPELLED[m.group(1).lower()] for f in keyed):
            found.append(keyed[0].key)
    return found


def misattributed(claim: Sequence[str], fields: tuple[Field, ...], fold: Callable[[str], str]) -> list[str]:
    """Claim words naming an attribute the record lacks, next to a value the record gives another
    field: `free parking` against `WiFi: free` (the record says nothing of parking).

    `claim` is the claim's content words in order (after `fold`, the checker's synonym folding);
    the word checked is the one right after the value (English puts the attribute after its value).
    Figures are left to the fidelity checks.
    """
    known: set[str] = set()
    for f in fields:
        known |= set(tokenize(fold(f.key))) | set(tokenize(fold(f.value)))
    known |= {f.key.replace(" ", "").lower() for f in fields}
    known |= {k.replace("-", "") for k in known}  # `Wi-Fi` is `WiFi` too
    claim_set = set(claim)
    found: list[str] = []
    for f in fields:
        # Only one-word lower-case values read as a quality (`free`, `casual`, `quiet`); names,
        # figures and phrases are compared by support and the fidelity checks.
        if f.boolean is not None or not f.value.isalpha() or not f.value.islower():
            continue
        value = tokenize(fold(f.value))
        if not value or any(c.isdigit() for c in f.value) or not set(value) <= claim_set:
            continue
        own = set(tokenize(fold(f.key))) | {f.key.replace(" ", "").lower()}
        if (own | {k.replace("-", "") for k in own}) & claim_set:
            continue  # the claim names this field: its value is where it belongs
        last = max(i for i, token in enumerate(claim) if token in value)
        if last + 1 < len(claim):
            after = claim[last + 1]
            # `wi-fi` is the record's `WiFi`; `a quiet place` describes the whole, not an attribute.
            parts = [p for p in after.split("-") if p]
            if after.replace("-", "") in known or (len(parts) > 1 and set(parts) <= known):
                continue
            if after not in known and after not in _HEAD_NOUNS and not any(c.isdigit() for c in after):
                found.append(after)
    return found

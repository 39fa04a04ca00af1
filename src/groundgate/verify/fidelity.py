"""Deterministic fidelity checks: numbers, units, dates, comparators, negation, versions, identifiers.

DESIGN invariant 6 ("numbers stay numbers") in code, for Chinese and English text:

- `extract(text)` finds every *mention* a fact can hinge on — amounts with currency, percentages and
  percentage points, durations (normalised to seconds), data sizes (normalised to bytes), counts,
  plain numbers, ranges, dates / periods / times of day, comparators, negation cues, versions and
  identifiers (error codes, HTTP paths, service names, trace ids, hosts, config keys) — each with a
  normalised value and its offsets in the original text.
- `compare_constraints(question, plan_text)` (use a): every constraint of the question must survive
  planning unchanged; each one lost or changed is an issue.
- `check_claim(claim, aligned_evidence, all_evidence)` (use b): contradiction signals between one
  claim and its evidence (seed 000: a fabricated identifier or a changed number is `contradicted`).

Everything is regex and table driven: regexes are compiled at import, `extract` is cached by the
string (evidence text repeats for every claim), and no model is involved.

Normalisation choices worth knowing:

- Text is NFKC-folded first (full-width digits, `％`, `￥`, `，` …), offsets always point into the
  original string.
- Magnitudes are folded into the value: `5千元` == `5000元` == `¥5,000` == `five thousand yuan`.
  `¥` and `元`/`块` are CNY, `$` is USD.
- Durations in seconds (`2分钟` == `120秒` == `2 minutes`); months, years and working days stay in
  their own unit (`month`, `year`, `workday`) because they do not convert exactly.
- Data sizes in bytes with binary multiples (`512MB` == `0.5 GB`, `512M` is 512 MiB).
- Dates are ISO-like strings: `2026-03-15`, `2026-03`, `2026`, `--03-15` (no year), `--03`,
  `---15`, `2026-Q3`, `Q3`, `2026-H1`, `weekday:1` (Monday); relative periods stay symbolic:
  `relative:month:-1` (上个月 / last month), `relative:week:+1:weekday:1` (下周一),
  `relative:last:day:7` (近7天 / past 7 days); times of day are `HH:MM` (24 h).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal

from groundgate.verify.text import split_sentences, stem, tokenize

__all__ = [
    "ISSUE_CODES",
    "Comparator",
    "FidelityIssue",
    "Mention",
    "MentionKind",
    "Mentions",
    "Severity",
    "check_claim",
    "compare_constraints",
    "extract",
    "negation_cues",
    "polarity",
]

MentionKind = Literal[
    "amount",
    "percent",
    "duration",
    "size",
    "measure",
    "count",
    "number",
    "range",
    "date",
    "period",
    "time",
    "comparator",
    "negation",
    "version",
    "identifier",
]
Comparator = Literal["<=", ">=", "<", ">"]
Severity = Literal["contradiction", "warning"]
MentionValue = float | str | tuple[float, float]

#: Every issue code either check can report.
ISSUE_CODES: frozenset[str] = frozenset(
    {
        "identifier_not_in_evidence",
        "number_mismatch",
        "number_not_in_evidence",
        "currency_mismatch",
        "unit_mismatch",
        "comparator_changed",
        "negation_flip",
        "date_mismatch",
        "version_mismatch",
        "version_not_in_evidence",
        "constraint_lost",
    }
)


@dataclass(frozen=True, slots=True)
class Mention:
    """One fact-bearing span of a text, with its normalised value.

    `value` depends on `kind`:

    - `amount`: float, `unit` = ISO currency (`CNY`, `USD`, …) or None (`5千`, `5k`);
    - `percent`: float, `unit` = `%` or `pp` (percentage points);
    - `duration`: float in seconds when `unit` is `s`; a count of `month`, `year` or `workday` otherwise;
    - `size`: float in bytes, `unit` = `B`;
    - `count`: float, `unit` = the classifier (`次`→`times`, `个`, `台`, `qps`, …) or None;
    - `number`: float, no unit;
    - `range`: `(low, high)` in the base unit, `qualifier` = the kind of the endpoints;
    - `date` / `period` / `time`: a string (see the module doc);
    - `comparator`: `<=`, `>=`, `<` or `>`; `qualifier` is `attached` when it governs a value mention;
    - `negation`: the cue, lower-cased (`无需`, `not`);
    - `version`: the dotted number without `v` and trailing `.0`, `qualifier` = product (`java`) or None;
    - `identifier`: the identifier as written (`HTTP 504` for status codes), `qualifier` = its sort
      (`error_code`, `http_status`, `path`, `url`, `service`, `config_key`, `host`, `ip`, `trace_id`, `id`).
    """

    kind: MentionKind
    value: MentionValue
    text: str
    start: int
    end: int
    unit: str | None = None
    surface_unit: str | None = None
    """The unit as written, canonicalised (`min`, `h`, `MB`, `元`): `unit_mismatch` compares it."""
    raw: float | None = None
    """The number as written, magnitude words included but before unit conversion (`2分钟` → 2)."""
    comparator: Comparator | None = None
    """The comparator governing this value (`不超过5000元` → `<=`)."""
    spelled: bool = False
    """Written in words (`三次`, `three days`) rather than digits."""
    qualifier: str | None = None


@dataclass(frozen=True, slots=True)
class Mentions:
    """All mentions of one text, ordered by position. Immutable, so `extract` can cache it."""

    text: str
    items: tuple[Mention, ...]

    def __iter__(self) -> Iterator[Mention]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Mention:
        return self.items[index]

    def of(self, *kinds: MentionKind) -> tuple[Mention, ...]:
        """The mentions of the given kinds, in text order."""
        wanted = frozenset(kinds)
        return tuple(m for m in self.items if m.kind in wanted)

    def values(self, *kinds: MentionKind) -> list[MentionValue]:
        """Just the normalised values of the given kinds (handy in tests and logs)."""
        return [m.value for m in self.of(*kinds)]


@dataclass(frozen=True, slots=True)
class FidelityIssue:
    """One lost constraint or contradiction signal, with a readable English `detail`."""

    code: str
    severity: Severity
    detail: str
    claim_mention: str | None
    """The span of the claim (use b) or of the question (use a) the issue is about."""
    evidence_mention: str | None
    """The differing span of the evidence (use b) or of the plan (use a), if there is one."""


# =========================================================================== tables

_CJK = "\u4e00-\u9fff"
_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_CNUM = r"(?:[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*)"
_CN_DIGIT = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_MULT = {"千万": 1e7, "百万": 1e6, "万": 1e4, "亿": 1e8, "千": 1e3, "百": 1e2}
_EN_MULT = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "mn": 1e6, "bn": 1e9}
_MULT = r"(?:[ \t]?(?:千万|百万|万(?!一)|亿|千(?![米克瓦字])|百(?!分))|[ \t]?(?i:thousand|million|billion)(?![A-Za-z]))"

_EN_ONES = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}


@dataclass(frozen=True, slots=True)
class _Unit:
    kind: str
    """amount | percent | duration | size | count | mult (a bare magnitude such as `k`)."""
    base: str | None
    factor: float
    surface: str


def _u(kind: str, base: str | None, factor: float, surface: str, *names: str) -> dict[str, _Unit]:
    unit = _Unit(kind, base, factor, surface)
    return dict.fromkeys(names, unit)


# Case-insensitive units (ASCII keys are looked up lower-cased).
_UNITS: dict[str, _Unit] = {
    **_u("duration", "s", 1e-9, "ns", "ns", "nanosecond", "nanoseconds", "纳秒"),
    **_u("duration", "s", 1e-6, "us", "us", "µs", "μs", "microsecond", "microseconds", "微秒"),
    **_u("duration", "s", 1e-3, "ms", "ms", "msec", "msecs", "millisecond", "milliseconds", "毫秒"),
    **_u("duration", "s", 1.0, "s", "sec", "secs", "second", "seconds", "秒", "秒钟"),
    **_u("duration", "s", 60.0, "min", "min", "mins", "minute", "minutes", "分钟"),
    **_u("duration", "s", 3600.0, "h", "hr", "hrs", "hour", "hours", "小时", "个小时", "钟头", "个钟头"),
    **_u("duration", "s", 86400.0, "d", "day", "days", "天", "日"),
    **_u("duration", "s", 604800.0, "week", "wk", "wks", "week", "weeks", "周", "个星期", "个礼拜"),
    **_u("duration", "month", 1.0, "month", "month", "months", "个月"),
    **_u("duration", "month", 12.0, "year", "yr", "yrs", "year", "years", "年"),
    **_u(
        "duration",
        "workday",
        1.0,
        "workday",
        "workday",
        "workdays",
        "working day",
        "working days",
        "business day",
        "business days",
        "工作日",
        "个工作日",
    ),
    **_u("size", "B", 1.0, "B", "byte", "bytes", "字节"),
    **_u("size", "B", 1024.0, "KB", "kb", "kib"),
    **_u("size", "B", 1024.0**2, "MB", "mb", "mib"),
    **_u("size", "B", 1024.0**3, "GB", "gb", "gib"),
    **_u("size", "B", 1024.0**4, "TB", "tb", "tib"),
    **_u("size", "B", 1024.0**5, "PB", "pb", "pib"),
    **_u("percent", "%", 1.0, "%", "%", "percent", "per cent", "pct"),
    **_u("percent", "%", 0.1, "‰", "‰"),
    **_u("percent", "pp", 1.0, "pp", "个百分点", "百分点", "percentage point", "percentage points", "pp"),
    **_u("amount", "CNY", 1.0, "元", "元", "块", "块钱", "人民币", "yuan", "rmb", "cny"),
    **_u("amount", "USD", 1.0, "USD", "美元", "美金", "usd", "dollar", "dollars"),
    **_u("amount", "EUR", 1.0, "EUR", "欧元", "eur", "euro", "euros"),
    **_u("amount", "GBP", 1.0, "GBP", "英镑", "gbp"),
    **_u("amount", "JPY", 1.0, "JPY", "日元", "jpy"),
    **_u("amount", "HKD", 1.0, "HKD", "港元", "港币", "hkd"),
    **_u("measure", "m", 1e-3, "mm", "mm", "毫米"),
    **_u("measure", "m", 1e-2, "cm", "cm", "厘米"),
    **_u("measure", "m", 1.0, "m", "米", "meter", "meters", "metre", "metres"),
    **_u(
        "measure", "m", 1e3, "km", "km", "千米", "公里", "kilometer", "kilometers", "kilometre", "kilometres"
    ),
    **_u("measure", "g", 1e-3, "mg", "mg", "毫克"),
    **_u("measure", "g", 1.0, "g", "克", "gram", "grams"),
    **_u("measure", "g", 1e3, "kg", "kg", "千克", "公斤", "kilogram", "kilograms"),
    **_u("measure", "g", 1e6, "t", "吨", "tonne", "tonnes"),
    **_u("measure", "L", 1e-3, "ml", "ml", "毫升", "milliliter", "milliliters", "millilitre", "millilitres"),
    **_u("measure", "L", 1.0, "L", "升", "liter", "liters", "litre", "litres"),
    **_u("measure", "Hz", 1.0, "Hz", "hz", "赫兹"),
    **_u("measure", "Hz", 1e3, "kHz", "khz"),
    **_u("measure", "Hz", 1e6, "MHz", "mhz"),
    **_u("measure", "Hz", 1e9, "GHz", "ghz"),
    **_u("measure", "°C", 1.0, "°C", "°c", "℃", "摄氏度"),
    **_u("count", "times", 1.0, "times", "次", "遍", "times"),
    **_u("count", "times", 1.0, "x", "倍"),
    **_u("count", "qps", 1.0, "qps", "qps", "次/秒"),
    **_u("count", "tps", 1.0, "tps", "tps"),
    **_u("count", "rps", 1.0, "rps", "rps", "req/s"),
    **_u("count", "MB/s", 1.0, "MB/s", "mb/s"),
    **_u("count", "GB/s", 1.0, "GB/s", "gb/s"),
    **_u("count", "Mbps", 1.0, "Mbps", "mbps"),
    **_u("count", "Gbps", 1.0, "Gbps", "gbps"),
    **_u("mult", None, 1e6, "mn", "mn"),
    **_u("mult", None, 1e9, "bn", "bn"),
}
_CLASSIFIERS = "个台条项人位件笔单张页行家名组套款份批轮层级种步道"
_UNITS.update({c: _Unit("count", c, 1.0, c) for c in _CLASSIFIERS})
#: Classifiers that make `一` an article (`一个问题`), not a quantity.
_ARTICLE_CLASSIFIERS = frozenset("个种位条项件份家名张款套组批级层步轮道")

# Case-sensitive single letters: only directly after the number (`5k`, `2.5s`, `512M`).
_LETTER_UNITS: dict[str, _Unit] = {
    "k": _Unit("mult", None, 1e3, "k"),
    "K": _Unit("mult", None, 1e3, "k"),
    "M": _Unit("size", "B", 1024.0**2, "MB"),
    "G": _Unit("size", "B", 1024.0**3, "GB"),
    "T": _Unit("size", "B", 1024.0**4, "TB"),
    "B": _Unit("size", "B", 1.0, "B"),
    "m": _Unit("duration", "s", 60.0, "min"),
    "s": _Unit("duration", "s", 1.0, "s"),
    "h": _Unit("duration", "s", 3600.0, "h"),
    "d": _Unit("duration", "s", 86400.0, "d"),
    "x": _Unit("count", "times", 1.0, "x"),
    "X": _Unit("count", "times", 1.0, "x"),
}
#: With a currency, these letters are magnitudes (`$5M`, `$1.2B`, `$5m`).
_CURRENCY_LETTER_MULT = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "B": 1e9, "b": 1e9}
#: Letters that may follow the number after one space (`120 s`, `3 h`).
_SPACED_LETTERS = frozenset({"s", "h"})

_CURRENCY_PREFIX = {
    "US$": "USD",
    "HK$": "HKD",
    "¥": "CNY",
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "USD": "USD",
    "RMB": "CNY",
    "CNY": "CNY",
    "EUR": "EUR",
    "GBP": "GBP",
    "JPY": "JPY",
    "HKD": "HKD",
    "人民币": "CNY",
    "美元": "USD",
}


def _unit_pattern(name: str) -> str:
    """One unit as a regex piece: guards against eating the start of a longer word."""
    if name == "块":
        return r"块(?=钱|[以左之内起封的多上下]|[^" + _CJK + r"]|$)"
    if name == "周":
        return r"周(?![年末一二三四五六日天])"
    if name == "天":
        return r"天(?![文气然津下空涯线堂猫])"
    if name == "日":
        return r"日(?=以?内|之内)"
    if name == "年":
        return r"年(?![度份\d])"
    pattern = re.escape(name)
    if name[-1].isascii() and name[-1].isalpha():
        pattern += r"(?![A-Za-z/])"
    if any(c.isascii() and c.isalpha() for c in name):
        return f"(?i:{pattern})"
    return pattern


def _alternation(names: Iterable[str]) -> str:
    """Longest first, so `个工作日` wins over `个` and `ms` over `m`."""
    ordered = sorted(set(names), key=lambda n: (-len(n), n))
    return "|".join(_unit_pattern(n) for n in ordered)


_UNIT_ANY = (
    "(?:" + _alternation(_UNITS) + "|" + "|".join(f"{re.escape(k)}(?![A-Za-z])" for k in _LETTER_UNITS) + ")"
)
_UNIT_SPACED = (
    "(?:"
    + _alternation(_UNITS)
    + "|"
    + "|".join(f"{re.escape(k)}(?![A-Za-z])" for k in sorted(_SPACED_LETTERS))
    + ")"
)
_UNIT_CJK = "(?:" + _alternation(n for n in _UNITS if not n.isascii() and n not in {"‰"}) + ")"
_CUR_PRE = (
    r"(?:(?:US\$|HK\$|[¥$€£])|(?<![A-Za-z])(?:USD|RMB|CNY|EUR|GBP|JPY|HKD)(?![A-Za-z])|人民币|美元)[ \t]?"
)


def _lookup_unit(name: str | None) -> _Unit | None:
    if not name:
        return None
    if name in _LETTER_UNITS:
        return _LETTER_UNITS[name]
    return _UNITS.get(name) or _UNITS.get(name.lower())


# =========================================================================== regexes

_L = r"(?<![A-Za-z0-9_])"
_R = r"(?![A-Za-z0-9_])"

# --------------------------------------------------------------------------- identifiers

_URL_RX = re.compile(r"(?i:https?://)[^\s<>\"'，。；、）)\]}]+")
_UUID_RX = re.compile(
    _L + r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}" + _R
)
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IP_RX = re.compile(rf"(?<![A-Za-z0-9_.]){_OCTET}(?:\.{_OCTET}){{3}}(?::\d{{1,5}})?(?![A-Za-z0-9_]|\.\d)")
_HEX_RX = re.compile(_L + r"0x[0-9a-fA-F]{2,16}" + _R)
_TRACE_RX = re.compile(_L + r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{16,64}" + _R)
_LONG_ID_RX = re.compile(_L + r"\d{12,}" + _R)
_PATH_RX = re.compile(
    r"(?:(?P<method>GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)[ \t]+)?"
    r"(?<![A-Za-z0-9_.\-/:~])(?P<path>(?:/[A-Za-z0-9_.{}:\-]+)+/?(?:\?[A-Za-z0-9_=&%.\-]+)?)"
)
_FILE_RX = re.compile(_L + r"[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+\.[A-Za-z][A-Za-z0-9]{0,5}" + _R)
_HTTP_PHRASES = (
    "Gateway Timeout|Bad Gateway|Not Found|Internal Server Error|Service Unavailable|Too Many Requests|"
    "Unauthorized|Forbidden|Bad Request|Request Timeout|Conflict|Method Not Allowed"
)
_HTTP_STATUS_RX = re.compile(
    r"(?:(?<![A-Za-z])(?i:HTTP)(?:/\d(?:\.\d)?)?[ \t]*(?:(?i:status)[ \t]*)?(?:(?i:code)[ \t]*)?"
    r"|(?:HTTP)?状态码[ \t]*|(?<![A-Za-z])(?i:status[ \t]*code)[ \t]*)"
    r"[:=]?[ \t]*(?:为|是)?[ \t]*(?P<code>[1-5]\d\d)(?![\d.])"
    rf"|(?<![\d.])(?P<code2>[1-5]\d\d)[ \t]+(?:{_HTTP_PHRASES})"
)
_ERRCODE_KW_RX = re.compile(
    r"(?:错误码|错误代码|返回码|(?<![A-Za-z])(?i:error[ \t_]?code|err[ \t_]?code|errno))"
    r"[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*(?P<code>[A-Za-z0-9][A-Za-z0-9_\-]+)" + _R
)
_SCREAMING_RX = re.compile(_L + r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+" + _R)
_DASHCODE_RX = re.compile(_L + r"[A-Z][A-Z0-9]{1,9}-\d{1,6}" + r"(?![A-Za-z0-9_]|-[A-Za-z0-9])")
_LETTERCODE_RX = re.compile(_L + r"[A-Z]{1,4}\d{3,6}" + _R)
_CAPS_DASH_RX = re.compile(_L + r"[A-Z]{2,}(?:-[A-Z0-9]{2,})+" + r"(?![A-Za-z0-9_]|-[A-Za-z0-9])")
#: Standard names that look like error codes but are not (`UTF-8`, `SHA-256`).
_NOT_CODES = frozenset(
    {"UTF-8", "UTF-16", "UTF-32", "SHA-1", "SHA-256", "SHA-512", "AES-128", "AES-256", "ISO-8601"}
)

_DOTTED_RX = re.compile(
    r"(?<![A-Za-z0-9_.\-/@])[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_][A-Za-z0-9_\-]*)+(?![A-Za-z0-9_\-]|\.[A-Za-z0-9_])"
)
_SNAKE_RX = re.compile(_L + r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+" + _R)
_CAMEL_RX = re.compile(
    _L + r"(?:[a-z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)" + _R
)
_KEBAB_RX = re.compile(r"(?<![A-Za-z0-9_\-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![A-Za-z0-9_]|-[A-Za-z0-9])")
#: Product and brand names that are CamelCase or dotted but are not project identifiers.
_NOT_IDENTIFIERS = frozenset(
    [
        "javascript",
        "typescript",
        "github",
        "gitlab",
        "iphone",
        "ipad",
        "macos",
        "openai",
        "chatgpt",
        "wechat",
        "youtube",
        "linkedin",
        "paypal",
        "devops",
        "aiops",
        "postgresql",
        "mysql",
        "mongodb",
        "mariadb",
        "sqlite",
        "nosql",
        "oauth",
        "graphql",
        "powershell",
        "fastapi",
        "pytorch",
        "tensorflow",
        "clickhouse",
        "rabbitmq",
        "rocketmq",
        "hbase",
        "node.js",
        "vue.js",
        "next.js",
        "e.g",
        "i.e",
        "a.m",
        "p.m",
        "u.s",
        "etc.",
        "grafana",
        "prometheus",
        "elasticsearch",
    ]
)
#: Hyphenated English words are not service names (`read-only`, `real-time`, `follow-up`).
_KEBAB_STOP_PARTS = frozenset(
    [
        "to",
        "of",
        "the",
        "and",
        "or",
        "a",
        "an",
        "by",
        "on",
        "in",
        "up",
        "at",
        "for",
        "with",
        "non",
        "re",
        "pre",
        "co",
        "self",
        "well",
        "built",
        "real",
        "read",
        "write",
        "high",
        "low",
        "long",
        "short",
        "multi",
        "cross",
        "full",
        "half",
        "first",
        "second",
        "third",
        "open",
        "follow",
        "sign",
        "opt",
        "e",
        "x",
        "sub",
        "anti",
        "semi",
        "post",
        "mid",
        "over",
        "under",
        "out",
        "off",
        "all",
        "one",
        "two",
        "three",
        "end",
        "front",
        "back",
        "top",
        "bottom",
        "time",
        "known",
        "based",
        "level",
        "side",
        "wide",
        "free",
        "like",
        "safe",
        "aware",
        "specific",
        "related",
        "friendly",
        "driven",
        "facing",
        "term",
        "party",
        "date",
        "only",
        "day",
        "way",
        "step",
    ]
)

# --------------------------------------------------------------------------- dates and times

_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_MON = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_YEAR = r"(?:19|20)\d{2}"
_ISO_DATE_RX = re.compile(
    rf"(?<![\d.])(?P<y>{_YEAR})(?P<sep>[-/.])(?P<m>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})(?![\d])"
    rf"|(?<![\d./])(?P<m2>\d{{1,2}})/(?P<d2>\d{{1,2}})/(?P<y2>{_YEAR})(?!\d)"
)
_YEAR_MONTH_RX = re.compile(rf"(?<![\d.\-/])(?P<y>{_YEAR})[-/](?P<m>\d{{1,2}})(?![\d\-/.])")
_ZH_DATE_RX = re.compile(
    rf"(?:(?P<y>{_YEAR})[ \t]*年[ \t]*)?(?<![\d.])(?P<m>\d{{1,2}})[ \t]*月(?:份)?(?:[ \t]*(?P<d>\d{{1,2}})[ \t]*[日号])?"
    rf"|(?:(?P<yc>{_YEAR})[ \t]*年[ \t]*)?(?<![零〇一二两三四五六七八九十个几每上下本这当])(?P<mc>十[一二]|[一二三四五六七八九十])月(?:份)?"
    r"(?:(?P<dc>[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号])?"
)
_ZH_YEAR_RX = re.compile(rf"(?<!\d)(?P<y>{_YEAR})[ \t]*(?:年度|财年|年)")
_EN_DATE_RX = re.compile(
    rf"(?<![A-Za-z])(?P<mon>{_MON})\.?[ \t]+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:]|\.\d)(?:,?[ \t]+(?P<y>{_YEAR})(?!\d))?"
    rf"|(?<![\d.])(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?P<mon2>{_MON})(?![a-z])\.?(?:,?[ \t]+(?P<y2>{_YEAR})(?!\d))?"
    r"|(?<![A-Za-z])(?P<mon3>January|February|March|April|June|July|August|September|October|November|December"
    rf"|May(?=,?[ \t]+{_YEAR}))(?![a-z])(?:,?[ \t]+(?P<y3>{_YEAR})(?!\d))?"
)
_EN_YEAR_RX = re.compile(
    rf"(?<![A-Za-z])(?i:in|since|by|during|until|till|before|after|from|of|year|fy)[ \t]*(?P<y>{_YEAR})(?![\d\-/:]|\.\d)"
)
_QUARTER_RX = re.compile(
    rf"(?:(?P<y>{_YEAR})[ \t]*年?[ \t]*)?(?:第[ \t]*)?(?P<q>[一二三四1-4])[ \t]*季度"
    rf"|(?P<y2>{_YEAR})[ \t]*(?:年|[-/])?[ \t]*[Qq](?P<q2>[1-4]){_R}"
    rf"|{_L}[Qq](?P<q3>[1-4]){_R}(?:[ \t]*(?:of[ \t]+|,[ \t]*)?(?P<y3>{_YEAR})(?!\d))?"
    rf"|(?<![A-Za-z])(?i:(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)[ \t]+quarter)(?:[ \t]+(?:of[ \t]+)?(?P<y4>{_YEAR})(?!\d))?"
    rf"|(?:(?P<y5>{_YEAR})[ \t]*年?[ \t]*)?(?P<h>上|下)半年"
    rf"|{_L}H(?P<h2>[12]){_R}(?:[ \t]+(?P<y6>{_YEAR})(?!\d))?"
)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_REL_ZH = {
    "上上月": ("month", -2),
    "上上个月": ("month", -2),
    "上月": ("month", -1),
    "上个月": ("month", -1),
    "本月": ("month", 0),
    "这月": ("month", 0),
    "这个月": ("month", 0),
    "当月": ("month", 0),
    "下月": ("month", 1),
    "下个月": ("month", 1),
    "去年": ("year", -1),
    "前年": ("year", -2),
    "今年": ("year", 0),
    "本年": ("year", 0),
    "本年度": ("year", 0),
    "明年": ("year", 1),
    "来年": ("year", 1),
    "后年": ("year", 2),
    "上季度": ("quarter", -1),
    "上个季度": ("quarter", -1),
    "上一季度": ("quarter", -1),
    "本季度": ("quarter", 0),
    "这季度": ("quarter", 0),
    "这个季度": ("quarter", 0),
    "当季": ("quarter", 0),
    "当季度": ("quarter", 0),
    "下季度": ("quarter", 1),
    "下个季度": ("quarter", 1),
    "下一季度": ("quarter", 1),
    "昨天": ("day", -1),
    "昨日": ("day", -1),
    "前天": ("day", -2),
    "今天": ("day", 0),
    "今日": ("day", 0),
    "当天": ("day", 0),
    "明天": ("day", 1),
    "明日": ("day", 1),
    "后天": ("day", 2),
}
_REL_WEEK_ZH = {"上": -1, "上个": -1, "下": 1, "下个": 1, "本": 0, "这": 0, "这个": 0}
_REL_EN = {
    "last": -1,
    "previous": -1,
    "prior": -1,
    "past": -1,
    "prev": -1,
    "this": 0,
    "current": 0,
    "next": 1,
    "coming": 1,
    "following": 1,
}
_REL_DAY_EN = {"yesterday": -1, "today": 0, "tomorrow": 1}
_EN_NUM_WORD = (
    r"(?:" + "|".join(sorted(list(_EN_ONES) + list(_EN_SCALES), key=len, reverse=True)) + r")(?![A-Za-z])"
)
_EN_NUM_WORDS = rf"{_EN_NUM_WORD}(?:[ \t\-]+(?:and[ \t]+)?{_EN_NUM_WORD})*"
_RELATIVE_RX = re.compile(
    r"(?<!以)(?P<w>" + "|".join(sorted(_REL_ZH, key=len, reverse=True)) + r")"
    r"|(?<!以)(?P<wk>上个|下个|这个|上|下|本|这)(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])?"
    rf"|(?:最近|近|过去|前)[ \t]*(?P<n>\d+|{_CNUM})[ \t]*(?P<u>天|日|周|个?星期|个?月|年|个?小时|分钟)"
    r"|(?<![A-Za-z0-9])(?i:(?P<rel>last|previous|prior|past|prev|this|current|next|coming|following)[ \t_\-]+"
    r"(?P<eu>month|year|week|quarter|day))(?![A-Za-z0-9])"
    r"|(?<![A-Za-z])(?i:(?P<ed>yesterday|today|tomorrow))(?![A-Za-z])"
    r"|(?<![A-Za-z0-9])(?i:(?:last|past|previous|recent)[ \t_\-]+"
    rf"(?P<en>\d+|{_EN_NUM_WORDS})[ \t_\-]+(?P<eu2>days?|weeks?|months?|years?|hours?|minutes?))(?![A-Za-z0-9])"
)
_LAST_UNIT = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "个星期": "week",
    "月": "month",
    "个月": "month",
    "年": "year",
    "小时": "hour",
    "个小时": "hour",
    "分钟": "minute",
}
_WEEKDAY_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
_WEEKDAY_EN = {
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 7,
}
_WEEKDAY_ABBR = {
    "Mon": 1,
    "Tue": 2,
    "Tues": 2,
    "Wed": 3,
    "Thu": 4,
    "Thur": 4,
    "Thurs": 4,
    "Fri": 5,
    "Sat": 6,
    "Sun": 7,
}
_WEEKDAY_RX = re.compile(
    r"(?<![\d零〇一二两三四五六七八九十几])(?:星期|礼拜|周)(?P<wd>[一二三四五六日天])"
    r"|(?<![A-Za-z])(?P<we>(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday))s?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?P<wa>Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun)\.?(?![A-Za-z])"
)
_TIME_RX = re.compile(
    r"(?<![A-SU-Za-z0-9_:.])(?P<h>[01]?\d|2[0-3]):(?P<mi>[0-5]\d)(?::(?P<se>[0-5]\d))?(?![\d:])"
    r"(?:[ \t]*(?P<ap>(?i:a\.m\.|p\.m\.|am|pm))(?![A-Za-z]))?"
    r"|(?<![A-Za-z0-9_:.])(?P<h2>1[0-2]|0?[1-9])[ \t]*(?P<ap2>(?i:a\.m\.|p\.m\.|am|pm))(?![A-Za-z])"
    r"|(?P<p>凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|深夜)?[ \t]*(?<![\d.])"
    r"(?P<h3>\d{1,2}|[一二两三四五六七八九十]{1,3})[ \t]*[点时]"
    r"(?:[ \t]*(?P<mi3>\d{1,2}|[一二三四五六七八九十]{1,3})[ \t]*分|(?P<half>半)|(?P<qt>一刻|三刻)|(?P<z>整|钟))?"
)
_PM_PREFIXES = frozenset({"下午", "傍晚", "晚上", "夜里", "夜间", "深夜"})

# --------------------------------------------------------------------------- versions

_PRODUCTS = {
    "java": "java",
    "jdk": "java",
    "openjdk": "java",
    "jre": "java",
    "python": "python",
    "postgresql": "postgresql",
    "postgres": "postgresql",
    "pg": "postgresql",
    "mysql": "mysql",
    "mariadb": "mariadb",
    "redis": "redis",
    "kafka": "kafka",
    "node.js": "node",
    "nodejs": "node",
    "node": "node",
    "ubuntu": "ubuntu",
    "centos": "centos",
    "debian": "debian",
    "rhel": "rhel",
    "kubernetes": "kubernetes",
    "k8s": "kubernetes",
    "spring boot": "spring boot",
    "springboot": "spring boot",
    "spring": "spring",
    "nginx": "nginx",
    "elasticsearch": "elasticsearch",
    "mongodb": "mongodb",
    "oracle": "oracle",
    "tomcat": "tomcat",
    "react": "react",
    "vue": "vue",
    "angular": "angular",
    "ios": "ios",
    "android": "android",
    "windows": "windows",
    "docker": "docker",
    "helm": "helm",
    "istio": "istio",
    "tls": "tls",
    "ssl": "ssl",
    "http": "http",
    "golang": "go",
    "go": "go",
    "php": "php",
    "ruby": "ruby",
    "rails": "rails",
    "django": "django",
    "jenkins": "jenkins",
    "grafana": "grafana",
    "prometheus": "prometheus",
    "spark": "spark",
    "flink": "flink",
    "zookeeper": "zookeeper",
    "rabbitmq": "rabbitmq",
    "rocketmq": "rocketmq",
    "etcd": "etcd",
    "clickhouse": "clickhouse",
    "openssl": "openssl",
    "linux": "linux",
    "kernel": "linux",
    "macos": "macos",
    "chrome": "chrome",
    "gradle": "gradle",
    "maven": "maven",
    "dubbo": "dubbo",
    "nacos": "nacos",
}
_PRODUCT_VERSION_RX = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?P<prod>(?i:"
    + "|".join(re.escape(p).replace(r"\ ", r"[ \t]?") for p in sorted(_PRODUCTS, key=len, reverse=True))
    + r"))[ \t/]?[ \t]*(?:(?i:version|ver\.?)[ \t]*)?[vV]?(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
)
_VERSION_RX = re.compile(
    r"(?:(?<![A-Za-z])(?i:version|ver\.|release|rev\.)|版本号?)[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*[vV]?"
    r"(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
    r"|(?<![A-Za-z0-9_./\-])[vV](?P<ver2>\d+(?:\.\d+){0,3})(?![A-Za-z0-9_]|\.\d)"
    r"|(?<![A-Za-z0-9_.\-/])(?P<ver3>\d+\.\d+\.\d+(?:\.\d+)?)(?![A-Za-z0-9_]|\.\d)"
)

# --------------------------------------------------------------------------- comparators

_CMP_PREFIX: dict[str, Comparator] = {
    **dict.fromkeys(
        [
            "不超过",
            "不高于",
            "不大于",
            "不多于",
            "未超过",
            "没有超过",
            "没超过",
            "不得超过",
            "不能超过",
            "不可超过",
            "不应超过",
            "不要超过",
            "不会超过",
            "最多",
            "至多",
            "最高",
            "最长",
            "最大",
            "上限为",
            "上限是",
            "上限",
            "封顶",
            "≤",
            "<=",
            "=<",
            "⩽",
        ],
        "<=",
    ),
    **dict.fromkeys(
        [
            "at most",
            "no more than",
            "not more than",
            "up to",
            "within",
            "no greater than",
            "not greater than",
            "not exceeding",
            "not to exceed",
            "does not exceed",
            "do not exceed",
            "did not exceed",
            "must not exceed",
            "cannot exceed",
            "can't exceed",
            "should not exceed",
            "doesn't exceed",
            "a maximum of",
            "maximum of",
            "maximum",
        ],
        "<=",
    ),
    **dict.fromkeys(
        [
            "不少于",
            "不低于",
            "不小于",
            "不得少于",
            "不得低于",
            "不能少于",
            "不能低于",
            "不应低于",
            "不应少于",
            "至少",
            "最少",
            "最低",
            "最短",
            "起码",
            "下限为",
            "下限",
            "≥",
            ">=",
            "⩾",
        ],
        ">=",
    ),
    **dict.fromkeys(
        [
            "at least",
            "no less than",
            "not less than",
            "no fewer than",
            "not fewer than",
            "a minimum of",
            "minimum of",
            "minimum",
        ],
        ">=",
    ),
    **dict.fromkeys(["超过", "高于", "大于", "多于", "超出", "逾", "不止", ">"], ">"),
    **dict.fromkeys(["more than", "greater than", "over", "above", "exceeds", "exceeding", "exceed"], ">"),
    **dict.fromkeys(
        ["低于", "少于", "小于", "不到", "不足", "不满", "未满", "未达到", "没有达到", "没达到", "<"], "<"
    ),
    **dict.fromkeys(["less than", "fewer than", "under", "below"], "<"),
}
_CMP_PREFIX_DATE: dict[str, Comparator] = {
    **dict.fromkeys(
        ["no later than", "not later than", "by", "until", "till", "不晚于", "截至", "截止到", "截止"], "<="
    ),
    **dict.fromkeys(["no earlier than", "not earlier than", "since", "from", "不早于", "自", "从"], ">="),
    **dict.fromkeys(["after", "later than", "晚于"], ">"),
    **dict.fromkeys(["before", "earlier than", "早于"], "<"),
}
_CMP_POSTFIX: dict[str, Comparator] = {
    **dict.fromkeys(["以内", "之内", "以下", "及以下", "或以下", "封顶", "为上限"], "<="),
    **dict.fromkeys(["or less", "or fewer", "or below", "or under"], "<="),
    **dict.fromkeys(["以上", "及以上", "或以上", "起", "或更多"], ">="),
    **dict.fromkeys(["or more", "or above", "or greater"], ">="),
}
_CMP_POSTFIX_DATE: dict[str, Comparator] = {
    **dict.fromkeys(["之前", "以前", "前"], "<"),
    **dict.fromkeys(["之后", "以后", "后"], ">"),
    **dict.fromkeys(["起", "开始", "以来"], ">="),
    **dict.fromkeys(["为止", "止"], "<="),
}
#: Comparators that count as a constraint even when no value follows (`不超过预算`).
_WEAK_CMP = frozenset(
    [
        "最高",
        "最长",
        "最大",
        "最少",
        "最低",
        "最短",
        "上限",
        "下限",
        "封顶",
        "逾",
        "起码",
        "<",
        ">",
        "over",
        "above",
        "under",
        "below",
        "within",
        "up",
        "to",
        "maximum",
        "minimum",
    ]
)


def _cue_alternation(cues: Iterable[str]) -> str:
    parts = []
    for cue in sorted(set(cues), key=len, reverse=True):
        pattern = re.escape(cue).replace(r"\ ", r"[ \t]+")
        if cue[0].isascii() and cue[0].isalpha():
            pattern = r"(?<![A-Za-z])" + pattern
        if cue[-1].isascii() and cue[-1].isalpha():
            pattern += r"(?![A-Za-z])"
        if cue in {"<", ">"}:
            pattern = r"(?<![-=<>])" + pattern + r"(?![-=<>])"
        parts.append(pattern)
    return "(?i:" + "|".join(parts) + ")"


_FILLER = r"[ \t]*(?:为|是|在|达到|达|到|(?<![A-Za-z])(?i:of|to|is|be|its|the|their|our|this|that|a|an)(?![A-Za-z])|[:=])?[ \t]*"
#: Strong Chinese cues may govern a number across a short verb: `至少重试 3 次`, `最多保留 7 天`.
_CJK_GAP_CUES = [
    "不超过",
    "不少于",
    "不低于",
    "不高于",
    "至少",
    "至多",
    "最多",
    "最少",
    "不得超过",
    "不能超过",
    "不得少于",
    "不得低于",
]
_PREFIX_CMP_RX = re.compile(
    rf"(?P<cue>{_cue_alternation(_CMP_PREFIX)}){_FILLER}$"
    rf"|(?P<gapcue>{'|'.join(sorted(_CJK_GAP_CUES, key=len, reverse=True))})[{_CJK}]{{1,3}}?{_FILLER}$"
)
_PREFIX_CMP_DATE_RX = re.compile(
    rf"(?P<cue>{_cue_alternation({**_CMP_PREFIX, **_CMP_PREFIX_DATE})}){_FILLER}$|(?P<gapcue>(?!))"
)
_POSTFIX_CMP_RX = re.compile(rf"[ \t]*(?P<cue>{_cue_alternation(_CMP_POSTFIX)})")
_POSTFIX_CMP_DUR_RX = re.compile(rf"[ \t]*(?P<cue>{_cue_alternation([*_CMP_POSTFIX, '内'])})")
_POSTFIX_CMP_DATE_RX = re.compile(rf"[ \t]*(?P<cue>{_cue_alternation(_CMP_POSTFIX_DATE)})(?![端台面])")
_STRONG_CMP_RX = re.compile(_cue_alternation(c for c in _CMP_PREFIX if c not in _WEAK_CMP))
_KEY_HINT_RX = re.compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)[\"']?[ \t]*[:=][ \t]*[\"']?$")
_KEY_HINT_WORDS: dict[str, Comparator] = {
    **dict.fromkeys(
        ["max", "maximum", "lte", "le", "upper", "most", "ceiling", "cap", "limit", "until"], "<="
    ),
    **dict.fromkeys(["min", "minimum", "gte", "ge", "lower", "least", "floor", "since"], ">="),
    **dict.fromkeys(["lt", "below", "under", "before"], "<"),
    **dict.fromkeys(["gt", "above", "over", "after", "exceeds"], ">"),
}
_CAMEL_SPLIT_RX = re.compile(r"[._\-]|(?<=[a-z0-9])(?=[A-Z])")

# --------------------------------------------------------------------------- negation

_NEG_ZH = [
    "从未",
    "从不",
    "并非",
    "并不",
    "并没有",
    "并未",
    "不得",
    "不能",
    "不可",
    "不会",
    "不要",
    "不用",
    "不必",
    "不需要",
    "不需",
    "无需",
    "无须",
    "无法",
    "没有",
    "没",
    "未",
    "无",
    "非",
    "别",
    "勿",
    "禁止",
    "严禁",
    "不",
]
_NEG_ZH_EXCEPTIONS = [
    "不断",
    "不仅",
    "不但",
    "不过",
    "不久",
    "不同",
    "不错",
    "不管",
    "不论",
    "不得不",
    "不免",
    "不禁",
    "不时",
    "不妨",
    "不如",
    "不外乎",
    "不光",
    "不然",
    "要不",
    "不料",
    "不觉",
    "差不多",
    "不定期",
    "不一样",
    "不少",
    "无论",
    "无线",
    "毫无疑问",
    "无疑",
    "无缝",
    "无非",
    "无比",
    "无数",
    "无穷",
    "无人机",
    "有无",
    "非常",
    "非洲",
    "是非",
    "除非",
    "莫非",
    "非凡",
    "未来",
    "别的",
    "别人",
    "分别",
    "区别",
    "级别",
    "类别",
    "特别",
    "识别",
    "个别",
    "告别",
    "别名",
    "差别",
    "鉴别",
    "辨别",
    "性别",
    "派别",
    "判别",
    "甄别",
    "有别",
    "别称",
    "别处",
    "淹没",
    "埋没",
    "出没",
    "没收",
    "沉没",
]
_NEG_EN_EXCEPTIONS = [
    "not only",
    "not just",
    "no doubt",
    "no matter",
    "whether or not",
    "nothing but",
    "none other",
    "no sooner",
    "no later than",
    "not later than",
    "no earlier than",
    "not earlier than",
]
_NEG_ZH_RX = re.compile("|".join(sorted(_NEG_ZH, key=len, reverse=True)))
_NEG_EN_RX = re.compile(
    r"(?<![A-Za-z])(?i:no[ \t]+longer|instead[ \t]+of|rather[ \t]+than|not|no|never|none|nothing|nobody|nowhere"
    r"|without|cannot|neither|nor"
    r"|[a-z]+n['’]t)(?![A-Za-z])"
)
_NEG_EXCEPTION_RX = re.compile(
    "|".join(sorted(_NEG_ZH_EXCEPTIONS, key=len, reverse=True)).replace("不少", "不少(?!于)")
    + "|"
    + _cue_alternation(
        [
            *_NEG_EN_EXCEPTIONS,
            *(c for c in _CMP_PREFIX if re.search(r"不|未|没|\bno\b|\bnot\b|n't|cannot", c)),
        ]
    )
    + r"|(?<![A-Za-z])(?i:no)\.[ \t]*\d"
)
_CLAUSE_END_RX = re.compile(r"[，；;：。！？!?\n]|,(?!\d{3})|:(?!\d)")
#: "No." / "No," / "不，" opening an answer reply to the question; they negate no predicate of the sentence.
_ANSWER_PARTICLE_RX = re.compile(
    r"(?:^|(?<=[.!?。！？\n])[ \t]*)(?:(?i:no)|不|没有)[ \t]*[.,!;:，。！；：—-]"
)

# --------------------------------------------------------------------------- quantities

_QTY_RX = re.compile(
    rf"(?:(?P<pre>{_CUR_PRE})|(?<![A-Za-z0-9_.]))(?P<num>{_NUM})(?![0-9])"
    rf"(?P<mult>{_MULT})?(?:多|余)?(?:(?P<u1>{_UNIT_ANY})|[ \t](?P<u2>{_UNIT_SPACED}))?"
)
_RANGE_RX = re.compile(
    rf"(?:(?P<pre>{_CUR_PRE})|(?<![A-Za-z0-9_.]))(?P<a>{_NUM}|{_CNUM})(?P<ma>{_MULT})?(?:[ \t]?(?P<ua>{_UNIT_ANY}))?"
    r"(?:[ \t]*\((?:含|包含|不含|inclusive|exclusive)\))?[ \t]*(?P<sep>-|~|〜|—|–|到|至|(?<![A-Za-z])(?i:to)(?![A-Za-z]))[ \t]*"
    rf"(?:{_CUR_PRE})?(?P<b>{_NUM}|{_CNUM})(?![0-9])(?P<mb>{_MULT})?(?:(?P<ub>{_UNIT_ANY})|[ \t](?P<ub2>{_UNIT_SPACED}))?"
    rf"|(?<![A-Za-z])(?i:between)[ \t]+(?:(?P<pre3>{_CUR_PRE}))?(?P<a3>{_NUM})(?P<ma3>{_MULT})?"
    rf"(?:[ \t]?(?P<ua3>{_UNIT_SPACED}))?[ \t]+(?i:and)[ \t]+(?:{_CUR_PRE})?(?P<b3>{_NUM})(?P<mb3>{_MULT})?"
    rf"(?:(?P<ub3>{_UNIT_ANY})|[ \t](?P<ub4>{_UNIT_SPACED}))?"
    rf"|介于[ \t]*(?P<a5>{_NUM}|{_CNUM})(?P<ma5>{_MULT})?(?P<ua5>{_UNIT_CJK})?[ \t]*(?:和|与|到|至)[ \t]*"
    rf"(?P<b5>{_NUM}|{_CNUM})(?P<mb5>{_MULT})?(?P<ub5>{_UNIT_CJK})?[ \t]*之间"
)
_HALF_UNITS = {
    "小时": "小时",
    "钟头": "小时",
    "天": "天",
    "年": "年",
    "月": "个月",
    "个月": "个月",
    "周": "周",
}
_CN_HALF_RX = re.compile(
    rf"(?:(?P<n>{_CNUM}|\d+)个)?半个?(?P<u>小时|钟头|天|年|月)"
    rf"|(?<![零〇一二两三四五六七八九十百千万亿第几每\d])(?P<n2>{_CNUM}|\d+)(?P<u2>个小时|小时|钟头|天|年|个月|周)半"
)
_DUR_PART = (
    r"\d+(?:\.\d+)?[ \t]*(?:(?i:days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)(?![A-Za-z])|[dhms](?![A-Za-z])"
    r"|天|个?小时|分钟|分|秒钟|秒)"
)
_COMPOUND_RX = re.compile(
    rf"(?<![A-Za-z0-9_.]){_DUR_PART}(?:[ \t,]*(?:(?i:and)[ \t]+|零)?{_DUR_PART}){{1,3}}"
)
_DUR_PART_RX = re.compile(r"(?P<n>\d+(?:\.\d+)?)[ \t]*(?P<u>[^\d \t,]+)")
_DUR_PART_SECONDS = {
    "d": 86400.0,
    "天": 86400.0,
    "h": 3600.0,
    "小时": 3600.0,
    "m": 60.0,
    "分": 60.0,
    "s": 1.0,
    "秒": 1.0,
}
_CN_PERCENT_RX = re.compile(rf"(?P<k>百分之|千分之)(?P<num>{_NUM}|{_CNUM})")
_CN_QTY_RX = re.compile(
    rf"(?:(?P<pre>人民币)|(?<![零〇一二两三四五六七八九十百千万亿第几每]))(?P<num>{_CNUM})(?P<u>{_UNIT_CJK})"
)
_EN_QTY_RX = re.compile(
    rf"(?<![A-Za-z\-])(?P<num>(?i:{_EN_NUM_WORDS}))(?:[ \t]+(?P<u>{_UNIT_SPACED}))?(?:[ \t]+(?P<next>[A-Za-z]+))?"
)
_ORDINAL_BEFORE_RX = re.compile(
    r"(?:第|(?<![A-Za-z])(?i:step|no\.?|item|part|phase|chapter|section|round)|#|步骤|序号|编号)[ \t]*$"
)
_LIST_MARKER_AFTER_RX = re.compile(r"[.)、](?!\d)")


# =========================================================================== number parsing


def _parse_cn(text: str) -> float | None:
    """Chinese numerals to a number: `五千` 5000, `两百` 200, `一万二` 12000, `十五` 15, `二〇二六` 2026."""
    if len(text) > 1 and all(ch in _CN_DIGIT for ch in text):
        return float("".join(str(_CN_DIGIT[ch]) for ch in text))
    total = 0.0
    section = 0.0
    digit: int | None = None
    last_unit = 1.0
    zero_seen = False
    for ch in text:
        if ch in _CN_DIGIT:
            digit = _CN_DIGIT[ch]
            if digit == 0:
                zero_seen = True
        elif ch in _CN_SMALL:
            unit = float(_CN_SMALL[ch])
            section += (digit if digit is not None else 1) * unit
            digit, last_unit, zero_seen = None, unit, False
        elif ch in _CN_BIG:
            unit = float(_CN_BIG[ch])
            section += digit or 0
            if section == 0 and total == 0:
                section = 1
            if unit > 10_000:
                total = (total + section) * unit
            else:
                total += section * unit
            section, digit, last_unit, zero_seen = 0.0, None, unit, False
        else:
            return None
    if digit is not None:
        # Colloquial trailing digit: 三千五 = 3500, 一万二 = 12000; after 零 it is a plain digit.
        section += digit * (last_unit / 10 if last_unit >= 10 and not zero_seen else 1)
    return total + section


def _parse_en_words(text: str) -> float | None:
    total = 0.0
    current = 0.0
    seen = False
    for word in re.split(r"[\s\-]+", text.lower()):
        if not word or word == "and":
            continue
        if word in _EN_ONES:
            current += _EN_ONES[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _EN_SCALES:
            total += (current or 1) * _EN_SCALES[word]
            current = 0.0
        else:
            return None
        seen = True
    return total + current if seen else None


def _parse_number(text: str) -> tuple[float, bool] | None:
    """Arabic or Chinese numerals; returns (value, spelled)."""
    if text[0].isdigit():
        return float(text.replace(",", "")), False
    value = _parse_cn(text)
    return (value, True) if value is not None else None


@dataclass(frozen=True, slots=True)
class _Quantity:
    kind: MentionKind
    value: float
    unit: str | None
    surface: str | None
    raw: float


def _quantity(
    number: float, mult: str | None, unit_text: str | None, currency: str | None
) -> _Quantity | None:
    """Interpret a number with its magnitude word, unit and currency prefix."""
    raw = number
    magnitude = False
    if mult:
        key = mult.strip()
        raw *= _CN_MULT.get(key) or _EN_MULT.get(key.lower(), 1.0)
        magnitude = True
    unit = _lookup_unit(unit_text)
    if unit_text and currency and unit_text in _CURRENCY_LETTER_MULT:
        raw *= _CURRENCY_LETTER_MULT[unit_text]
        unit, magnitude = None, True
    elif unit is not None and unit.kind == "mult":
        raw *= unit.factor
        unit, magnitude = None, True
    if unit is None:
        if currency:
            return _Quantity("amount", raw, currency, currency, raw)
        if magnitude:
            return _Quantity("amount", raw, None, None, raw)
        return _Quantity("number", raw, None, None, raw)
    if unit.kind == "amount":
        code = currency or unit.base
        return _Quantity("amount", raw, code, code, raw)
    kind: MentionKind
    if unit.kind == "percent":
        kind = "percent"
    elif unit.kind == "duration":
        kind = "duration"
    elif unit.kind == "size":
        kind = "size"
    elif unit.kind == "measure":
        kind = "measure"
    else:
        kind = "count"
    return _Quantity(kind, raw * unit.factor, unit.base, unit.surface, raw)


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _norm_version(version: str) -> str:
    parts = version.split(".")
    while len(parts) > 1 and parts[-1].strip("0") == "":
        parts.pop()
    return ".".join(str(int(p)) if p.isdigit() else p for p in parts)


# =========================================================================== extraction


class _Rec:
    """A mention under construction, in normalised-text coordinates."""

    __slots__ = ("comparator", "e", "kind", "qualifier", "raw", "s", "spelled", "surface", "unit", "value")

    def __init__(
        self,
        kind: MentionKind,
        value: MentionValue,
        s: int,
        e: int,
        *,
        unit: str | None = None,
        surface: str | None = None,
        raw: float | None = None,
        spelled: bool = False,
        qualifier: str | None = None,
        comparator: Comparator | None = None,
    ) -> None:
        self.kind: MentionKind = kind
        self.value = value
        self.s = s
        self.e = e
        self.unit = unit
        self.surface = surface
        self.raw = raw
        self.spelled = spelled
        self.qualifier = qualifier
        self.comparator = comparator


def _fold(text: str) -> tuple[str, list[int] | None]:
    """NFKC-fold `text`; return the folded text and, when lengths differ, a map to original offsets."""
    if text.isascii():
        return text, None
    folded = unicodedata.normalize("NFKC", text)
    if len(folded) == len(text):
        return folded, None
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        piece = unicodedata.normalize("NFKC", ch)
        chars.append(piece)
        offsets.extend([i] * len(piece))
    return "".join(chars), offsets


class _Extractor:
    __slots__ = ("mask", "nt", "offsets", "recs", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.nt, self.offsets = _fold(text)
        self.mask = bytearray(len(self.nt))
        self.recs: list[_Rec] = []

    # ------------------------------------------------------------------ bookkeeping

    def free(self, s: int, e: int) -> bool:
        return self.mask.find(1, s, e) < 0

    def add(self, rec: _Rec) -> None:
        self.recs.append(rec)
        self.mask[rec.s : rec.e] = b"\x01" * (rec.e - rec.s)

    def _orig(self, s: int, e: int) -> tuple[int, int]:
        if self.offsets is None:
            return s, e
        if e <= s:
            o = self.offsets[s] if s < len(self.offsets) else len(self.text)
            return o, o
        return self.offsets[s], self.offsets[e - 1] + 1

    def build(self) -> Mentions:
        self.recs.sort(key=lambda r: (r.s, r.e))
        items = []
        for r in self.recs:
            s, e = self._orig(r.s, r.e)
            items.append(
                Mention(
                    r.kind,
                    r.value,
                    self.text[s:e],
                    s,
                    e,
                    unit=r.unit,
                    surface_unit=r.surface,
                    raw=r.raw,
                    comparator=r.comparator,
                    spelled=r.spelled,
                    qualifier=r.qualifier,
                )
            )
        return Mentions(self.text, tuple(items))

    # ------------------------------------------------------------------ passes

    def run(self) -> Mentions:
        nt = self.nt
        has_digit = any(c.isdigit() for c in nt)
        has_ascii_alpha = any("a" <= c.lower() <= "z" for c in nt)
        if has_ascii_alpha or has_digit or "/" in nt:
            self.identifiers_early()
        self.dates()
        if has_ascii_alpha or has_digit:
            self.codes_and_versions()
        if has_ascii_alpha:
            self.names()
        self.quantities()
        self.comparators()
        self.negations()
        return self.build()

    def identifiers_early(self) -> None:
        nt = self.nt
        for m in _URL_RX.finditer(nt):
            s, e = m.start(), m.end()
            while e > s and nt[e - 1] in ".,;:!?":
                e -= 1
            if self.free(s, e):
                self.add(_Rec("identifier", nt[s:e], s, e, qualifier="url"))
        for rx, sort in ((_UUID_RX, "trace_id"), (_IP_RX, "ip"), (_HEX_RX, "error_code")):
            for m in rx.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier=sort))
        for rx, sort in ((_TRACE_RX, "trace_id"), (_LONG_ID_RX, "id")):
            for m in rx.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier=sort))
        if "/" in nt:
            for m in _PATH_RX.finditer(nt):
                path = m.group("path").rstrip(".")
                if not any(c.isalpha() for c in path) or (path.count("/") == 1 and len(path) < 3):
                    continue
                s, e = m.start(), m.start("path") + len(path)
                if self.free(s, e):
                    method = m.group("method")
                    value = f"{method} {path}" if method else path
                    self.add(_Rec("identifier", value, s, e, qualifier="path"))
            for m in _FILE_RX.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="path"))

    # ------------------------------------------------------------------ dates

    def dates(self) -> None:
        nt = self.nt
        for m in _RELATIVE_RX.finditer(nt):
            self._relative(m)
        for m in _QUARTER_RX.finditer(nt):
            self._quarter(m)
        if any(c.isdigit() for c in nt):
            for m in _ISO_DATE_RX.finditer(nt):
                if m.group("y"):
                    self._ymd(m.start(), m.end(), m.group("y"), m.group("m"), m.group("d"))
                else:
                    a, b = m.group("m2"), m.group("d2")
                    us_month, us_day = (b, a) if int(a) > 12 else (a, b)
                    self._ymd(m.start(), m.end(), m.group("y2"), us_month, us_day)
            for m in _YEAR_MONTH_RX.finditer(nt):
                self._ymd(m.start(), m.end(), m.group("y"), m.group("m"), None)
        if "月" in nt:
            for m in _ZH_DATE_RX.finditer(nt):
                if m.group("m"):
                    self._ymd(m.start(), m.end(), m.group("y"), m.group("m"), m.group("d"))
                else:
                    cn_month = _parse_cn(m.group("mc"))
                    cn_day = _parse_cn(m.group("dc")) if m.group("dc") else None
                    if cn_month is not None:
                        self._ymd(
                            m.start(),
                            m.end(),
                            m.group("yc"),
                            str(int(cn_month)),
                            str(int(cn_day)) if cn_day is not None else None,
                        )
        if "年" in nt:
            for m in _ZH_YEAR_RX.finditer(nt):
                self._ymd(m.start(), m.end(), m.group("y"), None, None)
        for m in _EN_DATE_RX.finditer(nt):
            if m.group("mon"):
                mon, day, year = m.group("mon"), m.group("d"), m.group("y")
            elif m.group("mon2"):
                mon, day, year = m.group("mon2"), m.group("d2"), m.group("y2")
            else:
                mon, day, year = m.group("mon3"), None, m.group("y3")
            self._ymd(m.start(), m.end(), year, str(_MONTHS[mon.lower()]), day)
        for m in _EN_YEAR_RX.finditer(nt):
            self._ymd(m.start("y"), m.end("y"), m.group("y"), None, None)
        for m in _WEEKDAY_RX.finditer(nt):
            if m.group("wd"):
                weekday = _WEEKDAY_ZH[m.group("wd")]
            elif m.group("we"):
                weekday = _WEEKDAY_EN[m.group("we").lower()]
            else:
                weekday = _WEEKDAY_ABBR[m.group("wa")]
            if self.free(*m.span()):
                self.add(_Rec("date", f"weekday:{weekday}", m.start(), m.end()))
        for m in _TIME_RX.finditer(nt):
            self._time(m)

    def _ymd(self, s: int, e: int, year: str | None, month: str | None, day: str | None) -> None:
        y = int(year) if year else None
        mo = int(month) if month else None
        d = int(day) if day else None
        if (mo is not None and not 1 <= mo <= 12) or (d is not None and not 1 <= d <= 31):
            return
        if not self.free(s, e):
            return
        if y is not None:
            value = f"{y:04d}" + (f"-{mo:02d}" if mo else "") + (f"-{d:02d}" if mo and d else "")
        elif mo is not None:
            value = f"--{mo:02d}" + (f"-{d:02d}" if d else "")
        else:
            return
        self.add(_Rec("date", value, s, e))

    def _quarter(self, m: re.Match[str]) -> None:
        g = m.groupdict()
        year = g["y"] or g["y2"] or g["y3"] or g["y4"] or g["y5"] or g["y6"]
        value: str
        if g["h"] or g["h2"]:
            half = 1 if g["h"] == "上" or g["h2"] == "1" else 2
            value = f"H{half}"
        else:
            if g["q"]:
                q = int(g["q"]) if g["q"].isdigit() else int(_parse_cn(g["q"]) or 0)
            elif g["q2"] or g["q3"]:
                q = int(g["q2"] or g["q3"])
            else:
                q = _QUARTER_WORDS[g["o"].lower()]
            value = f"Q{q}"
        if year:
            value = f"{year}-{value}"
        if self.free(*m.span()):
            self.add(_Rec("date", value, m.start(), m.end()))

    def _relative(self, m: re.Match[str]) -> None:
        g = m.groupdict()
        value: str | None = None
        if g["w"]:
            unit, offset = _REL_ZH[g["w"]]
            value = f"relative:{unit}:{offset:+d}"
        elif g["wk"]:
            value = f"relative:week:{_REL_WEEK_ZH[g['wk']]:+d}"
            if g["wd"]:
                wd = _WEEKDAY_ZH.get(g["wd"]) or int(g["wd"])
                value += f":weekday:{wd}"
        elif g["n"]:
            parsed = _parse_number(g["n"])
            if parsed is None:
                return
            value = _last_n(parsed[0], _LAST_UNIT[g["u"]])
        elif g["rel"]:
            value = f"relative:{g['eu'].lower()}:{_REL_EN[g['rel'].lower()]:+d}"
        elif g["ed"]:
            value = f"relative:day:{_REL_DAY_EN[g['ed'].lower()]:+d}"
        elif g["en"]:
            en = g["en"]
            n = float(en) if en.isdigit() else _parse_en_words(en)
            if n is None:
                return
            value = _last_n(n, g["eu2"].lower().rstrip("s"))
        if value is not None and self.free(*m.span()):
            self.add(_Rec("period", value, m.start(), m.end()))

    def _time(self, m: re.Match[str]) -> None:
        g = m.groupdict()
        minute = 0
        if g["h"] is not None:
            hour, minute = int(g["h"]), int(g["mi"])
            ap = g["ap"]
        elif g["h2"] is not None:
            hour, ap = int(g["h2"]), g["ap2"]
        else:
            if not (g["p"] or g["mi3"] or g["half"] or g["qt"] or g["z"]):
                return
            parsed = _parse_number(g["h3"])
            if parsed is None:
                return
            hour = int(parsed[0])
            if g["mi3"]:
                mp = _parse_number(g["mi3"])
                minute = int(mp[0]) if mp else 0
            elif g["half"]:
                minute = 30
            elif g["qt"]:
                minute = 15 if g["qt"] == "一刻" else 45
            ap = "pm" if g["p"] in _PM_PREFIXES or (g["p"] == "中午" and hour < 11) else None
        if ap:
            pm = ap.lower().startswith("p")
            if pm and hour < 12:
                hour += 12
            elif not pm and hour == 12:
                hour = 0
        if not (0 <= hour <= 24 and 0 <= minute <= 59):
            return
        value = f"{hour:02d}:{minute:02d}"
        if g["h"] is not None and g["se"] and int(g["se"]):
            value += f":{int(g['se']):02d}"
        if self.free(*m.span()):
            self.add(_Rec("time", value, m.start(), m.end()))

    # ------------------------------------------------------------------ codes, versions, names

    def codes_and_versions(self) -> None:
        nt = self.nt
        for m in _HTTP_STATUS_RX.finditer(nt):
            code = m.group("code") or m.group("code2")
            if self.free(*m.span()):
                self.add(_Rec("identifier", f"HTTP {code}", m.start(), m.end(), qualifier="http_status"))
        for m in _ERRCODE_KW_RX.finditer(nt):
            if self.free(m.start("code"), m.end("code")):
                self.add(
                    _Rec(
                        "identifier", m.group("code"), m.start("code"), m.end("code"), qualifier="error_code"
                    )
                )
        for rx in (_SCREAMING_RX, _DASHCODE_RX, _LETTERCODE_RX, _CAPS_DASH_RX):
            for m in rx.finditer(nt):
                if m.group() not in _NOT_CODES and self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="error_code"))
        for m in _PRODUCT_VERSION_RX.finditer(nt):
            product = _PRODUCTS[re.sub(r"[ \t]+", " ", m.group("prod").lower())]
            if self.free(*m.span()):
                ver = _norm_version(m.group("ver"))
                self.add(_Rec("version", ver, m.start(), m.end(), qualifier=product))
        for m in _VERSION_RX.finditer(nt):
            ver = m.group("ver") or m.group("ver2") or m.group("ver3")
            if self.free(*m.span()):
                self.add(_Rec("version", _norm_version(ver), m.start(), m.end()))

    def names(self) -> None:
        nt = self.nt
        for m in _DOTTED_RX.finditer(nt):
            word = m.group()
            parts = word.split(".")
            if (
                word.lower() in _NOT_IDENTIFIERS
                or all(len(p) <= 1 for p in parts)
                or not self.free(*m.span())
            ):
                continue
            sort = (
                "host"
                if parts[-1].lower() in {"com", "net", "org", "io", "cn", "local", "internal"}
                else "config_key"
            )
            self.add(_Rec("identifier", word, m.start(), m.end(), qualifier=sort))
        for m in _SNAKE_RX.finditer(nt):
            if self.free(*m.span()):
                self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="config_key"))
        for m in _CAMEL_RX.finditer(nt):
            if m.group().lower() not in _NOT_IDENTIFIERS and self.free(*m.span()):
                self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="service"))
        for m in _KEBAB_RX.finditer(nt):
            word = m.group()
            parts = word.split("-")
            if not any(c.isdigit() for c in word) and any(p in _KEBAB_STOP_PARTS for p in parts):
                continue
            if self.free(*m.span()):
                self.add(_Rec("identifier", word, m.start(), m.end(), qualifier="service"))

    # ------------------------------------------------------------------ quantities

    def quantities(self) -> None:
        nt = self.nt
        if "百分之" in nt or "千分之" in nt:
            for m in _CN_PERCENT_RX.finditer(nt):
                parsed = _parse_number(m.group("num"))
                if parsed is None or not self.free(*m.span()):
                    continue
                factor = 0.1 if m.group("k") == "千分之" else 1.0
                self.add(
                    _Rec(
                        "percent",
                        parsed[0] * factor,
                        m.start(),
                        m.end(),
                        unit="%",
                        surface="%",
                        raw=parsed[0] * factor,
                        spelled=parsed[1],
                    )
                )
        for m in _COMPOUND_RX.finditer(nt):
            self._compound(m)
        if "半" in nt:
            for m in _CN_HALF_RX.finditer(nt):
                self._half(m)
        for m in _RANGE_RX.finditer(nt):
            self._range(m)
        for m in _QTY_RX.finditer(nt):
            self._qty(m)
        for m in _CN_QTY_RX.finditer(nt):
            self._cn_qty(m)
        for m in _EN_QTY_RX.finditer(nt):
            self._en_qty(m)

    def _compound(self, m: re.Match[str]) -> None:
        """`2 hours 7 minutes 48 seconds`, `1分30秒`, `2h30m`: one duration, units strictly decreasing."""
        total = 0.0
        previous = float("inf")
        for part in _DUR_PART_RX.finditer(m.group()):
            unit = part.group("u").lower().removeprefix("个").removesuffix("钟")
            key = unit if unit in _DUR_PART_SECONDS else unit[0]
            if unit in {"and", "零"}:
                continue
            factor = _DUR_PART_SECONDS.get(key)
            if factor is None or factor >= previous:
                return
            previous = factor
            total += float(part.group("n")) * factor
        if self.free(*m.span()):
            self.add(_Rec("duration", total, m.start(), m.end(), unit="s", surface="s", raw=total))

    def _half(self, m: re.Match[str]) -> None:
        """`半小时` 0.5 h, `两个半小时` 2.5 h, `一年半` 1.5 years."""
        number = m.group("n") or m.group("n2")
        unit_text = _HALF_UNITS.get((m.group("u") or m.group("u2")).removeprefix("个"), "小时")
        base = 0.0
        spelled = True
        if number:
            parsed = _parse_number(number)
            if parsed is None:
                return
            base, spelled = parsed
        q = _quantity(base + 0.5, None, unit_text, None)
        if q is not None and self.free(*m.span()):
            self.add(
                _Rec(
                    q.kind,
                    q.value,
                    m.start(),
                    m.end(),
                    unit=q.unit,
                    surface=q.surface,
                    raw=q.raw,
                    spelled=spelled,
                )
            )

    def _range(self, m: re.Match[str]) -> None:
        g = m.groupdict()
        for suffix in ("", "3", "5"):
            if g["a" + suffix] is not None:
                break
        a_text, b_text = g["a" + suffix], g["b" + suffix]
        ma, mb = g["ma" + suffix], g["mb" + suffix]
        ua = g["ua" + suffix]
        ub = {"": g["ub"] or g["ub2"], "3": g["ub3"] or g["ub4"], "5": g["ub5"]}[suffix]
        pre = g["pre" + suffix] if suffix != "5" else None
        pa, pb = _parse_number(a_text), _parse_number(b_text)
        if pa is None or pb is None or not self.free(*m.span()):
            return
        if (pa[1] or pb[1]) and not (ua or ub):
            return  # 一到二 without a unit is prose, not a range
        if (
            suffix == ""
            and g["sep"] in "-–—"
            and not (ua or ub)
            and (pa[1] or "." in a_text or "." in b_text)
        ):
            return
        currency = _CURRENCY_PREFIX.get(pre.strip()) if pre else None
        qa = _quantity(pa[0], ma, ua or ub, currency)
        qb = _quantity(pb[0], mb or (ma if not mb and ma and not ua else None), ub or ua, currency)
        if qa is None or qb is None or qa.kind != qb.kind or qa.unit != qb.unit:
            return
        if qa.value >= qb.value:
            return
        self.add(
            _Rec(
                "range",
                (qa.value, qb.value),
                m.start(),
                m.end(),
                unit=qa.unit,
                surface=qb.surface,
                qualifier=qa.kind,
                spelled=pa[1],
            )
        )

    def _qty(self, m: re.Match[str]) -> None:
        s, e = m.span()
        if not self.free(s, e):
            # The number may still be free when only its unit collides (`3 days` inside something).
            return
        nt = self.nt
        unit_text = m.group("u1") or m.group("u2")
        num_start = m.start("num")
        before = nt[max(0, num_start - 12) : num_start]
        if before.endswith("第") or before.rstrip().endswith("第"):
            return
        pre = m.group("pre")
        currency = _CURRENCY_PREFIX.get(pre.strip()) if pre else None
        if unit_text is None and m.group("mult") is None and currency is None:
            if _ORDINAL_BEFORE_RX.search(before):
                return
            line_start = nt.rfind("\n", 0, num_start) + 1
            if not nt[line_start:num_start].strip(" \t(") and _LIST_MARKER_AFTER_RX.match(nt, m.end("num")):
                return
        q = _quantity(float(m.group("num").replace(",", "")), m.group("mult"), unit_text, currency)
        if q is None:
            return
        self.add(_Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw))

    def _cn_qty(self, m: re.Match[str]) -> None:
        if not self.free(*m.span()):
            return
        unit_text = m.group("u")
        num = m.group("num")
        nxt = self.nt[m.end() : m.end() + 1]
        if num == "一" and (unit_text in _ARTICLE_CLASSIFIERS or nxt == "性"):
            return  # 一个问题, 一次性: articles, not quantities
        value = _parse_cn(num)
        if value is None:
            return
        currency = "CNY" if m.group("pre") else None
        q = _quantity(value, None, unit_text, currency)
        if q is None:
            return
        self.add(
            _Rec(q.kind, q.value, m.start(), m.end(), unit=q.unit, surface=q.surface, raw=q.raw, spelled=True)
        )

    def _en_qty(self, m: re.Match[str]) -> None:
        words = m.group("num")
        value = _parse_en_words(words)
        if value is None:
            return
        unit_text = m.group("u")
        end = m.end("u") if unit_text else m.end("num")
        if not self.free(m.start(), end):
            return
        if unit_text is None:
            nxt = m.group("next")
            attached = _PREFIX_CMP_RX.search(self.nt[max(0, m.start() - 24) : m.start()]) is not None
            first = words.split()[0].lower()
            content_next = nxt is not None and nxt.lower() not in _EN_FUNCTION_WORDS
            if not attached and (first in {"one", "zero"} or not content_next):
                return
            self.add(_Rec("count", value, m.start(), end, raw=value, spelled=True))
            return
        q = _quantity(value, None, unit_text, None)
        if q is None:
            return
        self.add(
            _Rec(q.kind, q.value, m.start(), end, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True)
        )

    # ------------------------------------------------------------------ comparators

    def comparators(self) -> None:
        """Attach comparator cues to the value they govern; keep strong unattached cues as mentions."""
        nt = self.nt
        attached: list[_Rec] = []
        for rec in self.recs:
            if rec.kind not in _VALUE_KINDS:
                continue
            date = rec.kind in _DATE_KINDS
            window = nt[max(0, rec.s - 24) : rec.s]
            pm = (_PREFIX_CMP_DATE_RX if date else _PREFIX_CMP_RX).search(window)
            if pm is not None:
                group = "cue" if pm.group("cue") else "gapcue"
                op = _cmp_lookup(pm.group(group), date)
                cs = rec.s - len(window) + pm.start(group)
                ce = cs + len(pm.group(group))
            else:
                if date:
                    post = _POSTFIX_CMP_DATE_RX.match(nt, rec.e)
                elif rec.kind == "duration" or (rec.kind == "range" and rec.qualifier == "duration"):
                    post = _POSTFIX_CMP_DUR_RX.match(nt, rec.e)
                else:
                    post = _POSTFIX_CMP_RX.match(nt, rec.e)
                if post is None:
                    if rec.kind in _NUMERIC_KINDS:
                        km = _KEY_HINT_RX.search(nt[max(0, rec.s - 48) : rec.s])
                        if km is not None:
                            rec.comparator = _key_hint(km.group("key"))
                    continue
                op = _cmp_lookup(post.group("cue"), date, postfix=True)
                cs, ce = post.start("cue"), post.end("cue")
            if op is None:
                continue
            rec.comparator = op
            attached.append(_Rec("comparator", op, cs, ce, qualifier="attached"))
        for cue in attached:
            if self.free(cue.s, cue.e):
                self.add(cue)
        for m in _STRONG_CMP_RX.finditer(nt):
            if self.free(*m.span()):
                op = _cmp_lookup(m.group(), False)
                if op is not None:
                    self.add(_Rec("comparator", op, m.start(), m.end()))

    # ------------------------------------------------------------------ negation

    def negations(self) -> None:
        nt = self.nt
        exceptions = [m.span() for m in _NEG_EXCEPTION_RX.finditer(nt)]
        exceptions.extend(m.span() for m in _ANSWER_PARTICLE_RX.finditer(nt))

        def excepted(s: int, e: int) -> bool:
            return any(xs < e and s < xe for xs, xe in exceptions)

        for m in _NEG_ZH_RX.finditer(nt):
            if not excepted(*m.span()) and self.free(*m.span()):
                self.recs.append(_Rec("negation", m.group(), m.start(), m.end()))
        neither_at = -1
        for m in _NEG_EN_RX.finditer(nt):
            cue = re.sub(r"[ \t]+", " ", m.group().lower().replace("’", "'"))
            if excepted(*m.span()) or not self.free(*m.span()):
                continue
            if cue == "neither":
                neither_at = m.start()
            elif cue == "nor" and neither_at >= 0:
                continue  # neither … nor is one negation
            self.recs.append(_Rec("negation", cue, m.start(), m.end()))


_EN_FUNCTION_WORDS = frozenset(
    [
        "of",
        "or",
        "and",
        "to",
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "is",
        "are",
        "was",
        "were",
        "be",
        "as",
        "than",
        "that",
        "which",
        "who",
        "it",
        "its",
    ]
)
_NUMERIC_KINDS = frozenset({"amount", "percent", "duration", "size", "measure", "count", "number"})
_DATE_KINDS = frozenset({"date", "period", "time"})
_VALUE_KINDS = _NUMERIC_KINDS | _DATE_KINDS | {"range"}


def _cmp_lookup(cue: str, date: bool, *, postfix: bool = False) -> Comparator | None:
    key = re.sub(r"[ \t]+", " ", cue.lower())
    if postfix:
        table: dict[str, Comparator] = {**_CMP_POSTFIX, "内": "<="}
        if date:
            table = {**table, **_CMP_POSTFIX_DATE}
        return table.get(key)
    if date and key in _CMP_PREFIX_DATE:
        return _CMP_PREFIX_DATE[key]
    return _CMP_PREFIX.get(key)


def _key_hint(key: str) -> Comparator | None:
    for word in _CAMEL_SPLIT_RX.split(key):
        op = _KEY_HINT_WORDS.get(word.lower())
        if op is not None:
            return op
    return None


def _last_n(n: float, unit: str) -> str:
    if unit == "week":
        n, unit = n * 7, "day"
    return f"relative:last:{unit}:{int(n) if float(n).is_integer() else n}"


@lru_cache(maxsize=8192)
def extract(text: str) -> Mentions:
    """Every fact-bearing mention of `text`, with normalised values and original offsets.

    Cached by the string: evidence text is extracted once however many claims are checked against it.
    """
    return _Extractor(text).run()


def negation_cues(text: str) -> list[Mention]:
    """The negation cues of `text` (`不`, `无需`, `not`, `never` …), exception words excluded."""
    return list(extract(text).of("negation"))


def polarity(text: str) -> int:
    """-1 when `text` carries an odd number of negation cues (double negation cancels), else +1."""
    return -1 if len(extract(text).of("negation")) % 2 else 1


# =========================================================================== comparison

_CMP_WORDS: dict[str, str] = {"<=": "at most", ">=": "at least", "<": "less than", ">": "more than"}
_UPPER = frozenset({"<", "<="})
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_SQUASH_RX = re.compile(r"[^0-9a-z\u4e00-\u9fff]+")
_SQUASHABLE = frozenset({"service", "config_key", "host"})


def _vkey(value: float) -> float:
    """A hashable key that absorbs float noise (`1.2 * 10000` is 12000.000000000002)."""
    return float(f"{value:.9g}")


@lru_cache(maxsize=8192)
def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=4096)
def _squashed(text: str) -> str:
    return _SQUASH_RX.sub("", _folded(text))


def _squash(value: str) -> str:
    return _SQUASH_RX.sub("", _folded(value))


def _contains_token(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` (both folded) not glued to a longer identifier or number."""
    if not needle:
        return False
    start = haystack.find(needle)
    n = len(needle)
    while start >= 0:
        before = haystack[start - 1] if start > 0 else ""
        after = haystack[start + n] if start + n < len(haystack) else ""
        if before not in _ID_CHARS and after not in _ID_CHARS:
            return True
        start = haystack.find(needle, start + 1)
    return False


@dataclass(frozen=True, slots=True)
class _Index:
    """Lookups over one text's mentions, cached with the text."""

    mentions: Mentions
    members: frozenset[Mention]
    by_value: dict[float, tuple[Mention, ...]]
    by_kind: dict[str, tuple[Mention, ...]]
    identifiers: frozenset[str]
    squashed_identifiers: frozenset[str]


@lru_cache(maxsize=4096)
def _index(text: str) -> _Index:
    mentions = extract(text)
    by_value: dict[float, list[Mention]] = {}
    by_kind: dict[str, list[Mention]] = {}
    for m in mentions:
        by_kind.setdefault(m.kind, []).append(m)
        keys: set[float] = set()
        if isinstance(m.value, float):
            keys.add(_vkey(m.value))
            if m.raw is not None:
                keys.add(_vkey(m.raw))
        elif isinstance(m.value, tuple):
            keys.update(_vkey(v) for v in m.value)
        for key in keys:
            by_value.setdefault(key, []).append(m)
    ids = [str(m.value) for m in by_kind.get("identifier", [])]
    return _Index(
        mentions,
        frozenset(mentions.items),
        {k: tuple(v) for k, v in by_value.items()},
        {k: tuple(v) for k, v in by_kind.items()},
        frozenset(_folded(i) for i in ids),
        frozenset(_squash(i) for i in ids),
    )


def _candidates(m: Mention, *indexes: _Index) -> list[Mention]:
    keys = {_vkey(m.value)} if isinstance(m.value, float) else set()
    if m.raw is not None:
        keys.add(_vkey(m.raw))
    out: list[Mention] = []
    for index in indexes:
        for key in keys:
            out.extend(index.by_value.get(key, ()))
    return out


def _compatible_units(a: Mention, b_kind: str, b_unit: str | None) -> bool:
    if a.kind != b_kind:
        return False
    if a.kind == "count":
        return True  # 名 / 人 / 位 / people: classifiers vary freely
    if a.kind == "amount":
        return a.unit is None or b_unit is None or a.unit == b_unit
    return a.unit == b_unit


def _num_match(c: Mention, e: Mention) -> bool:
    """Same quantity, unit-aware: `5千元` == `¥5,000`, `2分钟` == `120 s`, a bare `5000` matches both."""
    cv, ev = c.value, e.value
    if not isinstance(cv, float):
        return False
    if isinstance(ev, tuple):  # a value at either end of an evidence range
        inner = e.qualifier or "number"
        if not (_close(cv, ev[0]) or _close(cv, ev[1])):
            return False
        return c.kind == "number" or inner == "number" or _compatible_units(c, inner, e.unit)
    if not isinstance(ev, float) or e.kind not in _NUMERIC_KINDS:
        return False
    if c.kind == "number" or e.kind == "number":
        return _close(cv, e.raw) or _close(cv, ev) or _close(c.raw, ev)
    if not _close(cv, ev):
        return False
    if c.kind == e.kind:
        return _compatible_units(c, e.kind, e.unit)
    if {c.kind, e.kind} == {"amount", "count"}:
        amount = c if c.kind == "amount" else e
        return amount.unit is None
    return False


def _dimensioned(m: Mention) -> bool:
    return m.kind in {"amount", "percent", "duration", "size", "measure", "count"} and m.unit is not None


def _same_kind(c: Mention, e: Mention) -> bool:
    """Whether `e` states the same sort of quantity as `c` (so a different value contradicts it)."""
    if e.kind != c.kind or not isinstance(e.value, float):
        return False
    if c.kind == "count":
        return c.unit is None or e.unit is None or c.unit == e.unit
    return c.kind == "number" or _compatible_units(c, e.kind, e.unit)


def _range_match(c: Mention, e: Mention) -> bool:
    if not (isinstance(c.value, tuple) and isinstance(e.value, tuple)):
        return False
    if not (_close(c.value[0], e.value[0]) and _close(c.value[1], e.value[1])):
        return False
    if c.qualifier == "number" or e.qualifier == "number":
        return True
    return c.qualifier == e.qualifier and (c.unit == e.unit or c.qualifier in {"amount", "count"})


@lru_cache(maxsize=4096)
def _date_fields(value: str) -> tuple[tuple[str, int], ...] | None:
    """Calendar fields of an absolute date value; None for relative periods, weekdays and times."""
    if value.startswith(("relative:", "weekday:")) or ":" in value:
        return None
    fields: dict[str, int] = {}
    rest = value
    if rest[:4].isdigit():
        fields["y"] = int(rest[:4])
        rest = rest[5:]
    else:
        rest = rest.lstrip("-")
    if rest.startswith("Q"):
        fields["q"] = int(rest[1:])
    elif rest.startswith("H"):
        fields["h"] = int(rest[1:])
    elif rest:
        parts = rest.split("-")
        fields["m"] = int(parts[0])
        if len(parts) > 1:
            fields["d"] = int(parts[1])
    return tuple(fields.items())


def _finest(fields: dict[str, int]) -> str:
    for key in ("d", "m", "q", "h", "y"):
        if key in fields:
            return key
    return "y"


def _date_match(c: str, e: str) -> bool:
    """`e` states the date `c` states: no field differs and `c`'s finest field is present in `e`."""
    if c == e:
        return True
    if c[:1].isdigit() and c[2:3] == ":":
        return e.startswith(c) or c.startswith(e)  # 03:13 vs 03:13:02
    cf, ef = _date_fields(c), _date_fields(e)
    if cf is None or ef is None:
        return False
    cd, ed = dict(cf), dict(ef)
    if any(ed[k] != v for k, v in cd.items() if k in ed):
        return False
    return _finest(cd) in ed


def _rel_key(value: str) -> str:
    parts = value.split(":")
    return ":".join(parts[1:3]) if parts[1] == "last" else parts[1]


def _date_conflict(c: str, e: str) -> bool:
    """`c` and `e` name the same sort of period and disagree."""
    if c == e:
        return False
    if c.startswith("relative:") or e.startswith("relative:"):
        return c.startswith("relative:") and e.startswith("relative:") and _rel_key(c) == _rel_key(e)
    if c.startswith("weekday:") or e.startswith("weekday:"):
        return c.startswith("weekday:") and e.startswith("weekday:")
    if ":" in c or ":" in e:
        return ":" in c and ":" in e
    cf, ef = _date_fields(c), _date_fields(e)
    if cf is None or ef is None:
        return False
    ed = dict(ef)
    common = [k for k, _ in cf if k in ed]
    return bool(common) and any(ed[k] != v for k, v in cf if k in ed)


def _version_parts(value: str) -> list[str]:
    return value.split(".")


def _version_match(c: Mention, e: Mention) -> bool:
    if c.qualifier and e.qualifier and c.qualifier != e.qualifier:
        return False
    cp, ep = _version_parts(str(c.value)), _version_parts(str(e.value))
    return ep[: len(cp)] == cp


def _version_conflict(c: Mention, e: Mention) -> bool:
    if c.qualifier and e.qualifier and c.qualifier != e.qualifier:
        return False
    cp, ep = _version_parts(str(c.value)), _version_parts(str(e.value))
    n = min(len(cp), len(ep))
    return cp[:n] != ep[:n]


def _identifier_core(m: Mention) -> str:
    value = str(m.value)
    if m.qualifier == "http_status":
        return value.split()[-1]
    if m.qualifier == "path" and " " in value:
        return value.split(" ", 1)[1]
    return value


def _identifier_found(m: Mention, text: str, index: _Index) -> bool:
    value = str(m.value)
    if _folded(value) in index.identifiers or _contains_token(_folded(text), _folded(_identifier_core(m))):
        return True
    if m.qualifier in _SQUASHABLE:
        squashed = _squash(value)
        return squashed in index.squashed_identifiers or (len(squashed) >= 6 and squashed in _squashed(text))
    return False


def _fmt(value: float) -> str:
    if abs(value) < 1e15 and float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def _describe(m: Mention) -> str:
    """A readable English rendering of a mention: `at most 5000 CNY ('不超过5000元')`."""
    v = m.value
    if isinstance(v, tuple):
        unit = {"duration": " s", "size": " bytes", "percent": "%"}.get(m.qualifier or "", "")
        if m.qualifier == "amount" and m.unit:
            unit = f" {m.unit}"
        elif m.qualifier == "duration" and m.unit != "s":
            unit = f" {m.unit}(s)"
        body = f"{_fmt(v[0])}–{_fmt(v[1])}{unit}"
    elif isinstance(v, float):
        if m.kind == "amount":
            body = f"{_fmt(v)} {m.unit}" if m.unit else f"{_fmt(v)} (no currency)"
        elif m.kind == "percent":
            body = f"{_fmt(v)}%" if m.unit == "%" else f"{_fmt(v)} percentage points"
        elif m.kind == "duration":
            body = f"{_fmt(v)} s" if m.unit == "s" else f"{_fmt(v)} {m.unit}(s)"
        elif m.kind == "size":
            body = f"{_fmt(v)} bytes"
        elif m.kind == "measure" or (m.kind == "count" and m.unit):
            body = f"{_fmt(v)} {m.unit}"
        else:
            body = _fmt(v)
    elif m.kind == "version":
        body = f"{m.qualifier} {v}" if m.qualifier else f"version {v}"
    elif m.kind == "comparator":
        body = f"the comparator {v}"
    else:
        body = v
    if m.comparator and m.kind != "comparator":
        body = f"{_CMP_WORDS[m.comparator]} {body}"
    return f"{body} ('{m.text}')"


_KIND_NAMES = {
    "amount": "amount",
    "percent": "percentage",
    "duration": "duration",
    "size": "data size",
    "measure": "measurement",
    "count": "count",
    "number": "number",
    "range": "range",
    "date": "date",
    "period": "period",
    "time": "time",
    "version": "version",
    "identifier": "identifier",
    "comparator": "comparator",
}


class _Report:
    """Collects issues for one check; `side`/`other` name the texts in the details."""

    __slots__ = ("issues", "other", "seen", "side")

    def __init__(self, side: str, other: str) -> None:
        self.side = side
        self.other = other
        self.issues: list[FidelityIssue] = []
        self.seen: set[tuple[str, str | None, str | None]] = set()

    def add(self, code: str, severity: Severity, detail: str, mine: str | None, theirs: str | None) -> None:
        key = (code, mine, theirs)
        if key not in self.seen:
            self.seen.add(key)
            self.issues.append(FidelityIssue(code, severity, detail, mine, theirs))

    def changed(self, code: str, m: Mention, e: Mention, what: str) -> None:
        self.add(
            code,
            "contradiction",
            f"The {self.side} states {_describe(m)} but the {self.other} states {_describe(e)} ({what}).",
            m.text,
            e.text,
        )


# --------------------------------------------------------------------------- per-kind checks

#: Words that make a number an estimate or a derived figure (`大约42分钟`, `也就是11月8日`, `roughly 380 mg`).
_HEDGE_RX = re.compile(
    r"大约|大概|约|左右|将近|接近|差不多|上下|也就是|相当于|一共|共计|总共|合计|总计|加起来|累计|换算|折合|即|算下来|估计|预计"
    r"|(?<![A-Za-z])(?i:about|around|roughly|approximately|approx|nearly|almost|in[ \t]+total|total|totals|altogether"
    r"|adds?[ \t]+up|added[ \t]+up|which[ \t]+means|that[ \t]+is|i\.e|equivalent|works[ \t]+out|or[ \t]+so|circa)(?![A-Za-z])"
    r"|~|\d[ \t]*(?:多|余)"
)
_HEDGE_CLAUSE_RX = re.compile(r"[，,；;。！？!?\n（）()]")
#: `没有超过10天`: applying a rule to a case ("did not exceed"), not restating the rule's comparator.
_FACTUAL_CMP_RX = re.compile(
    r"(?:未|没有?|并未)(?:超过|超出|达到|高于|低于|少于)"
    r"|(?<![A-Za-z])(?i:did[ \t]+not|didn['’]t|has[ \t]+not|hasn['’]t|have[ \t]+not|haven['’]t|was[ \t]+not|wasn['’]t)"
    r"[ \t]+(?i:exceed|reach|go[ \t]+over|surpass)"
)


class _Ctx:
    """What one check compares against; in use (a) both evidence indexes are the plan."""

    __slots__ = ("aligned", "everything", "given", "plan", "r", "source", "text")

    def __init__(
        self,
        source: str,
        aligned: _Index,
        everything: _Index,
        text: str,
        r: _Report,
        *,
        plan: bool,
        given: _Index | None = None,
    ) -> None:
        self.source = source
        self.aligned = aligned
        self.everything = everything
        self.text = text
        self.r = r
        self.plan = plan
        self.given = given

    def hedged(self, m: Mention) -> bool:
        """The clause around `m` in the claim marks it as an estimate or a derived figure."""
        if self.plan:
            return False
        source = self.source
        start = m.start
        while start > 0 and not _HEDGE_CLAUSE_RX.match(source, start - 1):
            start -= 1
        if start > 0 and source[start - 1] in "(（":
            return True  # a parenthetical restates or converts a figure: `30 天（10 月 16 日）`
        found = _HEDGE_CLAUSE_RX.search(source, m.end)
        end = found.start() if found is not None else len(source)
        return _HEDGE_RX.search(source, start, end) is not None

    def severity(self, m: Mention) -> Severity:
        return "warning" if self.hedged(m) else "contradiction"


def _approx_seconds(m: Mention) -> float | None:
    if m.kind != "duration" or not isinstance(m.value, float):
        return None
    if m.unit == "s":
        return m.value
    if m.unit == "month":
        days = 365.0 * m.raw if m.surface_unit == "year" and m.raw is not None else 30.0 * m.value
        return days * 86400.0
    return None


def _time_seconds(value: str) -> float | None:
    parts = value.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]) * 3600.0 + int(parts[1]) * 60.0 + int(parts[2])


_LAST_N_SECONDS = {"day": 86400.0, "hour": 3600.0, "minute": 60.0}


def _period_seconds(value: str) -> float | None:
    """`relative:last:day:7` as an approximate duration (7 days), for `近7天` vs `7天内`."""
    parts = value.split(":")
    if len(parts) != 4 or parts[1] != "last":
        return None
    n = float(parts[3])
    if parts[2] in _LAST_N_SECONDS:
        return n * _LAST_N_SECONDS[parts[2]]
    return n * (30.0 if parts[2] == "month" else 365.0) * 86400.0


def _near(a: float | None, b: float | None, tolerance: float = 0.02) -> bool:
    return a is not None and b is not None and abs(a - b) <= tolerance * max(abs(a), abs(b), 1e-9)


def _equivalent_duration(m: Mention, x: _Ctx) -> bool:
    """Durations stated another way: `半个月` ≈ `15天`, `2 hours 7 minutes 48 seconds` = `2:07:48`, `7天` ≈ `近7天`."""
    seconds = _approx_seconds(m)
    if seconds is None:
        return False
    for index in (x.aligned, x.everything):
        for e in index.by_kind.get("duration", ()):
            if e.unit != m.unit and _near(seconds, _approx_seconds(e)):
                return True
        for e in index.by_kind.get("time", ()):
            if _close(seconds, _time_seconds(str(e.value))):
                return True
        for e in index.by_kind.get("period", ()):
            if _near(seconds, _period_seconds(str(e.value))):
                return True
    return False


def _bound_satisfied(m: Mention, aligned: _Index) -> bool:
    """`不到7米` is borne out by `6.8米`: a concrete evidence value of the same kind meets the claimed bound."""
    if m.comparator is None or not isinstance(m.value, float):
        return False
    bound = m.value
    for e in aligned.mentions:
        if e.comparator is not None or not isinstance(e.value, float) or not _same_kind(m, e):
            continue
        v = e.value
        if (
            (m.comparator == "<" and v < bound)
            or (m.comparator == "<=" and v <= bound)
            or (m.comparator == ">" and v > bound)
            or (m.comparator == ">=" and v >= bound)
        ):
            return True
    return False


def _given_number(m: Mention, given: _Index | None) -> bool:
    return given is not None and any(_num_match(m, g) for g in _candidates(m, given))


def _check_number(m: Mention, x: _Ctx) -> None:
    r = x.r
    matches = [e for e in _candidates(m, x.aligned, x.everything) if _num_match(m, e)]
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
    if m.kind == "number" and m.raw is not None and _contains_token(_folded(x.text), _fmt(m.raw)):
        return
    if _equivalent_duration(m, x):
        return
    if not x.plan:
        if _given_number(m, x.given):
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
            "warning" if small_word else x.severity(m),
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
        "warning" if small_word else x.severity(m),
        f"The claim states the {_KIND_NAMES[m.kind]} {_describe(m)}, which appears nowhere in the evidence.",
        m.text,
        None,
    )


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
    e = matches[0]
    r.changed("comparator_changed", m, e, f"comparator {m.comparator} vs {e.comparator}")


_CURRENCY_WORDS_RX = re.compile(
    r"(?<![A-Za-z])(?:USD|RMB|CNY|EUR|GBP|JPY|HKD)(?![A-Za-z])|US\$|HK\$|[¥$€£]|人民币|美元|欧元|英镑|日元|港元|港币|元",
    re.IGNORECASE,
)


def _check_currency_stated(m: Mention, plan: _Index, r: _Report) -> None:
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
    same = [e for e in x.aligned.by_kind.get("range", ()) if e.qualifier == m.qualifier]
    raw = _range_raw(m.text)
    for e in same:
        if raw is not None and raw == _range_raw(e.text) and e.surface_unit != m.surface_unit:
            r.changed("unit_mismatch", m, e, f"unit {m.surface_unit} vs {e.surface_unit}")
            return
    if same:
        r.add(
            "number_mismatch",
            x.severity(m),
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
            x.severity(m),
            f"The claim states the range {_describe(m)}, which appears nowhere in the evidence.",
            m.text,
            None,
        )


_RANGE_NUMBERS_RX = re.compile(rf"{_NUM}|{_CNUM}")


def _range_raw(text: str) -> tuple[float, ...] | None:
    numbers = [_parse_number(n) for n in _RANGE_NUMBERS_RX.findall(unicodedata.normalize("NFKC", text))]
    values = tuple(n[0] for n in numbers if n is not None)
    return values[:2] if len(values) >= 2 else None


def _weekday_of(value: str) -> int | None:
    fields = _date_fields(value)
    if fields is None:
        return None
    f = dict(fields)
    if not {"y", "m", "d"} <= f.keys():
        return None
    try:
        return date(f["y"], f["m"], f["d"]).isoweekday()
    except ValueError:
        return None


def _check_date(m: Mention, x: _Ctx) -> None:
    r = x.r
    value = str(m.value)
    dates = [
        e
        for index in (x.aligned, x.everything)
        for kind in ("date", "period", "time")
        for e in index.by_kind.get(kind, ())
    ]
    matches = [e for e in dates if _date_match(value, str(e.value))]
    if matches:
        _check_comparator(m, matches, x)
        return
    if not x.plan:
        if x.given is not None and any(
            _date_match(value, str(g.value)) for g in x.given.mentions if g.kind in _DATE_KINDS
        ):
            return
        if value.startswith("weekday:") and any(_weekday_of(str(e.value)) == int(value[8:]) for e in dates):
            return
        if len(value) == 4 and value.isdigit() and _contains_token(_folded(x.text), value):
            return  # a bare year the evidence writes in a range or a number (`1952—2019`)
        seconds = _time_seconds(value) if m.kind == "time" else _period_seconds(value)
        if seconds is not None and any(
            _near(seconds, _approx_seconds(e)) for e in x.everything.by_kind.get("duration", ())
        ):
            return
    conflicts = [
        e
        for kind in ("date", "period", "time")
        for e in x.aligned.by_kind.get(kind, ())
        if _date_conflict(value, str(e.value))
    ]
    if conflicts:
        e = conflicts[0]
        r.add(
            "date_mismatch",
            x.severity(m),
            f"The {r.side} states {_describe(m)} but the {r.other} states {_describe(e)} (different date or period).",
            m.text,
            e.text,
        )
        return
    if x.plan:
        r.add(
            "constraint_lost",
            "contradiction",
            f"The question states the {_KIND_NAMES[m.kind]} {_describe(m)}, which the plan does not keep unchanged.",
            m.text,
            None,
        )
        return
    severity: Severity
    if m.kind == "period":
        if any(e.kind == "date" for e in dates):
            return  # a relative period may be the absolute date the evidence gives; cannot tell
        severity = "warning"
    else:
        severity = x.severity(m)
    r.add(
        "number_not_in_evidence",
        severity,
        f"The claim states the {_KIND_NAMES[m.kind]} {_describe(m)}, which appears nowhere in the evidence.",
        m.text,
        None,
    )


def _check_version(m: Mention, x: _Ctx) -> None:
    r = x.r
    versions = [*x.aligned.by_kind.get("version", ()), *x.everything.by_kind.get("version", ())]
    if any(_version_match(m, e) for e in versions):
        return
    value = str(m.value)
    if "." in value and _contains_token(_folded(x.text), value):
        return
    if (
        not x.plan
        and x.given is not None
        and any(_version_match(m, g) for g in x.given.by_kind.get("version", ()))
    ):
        return
    conflicts = [e for e in x.aligned.by_kind.get("version", ()) if _version_conflict(m, e)]
    if not conflicts and m.qualifier:
        conflicts = [e for e in versions if e.qualifier == m.qualifier and _version_conflict(m, e)]
    if conflicts:
        r.changed("version_mismatch", m, conflicts[0], "different version")
        return
    if x.plan:
        r.add(
            "constraint_lost",
            "contradiction",
            f"The question states {_describe(m)}, which the plan does not keep.",
            m.text,
            None,
        )
    else:
        r.add(
            "version_not_in_evidence",
            "contradiction",
            f"The claim states {_describe(m)}, which appears nowhere in the evidence.",
            m.text,
            None,
        )


def _check_identifier(m: Mention, x: _Ctx) -> None:
    if _identifier_found(m, x.text, x.everything) or _identifier_found(m, x.aligned.mentions.text, x.aligned):
        return
    if not x.plan and x.given is not None and _identifier_found(m, x.given.mentions.text, x.given):
        return  # named by the user in the question
    if x.plan:
        x.r.add(
            "constraint_lost",
            "contradiction",
            f"The question names the identifier '{m.value}', which the plan does not keep.",
            m.text,
            None,
        )
    else:
        x.r.add(
            "identifier_not_in_evidence",
            "contradiction",
            f"The claim names the identifier '{m.value}', which appears nowhere in the evidence.",
            m.text,
            None,
        )


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


# --------------------------------------------------------------------------- negation

_NEG_TOKENS = frozenset(_NEG_ZH) | frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "nobody",
        "nowhere",
        "without",
        "cannot",
        "neither",
        "nor",
        "don",
        "doesn",
        "isn",
        "wasn",
        "aren",
        "weren",
        "won",
        "can",
        "couldn",
        "shouldn",
        "wouldn",
        "didn",
        "hasn",
        "haven",
        "hadn",
        "mustn",
    ]
)
#: Chinese particles skipped when looking for the word a cue negates (verbs such as 用 / 能 are kept:
#: `不可用` negates 用, not the noun after it).
_FOCUS_SKIP_ZH = frozenset(
    [
        "的",
        "了",
        "是",
        "在",
        "把",
        "被",
        "对",
        "为",
        "以",
        "于",
        "之",
        "其",
        "该",
        "这",
        "那",
        "也",
        "都",
        "就",
        "而",
        "着",
        "过",
        "再",
        "去",
        "来",
        "给",
        "向",
        "从",
        "到",
        "跟",
        "和",
        "与",
        "及",
    ]
)


@dataclass(frozen=True, slots=True)
class _Cue:
    mention: Mention
    focus: tuple[str, ...]
    """Up to three content words the cue governs, within its clause (`无需审批` → `审批`;
    `not required for refunds` → `requir`, `refund`)."""
    snippet: str
    """The cue with the first word it negates, as written (`无需审批`, `not required`)."""
    scope: frozenset[str]
    """Every content word from the cue to the end of its clause: what the cue may negate."""


def _same_word(word: str, other: str) -> bool:
    """`高峰` ~ `高峰期`, `renew` ~ `renewal`: loose enough for stems and Chinese compounds."""
    if word == other:
        return True
    if word.isascii():
        return len(word) >= 4 and len(other) >= 4 and (other.startswith(word) or word.startswith(other))
    return len(word) > 1 and len(other) > 1 and (word in other or other in word)


@dataclass(frozen=True, slots=True)
class _PolaritySentence:
    tokens: frozenset[str]
    folded: str
    cues: tuple[_Cue, ...]

    def states(self, word: str) -> bool:
        if word in self.tokens or (len(word) > 1 and word in self.folded):
            return True
        return word.isascii() and len(word) >= 4 and any(_same_word(word, t) for t in self.tokens)

    def negated(self, word: str) -> bool:
        """Whether `word` is negated here: an odd number of cues govern it (double negation cancels)."""
        return sum(1 for cue in self.cues if any(_same_word(word, f) for f in cue.scope)) % 2 == 1


@dataclass(frozen=True, slots=True)
class _Polarity:
    """What negation analysis needs of one text, cached with the text."""

    text: str
    cues: tuple[_Cue, ...]
    sentences: tuple[_PolaritySentence, ...]

    def states(self, word: str) -> bool:
        return bool(word) and any(s.states(word) for s in self.sentences)

    def polarities(self, word: str) -> set[bool]:
        """`True` for each sentence that negates `word`, `False` for each that states it plainly."""
        return {s.negated(word) for s in self.sentences if s.states(word)}


@lru_cache(maxsize=4096)
def _polarity(text: str) -> _Polarity:
    cues: list[_Cue] = []
    for cue in extract(text).of("negation"):
        tail = text[cue.end : cue.end + 48]
        cut = _CLAUSE_END_RX.search(tail)
        if cut is not None:
            tail = tail[: cut.start()]
        content = set(tokenize(tail))
        words = tuple(
            w
            for w in tokenize(tail, keep_stopwords=True)
            if w not in _NEG_TOKENS and (w in content or not (w.isascii() or w in _FOCUS_SKIP_ZH))
        )[:3]
        snippet = text[cue.start : cue.end + _focus_end(tail, words[0] if words else "")]
        scope = frozenset(w for w in content if w not in _NEG_TOKENS) | frozenset(words)
        cues.append(_Cue(cue, words, snippet, scope))
    sentences = []
    for span in split_sentences(text):
        tokens = frozenset(t for t in tokenize(span.text) if t not in _NEG_TOKENS)
        inner = tuple(c for c in cues if span.start <= c.mention.start < span.end)
        sentences.append(_PolaritySentence(tokens, _folded(span.text), inner))
    return _Polarity(text, tuple(cues), tuple(sentences))


_ASCII_WORD_RX = re.compile(r"[A-Za-z]+")


def _surface(text: str, word: str) -> str:
    """The word as written in `text` (`required` for the stem `requir`)."""
    end = _focus_end(text, word)
    if end and word.isascii():
        start = end
        while start > 0 and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        return text[start:end]
    return word


def _focus_end(tail: str, focus: str) -> int:
    """Where the word `focus` (maybe a stem: `requir`) ends in `tail`; 0 when it is not found."""
    if not focus:
        return 0
    if focus.isascii():
        for word in _ASCII_WORD_RX.finditer(tail):
            if stem(word.group().lower()) == focus or word.group().lower() == focus:
                return word.end()
        return 0
    pos = tail.find(focus)
    return pos + len(focus) if pos >= 0 else 0


def _negation_issues(x: _Ctx, other: str) -> None:
    """Does one side negate what the other states plainly?

    For each cue, the words it governs are looked up on the other side; when the other side states
    them too, the number of cues governing them on each side must agree in parity (double negation
    cancels: `不是不能退款` = `可以退款`). A flip needs two of the governed words on the other side, or
    one when the two texts are well aligned overall.
    """
    r = x.r
    src = _polarity(x.source)
    oth = _polarity(other)
    if not src.cues and not oth.cues:
        return
    for side, here, there in ((r.side, src, oth), (r.other, oth, src)):
        for cue in here.cues:
            if not cue.focus or not there.states(cue.focus[0]):
                continue  # the negated word itself must be stated on the other side
            if sum(1 for w in cue.focus if there.states(w)) < min(2, len(cue.focus)):
                continue
            word = cue.focus[0]
            mine, theirs = here.polarities(word), there.polarities(word)
            if not mine or not theirs or not mine.isdisjoint(theirs):
                continue
            plain = r.other if side == r.side else r.side
            r.add(
                "negation_flip",
                "contradiction",
                f"The {side} says '{cue.snippet}' but the {plain} states '{_surface(there.text, word)}' "
                "without negation.",
                cue.snippet if here is src else None,
                cue.snippet if here is oth else None,
            )
            return
    if x.plan and not oth.cues:
        for cue in src.cues:
            if not cue.focus or True in src.polarities(cue.focus[0]):
                r.add(
                    "constraint_lost",
                    "warning",
                    f"The question negates ('{cue.snippet}'), and the plan states no negation at all.",
                    cue.snippet,
                    None,
                )
                return


# =========================================================================== public checks


def _run(m: Mention, x: _Ctx) -> None:
    if m.kind in _NUMERIC_KINDS:
        _check_number(m, x)
    elif m.kind == "range":
        _check_range(m, x)
    elif m.kind in _DATE_KINDS:
        _check_date(m, x)
    elif m.kind == "version":
        _check_version(m, x)
    elif m.kind == "identifier":
        _check_identifier(m, x)
    elif m.kind == "comparator" and x.plan and m.qualifier != "attached":
        _check_unattached_comparator(m, x)


def compare_constraints(question: str, plan_text: str) -> list[FidelityIssue]:
    """Use (a): every constraint of the question must survive planning unchanged.

    Amounts with their currency, percentages, durations, sizes, ranges, dates and relative periods,
    comparators, negation, versions and identifiers of `question` are looked up in `plan_text` by
    normalised value (`5千元` in the question is kept by `5000元` or by `"amount_max": 5000,
    "currency": "CNY"` in the plan). Returns one issue per constraint lost (`constraint_lost`) or
    changed (`number_mismatch`, `currency_mismatch`, `unit_mismatch`, `comparator_changed`,
    `date_mismatch`, `version_mismatch`, `negation_flip`). A lost plain number or count, a currency the
    plan never states and a negation the plan does not mention at all are warnings; the rest are
    contradictions.
    """
    plan = _index(plan_text)
    x = _Ctx(question, plan, plan, plan_text, _Report("question", "plan"), plan=True)
    for m in extract(question):
        _run(m, x)
    _negation_issues(x, plan_text)
    return x.r.issues


def check_claim(
    claim: str, aligned_evidence: str, all_evidence: str, *, question: str | None = None
) -> list[FidelityIssue]:
    """Use (b): contradiction signals between one claim and its evidence.

    `aligned_evidence` is the span that best matches the claim (chosen by the caller), `all_evidence`
    the whole context. Codes: `identifier_not_in_evidence`, `number_not_in_evidence`,
    `number_mismatch`, `currency_mismatch`, `unit_mismatch`, `comparator_changed`, `negation_flip`,
    `date_mismatch`, `version_mismatch`, `version_not_in_evidence`.

    A restatement in other words, units or scripts (`5千元` / `¥5,000`, `2026-03-15` /
    `2026年3月15日`, full-width digits) yields no issue. Warnings, not contradictions: small counts
    written as words (`三次`), relative periods the evidence may state as dates, and missing or
    differing figures the claim itself marks as estimates or derived (`大约42分钟`, `也就是3699元`,
    `roughly 380 mg`). Values the user stated in `question` (optional) count as given, not invented.
    """
    x = _Ctx(
        claim,
        _index(aligned_evidence),
        _index(all_evidence),
        all_evidence,
        _Report("claim", "evidence"),
        plan=False,
        given=_index(question) if question else None,
    )
    for m in extract(claim):
        _run(m, x)
    _negation_issues(x, aligned_evidence)
    return x.r.issues

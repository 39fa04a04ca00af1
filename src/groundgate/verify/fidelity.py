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
- Durations in seconds (`2分钟` == `120秒` == `2 minutes`); months and years in months (`半年` ==
  `6个月`), working days in `workday`: they do not convert exactly to seconds (a claim is still
  accepted when it matches at 30 days a month).
- Data sizes in bytes with binary multiples (`512MB` == `0.5 GB`, `512M` is 512 MiB).
- Lengths, masses, volumes, frequencies and temperatures are `measure`s in m, g, L, Hz and °C.
- Dates are ISO-like strings: `2026-03-15`, `2026-03`, `2026`, `--03-15` (no year), `--03`,
  `---15`, `2026-Q3`, `Q3`, `2026-H1`, `weekday:1` (Monday); relative periods stay symbolic:
  `relative:month:-1` (上个月 / last month), `relative:week:+1:weekday:1` (下周一),
  `relative:last:day:7` (近7天 / past 7 days); times of day are `HH:MM` (24 h).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Literal

from groundgate.verify.text import CACHE_MAX_CHARS, split_sentences, stem, tokenize

__all__ = [
    "ISSUE_CODES",
    "MAX_CLAIM_MENTIONS",
    "Comparator",
    "EvidenceIndex",
    "FidelityIssue",
    "Mention",
    "MentionKind",
    "Mentions",
    "Severity",
    "check_claim",
    "compare_constraints",
    "extract",
    "index_evidence",
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
    - `duration`: float in seconds when `unit` is `s`; in months when `unit` is `month` (years count 12);
      in working days when `unit` is `workday`;
    - `size`: float in bytes, `unit` = `B`;
    - `measure`: float in the base unit `m`, `g`, `L`, `Hz` or `°C`;
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


# --------------------------------------------------------------------------- identifiers

#: Standard names that look like error codes but are not (`UTF-8`, `SHA-256`).
_NOT_CODES = frozenset(
    {"UTF-8", "UTF-16", "UTF-32", "SHA-1", "SHA-256", "SHA-512", "AES-128", "AES-256", "ISO-8601"}
)

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
_CLAUSE_END_RX = re.compile(r"[，；;：。！？!?\n]|,(?!\d{3})|:(?!\d)")

# --------------------------------------------------------------------------- quantities

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
_CN_PERCENT_RX = re.compile(rf"(?P<k>百分之|千分之)(?P<num>{_NUM}|{_CNUM})")
_ORDINAL_BEFORE_RX = re.compile(
    r"(?:第|(?<![A-Za-z])(?i:step|no\.?|item|part|phase|chapter|section|round)|#|步骤|序号|编号)[ \t]*$"
)
_LIST_MARKER_AFTER_RX = re.compile(r"[.)、](?!\d)")


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


#: After a Chinese unit, what must (or must not) follow: `30天` yes, `天文单位` no, `3日内` yes, `3日` no.
def _cjk_unit_ok(unit: str, rest: str) -> bool:
    nxt = rest[:1]
    if unit == "天":
        return nxt not in set("文气然津下空涯线堂猫") or not nxt
    if unit == "周":
        return not nxt or nxt not in set("年末一二三四五六日天")
    if unit == "块":
        return not nxt or nxt in set("钱以左之内起封的多上下") or not _cjk(nxt)
    if unit == "日":
        return rest.startswith(("内", "以内", "之内"))
    if unit == "年":
        return not nxt or (nxt not in "度份" and not nxt.isdigit())
    return True


def _resolve_unit(token: str, spaced: bool, after: str) -> tuple[int, _Unit] | None:
    """The longest known unit at the start of `token` (the word after a number): (its length, unit)."""
    first = token[0]
    if _cjk(first):
        for n in range(min(len(token), 5), 0, -1):
            candidate = token[:n]
            unit = _UNITS.get(candidate)
            if unit is not None and _cjk_unit_ok(candidate, token[n:] + after):
                return n, unit
        return None
    if first.isascii() and first.isalpha():
        words = token.split()
        if len(words) == 2:
            both = f"{words[0]} {words[1]}".lower()
            if both in _UNITS:
                return len(token), _UNITS[both]
        word = words[0]
        if word in _LETTER_UNITS and (not spaced or word in _SPACED_LETTERS):
            return len(word), _LETTER_UNITS[word]
        unit = _UNITS.get(word.lower()) if len(word) > 1 else None
        return (len(word), unit) if unit is not None else None
    lowered = token.lower()
    for symbol in ("%", "‰", "°c", "µs", "μs"):
        if lowered.startswith(symbol):
            return len(symbol), _UNITS[symbol]
    return None


def _lookup_unit(name: str | None) -> _Unit | None:
    if not name:
        return None
    if name in _LETTER_UNITS:
        return _LETTER_UNITS[name]
    return _UNITS.get(name) or _UNITS.get(name.lower())


def _literals(words: Iterable[str]) -> str:
    """A longest-first alternation of literal words (spaces match runs of blanks)."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in ordered)


# =========================================================================== regexes
#
# Speed: `re` skips quickly over positions only when a pattern starts with a literal or a single
# character class, so every scanning pattern below starts with one. Context checks that would need a
# leading look-behind are done in Python on the match (`_Extractor.left_ok`), and case-insensitive
# word lists run against a lower-cased copy of the text with the same offsets.

_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ALPHA_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGIT_RX = re.compile(r"\d")
_ALPHA_RX = re.compile(r"[A-Za-z]")
_CN_DIGIT_RX = re.compile(r"[零〇一二两三四五六七八九十]")

# --------------------------------------------------------------------------- identifiers

_URL_RX = re.compile(r"https?://[^\s<>\"'，。；、）)\]}]+")  # lower-cased text
_UUID_RX = re.compile(
    r"[0-9a-f](?<![0-9a-z_][0-9a-f])[0-9a-f]{7}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z_])"
)
_IP_RX = re.compile(r"\d(?<![A-Za-z0-9_.]\d)\d{0,2}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![A-Za-z0-9_]|\.\d)")
_HEX_RX = re.compile(r"0x(?<![0-9a-z_]0x)[0-9a-f]{2,16}(?![0-9a-z_])")
_TRACE_RX = re.compile(r"[0-9a-f](?<![0-9a-z_][0-9a-f])[0-9a-f]{15,63}(?![0-9a-z_])")
_LONG_ID_RX = re.compile(r"\d(?<![A-Za-z0-9_]\d)\d{11,}(?![A-Za-z0-9_])")
_PATH_RX = re.compile(r"/[A-Za-z0-9_.{}:\-]+(?:/[A-Za-z0-9_.{}:\-]+)*/?(?:\?[A-Za-z0-9_=&%.\-]+)?")
_PATH_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/:~")
_METHOD_BEFORE_RX = re.compile(r"(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)[ \t]+$")
_FILE_RX = re.compile(
    r"[A-Za-z0-9_](?<![A-Za-z0-9_.\-/][A-Za-z0-9_])[A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+\.[A-Za-z][A-Za-z0-9]{0,5}"
    r"(?![A-Za-z0-9_])"
)
_HTTP_STATUS_RX = re.compile(  # lower-cased text
    r"http(?:/\d(?:\.\d)?)?[ \t]*(?:status[ \t]*)?(?:code[ \t]*)?[:=]?[ \t]*(?:为|是)?[ \t]*[1-5]\d\d(?![\d.])"
    r"|状态码[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*[1-5]\d\d(?![\d.])"
    r"|status[ \t]*code[ \t]*[:=]?[ \t]*[1-5]\d\d(?![\d.])"
)
_HTTP_PHRASE_RX = re.compile(
    r"[1-5](?<![\d.][1-5])\d\d[ \t]+(?:gateway timeout|bad gateway|not found|internal server error|"
    r"service unavailable|too many requests|unauthorized|forbidden|bad request|request timeout|conflict|"
    r"method not allowed)(?![a-z])"
)
_ERRCODE_KW_RX = re.compile(  # lower-cased text
    r"(?:错误码|错误代码|返回码|error[ \t_]?code|err[ \t_]?code|errno)[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*"
    r"(?P<code>[a-z0-9][a-z0-9_\-]+)(?![a-z0-9_])"
)
_SCREAMING_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])")
_DASHCODE_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z0-9]{1,9}-\d{1,6}(?![A-Za-z0-9_]|-[A-Za-z0-9])")
_LETTERCODE_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z]{0,3}\d{3,6}(?![A-Za-z0-9_])")
_CAPS_DASH_RX = re.compile(
    r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z]+(?:-[A-Z0-9]{2,})+(?![A-Za-z0-9_]|-[A-Za-z0-9])"
)
_DOTTED_RX = re.compile(
    r"[A-Za-z_](?<![A-Za-z0-9_.\-/@][A-Za-z_])[A-Za-z0-9_\-]*(?:\.[A-Za-z_][A-Za-z0-9_\-]*)+"
    r"(?![A-Za-z0-9_\-]|\.[A-Za-z0-9_])"
)
_SNAKE_RX = re.compile(r"[A-Za-z](?<![A-Za-z0-9_][A-Za-z])[A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![A-Za-z0-9_])")
_CAMEL_GATE_RX = re.compile(r"[a-z0-9][A-Z]")
_CAMEL_RX = re.compile(r"[a-z](?<![A-Za-z0-9_][a-z])[a-z0-9]+(?:[A-Z][a-z0-9]*)+(?![A-Za-z0-9_])")
_PASCAL_RX = re.compile(
    r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?![A-Za-z0-9_])"
)
_KEBAB_RX = re.compile(r"[a-z](?<![A-Za-z0-9_\-][a-z])[a-z0-9]*(?:-[a-z0-9]+)+(?![A-Za-z0-9_]|-[A-Za-z0-9])")

# --------------------------------------------------------------------------- dates and times

_MON = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Sept|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
)
_MON_GATE_RX = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")
_MONTH_NAME_RX = re.compile(r"[A-Za-z]+")
_ISO_DATE_RX = re.compile(r"(?:19|20)\d\d(?P<sep>[-/.])(?P<m>\d\d?)(?P=sep)(?P<d>\d\d?)(?!\d)")
_US_DATE_RX = re.compile(r"\d(?<![\d./]\d)\d?/\d\d?/(?:19|20)\d\d(?!\d)")
_YEAR_MONTH_RX = re.compile(r"(?:19|20)\d\d[-/](?P<m>\d\d?)(?![\d\-/.])")
_ZH_MONTH_RX = re.compile(r"\d(?<![\d.]\d)\d?[ \t]*月(?:份)?(?:[ \t]*(?P<d>\d\d?)[ \t]*[日号])?")
_ZH_MONTH_CN_RX = re.compile(
    r"[一二三四五六七八九十][一二]?月(?:份)?(?:(?P<d>[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号])?"
)
_YEAR_BEFORE_RX = re.compile(r"(?P<y>(?:19|20)\d\d)[ \t]*年[ \t]*$")
_ZH_YEAR_RX = re.compile(r"(?:19|20)\d\d[ \t]*(?:年度|财年|年)")
_EN_DATE_RX = re.compile(
    rf"(?:{_MON})(?![a-z])\.?(?:[ \t]+(?P<d>\d\d?)(?:st|nd|rd|th)?(?![\d:]|\.\d))?"
    r"(?:,?[ \t]+(?P<y>(?:19|20)\d\d)(?!\d))?"
)
_EN_DAY_MONTH_RX = re.compile(
    rf"\d(?<![\d.]\d)\d?(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?P<mon>{_MON})(?![a-z])\.?"
    r"(?:,?[ \t]+(?P<y>(?:19|20)\d\d)(?!\d))?"
)
_EN_YEAR_RX = re.compile(  # lower-cased text
    r"(?:in|since|by|during|until|till|before|after|from|of|year|fy)[ \t]*(?P<y>(?:19|20)\d\d)(?![\d\-/:]|\.\d)"
)
_QUARTER_BEFORE_RX = re.compile(
    r"(?:(?P<y>(?:19|20)\d\d)[ \t]*年?[ \t]*)?(?:第[ \t]*)?(?P<q>[一二三四1-4])[ \t]*$"
)
_HALF_BEFORE_RX = re.compile(r"(?:(?P<y>(?:19|20)\d\d)[ \t]*年?[ \t]*)?(?P<h>[上下])$")
_Q_RX = re.compile(r"[QqH][1-4]")
_YEAR_GLUED_BEFORE_RX = re.compile(r"(?P<y>(?:19|20)\d\d)[ \t]*(?:年|[-/])?[ \t]*$")
_YEAR_AFTER_RX = re.compile(r"[ \t]*(?:of[ \t]+|,[ \t]*)?(?P<y>(?:19|20)\d\d)(?!\d)")
_QUARTER_WORD_RX = re.compile(r"(?:first|second|third|fourth|1st|2nd|3rd|4th)[ \t]+quarter(?![a-z])")
_EN_NUM_WORD = "(?:" + _literals([*_EN_ONES, *_EN_SCALES]) + ")(?![a-z])"
_EN_NUM_WORDS = rf"{_EN_NUM_WORD}(?:[ \t\-]+(?:and[ \t]+)?{_EN_NUM_WORD})*"
_REL_ZH_RX = re.compile(_literals(_REL_ZH))
_REL_WEEK_ZH_RX = re.compile(r"[上下本这]个?(?:周|星期|礼拜)[一二三四五六日天1-7]?")
_LAST_N_ZH_RX = re.compile(
    rf"(?:最近|近|过去|前)[ \t]*(?P<n>\d+|{_CNUM})[ \t]*(?P<u>天|日|周|个?星期|个?月|年|个?小时|分钟)"
)
_REL_EN_RX = re.compile(  # lower-cased text
    r"(?:last|previous|prior|past|prev|this|current|next|coming|following)[ \t_\-]+(?:month|year|week|quarter|day)"
    r"(?![a-z0-9])|yesterday|today|tomorrow"
)
_LAST_N_EN_RX = re.compile(  # lower-cased text
    rf"(?:last|past|previous|recent)[ \t_\-]+(?P<n>\d+|{_EN_NUM_WORDS})[ \t_\-]+"
    r"(?P<u>days?|weeks?|months?|years?|hours?|minutes?)(?![a-z0-9])"
)
_WEEKDAY_ZH_RX = re.compile(r"(?:星期|礼拜|周)[一二三四五六日天]")
_WEEKDAY_EN_RX = re.compile(r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?(?![a-z])")
_WEEKDAY_ABBR_RX = re.compile(r"(?:Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun)\.?(?![A-Za-z])")
_CLOCK_RX = re.compile(  # lower-cased text
    r"\d\d?:[0-5]\d(?::(?P<se>[0-5]\d))?(?![\d:])(?:[ \t]*(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z]))?"
)
_AMPM_RX = re.compile(r"\d\d?[ \t]*(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z])")  # lower-cased text
_ZH_CLOCK_RX = re.compile(
    r"[\d一二两三四五六七八九十][\d一二两三四五六七八九十]?[ \t]*[点时]"
    r"(?:[ \t]*(?P<mi>\d\d?|[一二三四五六七八九十]{1,3})[ \t]*分|(?P<half>半)|(?P<qt>一刻|三刻)|(?P<z>整|钟))?"
)
_DAYPART_BEFORE_RX = re.compile(r"(?P<p>凌晨|早上|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|深夜)[ \t]*$")

# --------------------------------------------------------------------------- versions

_PRODUCT_RX = re.compile(_literals(_PRODUCTS).replace(r"[ \t]+", r"[ \t]?"))  # lower-cased text
_PRODUCT_VERSION_RX = re.compile(
    "(?:"
    + _literals(_PRODUCTS).replace(r"[ \t]+", r"[ \t]?")
    + r")[ \t/]?[ \t]*(?:version[ \t]*|ver\.?[ \t]*)?v?(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
)
_VERSION_KW_RX = re.compile(  # lower-cased text
    r"(?:version|ver\.|release|rev\.|版本号|版本)[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*v?(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
)
_V_VERSION_RX = re.compile(r"v(?P<ver>\d+(?:\.\d+){0,3})(?![a-z0-9_]|\.\d)")  # lower-cased text
_SEMVER_RX = re.compile(r"\d(?<![A-Za-z0-9_.\-/]\d)\d*\.\d+\.\d+(?:\.\d+)?(?![A-Za-z0-9_]|\.\d)")

# --------------------------------------------------------------------------- comparators

#: Every prefix cue, lower-cased: (comparator, only before dates).
_CUES: dict[str, tuple[Comparator, bool]] = {
    **{c: (op, False) for c, op in _CMP_PREFIX.items()},
    **{c: (op, True) for c, op in _CMP_PREFIX_DATE.items() if c not in _CMP_PREFIX},
}
_CUE_RX = re.compile(_literals(_CUES))  # lower-cased text
_FILLER_RX = re.compile(
    r"[ \t]*(?:为|是|在|达到|达|到|(?:of|to|is|be|its|the|their|our|this|that|an|a)(?![a-z])|[:=])?[ \t]*"
)
_POSTFIX_RX = re.compile(  # lower-cased text
    r"[ \t]*(?:" + _literals([*_CMP_POSTFIX, *_CMP_POSTFIX_DATE, "内"]) + ")"
)
_SYMBOL_NEIGHBOURS = frozenset("-=<>")

# --------------------------------------------------------------------------- negation

_NEG_EN_RX = re.compile(  # lower-cased text
    r"no[ \t]+longer|instead[ \t]+of|rather[ \t]+than|nothing|nobody|nowhere|neither|never|none|not|nor|no"
    r"|without|cannot"
)
_NT_RX = re.compile(r"n['’]t(?![a-z])")  # lower-cased text: don't, isn't, can’t
_NEG_EXCEPTION_ZH_RX = re.compile(
    _literals(
        [
            *_NEG_ZH_EXCEPTIONS,
            *(c for c in _CMP_PREFIX if not c[0].isascii() and re.search("不|未|没", c)),
            *(c for c in _CMP_PREFIX_DATE if not c[0].isascii() and re.search("不|未|没", c)),
        ]
    ).replace("不少", "不少(?!于)")
)
_NEG_EXCEPTION_EN_RX = re.compile(  # lower-cased text
    _literals(
        [
            *_NEG_EN_EXCEPTIONS,
            *(
                c
                for c in [*_CMP_PREFIX, *_CMP_PREFIX_DATE]
                if c[0].isascii() and re.search(r"\bno\b|\bnot\b|n't|cannot", c)
            ),
        ]
    )
    + r"|no\.[ \t]*\d"
)
_PARTICLE_AFTER = frozenset(".,!;:，。！；：—-")
_SENTENCE_END_CHARS = frozenset(".!?。！？\n")

# --------------------------------------------------------------------------- quantities

_NUMBER_RX = re.compile(
    r"(?P<num>\d(?<![A-Za-z0-9_.]\d)(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?)"
    r"(?P<mult>[ \t]?(?:千万|百万|万(?!一)|亿|千(?![米克瓦字])|百(?!分))"
    r"|[ \t]?(?:[Tt]housand|[Mm]illion|[Bb]illion)(?![A-Za-z]))?"
    r"(?P<approx>多|余)?"
    r"(?:(?P<sp>[ \t])?(?P<unit>%|‰|°[Cc]|[µμ]s|[A-Za-z]+(?:/[A-Za-z]+)?(?:[ \t][A-Za-z]+)?"
    r"|[\u4e00-\u9fff]{1,4}(?:/[\u4e00-\u9fff])?))?"
)
_CUR_BEFORE_RX = re.compile(r"(?:US\$|HK\$|[¥$€£]|USD|RMB|CNY|EUR|GBP|JPY|HKD|人民币|美元)[ \t]?$")
_CN_NUMBER_RX = re.compile(
    r"[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*"
    r"(?:(?P<sep>[到至~\-])(?P<b>[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*))?"
    r"(?P<unit>[\u4e00-\u9fff]{1,4})?"
)
_CN_BEFORE_STOP = frozenset("零〇一二两三四五六七八九十百千万亿第几每")
_EN_NUMBER_RX = re.compile(rf"{_EN_NUM_WORDS}(?:[ \t]+(?P<next>[a-z]+(?:[ \t][a-z]+)?))?")  # lower-cased text
_RANGE_GAP_RX = re.compile(
    r"[ \t]*(?:\((?:含|包含|不含|inclusive|exclusive)\))?[ \t]*(?P<sep>-|~|〜|—|–|到|至|to)[ \t]*"
    r"(?:US\$|HK\$|[¥$€£]|USD|RMB|CNY|EUR|GBP|JPY|HKD)?[ \t]?"
)
_BETWEEN_GAP_RX = re.compile(r"[ \t]+and[ \t]+(?:US\$|HK\$|[¥$€£])?")
_BETWEEN_TAIL_RX = re.compile(r"[ \t]*之间")
_COMPOUND_GAP_RX = re.compile(r"[ \t,]*(?:and[ \t]+|零)?[ \t]*")
_GLUED_DURATION_RX = re.compile(
    r"\d(?<![A-Za-z0-9_.]\d)\d*(?:d\d+h|h\d+m|m\d+s)(?:\d+[hms])*(?![A-Za-z0-9_])"
)
_GLUED_PART_RX = re.compile(r"(\d+)([dhms])")

_YI = frozenset("以")
_CURRENCY_LAST = frozenset("$¥€£DBYRPK币元")


def _rec_order(r: _Rec) -> tuple[int, int]:
    return r.s, r.e


_DUR_SECONDS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}
_DIGITS_DOT = frozenset("0123456789.")
_DATE_GLUE = frozenset("0123456789.-/")
_CN_MONTH_BEFORE = frozenset("零〇一二两三四五六七八九十个几每上下本这当")
_CN_WEEK_BEFORE = frozenset("0123456789零〇一二两三四五六七八九十几")
_CLOCK_BEFORE_NT = frozenset("ABCDEFGHIJKLMNOPQRSUVWXYZabcdefghijklmnopqrsuvwxyz0123456789_:.")
_V_BEFORE_NT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-")
_EN_WORD_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")
_CUE_END_RX = re.compile("(?:" + _literals(_CUES) + r")[ \t]*$")  # lower-cased text
_STRONG_CUES = frozenset(c for c in _CMP_PREFIX if c not in _WEAK_CMP)


def _postfix_op(cue: str, rec: _Rec, nxt: str) -> Comparator | None:
    """The comparator of a cue written after a value (`5000元以上`, `3天内`, `3月15日前`)."""
    cue = re.sub(r"[ \t]+", " ", cue)
    if cue[-1] in _ALPHA_CHARS and nxt in _ALPHA_CHARS:
        return None
    if rec.kind in _DATE_KINDS:
        if cue == "前" and nxt in {"端", "台", "面"}:
            return None
        return _CMP_POSTFIX_DATE.get(cue) or _CMP_POSTFIX.get(cue)
    if cue == "内":
        return (
            "<=" if rec.kind == "duration" or (rec.kind == "range" and rec.qualifier == "duration") else None
        )
    return _CMP_POSTFIX.get(cue)


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


class _OffsetMap:
    """Folded-text offset → original offset, when NFKC changed the length (`…` → `...`, `㎡` → `m2`).

    Sparse: only the characters whose fold is not one character are stored, so a long context costs
    memory per such character, not a Python int per character.
    """

    __slots__ = ("extras", "lens", "origs", "size", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        """Folded offset where each expanded character's fold begins."""
        self.origs: list[int] = []
        self.lens: list[int] = []
        self.extras: list[int] = []
        """Folded characters gained up to and including each expanded character."""
        self.size = 0
        """Length of the folded text."""

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, p: int) -> int:
        k = bisect_right(self.starts, p) - 1
        if k < 0:
            return p
        if p < self.starts[k] + self.lens[k]:
            return self.origs[k]
        return p - self.extras[k]


def _fold(text: str) -> tuple[str, _OffsetMap | None]:
    """NFKC-fold `text`; return the folded text and, when lengths differ, a map to original offsets."""
    if text.isascii():
        return text, None
    folded = unicodedata.normalize("NFKC", text)
    if len(folded) == len(text):
        return folded, None
    chars: list[str] = []
    offsets = _OffsetMap()
    position = extra = 0
    for i, ch in enumerate(text):
        piece = unicodedata.normalize("NFKC", ch)
        chars.append(piece)
        if len(piece) != 1:
            extra += len(piece) - 1
            offsets.starts.append(position)
            offsets.origs.append(i)
            offsets.lens.append(len(piece))
            offsets.extras.append(extra)
        position += len(piece)
    offsets.size = position
    return "".join(chars), offsets


class _Tok:
    """A number found by `_NUMBER_RX`, before ranges and compound durations are assembled."""

    __slots__ = ("currency", "e", "mult", "ns", "num", "raw_unit", "s", "unit_text")

    def __init__(
        self,
        s: int,
        ns: int,
        e: int,
        num: float,
        mult: str | None,
        unit_text: str | None,
        currency: str | None,
        raw_unit: str | None,
    ) -> None:
        self.s = s
        self.ns = ns
        self.e = e
        self.num = num
        self.mult = mult
        self.unit_text = unit_text
        self.currency = currency
        self.raw_unit = raw_unit


class _Extractor:
    __slots__ = ("lt", "mask", "nt", "offsets", "recs", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.nt, self.offsets = _fold(text)
        lower = self.nt.lower()
        if len(lower) != len(self.nt):
            lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.nt)
        self.lt = lower
        self.mask = bytearray(len(self.nt))
        self.recs: list[_Rec] = []

    # ------------------------------------------------------------------ bookkeeping

    def free(self, s: int, e: int) -> bool:
        return self.mask.find(1, s, e) < 0

    def add(self, rec: _Rec) -> None:
        self.recs.append(rec)
        self.mask[rec.s : rec.e] = b"\x01" * (rec.e - rec.s)

    def left_ok(self, s: int, forbidden: frozenset[str]) -> bool:
        """The character before `s` is not one of `forbidden` (a look-behind done in Python)."""
        return s == 0 or self.nt[s - 1] not in forbidden

    def word_ok(self, s: int, e: int) -> bool:
        """`[s, e)` is a whole ASCII word: no letter glued on either side."""
        return (s == 0 or self.lt[s - 1] not in _ALPHA_CHARS) and (
            e >= len(self.lt) or self.lt[e] not in _ALPHA_CHARS
        )

    def _orig(self, s: int, e: int) -> tuple[int, int]:
        if self.offsets is None:
            return s, e
        if e <= s:
            o = self.offsets[s] if s < len(self.offsets) else len(self.text)
            return o, o
        return self.offsets[s], self.offsets[e - 1] + 1

    def build(self) -> Mentions:
        self.recs.sort(key=_rec_order)
        text = self.text
        items = []
        for r in self.recs:
            s, e = (r.s, r.e) if self.offsets is None else self._orig(r.s, r.e)
            items.append(
                Mention(
                    r.kind,
                    r.value,
                    text[s:e],
                    s,
                    e,
                    r.unit,
                    r.surface,
                    r.raw,
                    r.comparator,
                    r.spelled,
                    r.qualifier,
                )
            )
        return Mentions(text, tuple(items))

    def run(self) -> Mentions:
        nt = self.nt
        digit = _DIGIT_RX.search(nt) is not None
        alpha = _ALPHA_RX.search(nt) is not None
        if digit or alpha:
            self.identifiers_early(digit)
        self.dates(digit, alpha)
        if alpha or "码" in nt:
            self.codes(digit)
        if digit:
            self.versions(alpha)
        if alpha:
            self.names()
        self.quantities(digit, alpha)
        self.comparators()
        self.negations(alpha)
        return self.build()

    # ------------------------------------------------------------------ identifiers

    def identifiers_early(self, digit: bool) -> None:
        nt, lt = self.nt, self.lt
        if "://" in lt:
            for m in _URL_RX.finditer(lt):
                s, e = m.start(), m.end()
                while e > s and nt[e - 1] in ".,;:!?":
                    e -= 1
                if self.left_ok(s, _ALPHA_CHARS) and self.free(s, e):
                    self.add(_Rec("identifier", nt[s:e], s, e, qualifier="url"))
        if digit:
            if "-" in nt:
                for m in _UUID_RX.finditer(lt):
                    if self.free(*m.span()):
                        self.add(
                            _Rec(
                                "identifier",
                                nt[m.start() : m.end()],
                                m.start(),
                                m.end(),
                                qualifier="trace_id",
                            )
                        )
            if nt.count(".") >= 3:
                for m in _IP_RX.finditer(nt):
                    octets = m.group().split(":")[0].split(".")
                    if all(int(o) <= 255 for o in octets) and self.free(*m.span()):
                        self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="ip"))
            if "0x" in lt:
                for m in _HEX_RX.finditer(lt):
                    if self.free(*m.span()):
                        self.add(
                            _Rec(
                                "identifier",
                                nt[m.start() : m.end()],
                                m.start(),
                                m.end(),
                                qualifier="error_code",
                            )
                        )
            for m in _TRACE_RX.finditer(lt):
                word = m.group()
                if not word.isdigit() and any(c.isdigit() for c in word) and self.free(*m.span()):
                    self.add(
                        _Rec("identifier", nt[m.start() : m.end()], m.start(), m.end(), qualifier="trace_id")
                    )
            for m in _LONG_ID_RX.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="id"))
        if "/" in nt:
            for m in _PATH_RX.finditer(nt):
                path = m.group().rstrip(".")
                s = m.start()
                if not self.left_ok(s, _PATH_BEFORE) or not any(c.isalpha() for c in path):
                    continue
                if path.count("/") == 1 and len(path) < 3:
                    continue
                method = _METHOD_BEFORE_RX.search(nt, max(0, s - 10), s)
                start = method.start() if method is not None else s
                if self.free(start, s + len(path)):
                    value = f"{method.group().strip()} {path}" if method is not None else path
                    self.add(_Rec("identifier", value, start, s + len(path), qualifier="path"))
            if "." in nt:
                for m in _FILE_RX.finditer(nt):
                    if self.free(*m.span()):
                        self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="path"))

    # ------------------------------------------------------------------ dates

    def dates(self, digit: bool, alpha: bool) -> None:
        nt, lt = self.nt, self.lt
        for m in _REL_ZH_RX.finditer(nt):
            if self.left_ok(m.start(), _YI) and self.free(*m.span()):
                unit, offset = _REL_ZH[m.group()]
                self.add(_Rec("period", f"relative:{unit}:{offset:+d}", m.start(), m.end()))
        if "周" in nt or "星期" in nt or "礼拜" in nt:
            for m in _REL_WEEK_ZH_RX.finditer(nt):
                word = m.group()
                if not self.left_ok(m.start(), _YI) or not self.free(*m.span()):
                    continue
                offset = _REL_WEEK_ZH[word[0]]
                value = f"relative:week:{offset:+d}"
                last = word[-1]
                if last in _WEEKDAY_ZH or last.isdigit():
                    value += f":weekday:{_WEEKDAY_ZH.get(last) or int(last)}"
                self.add(_Rec("period", value, m.start(), m.end()))
        for m in _LAST_N_ZH_RX.finditer(nt):
            parsed = _parse_number(m.group("n"))
            if parsed is not None and self.free(*m.span()):
                self.add(_Rec("period", _last_n(parsed[0], _LAST_UNIT[m.group("u")]), m.start(), m.end()))
        if alpha:
            for m in _LAST_N_EN_RX.finditer(lt):
                n_text = m.group("n")
                n = float(n_text) if n_text.isdigit() else _parse_en_words(n_text)
                if n is not None and self.word_ok(m.start(), m.end()) and self.free(*m.span()):
                    self.add(_Rec("period", _last_n(n, m.group("u").rstrip("s")), m.start(), m.end()))
            for m in _REL_EN_RX.finditer(lt):
                if not self.word_ok(m.start(), m.end()) or not self.left_ok(m.start(), _WORD_CHARS):
                    continue
                words = re.split(r"[ \t_\-]+", m.group())
                if len(words) == 1:
                    value = f"relative:day:{_REL_DAY_EN[words[0]]:+d}"
                else:
                    value = f"relative:{words[-1]}:{_REL_EN[words[0]]:+d}"
                if self.free(*m.span()):
                    self.add(_Rec("period", value, m.start(), m.end()))
        self._quarters(alpha)
        if digit:
            self._numeric_dates(alpha)
        if "月" in nt and _CN_DIGIT_RX.search(nt):
            for m in _ZH_MONTH_CN_RX.finditer(nt):
                if not self.left_ok(m.start(), _CN_MONTH_BEFORE):
                    continue
                head = m.group().split("月")[0]
                month = _parse_cn(head)
                day = _parse_cn(m.group("d")) if m.group("d") else None
                if month is not None:
                    s = self._year_before(m.start())
                    year = nt[s : s + 4] if s < m.start() else None
                    self._ymd(s, m.end(), year, str(int(month)), str(int(day)) if day is not None else None)
        if "星期" in nt or "礼拜" in nt or "周" in nt:
            for m in _WEEKDAY_ZH_RX.finditer(nt):
                if self.left_ok(m.start(), _CN_WEEK_BEFORE) and self.free(*m.span()):
                    self.add(_Rec("date", f"weekday:{_WEEKDAY_ZH[m.group()[-1]]}", m.start(), m.end()))
        if alpha:
            if "day" in lt:
                for m in _WEEKDAY_EN_RX.finditer(lt):
                    if self.left_ok(m.start(), _ALPHA_CHARS) and self.free(*m.span()):
                        day = _WEEKDAY_EN[m.group().rstrip("s")]
                        self.add(_Rec("date", f"weekday:{day}", m.start(), m.end()))
            for m in _WEEKDAY_ABBR_RX.finditer(nt):
                if self.left_ok(m.start(), _ALPHA_CHARS) and self.free(*m.span()):
                    day = _WEEKDAY_ABBR[m.group().rstrip(".")]
                    self.add(_Rec("date", f"weekday:{day}", m.start(), m.end()))
        self._times(digit)

    def _year_before(self, s: int) -> int:
        """Start of a `2026年` glued before position `s`, or `s`."""
        ym = _YEAR_BEFORE_RX.search(self.nt, max(0, s - 8), s)
        if ym is not None and self.left_ok(ym.start(), _DIGITS_DOT) and self.free(ym.start(), s):
            return ym.start()
        return s

    def _quarters(self, alpha: bool) -> None:
        nt, lt = self.nt, self.lt
        if "季度" in nt:
            for m in re.finditer("季度", nt):
                qm = _QUARTER_BEFORE_RX.search(nt, max(0, m.start() - 12), m.start())
                if qm is None or not self.left_ok(qm.start(), _DIGITS_DOT):
                    continue
                q = int(qm.group("q")) if qm.group("q").isdigit() else int(_parse_cn(qm.group("q")) or 0)
                self._period_value(qm.start(), m.end(), qm.group("y"), f"Q{q}")
        if "半年" in nt:
            for m in re.finditer("半年", nt):
                hm = _HALF_BEFORE_RX.search(nt, max(0, m.start() - 8), m.start())
                if hm is not None:
                    self._period_value(
                        hm.start(), m.end(), hm.group("y"), "H1" if hm.group("h") == "上" else "H2"
                    )
        if not alpha:
            return
        for m in _Q_RX.finditer(nt):
            s, e = m.span()
            if e < len(nt) and nt[e] in _WORD_CHARS:
                continue
            year = None
            if s > 0 and nt[s - 1] in _WORD_CHARS and not nt[s - 1].isdigit():
                continue
            yb = _YEAR_GLUED_BEFORE_RX.search(nt, max(0, s - 7), s)
            if yb is not None and self.left_ok(yb.start(), _DIGITS_DOT):
                year, s = yb.group("y"), yb.start()
            elif s > 0 and nt[s - 1].isdigit():
                continue
            ya = _YEAR_AFTER_RX.match(lt, e)
            if year is None and ya is not None:
                year, e = ya.group("y"), ya.end()
            kind = "H" if m.group()[0] == "H" else "Q"
            self._period_value(s, e, year, f"{kind}{m.group()[1]}")
        if "quarter" in lt:
            for m in _QUARTER_WORD_RX.finditer(lt):
                if not self.left_ok(m.start(), _ALPHA_CHARS):
                    continue
                e = m.end()
                ya = _YEAR_AFTER_RX.match(lt, e)
                year = ya.group("y") if ya is not None else None
                if ya is not None:
                    e = ya.end()
                self._period_value(m.start(), e, year, f"Q{_QUARTER_WORDS[m.group().split()[0]]}")

    def _period_value(self, s: int, e: int, year: str | None, value: str) -> None:
        if self.free(s, e):
            self.add(_Rec("date", f"{year}-{value}" if year else value, s, e))

    def _numeric_dates(self, alpha: bool) -> None:
        nt, lt = self.nt, self.lt
        if "-" in nt or "/" in nt or "." in nt:
            for m in _ISO_DATE_RX.finditer(nt):
                if self.left_ok(m.start(), _DIGITS_DOT):
                    self._ymd(m.start(), m.end(), nt[m.start() : m.start() + 4], m.group("m"), m.group("d"))
            if "/" in nt:
                for m in _US_DATE_RX.finditer(nt):
                    a, b, y = m.group().split("/")
                    month, day = (b, a) if int(a) > 12 else (a, b)
                    self._ymd(m.start(), m.end(), y, month, day)
            for m in _YEAR_MONTH_RX.finditer(nt):
                if self.left_ok(m.start(), _DATE_GLUE):
                    self._ymd(m.start(), m.end(), nt[m.start() : m.start() + 4], m.group("m"), None)
        if "月" in nt:
            for m in _ZH_MONTH_RX.finditer(nt):
                s = self._year_before(m.start())
                year = nt[s : s + 4] if s < m.start() else None
                month = m.group().split("月")[0].strip()
                self._ymd(s, m.end(), year, month, m.group("d"))
        if "年" in nt:
            for m in _ZH_YEAR_RX.finditer(nt):
                if self.left_ok(m.start(), _DIGITS_DOT):
                    self._ymd(m.start(), m.end(), nt[m.start() : m.start() + 4], None, None)
        if alpha:
            if _MON_GATE_RX.search(nt):
                for m in _EN_DAY_MONTH_RX.finditer(nt):
                    day_digits = re.match(r"\d+", m.group())
                    if day_digits is not None:
                        mon = m.group("mon")
                        self._ymd(
                            m.start(), m.end(), m.group("y"), str(_MONTHS[mon.lower()]), day_digits.group()
                        )
                for m in _EN_DATE_RX.finditer(nt):
                    if not self.left_ok(m.start(), _ALPHA_CHARS):
                        continue
                    name = _MONTH_NAME_RX.match(m.group())
                    mon = name.group() if name is not None else ""
                    if not (m.group("d") or m.group("y")) and (len(mon) <= 4 or mon == "May"):
                        continue  # a bare `Mar` or `May` is too ambiguous
                    self._ymd(m.start(), m.end(), m.group("y"), str(_MONTHS[mon.lower()]), m.group("d"))
            for m in _EN_YEAR_RX.finditer(lt):
                if self.left_ok(m.start(), _ALPHA_CHARS):
                    self._ymd(m.start("y"), m.end("y"), m.group("y"), None, None)

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

    def _times(self, digit: bool) -> None:
        nt, lt = self.nt, self.lt
        if digit and ":" in nt:
            for m in _CLOCK_RX.finditer(lt):
                if not self.left_ok(m.start(), _CLOCK_BEFORE_NT) or not self.free(*m.span()):
                    continue
                hour_text, minute_text = m.group().split(":")[:2]
                self._clock(
                    m.start(), m.end(), int(hour_text), int(minute_text[:2]), m.group("se"), m.group("ap")
                )
        if digit and ("am" in lt or "pm" in lt or "a.m" in lt or "p.m" in lt):
            for m in _AMPM_RX.finditer(lt):
                if self.left_ok(m.start(), _CLOCK_BEFORE_NT) and self.free(*m.span()):
                    hour = int(re.match(r"\d+", m.group()).group())  # type: ignore[union-attr]
                    if 1 <= hour <= 12:
                        self._clock(m.start(), m.end(), hour, 0, None, m.group("ap"))
        if "点" in nt or "时" in nt:
            for m in _ZH_CLOCK_RX.finditer(nt):
                if not self.left_ok(m.start(), _DIGITS_DOT):
                    continue
                head = re.match(r"[\d一二两三四五六七八九十]+", m.group())
                part = _DAYPART_BEFORE_RX.search(nt, max(0, m.start() - 4), m.start())
                if head is None or not (
                    part or m.group("mi") or m.group("half") or m.group("qt") or m.group("z")
                ):
                    continue
                parsed = _parse_number(head.group())
                if parsed is None:
                    continue
                hour = int(parsed[0])
                minute = 0
                if m.group("mi"):
                    mp = _parse_number(m.group("mi"))
                    minute = int(mp[0]) if mp else 0
                elif m.group("half"):
                    minute = 30
                elif m.group("qt"):
                    minute = 15 if m.group("qt") == "一刻" else 45
                daypart = part.group("p") if part is not None else None
                ap = "pm" if daypart in _PM_PREFIXES or (daypart == "中午" and hour < 11) else None
                self._clock(part.start() if part is not None else m.start(), m.end(), hour, minute, None, ap)

    def _clock(self, s: int, e: int, hour: int, minute: int, second: str | None, ap: str | None) -> None:
        if ap:
            pm = ap.startswith("p")
            if pm and hour < 12:
                hour += 12
            elif not pm and hour == 12:
                hour = 0
        if not (0 <= hour <= 24 and 0 <= minute <= 59) or not self.free(s, e):
            return
        value = f"{hour:02d}:{minute:02d}"
        if second and int(second):
            value += f":{int(second):02d}"
        self.add(_Rec("time", value, s, e))

    # ------------------------------------------------------------------ codes, versions, names

    def codes(self, digit: bool) -> None:
        nt, lt = self.nt, self.lt
        if digit:
            if "http" in lt or "状态码" in nt or "status" in lt:
                for m in _HTTP_STATUS_RX.finditer(lt):
                    if self.left_ok(m.start(), _ALPHA_CHARS) and self.free(*m.span()):
                        code = m.group()[-3:]
                        self.add(
                            _Rec("identifier", f"HTTP {code}", m.start(), m.end(), qualifier="http_status")
                        )
            for m in _HTTP_PHRASE_RX.finditer(lt):
                if self.free(*m.span()):
                    code = m.group()[:3]
                    self.add(_Rec("identifier", f"HTTP {code}", m.start(), m.end(), qualifier="http_status"))
        if "码" in nt or "err" in lt:
            for m in _ERRCODE_KW_RX.finditer(lt):
                s, e = m.span("code")
                if self.left_ok(m.start(), _ALPHA_CHARS) and self.free(s, e):
                    self.add(_Rec("identifier", nt[s:e], s, e, qualifier="error_code"))
        patterns: list[re.Pattern[str]] = []
        if "_" in nt:
            patterns.append(_SCREAMING_RX)
        if "-" in nt:
            patterns.extend((_DASHCODE_RX, _CAPS_DASH_RX))
        if digit:
            patterns.append(_LETTERCODE_RX)
        for rx in patterns:
            for m in rx.finditer(nt):
                if m.group() not in _NOT_CODES and self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="error_code"))

    def versions(self, alpha: bool) -> None:
        nt, lt = self.nt, self.lt
        if alpha:
            for m in _PRODUCT_VERSION_RX.finditer(lt):
                if not self.left_ok(m.start(), _V_BEFORE_NT) or not self.free(*m.span()):
                    continue
                product = _PRODUCT_RX.match(lt, m.start())
                if product is None:
                    continue
                name = _PRODUCTS.get(re.sub(r"[ \t]+", " ", product.group()))
                if name is None:
                    name = _PRODUCTS.get(product.group().replace(" ", "").replace("\t", ""))
                self.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end(), qualifier=name))
        if "版本" in nt or alpha:
            for m in _VERSION_KW_RX.finditer(lt):
                if self.left_ok(m.start(), _ALPHA_CHARS) and self.free(*m.span()):
                    self.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end()))
        if "v" in lt:
            for m in _V_VERSION_RX.finditer(lt):
                if self.left_ok(m.start(), _V_BEFORE_NT) and self.free(*m.span()):
                    self.add(_Rec("version", _norm_version(m.group("ver")), m.start(), m.end()))
        if nt.count(".") >= 2:
            for m in _SEMVER_RX.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("version", _norm_version(m.group()), m.start(), m.end()))

    def names(self) -> None:
        nt = self.nt
        if "." in nt:
            for m in _DOTTED_RX.finditer(nt):
                word = m.group()
                parts = word.split(".")
                if (
                    word.lower() in _NOT_IDENTIFIERS
                    or all(len(p) <= 1 for p in parts)
                    or not self.free(*m.span())
                ):
                    continue
                tld = parts[-1].lower() in {"com", "net", "org", "io", "cn", "local", "internal"}
                self.add(
                    _Rec("identifier", word, m.start(), m.end(), qualifier="host" if tld else "config_key")
                )
        if "_" in nt:
            for m in _SNAKE_RX.finditer(nt):
                if self.free(*m.span()):
                    self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="config_key"))
        if _CAMEL_GATE_RX.search(nt):
            for rx in (_CAMEL_RX, _PASCAL_RX):
                for m in rx.finditer(nt):
                    if m.group().lower() not in _NOT_IDENTIFIERS and self.free(*m.span()):
                        self.add(_Rec("identifier", m.group(), m.start(), m.end(), qualifier="service"))
        if "-" in nt:
            for m in _KEBAB_RX.finditer(nt):
                word = m.group()
                if not any(c.isdigit() for c in word) and any(
                    p in _KEBAB_STOP_PARTS for p in word.split("-")
                ):
                    continue
                if self.free(*m.span()):
                    self.add(_Rec("identifier", word, m.start(), m.end(), qualifier="service"))

    # ------------------------------------------------------------------ quantities

    def quantities(self, digit: bool, alpha: bool) -> None:
        nt = self.nt
        if "百分之" in nt or "千分之" in nt:
            for m in _CN_PERCENT_RX.finditer(nt):
                parsed = _parse_number(m.group("num"))
                if parsed is None or not self.free(*m.span()):
                    continue
                value = parsed[0] * (0.1 if m.group("k") == "千分之" else 1.0)
                self.add(
                    _Rec(
                        "percent",
                        value,
                        m.start(),
                        m.end(),
                        unit="%",
                        surface="%",
                        raw=value,
                        spelled=parsed[1],
                    )
                )
        if "半" in nt:
            for m in _CN_HALF_RX.finditer(nt):
                self._half(m)
        if digit:
            if alpha:
                for m in _GLUED_DURATION_RX.finditer(nt):  # 2h30m, 1m30s
                    total = sum(float(n) * _DUR_SECONDS[u] for n, u in _GLUED_PART_RX.findall(m.group()))
                    if self.free(*m.span()):
                        self.add(
                            _Rec("duration", total, m.start(), m.end(), unit="s", surface="s", raw=total)
                        )
            tokens = [t for t in (self._token(m) for m in _NUMBER_RX.finditer(nt)) if t is not None]
            self._assemble(tokens)
        if _CN_DIGIT_RX.search(nt):
            for m in _CN_NUMBER_RX.finditer(nt):
                self._cn_number(m)
        if alpha:
            for m in _EN_NUMBER_RX.finditer(self.lt):
                self._en_number(m)

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

    def _token(self, m: re.Match[str]) -> _Tok | None:
        nt = self.nt
        ns, ne = m.span("num")
        if not self.free(ns, ne):
            return None
        end = m.end("approx") if m.group("approx") else (m.end("mult") if m.group("mult") else ne)
        s = ns
        currency = None
        cm = _CUR_BEFORE_RX.search(nt, max(0, ns - 5), ns) if ns and nt[ns - 1] in _CURRENCY_LAST else None
        if cm is None and ns > 1 and nt[ns - 1] == " " and nt[ns - 2] in _CURRENCY_LAST:
            cm = _CUR_BEFORE_RX.search(nt, max(0, ns - 5), ns)
        if cm is not None and self.free(cm.start(), ns):
            code = cm.group().strip()
            if not (code[0] in _ALPHA_CHARS and not self.left_ok(cm.start(), _ALPHA_CHARS)):
                currency, s = _CURRENCY_PREFIX[code], cm.start()
        unit_text = None
        raw_unit = m.group("unit")
        if raw_unit:
            us = m.start("unit")
            resolved = _resolve_unit(
                raw_unit, m.group("sp") is not None, nt[m.end("unit") : m.end("unit") + 2]
            )
            if resolved is not None and self.free(us, us + resolved[0]):
                unit_text, end = raw_unit[: resolved[0]], us + resolved[0]
        return _Tok(
            s, ns, end, float(m.group("num").replace(",", "")), m.group("mult"), unit_text, currency, raw_unit
        )

    def _assemble(self, tokens: list[_Tok]) -> None:
        """Compound durations (`2 hours 7 minutes`), ranges (`3-5天`, `between 3 and 5 days`), then singles."""
        i = 0
        while i < len(tokens):
            j = self._compound(tokens, i)
            if j > i + 1:
                i = j
                continue
            if i + 1 < len(tokens) and self._range(tokens[i], tokens[i + 1]):
                i += 2
                continue
            self._single(tokens[i])
            i += 1

    def _part_seconds(self, tok: _Tok) -> tuple[float, int] | None:
        """(seconds per unit, end) of a token that can be part of a compound duration."""
        unit = _lookup_unit(tok.unit_text)
        if unit is not None and unit.kind == "duration" and unit.base == "s":
            return unit.factor, tok.e
        if tok.unit_text is None and tok.raw_unit and tok.raw_unit.startswith("分") and not tok.mult:
            return 60.0, tok.ns + len(self.nt[tok.ns : tok.e].rstrip()) + 1  # `1分30秒`: 分 is minutes here
        return None

    def _compound(self, tokens: list[_Tok], i: int) -> int:
        parts: list[tuple[_Tok, float, int]] = []
        j = i
        previous = float("inf")
        while j < len(tokens):
            info = self._part_seconds(tokens[j])
            if info is None or info[0] >= previous:
                break
            if parts:
                gap = self.nt[parts[-1][2] : tokens[j].s]
                if not _COMPOUND_GAP_RX.fullmatch(gap):
                    break
            parts.append((tokens[j], info[0], info[1]))
            previous = info[0]
            j += 1
        if len(parts) < 2 or not any(t.unit_text for t, _, _ in parts):
            return i
        s, e = parts[0][0].s, parts[-1][2]
        if not self.free(s, e):
            return i
        total = sum(t.num * factor for t, factor, _ in parts)
        self.add(_Rec("duration", total, s, e, unit="s", surface="s", raw=total))
        return j

    def _range(self, a: _Tok, b: _Tok) -> bool:
        nt, lt = self.nt, self.lt
        gap = nt[a.e : b.s]
        start, end = a.s, b.e
        g = _RANGE_GAP_RX.fullmatch(lt, a.e, b.s)
        if g is None:
            before = lt[max(0, a.s - 9) : a.s].rstrip()
            if _BETWEEN_GAP_RX.fullmatch(lt, a.e, b.s) and before.endswith("between"):
                start = a.s - (len(lt[max(0, a.s - 9) : a.s]) - len(before)) - len("between")
            elif gap.strip() in {"和", "与", "到", "至"} and nt[max(0, a.s - 3) : a.s].strip().endswith(
                "介于"
            ):
                start = nt.rfind("介于", 0, a.s)
                tail = _BETWEEN_TAIL_RX.match(nt, b.e)
                if tail is None:
                    return False
                end = tail.end()
            else:
                return False
            sep = "and"
        else:
            sep = g.group("sep")
            if sep == "to" and not self.word_ok(a.e + gap.index("to"), a.e + gap.index("to") + 2):
                return False
        ua, ub = _lookup_unit(a.unit_text), _lookup_unit(b.unit_text)
        if ua is not None and ub is not None and ua.kind != ub.kind:
            return False
        unit_text = b.unit_text or a.unit_text
        decimal = "." in nt[a.ns : a.e] or "." in nt[b.ns : b.e]
        if sep in "-–—" and not unit_text and not (a.currency or b.currency) and decimal:
            return False
        currency = a.currency or b.currency
        mult_a = a.mult or (b.mult if not a.unit_text else None)
        qa = _quantity(a.num, mult_a, a.unit_text or unit_text, currency)
        qb = _quantity(b.num, b.mult, unit_text, currency)
        if qa is None or qb is None or qa.kind != qb.kind or qa.unit != qb.unit or qa.value >= qb.value:
            return False
        if not self.free(start, end):
            return False
        self.add(
            _Rec(
                "range", (qa.value, qb.value), start, end, unit=qa.unit, surface=qb.surface, qualifier=qa.kind
            )
        )
        return True

    def _single(self, t: _Tok) -> None:
        nt = self.nt
        if not self.free(t.s, t.e):
            return
        before = nt[max(0, t.ns - 12) : t.ns]
        if before.rstrip().endswith("第"):
            return  # 第3次: an ordinal
        if t.unit_text is None and t.mult is None and t.currency is None:
            if _ORDINAL_BEFORE_RX.search(before):
                return
            line_start = nt.rfind("\n", 0, t.ns) + 1
            if not nt[line_start : t.ns].strip(" \t(") and _LIST_MARKER_AFTER_RX.match(nt, t.e):
                return  # `1. Restart the service`: a list number
        q = _quantity(t.num, t.mult, t.unit_text, t.currency)
        if q is not None:
            self.add(_Rec(q.kind, q.value, t.s, t.e, unit=q.unit, surface=q.surface, raw=q.raw))

    def _cn_number(self, m: re.Match[str]) -> None:
        nt = self.nt
        s = m.start()
        if not self.left_ok(s, _CN_BEFORE_STOP):
            return
        raw_unit = m.group("unit")
        if not raw_unit:
            return
        number_end = m.start("unit")
        resolved = _resolve_unit(raw_unit, False, nt[m.end() : m.end() + 2])
        if resolved is None:
            return
        unit_text = raw_unit[: resolved[0]]
        e = number_end + resolved[0]
        currency = None
        if nt[max(0, s - 3) : s] == "人民币":
            s, currency = s - 3, "CNY"
        if not self.free(s, e):
            return
        if m.group("b"):
            a_text = nt[m.start() : m.start("sep")]
            pa, pb = _parse_cn(a_text), _parse_cn(m.group("b"))
            qa = _quantity(pa, None, unit_text, currency) if pa is not None else None
            qb = _quantity(pb, None, unit_text, currency) if pb is not None else None
            if qa is not None and qb is not None and qa.value < qb.value:
                self.add(
                    _Rec(
                        "range",
                        (qa.value, qb.value),
                        s,
                        e,
                        unit=qa.unit,
                        surface=qa.surface,
                        qualifier=qa.kind,
                        spelled=True,
                    )
                )
            return
        number = nt[m.start() : number_end]
        nxt = nt[e : e + 1]
        if number == "一" and (unit_text in _ARTICLE_CLASSIFIERS or nxt == "性"):
            return  # 一个问题, 一次性: articles, not quantities
        value = _parse_cn(number)
        if value is None:
            return
        q = _quantity(value, None, unit_text, currency)
        if q is not None:
            self.add(_Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True))

    def _en_number(self, m: re.Match[str]) -> None:
        lt = self.lt
        s = m.start()
        if not self.left_ok(s, _EN_WORD_BEFORE):
            return
        nxt = m.group("next")
        num_end = m.end() if nxt is None else len(lt[s : m.start("next")].rstrip()) + s
        value = _parse_en_words(lt[s:num_end])
        if value is None:
            return
        if nxt is not None:
            resolved = _resolve_unit(nxt, True, lt[m.end() : m.end() + 2])
            if resolved is not None:
                e = m.start("next") + resolved[0]
                q = _quantity(value, None, nxt[: resolved[0]], None)
                if q is not None and self.free(s, e):
                    self.add(
                        _Rec(q.kind, q.value, s, e, unit=q.unit, surface=q.surface, raw=q.raw, spelled=True)
                    )
                return
        if not self.free(s, num_end):
            return
        first = lt[s:num_end].split()[0]
        attached = _CUE_END_RX.search(lt, max(0, s - 24), s) is not None
        content_next = nxt is not None and nxt.split()[0] not in _EN_FUNCTION_WORDS
        if not attached and (first in {"one", "zero"} or not content_next):
            return
        self.add(_Rec("count", value, s, num_end, raw=value, spelled=True))

    # ------------------------------------------------------------------ comparators

    def comparators(self) -> None:
        """Attach comparator cues to the value they govern; keep strong unattached cues as mentions."""
        lt = self.lt
        cues: list[tuple[int, int, str]] = []
        prefix_at: dict[int, tuple[int, int, str]] = {}
        for m in _CUE_RX.finditer(lt):
            s, e = m.span()
            cue = re.sub(r"[ \t]+", " ", m.group())
            if cue[0] in _ALPHA_CHARS and not self.left_ok(s, _ALPHA_CHARS):
                continue
            if cue[-1] in _ALPHA_CHARS and e < len(lt) and lt[e] in _ALPHA_CHARS:
                continue
            if cue in {"<", ">"} and (
                (s > 0 and lt[s - 1] in _SYMBOL_NEIGHBOURS) or lt[e : e + 1] in _SYMBOL_NEIGHBOURS
            ):
                continue
            if not self.free(s, e):
                continue
            cues.append((s, e, cue))
            filler = _FILLER_RX.match(lt, e)
            prefix_at[filler.end() if filler is not None else e] = (s, e, cue)
            if cue in _CJK_GAP_CUES:
                for k in range(1, 4):  # `至少重试 3 次`: a short verb between cue and number
                    if e + k > len(lt) or not _cjk(lt[e + k - 1]):
                        break
                    after = _FILLER_RX.match(lt, e + k)
                    prefix_at.setdefault(after.end() if after is not None else e + k, (s, e, cue))
        attached: set[tuple[int, int]] = set()
        postfix: list[_Rec] = []
        for rec in self.recs:
            if rec.kind not in _VALUE_KINDS:
                continue
            date = rec.kind in _DATE_KINDS
            hit = prefix_at.get(rec.s)
            if hit is not None:
                op, date_only = _CUES[hit[2]]
                if date or not date_only:
                    rec.comparator = op
                    attached.add((hit[0], hit[1]))
                    continue
            post = _POSTFIX_RX.match(lt, rec.e)
            if post is not None:
                cue = post.group().strip()
                pe = post.end()
                op2 = _postfix_op(cue, rec, lt[pe : pe + 1])
                if op2 is not None:
                    rec.comparator = op2
                    postfix.append(_Rec("comparator", op2, pe - len(cue), pe, qualifier="attached"))
                    continue
            if rec.kind in _NUMERIC_KINDS:
                window = self.nt[max(0, rec.s - 48) : rec.s]
                if window.rstrip(" \t\"'")[-1:] in {":", "="}:
                    km = _KEY_HINT_RX.search(window)
                    if km is not None:
                        rec.comparator = _key_hint(km.group("key"))
        for rec in postfix:
            if self.free(rec.s, rec.e):
                self.add(rec)
        for s, e, cue in cues:
            if (s, e) in attached:
                self.add(_Rec("comparator", _CUES[cue][0], s, e, qualifier="attached"))
            elif cue in _STRONG_CUES and self.free(s, e):
                self.add(_Rec("comparator", _CUES[cue][0], s, e))

    # ------------------------------------------------------------------ negation

    def negations(self, alpha: bool) -> None:
        nt, lt = self.nt, self.lt
        exceptions = [m.span() for m in _NEG_EXCEPTION_ZH_RX.finditer(nt)]
        if alpha:
            exceptions.extend(m.span() for m in _NEG_EXCEPTION_EN_RX.finditer(lt) if self.word_ok(*m.span()))
        # Sorted starts and the running maximum of the ends: whether any exception overlaps a cue is a
        # binary search, not a scan of every exception for every cue (a long text has many of both).
        exceptions.sort()
        starts = [xs for xs, _ in exceptions]
        reach: list[int] = []
        for _, xe in exceptions:
            reach.append(max(xe, reach[-1]) if reach else xe)

        def excepted(s: int, e: int) -> bool:
            k = bisect_left(starts, e)  # exceptions that start before the cue ends
            return k > 0 and reach[k - 1] > s

        for m in _NEG_ZH_RX.finditer(nt):
            s, e = m.span()
            if excepted(s, e) or not self.free(s, e):
                continue
            if m.group() in {"不", "没有"} and self._answer_particle(s, e):
                continue
            self.recs.append(_Rec("negation", m.group(), s, e))
        if not alpha:
            return
        found: list[tuple[int, int, str]] = []
        for m in _NEG_EN_RX.finditer(lt):
            s, e = m.span()
            if self.word_ok(s, e):
                found.append((s, e, re.sub(r"[ \t]+", " ", m.group())))
        if "n'" in lt or "n’" in lt:
            for m in _NT_RX.finditer(lt):
                s = m.start()
                while s > 0 and lt[s - 1] in _ALPHA_CHARS:
                    s -= 1
                if s < m.start():
                    found.append((s, m.end(), lt[s : m.end()].replace("’", "'")))
        found.sort()
        neither = False
        for s, e, cue in found:
            if excepted(s, e) or not self.free(s, e):
                continue
            if cue == "no" and self._answer_particle(s, e):
                continue
            if cue == "neither":
                neither = True
            elif cue == "nor" and neither:
                continue  # neither … nor is one negation
            self.recs.append(_Rec("negation", cue, s, e))

    def _answer_particle(self, s: int, e: int) -> bool:
        """`No.` / `不，` opening a reply: it answers the question and negates nothing in the sentence."""
        nt = self.nt
        # Step over blanks in place: slicing the rest of the text per cue is quadratic in a long text.
        after = e
        while after < len(nt) and nt[after] in " \t":
            after += 1
        if after == len(nt) or nt[after] not in _PARTICLE_AFTER:
            return False
        before = s
        while before > 0 and nt[before - 1] in " \t":
            before -= 1
        return before == 0 or nt[before - 1] in _SENTENCE_END_CHARS


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


def extract(text: str) -> Mentions:
    """Every fact-bearing mention of `text`, with normalised values and original offsets.

    Cached by the string when it is short (a claim, a sentence, an evidence window): such text repeats
    for every claim. A long text (a whole context) is not cached, so no cache pins it in memory after
    its check; a caller that needs it for many claims holds an `EvidenceIndex` instead.
    """
    if len(text) > CACHE_MAX_CHARS:
        return _Extractor(text).run()
    return _extract_cached(text)


@lru_cache(maxsize=8192)
def _extract_cached(text: str) -> Mentions:
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


def _folded(text: str) -> str:
    if len(text) > CACHE_MAX_CHARS:
        return _fold_case(text)
    return _folded_cached(text)


@lru_cache(maxsize=8192)
def _folded_cached(text: str) -> str:
    return _fold_case(text)


def _fold_case(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


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


def _identifier_found(m: Mention, index: EvidenceIndex) -> bool:
    value = str(m.value)
    if _folded(value) in index.identifiers or index.contains_token(_folded(_identifier_core(m))):
        return True
    if m.qualifier in _SQUASHABLE:
        squashed = _squash(value)
        return squashed in index.squashed_identifiers or (
            len(squashed) >= 6 and index.contains_squashed(squashed)
        )
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
#: Characters around a date or time a hedge word may sit in to make it an estimate.
_HEDGE_REACH = 10
_HEDGE_CLAUSE_RX = re.compile(r"[，,；;。！？!?\n（）()]")
#: `没有超过10天`: applying a rule to a case ("did not exceed"), not restating the rule's comparator.
_FACTUAL_CMP_RX = re.compile(
    r"(?:未|没有?|并未)(?:超过|超出|达到|高于|低于|少于)"
    r"|(?<![A-Za-z])(?i:did[ \t]+not|didn['’]t|has[ \t]+not|hasn['’]t|have[ \t]+not|haven['’]t|was[ \t]+not|wasn['’]t)"
    r"[ \t]+(?i:exceed|reach|go[ \t]+over|surpass)"
)


class _Ctx:
    """What one check compares against; in use (a) both evidence indexes are the plan."""

    __slots__ = ("_clause_ends", "_hedges", "aligned", "everything", "given", "plan", "r", "source")

    def __init__(
        self,
        source: str,
        aligned: EvidenceIndex,
        everything: EvidenceIndex,
        r: _Report,
        *,
        plan: bool,
        given: EvidenceIndex | None = None,
    ) -> None:
        self.source = source
        self.aligned = aligned
        self.everything = everything
        self.r = r
        self.plan = plan
        self.given = given
        self._clause_ends: list[int] | None = None
        self._hedges: dict[tuple[int, int], bool] = {}

    def hedged(self, m: Mention) -> bool:
        """The clause around `m` in the claim marks it as an estimate or a derived figure."""
        if self.plan:
            return False
        source = self.source
        # Clause boundaries are found once per claim, and each clause is searched for hedges once:
        # walking back from every mention is quadratic in a long claim with many figures.
        if self._clause_ends is None:
            self._clause_ends = [found.start() for found in _HEDGE_CLAUSE_RX.finditer(source)]
        ends = self._clause_ends
        k = bisect_left(ends, m.start)  # boundaries before the mention: ends[:k]
        start = ends[k - 1] + 1 if k > 0 else 0
        if start > 0 and source[start - 1] in "(（":
            return True  # a parenthetical restates or converts a figure: `30 天（10 月 16 日）`
        k = bisect_left(ends, m.end)
        end = ends[k] if k < len(ends) else len(source)
        hedged = self._hedges.get((start, end))
        if hedged is None:
            hedged = self._hedges[(start, end)] = _HEDGE_RX.search(source, start, end) is not None
        return hedged

    def hedged_near(self, m: Mention) -> bool:
        """A hedge word right before or after `m` (`about 20:00`, `20:00 左右`)."""
        if self.plan:
            return False
        window = self.source[max(0, m.start - _HEDGE_REACH) : m.end + _HEDGE_REACH]
        return _HEDGE_RX.search(window) is not None

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


#: How far apart (relative) two values `_near` or `_close` may be, with room: the range look-ups
#: fetch a superset and the comparison itself decides.
_NEAR_SPAN = 0.0205
_CLOSE_SPAN = 2e-9


def _bound_satisfied(m: Mention, aligned: EvidenceIndex) -> bool:
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


def _given_number(m: Mention, given: EvidenceIndex | None) -> bool:
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
    if m.kind == "number" and m.raw is not None and x.everything.contains_token(_fmt(m.raw)):
        return
    if m.kind == "number" and "." in m.text and _is_version_prefix(m.text.strip(), x):
        return  # `2.3` names the version `v2.3.1`
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


def _is_version_prefix(number: str, x: _Ctx) -> bool:
    versions = [*x.aligned.by_kind.get("version", ()), *x.everything.by_kind.get("version", ())]
    return any(str(v.value) == number or str(v.value).startswith(number + ".") for v in versions)


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
    matches = [*x.aligned.date_matches(value), *x.everything.date_matches(value)]
    if matches:
        _check_comparator(m, matches, x)
        return
    if not x.plan:
        if x.given is not None and any(
            _date_match(value, str(g.value)) for g in x.given.mentions if g.kind in _DATE_KINDS
        ):
            return
        if value.startswith("weekday:") and int(value[8:]) in (
            x.aligned.weekdays() | x.everything.weekdays()
        ):
            return
        if len(value) == 4 and value.isdigit() and x.everything.contains_token(value):
            return  # a bare year the evidence writes in a range or a number (`1952—2019`)
        seconds = _time_seconds(value) if m.kind == "time" else _period_seconds(value)
        if seconds is not None:
            near = _NEAR_SPAN * max(abs(seconds), 1e-9)
            if any(
                _near(seconds, _approx_seconds(e))
                for e in x.everything.within("duration", seconds - near, seconds + near)
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
            # Only a hedge right at the time or date makes it an estimate (`around 20:00`); one
            # elsewhere in a long clause (`all of the roughly 40 deployments`) does not.
            "warning" if x.hedged_near(m) else "contradiction",
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
        if "date" in x.aligned.by_kind or "date" in x.everything.by_kind:
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
    if "." in value and x.everything.contains_token(value):
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
    if _identifier_found(m, x.everything) or _identifier_found(m, x.aligned):
        return
    if not x.plan and x.given is not None and _identifier_found(m, x.given):
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
    negations: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)
    """`negated` remembered per word: every cue of the other side asks about its word."""

    def states(self, word: str) -> bool:
        if word in self.tokens or (len(word) > 1 and word in self.folded):
            return True
        return word.isascii() and len(word) >= 4 and any(_same_word(word, t) for t in self.tokens)

    def negated(self, word: str) -> bool:
        """Whether `word` is negated here: an odd number of cues govern it (double negation cancels)."""
        found = self.negations.get(word)
        if found is None:
            count = sum(1 for cue in self.cues if any(_same_word(word, f) for f in cue.scope))
            found = self.negations[word] = count % 2 == 1
        return found


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


def _polarity(text: str) -> _Polarity:
    if len(text) > CACHE_MAX_CHARS:
        return _analyse_polarity(text)
    return _polarity_cached(text)


@lru_cache(maxsize=4096)
def _polarity_cached(text: str) -> _Polarity:
    return _analyse_polarity(text)


#: Negation cues analysed per text. Comparing two texts' cues is quadratic in their number; no
#: sentence a person writes has this many, so only hostile input is cut short.
_MAX_CUES = 256


def _analyse_polarity(text: str) -> _Polarity:
    cues: list[_Cue] = []
    # What a cue governs depends only on the text after it, and a text that repeats itself repeats
    # those tails: analyse each distinct tail once.
    governed: dict[str, tuple[tuple[str, ...], int, frozenset[str]]] = {}
    for cue in extract(text).of("negation")[:_MAX_CUES]:
        tail = text[cue.end : cue.end + 48]
        cut = _CLAUSE_END_RX.search(tail)
        if cut is not None:
            tail = tail[: cut.start()]
        known = governed.get(tail)
        if known is None:
            content = set(tokenize(tail))
            words = tuple(
                w
                for w in tokenize(tail, keep_stopwords=True)
                if w not in _NEG_TOKENS and (w in content or not (w.isascii() or w in _FOCUS_SKIP_ZH))
            )[:3]
            scope = frozenset(w for w in content if w not in _NEG_TOKENS) | frozenset(words)
            known = governed[tail] = (words, _focus_end(tail, words[0] if words else ""), scope)
        words, focus_end, scope = known
        cues.append(_Cue(cue, words, text[cue.start : cue.end + focus_end], scope))
    sentences = []
    starts = [c.mention.start for c in cues]  # in text order, as `extract` returns them
    for span in split_sentences(text):
        tokens = frozenset(t for t in tokenize(span.text) if t not in _NEG_TOKENS)
        inner = tuple(cues[bisect_left(starts, span.start) : bisect_left(starts, span.end)])
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


def _negation_issues(x: _Ctx, other: EvidenceIndex) -> None:
    """Does one side negate what the other states plainly?

    For each cue, the words it governs are looked up on the other side; when the other side states
    them too, the number of cues governing them on each side must agree in parity (double negation
    cancels: `不是不能退款` = `可以退款`). A flip needs two of the governed words on the other side, or
    one when the two texts are well aligned overall.
    """
    r = x.r
    src = _polarity(x.source)
    oth = other.polarity()
    if not src.cues and not oth.cues:
        return
    for side, here, there in ((r.side, src, oth), (r.other, oth, src)):
        asked: set[tuple[str, ...]] = set()
        for cue in here.cues:
            if cue.focus in asked:
                continue  # the outcome depends on the words governed only: it was no flip before
            asked.add(cue.focus)
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
    plan = index_evidence(plan_text)
    x = _Ctx(question, plan, plan, _Report("question", "plan"), plan=True)
    for m in extract(question):
        _run(m, x)
    _negation_issues(x, plan)
    return x.r.issues


#: Mentions of one claim that `check_claim` compares with the evidence (the first ones). Each costs up
#: to a look-up per evidence mention of its kind; no sentence a person writes has this many figures,
#: names and cues, so only hostile input is cut short (the offline checker then refuses to call the
#: claim supported, see `groundgate.verify.checker`).
MAX_CLAIM_MENTIONS = 256


def check_claim(
    claim: str,
    aligned_evidence: str | EvidenceIndex,
    all_evidence: str | EvidenceIndex,
    *,
    question: str | None = None,
) -> list[FidelityIssue]:
    """Use (b): contradiction signals between one claim and its evidence.

    `aligned_evidence` is the span that best matches the claim (chosen by the caller), `all_evidence`
    the whole context, each as text or as its `index_evidence` (build that once when checking many
    claims against one long text). Codes: `identifier_not_in_evidence`, `number_not_in_evidence`,
    `number_mismatch`, `currency_mismatch`, `unit_mismatch`, `comparator_changed`, `negation_flip`,
    `date_mismatch`, `version_mismatch`, `version_not_in_evidence`.

    A restatement in other words, units or scripts (`5千元` / `¥5,000`, `2026-03-15` /
    `2026年3月15日`, full-width digits) yields no issue. Warnings, not contradictions: small counts
    written as words (`三次`), relative periods the evidence may state as dates, and missing or
    differing figures the claim itself marks as estimates or derived (`大约42分钟`, `也就是3699元`,
    `roughly 380 mg`). Values the user stated in `question` (optional) count as given, not invented.
    """
    aligned = (
        aligned_evidence if isinstance(aligned_evidence, EvidenceIndex) else index_evidence(aligned_evidence)
    )
    x = _Ctx(
        claim,
        aligned,
        all_evidence if isinstance(all_evidence, EvidenceIndex) else index_evidence(all_evidence),
        _Report("claim", "evidence"),
        plan=False,
        given=index_evidence(question) if question else None,
    )
    for m in extract(claim).items[:MAX_CLAIM_MENTIONS]:
        _run(m, x)
    _negation_issues(x, aligned)
    return x.r.issues

"""Numeral and unit tables, and reading the unit written after a number.

Chinese and English numerals and magnitude words; every unit the extractor knows (durations, data
sizes, percentages, currencies, measures, counts and classifiers) with its base unit and factor;
case-sensitive letter units (`5k`, `512M`, `2.5s`) and currency prefixes. `_resolve_unit` and
`_lookup_unit` turn the text after a number into a `_Unit`.
"""

from __future__ import annotations

from dataclasses import dataclass

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
_CN_MULT = {
    "万亿": 1e12,
    "千亿": 1e11,
    "百亿": 1e10,
    "千万": 1e7,
    "百万": 1e6,
    "万": 1e4,
    "亿": 1e8,
    "千": 1e3,
    "百": 1e2,
}
_EN_MULT = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "mn": 1e6, "bn": 1e9, "trillion": 1e12}

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
# `three billion people` was read as 3 (the scale word unknown), `two dozen chairs` as 2: every
# scale word people write after a number word multiplies it.
_EN_SCALES = {
    "hundred": 100,
    "thousand": 1000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 1_000_000_000_000,
    "dozen": 12,
}


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
    # `25 basis points` is 0.25 percentage points (it was the bare number 25).
    **_u("percent", "pp", 0.01, "bp", "basis point", "basis points", "bp", "bps"),
    # `三成` / `3 成` is 30 % (tenths; `_cjk_unit_ok` keeps `成员`, `一成不变` out).
    **_u("percent", "%", 10.0, "成", "成"),
    **_u("amount", "CNY", 1.0, "元", "元", "块", "块钱", "人民币", "yuan", "rmb", "cny"),
    **_u("amount", "USD", 1.0, "USD", "美元", "美金", "usd", "dollar", "dollars"),
    **_u("amount", "EUR", 1.0, "EUR", "欧元", "eur", "euro", "euros"),
    **_u("amount", "GBP", 1.0, "GBP", "英镑", "gbp"),
    **_u("amount", "JPY", 1.0, "JPY", "日元", "jpy", "yen"),
    **_u("amount", "HKD", 1.0, "HKD", "港元", "港币", "hkd"),
    **_u("measure", "m", 1e-3, "mm", "mm", "毫米", "millimeter", "millimeters", "millimetre", "millimetres"),
    **_u("measure", "m", 1e-2, "cm", "cm", "厘米", "centimeter", "centimeters", "centimetre", "centimetres"),
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
    # Energy: `2.18 MWh` is `2180 千瓦时` (a battery's charge, a meter reading).
    **_u("measure", "Wh", 1.0, "Wh", "wh"),
    **_u("measure", "Wh", 1e3, "kWh", "kwh", "千瓦时"),
    **_u("measure", "Wh", 1e6, "MWh", "mwh", "兆瓦时"),
    **_u("measure", "Wh", 1e9, "GWh", "gwh"),
    **_u("measure", "°C", 1.0, "°C", "°c", "℃", "摄氏度"),
    # Spec-sheet units (an air purifier's `CADR 420 m³/h`, `29–50 ㎡`, `32 dB`): without them the figure
    # was a bare number, too loose to bind to its list item (NFKC makes `m³` `m3` and `㎡` `m2`).
    **_u("measure", "m3/h", 1.0, "m³/h", "m3/h"),
    **_u("measure", "m2", 1.0, "m²", "m2", "平方米", "平米"),
    **_u("measure", "dB", 1.0, "dB", "db", "分贝", "decibel", "decibels"),  # written `dB` only, see below
    **_u("measure", "m3", 1.0, "m³", "m3"),  # not `立方米`: `立方米每小时` is m³/h
    # Imperial and US units, as an answer converts a figure for its reader (`150 英里（约 240 公里）`,
    # `74 square metres, roughly 797 square feet`): the same dimension, so a conversion compares.
    # Not `pound(s)`: also money.
    **_u("measure", "m", 1609.344, "mi", "mile", "miles", "英里"),
    **_u("measure", "m", 0.3048, "ft", "ft", "feet", "foot", "英尺"),
    **_u("measure", "m", 0.0254, "in", "inch", "inches", "英寸"),
    **_u("measure", "g", 453.59237, "lb", "lb", "lbs", "磅"),
    **_u("measure", "g", 28.349523, "oz", "oz", "ounce", "ounces", "盎司"),
    **_u("measure", "L", 3.785411784, "gal", "gallon", "gallons", "加仑"),
    **_u(
        "measure", "m2", 1.0, "m²", "square metre", "square metres", "square meter", "square meters", "sq m"
    ),
    **_u("measure", "m2", 0.09290304, "sq ft", "square foot", "square feet", "sq ft", "平方英尺"),
    # Food energy: a nutrition label's `calories` are kilocalories (`190 calories, roughly 795 kJ`).
    **_u("measure", "J", 4184.0, "kcal", "kcal", "calorie", "calories", "千卡", "大卡"),
    **_u("measure", "J", 1e3, "kJ", "kj", "kilojoule", "kilojoules", "千焦"),
    **_u("count", "times", 1.0, "times", "次", "遍", "times"),
    **_u("count", "times", 1.0, "x", "倍"),
    **_u("count", "qps", 1.0, "qps", "qps", "次/秒"),
    **_u("count", "tps", 1.0, "tps", "tps"),
    **_u("count", "rps", 1.0, "rps", "rps", "req/s"),
    # Data rates in bits per second (decimal, as links are sold): `200 MB/s` is eight times `200 Mbps`,
    # and `23 MB/s` is `184 Mbps`.
    **_u("measure", "bit/s", 8e3, "KB/s", "kb/s"),
    **_u("measure", "bit/s", 8e6, "MB/s", "mb/s"),
    **_u("measure", "bit/s", 8e9, "GB/s", "gb/s"),
    **_u("measure", "bit/s", 1e3, "Kbps", "kbps"),
    **_u("measure", "bit/s", 1e6, "Mbps", "mbps"),
    **_u("measure", "bit/s", 1e9, "Gbps", "gbps"),
    # CPU cores (`CPU 配额为 2 核` / `2 cores`): a count of its own, so `4 核` is not `4 GiB`.
    **_u("count", "core", 1.0, "核", "核", "核心", "core", "cores", "vcpu", "vcpus"),
    # News shorthand for magnitudes (`1.2 mln`, `$1.2 trillion`): without them the magnitude was lost.
    **_u("mult", None, 1e6, "mn", "mn", "mln"),
    **_u("mult", None, 1e9, "bn", "bn", "bln"),
    **_u("mult", None, 1e12, "tn", "tn", "trillion"),
}
_CLASSIFIERS = "个台条项人位件笔单张页行家名组套款份批轮层级种步道座辆架艘栋幢所间户只头匹棵枚颗篇首场届晚"
_UNITS.update({c: _Unit("count", c, 1.0, c) for c in _CLASSIFIERS})
# `打九折` / `9 折` (a discount: pay 90 %) is the price's percentage: `转正工资的 90%` bears it out.
_UNITS["折"] = _Unit("percent", "%", 10.0, "折")
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


_HALF_UNITS = {
    "小时": "小时",
    "钟头": "小时",
    "天": "天",
    "年": "年",
    "月": "个月",
    "个月": "个月",
    "周": "周",
    "分钟": "分钟",
    "分": "分钟",
}


# --------------------------------------------------------------------------- reading a unit


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
    if unit == "成":  # `三成` 30 %, but `三成员`, `一成不变`, `八成是` (probably) are no percentage
        return not nxt or nxt not in NOT_AFTER_CHENG
    if unit == "折":  # `八折` a discount, but `三折叠`, `折旧`, `折合` are other words
        return not nxt or nxt not in _NOT_AFTER_ZHE
    return True


#: Characters after `成` that make it part of a word (`成员`, `一成不变`), not tenths (`三成` = 30 %).
NOT_AFTER_CHENG = frozenset("员本功为立交绩果熟年型品人就长分效都是不了一")
_NOT_AFTER_ZHE = frozenset("叠扣旧合算腾射返线中磨断损页")


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
        if word in {"US", "Us"}:
            return None  # `16 US states`: the United States, not microseconds
        if word.lower() == "db" and word != "dB":
            return None  # `3 db servers`, `2 DB nodes`: databases, not decibels
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

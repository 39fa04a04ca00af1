"""The unit a record's key names, attached to its value as prose writes it.

`weight_kg: 1.29` reads out as `weight: 1.29 kg`, `季度预算_万元: 120` as `120 万元`, `price (USD)` as
`$…`, `range_miles: "40-65"` as `40-65 miles`, and a share between 0 and 1 also as a percentage —
so the fidelity checks compare a description's `1.29 kilograms` or `2.1%` with the field
(docs/design.md §2.1: a record is matched field by field). Pure: no I/O.
"""

from __future__ import annotations

import re

from groundgate.text.segmentation import wordset

__all__ = ["RANGE_VALUE", "with_unit"]

#: Unit words a key ends with (`weight_kg`, `p99_latency_ms`, `invoice_total_usd`): the value's unit.
_UNITS = {
    "kg": "kg", "g": "g", "lb": "lb", "lbs": "lb", "km": "km", "cm": "cm", "mm": "mm",
    "ms": "ms", "sec": "seconds", "secs": "seconds", "seconds": "seconds", "mins": "minutes",
    "minutes": "minutes", "hrs": "hours", "hours": "hours", "days": "days", "weeks": "weeks",
    "months": "months", "years": "years", "kb": "KB", "mb": "MB", "gb": "GB", "tb": "TB",
    "usd": "USD", "eur": "EUR", "gbp": "GBP", "cny": "CNY", "rmb": "CNY", "jpy": "JPY",
    "pct": "%", "percent": "%", "hz": "Hz", "wh": "Wh", "mah": "mAh", "mph": "mph",
    "miles": "miles", "mi": "miles", "ft": "ft", "feet": "feet", "sqft": "sq ft", "kcal": "kcal",
    "kj": "kJ", "oz": "oz", "m2": "m2", "sqm": "m2",
}  # fmt: skip
#: Chinese unit words a key ends with (`季度预算_万元`, `时长_分钟`, `价格（元）`), written after the value
#: as they are (`百分比` as `%`).
_ZH_UNITS = {
    unit: unit
    for unit in wordset(
        "元 万元 亿元 千元 美元 万 亿 天 小时 分钟 秒 毫秒 年 个月 公斤 千克 克 吨 米 厘米 毫米 公里 平方米 升 毫升 "
        "人 次 个 台 件 %"
    )
} | {"百分比": "%"}
#: A value that is a range of two figures (`"40-65"`, `"2–4"`).
RANGE_VALUE = re.compile(r"^\d+(?:\.\d+)?\s*[-–~]\s*\d+(?:\.\d+)?$")
_BRACKETED_UNIT = re.compile(r"\s*[(（]\s*([^()（）]{1,6})\s*[)）]\s*$")
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CNY": "¥"}
#: Keys of an amount of money: a `currency` field beside them names their currency.
_MONEY = frozenset(
    {"amount", "price", "total", "subtotal", "cost", "fee", "tax", "balance", "charge", "refund"}
)
#: Keys of a share: a value between 0 and 1 is also a percentage (`error_rate: 0.021` is 2.1%).
_SHARES = frozenset({"rate", "ratio", "share", "fraction", "utilization", "utilisation"})


def with_unit(words: str, value: str, number: float, currency: str | None) -> tuple[str, str]:
    """The key without the unit it ends with, and the value with that unit (`weight: 1.29 kg`)."""
    bracketed = _BRACKETED_UNIT.search(words)
    if bracketed and (unit := bracketed.group(1).strip()).lower() in _UNITS | _ZH_UNITS:
        # `价格（元）`, `price (USD)`: the unit written after the key in brackets.
        words = words[: bracketed.start()].rstrip() + " " + unit
    parts = words.split()
    last = parts[-1].lower() if parts else ""
    if len(parts) > 1 and last in _ZH_UNITS:
        # `季度预算_万元: 120` is `120 万元` (1.2 million yuan), as a Chinese description writes it.
        return " ".join(parts[:-1]), f"{value} {_ZH_UNITS[last]}"
    if len(parts) > 1 and last in _UNITS:
        # `weight_kg: 1.29` is `1.29 kg`; the fidelity checks compare it with `1.29 kilograms`.
        unit = _UNITS[last]
        if unit in _SYMBOLS:
            return " ".join(parts[:-1]), f"{_SYMBOLS[unit]}{value}"
        return " ".join(parts[:-1]), f"{value}{unit}" if unit == "%" else f"{value} {unit}"
    lows = {p.lower() for p in parts}
    if currency and lows & _MONEY:
        # `$684.50` is how prose writes it, and how its words are matched.
        return words, f"{_SYMBOLS[currency]}{value}" if currency in _SYMBOLS else f"{value} {currency}"
    if lows & _SHARES and 0 < number < 1:
        # A share is stated as a percentage in prose: `0.021` is read out as `2.1%` too.
        return words, f"{value} ({round(number * 100, 6):g}%)"
    return words, value

"""Number parsing: numerals to floats, a number with its unit to a normalised quantity.

Chinese numerals (`一万二`, `二〇二六`) and English number words to floats; a number with its
magnitude word, unit and currency prefix to a `_Quantity` in the base unit; float closeness and the
normal form of a version number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundgate.verify.fidelity.model import MentionKind
from groundgate.verify.fidelity.units import (
    _CN_BIG,
    _CN_DIGIT,
    _CN_MULT,
    _CN_SMALL,
    _CURRENCY_LETTER_MULT,
    _EN_MULT,
    _EN_ONES,
    _EN_SCALES,
    _lookup_unit,
)


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


def parse_chinese_numeral(text: str) -> float | None:
    """`三万两千` → 32000.0; None when `text` is not a Chinese numeral (for the synonym folding)."""
    return _parse_cn(text)


def _parse_en_words(text: str) -> float | None:
    total = 0.0
    current = 0.0
    seen = False
    previous = ""
    for word in re.split(r"[\s\-]+", text.lower()):
        if not word:
            continue
        if word == "and":
            if previous != "hundred" and previous not in _EN_SCALES:
                return None  # `one and two years` is two figures, not three
            continue
        if word in _EN_ONES:
            value = _EN_ONES[word]
            if current % 10 or (current % 100 and value >= 10):
                return None  # `one two`, `twenty thirty`: not one number
            current += value
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _EN_SCALES:
            total += (current or 1) * _EN_SCALES[word]
            current = 0.0
        else:
            return None
        seen = True
        previous = word
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
    if unit.surface == "折" and 10 <= raw < 100:
        return _Quantity(kind, raw, unit.base, unit.surface, raw)  # `95折` pays 95 %, not 950 %
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

"""Structured evidence: a context passage that is a JSON object or array, or `key: value` lines.

Tool results and records (orders, metrics summaries, business listings) state facts as fields, not
sentences: `"OutdoorSeating": false` says "no outdoor seating" without a word of English. Read as
prose, such a passage is one unbroken "sentence" of braces and camelCase keys, and a faithful
description of it is flagged almost always. Here each record becomes one evidence window whose words
are its fields read out (`outdoor seating: no`), and its boolean fields are checked one by one:

- `parse(passage)` finds the records of a passage (each object of a top-level array is one record),
  with their offsets in the passage and their leaf fields;
- `field_conflicts(claim, fields)` reports the boolean fields a claim contradicts (`has outdoor
  seating` against `OutdoorSeating: false`, `is refundable` against `refundable: false`).

Numbers, dates and names in records are compared by the same fidelity checks as prose (the
window's text is the record read out); attributes a record lacks leave the claim without support
(`no_evidence`). Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from groundgate.text.segmentation import tokenize

#: Records longer than this are read as prose (parsing them would cost more than it helps).
_MAX_RECORD_CHARS = 200_000
_KV_LINE = re.compile(
    r"^\s*[-*]?\s*([A-Za-z_][\w .\-/]{0,48}?|[\u4e00-\u9fff][\u4e00-\u9fff\w ]{0,15}?)\s*[:=：]\s*(\S.*?)\s*$"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+")
_NEGATION = re.compile(
    r"(?<![a-z])(?:not|no|never|without|none|nor|cannot|lacks?|lacking)(?![a-z])|n['’]t(?![a-z])"
    r"|不|没|无|非|未|禁止",
    re.IGNORECASE,
)
_TRUE = frozenset({"true", "yes", "y", "是", "有", "1", "enabled", "on"})
_FALSE = frozenset({"false", "no", "n", "否", "无", "没有", "0", "disabled", "off", "none"})


@dataclass(frozen=True, slots=True)
class Field:
    """One leaf field of a record: its key words (the last key, split), and its value."""

    key: str
    words: frozenset[str]
    """Content tokens of the key (`OutdoorSeating` → `outdoor`, `seat`)."""
    value: str
    boolean: bool | None
    """The value read as a yes/no, when it is one."""


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
    decoder = json.JSONDecoder()
    start = len(passage) - len(passage.lstrip())
    try:
        value, end = decoder.raw_decode(passage, start)
    except ValueError:
        return []
    if passage[end:].strip():
        return []
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        return [_record(value, start, end)] if isinstance(value, (dict, list)) else []
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
            return [_record(value, start, end)]
        records.append(_record(item, i, after))
        i = after
    return records


def _kv_records(passage: str) -> list[Record]:
    lines = [line for line in passage.splitlines() if line.strip()]
    if len(lines) < 3:
        return []
    pairs = [m for m in (_KV_LINE.match(line) for line in lines) if m is not None]
    if len(pairs) < 3 or len(pairs) < 0.6 * len(lines):
        return []
    fields = tuple(_field(m.group(1), m.group(2)) for m in pairs)
    start = len(passage) - len(passage.lstrip())
    return [Record(start, len(passage.rstrip()), fields, _read_out(fields))]


def _record(value: object, start: int, end: int) -> Record:
    fields: list[Field] = []
    _walk(value, "", fields)
    return Record(start, end, tuple(fields), _read_out(tuple(fields)))


def _walk(value: object, key: str, out: list[Field]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, str(k), out)
    elif isinstance(value, list):
        for v in value:
            _walk(v, key, out)
    elif value is not None:
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        # Python-dict-like strings inside records (`"{'garage': False}"`): read their pairs too.
        if isinstance(value, str) and value.startswith("{") and ":" in value:
            for inner_key, inner_value in re.findall(r"'([^']+)'\s*:\s*([^,}]+)", value):
                out.append(_field(inner_key, inner_value.strip().strip("'\"")))
            return
        # A JSON number is a count or an amount, never a yes/no (`"shipped": 0` of an order line
        # counts the units shipped; it does not say "not shipped" of the whole order).
        out.append(_field(key, text, numeric=isinstance(value, int | float) and not isinstance(value, bool)))


def _field(key: str, value: str, *, numeric: bool = False) -> Field:
    words = " ".join(w for w in _CAMEL.split(key.strip()) if w)
    low = value.strip().lower().strip("'\"")
    boolean = None if numeric else True if low in _TRUE else False if low in _FALSE else None
    return Field(words, frozenset(tokenize(words)), value.strip(), boolean)


def _read_out(fields: tuple[Field, ...]) -> str:
    # `true`/`false`, one field a line: `no` would read as a negation cue scoping over the next field.
    parts = []
    for f in fields:
        value = f.value if f.boolean is None else ("true" if f.boolean else "false")
        parts.append(f"{f.key}: {value}")
    return ";\n".join(parts)


def field_conflicts(claim: str, fields: tuple[Field, ...]) -> list[str]:
    """The yes/no fields `claim` states the other way round (`has outdoor seating` vs `false`).

    A field counts when every content word of its key is among the claim's words; the claim says
    "no" when it has a negation word. Keys of one word that is also common prose (`open`) count too:
    the claim names that attribute of the record.
    """
    tokens = set(tokenize(claim))
    if not tokens:
        return []
    negated = _NEGATION.search(claim) is not None
    found: list[str] = []
    for f in fields:
        if f.boolean is None or not f.words or not f.words <= tokens:
            continue
        if f.boolean == negated:
            found.append(f.key)
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
        if (set(tokenize(fold(f.key))) | {f.key.replace(" ", "").lower()}) & claim_set:
            continue  # the claim names this field: its value is where it belongs
        last = max(i for i, token in enumerate(claim) if token in value)
        if last + 1 < len(claim):
            after = claim[last + 1]
            if after not in known and not any(c.isdigit() for c in after):
                found.append(after)
    return found

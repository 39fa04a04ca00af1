"""The rows of a record passage, and a claim's clauses checked against the row they name.

Two kinds of rows (docs/design.md §2.1):

- the rows of a `|` table (`records.table_rows`), named by their first short cell: a clause is checked
  against the row the claim last named (`华南…平均配送时长是 38 分钟` against 华南's row), and a figure
  only another row states in that column is that row's (`row_conflicts`);
- the named items of a list nested in a JSON record (`nested_rows`: a listing's reviews by `user`, an
  order's items by `name`): a clause that lists two or more of them is checked part by part against
  the item each part names ("Dana R. gave it four stars …, Luis M. liked …") ("Session 34").

Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

from groundgate.verify.records import _MAX_RECORD_CHARS, Field, _numbered, _walk, field_conflicts

#: `gave it four stars`: a small figure in words, before the word that names its field.
_NUMBER_WORDS: dict[str, int] = {
    w: n
    for n, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=0
    )
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")(?=\s+[A-Za-z])", re.IGNORECASE)
#: Keys whose value names an item of a nested list (`reviews[*].user`, `flights[*].name`).
_ITEM_NAME_KEYS = frozenset(
    {"user", "name", "author", "reviewer", "customer", "title", "guest", "姓名", "用户", "名称"}
)


def nested_rows(passage: str) -> dict[str, tuple[Field, ...]]:
    """Name -> fields, for the items of each list of objects nested in a JSON passage (a listing's
    `reviews`, an order's `items`), named by their `user`/`name`/`author`…: a clause that lists two or
    more of them is checked part by part against the item each part names (`clause_conflicts`)."""
    stripped = passage.strip()
    if not stripped or stripped[0] not in "{[" or len(stripped) > _MAX_RECORD_CHARS:
        return {}
    try:
        value = json.loads(stripped, parse_float=Decimal)
    except ValueError:
        return {}
    found: dict[str, tuple[Field, ...]] = {}
    stack: list[object] = [value]
    while stack:
        here = stack.pop()
        children = list(here.values()) if isinstance(here, dict) else here if isinstance(here, list) else []
        if isinstance(here, list) and len(here) >= 2 and all(isinstance(v, dict) for v in here):
            for number, item in enumerate(here):
                assert isinstance(item, dict)
                name = next(
                    (
                        str(v).strip()
                        for k, v in item.items()
                        if str(k).lower() in _ITEM_NAME_KEYS
                        and isinstance(v, str)
                        and 0 < len(v.strip()) <= 24
                    ),
                    None,
                )
                if name is None or re.search(r"\d", name):
                    continue
                fields: list[Field] = []
                _walk(item, "", "", fields, None)
                found.setdefault(name, tuple(_numbered(f, number, table_row=True) for f in fields))
        stack.extend(children)
    return found


_FIGURE_ANY = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?(?![\d])")


def _figures(text: str) -> set[str]:
    return {m.group().replace(",", "") for m in _FIGURE_ANY.finditer(text)}


def row_names(fields: tuple[Field, ...]) -> dict[int, str]:
    """record number -> its name, for the rows of a `|` table: the first cell of each row that is a
    short word, not a figure or a yes/no (`区域: 华南`, `Site: Leeds`)."""
    names: dict[int, str] = {}
    for f in fields:
        if not f.table_row or f.record in names or f.number is not None or f.boolean is not None:
            continue
        if f.value and len(f.value) <= 24 and not re.search(r"\d", f.value):
            names[f.record] = f.value
    return names


def names_row(name: str, text: str) -> bool:
    return last_place(name, text) >= 0


def last_place(name: str, text: str) -> int:
    """Where `text` last names the row `name` (a Latin name as a whole word: `Pro` is not in
    `projects`); -1 when it does not."""
    if re.search(r"[A-Za-z0-9]", name):
        found = list(re.finditer(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text, re.IGNORECASE))
        return found[-1].start() if found else -1
    return text.rfind(name)


def row_conflicts(clause: str, own: tuple[Field, ...], others: tuple[Field, ...]) -> list[str]:
    """Fields whose figure the clause takes from another row: a figure the named row (`own`) does
    not state and another row does (`平均配送时长是 38 分钟` for 华南, when 38 分钟 is 华东's)."""
    stated = set().union(*(_figures(f.value) for f in own)) if own else set()
    by_key = {f.key: f for f in own}
    found: list[str] = []
    for figure in sorted(_figures(clause) - stated):
        # Only a figure of the same column written the same way as the named row's own value there
        # (`38 分钟` where 华南 has `45 分钟`): a count beside a percentage row is another metric.
        elsewhere = [
            f
            for f in others
            if figure in _figures(f.value)
            and f.key in by_key
            and _shape(f.value) == _shape(by_key[f.key].value)
        ]
        if elsewhere:
            found.append(f"{elsewhere[0].key} (another row)")
    return found


def _shape(value: str) -> str:
    """A value without its figures: its unit or currency (`38 分钟` → `分钟`, `$482,300` → `$`)."""
    return _FIGURE_ANY.sub("", value).replace(" ", "").lower()


def clause_conflicts(
    before: str,
    clause: str,
    fields: tuple[Field, ...],
    rows: dict[str, tuple[Field, ...]],
    items: dict[str, tuple[Field, ...]] | None = None,
) -> list[str]:
    """The record fields a clause states otherwise. The rows of a `|` table (`rows`, by name) are
    read one at a time: a clause is checked against the row the claim last named up to it
    (`华南…平均配送时长是 38 分钟` against 华南's row, wherever the claim aligned), and a figure only
    another row states in that column is that row's (`row_conflicts`). A clause naming two rows (a
    comparison), or a claim naming none, is checked against its aligned window's fields."""
    if items and len(items) > 1 and (parts := _per_row_parts(clause, items)):
        # "Dana R. gave it four stars …, Luis M. liked …": a list of the named items' own facts
        # (`nested_rows`), each part checked against the item it names, on the figures it gives a
        # field by name (`4 stars` against `stars: 5`) — a remainder or a difference (`A 型差 2 台`)
        # names no field.
        return [
            c
            for named, part in parts
            for c in field_conflicts(
                _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS[m.group(1).lower()]), part), items[named]
            )
        ]
    if len(rows) > 1 and sum(1 for name in rows if names_row(name, clause)) <= 1:
        said = f"{before}{clause}"
        where, named = max(((last_place(name, said), name) for name in rows), default=(-1, ""))
        if where >= 0:
            own = rows[named]
            others = tuple(f for name, fs in rows.items() if name != named for f in fs)
            return row_conflicts(clause, own, others) + field_conflicts(clause, own)
    return field_conflicts(clause, fields) if fields else []


#: Before an item's name, what makes it the start of that item's own part of a list (not the other
#: side of a comparison: "HO1252 比 CA1831 早到").
_LIST_JOIN = re.compile(r"(?:[,;，；、]|\b(?:and|while|whereas|but)\b|和|而|则)\s*$", re.IGNORECASE)


def _per_row_parts(clause: str, rows: dict[str, tuple[Field, ...]]) -> list[tuple[str, str]]:
    """The parts of a clause that lists two or more named items' own facts, each from a row's name to the
    next's, when every name after the first follows a list joint; empty otherwise."""
    places = sorted((p, name) for name in rows if (p := _first_place(name, clause)) >= 0)
    if len(places) < 2 or any(_LIST_JOIN.search(clause[:p]) is None for p, _ in places[1:]):
        return []
    ends = [p for p, _ in places[1:]] + [len(clause)]
    return [(name, clause[p:end]) for (p, name), end in zip(places, ends, strict=True)]


def _first_place(name: str, text: str) -> int:
    if re.search(r"[A-Za-z0-9]", name):
        found = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text, re.IGNORECASE)
        return found.start() if found else -1
    return text.find(name)

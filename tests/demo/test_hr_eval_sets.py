"""The HR agent's labelled question sets load as written: a `never` list is each of its strings, never
the list's Python text (which no answer holds, so nothing would be checked)."""

from __future__ import annotations

from importlib.resources import files

import pytest

from groundgate.demo.hr.evaluation import load_questions

_SET_NAMES = sorted(
    p.name
    for p in files("groundgate.demo.hr").iterdir()
    if p.name.startswith("eval_") and p.name.endswith(".yaml")
)


@pytest.mark.parametrize(
    ("never", "expected"),
    [
        ("3 个工作日", ("3 个工作日",)),
        ("[结婚证, 病历]", ("结婚证", "病历")),
        ('["2026-04-20", "800"]', ("2026-04-20", "800")),
        ("2026-04-20", ("2026-04-20",)),
    ],
)
def test_a_never_value_is_read_as_one_string_or_each_string_of_a_list(
    never: str, expected: tuple[str, ...]
) -> None:
    (item,) = load_questions(f"- q: 年假几天？\n  decision: ANSWERED\n  never: {never}\n")
    assert item.never == expected


@pytest.mark.parametrize("name", _SET_NAMES)
def test_no_set_holds_a_never_string_that_is_a_lists_text(name: str) -> None:
    items = load_questions(files("groundgate.demo.hr").joinpath(name).read_text("utf-8"))
    assert items
    assert not [n for item in items for n in item.never if n.startswith("[")]

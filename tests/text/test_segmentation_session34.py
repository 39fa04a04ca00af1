"""Sentence ends that are not: `a.m.`/`p.m.` and a name's initial before a lower-case word
(docs/design.md §2.1, "Session 34")."""

from __future__ import annotations

import pytest

from groundgate.text.segmentation import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("It stays open until 3 a.m. the following morning. It is closed on Tuesdays.", 2),
        ("It opens at 5 p.m. and closes at 10.", 1),
        ("Dana R. gave it five stars and Luis M. liked the noodles.", 1),
        ("He received his B.A. from Millikin University.", 1),
        # a clock's dot before a capital still ends the sentence
        ("It opens at 5 p.m. It closes at 10.", 2),
        ("Take Plan B. It works.", 2),
    ],
)
def test_a_dot_ends_a_sentence_only_where_a_sentence_can_start(text: str, sentences: int) -> None:
    assert len(split_sentences(text)) == sentences

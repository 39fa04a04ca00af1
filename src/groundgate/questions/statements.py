"""One statement's features for need matching, computed once per text, context and surround.

The executor matches many statements against each need of a question (`groundgate.questions.coverage`),
so the words, stems and mentions of a statement are read once and cached here. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from groundgate.text.segmentation import is_cjk_text, normalize, stem, tokenize
from groundgate.verify import fidelity

__all__ = ["Statement", "adds_to_rule_before", "statement"]

#: A clause break; not the comma of a thousands separator (`2,000 元以上至 10,000 元`).
_CLAUSE = re.compile(r"[，；;。!?！？\n]|,(?!\d{3}(?!\d))")
_FLAT = re.compile(r"[^0-9a-z\u3400-\u9fff]+")


@dataclass(frozen=True, slots=True, eq=False)
class Statement:
    """One statement's features, computed once (the executor matches many against each need).

    Compared by identity (`eq=False`): `statement()` returns one object per text, context and
    surround, and identity hashing keeps the per-word cache (`_has_word`) cheap."""

    text: str
    context: str
    flat: str
    """Text and context lower-cased, every run of other characters one space, padded with spaces."""
    cjk: str
    """Normalised text and context (for Chinese words)."""
    stems: frozenset[str]
    """Stemmed words of text and context, identifiers also split into their parts."""
    surround: Statement | None
    """The sentence a clause was taken from: its words count as the subject's, its names do not."""
    text_is_cjk: bool
    text_has_cjk: bool
    text_has_latin: bool
    mentions: tuple[fidelity.Mention, ...]
    """Mentions of the text (not the context)."""
    context_dates: tuple[str, ...]


_COMMAND_WORDS = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*|<[A-Za-z][\w .-]{0,30}>")


@lru_cache(maxsize=8192)
def statement(text: str, context: str = "", surround: str = "") -> Statement:
    """The features of `text`, said under `context` (the cited source and headings), taken from the
    sentence `surround` (when it is a clause of a longer sentence)."""
    # A command's flags and placeholders (`--group <group> --offset <o>`) are not words the statement
    # says: "the committed offsets of a consumer group" is not what `ltctl kafka skip` is about.
    both = f"{_COMMAND_WORDS.sub(' ', text)} \n {context}"
    words = tokenize(both)
    stems = set(words)
    for word in words:
        stems.update(stem(part) for part in re.split(r"[_\-./{}=,:]+", word) if len(part) > 1)
    return Statement(
        text=text,
        context=context,
        flat=" " + _FLAT.sub(" ", both.lower()).strip() + " ",
        cjk=normalize(both),
        stems=frozenset(stems),
        text_is_cjk=is_cjk_text(text),
        text_has_cjk=bool(re.search("[\u4e00-\u9fff]", text)),
        text_has_latin=bool(re.search(r"[A-Za-z]{2,}", text)),
        mentions=tuple(fidelity.extract(text)),
        context_dates=tuple(str(m.value) for m in fidelity.extract(context) if m.kind == "date")
        if context
        else (),
        surround=statement(surround) if surround and surround != text else None,
    )


#: A rule that adds to the one before it ("10,000 元以上还需财务 VP 审批", "also needs the director's
#: sign-off"): what it adds to is part of its answer.
_ADDS_TO = re.compile(
    r"^[^，,。；;]{0,24}?(?:还需|还要|还须|另需|另须|同时需|并需)|^[^,.;]{0,60}?\b(?:also|additionally|in addition)\b",
    re.IGNORECASE,
)


def adds_to_rule_before(text: str) -> bool:
    """Whether `text` (a lead joined with `：` left out; thousands separators ignored) adds to the rule
    stated just before it."""
    return bool(_ADDS_TO.match(re.sub(r"(?<=\d),(?=\d{3})", "", text.split("：", 1)[-1])))

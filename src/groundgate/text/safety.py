"""Control characters in what users send: one rule for the API, the CLI and the store.

No question, answer, passage or id of ours needs a C0 control character other than tab, line feed
and carriage return, nor DEL, a C1 control or an unpaired UTF-16 surrogate (JSON's `\\ud800`). They
are refused at the edge with a clear message (HTTP 422, CLI exit 2) because further in they do harm:
PostgreSQL rejects NUL in text with an error that quotes the statement, a surrogate cannot be
encoded as UTF-8 for any database, and terminal escapes in a stored answer would run in an
operator's terminal when `groundgate trace` prints it.
"""

from __future__ import annotations

import re

ALLOWED_WHITESPACE = "\t\n\r"

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_STRICT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def first_control_character(text: str, *, allow_whitespace: bool = False) -> str | None:
    """The first forbidden character of `text`, or None. Tab, LF and CR pass only when
    `allow_whitespace` (free text); ids, paths and query strings allow none of them."""
    match = (_CONTROL if allow_whitespace else _CONTROL_STRICT).search(text)
    return match.group() if match else None


def describe(char: str) -> str:
    """`U+0000 (NUL)`-style name of a forbidden character, for error messages."""
    names = {"\x00": "NUL", "\x1b": "ESC", "\x7f": "DEL"}
    code = f"U+{ord(char):04X}"
    if char in names:
        return f"{code} ({names[char]})"
    if "\ud800" <= char <= "\udfff":
        return f"{code} (an unpaired surrogate)"
    return f"{code} (a control character)"


def control_character_problem(text: str, *, allow_whitespace: bool = True) -> str | None:
    """A message naming the first forbidden character and its position, or None when `text` is clean."""
    match = (_CONTROL if allow_whitespace else _CONTROL_STRICT).search(text)
    if match is None:
        return None
    return f"contains {describe(match.group())} at character {match.start()}"


__all__ = ["ALLOWED_WHITESPACE", "control_character_problem", "describe", "first_control_character"]

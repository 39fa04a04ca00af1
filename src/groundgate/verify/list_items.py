"""An item added to a list: `… a lone short-eared owl, a pair of trumpeter swans and a bald eagle`.

A claim that lists things the context lists is mostly supported word for word, so an invented extra
item barely lowers its overall support. Each short item of an enumeration is therefore looked up on
its own: an item none of whose content words (or, in Chinese, none of whose character pairs) the
context uses anywhere, in a list whose other items the context does hold, is an item the context never
lists (docs/design.md §2.1, "Clause-level claims"). Paraphrase rarely renames every word of a short
item, while an added item rarely shares one with the context.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from groundgate.text.segmentation import is_cjk_text, normalize, tokenize
from groundgate.verify.windows import char_bigrams

__all__ = ["unlisted_items"]

#: Where an enumeration stops: a clause or sentence mark, a dash, a colon (and in Chinese a comma).
_CLAUSE = re.compile(r"[;；:：。.!?！？—–()（），]")
#: What joins Chinese items: the enumeration comma, `和`, `及`, `与`, `以及`.
_ZH_JOIN = re.compile(r"、|以及|和|及|与")
#: An item is short: a few words or characters, not a clause.
_EN_ITEM_WORDS = 5
_ZH_ITEM_CHARS = 8
#: English words that carry no content of their own in an item.
_FUNCTION = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "on",
        "in",
        "at",
        "to",
        "for",
        "with",
        "by",
        "from",
        "one",
        "two",
        "three",
        "four",
        "five",
        "some",
        "any",
        "lone",
        "pair",
        "several",
        "few",
        "many",
        "more",
        "most",
        "other",
        "its",
        "their",
        "his",
        "her",
        "our",
        "your",
        "this",
        "that",
        "these",
        "those",
        "new",
        "old",
    ]
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def unlisted_items(claim: str, anywhere: Callable[[str], bool], fold: Callable[[str], str]) -> list[str]:
    """The items of the claim's enumerations that the context never mentions.

    `anywhere` tells whether the context uses a (folded) token; `fold` folds text the way the
    context was folded (synonyms, canonical figures)."""
    found: list[str] = []
    cjk = is_cjk_text(claim)
    for clause in _CLAUSE.split(claim):
        items = _zh_items(clause) if cjk else _en_items(clause)
        if not items:
            continue
        known = [i for i in items if _mentioned(i, cjk, anywhere, fold)]
        # The first item may carry the list's head (`设全马`): only the others are judged alone.
        unknown = [
            i
            for i in items[1:]
            if i not in known and _short(i, cjk) and _judged(i, cjk) and _has_content(i, cjk)
        ]
        if unknown and len(known) >= 2:
            found.extend(unknown)
    return found


#: An English enumeration closing a clause: `…, X, Y and Z` (at least one comma before the `and`).
_EN_LIST = re.compile(r"((?:,\s*[^,]{1,40}?)+),?\s+(?:and|or)\s+([^,]{1,40})$", re.IGNORECASE)
#: Words that make a piece a clause rather than a listed thing.
_VERBISH = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|will|would|can|could|may|might|must|should|does|did|do"
    r"|says?|said|get|gets|got)\b|\b\w+(?:ing|ed)\b",
    re.IGNORECASE,
)


#: A piece opening on one of these is a phrase or a clause, not a listed thing (`with a minute`,
#: `but take the lids off`), and a pronoun points back rather than naming (`throw those away`).
_NOT_A_THING = re.compile(
    r"^(?:with|without|in|on|at|for|to|from|by|as|but|so|yet|then|while|though|which|who|that|where|when"
    r"|if|because|than|into|over|under|after|before)\b|\b(?:those|these|it|them|they|this|that)\b",
    re.IGNORECASE,
)


def _en_items(clause: str) -> list[str]:
    """`the owl, the swans and an eagle`: its items, the first with the clause's head; none unless every
    item after the first is a short noun phrase."""
    text = clause.strip()
    m = _EN_LIST.search(text)
    if m is None:
        return []
    head = text[: m.start(1)].strip()
    # The last two items close the list; an appositive before them (`an owl, the first since 2019,
    # two swans and an eagle`) is no item.
    pieces = [p.strip() for p in m.group(1).split(",") if p.strip()]
    tail = [*pieces[-1:], m.group(2).strip()]
    if len(tail) < 2 or not all(
        _short(i, False) and not _VERBISH.search(i) and not _NOT_A_THING.search(i) for i in tail
    ):
        return []
    return [head, *tail] if head else tail


def _zh_items(clause: str) -> list[str]:
    """`身份证、户口本和医保卡`: the items joined by `、` (and a last `和`/`及`)."""
    if "、" not in clause:
        return []
    pieces = [i.strip() for i in _ZH_JOIN.split(clause) if i.strip()]
    return pieces if len(pieces) >= 2 else []


def _short(item: str, cjk: bool) -> bool:
    if cjk:
        return 2 <= len(item) <= _ZH_ITEM_CHARS and not any(c.isdigit() for c in item)
    words = _WORD.findall(item)
    return 1 <= len(words) <= _EN_ITEM_WORDS and len(words) == len(item.split()) and not item[:1].isupper()


def _judged(item: str, cjk: bool) -> bool:
    """An item judged alone names a thing: two words at least (`a bald eagle`; a lone `residential`
    may share its noun with the next item), two Chinese characters at least."""
    return cjk or len(item.split()) >= 2


def _has_content(item: str, cjk: bool) -> bool:
    if cjk:
        return len(re.sub(r"[^\u4e00-\u9fff]", "", item)) >= 2
    return any(len(w) >= 3 and w.lower() not in _FUNCTION for w in _WORD.findall(item))


def _mentioned(item: str, cjk: bool, anywhere: Callable[[str], bool], fold: Callable[[str], str]) -> bool:
    folded = fold(item)
    if cjk:
        pairs = char_bigrams(normalize(re.sub(r"[^\u4e00-\u9fff]", "", folded)))
        return not pairs or any(anywhere(p) for p in pairs)
    words = [w for w in tokenize(folded) if len(w) >= 3 and w not in _FUNCTION]
    return not words or any(anywhere(w) for w in words)

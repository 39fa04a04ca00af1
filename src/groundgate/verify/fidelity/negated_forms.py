"""Negations written without a negation word, for the negation-flip check.

Two forms a retelling may put into words that its source states without a cue (docs/design.md §2.1,
"Session 32"):

- a record field left empty or at zero: `waiting=0`, `"retries": 0`, `到账 —`, `assignee: null` —
  "none waiting", "还没有到账", "no one assigned" say the same;
- a thing the source says to avoid or stop (`avoid screwdrivers`, `冬季停止施肥`, `忌强光直射`) — "not a
  screwdriver", "冬天就不要施了" say the same;
- a case the source excludes (`定制类商品不支持无理由退货`) that the retelling names as an exception to
  its general rule (`…支持无理由退货，定制类商品则不在此列`, "…, except made-to-order items");
- a prohibition retold as a warning: "Do not promote before fencing: two writable primaries cause
  split-brain" is what "the runbook warns that promoting before fencing would cause split-brain" says;
- a state not yet reached written as a time before it (`商家接单前取消`) that the retelling puts with a
  negation (`商家还没接单时取消`) (docs/design.md §2.1, "Session 34");
- a rule's reach written as a restriction (`only for directors and above`) whose complement the
  retelling draws for the asker (`…, so it doesn't apply to you`): the negation is the reasoning's
  conclusion, not a denial of the rule (docs/design.md §2.1, "Session 34").
"""

from __future__ import annotations

import re
from functools import lru_cache

from groundgate.text.segmentation import tokenize
from groundgate.verify.fidelity.negation import _Polarity

#: A value that says the field holds nothing: zero, a dash, null/none/n.a., false, 无/空/未….
_EMPTY_VALUE = (
    r"(?:0(?:\.0+)?(?![\d.,:/-])|[—–-]{1,2}(?![\d\w])|null|none|nil|n/?a|false|empty|无|空|未\w{0,3}|否)"
)
#: Between a field's name and its value: `=`, `:`, a table bar, quotes, spaces (no words).
_FIELD_GAP = r"[\"'”]?[ \t]*(?:[=:：|][ \t]*)?[\"'“]?[ \t]*"


@lru_cache(maxsize=1024)
def _empty_field_rx(word: str) -> re.Pattern[str]:
    # The name may carry the word inside it (`到账` for `账`, `waiting_count` for `waiting`); a
    # field name has no spaces, so the word is looked for within one run of name characters.
    name = r"[\w./-]*" + re.escape(word) + r"[\w./-]*"
    if word.isascii():
        name = r"(?<![\w-])" + name
    return re.compile(name + _FIELD_GAP + _EMPTY_VALUE + r"(?=$|[\s,;，；。|\"'”}\])])", re.IGNORECASE)


def field_left_empty(word: str, text: str) -> bool:
    """Whether `text` has a field named by `word` whose value is zero or empty (`waiting=0`)."""
    if not word or (word.isascii() and len(word) < 3):
        return False
    return _empty_field_rx(word).search(text) is not None


#: Words that retell a prohibition as a warning of what doing it causes.
_WARNING_RX = re.compile(
    r"(?i:\bwarn(?:s|ed|ing)?\b|\bcaution(?:s|ed)?\b|\bat (?:the )?risk\b|\brisks?\b|\bdanger(?:ous)?\b"
    r"|\bavoid(?:s|ed)?\b|\bunsafe\b)|警告|警示|提醒|以免|避免|切勿|否则会|会导致|有风险"
)


def warned_against(word: str, plain: _Polarity) -> bool:
    """Whether a clause of `plain` that states `word` retells it as a warning (see the module)."""
    return any(s.states(word) and _WARNING_RX.search(s.folded) for s in plain.sentences)


#: Verbs that say not to do or have the thing after them.
_AVOIDED_BEFORE = (
    r"(?i:\b(?:avoid(?:s|ed|ing)?|refrain(?:s|ed|ing)?\s+from|stop(?:s|ped|ping)?|ceas(?:e|es|ed|ing)|skip(?:s|ped|ping)?"
    r"|no\s+longer|instead\s+of|rather\s+than|never)\b)|停止|避免|忌|勿|禁用|暂停|不再|切忌"
)


@lru_cache(maxsize=1024)
def _avoided_rx(word: str) -> re.Pattern[str]:
    gap = r"(?:\s+\w+){0,2}\s+" if word.isascii() else r"[^，,。；;！？!?\n]{0,4}"
    return re.compile(f"(?:{_AVOIDED_BEFORE}){gap}" + r"\w*" + re.escape(word), re.IGNORECASE)


def avoided(word: str, text: str) -> bool:
    """Whether `text` says to avoid or stop `word` right after a verb that does (see the module)."""
    return bool(word) and _avoided_rx(word).search(text) is not None


#: Words that set a case apart from the rule just stated.
#: (Not `X are exempt from Y`: that is a rule of its own, whose bounds the comparator checks read.)
_EXCEPTED_AFTER = re.compile(r"[^，,。；;]{0,6}(?:不在此列|除外|例外|不包括在内|不适用|不算|不享受)")
_EXCEPT_BEFORE = re.compile(
    r"(?i:\b(?:except|excluding|other\s+than|apart\s+from|but\s+not)\s+(?:for\s+)?)$|除了?$"
)


def excepted(cue_side: str, cue_start: int, plain: str) -> bool:
    """Whether `plain` names, as an exception to its rule, the case the negated clause of `cue_side`
    is about: a content word before the cue in that clause (`定制类` of `定制类商品不支持…`) stands in
    `plain` right before an exclusion (`定制类商品则不在此列`) or right after `except`/`除了`."""
    clause_start = max(
        (m.end() for m in re.finditer(r"[。；;！？!?\n，,:：]", cue_side[:cue_start])), default=0
    )
    for word in tokenize(cue_side[clause_start:cue_start]):
        if len(word) < 2:
            continue
        for found in re.finditer(re.escape(word), plain, re.IGNORECASE):
            if _EXCEPTED_AFTER.match(plain, found.end()) or _EXCEPT_BEFORE.search(plain[: found.start()]):
                return True
    return False


#: `没接单` / `尚未出餐` / `还没有发货`: a negation of a state not yet reached.
_NOT_YET_RX = re.compile(r"(?:还没有?|尚未|还未|没有?|未)$")
_BEFORE_AFTER = r"(?:之?前|以前)"


def before_stated(cue_side: str, cue_start: int, cue_end: int, word: str, plain: str) -> bool:
    """`商家还没接单时取消` over `商家接单前取消`: a `没`/`未` of `cue_side` that negates `word`, which
    `plain` writes right before `前`/`之前`/`以前`: the time before a state is the time it is not yet
    reached."""
    if word.isascii() or len(word) < 2:
        return False
    if _NOT_YET_RX.search(cue_side[max(0, cue_start - 2) : cue_end]) is None:
        return False
    return re.search(re.escape(word) + r"[^，,。；;]{0,2}" + _BEFORE_AFTER, plain) is not None


#: `only for directors`, `applies only to`, `仅限`, `只适用于`: a rule's reach written as a restriction.
_ONLY_RX = re.compile(
    r"(?i:\bonly\s+(?:for|to|applies|covers|if|when)\b|\bapplies\s+only\b)|仅限|仅适用|只适用|只针对|仅针对"
)
#: The verbs of such a conclusion: it does not apply, does not affect, does not count.
_APPLY_FOCUS = ("appl", "app", "affect", "count", "适用", "影响")


def restriction_complement(cue_side: str, cue_start: int, word: str) -> bool:
    """ "The option … is only for directors and above, so it doesn't apply to you": a negated `apply`
    (`affect`, `count`, `适用`) after a restriction in the same sentence is the complement the
    restriction implies for the asker's case, a conclusion drawn, not a denial of the rule; the
    restriction itself is what is checked."""
    if not any(word.startswith(f) for f in _APPLY_FOCUS):
        return False
    sentence_start = max(
        (m.end() for m in re.finditer(r"[。！？!?\n]|\.\s", cue_side[:cue_start])), default=0
    )
    return _ONLY_RX.search(cue_side[sentence_start:cue_start]) is not None


#: `as long as no other member has reserved it`: a negated condition that `unless` states without a cue.
_AS_LONG_AS_RX = re.compile(
    r"(?i:\b(?:as|so)\s+long\s+as|\bprovided(?:\s+that)?|\bon\s+condition\s+that)\s*$"
)
_UNLESS_RX = re.compile(r"(?i:\bunless\b)|除非")


def unless_stated(cue_side: str, cue_start: int, word: str, plain: str) -> bool:
    """ "… as long as no other member has reserved it" over "… unless another member has reserved it":
    a condition negated after `as long as` / `provided` is what `unless` says of the same word."""
    if _AS_LONG_AS_RX.search(cue_side[max(0, cue_start - 24) : cue_start]) is None:
        return False
    return any(word in plain[found.end() : found.end() + 40].lower() for found in _UNLESS_RX.finditer(plain))

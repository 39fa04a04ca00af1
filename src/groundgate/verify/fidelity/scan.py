"""The state of one extraction and its bookkeeping.

`_Extractor` holds the NFKC-folded text (with a map back to original offsets), its lower-cased copy,
the spans already claimed and the mentions under construction (`_Rec`); `build` turns them into
`Mentions` in original coordinates. The passes that find mentions are functions of an `_Extractor`
in the `scan_*` modules; `extraction` runs them in order, each claiming its spans before the next.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

from groundgate.verify.fidelity.model import Comparator, Mention, MentionKind, Mentions, MentionValue
from groundgate.verify.fidelity.patterns import _ALPHA_CHARS


class _Rec:
    """A mention under construction, in normalised-text coordinates."""

    __slots__ = ("comparator", "e", "kind", "qualifier", "raw", "s", "spelled", "surface", "unit", "value")

    def __init__(
        self,
        kind: MentionKind,
        value: MentionValue,
        s: int,
        e: int,
        *,
        unit: str | None = None,
        surface: str | None = None,
        raw: float | None = None,
        spelled: bool = False,
        qualifier: str | None = None,
        comparator: Comparator | None = None,
    ) -> None:
        self.kind: MentionKind = kind
        self.value = value
        self.s = s
        self.e = e
        self.unit = unit
        self.surface = surface
        self.raw = raw
        self.spelled = spelled
        self.qualifier = qualifier
        self.comparator = comparator


class _OffsetMap:
    """Folded-text offset → original offset, when NFKC changed the length (`…` → `...`, `㎡` → `m2`).

    Sparse: only the characters whose fold is not one character are stored, so a long context costs
    memory per such character, not a Python int per character.
    """

    __slots__ = ("extras", "lens", "origs", "size", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        """Folded offset where each expanded character's fold begins."""
        self.origs: list[int] = []
        self.lens: list[int] = []
        self.extras: list[int] = []
        """Folded characters gained up to and including each expanded character."""
        self.size = 0
        """Length of the folded text."""

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, p: int) -> int:
        k = bisect_right(self.starts, p) - 1
        if k < 0:
            return p
        if p < self.starts[k] + self.lens[k]:
            return self.origs[k]
        return p - self.extras[k]


def _fold(text: str) -> tuple[str, _OffsetMap | None]:
    """NFKC-fold `text`; return the folded text and, when lengths differ, a map to original offsets."""
    if text.isascii():
        return text, None
    folded = unicodedata.normalize("NFKC", text)
    if len(folded) == len(text):
        return folded, None
    chars: list[str] = []
    offsets = _OffsetMap()
    position = extra = 0
    for i, ch in enumerate(text):
        piece = _vulgar_fraction(text, i) or unicodedata.normalize("NFKC", ch)
        chars.append(piece)
        if len(piece) != 1:
            extra += len(piece) - 1
            offsets.starts.append(position)
            offsets.origs.append(i)
            offsets.lens.append(len(piece))
            offsets.extras.append(extra)
        position += len(piece)
    offsets.size = position
    return "".join(chars), offsets


#: Vulgar fractions as decimals: NFKC makes `23½` `231⁄2`, which read as 231 and a stray `2`.
_VULGAR = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125}


def _vulgar_fraction(text: str, i: int) -> str | None:
    """`½` after a digit as `.5` (`23½` → `23.5`), alone as `0.5`; None for any other character."""
    value = _VULGAR.get(text[i])
    if value is None:
        return None
    decimals = f"{value:.2f}".rstrip("0")[1:]  # `.5`, `.25`, `.33`
    return decimals if i and text[i - 1].isdigit() else "0" + decimals


class _Tok:
    """A number found by `_NUMBER_RX`, before ranges and compound durations are assembled."""

    __slots__ = ("currency", "e", "mult", "ns", "num", "raw_unit", "s", "unit_text")

    def __init__(
        self,
        s: int,
        ns: int,
        e: int,
        num: float,
        mult: str | None,
        unit_text: str | None,
        currency: str | None,
        raw_unit: str | None,
    ) -> None:
        self.s = s
        self.ns = ns
        self.e = e
        self.num = num
        self.mult = mult
        self.unit_text = unit_text
        self.currency = currency
        self.raw_unit = raw_unit


def _rec_order(r: _Rec) -> tuple[int, int]:
    return r.s, r.e


_UNIT_HYPHEN_RX = re.compile(
    r"(\d|\b(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|twenty"
    r"|thirty|forty|fifty|sixty|ninety|hundred))-(?=(?i:day|week|month|year|hour|minute|second|night"
    r"|mile|kilometre|kilometer|metre|meter|foot|inch|gram|kilogram|litre|liter|gallon)s?\b(?!-))"
)


#: The article before a measure unit: `a gallon`, `a kilometre` (not times: `a day` is usually a rate).
_ARTICLE_MEASURE_RX = re.compile(
    r"(?<![A-Za-z])[Aa](?= (?:gallon|litre|liter|mile|kilometre|kilometer|metre|meter|kilogram|gram|ounce"
    r"|square (?:metre|meter|foot|mile))s?\b(?!-))"
)
_ROUGH_YEAR_HYPHEN_RX = re.compile(r"\b((?i:early|mid|late))-(?=(?:19|20)\d\d)")
#: An age group (`under-16s free`, `over-65s`): the bound `under 16` (same length: `under 16 `).
_AGE_GROUP_RX = re.compile(r"\b((?i:under|over))-(\d{1,3})s\b")


class _Extractor:
    """One text being scanned: folded and lower-cased copies, claimed spans, mentions found."""

    __slots__ = ("lt", "mask", "nt", "offsets", "recs", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.nt, self.offsets = _fold(text)
        if "-" in self.nt:
            # `a six-month period`, `a 30-day window`: the quantity `six months`, `30 days` (not an
            # age: `14-year-old`). The hyphen becomes a space (same length: offsets stay right).
            self.nt = _UNIT_HYPHEN_RX.sub(r"\1 ", self.nt)
            self.nt = _ROUGH_YEAR_HYPHEN_RX.sub(r"\1 ", self.nt)  # `mid-2023`, `late-1990s`
            self.nt = _AGE_GROUP_RX.sub(r"\1 \2 ", self.nt)
        if "a " in self.nt or "A " in self.nt:
            # `brings a gallon of water to a boil`: one of a measure unit (same length: `1 gallon`).
            self.nt = _ARTICLE_MEASURE_RX.sub("1", self.nt)
        lower = self.nt.lower()
        if len(lower) != len(self.nt):
            lower = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.nt)
        self.lt = lower
        self.mask = bytearray(len(self.nt))
        self.recs: list[_Rec] = []

    def free(self, s: int, e: int) -> bool:
        return self.mask.find(1, s, e) < 0

    def reserve(self, s: int, e: int) -> None:
        """Claim `[s, e)` without a mention: the later passes must not read it (`3号线` is a name)."""
        self.mask[s:e] = b"\x01" * (e - s)

    def add(self, rec: _Rec) -> None:
        self.recs.append(rec)
        self.mask[rec.s : rec.e] = b"\x01" * (rec.e - rec.s)

    def left_ok(self, s: int, forbidden: frozenset[str]) -> bool:
        """The character before `s` is not one of `forbidden` (a look-behind done in Python)."""
        return s == 0 or self.nt[s - 1] not in forbidden

    def word_ok(self, s: int, e: int) -> bool:
        """`[s, e)` is a whole ASCII word: no letter glued on either side."""
        return (s == 0 or self.lt[s - 1] not in _ALPHA_CHARS) and (
            e >= len(self.lt) or self.lt[e] not in _ALPHA_CHARS
        )

    def _orig(self, s: int, e: int) -> tuple[int, int]:
        if self.offsets is None:
            return s, e
        if e <= s:
            o = self.offsets[s] if s < len(self.offsets) else len(self.text)
            return o, o
        return self.offsets[s], self.offsets[e - 1] + 1

    def build(self) -> Mentions:
        self.recs.sort(key=_rec_order)
        text = self.text
        items = []
        for r in self.recs:
            s, e = (r.s, r.e) if self.offsets is None else self._orig(r.s, r.e)
            items.append(
                Mention(
                    r.kind,
                    r.value,
                    text[s:e],
                    s,
                    e,
                    r.unit,
                    r.surface,
                    r.raw,
                    r.comparator,
                    r.spelled,
                    r.qualifier,
                )
            )
        return Mentions(text, tuple(items))

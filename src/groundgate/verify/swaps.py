"""Values of one kind that exclude each other: a schedule, a numbered variety, a rank.

Support scoring counts shared words, so a claim that changes *how often* (`按月发放` over `按季度发放`,
`every other week` over `weekly`), *which numbered kind* (`四价疫苗` over `三价疫苗`) or *which rank*
(`top seed` over `third seed`) scores as well as the true sentence: every other word is shared. Each
of these is read off the claim and off the evidence window it was aligned with (one or two
sentences); a claim value of a kind the window states only otherwise is reported as a pair, and the
claim is `no_evidence` ("unjudged"), never `contradicted`: the window may state both for different subjects, which only a
reader can tell (docs/design.md §2.1, "Exclusive values"). Pure: no I/O.

- **schedule**: how often something happens (`每月一次`, `按季度发放`, `monthly`, `every other week`,
  `once a year`). A rate (`每月 300 元`, `$40 a month`) is not a schedule: a figure right after or
  before it makes it the unit of that figure.
- **numbered kind**: a Chinese numeral fused to a noun character (`三价`, `两室`, `四驱`): the same
  noun with another numeral in the window.
- **rank**: an ordinal before a noun of rank (`third seed`, `top seed`, `second place`, `No. 2 seed`).

`added_alternatives` is the same question asked of a pair the claim offers (`退货或换货`): when the
window allows only one of two words of a kind (`质量问题商品可在 30 天内申请换货`) and the context uses
the other elsewhere (for another case), the claim widens the rule's scope.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["added_alternatives", "exclusive_swaps", "states_exclusive_value"]

_ZH_PERIOD: Final = {"天": "day", "日": "day", "周": "week", "星期": "week", "月": "month", "季度": "quarter",
                     "季": "quarter", "半年": "half-year", "年": "year"}  # fmt: skip
_ZH_SCHEDULE: Final = re.compile(
    r"(?:每个?|按)(半年|季度|星期|季|天|日|周|月|年)(?!\s*[0-9０-９一二三四五六七八九十两百千万]|份|底|初|末|中)"
    r"|(?<![0-9０-９])(半年|季度|年|月|周)(?:一次|1\s*次)"
)
_EN_SCHEDULE: Final = re.compile(
    r"\b(?:(daily)|(weekly)|(biweekly|fortnightly|every\s+other\s+week|every\s+two\s+weeks)|(monthly)|"
    r"(quarterly)|(annually|yearly)|(?:once|twice)\s+a\s+(day|week|month|quarter|year)|"
    r"every\s+(day|week|month|quarter|year))\b(?!\s*(?:[$€£¥]|\d))",
    re.IGNORECASE,
)
_EN_GROUPS: Final = ("day", "week", "2-week", "month", "quarter", "year")
#: A figure right before the period word makes it a rate's unit (`300 元/月`, `$40 a month`).
_FIGURE_BEFORE: Final = re.compile(r"(?:\d|[元块美$€£¥%]|dollars?|yuan)\s*(?:/|a|per|每)?\s*$", re.IGNORECASE)

_ZH_NUMERAL: Final = "一二两三四五六七八九十"
#: Noun characters a numeral names a kind of (`三价`, `两室`, `四驱`).
_NUMBERED_NOUNS: Final = "价室驱缸轴星门厅挡档"
_NUMBERED: Final = re.compile(rf"(?<![{_ZH_NUMERAL}零百千万\d])([{_ZH_NUMERAL}])([{_NUMBERED_NOUNS}])")

_RANKS: Final = {"top": 1, "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
                 "4th": 4, "fifth": 5, "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7,
                 "eighth": 8, "8th": 8, "ninth": 9, "9th": 9, "tenth": 10, "10th": 10}  # fmt: skip
_RANK: Final = re.compile(
    r"\b(top|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|"
    r"9th|tenth|10th|no\.\s*(\d{1,2}))[- ](seed|seeded|place|placed|pick)\b",
    re.IGNORECASE,
)

_RANK_NOUNS: Final = {"seed": "seed", "seeded": "seed", "place": "place", "placed": "place", "pick": "pick"}

_CLAUSE_END: Final = re.compile(r"[,;.!?，；。！？、]")
_DIGIT: Final = re.compile(r"[0-9０-９]")


def _is_rate(text: str, start: int, end: int, *, after: bool = True) -> bool:
    """The period word is the unit of a figure of its clause (`每年投入约 2.1 亿元`, `$65,000 worth of
    care annually`, `300 元/月`), not how often something happens."""
    before = _CLAUSE_END.split(text[max(0, start - 40) : start])[-1]
    following = _CLAUSE_END.split(text[end : end + 12])[0] if after else ""
    return bool(_DIGIT.search(before) or _DIGIT.search(following) or _FIGURE_BEFORE.search(before))


def _schedules(text: str) -> set[str]:
    found: set[str] = set()
    for m in _ZH_SCHEDULE.finditer(text):
        if _is_rate(text, m.start(), m.end()):
            continue
        found.add(_ZH_PERIOD[m.group(1) or m.group(2)])
    for m in _EN_SCHEDULE.finditer(text):
        # English puts a rate's figure first (`$40 a month`); a figure after is a date or another fact.
        if _is_rate(text, m.start(), m.end(), after=False):
            continue
        groups = m.groups()
        if groups[6] or groups[7]:
            found.add((groups[6] or groups[7]).lower())
        else:
            found.add(_EN_GROUPS[next(i for i in range(6) if groups[i])])
    return found


def _numbered(text: str) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {}
    for m in _NUMBERED.finditer(text):
        kinds.setdefault(m.group(2), set()).add(m.group(1).replace("两", "二"))
    return kinds


def _ranks(text: str) -> dict[str, set[int]]:
    ranks: dict[str, set[int]] = {}
    for m in _RANK.finditer(text):
        word = m.group(1).lower()
        value = int(m.group(2)) if m.group(2) else _RANKS[word]
        ranks.setdefault(_RANK_NOUNS[m.group(3).lower()], set()).add(value)
    return ranks


#: Cheap test of the claim before any window is read.
_GATE: Final = re.compile(
    rf"[每按]|[半季年月周]一次|[{_ZH_NUMERAL}][{_NUMBERED_NOUNS}]|"
    r"daily|weekly|monthly|quarterly|annually|yearly|biweekly|fortnightly|every|once|twice|seed|place|pick",
    re.IGNORECASE,
)


def states_exclusive_value(text: str) -> bool:
    """Whether `text` states a schedule, a numbered kind or a rank (what `exclusive_swaps` compares)."""
    return bool(_GATE.search(text)) and bool(_schedules(text) or _numbered(text) or _ranks(text))


def exclusive_swaps(claim: str, window: str) -> list[tuple[str, str]]:
    """`(claim value, window value)` for each kind the claim states one way and the aligned evidence
    window only another way (module docs)."""
    if not _GATE.search(claim):
        return []  # most claims state no schedule, numbered kind or rank: skip the window
    pairs: list[tuple[str, str]] = []
    mine, theirs = _schedules(claim), _schedules(window)
    if mine and theirs and not mine & theirs:
        pairs.append(("/".join(sorted(mine)), "/".join(sorted(theirs))))
    numbered = _numbered(window)
    for noun, values in _numbered(claim).items():
        other = numbered.get(noun, set())
        if other and not values & other:
            pairs.append((min(values) + noun, min(other) + noun))
    ranked = _ranks(window)
    for noun, ranks in _ranks(claim).items():
        other_ranks = ranked.get(noun, set())
        if other_ranks and not ranks & other_ranks:
            pairs.append((f"{min(ranks)} {noun}", f"{min(other_ranks)} {noun}"))
    return pairs


#: Two Chinese words of two characters joined as alternatives or a list (`退货或换货`, `退货和换货`).
_ZH_PAIR: Final = re.compile(r"([\u4e00-\u9fff]{2})(?:或者|或|和|及|、)([\u4e00-\u9fff]{2})")


def added_alternatives(claim: str, window: str, context: str) -> list[tuple[str, str]]:
    """`(added, kept)` for each pair of the claim whose words share a character (two of one kind:
    `退货` / `换货`), of which the window states only `kept` while the context states `added` elsewhere."""
    found: list[tuple[str, str]] = []
    pieces = [p for p in re.split(r"[。；;！？!?\n]", window) if p.strip()]
    for m in _ZH_PAIR.finditer(claim):
        a, b = m.group(1), m.group(2)
        if not set(a) & set(b) or not pieces:
            continue
        # Against the piece of the window most about the clause that offers the pair: a window of two
        # sentences may allow the other word for another case (`7 天内…无理由退货；质量问题…换货`).
        start = max((c.end() for c in re.finditer(r"[，,；;。]", claim[: m.start()])), default=0)
        cut = re.search(r"[，,；;。]", claim[m.end() :])
        clause = claim[start : m.end() + (cut.start() if cut else len(claim))]
        piece = max(pieces, key=lambda p: len(_bigrams(p) & _bigrams(clause)))
        for added, kept in ((a, b), (b, a)):
            if kept in piece and added not in piece and added in context:
                found.append((added, kept))
    return found


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}

"""Opposite words: a claim that says `放缓` where its evidence says `加快`, `lower` where it says `higher`.

Support scoring counts shared words, so a sentence with one word turned into its opposite scores as
well as the true one (`增速较10月放缓2个百分点` over `比10月份加快2.0个百分点`). A short table of
one-meaning opposites (directions, comparisons, order in time, home/away, win/lose, allow/forbid) is
checked against the sentence the claim was aligned with: the claim's word absent there, its opposite
present, and the claim not saying the opposite itself. The pair is reported, the claim `no_evidence`
(docs/design.md §2.1, "Opposites"). Pure: no I/O. Words are compared in their folded form
(`synonyms.canonical`: `rose` is `rise`, `fell` is `fall`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

__all__ = ["negated_in", "opposite_pairs"]

_PAIRS: tuple[tuple[str, str], ...] = (
    # Chinese (whole tokens as the tokenizer cuts them)
    ("加快", "放缓"), ("加快", "减缓"), ("加速", "放缓"), ("加速", "减速"),
    ("增长", "下降"), ("增长", "下滑"), ("增加", "减少"), ("上涨", "下跌"), ("上升", "下降"),
    ("提高", "降低"), ("升高", "降低"), ("扩大", "缩小"), ("上调", "下调"), ("增持", "减持"),
    ("盈利", "亏损"), ("领先", "落后"), ("提前", "推迟"),
    ("延长", "缩短"), ("主场", "客场"), ("买入", "卖出"), ("开放", "关闭"), ("允许", "禁止"),
    ("同意", "拒绝"), ("批准", "驳回"), ("出口", "进口"),
    ("顺差", "逆差"), ("净流入", "净流出"),
    # English, folded (`rose`, `rising`, `grew` are `rise`). Not order in time (`before` / `after`: a
    # summary retells a sequence from either end), nor comparisons with a threshold (`below` /
    # `above`, `高于` / `低于`, `上限` / `下限`): "8,000 is below the 10,000 where approval starts"
    # reasons with the rule's own bound; comparators are the fidelity checks' to compare.
    ("rise", "fall"), ("won", "lost"), ("home", "away"), ("surplus", "deficit"),
    ("imports", "exports"), ("inflow", "outflow"), ("majority", "minority"),
    # superlatives (session 32): `the largest rear cog` over `the smallest rear cog`
    ("largest", "smallest"), ("biggest", "smallest"), ("highest", "lowest"), ("fastest", "slowest"),
    ("longest", "shortest"), ("earliest", "latest"), ("oldest", "youngest"),
    ("最大", "最小"), ("最高", "最低"), ("最早", "最晚"), ("最快", "最慢"), ("最长", "最短"), ("最多", "最少"),
)  # fmt: skip
_OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in _PAIRS:
    _OPPOSITES[_a] = _OPPOSITES.get(_a, frozenset()) | {_b}
    _OPPOSITES[_b] = _OPPOSITES.get(_b, frozenset()) | {_a}


def negated_in(claim: str, word: str) -> bool:
    """`所有变更都不允许`: the claim negates `word`, so it says what the word's opposite says."""
    return bool(
        re.search(rf"(?:不|没有?|未|无|别|not|n't|never|no)\s*{re.escape(word)}", claim, re.IGNORECASE)
    )


def opposite_pairs(claim: Sequence[str], window: Collection[str]) -> list[tuple[str, str]]:
    """`(claim word, window word)` where the window says the opposite of a claim word it does not say,
    and the claim does not say that opposite too."""
    mine = set(claim)
    found: list[tuple[str, str]] = []
    for word in dict.fromkeys(claim):
        opposites = _OPPOSITES.get(word)
        if not opposites or word in window:
            continue
        for other in sorted(opposites):
            if other in window and other not in mine:
                found.append((word, other))
                break
    return found

"""The cases a question leaves out ("一二线以外的城市": not 一线, not 二线), and the sentences left for it.

Moved here from `agent.answer` (blind 19) so that the evidence evaluator leaves those cases out too,
before it matches the question's figures against each sentence's conditions: "去一二线以外的城市出差，
酒店一晚 351 元，超标了吗？" is over the 其他城市 cap (350 元), and the 二线 cap (450 元), which 351 元 would
fit, is no answer for a city the question places outside 二线.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.text.segmentation import jieba_cut

_EXCLUDED: Final = re.compile(r"以外|之外")
_RANKED_BEFORE: Final = re.compile(r"([一二三四五六七八九]{2,})([线级档类])$")
OTHER_CASE: Final = re.compile(r"其他|其余|其它")
#: "非一二线的城市": the ranks after 非 are left out, as those before 以外 are (`不是一二线城市` reaches here
#: already read as `一二线以外的城市`, see `agent.context`).
_NOT_RANKED: Final = re.compile(r"非\s*([一二三四五六七八九]+)([线级档类])")


def excluded_cases(question: str) -> list[str]:
    """The cases a question leaves out: `一二线以外的城市` (or `非一二线的城市`) → `一线`, `二线`;
    `北京以外` → `北京`."""
    found: list[str] = [rank + m.group(2) for m in _NOT_RANKED.finditer(question) for rank in m.group(1)]
    for m in _EXCLUDED.finditer(question):
        before = question[: m.start()]
        ranks = _RANKED_BEFORE.search(before)
        if ranks:
            found += [rank + ranks.group(2) for rank in ranks.group(1)]  # `一二线` is `一线` and `二线`
            continue
        words = [w for w in jieba_cut(before) if w.strip()]
        if words and re.fullmatch("[\u4e00-\u9fff]{2,}", words[-1]):
            found.append(words[-1].removeprefix("除"))
    return found


def not_excluded(sentences: Sequence[str], question: str) -> list[str]:
    """The sentences about a case the question does not leave out ("其他城市" stays for
    "一二线以外的城市"); all of them when every one is left out, so nothing is lost to a misreading."""
    excluded = excluded_cases(question)
    if not excluded:
        return list(sentences)
    others = [s for s in sentences if not any(x in s for x in excluded) or OTHER_CASE.search(s)]
    return others or list(sentences)

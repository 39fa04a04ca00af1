"""The HR domain's words: what the agent treats as one thing, whatever the word segmenter does.

jieba cuts "休年假" into 休年 / 假 and "住宿费" whole; a subject named by these words is found by
substring, not by token. Word classes also drive follow-ups ("那病假呢？" replaces 年假).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ENTITY", "WORD_CLASSES", "entities_in"]

WORD_CLASSES: Final = (
    ("年假", "病假", "事假", "婚假", "产假", "陪产假", "丧假", "调休"),
    ("一线城市", "二线城市", "三线城市", "其他城市"),
    ("北京", "上海", "广州", "深圳", "杭州", "成都", "武汉", "西安"),
    ("住宿", "伙食", "交通", "机票", "火车票", "体检"),
    ("试用期", "实习生", "正式员工"),
    ("差旅", "采购", "绩效"),
)
_ALIASES: Final = {
    "年休假": "年假",
    "住宿费": "住宿",
    "伙食补贴": "伙食",
    "餐补": "伙食",
    "酒店": "住宿",
    "出差": "差旅",
}

ENTITY = re.compile(
    "|".join(sorted({w for group in WORD_CLASSES for w in group} | set(_ALIASES), key=len, reverse=True))
)


def entities_in(text: str) -> list[str]:
    """The domain words of `text`, aliases folded (`年休假` → `年假`), in order, once each."""
    return list(dict.fromkeys(_ALIASES.get(m.group(0), m.group(0)) for m in ENTITY.finditer(text)))

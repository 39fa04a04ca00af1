"""Cantonese-influenced chat read in the Mandarin words the cue tables and documents use.

Employees write the way they speak ("请病假使唔使交病历㗎？我只系请两日咋。", "年假嘅话，我喺公司做咗十二年，
一年有几多日假放？", "我哋部门下个月搞团建，啲费用点报㗎？", blind 18). No cue table knew 使唔使 (需不需要),
几多 (多少), 两日 (两天) or 点报 (怎么报), and 喺/咗/嘅 split the words the subject and service-length rules
read, so these questions were asked back or planned as nothing.

Words found only in Cantonese (唔, 㗎, 嘅, 喺, 咗, 哋, 啲, 冇, 佢, 嘢 …) are read wherever they stand: no
Mandarin question holds them. Words that are ordinary Mandarin too (系 in 系统, 咋 in 咋算, 点 in 一点, 日 in
4 月 15 日, 几多) are read the Cantonese way only in a message that holds one of those markers, so a Mandarin
question reads exactly as before.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["read_cantonese"]

#: Characters only Cantonese writing uses: a message holding one is read the Cantonese way throughout.
_MARKER: Final = re.compile(r"[唔㗎嘅喺咗哋啲冇佢嘢咩喎嚟攞俾嗰]|使唔使|係咪|边个|呢个")

#: Cantonese words and their Mandarin reading, longest first so a phrase wins over its characters.
_WORDS: Final = (
    ("使唔使", "需不需要"),
    ("要唔要", "要不要"),
    ("可唔可以", "可不可以"),
    ("係咪", "是不是"),
    ("系咪", "是不是"),
    ("边个", "谁"),
    ("呢个", "这个"),
    ("嗰个", "那个"),
    ("乜嘢", "什么"),
    ("咩嘢", "什么"),
    ("几时", "什么时候"),
    ("几多", "多少"),
    ("点样", "怎样"),
    ("我哋", "我们"),
    ("佢哋", "他们"),
    ("唔", "不"),
    ("冇", "没有"),
    ("佢", "他"),
    ("嘅", "的"),
    ("喺", "在"),
    ("咗", "了"),
    ("哋", "们"),
    ("攞", "拿"),
    ("俾", "给"),
    ("嘢", "东西"),
    # "有几多日假放": leave to take is leave.
    ("假放", "假"),
)

#: Sentence-final particles that ask or soften and name nothing ("点报㗎？", "两日咋。"); 咩 asks.
_PARTICLES: Final = re.compile(r"[㗎喎咋啦呀嘛]+(?=\s*(?:[，,。？?！!～~]|$))")
#: 啲 before a noun is a determiner ("啲费用": those costs): the noun alone says what is asked.
_DETERMINER: Final = re.compile(r"啲")
#: 系 is 是 ("我只系请两日"), except inside the Mandarin words that hold it (系统, 联系, 关系, 体系).
_COPULA: Final = re.compile(r"(?<![联关体直派])[系係](?![统列咪])")
#: A count of days said with 日 ("两日", "三日", "几多日" → 多少天); a date (`4 月 15 日`) keeps its 日.
_DAYS: Final = re.compile(r"(?<![\d一二三四五六七八九十])([一二两三四五六七八九十半几少\d]+)\s*日(?![期常])")
#: 点 before a verb asks how ("点报", "点请", "点算"): 怎么.
_HOW: Final = re.compile(r"(?<![一有差])点(?=报|请|算|申请|办|搞|弄|交|批|计)")


def _days(m: re.Match[str]) -> str:
    # the day of a month (`4 月 12 日`) stays a date
    before = m.string[: m.start()].rstrip()
    return m.group() if before.endswith("月") else f"{m.group(1)}天"


def read_cantonese(text: str) -> str:
    """`text` in Mandarin words when it is written the Cantonese way (module docs); else `text`."""
    if not _MARKER.search(text):
        return text
    text = _PARTICLES.sub("", text)
    for word, reading in _WORDS:
        text = text.replace(word, reading)
    text = _DETERMINER.sub("", text)
    text = _COPULA.sub("是", text)
    text = _DAYS.sub(_days, text)
    return _HOW.sub("怎么", text)

"""Chat-window slang read as the documents' words (blind 27).

Colleagues typing into a chat window write the HR words the way they say them: 报销 as 报账 or 报个销, 年假
as 年休 or the English `AL`, the cities by their nicknames (帝都 北京, 魔都 上海), `approve` and `PTO`
inside a Chinese sentence, `住俩晚` for 住两晚, and sums half in figures (`1k2` 1200, `八百块`,
`两千五`). No cue table knew these forms, so `年休请4天 谁approve` named no leave and `帝都出差hotel一晚封顶多少`
no city (asked back), where the words they stand for are answered. `read_slang` rewrites only whole
forms a question about something else would not hold: `AL` as a Latin token of its own (never inside
`ALL` or an identifier), 年休 not already followed by 假, 报个销 and 报账 as verbs of claiming.

A digit with `k` and one more digit (`1k2`, `2k5`) is thousands and hundreds, in 元, as `5k` already
reads as 5000元 (`english.read_chat`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.vocabulary import ASKS, entities_in

__all__ = ["read_slang"]

#: Whole words of chat and their documents' reading. A Latin token is bounded by anything but a letter,
#: digit or identifier character, so `ALL`, `u-al` and `AL2` are left alone.
_WORDS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"(?<![A-Za-z0-9_=-])(?:AL|PTO|pto)(?![A-Za-z0-9_=-])"), "年假"),
    # 年休 said for 年休假 (`年休请4天`, `年休计划那条` keeps its title's word: 年休假计划)
    (re.compile(r"年休(?!假)(?=计划)"), "年休假"),
    (re.compile(r"年休(?!假)"), "年假"),
    (re.compile(r"报个销|报账|报帐"), "报销"),
    (re.compile(r"帝都"), "北京"),
    (re.compile(r"魔都"), "上海"),
    # `住俩晚`, `俩礼拜`: 俩 is 两 before a count word
    (re.compile(r"俩(?=[晚天周月年次趟个])"), "两"),
    (re.compile(r"(?i)(?<![A-Za-z])approv(?:e|es|ed|al)?(?![A-Za-z])"), "审批"),
)

#: `1k2` (1200), `2k5` (2500): thousands, then one digit of hundreds.
_K_SUM: Final = re.compile(r"(?<![A-Za-z0-9._=-])(\d)[kK](\d)(?![\dA-Za-z])(?:块钱|块|元)?")


#: Punctuation that ends or joins a clause: a message holding any is punctuated by its writer.
_PUNCTUATED: Final = re.compile(r"[，,。？?！!；;：:、]")
#: A space between two Chinese characters: where a chat message without punctuation ends a clause.
_CLAUSE_GAP: Final = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
#: A yes-no question closed by 不 in place of 吗 (`能带到明年不`, `来得及不`); never A-not-A
#: (`够不够`), which ASKS reads already, nor 不 opening a verb (`不对`).
_CLOSED_BY_NOT: Final = re.compile(r"(?<=[\u4e00-\u9fffA-Za-z])(?<!不)不$")


#: A count or figure, in digits or in words: a clause holding one states a case (`我入职三年了`).
_FIGURE: Final = re.compile(r"[\d一二两三四五六七八九十百千半]")


def _asks(clause: str) -> bool:
    # 咋 (how) and two figures offered with 还是 (`一天一百还是一百二`) ask too
    return bool(ASKS.search(clause)) or "咋" in clause or "还是" in clause


def _remark(clause: str) -> bool:
    """A clause after the last ask that asks nothing and names no domain word, figure or count
    (`群里吵起来了`, `帮同事问的`): the writer's remark on the question, no part of it."""
    return not _asks(clause) and not entities_in(clause) and not _FIGURE.search(clause)


def _clauses(text: str) -> str:
    """A chat message without punctuation, its clauses set apart as its writer's spaces set them: a clause
    that asks ends in ？ (its closing 不 read as 吗), any other in ，. So `婚假几天来着 能拆成两段休不` is two
    questions (`婚假几天来着？能拆成两段休吗？`), each judged as such, as a punctuated message's are."""
    if _PUNCTUATED.search(text) or not _CLAUSE_GAP.search(text):
        return text
    clauses = [c for c in _CLAUSE_GAP.split(text.strip()) if c]
    while len(clauses) > 1 and _remark(clauses[-1]) and _asks(clauses[-2]):
        clauses.pop()
    out = []
    for clause in clauses:
        closed = _CLOSED_BY_NOT.sub("吗", clause)
        out.append(closed + ("？" if _asks(closed) else "，"))
    return "".join(out).rstrip("，")


def read_slang(text: str) -> str:
    """`text` with its chat slang in the documents' words (see the module docstring)."""
    text = _K_SUM.sub(lambda m: f"{int(m.group(1)) * 1000 + int(m.group(2)) * 100}元", text)
    for pattern, reading in _WORDS:
        text = pattern.sub(reading, text)
    return _clauses(text)

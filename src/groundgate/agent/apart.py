"""Questions that ask one need about two words of one class: judged once per word.

"病假和年假比起来…分别还得多找谁？" compares two kinds of leave (session 29): each keeps its own rule,
so the need is judged as if the question named that word alone (`only_word`). Session 30 (blind 16)
found the same shape without a comparison word: two parts asking the same need, each about its own
word of one class — "…中间跨一个周末。想问下周末那两天还算伙食补贴吗？住宿每晚上限多少？" asks the meal
allowance in one part and the lodging cap in the other. Judged as one subject no passage names both
伙食 and 住宿, so nothing was found; judged whole, the counting question of the first part would also
have been read as asking the figure. Each word is now asked with its own part (`apart`), the parts
about the other words left out. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.agent.across import read_per_policy
from groundgate.agent.contracts import NeedCode
from groundgate.agent.legs import trip_legs
from groundgate.agent.periods import per_period
from groundgate.agent.vocabulary import NEED_CUES, WORD_CLASSES, entities_in

__all__ = ["compared_words", "only_word", "per_word"]

#: A question that sets two words of one class side by side ("病假和年假比起来", "分别", "各自", and
#: "住宿上限和伙食补贴各是多少", blind 20).
_COMPARES: Final = re.compile(
    r"各(?:是|为|要|需|有|能|多少|几)|分别|比起来|相比|对比|比较|各自|两者|有什么(?:不同|区别)|有何(?:不同|区别)"
    # phone-typed comparisons (blind 24): "病假和年假 审批有啥区别", "婚假和年假哪个要提前申请"
    r"|有啥(?:不同|区别|不一样)|哪(?:个|一个|种)(?:要|需要|得|天数|工资|更|多|少)|差(?:多少|几)|相差"
)
#: A class of cities named by what it leaves out ("一二线以外的城市", blind 17): in a comparison it is
#: one of the words compared ("一线城市和一二线以外的城市比…分别"), asked as the question names it, so
#: that reading finds the other cities' rule as the question alone would.
_EXCLUDED_CLASS: Final = re.compile(r"[一二三]{1,3}线(?:城市)?(?:以外|之外)(?:的城市|的地方)?")
#: A part asking a number of days ("一年最多能请几天病假？").
_DAYS_ASKED: Final = re.compile(r"几天|多少天")
#: The end of a part of a question (the end of a clause does not separate what is asked).
_PART: Final = re.compile(r"[^？?！!。；;]*[？?！!。；;]*")


def compared_words(question: str) -> list[str]:
    """The words of one class (`vocabulary.WORD_CLASSES`: two kinds of leave) a question compares;
    [] when it compares none."""
    if not _COMPARES.search(question):
        # "先去上海住 2 晚，再去一个二线城市住 2 晚…一共": each leg's place is judged alone (`agent.legs`)
        return [said for said, _, _ in trip_legs(question)]
    named = entities_in(question)
    excluded = [m.group(0) for m in _EXCLUDED_CLASS.finditer(question)]
    for group in WORD_CLASSES:
        words = [w for w in named if w in group]
        if group is WORD_CLASSES[1]:  # the classes of cities
            words = sorted([*words, *excluded], key=question.find)
        if len(words) >= 2:
            return words
    # "北京住 2 晚，接着去二线城市住 1 晚…各是多少": a city and a class of cities, each with its own rule
    return [said for said, _, _ in trip_legs(question)]


def only_word(question: str, word: str, compared: Sequence[str]) -> str:
    """`question` naming `word` alone in place of every word compared with it."""
    for other in compared:
        if other != word:
            question = question.replace(other, word)
    return question


def _asked_apart(question: str, need: NeedCode) -> list[str]:
    """One question per word when two or more parts ask `need`, each naming its own words of one
    class and none of another's: the question less the parts about the other words. [] otherwise."""
    parts = [p for p in _PART.findall(question) if p.strip()]
    cue = NEED_CUES.get(need)
    at = [i for i, p in enumerate(parts) if cue is not None and cue.search(p)]
    if len(at) < 2:
        return []
    for group in WORD_CLASSES:
        words = [[w for w in entities_in(parts[i]) if w in group] for i in at]
        flat = [w for ws in words for w in ws]
        if all(words) and len(set(flat)) == len(flat):
            return ["".join(p for i, p in enumerate(parts) if i == own or i not in at) for own in at]
    # "病假工资咋算？一年最多能请几天病假？" (blind 27): two asks of one subject, one of them a number of days
    # and the other not (a share of pay) — judged whole, no sentence answers both, since a number of days
    # is never answered by a share; each part is judged alone, so the one a document states is stated
    # and the other listed as missing. Two asks of one figure ("住宿上限多少？住宿超了谁出？") stay whole.
    named = [frozenset(entities_in(parts[i])) for i in at]
    kinds = {bool(_DAYS_ASKED.search(parts[i])) for i in at}
    if named[0] and all(n == named[0] for n in named) and len(kinds) == 2:
        return ["".join(p for i, p in enumerate(parts) if i == own or i not in at) for own in at]
    return []


def per_word(question: str, need: NeedCode) -> list[str]:
    """The questions `need` is judged on, one per word compared or asked apart; [] when the
    question asks it of one subject."""
    compared = compared_words(question)
    if compared:
        return [only_word(question, word, compared) for word in compared]
    # "病假要交的材料和差旅报销要交的材料分别是啥？": two policies of two domains (`agent.across`).
    # "去年 12 月…，这个月…，两次的住宿每晚上限分别是多少？": once per period (`agent.periods`).
    return read_per_policy(question) or per_period(question) or _asked_apart(question, need)

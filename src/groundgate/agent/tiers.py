"""Rules tiered by a condition the question leaves out: asked back, not answered with every tier.

"出差住酒店一晚上能报多少钱？" has three answers (一线 600 元, 二线 450 元, 其他 350 元) and "我今年到底能休几天年假？"
three more (5, 10, 15 天 by years served): the asker's own case decides, and the question does not say
it. Three blind-written sets in a row (blind 7, 8, 9) expected the agent to ask for the missing
condition rather than list every tier, as it already does for leave materials with no kind of leave
named; so it asks (`NEEDS_INPUT`, `CLARIFY`) — only for a question that is new (a follow-up carries its
case from the turn before), names no case of its own, and asks the asker's own figure ("能报多少",
"能休几天"): a question about the rule itself ("住宿标准是多少", "年休假的天数怎么算") is answered with
every tier (docs/agent.md, "Tiered rules"). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Final

from groundgate.agent.contracts import NeedCode
from groundgate.agent.vocabulary import PLACES, entities_in
from groundgate.text.places import names_a_city
from groundgate.text.segmentation import jieba_tag
from groundgate.verify.fidelity.numbers import parse_chinese_numeral

__all__ = ["as_service_length", "unstated_tier"]

#: Words that place a trip (a city, a class of cities, abroad, a project whose supplement applies).
_PLACED: Final = re.compile(r"城市|市|县|国外|境外|海外|出国|项目组|西部|东部|[省区州]")
#: Words that say how long the asker has worked.
_SERVED: Final = re.compile(
    # (`二十多年`: a length said roughly; `待了`, `呆了`: how long the asker has stayed, blind 16)
    r"(?<![今去明前后])(?:\d+|[一二两三四五六七八九十几半]+)\s*多?\s*个?\s*年(?!假|休假)|入职|工龄|司龄|干了|工作了|[待呆]了|年头|转正|试用期|新员工|实习"
)
#: "我的年假一年有几天？": one year said as the rate the days are counted by, not as years served — unless
#: it follows a verb of serving or reaching (`满一年`, `干了一年`) or goes on (`一年半`, `一年多`) (blind 16).
#: Read so only in a question about the asker's own days (`我`): "年假一年有几天" asks the rule.
_PER_YEAR: Final = re.compile(r"(?<![满了到近过超快已干做待])一年(?![半多零])")
#: An annual-leave question about its number of days (not its notice period, approval or steps).
_DAYS_ASKED: Final = re.compile(r"几天|多少天|天数|能休多久|休多久")
_NOT_ENTITLEMENT: Final = re.compile(r"提前|申请|审批|批|材料|流程|步骤|过期|顺延|攒|折现|工资")

#: A lodging question asking the standard's figure ("一晚上能报多少钱", "住宿标准是多少")…
#: Whether a sum is paid in full (`¥500一晚的酒店，能全额报销吗？`, blind 17) is the same figure asked:
#: 500 元 is within the first-tier cap and above the others, so the city decides.
_FIGURE_ASKED: Final = re.compile(r"多少|上限|额度|最多|封顶|哪一档|几百|全额|全报|报全")
#: …not what happens above it, how to enter it, or what an invoice says; and not the rule itself
#: ("住宿标准是多少", "年休假的天数怎么算": every tier is the answer).
_NOT_THE_STANDARD: Final = re.compile(
    # (`自己出`/`自己掏` is who pays above the cap; "我自己能休几天" is the asker's own figure)
    r"超|多出|自己(?:出|掏|付|垫|承担)|承担|谁出|发票|抬头|填|录|手册|系统|水单|标准|规定|制度|怎么算|如何算|计算"
)


def _names_a_place(question: str) -> bool:
    """A place name the segmenter tags (`新加坡`, `拉萨`), whatever table it is in."""
    # (the segmenter tags `礼拜` a place: "出差一个礼拜" is how long, not where — blind 18)
    return any(tag == "ns" and not _WEEK.fullmatch(word) for word, tag in jieba_tag(question))


#: A week or a day of it, which the segmenter may tag as a place.
_WEEK: Final = re.compile(r"(?:礼拜|星期|周)[一二三四五六日天]?|周末")


LODGING_QUESTION: Final = "请说明出差的城市：住宿标准按一线城市、二线城市和其他城市各不相同。"
SERVICE_QUESTION: Final = "请说明您的工作年限（或入职时间）：年休假天数按工作年限各不相同。"


def unstated_tier(question: str, needs: Sequence[NeedCode]) -> str | None:
    """The clarifying question when `question` asks an amount of a tiered rule without the case that
    picks the tier (module docs); else None."""
    if list(needs) != [NeedCode.AMOUNT_RULE]:
        return None
    words = set(entities_in(question))
    if (
        "住宿" in words
        and _FIGURE_ASKED.search(question)
        and not _NOT_THE_STANDARD.search(question)
        and not (
            words & PLACES or names_a_city(question) or _PLACED.search(question) or _names_a_place(question)
        )
    ):
        return LODGING_QUESTION
    if (
        "年假" in words
        and _DAYS_ASKED.search(question)
        and not _NOT_ENTITLEMENT.search(question)
        and not _NOT_THE_STANDARD.search(question)
        and not _SERVED.search(_PER_YEAR.sub(" ", question) if "我" in question else question)
    ):
        return SERVICE_QUESTION
    return None


#: "我是 2017 年 3 月入职的", "2015 年进的公司", "2016 年 4 月 15 号入职的": when the asker joined, which
#: sets the years served (moved here from `agent.evidence`, which had grown too long).
_JOINED = re.compile(
    # "2017 年 3 月入职", "16年国庆过后入的职": a year (two digits are this century's), a month (with
    # its day, blind 15: on the anniversary itself the year is whole) or a holiday that names one,
    # then joining
    r"((?:19|20)?\d\d)\s*年\s*(?:(\d{1,2}|[一二三四五六七八九十]{1,3})\s*月份?(?:\s*(\d{1,2})\s*[日号])?"
    r"|(国庆|春节|元旦|五一|年初|年中|年底|年末))?"
    r"\s*(?:底|初|中旬|上旬|下旬)?\s*(?:过后|之后|以后|前后|左右)?"
    r"\s*(?:入职|入的职|进(?:的)?公司|加入公司|来(?:的)?公司)"
)
#: The month a holiday or a part of the year names, for a joining date.
_MONTH_OF: Final = {"国庆": 10, "春节": 2, "元旦": 1, "五一": 5, "年初": 1, "年中": 6, "年底": 12, "年末": 12}


def as_service_length(question: str, today: date) -> str:
    """A joining date said as the whole years it makes on `today` ("2017 年 3 月入职" on 2026-04-15 →
    "入职满 9 年"; "2016 年 4 月 15 号入职" → "入职满 10 年"), so a tiered rule ("满 1 年不满 10 年") can be
    matched against it. Without a day the month's first day is taken."""

    def served(m: re.Match[str]) -> str:
        raw = m.group(2)
        month = (int(raw) if raw.isdigit() else parse_chinese_numeral(raw) or 1) if raw else 1
        month = _MONTH_OF.get(m.group(4) or "", month)
        day = int(m.group(3)) if m.group(3) else 1
        year = int(m.group(1)) + (2000 if len(m.group(1)) == 2 else 0)
        years = today.year - year - (1 if (today.month, today.day) < (int(month), day) else 0)
        return f"入职满 {max(years, 0)} 年"

    return _JOINED.sub(served, question)

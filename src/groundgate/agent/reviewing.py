"""Someone else's claim or leave, seen by whoever checks it; sums in words; polite, indirect asks (blind 21).

An HR business partner or a finance reviewer asks the rule as it applies to what another employee filed
("我是财务，在审我们东部项目一位同事的报销单：她去广州出差住了3晚…每晚能报多少？", "财务这边收到一张差旅报销单，
…还能受理吗？", "HRBP这边核算员工的病假工资…", "作为HRBP我需要审批吗"). Who is asking and what they hold in
their hands are circumstance: the role said of oneself (`我是财务，`), the claim being reviewed (`在审…的报销单：`,
`我在复核一张单子：`) and the reviewing verb are read out, so the rest asks the rule itself — the words
`财务`, `东部项目`, `单子` had been read as subject words no passage names. Accepting a claim (`受理`) is
its being reimbursed; "作为HRBP我需要审批吗" asks whether the HRBP's approval is needed. Whose rows are read
is never changed here: a question about another employee's tasks (`张伟名下的待办`) keeps its name and is
refused as before.

Sums and deadlines said in words: "四百五" a night is 450 元, "一晚340的酒店" 340 元; "能全报吗" is "能全额报销吗";
"出差回来" is the trip's end, and "在什么时候前交" asks by when it is handed in. A leave "补休" later is the
same leave still taken ("婚假…现在还能补休吗" → "还能休吗", the time limit asked), and what the asker did not
get round to (`一直没顾上休`) is circumstance. A document handed in "交的是社区诊所开的诊断证明" names who
issued it for checking against the materials rule: read as the materials asked ("…要交什么材料"), so the
rule's own words (`二级以上医院`) answer it.

Polite, indirect asks: "能不能麻烦问下，…" asks what follows, not whether one may; "I was wondering whether
you could tell me …", "Quick one:" and "I don't know the city yet." only frame an English question.
Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.english import is_english

__all__ = ["read_polite_english", "read_reviewing"]

_ROLE: Final = r"(?:财务|HRBP|HR|人事|人力|薪酬|审核人|复核人)"
_DIGITS: Final = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _spoken(m: re.Match[str]) -> str:
    """ "四百五" → "450元", "一千二" → "1200元" (the second digit is the next place down)."""
    unit = 1000 if m.group(3) == "千" else 100
    value = _DIGITS[m.group(2)] * unit + (_DIGITS[m.group(4)] * unit // 10 if m.group(4) else 0)
    return f"{m.group('lead')}{value}元"


_REWRITES: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # "能不能麻烦问下，…": a polite frame, not whether one may
        (r"能不能麻烦(?:您|你)?(?:问下|问一下|请教一下|请教下)[，,：:]?", ""),
        # "我是财务，", "我是HRBP，": the asker's role, said of oneself
        (rf"我是{_ROLE}[^，,：:。？?]{{0,4}}[，,：:]", ""),
        # "在审我们东部项目一位同事的报销单：", "我在复核一张单子：": the claim in the reviewer's hands
        (
            rf"(?:我|{_ROLE})?(?:这边|这里)?(?:正|在|正在)+(?:审|复核|审核|核对|核查)(?!批)"
            r"[^，,：:。？?]{0,20}?(?:单子|报销单|单据)[：:，,]",
            "",
        ),
        # "财务这边收到一张差旅报销单，": a claim received is the claim
        (
            rf"{_ROLE}(?:这边|这里)?(?:收到|拿到|接到)了?一(?:张|份|笔)([^，,：:。？?]{{0,8}}?)报销单",
            r"\1报销",
        ),
        # "HRBP这边核算员工的病假工资": the reviewer's computing is circumstance
        (rf"{_ROLE}(?:这边|这里)(?:核算|计算|算|核对)(?:员工|同事|下属)?的?", ""),
        # "作为HRBP我需要审批吗": whether that role's approval is needed
        (
            rf"作为({_ROLE}|直属主管|部门负责人|部门经理)[，,]?我(?:需要|要|得|还要|还需要)(审批|批)",
            r"需要\1\2",
        ),
        # "还能受理吗", "提交上来": accepting a claim is its being reimbursed
        (r"(能|可以)(?:受理|接收|收)(?=吗|么|不|[？?])", r"\1报销"),
        (r"(?<=提交)上来", ""),
        # "一晚四百五", "报了四百": a sum in words after a rate or a claim, in 元
        (
            r"(?P<lead>[一每]\s*晚|[一每]\s*天|报了|花了|住了)\s*([一二两三四五六七八九])([百千])"
            r"([一二两三四五六七八九])?(?![一二两三四五六七八九十百千万天年月周个元块])",
            "",
        ),
        # "一晚340的酒店": a bare figure priced by the night, in 元
        (r"(?<=[一每]晚)\s*(\d{2,5})(?=的)", r"\1元"),
        # "能全报吗", "能报全吗": paid in full
        (r"(?<=能)(?:全报|报全)(?=吗|么|不|[？?])", "全额报销"),
        # "出差回来的", "出差回来后": the trip's end
        (r"(?<=出差)回来", "结束"),
        # "在什么时候前交": by when it is handed in
        (r"(?:得|要)?(?:在)?(什么时候|啥时候|哪天|几号)(?:之前|以前|前)(交|提交)", r"\1\2"),
        # "一直没顾上休，现在还能补休吗": a leave still taken, not leave in lieu
        (r"一直没(?:顾上|来得及|空|时间)?休(?=[，,])", ""),
        (r"(?<=能)补休", "休"),
        # "交的是社区诊所开的诊断证明，…材料合规吗": the materials asked
        (r"交的是([^，,。？?]{1,10}?)开的(诊断证明|证明|病历)", r"\2是\1开的"),
        (r"材料(?:合规|合格|符合要求|齐全|齐不齐|够不够|行不行)(?:吗|么|不)?", "要交什么材料"),
    )
)


def read_reviewing(text: str) -> str:
    """`text` with a reviewer's circumstance, sums in words and polite frames read out (module docs)."""
    for pattern, replacement in _REWRITES:
        if replacement == "" and "lead" in pattern.groupindex:
            text = pattern.sub(_spoken, text)
        else:
            text = pattern.sub(replacement, text)
    return re.sub(r"^[，,：:\s]+|(?<=[，,])[，,]+", "", text)


#: English frames that only introduce a question, or say the asker does not know a case yet.
_ENGLISH_FRAMES: Final = (
    (re.compile(r"(?i)\bI (?:was|am) wondering (?:whether|if) you could (?:tell|let) me\s+"), ""),
    (re.compile(r"(?i)^\s*(?:quick (?:one|question)|one more thing)\s*[:,-]\s*"), ""),
    (re.compile(r"(?i)\s*I (?:don't|do not) know (?:the|which) (?:city|place) yet\.?"), ""),
    # "a 6k travel claim": thousands in yuan, and a claim for travel
    (re.compile(r"(?<![A-Za-z0-9.])(\d+)\s*[kK](?![A-Za-z])"), "\\g<1>000 yuan"),
    (re.compile(r"(?i)\btravel (?:expense )?claims?\b"), "travel expense claim"),
)


def read_polite_english(text: str) -> str:
    """`text` less the English frames that only introduce it (module docs), when it is English."""
    if not is_english(text):
        return text
    for pattern, replacement in _ENGLISH_FRAMES:
        text = pattern.sub(replacement, text)
    return text.strip()

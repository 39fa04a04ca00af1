"""Everyday words for the documents' terms, and asks the documents never answer (blind 22).

A new employee says what a rule is about in plain words, with none of the documents' terms: "回老家办自己的
喜事" is 婚假, "生病请假在家" 病假, leave "出去玩/旅游" 年假, "去外地跑业务自己垫的钱" a 差旅报销, "领导点头"
审批, "消费明细单" the 酒店水单, "在电脑上怎么报" the 费控系统's steps. `read_everyday` reads those words as
the documents' own before any cue table sees the question, and a task said by what it is about ("那个体检的
事", "给自己这个季度打分的那个表", "报三月份出差花销那件事") as its title's words, so the named task is read.
Only a kind of leave said by its grounds is added where the question names no kind of leave already.

`asks_unwritten` finds what no document states, asked as if it did: why a rule is so ("为什么偏偏定 30
天？", "为啥…还得 HRBP 批？" — documents give rules, never reasons) and how leave days are counted or
classed ("多出来的两天算什么假", "周末算在那十天里面吗"). Those are refused before any search
(`NO_EVIDENCE`), never answered with the nearest rule. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["asks_unwritten", "asks_where_written", "read_everyday", "where_written"]

#: Any kind of leave already named: the grounds then add nothing.
_LEAVE_NAMED: Final = re.compile(r"年假|年休假|病假|婚假|事假|产假|陪产假|丧假|调休")
#: A leave's grounds said in everyday words → the kind of leave they are.
_GROUNDS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"(?:回老家)?办(?:自己的)?喜事|(?:回老家)?办婚礼|(?:回老家)?办酒席"), "休婚假"),
    (re.compile(r"生病(?:请假)?在家|生病请假|医生让我在家养|在家养病"), "休病假"),
    # "因病需要连续请假 7 天" (blind 25): the grounds before the leave name its kind
    (re.compile(r"因病(?:需要|要|得|想|而)?((?:连续)?)请假"), r"\1请病假"),
    (re.compile(r"(?:家里|家中)(?:的)?老人走了|老人(?:去世|过世)了?|(?:回去)?办后事|奔丧"), "休丧假"),
)
#: Leave taken for pleasure ("请几天假出去玩一趟", "连休一个多礼拜出去旅游") is 年休假.
_PLEASURE: Final = re.compile(r"(?:请(?:几天)?假)?(?:出去玩|出去旅游|去旅游|旅游)(?:一趟)?")
_LEAVE_VERB: Final = re.compile(r"请[^，,。？?]{0,4}假|连休|休假|歇")
#: Plain words for the documents' terms (not grounds of a leave).
_TERMS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"(?:去外地|到外地)(?:跑业务|干活|出差)|公司派我去外地干活"), "出差"),
    (re.compile(r"出差(?:的)?花销|出差(?:花的|垫的)钱"), "差旅报销"),
    (re.compile(r"自己垫(?:付)?的钱"), "报销"),
    (re.compile(r"在电脑上怎么报|在网上怎么报"), "在费控系统里怎么报销"),
    (re.compile(r"先点哪(?:儿|里)?"), "操作步骤是什么"),
    (re.compile(r"有没有(?:时间限制|期限|时限)"), "要在多少天内提交"),
    # "报下来只给了六百，剩下的一百怎么没了": the part over the cap, and who bears it
    (re.compile(r"剩下的[^，,。？?]{0,6}怎么没了"), "超出的部分谁承担"),
    (re.compile(r"要?哪(?:几|些)位?领导点头|(?:领导|谁)点头"), "要谁审批"),
    (re.compile(r"消费明细单|消费明细"), "水单"),
    # "还得 HRBP 批": the approver named, 批 is 审批
    (re.compile(r"(HRBP|总监|负责人)\s*批(?![准示])"), r"\1 审批"),
    # "公司会给假让我回去办后事吗", "公司让请吗": whether the leave may be taken
    (re.compile(r"公司(?:会)?(?:给假|让请)[^？?。，,]{0,10}?(?=吗)"), "能休"),
    # "工资是全额照发还是要打折": how the pay is paid
    (re.compile(r"(?:是)?全额照发还是要?打折|照发还是打折|打不打折"), "怎么发"),
    # "三月份出差…": the month alone, so a month naming a task is read as one
    (re.compile(r"([一二三四五六七八九十\d]+)月份"), r"\1月"),
    # a task by what it is about: "给自己这个季度打分的那个表" is the quarter's self-assessment
    (re.compile(r"给自己(?:这个)?(季度)?打分的?"), r"\1绩效自评"),
    (re.compile(r"那个([\u4e00-\u9fff]{2,4}?)的事"), r"\1那件事"),
    (re.compile(r"([\u4e00-\u9fff]{2,6}?)那事"), r"\1那件事"),
    # "我是不是早就该弄完了": whether it is past its date; "还没给她批": not yet approved
    (re.compile(r"(?:早就)?该(?:弄|做|办|交|处理)完了"), "过期了"),
    (re.compile(r"没给(?:她|他)(批|审批)"), r"没\1"),
)
#: Leave asked at short notice ("明天就休，今天才在系统里提，会不会批不下来？") asks the notice period.
#: (blind 26: "我明天想请一天年假，现在才提交还来得及吗？" — a leave tomorrow, asked whether it is in time.)
_SHORT_NOTICE: Final = re.compile(
    r"(?:明天|后天|当天)(?:就|想|要)?(?:休|请)|(?:今天|现在)才[^，,。？?]{0,6}提"
)
#: A material lost, the rest in hand ("水单找不到了，就剩发票，这样能报吗"): the list of materials answers.
_LOST: Final = re.compile(r"找不到了|弄丢了|丢了")
_STILL_CLAIM: Final = re.compile(r"(?:这样|那)?(?:还)?能报(?:销)?吗")
#: A premise quoted from a rumour or memory ("听老同事说年假要干满十年才有，", "我记得婚假就 3 天，").
_RUMOUR: Final = re.compile(r"^(?:听[^，,。？?]{0,6}说|我记得|论坛上说|网上说|有人说)([^，,。？?]+)[，,]")
#: What the asker concludes from it ("那我休完 3 天就得回来上班了吧？"): the premise is what is checked.
_CONCLUDED: Final = re.compile(r"^那(?:我)?[^？?。]*吧[？?]?$")
#: The asker's own circumstance after it ("我来公司三年了，"): the true rule for it answers.
_OWN_CASE: Final = re.compile(r"^我[^，,。？?]{1,10}了[，,]")
_WILL_IT_PASS: Final = re.compile(r"会不会批不下来|批得下来吗|能批吗|会不会不批|(?:还)?(?:来得及|赶得上)吗")

#: Why a rule is so: documents state rules, never their reasons.
_WHY_RULE: Final = re.compile(
    r"(?:为什么|为啥|为何)(?:偏偏|非得|非要|一定要)"
    r"|(?:为什么|为啥|为何)[^？?。，,]{0,12}(?:还得|非得|偏偏|定成?\s*[\d一二三四五六七八九十])"
)
#: How leave days are classed or counted: "多出来的两天算什么假", "周末算在那十天里面吗".
_DAYS_COUNTED: Final = re.compile(
    r"算(?:什么|啥|哪种|哪类)假|(?:周末|节假日|休息日)算(?:在|进)[^？?。]{0,8}里"
)


def _read_rumour(question: str) -> str:
    """A rumoured premise checked ("…，对吗？") when only concluded from, else reduced to what it is about
    ("年假，") before the asker's own circumstance, whose rule then answers; else the question as it is."""
    rumour = _RUMOUR.match(question)
    if rumour is None:
        return question
    rest = question[rumour.end() :]
    if _CONCLUDED.match(rest):
        return f"{rumour.group(1)}，对吗？"
    kinds = _LEAVE_NAMED.findall(rumour.group(1))
    if _OWN_CASE.match(rest) and len(kinds) == 1:
        return f"{kinds[0]}，{rest}"
    return question


def read_everyday(question: str) -> str:
    """`question` with its everyday words read as the documents' terms (see the module docstring)."""
    text = _read_rumour(question)
    if not _LEAVE_NAMED.search(text):
        for cue, kind in _GROUNDS:
            if cue.search(text):
                text = cue.sub(kind, text, count=1)
                break
        else:
            if _PLEASURE.search(text) and _LEAVE_VERB.search(text):
                text = _PLEASURE.sub("休年假", text, count=1)
    for cue, words in _TERMS:
        text = cue.sub(words, text)
    if _LEAVE_NAMED.search(text) and _SHORT_NOTICE.search(text):
        text = _WILL_IT_PASS.sub("需要提前几天申请", text)
    if _LOST.search(text):
        text = _STILL_CLAIM.sub("报销要交哪些材料", text)
    return text


def asks_unwritten(question: str) -> bool:
    """Whether `question` asks a rule's reason or how leave days are counted (no document states them)."""
    return bool(_WHY_RULE.search(question) or _DAYS_COUNTED.search(question))


#: "这个是哪份文件里写的？", "这规定写在哪儿？", "…这条，是在哪份规定里？": where a rule just stated is written.
_WHERE_WRITTEN: Final = re.compile(r"哪份(?:文件|规定|制度)|写在哪|哪(?:里|儿)写的|出处|原文")
_WHY: Final = re.compile(r"^(?:为什么|为啥|为何)(?:偏偏)?")


def where_written(question: str, previous: str) -> str | None:
    """The earlier question (less a `why` that made it unanswerable) when `question` asks only where its
    rule is written: the rule is stated again with its citation. None for any other question."""
    if not previous or not _WHERE_WRITTEN.search(question):
        return None
    return _WHY.sub("", previous.strip())


#: "二线城市住宿不是 380 封顶吗？": a figure put up for checking, which the stated rule confirms or corrects.
_FIGURE_DOUBTED: Final = re.compile(
    r"不是[^，,。？?]{0,8}(?:\d|[两二三四五六七八九十百千])[^，,。？?]{0,8}吗"
)


def asks_where_written(part: str) -> bool:
    """Whether `part` asks where a rule is written, or puts a figure up for checking: the stated rule
    and its citation answer it (no part left unanswered)."""
    return bool(_WHERE_WRITTEN.search(part) or _FIGURE_DOUBTED.search(part))

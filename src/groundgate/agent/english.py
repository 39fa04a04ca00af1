"""Questions asked in English: read as the documents' Chinese words before any rule sees them.

Blind 13 added questions from an expatriate employee ("Can I already take annual leave (年假)?",
"What paperwork do I need to hand in for my 病假?"). Every cue table of the agent is Chinese, so an
English question found no need at all and was handed back as an incomplete plan (`NEEDS_INPUT`), even
where it named the leave in Chinese. Chat English inside a Chinese question was already read word by
word (`hotel`, `reimburse`, `deadline`, `to-do`); a question written mostly in English is now glossed
phrase by phrase — leave kinds, expenses, what is asked (`how many days` → 几天, `what paperwork` →
哪些材料, `who approves` → 谁审批), times (`June 2024` → 2024年6月, `last week` → 上周, `at that time`
→ 当时, `these days` → 现在), counts (`four days in a row` → 连续4天) and the forms that put a figure
up for checking (`is still 380 a night, right?` → 还是380元一晚对吧) — and its other English words are
dropped, since a word the glossary does not know says nothing the rules could read and would
otherwise stand as a subject word no passage names. Identifiers (`u-wang`, `userId=…`), acronyms
(`OA`, `CRM`, `HRBP`) and the English task words the planner reads are kept. A yes-no question
(`Can I…?`, `Is…?`, `Do I…?`) ends in 吗, as its Chinese form does. Figures survive as digits, so the
planner's fidelity check holds. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from groundgate.verify.fidelity.units import _EN_ONES as EN_ONES

__all__ = ["is_english", "read_chat", "read_english", "read_mixed"]

_LATIN_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]")

#: Number words (`three days`, `a week`): the checker's English number words up to thirty, and the
#: articles as one.
_NUMBERS: Final = {word: value for word, value in EN_ONES.items() if 0 < value <= 30} | {"a": 1, "an": 1}
_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
#: The days of the week in English (the stem before `day`) and in Chinese.
_WEEKDAYS: Final = (
    ("mon", "一"),
    ("tues", "二"),
    ("wednes", "三"),
    ("thurs", "四"),
    ("fri", "五"),
    ("satur", "六"),
    ("sun", "日"),
)
_UNITS: Final = {"day": "天", "night": "晚", "week": "周", "month": "个月", "year": "年"}

_NUMBER = r"(\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else _NUMBERS[raw.lower()]


def _length(m: re.Match[str]) -> str:
    # "four days in a row", "for 3 consecutive days": a length, 连续 when it runs unbroken.
    row = bool(m.group("row_before") or m.group("row_mid") or m.group("row_after"))
    return f"{'连续' if row else ''}{_count(m.group('n'))}{_UNITS[m.group('unit').lower()]}"


def _month_year(m: re.Match[str]) -> str:
    return f"{m.group(2)}年{_MONTHS[m.group(1).lower()]}月"


def _month(m: re.Match[str]) -> str:
    return f"{_MONTHS[m.group(1).lower()]}月"


def _holder_due(m: re.Match[str]) -> str:
    who = {"i": "我", "we": "我", "he": "他", "she": "她", "they": "他们"}[m.group(1).lower()]
    return f"{who}有哪些待办到期"


def _figure_per(m: re.Match[str]) -> str:
    unit = {"night": "晚", "day": "天"}[m.group(2).lower()]
    return f"{m.group(1)}元一{unit}"


#: The HR words of English (leave kinds, expenses, the ranked cities): glossed in a question written in
#: English, and in chat English inside a Chinese one too ("我的 annual leave 一年有几天？", `read_mixed`).
_DOMAIN_PHRASES: Final[tuple[tuple[str, str], ...]] = (
    # leave
    (r"\b(?:annual leave|annual holidays?|paid (?:time off|leave)|vacation(?: days)?|pto)\b", "年假"),
    (r"\b(?:sick leave|sick days?|(?:out|off|was|been|am|got|ooo|oof) sick)\b", "病假"),
    (r"\b(?:marriage|wedding) leave\b", "婚假"),
    (r"\bpaternity leave\b", "陪产假"),
    (r"\bmaternity leave\b", "产假"),
    (r"\b(?:bereavement|funeral|compassionate) leave\b", "丧假"),
    (r"\b(?:personal|unpaid) leave\b", "事假"),
    (r"\b(?:time off in lieu|comp(?:ensatory)? (?:time|days?)|lieu days?)\b", "调休"),
    (r"\b(?:registered (?:my|our) marriage|got married|get married)\b", "登记结婚"),
    (r"\b(?:on )?probation(?:ary period)?\b", "试用期"),
    (r"\binterns?(?:hip)?\b", "实习生"),
    # expenses
    (r"\b(?:business trips?|work trips?|travel(?:l?ing)? for work)\b", "出差"),
    (r"\b(?:meal allowance|meal subsid(?:y|ies)|per diem|meals?)\b", "伙食补贴"),
    (r"\b(?:hotels?|lodging|accommodation)\b", "住宿"),
    (r"\b(?:transport(?:ation)?|taxis?)\b", "交通"),
    # a seat class of a train or flight (blind 26: "a first-class seat on the high-speed train")
    (r"\bhigh[- ]speed (?:rail|trains?)(?![A-Za-z])", "高铁"),
    (r"\bfirst[- ]class(?: seats?| tickets?)?", "一等座"),
    (r"\bbusiness[- ]class(?: seats?| tickets?)?", "商务座"),
    (r"\bsecond[- ]class(?: seats?| tickets?)?", "二等座"),
    (r"\bbook\b", "订"),
    (r"\b(?:first[- ]tier|tier[- ]?(?:1|one)) cit(?:y|ies)\b", "一线城市"),
    (r"\b(?:second[- ]tier|tier[- ]?(?:2|two)) cit(?:y|ies)\b", "二线城市"),
    # the cities the policy ranks, in pinyin as an expatriate writes them
    (r"\bbeijing(?![A-Za-z])", "北京"),
    (r"\bshanghai(?![A-Za-z])", "上海"),
    (r"\bguangzhou(?![A-Za-z])", "广州"),
    (r"\bshenzhen(?![A-Za-z])", "深圳"),
    (r"\bhangzhou(?![A-Za-z])", "杭州"),
    (r"\bchengdu(?![A-Za-z])", "成都"),
    (r"\bwuhan(?![A-Za-z])", "武汉"),
    (r"\bxi'?an(?![A-Za-z])", "西安"),
    # the HR words in pinyin, as an expatriate or a quick typist writes them (blind 19: "chuchai 回来",
    # "baoxiao", "huoshi buzhu", "peichanjia"): whole words only, never inside an English word
    (r"\bnian ?jia\b", "年假"),
    (r"\bbing ?jia\b", "病假"),
    (r"\bhun ?jia\b", "婚假"),
    (r"\bpei ?chan ?jia\b", "陪产假"),
    (r"\bchu ?chai\b", "出差"),
    (r"\bbao ?xiao\b", "报销"),
    (r"\bhuo ?shi ?bu ?zhu\b", "伙食补贴"),
    (r"\bzhu ?su\b", "住宿"),
    (r"\bshen ?pi\b", "审批"),
    (r"(?<=\d) ?(?:kuai|yuan|rmb)\b", "元"),
    (r"\bexpense system\b", "费控系统"),
    (r"\b(?:expense claims?|reimbursements?|reimbursed?)\b", "报销"),
    (r"\b(?:budget|cap|limit|ceiling|maximum|max)\b", "上限"),
    (r"\bdaily\b", "每天"),
)


#: "Isn't it true that…", "Is it right that…": a premise put up for checking, a yes-no question of its own.
_CHECKED: Final = r"\b(?:is|was)(?:n['’]?t| not)? it (?:true|right|correct|the case) that"


#: Phrase → the documents' words, in order (longer phrases first where one holds another).
_Replacement = str | Callable[[re.Match[str]], str]
_PHRASES: Final[tuple[tuple[str, _Replacement], ...]] = (
    # greetings and openers say nothing about the question
    (r"^\s*(?:hi|hello|hey|dear)\b[^,.!?:]*[,.!:]", " "),
    # "a 4,000 yuan expense claim": a thousands separator is no comma between clauses (blind 25)
    (r"(?<=\d),(?=\d{3}(?!\d))", ""),
    # "Zhang Wei's pending tasks" (blind 25): a person's tasks, someone else's — read as 他的待办
    # (`agent.holders`), never as the caller's; capitalised words only, not "this week's tasks"
    (
        r"(?-i:\b(?!(?:Today|Tomorrow|This|Next|Last|My|Our|Your|The|Each|Every|Which|What)\b)[A-Z][a-z]+"
        r"(?: [A-Z][a-z]+)?)['’]s (?:(?:pending|open|outstanding|current|upcoming|overdue) )?(?:tasks?|to-?dos?)\b",
        "他的待办",
    ),
    (r"\bquick (?:check|question|q)\s*[:,—–-]", " "),
    # "Isn't it true that the meal allowance is 100 a day?": a figure put up for checking, asked the
    # way the Chinese cue tables read one ("…是不是 100 元", blind 19)
    (_CHECKED + r"\s+(.+?)\s+(?:is|are)\s+", r"\1 是不是 "),
    # "I can reimburse the cost or not?": a yes-no question said the Chinese way (blind 15)
    (
        r"\b(?:i|we) can (?:reimburse|claim)(?: (?:the|my|our) (?:costs?|expenses?))?(?: or not)?\s*\?",
        "我能报销吗？",
    ),
    (r"\bwhat (?:do )?(?:i|we) (?:need|have) (?:to )?do before\b", "事先要满足什么条件"),
    # times
    (r"\b" + _MONTH + r"\s*,?\s*((?:19|20)\d\d)\b", _month_year),
    (r"\bin ((?:19|20)\d\d)\b", r"\1年"),
    (r"\bin " + _MONTH + r"(?![A-Za-z])", _month),
    (r"\blast week\b", "上周"),
    # "start my annual leave next Monday" (blind 26): a day of next week, as in chat English
    *((rf"\bnext {name}day(?![A-Za-z])", f"下周{day}") for name, day in _WEEKDAYS),
    # "What is the latest day I can submit the request?": the last day a request is in time
    (
        r"\bwhat(?:'s| is) the latest (?:day|date)(?: (?:i|we) can| to)? (?:submit|hand in|file|send)"
        r"(?: (?:the|my|a) (?:request|application))?",
        "最晚哪天提交申请",
    ),
    (r"\bnext week\b", "下周"),
    (r"\bthis week\b", "本周"),
    (r"\bnext month\b", "下个月"),
    (r"\blast month\b", "上个月"),
    (r"\bthis month\b", "本月"),
    (r"\bthis year\b", "今年"),
    (r"\blast year\b", "去年"),
    (r"\btoday\b", "今天"),
    (r"\btomorrow\b", "明天"),
    (r"\b(?:at that time|at the time|back then|in those days)\b", "当时"),
    (r"\b(?:these days|right now|currently|at the moment|nowadays|now)\b", "现在"),
    # a currency written before the figure (blind 17: "a hotel at RMB 800 per night"): the figure in 元
    (r"(?:\b(?:rmb|cny)|¥|￥)\s*(\d+(?:\.\d+)?)(?:\s*(?:yuan|rmb)\b)?", r"\1元"),
    (r"\b(?:be |get |been )?reimbursed (?:in full|fully)(?![A-Za-z])", "能全额报销"),
    (r"\b(?:in full|fully|the full amount)(?![A-Za-z])", "全额"),
    # two figures offered (blind 18: "Is the 伙食补贴 100 or 120 per day now?"): the Chinese 还是
    # between them, so two sources stating the two are a conflict, as "一天一百还是一百二" is
    (r"(\d+(?:\.\d+)?)\s*(?:yuan|rmb|元|块)?\s+or\s+(?=\d)", r"\1还是"),
    # what someone else says the figure is: "My team lead says it went up to 120 in March."
    (r"\b(?:team lead|team leader|supervisor)\b", "组长"),
    (r"\b(?:says?|said|told me|tells me)\b(?: that)?", "说"),
    (r"\b(?:it )?(?:went|goes|has gone|was raised|has been raised|increased|rose) (?:up )?to\b", "涨到"),
    # figures put up for checking: "is still 380 a night, right?"
    (r"(\d+)\s*(?:yuan|rmb|元|块)?\s*(?:a|per|each)\s+(night|day)\b", _figure_per),
    (r"\b(?:is |are )?still\s+(?=\d)", "还是"),
    (r"\s*,?\s*\b(?:right|correct|isn't it|is that right)\s*\?", "对吧？"),
    (r"\b(?:a|per|each) night\b|\bnightly\b", "每晚"),
    (r"\b(?:a|per|each) day\b", "每天"),
    # lengths: "four days in a row", "for 3 consecutive days"
    (
        r"\b(?P<row_before>consecutive\s+|straight\s+)?(?P<n>"
        + _NUMBER[1:-1]
        + r")\s+(?:(?P<row_mid>consecutive|straight)\s+)?(?P<unit>day|night|week|month|year)s?"
        r"(?P<row_after>\s+in a row|\s+straight|\s+consecutively)?\b",
        _length,
    ),
    *_DOMAIN_PHRASES,
    # what is asked
    (r"\b(?:what|which) (?:paperwork|documents?|materials?|proof)\b", "哪些材料"),
    (r"\b(?:paperwork|supporting documents?|documents?|materials?)\b", "材料"),
    (
        r"\bwho (?:has to |needs to |must |should |will |do i need to |does )?(?:approves?|sign off)\b",
        "谁审批",
    ),
    (r"\b(?:approv(?:e|es|al|ed)|sign[- ]off)\b", "审批"),
    # why a rule is so: "Why the meal allowance is change to 120? What is the reason…" (blind 15)
    (r"\b(?:what is |what's )?the reasons?\b|\breasons?\b", "什么原因"),
    (r"\bwhy\b", "为什么"),
    (r"\b(?:is |was |are |has been |have been |been )?chang(?:e|es|ed|ing) (?:to|into)\b", "改成"),
    # what someone has falling due (blind 17: "What do I have due next week?", "What's he got due next
    # week?"): whose tasks they are stays in the words — 他/她 are someone else's (`agent.holders`)
    (
        r"\bwhat(?:'s| is| has| have| do| does)? (i|we|he|she|they)(?: (?:have|has|'ve|'s))?(?: got)?"
        r" (?:due|to do|pending|outstanding|left to do)\b",
        _holder_due,
    ),
    # "when's my approval task due?": when one task falls due
    (r"\bwhen(?:'s| is| are| will)?\b(.*?)\bdue\b", r"\1什么时候到期"),
    (r"\bdue\b", "到期"),
    (r"\bhow many days\b", "几天"),
    (r"\bhow long\b", "多久"),
    (r"\b(?:how much|what's|what is|what are)\b", "多少"),
    (r"\b(?:steps?|procedure|process)\b", "流程"),
    (r"\bhow (?:do|can|should) (?:i|we) (?:apply|submit|claim)\b", "怎么申请"),
    (r"\boverdue\b|\bpast due\b", "逾期"),
    # the caller's own work in office English: "what's on my plate", "on my to-do list"; "which
    # task I have to finish in this week", "which one is due first" (blind 15)
    (
        r"\b(?:which|what) (?:tasks?|to-?dos?)(?: (?:do )?(?:i|we) (?:have to|need to|must|should)"
        r"(?: finish| do| complete| submit)?)?",
        "我有哪些待办",
    ),
    # "Which of my approval tasks are already overdue?" (blind 26): some of the caller's tasks, of a kind
    (r"\b(?:which|what) of (?:my|our) ([\u4e00-\u9fff]{1,6}\s*)?(?:tasks|to-?dos)\b", r"我有哪些\1待办"),
    (r"\b(?:are|is) already\b", "已经"),
    (r"\bwhich one is due first\b", "哪个先到期"),
    (r"\b(?:what's |what is )?on my plate\b", "我有哪些待办"),
    (
        r"\bis there (?:any )?(?:way|chance) (?:to|that (?:i|we) can) (?:carry|roll) ((?:[^\s?]+ ){1,4})over\b",
        r"\1能结转",
    ),
    (r"\b(?:carr(?:y|ied|ies) (?:it |them )?over|roll(?:ed|s)? over)\b", "结转"),
    # "roll my unused annual leave over into next year": the thing carried sits between verb and particle
    (r"\b(?:carr(?:y|ied|ies)|roll(?:ed|s)?) ((?:[^\s?]+ ){1,4})over\b", r"\1结转"),
    (r"\bunused\b", "没休完的"),
    (r"\bis there (?:any )?(?:way|chance) (?:to|that (?:i|we) can)\b", "能"),
    (r"\b(?:year-end|annual) bonus(?![A-Za-z])", "年终奖"),
    (r"\b(?:will|would|does|do) (?:it|this|that) affect\b", "会影响"),
    (r"\b(?:do|does) (?:i|we) (?:need|have) to (?:provide|submit|hand in|bring)\b", "需要提供"),
    (r"\b(?:can|may|could) (?:i|we)\b(?: already| still| also)?", "我能"),
    # "Can unused PTO be carried over?": a passive yes-no question asks whether it may be done
    (r"^\s*(?:can|may|could) ((?:[\w-]+ ){1,3})be\b", r"\1能"),
    (r"\b(?:in)?to next year(?![A-Za-z])", "到明年"),
    (r"\b(?:take|use)\b", "休"),
    # "when's my approval task due?": one task of the caller's, named by its kind — singular, so it is
    # asked back when two fit (`我那条审批待办`, docs/agent.md)
    (r"\bmy ([\u4e00-\u9fff]{1,6}\s*)?task\b", r"我那条\1待办"),
    (r"\b(?:my|mine)\b", "我的"),
    (r"\b(?:i'm|i've|i'd|i|me)\b", "我"),
)
_GLOSSARY: Final[tuple[tuple[re.Pattern[str], _Replacement], ...]] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement) for pattern, replacement in _PHRASES
)

#: A yes-no question in English: its Chinese form ends in 吗.
_YES_NO = re.compile(r"(?i)^\s*(?:can|may|could|am|is|are|do|does|did|will|would|should|have|has)\b")
#: English words the planner reads as they are: the caller's task words, acronyms, identifiers.
_KEPT = re.compile(r"(?i)^(?:tasks?|to-?dos?|todos?|deadlines?|ddl|list)$")


#: The punctuation of Chinese, which the cue tables read ("…对吧？", "，").
_FULL_WIDTH: Final = str.maketrans("?,;:!", "？，；：！")


def is_english(text: str) -> bool:
    """Mostly English: four words or more (identifiers such as `u-wang` are no words), and more than
    twice as many Latin letters as Chinese characters — so chat English inside a Chinese question
    ("把u-wang手上的task list拉给我看下") is left to the word-by-word readings."""
    words = [
        m.group(0)
        for m in _LATIN_WORD.finditer(text)
        if len(m.group(0)) > 1
        and not ({text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]} & set("-_="))
    ]
    letters = sum(len(w) for w in words)
    return len(words) >= 4 and letters > 2 * len(_CJK.findall(text))


_JOINED_QUESTION = re.compile(
    r"(?i)\s*,\s*and\s+(?=(?:will|would|does|do|is|are|can|could|should|how|what|who|when)\b)"
)


def _yes_no_ended(sentence: str) -> str:
    checked = re.match(r"(?i)\s*" + _CHECKED, sentence)  # asked with 是不是 (`_PHRASES`), no 吗 on top
    if _YES_NO.match(sentence) and not checked and sentence.rstrip().endswith(("?", "？")):
        return sentence.rstrip().rstrip("?？") + "吗？"
    return sentence


def _kept(m: re.Match[str], text: str) -> str:
    word = m.group(0)
    before = text[m.start() - 1] if m.start() else ""
    after = text[m.end()] if m.end() < len(text) else ""
    joined = {before, after} & set("-_=")
    if _KEPT.match(word) or (word.isupper() and len(word) > 1) or joined:
        return word
    return " "


#: A trip said after what is asked, at the end of a yes-no question: "… for my trip to Shanghai next Tuesday?".
_TRIP_AFTER: Final = re.compile(
    r"(?i)\s+(?:for|on) (?:my|a|the|our) (?:business )?trip(?: to ([A-Z][a-z]+))?((?: next| this) [a-z]+)?(?=吗？$)"
)
_TRAVEL: Final = re.compile(r"(?i)\b(?:travel(?:l?ing|s|led)?|trips?)\b")
_APPROVES: Final = re.compile(r"(?i)\bapprov|\bsign(?:s|ed)? off\b")
_CLAIM: Final = re.compile(r"(?i)\b(?:travel )?expense claims?\b|\btravel claims?\b")


def read_english(text: str) -> str:
    """`text` in the documents' words when it is mostly English (module docs); else `text` as it is."""
    if not is_english(text):
        return text
    # "…, and will it affect my year-end bonus?": a further question joined by `and` is a part of its own
    # (no rule reads a part that no need names as a condition on the one before)
    text = _JOINED_QUESTION.sub("? ", text.strip())
    sentences = [s for s in re.split(r"(?<=[.?!？。])\s+", text) if s]
    out = " ".join(_yes_no_ended(s) for s in sentences)
    if trip := _TRIP_AFTER.search(out):
        # "Can I book a first-class seat … for my trip to Shanghai next Tuesday?" (blind 26): the trip is the
        # circumstance, said first as the Chinese question says it ("下周二去上海出差，我能订…吗？")
        where = f"去 {trip.group(1)} " if trip.group(1) else ""
        out = f"{trip.group(2) or ''} {where}出差， {out[: trip.start()]}{out[trip.end() :]}"
    if _TRAVEL.search(out) and _APPROVES.search(out):
        # "…travelling to a second-tier city: … who approves a 4,000 yuan expense claim?" (blind 25): the
        # approver of a claim in a question about travel is a travel claim's (差旅报销, the rule's words)
        out = _CLAIM.sub("差旅报销", out)
    for pattern, replacement in _GLOSSARY:
        out = pattern.sub(replacement, out)
    out = re.sub(r"(?i)\bto-do", "todo", out)
    out = _LATIN_WORD.sub(lambda m: _kept(m, out), out)
    # Chinese has no spaces between words, and the cue tables read it that way ("哪些 材料" → 哪些材料).
    out = re.sub(r"[()（）]", " ", out)
    out = out.translate(_FULL_WIDTH)
    out = re.sub(r"\.(?!\d)", "。", out)
    out = re.sub(r"(?<=[^A-Za-z0-9])\s+|\s+(?=[^A-Za-z0-9])", "", out.strip())
    return re.sub(r"([\u4e00-\u9fff]{2,})\1+", r"\1", out)


#: Chat shorthand of Chinese questions (blind 14): pinyin initials of the HR words (`nj` 年假, `bx`
#: 报销, `hj` 婚假), thousands written `5k`, and homophone typos of an input method (`报消` 报销, `还每弄`
#: 还没弄, `对把` 对吧; blind 17: `年价` 年假, and `¥500` 500元). The rules read the documents' words; written this way a question named no
#: subject (`nj提前几天申请啊` found no leave) or no amount. Latin initials count only as a whole
#: token (`bx` in `bx那条`, never inside `xbox` or an identifier such as `u-bx`).
_CHAT: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"(?i)(?<![A-Za-z0-9_=-])nj(?![A-Za-z0-9_=-])"), "年假"),
    (re.compile(r"(?i)(?<![A-Za-z0-9_=-])bx(?![A-Za-z0-9_=-])"), "报销"),
    (re.compile(r"(?i)(?<![A-Za-z0-9_=-])hj(?![A-Za-z0-9_=-])"), "婚假"),
    (re.compile(r"(?<![A-Za-z0-9.])(\d+)\s*[kK](?![A-Za-z])"), r"\g<1>000元"),
    (re.compile(r"报消"), "报销"),
    # 补贴/津贴 typed with the homophone 帖 (blind 23: `伙食补帖`)
    (re.compile(r"(?<=[补津])帖"), "贴"),
    # a leave kind typed with the homophone 价 (blind 17: `年价`, `婚价`); never a price (`年价格`)
    (re.compile(r"(?<=[年婚病产丧事])价(?![格值钱位码])"), "假"),
    # a sum written with the currency sign (blind 17: `¥500一晚`, `还是¥100`): the figure in 元
    (re.compile(r"[¥￥]\s*(\d+(?:\.\d+)?)(?:\s*(?:元|块钱|块))?"), r"\g<1>元"),
    (re.compile(r"(?<=[还都])每(?=[弄做办完交批])"), "没"),
    (re.compile(r"对把(?=\s*[？?。]|$)"), "对吧"),
)


#: A sum in tens or thousands of yuan with a decimal, the way chat writes it ("那 1.5w 呢？", "2.5k",
#: blind 15): `w` is 万 and `k` is 千; read as the whole sum in 元 (`15000元`).
_SCALED_SUM: Final = re.compile(r"(?<![A-Za-z0-9._=-])(\d+(?:\.\d+)?)\s*([wWkK])(?![A-Za-z])(?:块钱|块|元)?")
_SCALE: Final = {"w": 10000, "k": 1000}


def _scaled(m: re.Match[str]) -> str:
    value = float(m.group(1)) * _SCALE[m.group(2).lower()]
    return f"{value:g}元" if value != int(value) else f"{int(value)}元"


def read_chat(text: str) -> str:
    """`text` with its chat shorthand and typos in the documents' words (see `_CHAT`, `_SCALED_SUM`)."""
    text = _SCALED_SUM.sub(_scaled, text)
    for pattern, replacement in _CHAT:
        text = pattern.sub(replacement, text)
    return text


#: Chat English inside a Chinese question (blind 16: "我的 annual leave 一年有几天？", "出差的 meal
#: allowance 一天多少钱？", "intern 出差的费用能 reimburse 吗？", "can carry over 到明年吗？"): the HR words
#: are glossed as a mostly-English question's are, with the modal before a glossed verb ("can carry
#: over" 能结转); every other Latin word stays as it is (identifiers, acronyms, `task list`), since the
#: Chinese around it says what is asked. Never inside an identifier (`u-wang`, `userId=…`).
_MIXED: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    # ASCII word boundaries: a Chinese character next to the English word ("住一晚hotel") bounds it too.
    (re.compile(r"(?<![-_=/])" + pattern, re.IGNORECASE | re.ASCII), replacement)
    for pattern, replacement in (
        (r"\b(?:can|could|may)\s+(?=carry|roll|reimburse|claim|get reimbursed)", "能"),
        (r"\b(?:carr(?:y|ied|ies) (?:it |them )?over|roll(?:ed|s)? over)\b", "结转"),
        (r"\breimburse\b", "报销"),
        (r"\b(?:approv(?:e|es|al|ed)|sign[- ]off)\b", "审批"),
        # times and the materials asked (blind 20: "next Monday我有啥ddl？", "bx materails要准备啥？"):
        # a day of a week is the task window the Chinese one is; a typo of `materials` is still one
        *((rf"\bnext {name}day\b", f"下周{day}") for name, day in _WEEKDAYS),
        *((rf"\bthis {name}day\b", f"本周{day}") for name, day in _WEEKDAYS),
        (r"\bnext week\b", "下周"),
        (r"\bthis week\b", "本周"),
        (r"\btomorrow\b", "明天"),
        (r"\btoday\b", "今天"),
        (r"\b(?:mat(?:er|re)(?:ia|ai)ls?|paperwork|documents)\b", "材料"),
        *_DOMAIN_PHRASES,
    )
)
_GLOSSED: Final = "\x00"


def read_mixed(text: str) -> str:
    """`text` with the HR words of its chat English in the documents' words (see `_MIXED`), when
    it is a Chinese question holding some; else `text` as it is."""
    if not _CJK.search(text) or not _LATIN_WORD.search(text) or is_english(text):
        return text
    for pattern, replacement in _MIXED:
        text = pattern.sub(_GLOSSED + replacement + _GLOSSED, text)
    # A glossed word is Chinese, written without the spaces that set the English apart.
    return re.sub(rf"\s*{_GLOSSED}\s*", "", text)

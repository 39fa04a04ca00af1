"""The kind of answer a question part asks for, read off its interrogative: a figure for 多少 / how
many, a time for 什么时候 / when, an approver for 哪几级审批 / who, and which figure a quantity must
be (days, money, a share, a floor, a frequency). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import AnswerKind

__all__ = ["answer_kind", "value_kinds"]

_ZH_KINDS: Final[tuple[tuple[re.Pattern[str], AnswerKind], ...]] = tuple(
    (re.compile(pattern), kind)
    for pattern, kind in (
        (
            r"怎么办|怎么处理|如何处理|怎么做|该怎么|应该怎么|怎么解决|如何解决|怎么算|如何计算|怎么计算|"
            r"怎么申请|如何申请|怎么操作|如何操作|哪些步骤|什么步骤|流程是|(?:按|以)?(?:什么|怎样的|哪种)顺序|先做什么",
            AnswerKind.PROCEDURE,
        ),
        (r"什么时候|何时|几点|哪天|哪一天|什么时间|几号|什么条件|什么情况下|何种情况", AnswerKind.TIME),
        # "怎么失败的" / "怎么回事": how something came about is its cause, not a procedure.
        (
            r"为什么|为何|为啥|咋回事|咋会|啥原因|什么缘故|什么原因|哪些原因|原因有哪些|原因是|根因|怎么会|怎么回事|怎么[\u4e00-\u9fff]{1,3}的(?:[？?]|$)|"
            # "这单怎么失败了？": how a failure came about
            r"怎么(?:失败|挂|崩|断|没成功|出错|报错|超时)了?(?:[？?]|$)|"
            # "ORD-… 啥情况": what happened to a record is how it came to be so
            r"啥情况|什么情况(?!下)|咋了|怎么了(?:[？?]|$)|"
            # "真的是 BOC 的问题吗": doubting the premise asks for the real cause
            r"(?:真的|真是|确实|到底)是?[^，。？?]{0,12}(?:的问题|的原因|导致的|造成的|引起的)|真正的?原因",
            AnswerKind.REASON,
        ),
        # "哪几笔订单…失败的" asks which ones (their identifiers), not how many.
        (r"哪几(?:笔|单|个|条|家|位|项|台)", AnswerKind.CHOICE),
        # "要经过哪几级审批" asks who approves, not a count.
        (r"谁|哪位|何人|(?:哪|几)几?级审批|审批人是|哪些人(?:审批|批准)", AnswerKind.PERSON),
        # "那几天普通变更能做吗": `那几天`, `这几天`, `前几天` point at days, they ask no count.
        (r"多少|(?<![那这过])(?<![^提]前)几|多久|多长|多大|多高|多快|多重|上限|下限", AnswerKind.QUANTITY),
        (r"哪里|在哪|哪儿|什么地方", AnswerKind.LOCATION),
        (r"状态", AnswerKind.STATUS),
        (r"哪个|哪些|哪一|哪类|哪种", AnswerKind.CHOICE),
        (r"是否|吗|能否|能不能|可不可以|有没有|可否", AnswerKind.YES_NO),
        (r"如何|怎么|怎样", AnswerKind.PROCEDURE),
        (r"发生了?什么|出了什么(?:事|问题)", AnswerKind.OTHER),
        (r"什么|含义|意思|定义|是啥", AnswerKind.DEFINITION),
    )
)
_EN_KINDS: Final[tuple[tuple[re.Pattern[str], AnswerKind], ...]] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind)
    for pattern, kind in (
        (
            r"\bwhat\s+(?:should|can|do|must)\s+(?:i|we|you)\s+(?:do|check|try|look\s+at|verify|inspect)\b|"
            r"\bin\s+(?:which|what)\s+order\b|\bhow\s+(?:do|can|should|would)\s+"
            r"(?:i|we|you)\b|\bhow\s+to\b|\bwhat\s+(?:are|is)\s+the\s+(?:steps|procedure|process)\b|"
            r"\bhow\s+is\b.*\bcalculated\b|"
            # "What's the fix?", "what is the workaround": a remedy is a procedure
            r"\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:fix|fixes|remedy|workaround|mitigation|next\s+steps?)\b",
            AnswerKind.PROCEDURE,
        ),
        (
            r"^\s*(?:and\s+|until\s+|since\s+)?when\b|\bwhat\s+time\b|\bwhich\s+(?:day|date)\b|"
            # "… first working day of the month - when do we meet?"
            r"[-–—:]\s*when\s+(?:do|does|did|is|are|was|were|will|should|can|must)\b|"
            r"\bat\s+what\s+time\b",
            AnswerKind.TIME,
        ),
        (
            # "Was BOC really the problem?": doubting the premise asks for the real cause
            r"\bwhy\b|\bwhat\s+caused\b|\broot\s+cause\b|\bhow\s+come\b|"
            # "What was the reason?", "the reason for the decline"
            r"\bwhat\s+(?:is|was|are|were)\s+the\s+(?:main\s+|real\s+)?(?:reasons?|causes?)\b|\breasons?\s+(?:for|why)\b|"
            # "What happened to order ORD-…?": what became of a record is how it came to be so
            r"\bwhat\s+happened\s+(?:to|with)\s+(?:(?:the\s+)?(?:order|payment|refund)\s+)?(?:ORD|RF|PAY)-\d|"
            r"\b(?:really|actually|truly)\s+(?:the\s+)?(?:problem|cause|culprit|issue|reason|to\s+blame|at\s+fault)\b",
            AnswerKind.REASON,
        ),
        (
            r"\bwho\b|\bwhom\b|\bwhose\s+(?:approval|sign[- ]?off|permission)\b|\bwhich\s+(?:approvers?|approval\s+levels?|levels?\s+of\s+approval)\b",
            AnswerKind.PERSON,
        ),
        (
            r"\bhow\s+(?:many|much|long|high|low|large|big|often|fast|far|old)\b|"
            # "what % of pay requests were failing", "what share of refunds": a proportion is a figure
            r"\bwhat\s+(?:%|percent(?:age)?\s+of\b|share\s+of\b|fraction\s+of\b|proportion\s+of\b)|"
            r"\bwhat(?:'s|\s+(?:is|was|are))\s+the\s+(?:[a-z\-]+\s+){0,3}(?:number|amount|limit|rate|percentage|"
            r"count|size|peak|maximum|minimum|cost|price|fee|budget|quota|cap)\b|"
            # "What was risk-service's highest p99 latency": a superlative or total asks a figure
            r"\bwhat\b[^?]{0,40}\b(?:highest|lowest|maximum|minimum|peak|average|median|total|longest|shortest)"
            r"\s+(?:[\w\-]+\s+){0,2}(?:latency|lag|rate|usage|count|value|load|qps|throughput|connections?|"
            r"memory|cpu|size|time|duration|amount|number|level|depth|backlog|traffic|volume)\b|"
            # "what ERR_TIMEOUT rate did it report": a figure named right after `what`
            r"\bwhat\s+(?:[\w\-]+\s+){0,2}(?:rate|percentage|ratio|count|amount|number|value|threshold|fee|price|"
            r"cost|quota|limit|round[- ]trip\s+time|response\s+time|latency)\s+"
            r"(?:did|does|do|is|was|were|are|will|would|should)\b|"
            # "What does search-api's p99 latency normally look like?": its normal values.
            r"\bwhat\b[^?]{0,60}\b(?:latency|lag|rate|throughput|qps|volume|usage|utili[sz]ation|load)\b"
            r"[^?]{0,30}\b(?:normally|usually|typically)\b|"
            r"\bwhat\b[^?]{0,30}\b(?:normal|typical|usual)\s+(?:p\d\d\s+)?(?:latency|lag|rate|level|values?|range)\b|"
            # "What was the p99 latency … at 14:03 UTC?", "What did db_pool_active_connections show at
            # 14:31?": a measure's value at a moment
            r"\bwhat\s+(?:was|were|is|are|did|does)\b[^?]{0,60}\b(?:latency|lag|rate|usage|count|value|"
            r"load|qps|throughput|connections?|memory|cpu|size|depth|queue|backlog|traffic|volume|ratio|"
            r"percentage|p\d\d|[a-z]+_[a-z_]+)\b[^?]{0,60}\b(?:at|around)\s+\d{1,2}:\d{2}\b",
            AnswerKind.QUANTITY,
        ),
        # "ORD-… - where is it at?" asks how far the record has got, not a place.
        (r"\bwhere\s+(?:is|are)\s+(?:it|this|that|they|things)\s+at\b", AnswerKind.STATUS),
        (r"\bwhere\b", AnswerKind.LOCATION),
        (r"\bstatus\b|\bstate\s+of\b", AnswerKind.STATUS),
        (r"\bwhich\b", AnswerKind.CHOICE),
        (r"^\s*(?:is|are|does|do|did|can|could|should|will|was|were|has|have)\b", AnswerKind.YES_NO),
        # "What happened to X on March 14" asks for an account of events on that day, not a meaning.
        (r"\bwhat\s+(?:happened|went\s+wrong|was\s+going\s+on)\b", AnswerKind.OTHER),
        (r"\bwhat\b|\bmeaning\b|\bmean\b", AnswerKind.DEFINITION),
    )
)


#: Auxiliaries that make `when …` a question ("When does the alert page?") rather than a case
#: clause ("When the alert paged on March 14, …").
EN_AUXILIARY: Final = (
    r"(?:does|did|do|is|are|was|were|will|would|can|could|should|has|have|had|must|may|might)\b"
)
#: An English case clause before the question ("if we miss that, …", "When the alert paged on
#: March 14, …"): the kind is read from what follows it.
_EN_CASE_LEAD: Final = re.compile(
    rf"^\s*(?:if|unless|when|whenever|once|while)\s+(?!{EN_AUXILIARY})[^,?]{{3,80}},\s*(?=\S)",
    re.IGNORECASE,
)


def answer_kind(part: str, zh: bool) -> AnswerKind:
    if not zh:
        # "I just joined the checkout team. When is our stand-up": a scene sentence before the
        # asking one hides its question word from the patterns anchored at the start.
        asking = _EN_SCENE.sub("", part, count=1)
        if asking != part:
            kind = answer_kind(asking, zh)
            # A yes/no question keeps its scene: whether its case holds is asked with it.
            if kind not in (AnswerKind.OTHER, AnswerKind.YES_NO):
                return kind
        part = _EN_CASE_LEAD.sub("", part, count=1)
    for pattern, kind in _ZH_KINDS if zh else _EN_KINDS:
        if pattern.search(part):
            return kind
    if _MEASURE_AT.search(part):
        # "payment success rate at 14:16 UTC?": a measure named at a moment, asked without a
        # question word, asks its value.
        return AnswerKind.QUANTITY
    return AnswerKind.OTHER


#: The sentences before the last of an English part ("I just joined the checkout team. When …").
_EN_SCENE: Final = re.compile(r"^.*[.!]\s+(?=[A-Z])", re.DOTALL)

#: A terse question naming a measure at a clock time ("p99 latency at 14:03?", "支付成功率 14:16？").
_MEASURE_AT: Final = re.compile(
    r"\b(?:rate|ratio|latency|lag|count|usage|utilization|qps|throughput|p\d{2}|depth|backlog|"
    r"connections?|queue|errors?)\b[^?？]{0,20}?(?:\bat\s+)?\d{1,2}:\d{2}"
    r"|(?:率|延迟|积压|数量|连接数|排队)[^?？]{0,12}?\d{1,2}:\d{2}"
    # the minute first: "14:22 支付成功率？", "14:22 success rate?"
    r"|^\s*(?:at\s+)?\d{1,2}:\d{2}(?:\s*utc)?[^?？。]{0,24}?(?:率|延迟|积压|连接数|排队|\brate\b|\blatency\b|\blag\b|\bp\d{2}\b)\s*[?？]?\s*$",
    re.IGNORECASE,
)


def value_kinds(part: str, kind: AnswerKind, zh: bool) -> list[str]:
    """The figure an answer to a quantity need must state: days, money, a share, or any figure."""
    if kind is not AnswerKind.QUANTITY:
        return []
    lowered = part.lower()
    if re.search(r"几[楼层]|哪一?[楼层]", lowered):
        return ["floor"]
    if re.search(
        r"how\s+often|how\s+frequently|(?:多久|多长时间)[^，,。？?]{0,8}一次|频率|每隔多久|隔多久", lowered
    ):
        return ["frequency"]
    if re.search(
        r"多少天|几天|多少年|几年|多久|多长|多少时间|(?:多少|几)个?(?:工作日|自然日|小时|分钟|星期|周|月)|"
        r"多少(?:毫秒|秒钟?)|几秒|how\s+many\s+(?:milli)?seconds|\bin\s+ms\b|"
        r"how\s+long|how\s+many\s+(?:(?:business|working|calendar)\s+)?(?:days|hours|minutes|weeks|months|years)|"
        r"\bwithin\s+how\s+many\b|\bhow\s+(?:soon|quickly)\b",
        lowered,
    ):
        return ["duration", "range", "period"]
    if re.search(r"多少钱|多少元|费用|金额|how\s+much\s+(?:money|does|is\s+the\s+fee)|price|cost", lowered):
        return ["amount", "range", "number"]
    if re.search(r"百分之|比例|占比|percent|what\s+share|what\s+%", lowered):
        return ["percent", "number", "range"]
    if re.search(r"(?:几|多少)(?:条|次|笔|台|个|回|单)|\bhow\s+many\b", lowered):
        # "杀了几条": a count, not the duration or amount another figure of the passage states.
        return ["count", "number"]
    return []

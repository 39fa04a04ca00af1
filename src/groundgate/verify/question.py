"""Does the answer address the question? (issue 10 item 6) — a finding next to the verdict.

An answer can be fully grounded and still answer something else: "Deployments must finish within 2
hours" is true, and useless for "Who approves emergency changes?". The question is cut into its
parts (`What time …, and who approves …?` has two; Chinese `？`, `；`, `以及` and `，` before a new
question word likewise); a part is addressed when the answer takes up enough of its topic words (after
synonym folding, so `年休假` takes up `年假`), or — a short answer such as "Delhi" or "3 天" — when it
is short and gives the kind of value the part asks for. An answer that addresses no part is never
`PASS` (`check.py`). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundgate.contracts.grounding_check import QuestionCoverage
from groundgate.text.segmentation import is_cjk_text, normalize, split_sentences, tokenize
from groundgate.verify.synonyms import canonical

_EN_PART = re.compile(
    r"(?:,\s*|\s+)(?:and|or|also)\s+(?=(?:what|when|where|who|whom|whose|which|why|how|is|are|was|were|does|do|did|can|could|should|will|would)\b)"
    r"|(?<=\?)\s+(?=\S)|;\s*",
    re.IGNORECASE,
)
_ZH_PART = re.compile(
    r"(?<=[？?；;])\s*(?=\S)|(?:以及|另外|还有|并且|，)(?=[^，。？?]*(?:什么|多少|几|哪|谁|怎么|如何|是否|能否|吗|呢))"
)
_NUMBER_QUESTION = re.compile(
    r"\bhow (?:many|much|long|often|old|far|big|large)\b|\bwhat (?:percentage|number|amount)\b|多少|几",
    re.IGNORECASE,
)
_DATE_QUESTION = re.compile(
    r"\bwhen\b|\bwhat (?:year|time|date|day)\b|\bopening hours\b|\bdeadline\b"
    r"|什么时候|哪一?年|几点|何时|哪天|时间|期限|截止",
    re.IGNORECASE,
)
_YES_NO = re.compile(
    r"^(?:is|are|was|were|does|do|did|can|could|should|will|would|has|have)\b|吗[？?]?$|是否|能否|有没有|"
    r"([会能要可是用该])不\1",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"[0-9０-９]|[一二两三四五六七八九十]+(?:个|天|年|月|小时|分钟|次|人|元)")
_QUESTION_WORDS = frozenset(
    [
        "what",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "which",
        "why",
        "how",
        "many",
        "much",
        "long",
        "often",
        "time",
        "year",
        "date",
        "day",
        "kind",
        "type",
        "什么",
        "多少",
        "几",
        "哪",
        "哪个",
        "哪些",
        "谁",
        "怎么",
        "如何",
        "是否",
        "能否",
        "吗",
        "呢",
        "要不要",
        "何时",
        "几点",
        "哪天",
    ]
)
#: Requests for an account rather than a fact: no part can be checked word by word.
_OPEN_REQUEST = re.compile(
    r"^\s*(?:(?:can|could|would) you\s+(?:please\s+)?|please\s+|请|麻烦|帮我|帮忙)?(?:summari[sz]e|describe|explain|tell me about|"
    r"give (?:me )?an overview|总结|概括|介绍|说明一下|解释)"
    r"|说明了什么|是怎么回事|what happened|what does (?:this|that|it)\b[^?]{0,40}\bmean|什么意思",
    re.IGNORECASE,
)
#: A yes/no question is taken up by an answer that opens with its reply ("No. Instead …", "可以，…").
_YES_NO_REPLY = re.compile(
    r"^\s*(?:yes|no|not|yeah|nope|it is|it isn't|it's not|there is|there are|there isn't|"
    r"是|不是|可以|不可以|不能|能|会|不会|有|没有|需要|不需要|要|不用|暂时|不)",
    re.IGNORECASE,
)
#: A "why" / "what caused" question is taken up by an answer that gives a cause.
_CAUSE_QUESTION = re.compile(
    r"\bwhy\b|\bwhat caused\b|\broot cause\b|\bcause of\b|为什么|为何|原因|根因", re.IGNORECASE
)
_CAUSE_REPLY = re.compile(
    r"\b(?:because|due to|caused|causing|since|as a result|led to|after|expired|failed|failing)\b"
    r"|因为|由于|导致|造成|引起|所以|因此|之后",
    re.IGNORECASE,
)
#: Question words that ask for a kind of value, and what an answer giving that kind looks like: a
#: person for "who" (a name or a role), a place for "where", several items for "which ones", an
#: order of steps or times for "how do I" / "timeline". An answer of the asked kind takes the part up
#: even when it does not repeat the question's words ("南门瓮城对外开放" for "能参观哪里").
_KIND_REPLIES: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"\bwho(?:m|se)?\b|谁", re.IGNORECASE),
        re.compile(
            r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+\b|经理|总监|主管|负责人|老师|医生|教练|前锋|后卫|门将|中场|主席|"
            r"局长|部长|总裁|首席|工程师|值班|团队|小组|部门"
        ),
    ),
    (
        re.compile(r"\bwhere\b|哪里|哪儿|在哪|什么地方", re.IGNORECASE),
        re.compile(
            r"\b(?:in|at|on|near|inside|from)\s+(?:the\s+)?[A-Z]|[市省区县镇路街楼层室馆场城站园厅院]"
            r"|门(?!票)|中心|机房|集群|节点"
        ),
    ),
    (
        re.compile(r"\bwhich\b|\bwhat are\b|哪些|哪几", re.IGNORECASE),
        re.compile(r"、|[，,][^，,]+[，,]|\band\b|和|以及|及"),
    ),
    (
        re.compile(
            r"\bhow (?:do|can|should) (?:i|we|you)\b|\btimeline\b|\bsteps?\b|怎么|如何|流程|步骤",
            re.IGNORECASE,
        ),
        re.compile(r"\b(?:first|then|after|before|next|finally)\b|先|然后|再|之后|最后|[0-9]", re.IGNORECASE),
    ),
)
_QUESTION_CHARS = re.compile(r"什么|多少|几|哪|谁|怎么|如何|是否|能否|吗|呢|要不要|何时|请问|[？?，,。]")


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


#: Share of a part's topic words an answer must take up to address it.
_TOPIC_SHARE = 0.15
#: An answer with at most this many content words is a direct reply ("Delhi", "3 天").
_SHORT_ANSWER = 3


def question_parts(question: str) -> list[str]:
    """The parts of a (possibly multi-part) question, as written."""
    splitter = _ZH_PART if is_cjk_text(question) else _EN_PART
    parts = [p.strip() for p in splitter.split(question.strip())]
    return [p for p in parts if p and len(_topic(p)) > 0] or [question.strip()]


def _topic(part: str) -> list[str]:
    return [t for t in tokenize(canonical(part, cross_language=True)) if t not in _QUESTION_WORDS]


def _part_addressed(part: str, answer_tokens: set[str], answer: str, short: bool, reply: str) -> bool:
    """`answer`: the answer with its evidence (topic words may come from either); `reply`: the answer
    alone (the kind of value given must be the answer's own)."""
    topic = set(_topic(part))
    shared = len(topic & answer_tokens) / len(topic) if topic else 0.0
    if is_cjk_text(part):
        # Chinese words segment differently in question and answer (`住宿标准` / `住宿`): take the
        # share of the part's character bigrams the answer has, when it is higher.
        wanted = _bigrams(_QUESTION_CHARS.sub("", normalize(part)))
        if wanted:
            have = _bigrams(normalize(answer))
            shared = max(shared, len(wanted & have) / len(wanted))
    if shared >= _TOPIC_SHARE:
        return True
    if _NUMBER_QUESTION.search(part) or _DATE_QUESTION.search(part):
        # The asked kind of value is there: a figure for "how much", a date or time for "when".
        return _DIGIT.search(answer) is not None
    if _YES_NO.search(part):
        return short or shared > 0 or bool(_YES_NO_REPLY.match(answer))
    if _CAUSE_QUESTION.search(part):
        return short or bool(_CAUSE_REPLY.search(answer))
    for asks, gives in _KIND_REPLIES:
        if asks.search(part):
            return short or gives.search(reply) is not None
    return short


def question_coverage(
    question: str, answer: str, evidence: Sequence[str] = ()
) -> tuple[QuestionCoverage, list[str]]:
    """Whether `answer` addresses `question`, and the parts it leaves unaddressed.

    `evidence`: the context excerpts that support the answer's claims. An answer that does not repeat
    the question's words (`需要先提 CHG 变更单` for `Redis 扩容要走什么流程？`) still addresses it when
    the evidence it rests on is about what was asked.
    """
    if _OPEN_REQUEST.search(question):
        return QuestionCoverage.ADDRESSED, []  # "Summarise …": any grounded answer takes it up
    answer_tokens = tokenize(canonical(answer, cross_language=True))
    first = split_sentences(answer)
    # A direct reply first ("cart-api.", "No.", "90 天。") answers the question before explaining.
    short = len(answer_tokens) <= _SHORT_ANSWER or (
        bool(first) and len(tokenize(first[0].text)) <= _SHORT_ANSWER
    )
    grounded = "\n".join([answer, *evidence])
    tokens = set(answer_tokens) | set(tokenize(canonical("\n".join(evidence), cross_language=True)))
    parts = question_parts(question)
    missing = [p for p in parts if not _part_addressed(p, tokens, grounded, short, answer)]
    if not missing:
        return QuestionCoverage.ADDRESSED, []
    if len(missing) == len(parts):
        return QuestionCoverage.NOT_ADDRESSED, missing
    return QuestionCoverage.PARTLY_ADDRESSED, missing

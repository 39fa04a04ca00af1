"""Splitting a question into its parts: one part per thing asked, so that "一线城市和省会城市…分别是多少"
and "What are the availability SLO and the latency SLO of …?" become two needs (`split_parts`).

Used by `groundgate.questions.needs.derive_needs`; pure code over the question text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from groundgate.questions.confirmations import confirmed_clauses
from groundgate.questions.interrogatives import EN_AUXILIARY
from groundgate.questions.lead_ins import after_lead
from groundgate.text.segmentation import is_cjk_text, jieba_cut

__all__ = [
    # splitting
    "split_parts",
    # a case the question sets ("If the key leaked, …", "病假超过 10 天的话")
    "CASE_EN",
    "CASE_ZH",
]

# A case set before what is asked: not a part of its own.
CASE_ZH = re.compile(r"(?:如果|假如|若是|若|要是)?(?P<case>[^，,。？?]{2,16}?)(?:的话|的情况下|时)[，,]?")
CASE_EN = re.compile(
    r"^\s*(?:if|when|for\s+a|for\s+an|for\s+the|in\s+the|during|in\s+case\s+of|after|before|on|at|under)\s+(?P<case>[^,?]{3,60}?)"
    r"(?:,|\s*$|\s+(?:what|how|when|who|which|where|should|can|could|do|does|is|are|will)\b)",
    re.IGNORECASE,
)


_PART_END = re.compile(r"[？?；;。!！\n]+")
#: A preposition before the question word still starts a question ("and *above what* score …").
#: Not "in which order" / "in what way": a manner of the same question, not another one.
_EN_PREP_WH = (
    r"(?:above|below|over|under|at|in|on|for|from|by|with|after|before|until|since)\s+"
    r"(?:what|which|whom|when|how)\b(?!\s+(?:order|way|sequence|manner)\b)"
)
_EN_JOIN = re.compile(
    # `whats`: "what's" typed without its apostrophe
    r",?\s+and\s+(?=(?:when|how|whats|what|where|who|why|which|whether|is|are|does|did|do|can|should|if|unless)\b"
    rf"|{_EN_PREP_WH})"
    r"|,\s*(?=(?:when|how|what|where|who|why|which)\b)",
    re.IGNORECASE,
)
#: "When the alert paged on March 14, what rate did it report": a `when` clause with no auxiliary
#: after it sets the case for the question that follows (not "When does the alert page?").
_WHEN_CASE = re.compile(rf"^\s*(?:when|whenever|once|while)\s+(?!{EN_AUXILIARY})", re.IGNORECASE)
#: A comma joins clauses; a thousands separator (`1,500`) does not.
_ZH_JOIN = re.compile(r"，\s*|,(?!\d{3}(?!\d))\s*|以及|并且|另外")
_ZH_ASK = re.compile(
    r"什么|多少|几|谁|哪|怎么|怎样|如何|为什么|为何|是否|吗|呢|多久|多长|多大|多高|有没有|能否|"
    # the spoken 啥 (什么) and 咋 (怎么): "是因为啥失败的？" asks as much as "为什么失败？"
    r"啥|咋|"
    # a closing tag that asks for confirmation ("…不会被拒，对吧？")
    r"对吧|是吧|没错吧|"
    # an A-not-A question: 是不是, 要不要, 行不行, 够不够
    r"([\u4e00-\u9fff])[不没]\1"
)
_EN_ASK = re.compile(
    r"^\s*(?:whats|what|when|where|who|whom|whose|why|which|how|is|are|does|do|did|can|could|should|would|"
    rf"will|was|were|has|have|{_EN_PREP_WH})\b",
    re.IGNORECASE,
)


_FORM_REQUEST: Final = re.compile(
    r"(?<=[?？])\s*(?:(?:in|as)\s+)?(?:the\s+)?(?:number\s+of\s+\w+|(?:in\s+)?(?:ms|seconds|minutes|percent|%)|"
    r"exact\s+(?:time|figure|number|value))\s*(?:pls|please|plz|thanks)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
_BACK_PRONOUN: Final = re.compile(r"\b(?:it|its|they|them|their|this|that)\b", re.IGNORECASE)
_SENTENCE_BREAK: Final = re.compile(r"(?<=[a-z0-9][.!])\s+(?=[A-Z])")

# "A 和 B … 分别 …" asks the same thing of A and of B; so does "the X and the Y of Z".
_ZH_EACH = re.compile(r"分别|各自|各是|各为|各有")
_ZH_AND = re.compile(r"\s*(?:和|与|及|跟|以及)\s*")
_EN_BOTH = re.compile(
    r"\b(?P<det>the|its|their)\s+(?P<x>[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+and\s+(?:the|its|their)\s+"
    r"(?P<y>[\w\-]+(?:\s+[\w\-]+){0,3}?)(?=\s+(?:of|for|in|on|at|during)\b|\s*$)",
    re.IGNORECASE,
)


def _zh_conjuncts(sentence: str) -> list[str]:
    """`一线城市和省会城市出差住宿每晚标准分别是多少` → one question per conjunct (empty: no such shape)."""
    if "区别" in sentence or "关系" in sentence or "之间" in sentence:
        return []
    each = _ZH_EACH.search(sentence)
    if each is None:
        return []
    joins = list(_ZH_AND.finditer(sentence, 0, each.start()))
    if not joins:
        return []
    join = joins[-1]
    before, after = sentence[: join.start()], sentence[join.end() : each.start()]
    if not before.strip() or not after.strip():
        return []
    x, y = _parallel(before, after)
    if not x or not y:
        return []
    head, tail = before[: len(before) - len(x)], after[len(y) :] + sentence[each.end() :]
    return [f"{head}{x}{tail}", f"{head}{y}{tail}"]


def _parallel(before: str, after: str) -> tuple[str, str]:
    """The two conjuncts around a `和`: by a shared head word (`一线城市` / `省会城市`, `A 组` / `B 组`),
    else one word each side (`工作日` / `周末`)."""
    for size in (2, 1):
        shared = before[-size:]
        if not shared.strip() or not is_cjk_text(shared):
            continue
        at = after.find(shared, 0, 10)
        if at > 0:
            y = after[: at + size]
            x = before[-max(len(y), size + 1) :] if len(before) > size else before
            return x.lstrip(), y
    left = [w for w in jieba_cut(before) if w.strip()]
    right = [w for w in jieba_cut(after) if w.strip()]
    if not left or not right:
        return "", ""
    return left[-1], right[0]


# `between the cache and the database` asks one thing about the pair, not one thing of each.
_EN_PAIR_WORDS = re.compile(
    r"\b(?:between|difference|differences|relation|relationship|ratio|compare|comparison|versus|vs)\b",
    re.IGNORECASE,
)
_EN_NAMES = re.compile(r"\bof\s+(?P<x>[\w]+[._\-][\w.\-]+)\s+and\s+(?P<y>[\w]+[._\-][\w.\-]+)\s*$")
# "Do payment-gateway and order-service each run …": two names, then `each` / `respectively`.
_EN_EACH = re.compile(
    r"\b(?P<x>[\w]+[._\-][\w.\-]+)\s+and\s+(?P<y>[\w]+[._\-][\w.\-]+)\b"
    r"(?P<rest>[^?]*?)\s+(?:each|respectively)\b"
)


def _en_conjuncts(sentence: str) -> list[str]:
    """`the availability SLO and the latency SLO of …`, `the defaults of a.b and a.c` → one each."""
    if _EN_PAIR_WORDS.search(sentence):
        return []
    found = _EN_BOTH.search(sentence)
    if found is not None:
        det = found.group("det")
        start, end = found.span()
        return [f"{sentence[:start]}{det} {found.group(part)}{sentence[end:]}" for part in ("x", "y")]
    each = _EN_EACH.search(sentence)
    if each is not None:
        start, end = each.span()
        return [
            f"{sentence[:start]}{each.group(part)}{each.group('rest')}{sentence[end:]}" for part in ("x", "y")
        ]
    names = _EN_NAMES.search(sentence)
    if names is not None:
        start = names.start("x")
        return [f"{sentence[:start]}{names.group(part)}" for part in ("x", "y")]
    return []


_BARE_WH = re.compile(r"\b(?:when|where|who|what|how|why)\s*$", re.IGNORECASE)


def _rejoin_bare(pieces: Iterable[str]) -> list[str]:
    """ "When and where does Team B meet": a piece that is only a question word asks about the same
    subject as the next one — one part, not "When" and "where does Team B meet"."""
    out: list[str] = []
    for piece in pieces:
        if out and _BARE_WH.search(out[-1]):
            out[-1] = f"{out[-1]} and {piece.strip()}"
        else:
            out.append(piece)
    return out


_ANNOUNCING_OPENER: Final = re.compile(
    r"^\s*(?:(?:a\s+)?quick\s+(?:one|question)|one\s+(?:more\s+)?(?:thing|question)|"
    r"(?:two|three|a\s+couple\s+of|a\s+few)\s+(?:things|questions)(?:\s+(?:about|on|re)\s+[^:：?？]{1,40})?|"
    r"(?:两|三|几)个问题|问(?:两|几)?个问题|请教(?:一下|个问题))\s*[:：,，—–-]+\s*(?=\S)",
    re.IGNORECASE,
)
_COURTESY: Final = re.compile(
    r"^\s*(?:(?:thanks(?:\s+a\s+lot)?|thank\s+you|thx|ok(?:ay)?|got\s+it|great|cool|understood|perfect|"
    r"i\s+see|makes\s+sense|明白了?|好的|谢谢(?:你)?|收到了?|了解了?|懂了|知道了)\s*[.!。！,，]+\s*)+(?=\S)",
    re.IGNORECASE,
)

#: The topic an announcing opener names ("Two things about *order-service*: …").
_OPENER_TOPIC: Final = re.compile(
    r"^\s*(?:two|three|a\s+couple\s+of|a\s+few)\s+(?:things|questions)\s+(?:about|on|re)\s+([^:：?？]{1,40}?)\s*[:：]",
    re.IGNORECASE,
)


def opener_topic(question: str) -> str:
    """What an announcing opener says the question is about ("Two things about order-service: …"
    → `order-service`), or ``: the parts after it are about that thing even when they do not name it."""
    found = _OPENER_TOPIC.match(_FORM_REQUEST.sub("", question))
    return found.group(1).strip() if found else ""


_LINKING_OPENER: Final = re.compile(
    r"^(?:also|and also|besides|plus|additionally|moreover|furthermore|oh and|and|另外|此外|还有|对了|顺便问一下|顺便问下)"
    r"\s*[,，、]\s*(?=\S)",
    re.IGNORECASE,
)


#: Two question words joined ("when and where do we meet", "who and when"): two things asked.
_TWO_WH = re.compile(
    r"\b(when|where|who|what\s+time|how\s+long|how\s+much|how\s+many|why)\s+and\s+"
    r"(when|where|who|what\s+time|how\s+long|how\s+much|how\s+many|why)\b",
    re.IGNORECASE,
)


def _two_wh(sentence: str) -> list[str]:
    """`… when and where do we meet?` as `… when do we meet` and `… where do we meet`."""
    found = _TWO_WH.search(sentence)
    if found is None or is_cjk_text(sentence):
        return [sentence]
    head, tail = sentence[: found.start()], sentence[found.end() :]
    return [f"{head}{found.group(1)}{tail}", f"{head}{found.group(2)}{tail}"]


#: An enumeration comma between two clauses that each ask ("现在是什么状态、走的哪个通道",
#: "走的哪个通道、金额多少"): two things asked, not one thing of two names.
_ZH_ENUM_COMMA: Final = re.compile(r"\s*、\s*")
_ZH_ASK_CLAUSE_MIN: Final = 4


def _zh_enumerated_asks(piece: str) -> list[str]:
    """`…是什么状态、走的哪个通道` → two pieces when every clause around `、` asks on its own and is
    more than a bare question word; `CMB、ICBC 的权重是多少` (names listed) stays whole."""
    clauses = [c for c in _ZH_ENUM_COMMA.split(piece) if c.strip()]
    if len(clauses) < 2:
        return [piece]
    if all(_ZH_ASK.search(c) and len(c.strip()) >= _ZH_ASK_CLAUSE_MIN for c in clauses):
        return clauses
    return [piece]


#: Quotation marks a relayed question is wrapped in ("商户说：“…？”", "writes: \"…?\"").
_QUOTES: Final = "“”‘’「」『』\"'"


def split_parts(question: str) -> list[str]:
    """The question's parts: one per sentence, per joined second question that asks on its own,
    and per conjunct of a question asked of two things at once ("A 和 B 分别…", "the X and the Y of Z")."""
    parts: list[str] = []
    sentences: list[str] = []
    # "… at 14:34? number of messages pls": a closing request for the form of the answer asks
    # nothing of its own.
    question = _FORM_REQUEST.sub("", question)
    # "Quick one: …", "Two things about refunds: …", "两个问题：…": an opener that announces the
    # question asks nothing itself (the parts say their own subjects).
    question = _ANNOUNCING_OPENER.sub("", question, count=1)
    # "Thanks. Which Kafka topic …", "明白了。那如果…": a courtesy before a follow-up asks nothing and
    # names nothing (its words would be a subject the answer must say).
    question = _COURTESY.sub("", question, count=1)
    scene = ""
    # `…多长时间？”`: the closing quote after the last question mark is no part of its own.
    raw = [x for x in _PART_END.split(question) if x.strip(" ，,、" + _QUOTES)]
    for n, sentence in enumerate(raw):
        # "Also, what sick pay do interns get?": the linking word asks nothing of its own.
        sentence = _LINKING_OPENER.sub("", sentence.strip(" ，,、")).strip(" ，,、")
        if scene:
            sentence, scene = f"{scene}，{sentence}", ""
        if (
            is_cjk_text(sentence)
            and n + 1 < len(raw)
            and not _ZH_ASK.search(sentence)
            and any(_ZH_ASK.search(later) for later in raw[n + 1 :])
        ):
            # "我们是 acme，在做大促的复盘。…14:25 那一分钟…有多少个？": a scene told before the
            # question asks nothing; it is the next sentence's case.
            scene = sentence
            continue
        if sentence:
            zh = is_cjk_text(sentence)
            # "X，而且 Y，对吗": the closing tag asks of each asserted clause (`confirmations.py`).
            confirmed = confirmed_clauses(sentence, lambda c: bool(_ZH_ASK.search(c))) if zh else []
            for piece in (
                confirmed or (_zh_conjuncts(sentence) if zh else _en_conjuncts(sentence)) or [sentence]
            ):
                sentences.extend(_two_wh(piece))
    for sentence in sentences:
        if is_cjk_text(sentence):
            pieces = [q for p in _ZH_JOIN.split(sentence) if p.strip() for q in _zh_enumerated_asks(p)]
            asking = [bool(_ZH_ASK.search(p)) for p in pieces]
        else:
            pieces = _rejoin_bare(p for p in _EN_JOIN.split(sentence) if p.strip())
            # A first piece that asks nothing is a case the rest asks about ("If the key leaked, what …").
            asking = [
                # a scene sentence before the asking one ("The alert went off. When did it fire") asks nothing
                (en_asks(_SENTENCE_BREAK.split(p)[-1]) or (n == 0 and not CASE_EN.match(p)))
                and not (n < len(pieces) - 1 and _WHEN_CASE.match(p))
                for n, p in enumerate(pieces)
            ]
            if (
                len(pieces) > 1
                and asking[0]
                and not _EN_ASK.search(_SENTENCE_BREAK.split(pieces[0])[-1])
                and _BACK_PRONOUN.search(pieces[1])
            ):
                # "the BOC channel probe at 14:17, what round-trip time did it log": the first piece
                # names what the next asks about with `it`; it asks nothing itself.
                asking[0] = False
        # A piece that asks nothing ("病假超过 10 天，工资怎么算") belongs to the piece after it.
        carry = ""
        for piece, asks in zip(pieces, asking, strict=True):
            joiner = "，" if is_cjk_text(sentence) else ", "
            if (
                joiner == ""
                and carry
                and re.search(r"[A-Za-z0-9]$", carry)
                and re.match(r"[A-Za-z0-9]", piece.strip())
            ):
                joiner = " "  # "rebalance" + "max.poll.interval.ms": two Latin words stay apart
            text = f"{carry}{joiner if carry else ''}{piece.strip()}"
            if asks or not any(asking):
                parts.append(text)
                carry = ""
            else:
                carry = text
        if carry:
            if parts:
                parts[-1] = f"{parts[-1]}，{carry}" if is_cjk_text(sentence) else f"{parts[-1]}, {carry}"
            else:
                parts.append(carry)
    return parts


def en_asks(text: str) -> bool:
    """Whether an English piece opens with a question, also after a lead-in that asks nothing
    ("SRE question: what is …", `lead_ins.py`)."""
    return bool(_EN_ASK.search(after_lead(text, lambda t: bool(_EN_ASK.search(t)))))


#: "Putting a money figure on the outage: …", "Looking at refunds: …": a lead-in opening with a verb's
#: -ing form says what the asker is doing; "Remind me …", "Tell us …": a request to the reader. Their
#: first word is no name though it is capitalised.
_VERB_OPENING: Final = re.compile(
    r"[A-Z][a-z]{2,}ing\s+(?:a|an|the|at|of|about|on|into|over|through|for|our|my)\b[^:：?？]{0,80}[:：]"
    r"|(?:Remind|Tell|Show|Give|Let|Help)\s+(?:me|us)\b"
)


def verb_opening(text: str, start: int) -> bool:
    """Whether the word at `start` of `text` is a verb opening a lead-in or a request (`_VERB_OPENING`)."""
    return _VERB_OPENING.match(text, start) is not None


_ZH_LEAD: Final = re.compile(r"^([^：:？?]{2,40})[：:](?=.)")


def soften_lead(text: str, terms: list[str], soft: list[str]) -> tuple[list[str], list[str]]:
    """ "我们在梳理银行回调链路：银行调 … 最多能用多长时间回 HTTP 200": the words said only in a Chinese
    lead-in that asks nothing before a colon (what the asker is doing) help find the answer — they
    become soft terms — and the answer need not say them. Returns (terms, soft)."""
    found = _ZH_LEAD.match(text)
    if found is None or _ZH_ASK.search(found.group(1)):
        return terms, soft
    rest = text[found.end() :]
    lead = [t for t in terms if t in found.group(1) and t not in rest]
    return [t for t in terms if t not in lead], [*soft, *(t for t in lead if t not in soft)]

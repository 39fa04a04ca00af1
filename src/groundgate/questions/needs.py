"""Derive a question's needs in code, Chinese and English (issue 11: the question's needs drive the run).

A question is split into parts (at `？ ? ； ; 。`, and at `, and when…` / `，…多少` where both sides ask
something); each part becomes one `Need`:

- **kind**: from the interrogative (`when`/`什么时候` → time, `how many`/`多少`/`几` → quantity,
  `who`/`谁` → person, `why`/`根因` → reason, `what should I do`/`怎么算` → procedure, `哪个` → choice…);
- **conditions**: every dimensioned figure of the part with its comparator (`满 12 年` → at least 12
  years, `超过 10 天` → more than 10 days, `不超过 600 元`), and its dates and times;
- **anchors**: names that must appear in an answer — identifiers (`ERR_TIMEOUT`), short codes
  (`P2`), proper names (`Team B`, `Lanting Pay`), Latin names inside Chinese, quoted terms;
- **terms**: the remaining words of the subject (`年假`, `standup`, `recover`), interrogatives,
  particles and the answer's category (`哪个*组件*`) removed;
- a part that says nothing of its own subject ("含义是什么？", "when did *it* recover") takes the
  anchors, dates and times of the part before it, and its terms as optional (`soft_terms`).

Limits: rules, not a parser. Long or unusual phrasings may give too many terms (an answer then
misses the need, never passes it wrongly); synonyms and other languages are not matched here
(`groundgate.questions.coverage` only compares words of the same script).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from groundgate.contracts import AnswerKind, ConditionKind, Need, NeedCondition, QuestionNeeds
from groundgate.questions.cases import set_case
from groundgate.questions.conditions import QUANTITY_MENTIONS, read_conditions
from groundgate.questions.handed_over import given_verbs
from groundgate.questions.interrogatives import answer_kind, value_kinds
from groundgate.questions.lead_ins import soften_en_lead
from groundgate.questions.negated_words import with_negations
from groundgate.questions.owners import anchor_owners
from groundgate.questions.parts import en_asks, opener_topic, soften_lead, split_parts, verb_opening
from groundgate.questions.rates import as_error_rate
from groundgate.questions.referred_codes import refer_back_codes
from groundgate.text.segmentation import is_cjk_text, jieba_cut, jieba_tag, stem, wordset
from groundgate.verify import fidelity

__all__ = [
    "refers_back",
    "derive_needs",
    "term_weight",
    "round_two_query",
    "split_parts",
]


# --------------------------------------------------------------------------- words (kinds: interrogatives.py)


#: Phrases that say what kind of answer is wanted, removed before the subject's words are taken.
_ZH_KIND_WORDS = re.compile(
    # A figure's unit after the interrogative says what kind of figure, not what it is about
    # (`多长时间` is `多久`, `几个工作日` is `多少天`): it goes with the interrogative.
    r"(?:多长|多少|多久|几个?)(?:的)?(?:时间|时长|天|个?(?:工作日|自然日|小时|钟头|分钟|秒钟?|星期|周|月|年))"
    r"(?:以内|之内|内)?|"
    r"什么时候|什么时间|什么地方|什么原因|为什么|为何|怎么办|怎么样|怎么|怎样|如何|多少钱|多少|多久|多长|"
    r"多大|多高|多快|多重|几点|几号|几天|几年|几个|几|哪一天|哪天|哪一个|哪个|哪些|哪一|哪类|哪种|哪里|"
    r"哪儿|在哪|哪位|何时|何人|谁|是否|能否|能不能|可不可以|有没有|可否|吗|呢|吧|什么|含义|意思|定义|是啥|"
    r"根因|原因|请问|一般|通常|大概|大约|现在|目前|当前|分别|具体|需要|应该|可以|要求|(?:最开始|一开始|起初|最初)(?=是|就|怎么|为什么|为啥|谁|由|被)"
)
_EN_KIND_WORDS = re.compile(
    r"\bhow\s+many\s+(?:(?:business|working|calendar)\s+)?(?:days|hours|minutes|seconds|weeks|months|years|times)\b|"
    r"\bhow\s+(?:many|much|long|high|low|large|big|often|fast|far|old|soon|quickly)\b|\bwhat\s+time\b|"
    r"\bwhat\s+(?:should|can|do|must)\s+(?:i|we|you)\s+(?:do|check|try|look\s+at|verify|inspect)\b|"
    r"\bin\s+(?:which|what)\s+order\b|\bhow\s+to\b|\broot\s+cause\b|\bwhat\s+caused\b|"
    r"\bwhat\s+(?:is|was|are|were)\s+the\s+(?:main\s+|real\s+)?(?:reasons?|causes?)\b|\bhow\s+come\b|"
    # "Customer says …": who reported it (`_REPORTED_BY`)
    r"^[A-Z][a-z]+\s+(?:says|said|reports|reported|claims|claimed|complains|complained|tells|told|thinks|"
    r"mentioned|noticed|asks|asked|wrote|writes)\b",
    re.IGNORECASE,
)
_ZH_STOP: Final = wordset(
    "的 了 是 有 在 和 与 及 或 要 会 能 就 都 也 还 又 请 我 我们 你 你们 他 她 它 其 该 这 那 这个 那个 "
    "那么 这些 那些 由 被 把 对 给 为 向 从 到 按 以 之 后 前 里 中 上 下 时 个 种 次 等 并 且 而 则 "
    "如果 若 一下 一般 呀 啊 哦 嘛"
)
_EN_STOP: Final = wordset(
    "a an the of for in on at to by with from about and or but not no it its it's itself themselves this that these those "
    "there here i we you they he she me us my our your their his her them what when where who whom whose "
    "why which how is are was were be been being am do does did can could should would will shall may "
    "might must has have had get gets got getting please tell show still also then than if so as any some "
    "much many mean means meaning definition per each every until since happen happens happened occur occurs occurred exactly "
    "currently now today usually typically normally during while once unless given whats"
)
#: Characters that join words, never part of a subject's word (`满 12 年*的*年假`).
_ZH_FUNCTION: Final = wordset(
    "的 了 是 有 在 和 与 及 或 由 被 把 对 给 为 向 从 按 以 之 而 则 且 并 吗 呢 吧 啊"
)
_PRONOUNS_EN = re.compile(
    r"\b(?:it|its|they|them|their|this|that|these|those)\b|^\s*(?:and\s+)?(?:later|afterwards|after\s+that)\b",
    re.IGNORECASE,
)
_PRONOUNS_ZH = re.compile(
    r"它|其|该|这个|那个|此|那(?:条|笔|次|台|些|几条)"
    # A part that refers back without a pronoun: "ORD-… 现在是什么状态？*走的*哪个通道？*是不是也是*…那种？"
    # — a one-character verb with 的 and no subject of its own, or "also".
    r"|^(?:那|那么)?[走用付扣退发买刷]的|也(?:是|有|会)|同样是"
    # "后来改过吗？": what happened next to the thing the turn before named
    r"|^(?:那|那么)?(?:后来|之后|随后|再后来)"
)

# --------------------------------------------------------------------------- names

_CODE = re.compile(r"(?<![A-Za-z0-9_\-])(?:[A-Za-z]|[A-Z]{2,5})\d{1,2}(?![A-Za-z0-9_\-])")
_LATIN_IN_ZH = re.compile(r"(?<![A-Za-z0-9_\-./])[A-Za-z][A-Za-z0-9_\-./]*[A-Za-z0-9]")
_ZH_LETTERED_NAME = re.compile(r"(?<![A-Za-z0-9_\-./])[A-Z][a-z]+ [A-Z0-9](?![A-Za-z0-9_\-./])")
_COMMON_ASCII = frozenset({"id", "ids", "ok", "app", "api", "sdk", "ui", "vs", "or", "and", "the"})
_PROPER = re.compile(r"\b[A-Z][a-z][A-Za-z]*(?:\s+(?:[A-Z][A-Za-z]*|\d+))*\b|\b[A-Z][a-z]*\s+[A-Z]\b")
_QUOTED = re.compile(r"[“\"「《『]([^”\"」》』]{1,40})[”\"」》』]")
_ACRONYM = re.compile(r"\b[A-Z]{2,6}s?\b")

#: Event verbs whose time a question asks for, as the noun a need label uses.
_EVENT_NOUNS: Final = {
    "recover": "recovery",
    "restore": "restoration",
    "start": "start",
    "begin": "start",
    "end": "end",
    "stop": "stop",
    "fail": "failure",
    "resolv": "resolution",
    "resolve": "resolution",
}


_EN_VERBS: Final = wordset(
    "apply applies allow allows become becomes look looks show shows see use used send sent take make "
    "follow run runs fire fires reset request requested answer answers renew renewed classify classified "
    "freeze frozen need needs keep kept give given put set work works change changed"
)
_EN_GENERIC: Final = wordset(
    "after before through all first last single one soon fine ok okay able possible such other another "
    "way thing things kind sort some any more most always sometimes never occasionally again look looks like "
    "roughly approximately work works make makes made remind"
)
#: Words that open a question (capitalised for that reason alone), never a name of it.
_EN_OPENERS: Final = frozenset(
    {"when", "what", "during", "after", "before", "under", "while", "once", "unless", "since", "given",
     # "Hypothetical for our alert-rule review: …": a word saying the case is made up names nothing
     "hypothetical", "hypothetically", "suppose", "supposing", "imagine"}
)  # fmt: skip
_ZH_GENERIC: Final = wordset(
    "时候 可能 发生 进行 看到 起来 出现 能够 需要 应该 使用 一个 同一个 总是 之前 之后 以后 以前 地方 "
    "情况 东西 相关 一般 通常 还能 额外 具体 哪些 什么 怎么 听说 据说 听人说 出过 发生过"
)
_ZH_EMPTY_TAGS: Final = frozenset(
    {"d", "c", "m", "f", "r", "p", "u", "uj", "ul", "uz", "y", "zg", "x", "e", "o"}
)


_ZH_NUMERALS_AND_MEASURES = frozenset(
    "零〇一二两三四五六七八九十百千万亿几个次些点种天年月日周位名件份条项类"
)


@lru_cache(maxsize=4096)
def term_weight(term: str) -> int:
    """2 for a noun (what is asked about), 1 for a verb or adjective, 0 for a word that says nothing
    about the subject (`总是`, `可能`, `之前`, `一个`, a merge of particles such as `里改`)."""
    if bool(re.search("[\u4e00-\u9fff]", term)):
        if term in _ZH_GENERIC:
            return 0
        tags = [tag for _, tag in jieba_tag(term)]
        # One word of an empty class (`总是`, `一步`), or a merge that starts with a particle or a
        # locative (`里每`, `上会`); `年`+`假` (a numeral glued to a noun) is a word.
        if tags == ["m"] and len(term) > 1 and term[-1] not in _ZH_NUMERALS_AND_MEASURES:
            return 1  # `一线`, `二线`: a rank that names a category (`一线城市`), not a count
        if not tags or tags[0] in (_ZH_EMPTY_TAGS if len(tags) == 1 else _ZH_EMPTY_TAGS - {"m"}):
            return 0
        last = tags[-1]
        if last.startswith(("n", "vn", "eng", "j")) or (len(tags) > 1 and last == "q"):
            return 2
        return 1 if last in ("v", "a", "b", "vd", "ad", "an", "t", "l", "i") else 0
    word = term.lower()
    if word in _EN_GENERIC:
        return 0
    if word in _EN_VERBS or word.endswith(("ed", "ing", "ly")):
        return 1
    return 2


# --------------------------------------------------------------------------- one part


@dataclass(slots=True)
class _Part:
    text: str
    kind: AnswerKind
    anchors: list[str]
    terms: list[str]
    category: str
    conditions: list[NeedCondition]
    value_kinds: list[str]
    subject: str
    """The subject as written (for the label)."""
    condition_subject: str
    has_pronoun: bool
    zh: bool


#: A capitalised word that reports what follows ("Customer says ORD-… got declined").
_REPORTED_BY: Final = re.compile(
    r"[A-Z][a-z]+\s+(?:says|said|reports|reported|claims|claimed|complains|complained|tells|told|thinks|"
    r"mentioned|noticed|asks|asked|wrote|writes)\b"
)


def _anchors(part: str, zh: bool, mentions: Sequence[fidelity.Mention]) -> list[str]:
    found = [m.text for m in mentions if m.kind == "identifier"]
    found += [q.strip() for q in _QUOTED.findall(part)]
    found += _CODE.findall(part)
    if zh:
        found += [w for w in _LATIN_IN_ZH.findall(part) if w.lower() not in _COMMON_ASCII]
        # "调到 Team C": a capitalised word and one letter or digit is one name (`Team C` is not
        # `Team B`); the letter alone is too short for a Latin word of its own.
        found += [" ".join(m.split()) for m in _ZH_LETTERED_NAME.findall(part)]
    else:
        # A sentence's first word is capitalised because it starts the sentence (the question's
        # or an earlier one's: "… on the BOC channel. Was BOC really the problem?").
        starts = {m.end() for m in re.finditer(r"(?:^|[.!?]\s+)\s*", part)}
        for match in _PROPER.finditer(part):
            name = match.group().strip()
            words = name.split()
            if match.start() + len(match.group()) - len(match.group().lstrip()) in starts and (
                words[0].lower() in _EN_STOP | _EN_GENERIC | _EN_OPENERS
                or words[0].lower().endswith("ly")
                or verb_opening(part, match.start())
            ):
                words = words[1:]  # `Roughly how many …`: an adverb opening the question is no name
            if len(words) == 1 and _REPORTED_BY.match(
                part, match.start() + len(match.group()) - len(match.group().lstrip())
            ):
                words = []  # "Customer says …", "Support reported …": who told it, not what is asked
            if words and not (len(words) == 1 and words[0].lower() in _EN_STOP | _EN_GENERIC):
                found.append(" ".join(words))
    # A calendar date the question names is a condition (compared as a date, `2026-02-18` =
    # `February 18`), not a name to find as written; a weekday stays a name (`on a Monday`).
    dates = {m.text.lower() for m in mentions if m.kind == "date" and not str(m.value).startswith("weekday:")}
    found = [a for a in found if not (a.lower() in dates or any(a.lower() in d.split() for d in dates))]
    unique: list[str] = []
    for anchor in found:
        # `payment-gateway` found as an identifier and again as a Latin word: keep it once.
        if anchor and not any(anchor.lower() == u.lower() for u in unique):
            unique.append(anchor)
    # A name inside a longer name (`Team` in `Team B`) is not a name of its own.
    return [a for a in unique if not any(a != b and a.lower() in b.lower().split() for b in unique)]


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(max(0, start), min(len(chars), end)):
            chars[i] = " "
    return "".join(chars)


#: Words that say how much or how many, not what is asked about ("一共", "一张", "就行").
_ZH_NOT_SUBJECT: Final = re.compile(
    "一共|总共|共计|合计|总计"
    # "一张…报销单": how many of the thing, not what it is; "谁批就行": how little is enough
    "|(?<![\u4e00-\u9fff])[一两二三四五六七八九十几]+(?:张|笔|份|项|条|台)|就行了?|就可以了?|就够了?|就好了?"
    # "超时率写的是多少": how the record puts it, not what it is about
    "|写的是|写着|写了|显示的是|记的是|记录的是"
    # "我一个人去苏州出差": alone, not a subject
    "|(?:自己)?一个人|独自"
)


def _zh_terms(blanked: str) -> list[str]:
    """Chinese words of the subject; adjacent single characters merged (`年`+`假` → `年假`, `到`+`账`)."""
    terms: list[str] = []
    pending = ""
    # `一共`/`总共` say "in total", not what is asked about; jieba glues them to the noun before
    # (`报销单一共` → `报销`/`单一`/`共`), so they go before the cut.
    for word in jieba_cut(_ZH_NOT_SUBJECT.sub(" ", blanked)):
        word = word.strip()
        cjk = bool(word) and all("\u4e00" <= ch <= "\u9fff" for ch in word)
        if not cjk or word in _ZH_FUNCTION or (len(word) > 1 and word in _ZH_STOP):
            if len(pending) >= 2:
                terms.append(pending)
            pending = ""
            continue
        if len(word) == 1:
            pending += word
            continue
        if len(pending) >= 2:
            terms.append(pending)
        pending = ""
        terms.append(word)
    if len(pending) >= 2:
        terms.append(pending)
    # A word jieba glued to a particle (`项是`) is the word without it; a lone character is no word.
    trimmed = [t[:-1] if len(t) > 1 and t[-1] in _ZH_FUNCTION else t for t in terms]
    # "多久之后*会去*银行主动查单": a modal and a verb of motion say that something is done, not
    # what; the words after them are the subject.
    return list(
        dict.fromkeys(
            t for t in trimmed if len(t) > 1 and t not in _ZH_STOP and not _ZH_MODAL_MOTION.fullmatch(t)
        )
    )


_ZH_MODAL_MOTION: Final = re.compile("[会要能得该][去来]")


#: Interrogatives a category noun follows ("哪些*指标*", "什么*条件*下").
_ZH_WHICH: Final = frozenset({"哪个", "哪些", "哪一个", "哪一", "哪类", "哪种", "什么"})
_ZH_NOT_CATEGORY: Final = frozenset({"时候", "时间", "地方", "原因", "意思"})


def _zh_category(part: str) -> tuple[int, int] | None:
    """The span of the noun naming the kind of answer: the last noun of the noun run right after
    `哪些`/`什么` (`什么内存淘汰策略` → `策略`); the words before it stay words of the subject."""
    offset = 0
    tagged = []
    for word, tag in jieba_tag(part):
        tagged.append((word, tag, offset))
        offset += len(word)
    for n, (word, _, _) in enumerate(tagged):
        if word not in _ZH_WHICH or (word == "什么" and n and tagged[n - 1][0].endswith("为")):
            continue
        run = []
        for follower, tag, at in tagged[n + 1 :]:
            if not (tag.startswith("n") or tag in ("vn", "v")) or len(follower) < 2:
                break
            run.append((follower, tag, at))
        nouns = [(w, at) for w, tag, at in run if tag.startswith("n") or tag == "vn"]
        if nouns and nouns[-1][0] not in _ZH_NOT_CATEGORY:
            word_, at = nouns[-1]
            return at, at + len(word_)
    return None


_EN_CATEGORY = re.compile(
    r"\b(?:which|what)\s+([a-z]+)\b(?!\s+(?:is|are|was|were|do|does|did|should|can))", re.IGNORECASE
)


def _zh_word_spans(part: str) -> list[tuple[int, int]]:
    """(start, end) of each jieba word of a Chinese part."""
    spans: list[tuple[int, int]] = []
    at = 0
    for word in jieba_cut(part):
        spans.append((at, at + len(word)))
        at += len(word)
    return spans


_NOT_SUCCEEDED_ZH: Final = re.compile(
    r"(?:没有|没|未|不)(?:能)?(?:付|支付|付款|扣款|扣|交易|下单|退款|退)?成功"
)
_ERROR_WORDS: Final = frozenset({"报错", "错误", "错误码", "失败", "error", "errors", "fail", "failure"})
_ERROR_ASKED_ZH: Final = re.compile(r"报[的了]?\s+错(?:误码?)?|(?<=\s)错误?码?(?=\s|$)")
_NOT_SUCCEEDED_EN: Final = re.compile(
    r"\b(?:did(?:n't| not)|never)\s+(?:go|went)\s+through\b|\b(?:was|were)(?:n't| not)\s+successful\b"
    r"|\b(?:did(?:n't| not)|never)\s+succeed(?:ed)?\b",
    re.IGNORECASE,
)


def _analyse(part: str) -> _Part:
    zh = is_cjk_text(part)
    mentions = list(fidelity.extract(part))
    kind = answer_kind(part, zh)
    anchors = _anchors(part, zh, mentions)
    conditions = read_conditions(part, mentions)
    word_spans = _zh_word_spans(part) if zh else []
    spans: list[tuple[int, int]] = [
        (m.start, m.end)
        for m in mentions
        if m.kind in QUANTITY_MENTIONS | {"date", "time", "comparator"}
        # `一线城市`: a spelled numeral inside a longer word names a category, not a figure.
        and not (
            m.spelled and any(s <= m.start and m.end <= e and e - s > m.end - m.start for s, e in word_spans)
        )
    ]
    category = ""
    if zh:
        found = _zh_category(part)
        if found is not None:
            category = part[found[0] : found[1]]
            spans.append(found)
    else:
        cat = _EN_CATEGORY.search(part)
        if cat and cat.group(1).lower() not in _EN_STOP:
            category = cat.group(1).lower()
            spans.append(cat.span(1))
    for anchor in anchors:
        for match in re.finditer(re.escape(anchor), part, re.IGNORECASE):
            spans.append(match.span())
    for cue in (_ZH_KIND_WORDS if zh else _EN_KIND_WORDS).finditer(part):
        spans.append(cue.span())
    blanked = _blank(part, spans)
    # "为啥没付成功", "why didn't it go through": a failure in other words, asked as one (the record's
    # cause line need not repeat it — `failure_terms`).
    blanked = (_NOT_SUCCEEDED_ZH if zh else _NOT_SUCCEEDED_EN).sub(" 失败 " if zh else " fail ", blanked)
    if zh:  # "报的什么错" (its `什么` blanked): the error asked for
        blanked = _ERROR_ASKED_ZH.sub(" 报错 ", blanked)
    condition_subject = ""
    if zh:
        blanked = re.sub(r"(?:不满|未满|不足|不到|超过|满|以上|以下|以内|之内)", " ", blanked)
        terms = _zh_terms(blanked)
        first_condition = min((m.start for m in mentions if m.kind in QUANTITY_MENTIONS), default=None)
        if first_condition is not None:
            before = [t for t in terms if 0 <= part.find(t) < first_condition]
            condition_subject = before[-1] if before else ""
        # Latin words left in a Chinese part are anchors already; digits never are terms.
        terms = [t for t in terms if not t.isdigit() and term_weight(t) > 0]
    else:
        words = re.findall(r"[A-Za-z][A-Za-z0-9_\-]*", blanked)
        terms = list(
            dict.fromkeys(
                w.lower()
                for w in words
                if w.lower() not in _EN_STOP and len(w) > 1 and term_weight(w.lower()) > 0
            )
        )
    subject = _subject(part, anchors, terms, zh)
    has_pronoun = bool((_PRONOUNS_ZH if zh else _PRONOUNS_EN).search(part))
    return _Part(
        text=part,
        kind=kind,
        anchors=anchors,
        terms=terms,
        category=category,
        conditions=conditions,
        value_kinds=value_kinds(part, kind, zh),
        subject=subject,
        condition_subject=condition_subject,
        has_pronoun=has_pronoun,
        zh=zh,
    )


def _subject(part: str, anchors: Sequence[str], terms: Sequence[str], zh: bool) -> str:
    """The subject as written: from its first to its last word (`CEO of Lanting Pay`)."""
    lowered = part.lower()
    places = [(i, i + len(w)) for w in [*anchors, *terms] if (i := lowered.find(w.lower())) >= 0]
    if not places:
        return ""
    start = min(p[0] for p in places)
    end = max(p[1] for p in places)
    if zh:
        # Words in question order, figures and conditions left out (they are labelled apart).
        ordered = sorted(
            (w for w in [*anchors, *terms] if lowered.find(w.lower()) >= 0),
            key=lambda w: lowered.find(w.lower()),
        )
        return join_words(ordered)
    return part[start:end].strip()


def join_words(words: Sequence[str]) -> str:
    """Words as one phrase: Chinese words run together, a Latin word keeps a space on each side."""
    text = ""
    for word in words:
        if text and (text[-1].isascii() or word[:1].isascii()):
            text += " "
        text += word
    return text


# --------------------------------------------------------------------------- labels

_ZH_UNIT_NOUNS: Final = (
    ("多少天", "天数"),
    ("几天", "天数"),
    ("多少年", "年数"),
    ("几年", "年数"),
    ("多少钱", "金额"),
    ("多少元", "金额"),
    ("个工作日", "工作日数"),
    ("多久", "时长"),
    ("多长", "时长"),
    ("多少小时", "时长"),
    ("多少分钟", "时长"),
    ("比例", "比例"),
    ("多高", "峰值"),
    ("最高", "峰值"),
    ("多少次", "次数"),
    ("几次", "次数"),
)


def _label(p: _Part, terms: Sequence[str]) -> str:
    conditions = [c for c in p.conditions if c.kind is ConditionKind.QUANTITY]
    when = [c.text for c in p.conditions if c.kind is not ConditionKind.QUANTITY]
    subject = p.subject or " ".join([*p.anchors, *terms])
    if p.zh:
        cond = "".join(c.text for c in conditions)
        if cond and p.condition_subject and p.condition_subject not in cond:
            cond = p.condition_subject + cond
            subject = subject.replace(p.condition_subject, "", 1) or subject
        prefix = (" ".join(when) + " ") if when else ""
        prefix += f"{cond}的" if cond else ""
        noun = {
            AnswerKind.TIME: "时间",
            AnswerKind.REASON: "原因",
            AnswerKind.PROCEDURE: "计算方法"
            if re.search(r"怎么算|如何计算|怎么计算", p.text)
            else "处理方法",
            AnswerKind.DEFINITION: "的含义",
            AnswerKind.STATUS: "的状态",
            AnswerKind.LOCATION: "的位置",
        }.get(p.kind)
        if p.kind is AnswerKind.QUANTITY:
            noun = next((n for cue, n in _ZH_UNIT_NOUNS if cue in p.text), "数值")
        if p.category and p.kind in (AnswerKind.TIME, AnswerKind.CHOICE, AnswerKind.DEFINITION):
            noun = p.category  # "什么条件下触发" → "…触发条件", "看哪些指标" → "…指标"
        if noun is None:  # who / which / whether: the question itself says it best
            return _clean_part(p.text)
        return join_words([f"{prefix}{subject.strip()}", noun]).strip()
    conds = [c.text for c in p.conditions]
    suffix = f" ({', '.join(conds)})" if conds else ""
    event = next((_EVENT_NOUNS[stem(t)] for t in terms if stem(t) in _EVENT_NOUNS), "")
    if event:
        subject = " ".join(w for w in subject.split() if stem(w.lower()) not in _EVENT_NOUNS) or subject
    lead = {
        AnswerKind.TIME: f"{event} time".strip(),
        AnswerKind.REASON: "cause",
        AnswerKind.PROCEDURE: "what to do",
        AnswerKind.STATUS: "status",
        AnswerKind.LOCATION: "location",
    }.get(p.kind)
    if p.kind is AnswerKind.QUANTITY:
        lowered = p.text.lower()
        lead = next(
            (
                noun
                for cue, noun in (
                    ("how high", "peak value"),
                    ("how many days", "number of days"),
                    ("how long", "duration"),
                    ("how much", "amount"),
                    ("how many", "number"),
                )
                if cue in lowered
            ),
            "value",
        )
    if lead is None:
        return _clean_part(p.text)
    if p.kind is AnswerKind.PROCEDURE and " when " not in f" {p.text.lower()} ":
        how = re.compile(r"^(?:how\s+(?:can|do|should|would)\s+(?:i|we|you)|how)\s+", re.IGNORECASE)
        return how.sub("how to ", _clean_part(p.text))
    joiner = " when " if p.kind is AnswerKind.PROCEDURE else " of the "
    subject = re.sub(r"^(?:the|a|an)\s+", "", subject.strip(), flags=re.IGNORECASE)
    return f"{lead}{joiner}{subject}{suffix}"


def _clean_part(text: str) -> str:
    return re.sub(r"^(?:请问|那么|那)\s*", "", text.strip(" ？?。.!！")).strip()


# --------------------------------------------------------------------------- public


def derive_needs(
    question: str,
    *,
    resolved_question: str | None = None,
    followup: bool = False,
    previous_question: str | None = None,
    other_tenants: Collection[str] = (),
    own_tenant: str | None = None,
) -> QuestionNeeds:
    """The needs of `resolved_question` (default: `question`), one per part, in question order.

    `previous_question` is the session's last question when this one refers back to it by a pronoun
    ("What is its normal lag?", "它的上限是多少？"): a first part with a pronoun and no name of its own
    takes that question's subject, as a later part takes an earlier one's (understanding only, docs/design.md §8).

    `other_tenants`: the names of the tenants other than the asker's. A question naming one ("globex's
    own success rate") asks about that tenant's scope, so its name is an anchor the answer must say:
    a platform-wide series or another tenant's record does not answer it. `own_tenant` (the asker's):
    a name no store knows, made an owner of records ("initech's orders"), is such an anchor too.
    """
    resolved = (resolved_question or question).strip()
    # "Not the gateway — payment-db-proxy itself. How high …": what the question sets aside is no
    # part of its subject (a passage about the gateway is exactly the wrong answer).
    resolved = _SET_ASIDE.sub("", resolved, count=1).strip() or resolved
    zh = is_cjk_text(resolved)
    parts = _with_topic([_analyse(text) for text in split_parts(resolved)], resolved)
    needs: list[Need] = []
    previous: _Part | None = None
    if previous_question:
        earlier = [_analyse(text) for text in split_parts(previous_question)]
        # A pronoun points at the thing the earlier question named ("payment-db 连接池的等待队列上限…？
        # 队列排满以后…？" → "它" is payment-db's queue), else at its last part with words.
        previous = next((p for p in reversed(earlier) if p.anchors), None) or next(
            (p for p in reversed(earlier) if p.terms), None
        )
        followup = followup or previous is not None
    for part in parts:
        anchors, terms, soft = list(part.anchors), list(part.terms), []
        conditions = list(part.conditions)
        if previous is not None and _about_the_part_before(part):
            # "含义是什么？" / "when did it recover": about the subject of the part before it.
            anchors = list(previous.anchors)
            soft = [t for t in previous.terms if t not in terms]
            if not terms and not anchors:
                terms, soft = list(previous.terms), []
        if previous is not None and not any(c.kind is not ConditionKind.QUANTITY for c in conditions):
            # A date or time scopes the whole question ("on 2026-03-14 … and when did it recover").
            conditions += [c for c in previous.conditions if c.kind is not ConditionKind.QUANTITY]
        if part.kind in (AnswerKind.DEFINITION, AnswerKind.PROCEDURE):
            # What a code means or how to handle it holds on any day: dates scope events only.
            conditions = [c for c in conditions if c.kind is ConditionKind.QUANTITY]
        terms, soft = (
            soften_lead(part.text, terms, soft)
            if part.zh
            else soften_en_lead(part.text, terms, soft, en_asks)
        )
        label_part = part
        own = [t for t in part.terms if stem(t) not in _EVENT_NOUNS]
        if (anchors != part.anchors or soft) and not own:
            # Inherited subject: name it as the earlier part did ("ERR_TIMEOUT rate", "ERR_TIMEOUT").
            words = [*anchors, *(soft if part.kind is not AnswerKind.DEFINITION else [])]
            label_part = replace(part, subject=join_words(words) if part.zh else " ".join(words))
        inherited = [w for w in [*anchors, *terms, *soft] if w not in part.anchors and w not in part.terms]
        search = f"{' '.join(with_negations(resolved, inherited))} {part.text}" if inherited else part.text
        needs.append(
            Need(
                id=f"n{len(needs) + 1}",
                text=part.text,
                label=_label(label_part, terms),
                kind=part.kind,
                anchors=anchors,
                terms=terms,
                soft_terms=soft,
                category=part.category,
                value_kinds=part.value_kinds,
                conditions=conditions,
                search_text=(resolved if len(parts) == 1 and not inherited else search)[:500],
            )
        )
        # A part that took an earlier part's name passes it on ("走的哪个通道？是不是也是…" are both
        # about the order the first part named).
        named = replace(part, anchors=anchors) if anchors != part.anchors else part
        previous = named if (named.anchors or named.terms) else (previous or part)
    refer_back_codes(needs)  # "今天哪几笔订单是因为*这个错误*失败的" is about the code named before
    if len(needs) > 1:
        for need in needs:
            # Words a later part took over from this one ("its error budget") are still this one's.
            others = {w.lower() for n in needs if n is not need for w in [*n.anchors, *n.terms]}
            need.distinct = [w for w in [*need.anchors, *need.terms] if w.lower() not in others]
    for need in needs:
        if zh:
            measured = _measure_terms(need.text, need.terms) if need.kind is AnswerKind.QUANTITY else []
            repeated = [t for t in need.terms if need.text.count(t) > 1 and term_weight(t) > 0]
            # A period the question names ("*年底*的封网期"): a rule for another period does not answer.
            periods = [t for t in need.terms if _is_period_word(t)]
            need.required_terms = list(dict.fromkeys([*measured, *repeated, *periods, *given_verbs(need)]))
        elif need.kind is AnswerKind.QUANTITY and (
            usual := _EN_USUAL.search(re.split(r"[.!;]\s+", need.text)[-1])
        ):
            # "What is a *normal* lag": the usual level, not the alert threshold or an SLO target of
            # the same metric (`stays at or below 800 ms`). Only the asking sentence counts ("The
            # graphs look normal again. How long must they stay like that?" asks a duration).
            need.required_terms = [usual.group(1).lower()]
        elif not zh and (qualifier := _en_qualifier(need)):
            # "… for bank *refund* callbacks": the word that tells the asked thing from its
            # neighbours (`bank callbacks on /api/v1/pay/callback`) must be said.
            need.required_terms = [qualifier]
    anchor_owners(needs, resolved, other_tenants, own_tenant)
    for need in needs:
        set_case(need)
        as_error_rate(need, zh)
    return QuestionNeeds(
        question=question,
        resolved_question=resolved,
        language="zh-CN" if zh else "en",
        needs=needs,
        followup=followup,
    )


def _with_topic(parts: list[_Part], question: str) -> list[_Part]:
    """ "Two things about order-service: how long … lock call …": the names of the opener's topic are
    the subject of every part (the lock call is order-service's, not risk-service's)."""
    topic = opener_topic(question)
    if not topic:
        return parts
    names = _anchors(topic, is_cjk_text(topic), list(fidelity.extract(topic)))
    return [replace(p, anchors=[*p.anchors, *(a for a in names if a not in p.anchors)]) for p in parts]


#: A closing "for/of <words>" phrase naming what is asked about ("… for bank refund callbacks?").
_EN_CLOSING_OBJECT: Final = re.compile(r"\b(?:for|of)\s+((?:[a-z][a-z-]*\s+){1,3}[a-z][a-z-]*s)\s*[?.!]*\s*$")


def _en_qualifier(need: Need) -> str:
    """The word right before the head noun of a closing plural object of two or more words, when it
    is a term of the need (`refund` of "bank refund callbacks"), else ``."""
    found = _EN_CLOSING_OBJECT.search(need.text.lower())
    if found is None:
        return ""
    words = found.group(1).split()
    if len(words) < 2 or words[0] in _EN_STOP:
        return ""
    qualifier = words[-2]
    return qualifier if qualifier in need.terms and term_weight(qualifier) == 2 else ""


_SET_ASIDE: Final = re.compile(
    r"^\s*(?:not\s+(?:the\s+)?[^—–\-,.;:!?]{1,40}?\s*[—–-]+\s*|不是[^，,。？?]{1,20}[，,]\s*(?:是|而是|我问的是)?)",
    re.IGNORECASE,
)
_EN_USUAL: Final = re.compile(r"\b(normal|typical|usual)(?:ly)?\b", re.IGNORECASE)


def _is_period_word(term: str) -> bool:
    """A Chinese time noun naming a period of the year, month or week (`年底`, `月初`, `周末`, `春节`)."""
    return len(term) >= 2 and [tag for _, tag in jieba_tag(term)] == ["t"] and not term.endswith(("天", "日"))


#: "能报多少", "能拿几天": may one get — the modal verb says nothing of what is measured.
_GETTING: Final = re.compile(r"(?:能|可以|可|最多|最多能|一共能|总共能)(?:报|拿|领|休|请|批|用|花|住)")
_ZH_HOW_MUCH = re.compile(r"多少|几(?:[天个次年月周项条笔道家人]|小时|分钟|秒)?|多久|多长(?:时间)?")


def _measure_terms(text: str, terms: Sequence[str]) -> list[str]:
    """The terms right beside the question word of a Chinese quantity question: the word just before
    it ("提前几天", a verb or noun within two characters) and the one just after it ("几天提醒")."""
    found: list[str] = []
    for match in _ZH_HOW_MUCH.finditer(text):
        start, end = match.span()
        for term in terms:
            i = text.find(term)
            if i < 0 or term_weight(term) == 0:
                continue
            if (0 <= start - (i + len(term)) <= 1 or i == end) and not _GETTING.fullmatch(term):
                found.append(term)
    return list(dict.fromkeys(found))


def _about_the_part_before(part: _Part) -> bool:
    """Whether a part names nothing of its own and so asks about the subject of the part before it:
    no words at all ("含义是什么？"), a pronoun, a why that names nothing ("ORD-… 停在什么状态？为什么
    一直没有结果？"), or an error asked for with nothing named ("…怎么失败了？报的什么错？")."""
    if part.anchors:
        return False
    return (
        (not part.terms and not part.conditions)
        or part.has_pronoun
        or part.kind is AnswerKind.REASON
        or (bool(part.terms) and set(part.terms) <= _ERROR_WORDS)
        # "… when was it non-zero and whats the peak?": the peak of what the part before named
        or (bool(part.terms) and {t.lower() for t in part.terms} <= _EXTREME_WORDS)
        or _bare_field(part)
    )


#: A window's extreme asked with nothing else named (Session 30).
_EXTREME_WORDS: Final = frozenset(
    {"peak", "highest", "max", "maximum", "lowest", "min", "minimum", "最高", "峰值", "最低", "最大", "最小"}
)


#: "金额多少", "状态是什么": one noun and the question word, nothing else of the part's own.
_ZH_BARE_ASK: Final = re.compile(r"(?:是|为|有)?(?:多少|什么|几何|哪个|哪家|哪一个|几)[？?]?$")


def _bare_field(part: _Part) -> bool:
    """A Chinese part that is a single word and its question word ("…走的哪个通道、*金额多少*？") asks
    that attribute of the subject the part before named, not of anything holding the word (an
    expense claim's `金额`)."""
    if not part.zh or part.conditions or len(part.terms) != 1:
        return False
    rest = part.text.strip().replace(part.terms[0], "", 1)
    return bool(_ZH_BARE_ASK.fullmatch(rest.strip()))


def refers_back(question: str) -> bool:
    """A short question that names nothing of its own but points back with a pronoun
    ("What is its normal lag?", "And how often does that happen?", "它的上限是多少？")."""
    text = question.strip()
    zh = is_cjk_text(text)
    if not (_PRONOUNS_ZH if zh else _PRONOUNS_EN).search(text):
        return False
    # Length without the figures and dates the question adds ("那 3 月 14 日它真的被排满过吗？大概是几点？").
    bare = re.sub(r"[\d\s]+", "", text)
    if (len(bare) > 24) if zh else (len(text.split()) > 10):
        return False
    return all(not p.anchors for p in (_analyse(part) for part in split_parts(text)))


def round_two_query(need: Need) -> str:
    """A keyword query for an unmet need: its names, words, category and conditions — never gap prose."""
    words = [*need.anchors, *need.terms, *([need.category] if need.category else []), *need.soft_terms]
    words += [c.text for c in need.conditions]
    return " ".join(with_negations(need.search_text, list(dict.fromkeys(w for w in words if w))))[:500]

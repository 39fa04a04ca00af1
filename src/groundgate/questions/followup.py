"""Follow-up questions: "那 P2 呢？" after "P1 告警要求多久内确认？" asks "P2 告警要求多久内确认？".

A follow-up is completed from the session's previous question — for understanding only. Only earlier
*questions* are read (the caller passes no answers): an earlier answer has no fact status (docs/design.md §1 invariant 11) and is never evidence; the completed question is searched and verified from scratch.

A question is a follow-up when it is short and leans on the previous turn: it opens with `那`,
`那么`, `还有`, `and`, `what about`, `how about`, or ends with `呢`, and asks nothing of its own
kind. Its focus (a code such as `P2`, a name such as `Team B`, a figure, a date, a word) replaces
the part of the previous question of the same shape:

- a short code for a short code (`P1` → `P2`), an identifier for an identifier;
- a name with the same head word (`Team A` → `Team B`);
- a figure in the same unit (`满 12 年` → `满 5 年`), a date for a date, a time for a time;
- a Chinese word sharing a character (`产假` → `婚假`) or of the same word class (`北京` → `上海`).

When nothing of the same shape is found the question is left as it is (`followup=False`).

A Latin name counts as one word of a short follow-up ("同一分钟 payment-db-proxy 的呢？" is short), and a
service named in Chinese (`支付网关`, `订单服务`) is the service a follow-up's service replaces. A
pronoun standing for the one record the previous question named (`它`, "that refund") is that record,
also in a question that names things of its own (`record_pronouns`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from groundgate.questions.conditions import QUANTITY_MENTIONS
from groundgate.questions.needs import refers_back
from groundgate.questions.record_pronouns import name_referred_record
from groundgate.text.segmentation import is_cjk_text, jieba_cut, jieba_tag
from groundgate.verify import fidelity
from groundgate.verify.fidelity.numbers import parse_chinese_numeral

__all__ = ["Resolution", "Turn", "is_followup", "resolve_followup"]

#: One earlier turn of the session: the question as typed, and as the run resolved it.
Turn = tuple[str, str]

_ZH_CUE = re.compile(r"^\s*(?:那么|那|还有|另外|再问一下|再问|那如果|如果是)")
_ZH_TAIL = re.compile(r"呢\s*[？?]?\s*$")
_EN_CUE = re.compile(
    r"^\s*(?:and\s+(?:for|what\s+about|how\s+about|in|on|at)?|what\s+about|how\s+about|same\s+for)\b",
    re.IGNORECASE,
)
_ZH_ASKS = re.compile(r"什么|多少|几|谁|哪|怎么|怎样|如何|为什么|是否|吗|多久|多长")
_EN_ASKS = re.compile(r"\b(?:what|when|where|who|why|which|how)\b(?!\s+about)", re.IGNORECASE)
_CODE = re.compile(r"(?<![A-Za-z0-9_\-])[A-Za-z]\d{1,2}(?![A-Za-z0-9_\-])")
_NAME = re.compile(r"\b([A-Z][a-z][A-Za-z]*)\s+([A-Z0-9][A-Za-z0-9]*)\b")
_STRIP = re.compile(
    r"^\s*(?:那么|那|还有|另外|再问一下|再问|那如果|如果是|and\s+for|and\s+what\s+about|"
    r"and\s+how\s+about|what\s+about|how\s+about|same\s+for|and)\s*|\s*(?:呢|的呢)?\s*[？?。.!！]*\s*$",
    re.IGNORECASE,
)
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9]")
_CJK_WORD = re.compile(r"^[\u4e00-\u9fff]{2,6}$")
_IF = re.compile(r"^(?:要是|如果|假如|若是)\s*")
_SPOKEN_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千万]{2,8}")
_NUMERAL_HEAD = re.compile(r"^[零〇一二两三四五六七八九十百千万亿点\d,.\s]+")
#: "same minute", "at the same time", "同一分钟": the moment the previous question named, kept.
_SAME_MOMENT = re.compile(
    r",?\s*(?:at\s+)?(?:the\s+)?same\s+(?:minute|time|moment|hour|day)\b|[，,]?\s*(?:同一|同一个|那一|同)(?:分钟|时间|时刻|天)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
#: A code of letters and a number (`SEV1`, `P2`, `L4`, `v2`).
_SERIES = re.compile(r"(?<![A-Za-z0-9_\-])([A-Za-z]{1,5})[ -]?(\d{1,2})(?![A-Za-z0-9_\-])")


@dataclass(frozen=True, slots=True)
class Resolution:
    """The question a run answers, and how it was obtained."""

    question: str
    followup: bool
    replaced: str = ""
    """What of the previous question the follow-up's focus replaced (empty when not a follow-up)."""


def is_followup(question: str) -> bool:
    """Whether `question` leans on the previous turn (a short question with a follow-up cue)."""
    text = question.strip()
    if is_cjk_text(text) or _ZH_CUE.match(text) or _ZH_TAIL.search(text):
        body = _STRIP.sub("", text)
        cued = bool(_ZH_CUE.match(text) or _ZH_TAIL.search(text))
        # A Latin name counts as one word, however long it is spelled ("同一分钟 payment-db-proxy 的呢？").
        short = len(_LATIN_NAME.sub("A", body)) <= 16
        return cued and short and not _ZH_ASKS.search(body)
    words = text.split()
    return bool(_EN_CUE.match(text)) and len(words) <= 7 and not _EN_ASKS.search(_STRIP.sub("", text))


def resolve_followup(question: str, history: Sequence[Turn]) -> Resolution:
    """Complete a follow-up from the last earlier question of the session (see the module docs)."""
    if not history:
        return Resolution(question.strip(), False)
    previous = (history[-1][1] or history[-1][0]).strip()
    # "那它在 payment-db 连接池…的时候…？" after a question about ORD-…: about that order. A question that
    # names nothing of its own ("它走的是哪个银行通道？金额多少？") takes the earlier subject whole, every
    # part of it (`derive_needs(previous_question=…)`), so it is left to that.
    named = None if refers_back(question) else name_referred_record(question.strip(), previous)
    if named is not None:
        return Resolution(named, True)
    if not is_followup(question):
        return Resolution(question.strip(), False)
    focus = _STRIP.sub("", question.strip()).strip()
    if not focus or not previous:
        return Resolution(question.strip(), False)
    shifted = _minute_shifted(focus, previous)
    if shifted is not None:
        return Resolution(shifted, True)
    found = _same_shape(focus, previous)
    if found is None or found[0] == found[1]:
        return Resolution(question.strip(), False)
    target, replacement = found
    resolved = previous.replace(target, replacement, 1)
    # "同一分钟 payment-db-proxy 的呢？": the same moment is kept, it is no case of its own.
    case = _case_besides(_SAME_MOMENT.sub("", focus).strip(" ,，"), replacement)
    # "要是业务招待费，才 800 块呢？": the figure replaces the earlier one, the case is said first.
    return Resolution(f"{case}，{resolved}" if case else resolved, True, target)


#: "那前一分钟呢？", "and the minute before?", "后一分钟呢": the same question a minute earlier or later.
_MINUTE_SHIFT = re.compile(
    r"^(?:(?P<back>前一分钟|上一分钟|早一分钟|(?:the\s+)?(?:minute|one)\s+before|(?:a|one)\s+minute\s+(?:earlier|before))"
    r"|(?P<on>后一分钟|下一分钟|晚一分钟|(?:the\s+)?(?:minute|one)\s+after|(?:the\s+)?next\s+minute|(?:a|one)\s+minute\s+later))"
    r"\s*[?？。.]*$",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")


def _minute_shifted(focus: str, previous: str) -> str | None:
    """The previous question at the minute before (or after) the one clock time it names."""
    shift = _MINUTE_SHIFT.match(focus.strip())
    times = _CLOCK.findall(previous)
    if shift is None or len(set(times)) != 1:
        return None
    hour, minute = int(times[0][0]), int(times[0][1])
    total = (hour * 60 + minute + (-1 if shift.group("back") else 1)) % (24 * 60)
    return _CLOCK.sub(f"{total // 60:02d}:{total % 60:02d}", previous)


#: Words around a follow-up's figure that only frame it ("要是…才 800 块").
_FRAME = re.compile(r"要是|如果是|如果|假如|只有|才|就|的|，|,|\s")


def _case_besides(focus: str, replacement: str) -> str:
    """The Chinese words of `focus` besides the figure that replaced the earlier one: a case."""
    if not is_cjk_text(focus) or replacement not in focus or replacement == focus:
        return ""
    rest = _FRAME.sub("", focus.replace(replacement, " ", 1))
    return rest if re.fullmatch(r"[\u4e00-\u9fffA-Za-z]{2,12}", rest) else ""


def _same_shape(focus: str, previous: str) -> tuple[str, str] | None:
    """(span of `previous`, what replaces it): the part `focus` stands in for, by shape (module docs)."""
    focus = _ARTICLE.sub("", _SAME_MOMENT.sub("", focus).strip(" ,，"))
    focus = re.sub(r"(?<=[A-Za-z])'s\b", "", focus)  # "the gateway's": the gateway's value
    if _CODE.fullmatch(focus):
        codes = _CODE.findall(previous)
        return (codes[0], focus) if codes else None
    series = _SERIES.fullmatch(focus)
    if series:
        # `SEV3` after `SEV1`, `L4` after `L2`: the same letters with another number.
        for match in _SERIES.finditer(previous):
            if match.group(1).lower() == series.group(1).lower():
                return match.group(), focus
    name = _NAME.fullmatch(focus)
    if name:
        for match in _NAME.finditer(previous):
            if match.group(1).lower() == name.group(1).lower():
                return match.group(), focus
    service = _service_counterpart(focus, previous)
    if service:
        return service, focus
    spoken = _SPOKEN_NUMBER.fullmatch(_IF.sub("", focus))
    if spoken and (value := parse_chinese_numeral(spoken.group(0))) is not None:
        # "要是四千八呢？" after "报销一共五千二百块…": a spoken figure for the one quantity asked about,
        # in its unit.
        olds = [o for o in fidelity.extract(previous) if o.kind in QUANTITY_MENTIONS]
        if len(olds) == 1:
            unit = _NUMERAL_HEAD.sub("", olds[0].text)
            return olds[0].text, f"{value:g} {unit}".strip()
    for m in fidelity.extract(focus):
        if m.kind == "number" and isinstance(m.value, float):
            # "那 12,000 的呢？" after "一张 1,500 块的报销单…": a bare number for the one quantity
            # the question had, in its unit.
            olds = [o for o in fidelity.extract(previous) if o.kind in QUANTITY_MENTIONS]
            digits = re.search(r"\d[\d,.]*", olds[0].text) if len(olds) == 1 else None
            if digits is not None:
                return olds[0].text, olds[0].text.replace(digits.group(), m.text, 1)
        if m.kind not in QUANTITY_MENTIONS | {"date", "time", "identifier"}:
            continue
        for old in fidelity.extract(previous):
            # `满 5 年` for `满 12 年`: the figure is replaced, the comparator the question had stays.
            if old.kind == m.kind and (old.unit == m.unit or m.kind not in QUANTITY_MENTIONS):
                return old.text, m.text
    if _CJK_WORD.match(focus):
        target = _cjk_counterpart(focus, previous)
        return (target, focus) if target else None
    return None


def _service_counterpart(focus: str, previous: str) -> str | None:
    """`search-api` in "What does search-api's p99 latency normally look like?" for the focus `payment
    gateway` or `order-service`: a service for a service. The focus must itself name one (a service
    identifier, or a short English phrase ending in a word that names a system: `gateway`, `service`,
    `api`, `db`), so that "and for Team B?" or "and in March?" never replace a service."""
    if not _SERVICE_PHRASE.fullmatch(focus) and not any(
        m.kind == "identifier" and m.qualifier == "service" and m.text == focus
        for m in fidelity.extract(focus)
    ):
        return None
    services = [
        m.text for m in fidelity.extract(previous) if m.kind == "identifier" and m.qualifier == "service"
    ] or _zh_services(previous)
    return services[0] if len(set(services)) == 1 else None


#: The head word of a Chinese name for a system (`支付网关`, `订单服务`, `通知服务`).
_ZH_SYSTEM_HEADS = frozenset(["网关", "服务", "数据库", "代理", "集群"])


def _zh_services(previous: str) -> list[str]:
    """The systems `previous` names in Chinese (`支付网关` of "2点08分 支付网关的 p99…"): a system head
    word with the Chinese word before it, if any. A Chinese question names its service so, not by
    its identifier, and "同一分钟 payment-db-proxy 的呢？" replaces it all the same."""
    words = list(jieba_cut(previous))
    found: list[str] = []
    for i, word in enumerate(words):
        if word in _ZH_SYSTEM_HEADS:
            before = words[i - 1] if i > 0 else ""
            found.append((before if re.fullmatch("[\u4e00-\u9fff]{2}", before) else "") + word)
    return found


#: A short English phrase naming a system: `payment gateway`, `the search service`, `order db`.
_SERVICE_PHRASE = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9]*[ -]){0,2}(?:gateway|service|api|db|database|cluster|proxy|consumer|queue|cache)",
    re.IGNORECASE,
)


def _cjk_counterpart(focus: str, previous: str) -> str | None:
    """A word of `previous` sharing a character with `focus` (`产假`/`婚假`), else the same head with
    another whole-word modifier (`副值班` for `主值班`, not the `产值班` of `生产值班`), else a word of its
    word class."""
    tagged = [(w, t) for w, t in jieba_tag(previous) if re.fullmatch("[\u4e00-\u9fff]{2,6}", w)]
    sharing = [w for w, _ in tagged if w != focus and set(w) & set(focus) and len(w) == len(focus)]
    if sharing:
        return sharing[0]
    modified = _same_head(focus, previous)
    if modified:
        return modified
    focus_tags = {t for _, t in jieba_tag(focus)}
    specific = [w for w, t in tagged if t in focus_tags and t not in ("n", "v", "vn", "m", "r", "uj")]
    return specific[0] if specific else None


def _same_head(focus: str, previous: str) -> str | None:
    """`主值班` in `previous` for the focus `副值班`: the focus's last two characters (its head) after
    a modifier of the same length that is a whole word of `previous`."""
    head, size = focus[-2:], len(focus) - 2
    if size < 1:
        return None
    words = [w for w in jieba_cut(previous) if w.strip()]
    for i in range(1, len(words)):
        modifier = words[i - 1]
        if (
            words[i] == head
            and len(modifier) == size
            and modifier != focus[:size]
            and re.fullmatch("[\u4e00-\u9fff]+", modifier)
        ):
            return modifier + head
    return None

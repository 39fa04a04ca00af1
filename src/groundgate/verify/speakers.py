"""Who said it: a remark, proposal or promise credited to another person of the context.

Meeting notes, email threads and chat logs say who said what (`Tomasz said the API refactor needs two
more sprints`, `毛力：索引重建需要约三天，建议放在周末`, `Councillor Dana Whitfield, who proposed the plan,
said …`). A summary that credits the remark to someone else (`Hana Lusk pointed out that the API
refactor still needs two more sprints`) shares every word of it with the context, and the person is
named there too — in another line. Support scoring cannot see the swap.

A claim's clause `<person> <said | pointed out | proposed | warned …> <what>` (`<person>则表示<what>`,
`<person>：<what>` in Chinese) is matched to the context sentence most about the same `what`. When
that sentence credits it to another named person and never names the claim's, the pairing is
reported; the claim is `no_evidence`, never `contradicted`: a remark may be repeated by several people
in ways one sentence does not show (docs/design.md §2.1, "Session 33"). Pure: text in, findings out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from groundgate.text.segmentation import normalize

__all__ = ["SpeakerSwap", "speaker_swaps"]

_EN_VERBS: Final = (
    r"said|says|noted|notes|pointed\s+out|argued|warned|proposed|proposes|suggested|suggests|asked|"
    r"confirmed|explained|added|replied|wrote|reported|stated|mentioned|recommended|promised|agreed|"
    r"objected|raised|flagged|committed\s+to|offered|insisted|cautioned|estimated|announced|cited|"
    r"reminded|urged|complained|admitted|claimed|predicted|expects|expected"
)
_EN_VERB: Final = re.compile(rf"\b(?:{_EN_VERBS})\b")
#: The speaker right before the verb: `Tomasz Weller pointed out`, `Mark Osei, who proposed the plan,
#: cited`.
_EN_WHO: Final = re.compile(
    r"(?P<who>[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){0,2})(?:(?:,[^,]{1,90}){1,3},)?[ \t]+(?:also[ \t]+|then[ \t]+|later[ \t]+)?$"
)
#: `Hana: the mockups are ready` at the start of a line or sentence (chat logs, minutes).
_EN_COLON: Final = re.compile(r"^[ \t]*(?P<who>[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?):[ \t]+(?P<what>[^.;!?\n]+)")
_ZH_VERBS: Final = "表示|说|指出|提出|建议|认为|提醒|强调|确认|回复|答复|提到|承诺|估计|反映|透露|坦言|预计"
#: `毛力则表示…`, `白雪说…`: the speaker is the two or three characters before the verb (a particle
#: such as 则/也/还 between them).
_ZH_SPEECH: Final = re.compile(rf"(?:则|也|还|又|随后|当场|同时)?(?:{_ZH_VERBS})")
#: `毛力：索引重建需要约三天` at the start of a sentence or a line.
_ZH_COLON: Final = re.compile(r"^\s*(?P<who>[\u4e00-\u9fff]{2,3})[：:](?P<what>[^。；！？\n]+)")
_SENTENCE_END: Final = re.compile(r"(?<=[。；！？!?;])|\n|(?<=[a-z0-9)\"'])\.(?=\s)")
_STOP: Final = frozenset(
    {"that", "this", "with", "from", "have", "been", "were", "will", "would", "could", "should", "their",
     "there", "they", "them", "then", "than", "into", "about", "after", "before", "more", "need", "needs",
     "also", "still", "just", "only", "what", "when", "which", "while"}
)  # fmt: skip
#: A remark shares at least this many words (English) or character pairs (Chinese) with its sentence.
_MIN_SHARED_EN = 2
#: Words that stand where a speaker does but name nobody in particular.
_NOT_NAMES: Final = frozenset(
    {"He", "She", "It", "They", "We", "One", "This", "That", "These", "Those", "The", "There", "Here",
     "Attendees", "Decision", "Note", "Notes", "Update", "Subject", "Re", "Action", "Owner", "Status"}
)  # fmt: skip
#: Common Chinese surnames: a speaker named in Chinese starts with one.
_SURNAMES: Final = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷"
    "盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷"
    "晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
_MIN_SHARED_ZH = 3
#: … and at least this share of its own.
_MIN_SHARE = 0.4


@dataclass(frozen=True, slots=True)
class SpeakerSwap:
    """A remark the claim credits to `claimed` that the context credits to `stated`."""

    claimed: str
    stated: str


@dataclass(frozen=True, slots=True)
class _Remark:
    who: str
    what: str
    sentence: str


def _en_words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z][a-z0-9-]{3,}", text.lower()) if w not in _STOP}


def _zh_pairs(text: str) -> set[str]:
    chars = re.sub(r"[的了和与及在是为将把被对给就也都还要会]", " ", normalize(text))
    return {chars[i : i + 2] for i in range(len(chars) - 1) if " " not in chars[i : i + 2]}


def _zh_speaker(text: str, end: int, context: str) -> str | None:
    """The name of three or two characters ending at `end`, led by a common surname, that the
    context names too (`更记录说明` is no person)."""
    for size in (3, 2):
        who = text[max(0, end - size) : end]
        if (
            len(who) == size
            and who[0] in _SURNAMES
            and all("\u4e00" <= c <= "\u9fff" for c in who)
            and who in context
        ):
            return who
    return None


def _sentences(text: str) -> list[str]:
    return [p for p in _SENTENCE_END.split(text) if p.strip()]


def _remarks(text: str, context: str) -> list[_Remark]:
    """Every remark of `text` with its speaker, its content and its sentence. A remark's content
    runs to the next remark's speaker (`Reni suggested X, and Hana pointed out Y`)."""
    found: list[_Remark] = []
    for sentence in _sentences(text):
        starts: list[tuple[int, int, str]] = []  # (speaker start, content start, speaker)
        for m in _EN_VERB.finditer(sentence):
            who = _EN_WHO.search(sentence, max(0, m.start() - 240), m.start())
            if who is not None and who.group("who").split()[0] not in _NOT_NAMES:
                starts.append((who.start(), m.end(), who.group("who")))
        for m in _ZH_SPEECH.finditer(sentence):
            name = _zh_speaker(sentence, m.start(), context)
            if name is not None:
                starts.append((m.start() - len(name), m.end(), name))
        for m in _EN_COLON.finditer(sentence):
            if m.group("who").split()[0] not in _NOT_NAMES:
                starts.append((m.start("who"), m.start("what"), m.group("who")))
        for m in _ZH_COLON.finditer(sentence):
            if m.group("who")[0] in _SURNAMES:
                starts.append((m.start("who"), m.start("what"), m.group("who")))
        starts.sort()
        for n, (_, begin, speaker) in enumerate(starts):
            end = starts[n + 1][0] if n + 1 < len(starts) else len(sentence)
            if end > begin:
                found.append(_Remark(speaker, sentence[begin:end], sentence))
    return found


def _same_person(a: str, b: str) -> bool:
    if a in b or b in a:
        return True
    return bool(set(a.split()) & set(b.split()))


def _shared(claim_what: str, sentence: str) -> tuple[int, float]:
    if re.search(r"[\u4e00-\u9fff]", claim_what):
        wanted, have = _zh_pairs(claim_what), _zh_pairs(sentence)
    else:
        wanted, have = _en_words(claim_what), _en_words(sentence)
    if not wanted:
        return 0, 0.0
    common = len(wanted & have)
    return common, common / len(wanted)


@lru_cache(maxsize=4)
def _read_context(context: str) -> tuple[tuple[_Remark, ...], tuple[str, ...]]:
    """The context's remarks and sentences, read once per context however many claims ask (a few
    contexts kept, as `certainty._sentences` does)."""
    return tuple(_remarks(context, context)), tuple(_sentences(context))


def _share(what: str, text: str, minimum: int) -> float:
    """The share of the remark's words `text` holds, 0 when fewer than `minimum` are shared."""
    common, part = _shared(what, text)
    return part if common >= minimum else 0.0


def speaker_swaps(claim: str, context: str) -> list[SpeakerSwap]:
    """The claim's remarks that the context's closest sentence credits to another person."""
    if not (_EN_VERB.search(claim) or _ZH_SPEECH.search(claim) or _ZH_COLON.search(claim)):
        return []  # most claims report nobody's words: the context is not read
    stated, sentences = _read_context(context)
    if not stated:
        return []
    found: list[SpeakerSwap] = []
    for mine in _remarks(claim, context):
        if mine.who not in context or len(mine.what.strip()) < 4:
            continue  # an unknown name is left to the other rules; `said so` says nothing
        minimum = _MIN_SHARED_ZH if re.search(r"[\u4e00-\u9fff]", mine.what) else _MIN_SHARED_EN
        best_sentence = max((_share(mine.what, s, minimum) for s in sentences), default=0.0)
        scored = [(_share(mine.what, r.what, minimum), r) for r in stated]
        top, remark = max(scored, key=lambda pair: pair[0])  # the first of the closest remarks
        if top < _MIN_SHARE or top < best_sentence * 0.9 or _same_person(mine.who, remark.who):
            continue
        if mine.who in remark.sentence or any(
            _same_person(mine.who, r.who) and part >= top * 0.5 for part, r in scored
        ):
            continue
        found.append(SpeakerSwap(claimed=mine.who, stated=remark.who))
    return found

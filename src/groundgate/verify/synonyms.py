"""Synonym and number-word normalisation for support scoring: `年休假` and `年假`, `三个` and `3个`,
and — across languages — `annual leave` and `年假`, read as the same words.

Lexical support counts the claim's words found in an evidence window, so a faithful paraphrase
that says `年休假` where the source says `年假` loses support it deserves. `canonical(text, ...)`
rewrites every term of the bundled zh↔en lexicon into one marker word per concept (`qzadahq`),
and small number words next to a unit into digits, before the checker tokenises the claim and the
context, so both sides meet on the same words.

- Chinese terms are always folded (within Chinese, the lexicon's synonyms are real synonyms);
- a short curated list of English paraphrase verbs (`kept` / `retained`, `rose` / `grew`), never
  opposites and never words that name a thing, is folded always;
- English lexicon terms only when `cross_language` is set (the claim and its context are in different
  languages): within English the stemmer already joins word forms, and the lexicon's broader
  English groupings (`upgrade`/`escalate`) would hide real word swaps.

The lexicon's data is `text/data/lexicon_zh_en.tsv` (built by `benchmarks/build_lexicon.py`);
it is read lazily, once per process, by path, on the first check that needs it — importing this
module does no I/O, and `verify` imports nothing from `knowledge` (whose package pulls in the
index clients). Only the pure parsing and lookup live here.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from groundgate.verify.fidelity.lexicon import WEEKDAY_ZH
from groundgate.verify.fidelity.numbers import parse_chinese_numeral
from groundgate.verify.fidelity.units import NOT_AFTER_CHENG

#: The bundled lexicon, relative to the `groundgate` package.
_LEXICON = Path(__file__).resolve().parent.parent / "text" / "data" / "lexicon_zh_en.tsv"

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_EN_WORD = re.compile(r"[a-z][a-z0-9]*(?:'[a-z]+)?")
_MAX_EN_WORDS = 4

# Small number words next to a unit or classifier: `三个工作日` → `3个工作日`, `three times` → `3 times`.
_ZH_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_NUMBER = re.compile(
    r"(?<![零一二两三四五六七八九十百千万第])([一二两三四五六七八九]?十[一二三四五六七八九]?|[一二两三四五六七八九])(?=[个天年月周次小时分钟秒人台倍项条名位家勺颗克斤张块份杯瓶碗件篇种座层辆架只部本首场届球岁道])"
)
# `三成` is 30 %: a share written the Chinese way (not `一成不变`, `三成员`: the fidelity scanner's list).
_ZH_TENTHS = re.compile(
    rf"(?<![零一二两三四五六七八九十百千万第])([一二三四五六七八九])成(?![{''.join(sorted(NOT_AFTER_CHENG))}])"
)
_EN_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
}  # fmt: skip
_EN_NUMBER = re.compile(r"\b(" + "|".join(_EN_NUMBERS) + r")\b(?=[ -][a-z])")


@dataclass(frozen=True, slots=True)
class SynonymTable:
    """Term → concept marker, for Chinese terms (by substring) and English phrases (by words)."""

    zh: dict[str, str]
    en: dict[str, str]
    zh_longest: int

    @classmethod
    def from_tsv(cls, text: str) -> SynonymTable:
        """Parse the lexicon's `id<TAB>zh terms<TAB>en terms` lines (`|` between synonyms)."""
        zh: dict[str, str] = {}
        en: dict[str, str] = {}
        for line in text.splitlines():
            if not line or line.startswith(("#", "id\t")):
                continue
            parts = line.split("\t")
            if len(parts) < 3:
                continue
            marker = _marker(parts[0])
            for term in parts[1].split("|"):
                term = _fold(term.strip())
                if len(term) >= 2:
                    zh.setdefault(term, marker)
            for term in parts[2].split("|"):
                key = _en_key(_EN_WORD.findall(_fold(term).replace("-", " ")))
                if key:
                    en.setdefault(key, marker)
        return cls(zh, en, max((len(t) for t in zh), default=0))


def _marker(concept_id: str) -> str:
    """A word no text contains and the tokenizer keeps whole: `c0037` → `qzaadhq`."""
    return "qz" + "".join(chr(ord("a") + int(c)) if c.isdigit() else c for c in concept_id.lower()) + "q"


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _en_key(words: list[str]) -> str:
    return " ".join(_singular(w) for w in words)


@lru_cache(maxsize=1)
def default_table() -> SynonymTable:
    """The bundled lexicon, read on first use; an empty table when the data file is missing."""
    try:
        return SynonymTable.from_tsv(_LEXICON.read_text("utf-8"))
    except OSError:
        return SynonymTable({}, {}, 0)


_ZH_PERCENT = re.compile(r"百分之\s*([零一二两三四五六七八九十百]+|\d+(?:\.\d+)?)")
#: `1周` after the number pass (`一周` → `1周`), not `周一` (a weekday) or `每周` (a rate's unit).
_ZH_WEEKS = re.compile(r"(?<![\d.])(\d{1,2})\s*(?:周|个星期|个礼拜)(?![一二三四五六日天末])")
_ZH_DAYS = re.compile(r"(?<![\d.])(\d{1,3})\s*日(?=\s*(?:内|之内|以内|前|以前|之前|后|以后|之后))")
_ZH_HOUR = re.compile(r"(?<![\d.:])([01]?\d|2[0-3])\s*时(?!\s*(?:间|候|长|效|段))(?:\s*(\d{1,2})\s*分)?")


def _digits(text: str) -> str:
    """A number written in digits or Chinese numerals, in digits."""
    if text[0].isdigit():
        return text
    total = 0
    if "百" in text:
        hundreds, _, text = text.partition("百")
        total += (_ZH_DIGITS.get(hundreds, 1) if hundreds else 1) * 100
        text = text.lstrip("零")
    if "十" in text:
        tens, _, ones = text.partition("十")
        total += (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
    elif text:
        total += _ZH_DIGITS[text]
    return str(total)


def _zh_number(match: re.Match[str]) -> str:
    text = match.group(1)
    if "十" not in text:
        return str(_ZH_DIGITS[text])
    tens, _, ones = text.partition("十")
    return str((_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0))


# Days and months are written both ways (`Fri 14 Jun`, `Friday 14 June`): one form, the short one.
_EN_CALENDAR = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|april|june|july|"
    r"august|september|sept|october|november|december)(?:s\b|\b)"
)
#: Clock times written the 12-hour way (`2 am`, `2:30 p.m.`, `下午 3 点`, `晚上 6:30`) as the 24-hour
#: `HH:MM` records and runbooks use, so a paraphrase keeps its time word.
_EN_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?")
_ZH_CLOCK = re.compile(
    r"(凌晨|早上|上午|中午|下午|傍晚|晚上)\s*(\d{1,2})(?:\s*[:：]\s*(\d{2})|\s*点\s*(半|\d{1,2}\s*分?)?)"
)
_ZH_AFTERNOON = frozenset({"下午", "傍晚", "晚上"})
_ZH_CLOCK_NUMERAL = re.compile(
    r"(?<![零一二两三四五六七八九十百千万第\d])([一二两三四五六七八九]?十[一二]?|[一二两三四五六七八九])(\s*点)"
)
_ZH_CLOCK_MINUTES = re.compile(r"点\s*([一二三四五]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*分")
_ZH_DAYPART_SPAN = re.compile(
    r"(凌晨|早上|上午|中午|下午|傍晚|晚上)(\s*\d{1,2}\s*点(?:半|\s*\d{1,2}\s*分?)?)(\s*(?:到|至|~|-|—)\s*)(?=\d{1,2}\s*点)"
)
#: `7:30` is `07:30`, the form the conversions above write.
_SHORT_CLOCK = re.compile(r"(?<![\w:.])(\d:[0-5]\d)(?![\d])")
#: `2 weeks` is `14 days`: policies write either.
_WEEKS = re.compile(r"\b(\d{1,2})\s*weeks?\b")


def _en_clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if hour > 12 or minute > 59:
        return m.group(0)
    hour = hour % 12 + (12 if m.group(3) == "p" else 0)
    return f" {hour:02d}:{minute:02d} "


#: `周二` / `星期二` is `tue`, as the English calendar words fold (`Tue-Sun` in a record).
_WEEKDAYS = {ch: ("mon", "tue", "wed", "thu", "fri", "sat", "sun")[n - 1] for ch, n in WEEKDAY_ZH.items()}
_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])(?![一二三四五六七八九十])")
#: A bare hour span ending past noon (`10 点到 17 点`, `8 点到 17:30`) is clock times, as the fidelity
#: checks read it; `8 点` alone stays as written.
_ZH_HOUR_SPAN = re.compile(
    r"(?<![\d:])(\d{1,2})\s*点\s*(到|至|-|–|~)\s*(\d{1,2})(?:\s*点|(?=\s*[:：]\s*\d{2}))"
)


#: `10:00-17:00` and `Tue-Sun` are two clock times and two days, not one word each.
_CLOCK_RANGE = re.compile(r"(\d:\d{2})\s*[-–—~]\s*(?=\d)")
_WEEKDAY_RANGE = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)-(mon|tue|wed|thu|fri|sat|sun)\b")


def _zh_hour_span(m: re.Match[str]) -> str:
    start, end = int(m.group(1)), int(m.group(3))
    if not (start < end and 13 <= end <= 23):
        return m.group(0)
    tail = f" {end:02d}:00 " if m.group(0).rstrip().endswith("点") else f" {end:02d}"
    return f" {start:02d}:00 {m.group(2)}{tail}"


def _zh_clock(m: re.Match[str]) -> str:
    hour = int(m.group(2))
    tail = m.group(4) or ""
    minute = int(m.group(3)) if m.group(3) else 30 if tail == "半" else int(re.sub(r"\D", "", tail) or 0)
    if hour > 23 or minute > 59:
        return m.group(0)
    # 下午 3 点 is 15:00; 中午 12 点 stays 12:00, 中午 1 点 is 13:00.
    if (m.group(1) in _ZH_AFTERNOON and hour < 12) or (m.group(1) == "中午" and hour < 11):
        hour += 12
    return f" {hour:02d}:{minute:02d} "


#: English paraphrase pairs, narrow on purpose: each group is one meaning people retell with another
#: word (`kept` / `retained`, `rose` / `grew`). Opposites never share a group (`rose` / `fell`), and
#: nothing here names a thing, so an entity swap stays a swap.
_EN_SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("keep", "keeps", "kept", "retain", "retains", "retained"),
    ("allow", "allows", "allowed", "permit", "permits", "permitted"),
    ("need", "needs", "needed", "require", "requires", "required"),
    ("start", "starts", "started", "begin", "begins", "began", "begun", "commence", "commences", "commenced"),
    ("finish", "finishes", "finished", "end", "ends", "ended"),
    ("buy", "buys", "bought", "purchase", "purchases", "purchased"),
    ("rise", "rises", "rose", "risen", "rising", "grow", "grows", "grew", "grown", "growing", "increase",
     "increases", "increased", "increasing", "climb", "climbs", "climbed", "climbing", "jump", "jumps",
     "jumped", "jumping"),
    # Not `declined`: a card or an offer is declined (refused) far more often than a rate.
    ("fall", "falls", "fell", "fallen", "falling", "drop", "drops", "dropped", "dropping", "decrease",
     "decreases", "decreased", "decreasing"),
    ("get", "gets", "got", "receive", "receives", "received"),
    ("say", "says", "said", "state", "states", "stated"),
    ("help", "helps", "helped", "assist", "assists", "assisted"),
    ("try", "tries", "tried", "attempt", "attempts", "attempted"),
    ("fix", "fixes", "fixed", "repair", "repairs", "repaired"),
    ("big", "large"),
    ("consecutive", "straight", "successive"),
    ("unchanged", "steady"),
    ("about", "around", "roughly", "approximately"),
    ("cancel", "cancels", "cancelled", "canceled"),
)  # fmt: skip
_EN_SYNONYMS = {word: group[0] for group in _EN_SYNONYM_GROUPS for word in group}
_LATIN_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w-])")  # whole words, never inside CARD_DECLINED

#: Units spelled out, as the symbols records and spec sheets print (`420 m³/h` is retold as
#: `420 立方米每小时` or `420 cubic metres per hour`; NFKC already makes `㎡` `m2` and `m³` `m3`).
_UNIT_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"立方米每小时|每小时立方米|\bcubic met(?:re|er)s? (?:per|an|a) hour\b"), " m3/h "),
    (re.compile(r"平方米|平米|\bsquare met(?:re|er)s?\b|\bsq\.? ?m\b"), " m2 "),
    (re.compile(r"立方米|\bcubic met(?:re|er)s?\b"), " m3 "),
    (re.compile(r"分贝|\bdecibels?\b"), " db "),
    (re.compile(r"公斤|千克|\bkilograms?\b|\bkilos\b"), " kg "),
    (re.compile(r"公里|千米|\bkilomet(?:re|er)s?\b"), " km "),
    (re.compile(r"毫秒|\bmilliseconds?\b"), " ms "),
    (re.compile(r"毫升|\bmillilit(?:re|er)s?\b"), " ml "),
)
_UNIT_GATE = re.compile(r"米|分贝|公斤|千克|公里|毫秒|毫升|cubic|square|sq|decibel|kilo|milli")

#: A figure written with a scale word or digit groups is one number: `8 千元`, `8,000 元` and `8000 元`
#: are the same amount, `1.2 万笔` is `12000 笔`, `$2.3 million` is `$2300000 million`. Not `千克`/`千米`
#: (units, folded above) nor `千瓦` (kW).
_SCALED = re.compile(
    r"(?<![\d.,])(\d+(?:\.\d+)?)\s*(?:(万亿|千亿|百亿|千|万|亿)(?![克米瓦帕焦卡])|(thousand|million|billion)\b)"
)
_SCALES = {"千": 1_000, "万": 10_000, "亿": 100_000_000, "百亿": 10**10, "千亿": 10**11, "万亿": 10**12, "thousand": 1_000, "million": 1_000_000,
           "billion": 1_000_000_000}  # fmt: skip
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")


#: A Chinese numeral with a big unit (`三万两千`, `一千五百`), whole: not `千万` (an adverb) nor `万一`.
_ZH_BIG_NUMBER = re.compile(
    r"(?<![零〇一二两三四五六七八九十百千万亿第几])"
    r"([一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*[百千万亿][零〇一二两三四五六七八九十百千]*)"
    r"(?![零〇一二两三四五六七八九十百千万亿])"
)


def _zh_big_number(m: re.Match[str]) -> str:
    value = parse_chinese_numeral(m.group(1))
    return m.group(0) if value is None or value != int(value) else str(int(value))


#: `£12` is the figure 12 in pounds: the sign its own word, so `12 英镑` and `12 pounds` share the figure.
_CURRENCY_SIGN = re.compile(r"([£$€¥])\s?(?=\d)(\d)")
#: `under-16s` is `under 16` (an age group), as `16 岁以下` and `under 16` say it.
_AGE_GROUP = re.compile(r"\b(under|over)-(\d{1,3})s\b")


#: `a 45-minute training` is `45 minutes` (the checker reads the same figure and unit).
_UNIT_HYPHEN = re.compile(
    r"(\d)-(?=(?:second|minute|hour|day|week|month|year|night)s?\b(?!-))"
)  # not `37-year-old`
#: `isn't` is `is not`, `you've` `you have`: the tokenizer kept `isn` and `ve` as words the context
#: never writes (the negation itself is the fidelity checks' to compare).
_IRREGULAR_NOT = re.compile(r"\b(can|won|shan)['’]t\b")
_IRREGULAR = {"can": "can not", "won": "will not", "shan": "shall not"}
_NOT = re.compile(r"(?<=[a-z])n['’]t\b")
_AUXILIARY = re.compile(r"(?<=[a-z])['’](ve|re|ll)\b")
_AUXILIARIES = {"ve": " have", "re": " are", "ll": " will"}


def _expanded(text: str) -> str:
    text = _IRREGULAR_NOT.sub(lambda m: _IRREGULAR[m.group(1)], text)
    text = _NOT.sub(" not", text)
    return _AUXILIARY.sub(lambda m: _AUXILIARIES[m.group(1)], text)


def _scaled(m: re.Match[str]) -> str:
    value = Decimal(m.group(1)) * _SCALES[m.group(2) or m.group(3)]
    if value != value.to_integral():
        return m.group(0)
    # The English scale word stays too: `10 million` and `1 million` still share a word to align on.
    return format(value.normalize(), "f") + (f" {m.group(3)}" if m.group(3) else "")


#: `Wi-Fi`, `wi fi` and `wifi` are one word (records write `WiFi`).
_WIFI = re.compile(r"\bwi[- ]fi\b")


def readable(word: str, text: str) -> str:
    """`word` as a person reads it in a reason code: a concept marker (`qzcaajdq`) becomes the term of
    its concept that `text` uses (`内存`), else the concept's first term; other words stay as they are."""
    if not word.startswith("qz"):
        return word
    terms = _terms_by_marker().get(word, ())
    folded = _fold(text)
    return next((term for term in terms if term in folded), terms[0] if terms else word)


@lru_cache(maxsize=1)
def _terms_by_marker() -> dict[str, tuple[str, ...]]:
    table = default_table()
    found: dict[str, list[str]] = {}
    for term, marker in itertools.chain(table.zh.items(), table.en.items()):
        found.setdefault(marker, []).append(term)
    return {marker: tuple(terms) for marker, terms in found.items()}


_ZH_AND_A_HALF = re.compile(r"(?<![\d.])(\d+)(个)?半(天|年|小时|个月|月|周|分钟)")
_ZH_UNIT_AND_A_HALF = re.compile(r"(?<![\d.])(\d+)(天|年|周)半")


def canonical(text: str, *, cross_language: bool = False, table: SynonymTable | None = None) -> str:
    """`text` with lexicon terms replaced by their concept markers and number words by digits.

    Lower-cased and NFKC-folded (what tokenisation does anyway). Cost: one pass over the text, a
    few dictionary look-ups per character of Chinese and per English word. Not cached here: a check
    remembers its own texts (`windows.ContextIndex.canonical`), so no context outlives its check.
    """
    return _canonical(text, cross_language, table or default_table())


def _canonical(text: str, cross_language: bool, table: SynonymTable) -> str:
    folded = _fold(text)
    folded = _ZH_NUMBER.sub(_zh_number, folded)
    if "百" in folded or "千" in folded or "万" in folded or "亿" in folded:
        folded = _ZH_BIG_NUMBER.sub(_zh_big_number, folded)
    folded = _ZH_TENTHS.sub(lambda m: f"{_ZH_DIGITS[m.group(1)] * 10}%", folded)
    if "百分之" in folded:
        # `百分之八十五` is 85 %, `百分之 5` 5 %.
        folded = _ZH_PERCENT.sub(lambda m: f"{_digits(m.group(1))}%", folded)
    if "周" in folded or "日" in folded or "时" in folded or "星期" in folded or "礼拜" in folded:
        # `一周以前` is 7 days, `60 日内` 60 days; `16 时` (and `16 时 30 分`) a clock time.
        folded = _ZH_WEEKS.sub(lambda m: f"{int(m.group(1)) * 7}天", folded)
        folded = _ZH_DAYS.sub(r"\1天", folded)
        folded = _ZH_HOUR.sub(lambda m: f" {int(m.group(1)):02d}:{int(m.group(2) or 0):02d} ", folded)
    if "半" in folded:
        # `三天半` is 3.5 days, `一个半小时` 1.5 hours, `两年半` 2.5 years.
        folded = _ZH_AND_A_HALF.sub(r"\1.5\3", folded)
        folded = _ZH_UNIT_AND_A_HALF.sub(r"\1.5\2", folded)
    folded = _EN_NUMBER.sub(lambda m: str(_EN_NUMBERS[m.group(1)]), folded)
    folded = _EN_CALENDAR.sub(lambda m: m.group(1)[:3], folded)
    if "-" in folded:
        folded = _WEEKDAY_RANGE.sub(r"\1 - \2", folded)
    if "周" in folded or "星期" in folded or "礼拜" in folded:
        folded = _ZH_WEEKDAY.sub(lambda m: f" {_WEEKDAYS[m.group(1)]} ", folded)
    if "fi" in folded:
        folded = _WIFI.sub("wifi", folded)
    if "m" in folded:
        folded = _EN_CLOCK.sub(_en_clock, folded)
    # One pass of dictionary look-ups, and only when a listed word occurs (most texts have none).
    if not _EN_SYNONYMS.keys().isdisjoint(_LATIN_WORD.findall(folded)):
        folded = _LATIN_WORD.sub(lambda m: _EN_SYNONYMS.get(m.group(), m.group()), folded)
    if _UNIT_GATE.search(folded):
        for pattern, symbol in _UNIT_WORDS:
            folded = pattern.sub(symbol, folded)
    if "," in folded:
        folded = _GROUPED.sub(lambda m: m.group(0).replace(",", ""), folded)
    folded = _SCALED.sub(_scaled, folded)
    if "£" in folded or "$" in folded or "€" in folded or "¥" in folded:
        folded = _CURRENCY_SIGN.sub(r"\1 \2", folded)
    if "-" in folded:
        folded = _AGE_GROUP.sub(r"\1 \2", folded)
        folded = _UNIT_HYPHEN.sub(r"\1 ", folded)
    if "'" in folded or "’" in folded:
        folded = _expanded(folded)
    if "week" in folded:
        folded = _WEEKS.sub(lambda m: f"{int(m.group(1)) * 7} days", folded)
    if "点" in folded:
        # `上午九点到十二点`, `下午四点二十分`: clock numerals as digits, and the second time of a span
        # in the first one's part of the day (`下午一点半到五点` ends at 17:00).
        folded = _ZH_CLOCK_NUMERAL.sub(lambda m: _zh_number(m) + m.group(2), folded)
        folded = _ZH_CLOCK_MINUTES.sub(lambda m: f"点{_zh_number(m)}分", folded)
        folded = _ZH_DAYPART_SPAN.sub(r"\1\2\3\1", folded)
    if "点" in folded or ":" in folded:
        folded = _ZH_CLOCK.sub(_zh_clock, folded)
        folded = _ZH_HOUR_SPAN.sub(_zh_hour_span, folded)
        folded = _CLOCK_RANGE.sub(r"\1 - ", folded)
        folded = _SHORT_CLOCK.sub(r"0\1", folded)
    if table.zh:
        folded = _CJK_RUN.sub(lambda m: _replace_zh(m.group(0), table), folded)
    if cross_language and table.en:
        folded = _replace_en(folded, table)
    return folded


def _replace_zh(run: str, table: SynonymTable) -> str:
    """Longest lexicon terms first, left to right, inside one run of Chinese characters."""
    out: list[str] = []
    i, n, longest = 0, len(run), table.zh_longest
    while i < n:
        for length in range(min(longest, n - i), 1, -1):
            marker = table.zh.get(run[i : i + length])
            if marker is not None:
                out.append(f" {marker} ")
                i += length
                break
        else:
            out.append(run[i])
            i += 1
    return "".join(out)


def _replace_en(text: str, table: SynonymTable) -> str:
    words = list(_EN_WORD.finditer(text))
    out: list[str] = []
    last = 0
    k = 0
    while k < len(words):
        for size in range(min(_MAX_EN_WORDS, len(words) - k), 0, -1):
            group = words[k : k + size]
            # A phrase is only its words when nothing but spaces or hyphens sits between them.
            if any(text[a.end() : b.start()] not in {" ", "-"} for a, b in itertools.pairwise(group)):
                continue
            marker = table.en.get(_en_key([w.group(0) for w in group]))
            if marker is not None:
                out.append(text[last : group[0].start()])
                out.append(marker)
                last = group[-1].end()
                k += size
                break
        else:
            k += 1
    out.append(text[last:])
    return "".join(out)

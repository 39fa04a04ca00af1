"""The compiled regexes of extraction, and the character sets their context checks use.

Speed: `re` skips quickly over positions only when a pattern starts with a literal or a single
character class, so every scanning pattern below starts with one. Context checks that would need a
leading look-behind are done in Python on the match (`_Extractor.left_ok`), and case-insensitive
word lists run against a lower-cased copy of the text with the same offsets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from groundgate.verify.fidelity.cues import (
    _CMP_POSTFIX,
    _CMP_POSTFIX_DATE,
    _CMP_PREFIX,
    _CMP_PREFIX_DATE,
    _NEG_EN_EXCEPTIONS,
    _NEG_ZH_EXCEPTIONS,
    _WEAK_CMP,
)
from groundgate.verify.fidelity.lexicon import _PRODUCTS, _REL_ZH
from groundgate.verify.fidelity.model import Comparator
from groundgate.verify.fidelity.units import _CNUM, _EN_ONES, _EN_SCALES, _NUM


def _literals(words: Iterable[str]) -> str:
    """A longest-first alternation of literal words (spaces match runs of blanks)."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in ordered)


_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ALPHA_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGIT_RX = re.compile(r"\d")
_ALPHA_RX = re.compile(r"[A-Za-z]")
_CN_DIGIT_RX = re.compile(r"[零〇一二两三四五六七八九十]")


# --------------------------------------------------------------------------- identifiers

_URL_RX = re.compile(r"https?://[^\s<>\"'，。；、）)\]}]+")  # lower-cased text
_UUID_RX = re.compile(
    r"[0-9a-f](?<![0-9a-z_][0-9a-f])[0-9a-f]{7}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z_])"
)
_IP_RX = re.compile(r"\d(?<![A-Za-z0-9_.]\d)\d{0,2}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![A-Za-z0-9_]|\.\d)")
_HEX_RX = re.compile(r"0x(?<![0-9a-z_]0x)[0-9a-f]{2,16}(?![0-9a-z_])")
_TRACE_RX = re.compile(r"[0-9a-f](?<![0-9a-z_][0-9a-f])[0-9a-f]{15,63}(?![0-9a-z_])")
_LONG_ID_RX = re.compile(r"\d(?<![A-Za-z0-9_]\d)\d{11,}(?![A-Za-z0-9_])")
_PATH_RX = re.compile(r"/[A-Za-z0-9_.{}:\-]+(?:/[A-Za-z0-9_.{}:\-]+)*/?(?:\?[A-Za-z0-9_=&%.\-]+)?")
_PATH_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/:~")
_METHOD_BEFORE_RX = re.compile(r"(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)[ \t]+$")
_FILE_RX = re.compile(
    r"[A-Za-z0-9_](?<![A-Za-z0-9_.\-/][A-Za-z0-9_])[A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+\.[A-Za-z][A-Za-z0-9]{0,5}"
    r"(?![A-Za-z0-9_])"
)
_HTTP_STATUS_RX = re.compile(  # lower-cased text
    r"http(?:/\d(?:\.\d)?)?[ \t]*(?:status[ \t]*)?(?:code[ \t]*)?[:=]?[ \t]*(?:为|是)?[ \t]*[1-5]\d\d(?![\d.])"
    r"|状态码[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*[1-5]\d\d(?![\d.])"
    r"|status[ \t]*code[ \t]*[:=]?[ \t]*[1-5]\d\d(?![\d.])"
)
_HTTP_PHRASE_RX = re.compile(
    r"[1-5](?<![\d.][1-5])\d\d[ \t]+(?:gateway timeout|bad gateway|not found|internal server error|"
    r"service unavailable|too many requests|unauthorized|forbidden|bad request|request timeout|conflict|"
    r"method not allowed)(?![a-z])"
)
_ERRCODE_KW_RX = re.compile(  # lower-cased text
    r"(?:错误码|错误代码|返回码|error[ \t_]?code|err[ \t_]?code|errno)[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*"
    r"(?P<code>[a-z0-9][a-z0-9_\-]+)(?![a-z0-9_])"
)
_SCREAMING_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])")
_DASHCODE_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z0-9]{1,9}-\d{1,6}(?![A-Za-z0-9_]|-[A-Za-z0-9])")
_LETTERCODE_RX = re.compile(r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z]{0,3}\d{3,6}(?![A-Za-z0-9_])")
_CAPS_DASH_RX = re.compile(
    r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Z]+(?:-[A-Z0-9]{2,})+(?![A-Za-z0-9_]|-[A-Za-z0-9])"
)
_DOTTED_RX = re.compile(
    r"[A-Za-z_](?<![A-Za-z0-9_.\-/@][A-Za-z_])[A-Za-z0-9_\-]*(?:\.[A-Za-z_][A-Za-z0-9_\-]*)+"
    r"(?![A-Za-z0-9_\-]|\.[A-Za-z0-9_])"
)
_SNAKE_RX = re.compile(r"[A-Za-z](?<![A-Za-z0-9_][A-Za-z])[A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![A-Za-z0-9_])")
_CAMEL_GATE_RX = re.compile(r"[a-z0-9][A-Z]")
_CAMEL_RX = re.compile(r"[a-z](?<![A-Za-z0-9_][a-z])[a-z0-9]+(?:[A-Z][a-z0-9]*)+(?![A-Za-z0-9_])")
_PASCAL_RX = re.compile(
    r"[A-Z](?<![A-Za-z0-9_][A-Z])[A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?![A-Za-z0-9_])"
)
_KEBAB_RX = re.compile(r"[a-z](?<![A-Za-z0-9_\-][a-z])[a-z0-9]*(?:-[a-z0-9]+)+(?![A-Za-z0-9_]|-[A-Za-z0-9])")


# --------------------------------------------------------------------------- dates and times

_MON = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Sept|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
)
_MON_GATE_RX = re.compile(r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec")
_MONTH_NAME_RX = re.compile(r"[A-Za-z]+")
_ISO_DATE_RX = re.compile(r"(?:19|20)\d\d(?P<sep>[-/.])(?P<m>\d\d?)(?P=sep)(?P<d>\d\d?)(?!\d)")
_US_DATE_RX = re.compile(r"\d(?<![\d./]\d)\d?/\d\d?/(?:19|20)\d\d(?!\d)")
_YEAR_MONTH_RX = re.compile(r"(?:19|20)\d\d[-/](?P<m>\d\d?)(?![\d\-/.])")
_ZH_MONTH_RX = re.compile(r"\d(?<![\d.]\d)\d?[ \t]*月(?:份)?(?:[ \t]*(?P<d>\d\d?)[ \t]*[日号])?")
_ZH_MONTH_CN_RX = re.compile(
    r"[一二三四五六七八九十][一二]?月(?:份)?(?:(?P<d>[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号])?"
)
_YEAR_BEFORE_RX = re.compile(r"(?P<y>(?:19|20)\d\d)[ \t]*年[ \t]*$")
_ZH_YEAR_RX = re.compile(r"(?:19|20)\d\d[ \t]*(?:年度|财年|年)")
_EN_DATE_RX = re.compile(
    rf"(?:{_MON})(?![a-z])\.?(?:[ \t]+(?P<d>\d\d?)(?:st|nd|rd|th)?(?![\d:]|\.\d))?"
    r"(?:,?[ \t]+(?P<y>(?:19|20)\d\d)(?!\d))?"
)
_EN_DAY_MONTH_RX = re.compile(
    rf"\d(?<![\d.]\d)\d?(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?P<mon>{_MON})(?![a-z])\.?"
    r"(?:,?[ \t]+(?P<y>(?:19|20)\d\d)(?!\d))?"
)
_EN_YEAR_RX = re.compile(  # lower-cased text
    r"(?:in|since|by|during|until|till|before|after|from|of|year|fy|early|mid|late)[ \t]*(?P<y>(?:19|20)\d\d)(?![\d\-/:]|\.\d)"
)
_QUARTER_BEFORE_RX = re.compile(
    r"(?:(?P<y>(?:19|20)\d\d)[ \t]*年?[ \t]*)?(?:第[ \t]*)?(?P<q>[一二三四1-4])[ \t]*$"
)
_HALF_BEFORE_RX = re.compile(r"(?:(?P<y>(?:19|20)\d\d)[ \t]*年?[ \t]*)?(?P<h>[上下])$")
_Q_RX = re.compile(r"[QqH][1-4]")
_YEAR_GLUED_BEFORE_RX = re.compile(r"(?P<y>(?:19|20)\d\d)[ \t]*(?:年|[-/])?[ \t]*$")
_YEAR_AFTER_RX = re.compile(r"[ \t]*(?:of[ \t]+|,[ \t]*)?(?P<y>(?:19|20)\d\d)(?!\d)")
_QUARTER_WORD_RX = re.compile(r"(?:first|second|third|fourth|1st|2nd|3rd|4th)[ \t]+quarter(?![a-z])")
_EN_NUM_WORD = "(?:" + _literals([*_EN_ONES, *_EN_SCALES]) + ")(?![a-z])"
_EN_NUM_WORDS = rf"{_EN_NUM_WORD}(?:[ \t\-]+(?:and[ \t]+)?{_EN_NUM_WORD})*"
_REL_ZH_RX = re.compile(_literals(_REL_ZH))
_REL_WEEK_ZH_RX = re.compile(r"[上下本这]个?(?:周|星期|礼拜)[一二三四五六日天1-7]?")
_LAST_N_ZH_RX = re.compile(
    rf"(?:最近|近|过去|前)[ \t]*(?P<n>\d+|{_CNUM})[ \t]*(?P<u>天|日|周|个?星期|个?月|年|个?小时|分钟)"
)
_REL_EN_RX = re.compile(  # lower-cased text
    r"(?:last|previous|prior|past|prev|this|current|next|coming|following)[ \t_\-]+(?:month|year|week|quarter|day)"
    r"(?![a-z0-9])|yesterday|today|tomorrow"
)
_LAST_N_EN_RX = re.compile(  # lower-cased text
    # "and last 26 months", "will last 3 days": the verb, a duration (not "the last 26 months")
    r"(?<!\band )(?<!\bto )(?<!\bwill )(?<!\bwould )(?<!\bshould )(?<!\bcan )(?<!\bmust )(?<!\bmay )"
    rf"(?:last|past|previous|recent)[ \t_\-]+(?P<n>\d+|{_EN_NUM_WORDS})[ \t_\-]+"
    r"(?P<u>days?|weeks?|months?|years?|hours?|minutes?)(?![a-z0-9])"
)
_WEEKDAY_ZH_RX = re.compile(r"(?:星期|礼拜|周)[一二三四五六日天]")
_WEEKDAY_EN_RX = re.compile(r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?(?![a-z])")
_WEEKDAY_ABBR_RX = re.compile(r"(?:Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun)\.?(?![A-Za-z])")
_CLOCK_RX = re.compile(  # lower-cased text
    r"\d\d?:[0-5]\d(?::(?P<se>[0-5]\d))?(?![\d:])(?:[ \t]*(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z]))?"
)
_AMPM_RX = re.compile(r"\d\d?[ \t]*(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z])")  # lower-cased text
_ZH_CLOCK_RX = re.compile(
    r"[\d一二两三四五六七八九十][\d一二两三四五六七八九十]?[ \t]*[点时]"
    # `九点零五分`: a zero before a one-digit minute
    r"(?:[ \t]*[零〇]?(?P<mi>\d\d?|[一二三四五六七八九十]{1,3})[ \t]*分(?:[ \t]*(?P<zs>\d\d?)[ \t]*秒)?"
    r"|(?P<half>半)|(?P<qt>一刻|三刻)|(?P<z>整|钟)"
    # `七点四十`, `7 点 40`: minutes said without 分 (tens spelled, or two digits)
    r"|[ \t]*(?P<mt>[二三四五]十[一二三四五六七八九]?|十[一二三四五六七八九]|[1-5]\d)(?![\d分秒钟天个次年月日号块元%万千百])"
    r")?"
)
_DAYPART_BEFORE_RX = re.compile(
    r"(?P<p>凌晨|早上|今早|明早|次日早|翌日早|早晨|清晨|上午|中午|下午|傍晚|晚上|夜里|夜间|深夜|每晚|今晚|明晚|当晚|晚间)[ \t]*$"
)


# --------------------------------------------------------------------------- versions

_PRODUCT_RX = re.compile(_literals(_PRODUCTS).replace(r"[ \t]+", r"[ \t]?"))  # lower-cased text
_PRODUCT_VERSION_RX = re.compile(
    "(?:"
    + _literals(_PRODUCTS).replace(r"[ \t]+", r"[ \t]?")
    + r")[ \t/]?[ \t]*(?:version[ \t]*|ver\.?[ \t]*)?v?(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
)
_VERSION_KW_RX = re.compile(  # lower-cased text
    r"(?:version|ver\.|release|rev\.|版本号|版本)[ \t]*[:=]?[ \t]*(?:为|是)?[ \t]*v?(?P<ver>\d+(?:\.\d+){0,3})(?![\d]|\.\d)"
)
_V_VERSION_RX = re.compile(r"v(?P<ver>\d+(?:\.\d+){0,3})(?![a-z0-9_]|\.\d)")  # lower-cased text
_SEMVER_RX = re.compile(r"\d(?<![A-Za-z0-9_.\-/]\d)\d*\.\d+\.\d+(?:\.\d+)?(?![A-Za-z0-9_]|\.\d)")


# --------------------------------------------------------------------------- comparators

#: Every prefix cue, lower-cased: (comparator, only before dates).
_CUES: dict[str, tuple[Comparator, bool]] = {
    **{c: (op, False) for c, op in _CMP_PREFIX.items()},
    **{c: (op, True) for c, op in _CMP_PREFIX_DATE.items() if c not in _CMP_PREFIX},
}
_CUE_RX = re.compile(_literals(_CUES))  # lower-cased text
_FILLER_RX = re.compile(
    r"[ \t]*(?:为|是|在|达到|达|到|(?:of|to|is|be|its|the|their|our|this|that|an|a)(?![a-z])|[:=])?[ \t]*"
)
_POSTFIX_RX = re.compile(  # lower-cased text
    r"[ \t]*(?:" + _literals([*_CMP_POSTFIX, *_CMP_POSTFIX_DATE, "内"]) + ")"
)
_SYMBOL_NEIGHBOURS = frozenset("-=<>")


# --------------------------------------------------------------------------- negation

_NEG_EN_RX = re.compile(  # lower-cased text
    # `rather than` / `instead of` deny the alternative after them, not the clause's verb: "picked up
    # every two weeks rather than every week" states no negated fact.
    r"no[ \t]+longer|nothing|nobody|nowhere|neither|never|none|not|nor|no"
    r"|without|cannot"
    # `fail to reconnect` / `unable to log in` negate the verb that follows as `not` does; without
    # them `may fail to reconnect` read against `might not reconnect` was a negation flip.
    r"|fail(?:s|ed)?[ \t]+to|unable[ \t]+to"
)
_NT_RX = re.compile(r"n['’]t(?![a-z])")  # lower-cased text: don't, isn't, can’t
_NEG_EXCEPTION_ZH_RX = re.compile(
    _literals(
        [
            *_NEG_ZH_EXCEPTIONS,
            *(c for c in _CMP_PREFIX if not c[0].isascii() and re.search("不|未|没", c)),
            *(c for c in _CMP_PREFIX_DATE if not c[0].isascii() and re.search("不|未|没", c)),
        ]
    ).replace("不少", "不少(?!于)")
)
_NEG_EXCEPTION_EN_RX = re.compile(  # lower-cased text
    _literals(
        [
            *_NEG_EN_EXCEPTIONS,
            *(
                c
                for c in [*_CMP_PREFIX, *_CMP_PREFIX_DATE]
                if c[0].isascii() and re.search(r"\bno\b|\bnot\b|n't|cannot", c)
            ),
        ]
    )
    + r"|no\.[ \t]*\d"
)
_PARTICLE_AFTER = frozenset(".,!;:，。！；：—-")
_SENTENCE_END_CHARS = frozenset(".!?。！？\n")


# --------------------------------------------------------------------------- quantities

_NUMBER_RX = re.compile(
    r"(?P<num>\d(?<![A-Za-z0-9_.]\d)(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?)"
    r"(?P<mult>[ \t]?(?:万亿|千亿|百亿|千万|百万|万(?!一)|亿|千(?![米克瓦字卡焦帕赫])|百(?!分))"
    r"|[ \t]?(?:[Tt]housand|[Mm]illion|[Bb]illion)(?![A-Za-z]))?"
    r"(?P<approx>多|余)?"
    r"(?:(?P<sp>[ \t])?(?P<unit>%|‰|°[Cc]|[µμ]s|m[23]/h(?![A-Za-z0-9])|m[23](?![A-Za-z0-9])"
    r"|[A-Za-z]+(?:/[A-Za-z]+)?(?:[ \t][A-Za-z]+)?"
    r"|[\u4e00-\u9fff]{1,4}(?:/[\u4e00-\u9fff])?))?"
)
_CUR_BEFORE_RX = re.compile(r"(?:US\$|HK\$|[¥$€£]|USD|RMB|CNY|EUR|GBP|JPY|HKD|人民币|美元)[ \t]?$")
_CN_NUMBER_RX = re.compile(
    r"[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*"
    r"(?:(?P<sep>[到至~\-])(?P<b>[零〇一二两三四五六七八九十][零〇一二两三四五六七八九十百千万亿]*))?"
    r"(?P<unit>[\u4e00-\u9fff]{1,4})?"
)
_CN_BEFORE_STOP = frozenset("零〇一二两三四五六七八九十百千万亿第几每")
_EN_NUMBER_RX = re.compile(rf"{_EN_NUM_WORDS}(?:[ \t]+(?P<next>[a-z]+(?:[ \t][a-z]+)?))?")  # lower-cased text
_RANGE_GAP_RX = re.compile(
    r"[ \t]*(?:\((?:含|包含|不含|inclusive|exclusive)\))?[ \t]*(?P<sep>-|~|〜|—|–|到|至|to)[ \t]*"
    r"(?:US\$|HK\$|[¥$€£]|USD|RMB|CNY|EUR|GBP|JPY|HKD)?[ \t]?"
)
_BETWEEN_GAP_RX = re.compile(r"[ \t]+and[ \t]+(?:US\$|HK\$|[¥$€£])?")
_BETWEEN_TAIL_RX = re.compile(r"[ \t]*之间")
_COMPOUND_GAP_RX = re.compile(r"[ \t,]*(?:and[ \t]+|零)?[ \t]*")
_GLUED_DURATION_RX = re.compile(
    r"\d(?<![A-Za-z0-9_.]\d)\d*(?:d\d+h|h\d+m|m\d+s)(?:\d+[hms])*(?![A-Za-z0-9_])"
)
_GLUED_PART_RX = re.compile(r"(\d+)([dhms])")


_CN_HALF_RX = re.compile(
    rf"(?:(?P<n>{_CNUM}|\d+)[ \t]*个)?半个?(?P<u>小时|钟头|天|年|月)"
    rf"|(?<![零〇一二两三四五六七八九十百千万亿第几每\d])(?P<n2>{_CNUM}|\d+)[ \t]*(?P<u2>个小时|小时|钟头|天|年|个月|周|分钟|分)半钟?"
)
# `百分之三点五` (3.5 %), `千分之一点五` (0.15 %), `万分之十五` (0.15 %): a spelled decimal after 点.
_CN_PERCENT_RX = re.compile(
    rf"(?P<k>百分之|千分之|万分之)(?P<num>{_NUM}|{_CNUM}(?:点[零〇一二两三四五六七八九]+)?)"
)
_ORDINAL_BEFORE_RX = re.compile(
    r"(?:第|(?<![A-Za-z])(?i:step|no\.?|item|part|phase|chapter|section|round)|#|步骤|序号|编号)[ \t]*$"
)
_LIST_MARKER_AFTER_RX = re.compile(r"[.)、](?!\d)")


_YI = frozenset("以")
_CURRENCY_LAST = frozenset("$¥€£DBYRPK币元")


_DUR_SECONDS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}
_DIGITS_DOT = frozenset("0123456789.")
_DATE_GLUE = frozenset("0123456789.-/")
_CN_MONTH_BEFORE = frozenset("零〇一二两三四五六七八九十个几每上下本这当")
_CN_WEEK_BEFORE = frozenset("0123456789零〇一二两三四五六七八九十几")
_CLOCK_BEFORE_NT = frozenset("ABCDEFGHIJKLMNOPQRSUVWXYZabcdefghijklmnopqrsuvwxyz0123456789_:.")
_V_BEFORE_NT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-")
_EN_WORD_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-")
_CUE_END_RX = re.compile("(?:" + _literals(_CUES) + r")[ \t]*$")  # lower-cased text
_STRONG_CUES = frozenset(c for c in _CMP_PREFIX if c not in _WEAK_CMP)

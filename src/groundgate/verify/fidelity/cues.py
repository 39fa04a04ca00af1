"""Comparator and negation cue tables.

The words that bound a value, before it (`不超过`, `at least`, `before`) or after it (`以上`,
`or more`, `之前`), the weak ones that count without a value, the Chinese cues that may govern a
number across a short verb, key-name hints (`max_retries:`), and the Chinese and English negation
cues with the words that only look negated (`不断`, `非常`, `not only`).
"""

from __future__ import annotations

import re

from groundgate.verify.fidelity.model import Comparator

# --------------------------------------------------------------------------- comparators

_CMP_PREFIX: dict[str, Comparator] = {
    **dict.fromkeys(
        [
            "不超过",
            "不高于",
            "不大于",
            "不多于",
            "未超过",
            "没有超过",
            "没超过",
            "不得超过",
            "不能超过",
            "不可超过",
            "不应超过",
            "不要超过",
            "不会超过",
            "最多",
            "至多",
            "最高",
            "最长",
            "最大",
            "上限为",
            "上限是",
            "上限",
            "封顶",
            "≤",
            "<=",
            "=<",
            "⩽",
        ],
        "<=",
    ),
    **dict.fromkeys(
        [
            "at most",
            "no more than",
            "not more than",
            "up to",
            "within",
            "no greater than",
            "not greater than",
            "not exceeding",
            "not to exceed",
            "does not exceed",
            "do not exceed",
            "did not exceed",
            "must not exceed",
            "cannot exceed",
            "can't exceed",
            "should not exceed",
            "doesn't exceed",
            "a maximum of",
            "maximum of",
            "maximum",
        ],
        "<=",
    ),
    **dict.fromkeys(
        [
            "不少于",
            "不低于",
            "不小于",
            "不得少于",
            "不得低于",
            "不能少于",
            "不能低于",
            "不应低于",
            "不应少于",
            "至少",
            "最少",
            "最低",
            "最短",
            "起码",
            "下限为",
            "下限",
            "≥",
            ">=",
            "⩾",
        ],
        ">=",
    ),
    **dict.fromkeys(
        [
            "at least",
            "no less than",
            "not less than",
            "no fewer than",
            "not fewer than",
            "a minimum of",
            "minimum of",
            "minimum",
        ],
        ">=",
    ),
    **dict.fromkeys(["超过", "高于", "大于", "多于", "超出", "逾", "不止", ">"], ">"),
    **dict.fromkeys(["more than", "greater than", "over", "above", "exceeds", "exceeding", "exceed"], ">"),
    **dict.fromkeys(
        ["低于", "少于", "小于", "不到", "不足", "不满", "未满", "未达到", "没有达到", "没达到", "<"], "<"
    ),
    **dict.fromkeys(["less than", "fewer than", "under", "below"], "<"),
}
_CMP_PREFIX_DATE: dict[str, Comparator] = {
    **dict.fromkeys(
        ["no later than", "not later than", "by", "until", "till", "不晚于", "截至", "截止到", "截止"], "<="
    ),
    **dict.fromkeys(["no earlier than", "not earlier than", "since", "from", "不早于", "自", "从"], ">="),
    **dict.fromkeys(["after", "later than", "晚于"], ">"),
    **dict.fromkeys(["before", "earlier than", "早于"], "<"),
}
_CMP_POSTFIX: dict[str, Comparator] = {
    **dict.fromkeys(["以内", "之内", "以下", "及以下", "或以下", "封顶", "为上限"], "<="),
    **dict.fromkeys(["or less", "or fewer", "or below", "or under"], "<="),
    **dict.fromkeys(["以上", "及以上", "或以上", "起", "或更多"], ">="),
    **dict.fromkeys(["or more", "or above", "or greater"], ">="),
}
_CMP_POSTFIX_DATE: dict[str, Comparator] = {
    **dict.fromkeys(["之前", "以前", "前"], "<"),
    **dict.fromkeys(["之后", "以后", "后"], ">"),
    **dict.fromkeys(["起", "开始", "以来"], ">="),
    **dict.fromkeys(["为止", "止"], "<="),
}
#: Comparators that count as a constraint even when no value follows (`不超过预算`).
_WEAK_CMP = frozenset(
    [
        "最高",
        "最长",
        "最大",
        "最少",
        "最低",
        "最短",
        "上限",
        "下限",
        "封顶",
        "逾",
        "起码",
        "<",
        ">",
        "over",
        "above",
        "under",
        "below",
        "within",
        "up",
        "to",
        "maximum",
        "minimum",
    ]
)


#: Strong Chinese cues may govern a number across a short verb: `至少重试 3 次`, `最多保留 7 天`.
_CJK_GAP_CUES = [
    "不超过",
    "不少于",
    "不低于",
    "不高于",
    "至少",
    "至多",
    "最多",
    "最少",
    "不得超过",
    "不能超过",
    "不得少于",
    "不得低于",
]
_KEY_HINT_RX = re.compile(r"(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)[\"']?[ \t]*[:=][ \t]*[\"']?$")
_KEY_HINT_WORDS: dict[str, Comparator] = {
    **dict.fromkeys(
        ["max", "maximum", "lte", "le", "upper", "most", "ceiling", "cap", "limit", "until"], "<="
    ),
    **dict.fromkeys(["min", "minimum", "gte", "ge", "lower", "least", "floor", "since"], ">="),
    **dict.fromkeys(["lt", "below", "under", "before"], "<"),
    **dict.fromkeys(["gt", "above", "over", "after", "exceeds"], ">"),
}
_CAMEL_SPLIT_RX = re.compile(r"[._\-]|(?<=[a-z0-9])(?=[A-Z])")


# --------------------------------------------------------------------------- negation

_NEG_ZH = [
    "从未",
    "从不",
    "并非",
    "并不",
    "并没有",
    "并未",
    "不得",
    "不能",
    "不可",
    "不会",
    "不要",
    "不用",
    "不必",
    "不需要",
    "不需",
    "无需",
    "无须",
    "无法",
    "没有",
    "没",
    "未",
    "无",
    "非",
    "别",
    "勿",
    "禁止",
    "严禁",
    "不",
]
_NEG_ZH_EXCEPTIONS = [
    "不断",
    "不仅",
    "不但",
    "不过",
    "不久",
    "不同",
    "不错",
    "不管",
    "不论",
    "不得不",
    "不免",
    "不禁",
    "不时",
    "不妨",
    "不如",
    "不外乎",
    "不光",
    "不然",
    "要不",
    "不料",
    "不觉",
    "差不多",
    "不定期",
    "不一样",
    "不少",
    "无论",
    "无线",
    # Fixed terms: a `无理由退货` is a kind of return, a `无门槛红包` a kind of voucher; neither denies
    # a reason or a threshold the other side could state.
    "无理由",
    "无门槛",
    "毫无疑问",
    "无疑",
    "无缝",
    "无非",
    "无比",
    "无数",
    "无穷",
    "无人机",
    "有无",
    "非常",
    "非洲",
    "是非",
    "除非",
    "莫非",
    "非凡",
    "未来",
    "别的",
    "别人",
    "分别",
    "区别",
    "级别",
    "类别",
    "特别",
    "识别",
    "个别",
    "告别",
    "别名",
    "差别",
    "鉴别",
    "辨别",
    "性别",
    "派别",
    "判别",
    "甄别",
    "有别",
    "别称",
    "别处",
    "淹没",
    "埋没",
    "出没",
    "没收",
    "沉没",
    # A-not-A questions ask whether, they deny nothing: "排查有没有内存泄漏" = "排查是否存在内存泄漏"
    "有没有",
    "是不是",
    "能不能",
    "会不会",
    "要不要",
    "可不可以",
    "对不对",
    "用不用",
    "需不需要",
    "该不该",
]
_NEG_EN_EXCEPTIONS = [
    "not only",
    "not just",
    "no doubt",
    "no matter",
    "whether or not",
    "nothing but",
    "none other",
    "no sooner",
    "no later than",
    "not later than",
    "no earlier than",
    "not earlier than",
    # a vote or an answer: "the two members who voted no" voted against, they did not not-vote
    "voted no",
    "vote no",
    "votes no",
    "voting no",
    "said no",
    "say no",
    "says no",
    "answered no",
]
_NEG_ZH_RX = re.compile("|".join(sorted(_NEG_ZH, key=len, reverse=True)))
_CLAUSE_END_RX = re.compile(r"[，；;：。！？!?\n]|,(?!\d{3})|:(?!\d)")

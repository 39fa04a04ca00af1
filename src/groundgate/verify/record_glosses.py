"""How descriptions say the common attributes of a listing record, in English and Chinese.

A business listing (the Yelp-like shape tool results and directories share) states its attributes
as keys and codes: `"RestaurantsPriceRange2": 2`, `"GoodForKids": true`, `"Alcohol":
"beer_and_wine"`, `"NoiseLevel": "loud"`. A faithful description never writes those words: it says
"moderately priced", "welcomes children", "beer and wine only", "expect a loud room", `价格适中`,
`适合带孩子`. Read out with only its key and value, such a field leaves the description's words
unsupported, and every right description of a listing is flagged.

`gloss(key, value, boolean)` gives the phrases a description uses for one field, said the way the
field holds it: a `false` field's phrases are negative (`no outdoor seating`, `不能订位`), so that the
negation checks compare a claim's polarity with the field's, and a price level, a noise level, an
alcohol licence or a dress code gives only the phrases of its own value (`2` is "moderately
priced", never "upscale"). Keys are compared without case, spaces or punctuation. Unknown keys and
values have no gloss. `said_otherwise(key, value, clause)` finds, for a field with a value of its
own kind, a phrase of another value in the clause ("upscale" for `RestaurantsPriceRange2: 2`, "full
bar" for `beer_and_wine`) (docs/design.md §2.1, "Session 34"). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["gloss", "said_otherwise"]

#: Yes/no attributes: the phrases for `true`, then for `false`.
_YES_NO: Final[dict[str, tuple[str, str]]] = {
    "restaurantsreservations": (
        "takes reservations, takes bookings, book a table, reservations accepted, 可以订位, 可预订, 接受预订, 可订座",
        "no reservations, no bookings, does not take bookings, 不接受预订, 不能订位, 不可订座",
    ),
    "outdoorseating": (
        "outdoor seating, outdoor tables, terrace, patio, al fresco, 户外座位, 室外座位, 露天座位",
        "no outdoor seating, no outdoor tables, no terrace, 没有户外座位, 没有室外座位",
    ),
    "goodforkids": (
        "kid-friendly, family-friendly, good for kids, welcomes children, fine for children, suitable for "
        "children, children welcome, 适合带孩子, 适合儿童, 亲子友好",
        "not for children, not aimed at children, not kid-friendly, 不适合带孩子, 不适合儿童",
    ),
    "restaurantstakeout": (
        "takeaway, takeout, take-out, to go, collect, pick up, 外带, 打包, 自取",
        "no takeaway, no takeout, 不能外带, 不提供打包",
    ),
    "restaurantsdelivery": (
        "delivery, delivers, 外送, 外卖, 配送, 送餐",
        "no delivery, does not deliver, 不送外卖, 不提供外送, 不配送",
    ),
    "caters": ("catering, caters, 承办餐饮, 提供餐饮外包", "no catering, 不承办餐饮"),
    "hastv": ("TVs, TV, television, screens, 电视", "no TVs, no TV, 没有电视"),
    "businessacceptscreditcards": (
        "cards, credit cards, card payments, 刷卡, 信用卡",
        "cash only, no cards, 不能刷卡, 只收现金",
    ),
    "bikeparking": (
        "bike parking, bicycle parking, 自行车停放, 自行车停车",
        "no bike parking, 没有自行车停放",
    ),
    "wheelchairaccessible": (
        "wheelchair accessible, step-free, accessible, 无障碍, 轮椅可进入",
        "not wheelchair accessible, 没有无障碍设施",
    ),
    "dogsallowed": (
        "dogs allowed, dog-friendly, pets allowed, pet-friendly, 可带宠物, 可以带狗, 宠物友好",
        "no dogs, no pets, 不能带宠物, 不允许带宠物",
    ),
    "happyhour": ("happy hour, 欢乐时光", "no happy hour, 没有欢乐时光"),
    "restaurantsgoodforgroups": (
        "groups, large parties, good for groups, 多人聚餐, 聚会, 团体",
        "not for groups, 不适合多人聚餐",
    ),
    "restaurantstableservice": ("table service, waiter service, 服务员点餐", "no table service, 自助点餐"),
    "byappointmentonly": ("by appointment only, appointment needed, 需预约, 预约制", "walk-ins, 无需预约"),
    "drivethru": ("drive-through, drive-thru, 得来速, 免下车", "no drive-through, 没有免下车"),
    "veganoptions": ("vegan options, vegan dishes, 素食选择, 纯素", "no vegan options, 没有素食选择"),
    "wifi": ("wi-fi, wifi, 无线网络", "no wi-fi, no wifi, 没有无线网络"),
    "parking": ("parking, car park, 停车, 停车位", "no parking, 没有停车位, 不能停车"),
    "businessparking": ("parking, car park, 停车, 停车位", "no parking, 没有停车位, 不能停车"),
    "open24hours": ("open 24 hours, round the clock, 24小时营业, 全天营业", "not open 24 hours"),
}

#: Attributes with a value of their own kind: the phrases of each value.
_VALUES: Final[dict[str, dict[str, str]]] = {
    "restaurantspricerange2": {
        "1": "cheap, inexpensive, budget, affordable, low prices, 便宜, 实惠, 价格亲民",
        "2": "moderately priced, moderate prices, mid-range, mid-priced, reasonably priced, 价格适中, 中等价位, 价位适中",
        "3": "pricey, expensive, upmarket, upscale, 价格偏高, 偏贵, 价位较高",
        "4": "very expensive, high-end, luxury, 高档, 昂贵, 价格很高",
    },
    "noiselevel": {
        "quiet": "quiet, calm, 安静",
        "average": "moderate noise, average noise, 噪音一般, 音量适中",
        "loud": "loud, noisy, lively, 吵, 嘈杂, 热闹",
        "veryloud": "very loud, very noisy, 很吵, 非常嘈杂",
    },
    "alcohol": {
        "beerandwine": "beer and wine, beer-and-wine, beer and wine only, 啤酒和葡萄酒, 只供应啤酒和葡萄酒",
        "fullbar": "full bar, cocktails, spirits, 酒水齐全, 各类酒水, 鸡尾酒",
        "none": "no alcohol, alcohol-free, does not serve alcohol, 不供应酒, 不提供酒水",
    },
    "wifi": {
        "free": "free wi-fi, free wifi, 免费无线网络, 免费wifi, 免费WiFi",
        "paid": "paid wi-fi, wi-fi for a fee, 收费无线网络, 收费wifi",
        "no": "no wi-fi, no wifi, 没有无线网络",
    },
    "restaurantsattire": {
        "casual": "casual dress, casual, 着装随意, 休闲着装",
        "dressy": "dressy, smart dress, dress up, 着装讲究, 着装要求偏讲究",
        "formal": "formal, formal dress, 正装, 着装正式",
    },
}

#: Aliases: other spellings of the same attribute (the key compared without case or separators).
_ALIASES: Final[dict[str, str]] = {
    "pricerange": "restaurantspricerange2",
    "pricelevel": "restaurantspricerange2",
    "reservations": "restaurantsreservations",
    "takesreservations": "restaurantsreservations",
    "kidfriendly": "goodforkids",
    "takeout": "restaurantstakeout",
    "takeaway": "restaurantstakeout",
    "delivery": "restaurantsdelivery",
    "acceptscreditcards": "businessacceptscreditcards",
    "creditcards": "businessacceptscreditcards",
    "petsallowed": "dogsallowed",
    "goodforgroups": "restaurantsgoodforgroups",
    "attire": "restaurantsattire",
    "dresscode": "restaurantsattire",
    "noise": "noiselevel",
}

_NOT_LETTERS = re.compile(r"[^a-z0-9]+")


def _norm(text: str) -> str:
    return _NOT_LETTERS.sub("", text.lower())


def gloss(key: str, value: str, boolean: bool | None) -> str:
    """The phrases a description uses for this field as it holds (empty when none is known)."""
    name = _norm(key)
    name = _ALIASES.get(name, name)
    values = _VALUES.get(name)
    if values is not None:
        said = values.get(_norm(value))
        if said is not None:
            return said
    pair = _YES_NO.get(name)
    if pair is None or boolean is None:
        return ""
    return pair[0] if boolean else pair[1]


def _phrases(said: str) -> list[str]:
    return [p.strip() for p in said.split(",") if p.strip()]


def _spans(phrase: str, text: str) -> list[tuple[int, int]]:
    if re.search(r"[A-Za-z]", phrase):
        rx = re.compile(rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])", re.IGNORECASE)
    else:
        rx = re.compile(re.escape(phrase))
    return [(m.start(), m.end()) for m in rx.finditer(text)]


def said_otherwise(key: str, value: str, clause: str) -> str | None:
    """A phrase of another value of the field's kind that `clause` uses, not inside a phrase of the
    field's own value ("very loud" for `loud` is another value; "loud" inside "very loud" for
    `very_loud` is not): None when there is none or the field's value has no phrases."""
    name = _norm(key)
    values = _VALUES.get(_ALIASES.get(name, name))
    if values is None:
        return None
    own = values.get(_norm(value))
    if own is None:
        return None
    own_spans = [span for phrase in _phrases(own) for span in _spans(phrase, clause)]
    for other, said in values.items():
        if other == _norm(value):
            continue
        for phrase in _phrases(said):
            for a, b in _spans(phrase, clause):
                if not any(x <= a and b <= y and (y - x) > (b - a) for x, y in own_spans):
                    return phrase
    return None

"""Which class of city a Chinese city belongs to, as reimbursement rules rank them.

Travel policies price lodging by city class — "一线城市（北京、上海、广州、深圳）每晚不超过 600 元；省会城市及
计划单列市每晚不超过 450 元；其他城市每晚不超过 400 元" — and a question names the city ("下周去杭州出差…").
Whether 杭州 falls under `省会城市` is general knowledge no passage states, so it lives here: the
first-tier cities, the provincial capitals, the cities with separate planning status (计划单列市), and a
list of other well-known cities that belong to none of them (so `其他城市` is their row). A city of the
first tier is that tier only (广州 is a capital too, but a policy that lists the first tier means it
there). A city not listed has no class: nothing is assumed of it. Pure: constant tables.
"""

from __future__ import annotations

from typing import Final

__all__ = ["city_classes", "names_a_city"]

FIRST_TIER: Final = frozenset({"北京", "上海", "广州", "深圳"})
PROVINCIAL_CAPITALS: Final = frozenset(
    [
        "石家庄",
        "太原",
        "呼和浩特",
        "沈阳",
        "长春",
        "哈尔滨",
        "南京",
        "杭州",
        "合肥",
        "福州",
        "南昌",
        "济南",
        "郑州",
        "武汉",
        "长沙",
        "广州",
        "南宁",
        "海口",
        "成都",
        "贵阳",
        "昆明",
        "拉萨",
        "西安",
        "兰州",
        "西宁",
        "银川",
        "乌鲁木齐",
    ]
)
PLANNED: Final = frozenset({"大连", "青岛", "宁波", "厦门", "深圳"})
MUNICIPALITIES: Final = frozenset({"北京", "上海", "天津", "重庆"})
#: Well-known cities of none of the classes above: a rule's `其他城市` row is theirs.
OTHER_CITIES: Final = frozenset(
    [
        "苏州",
        "无锡",
        "常州",
        "南通",
        "徐州",
        "扬州",
        "镇江",
        "昆山",
        "温州",
        "绍兴",
        "嘉兴",
        "湖州",
        "金华",
        "台州",
        "佛山",
        "东莞",
        "珠海",
        "中山",
        "惠州",
        "汕头",
        "江门",
        "湛江",
        "泉州",
        "漳州",
        "烟台",
        "潍坊",
        "威海",
        "临沂",
        "洛阳",
        "宜昌",
        "襄阳",
        "岳阳",
        "株洲",
        "桂林",
        "柳州",
        "三亚",
        "芜湖",
        "赣州",
        "唐山",
        "保定",
        "廊坊",
        "秦皇岛",
        "包头",
        "大同",
        "绵阳",
        "遵义",
        "大理",
        "丽江",
        "宝鸡",
    ]
)


def city_classes(city: str) -> tuple[str, ...]:
    """The class words a rule may use for `city` (`杭州` → 省会城市, 省会); empty for a word that is
    not a listed city."""
    if city in FIRST_TIER:
        return ("一线城市", "一线")
    found: list[str] = []
    if city in PROVINCIAL_CAPITALS:
        found += ["省会城市", "省会"]
    if city in PLANNED:
        found += ["计划单列市"]
    if city in MUNICIPALITIES:
        found += ["直辖市"]
    if city in OTHER_CITIES:
        found += ["其他城市", "其余城市", "其他地区"]
    return tuple(found)


_ALL_CITIES: Final = tuple(
    sorted(FIRST_TIER | PROVINCIAL_CAPITALS | PLANNED | MUNICIPALITIES | OTHER_CITIES, key=len, reverse=True)
)


def names_a_city(text: str) -> bool:
    """Whether `text` names a city this table knows (`西宁`, `苏州`)."""
    return any(city in text for city in _ALL_CITIES)

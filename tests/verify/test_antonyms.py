"""One word turned into its opposite is not shown (docs/design.md §2.1, "Opposites")."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.antonyms import opposite_pairs
from groundgate.verify.grounding_check import check

_STATS = (
    "国家统计局12月15日发布数据，11月份全国规模以上工业增加值同比增长6.6%，比10月份加快2.0个百分点；"
    "环比增长0.87%。"
)
_MATCH = "在昨晚结束的比赛中，上海海港队客场以3比1战胜北京国安队，武磊两度破门。"
_EARNINGS = "Quarterly revenue rose 4% to $12.1 billion. Operating costs fell 2% on lower freight rates."


@pytest.mark.parametrize(
    ("evidence", "answer", "passes"),
    [
        (_STATS, "11月规模以上工业增加值同比增长6.6%，增速较10月加快2个百分点。", True),
        (_STATS, "11月规模以上工业增加值同比增长6.6%，增速较10月放缓2个百分点。", False),
        (_MATCH, "上海海港客场3:1击败北京国安，武磊梅开二度。", True),
        (_MATCH, "上海海港主场3:1击败北京国安，武磊梅开二度。", False),
        (_EARNINGS, "Quarterly revenue grew 4% to $12.1 billion and operating costs dropped 2%.", True),
        (_EARNINGS, "Quarterly revenue fell 4% to $12.1 billion.", False),
    ],
)
def test_a_word_turned_into_its_opposite_is_not_passed(evidence: str, answer: str, passes: bool) -> None:
    result = check(context=evidence, answer=answer)
    assert (result.verdict is Verdict.PASS) is passes, [c.reason_codes for c in result.claims]
    if not passes:
        assert any(code.startswith("opposite:") for c in result.claims for code in c.reason_codes)


@pytest.mark.parametrize(
    ("claim", "window", "pairs"),
    [
        (["增速", "放缓"], {"增速", "加快"}, [("放缓", "加快")]),
        # The window says both, or the claim says both: no single word was turned around.
        (["增速", "放缓"], {"加快", "放缓"}, []),
        (["price", "fall", "cost", "rise"], {"price", "fall", "cost", "rise"}, []),
        (["cost", "rise", "price", "fall"], {"cost", "rise"}, []),
    ],
)
def test_an_opposite_counts_only_when_the_window_lacks_the_claims_word(
    claim: list[str], window: set[str], pairs: list[tuple[str, str]]
) -> None:
    assert opposite_pairs(claim, window) == pairs

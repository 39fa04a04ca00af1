"""An item added to a list the context holds is no evidence; the listed items the context holds, in
other words or with an appositive between them, are not flagged."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check

_SURVEY = (
    "Marsh Hollow count, 14 December 2024: notable records were a short-eared owl (first since 2019) "
    "and two trumpeter swans. Canada geese were again the most numerous species."
)
_RETURNS = "退货条件：签收 7 天内，书柜未安装、包装完好、非定制尺寸。"


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        (_SURVEY, "Among the notable sightings were a lone short-eared owl, the first since 2019, a pair of trumpeter swans and a bald eagle.", Verdict.LOW_CONFID),
        (_SURVEY, "Among the notable sightings were a lone short-eared owl, the first since 2019, and a pair of trumpeter swans.", Verdict.PASS),
        (_RETURNS, "签收 7 天内可以退，只要书柜没安装、没用过、包装完好，不是定制尺寸。", Verdict.LOW_CONFID),
        (_RETURNS, "签收 7 天内可以退，只要书柜没安装、包装完好，不是定制尺寸。", Verdict.PASS),
    ],
)  # fmt: skip
def test_an_item_added_to_a_list_is_not_evidenced(context: str, answer: str, verdict: Verdict) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is verdict, [(c.category, c.reason_codes) for c in result.claims]
    flagged = any(code.startswith("item_not_in_evidence:") for c in result.claims for code in c.reason_codes)
    assert flagged is (verdict is Verdict.LOW_CONFID)

"""An organisation swapped for another the context names for another role is no evidence; the right
organisation, and a claim that names both as the context does, are not flagged."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check
from groundgate.verify.org_swaps import organisation_swaps

_DIG = (
    "Excavations at Hollin Ridge, led by Dr. Sara Lindqvist of Northmoor University, concluded in September. "
    "Soil samples were sent to the University of Kessel for pollen analysis, with results expected next spring."
)
_ZH_DIG = "发掘由省文物考古研究院与南川大学历史学院联合实施。部分木炭样本已送往北京大学进行碳十四测年，结果预计明年公布。"


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        (_DIG, "Soil samples have gone to Northmoor University for pollen work, with results expected next spring.", Verdict.LOW_CONFID),
        (_DIG, "Soil samples have gone to the University of Kessel for pollen work, with results expected next spring.", Verdict.PASS),
        (_ZH_DIG, "部分木炭样本已经送到南川大学做碳十四测年，结果要到明年才公布。", Verdict.LOW_CONFID),
        (_ZH_DIG, "部分木炭样本已经送到北京大学做碳十四测年，结果要到明年才公布。", Verdict.PASS),
    ],
)  # fmt: skip
def test_an_event_given_to_another_organisation_of_the_context_is_not_evidenced(
    context: str, answer: str, verdict: Verdict
) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is verdict, [(c.category, c.reason_codes) for c in result.claims]


def test_an_organisation_the_context_never_names_is_left_to_the_novel_name_checks() -> None:
    assert organisation_swaps("Samples went to Harwick University.", _DIG, _DIG) == []

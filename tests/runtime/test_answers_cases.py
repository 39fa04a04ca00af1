"""The executor states the asked case of a sentence that lists several, and nothing else of it.

Unit tests of `groundgate.runtime.answers.choose_units` over hand-made passages: no workspace, no
tools. A sentence such as `借记卡一般 1 到 3 个工作日到账，信用卡一般 3 到 7 个工作日…` answers a question
about credit cards only through its credit-card case; a question that asks no particular case is
answered by the whole sentence.
"""

from __future__ import annotations

import pytest

from groundgate.contracts import EvidenceType
from groundgate.questions import derive_needs
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.runtime.answers import choose_units
from groundgate.verify.evidence_items import EvidenceItem

REFUND = "退款到账时间取决于付款方式和银行：借记卡一般 1 到 3 个工作日到账，信用卡一般 3 到 7 个工作日退回信用额度，节假日顺延。"
ONCALL = "告警响应时限：P1 告警要求 5 分钟内确认，P2 告警要求 15 分钟内确认，P3 告警在下一个工作日处理。"
QUOTA = "根据合同附录，acme 的 POST /api/v1/pay 配额为 600 QPS，突发上限 1000，高于平台默认的 200 QPS。"


def _passage(text: str, source: str) -> EvidenceItem:
    return EvidenceItem(
        invocation_id="inv-1",
        citation_id="doc:1",
        tool="lookup_knowledge",
        source=source,
        text=text,
        quote_text=text,
        evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
        round=1,
    )


@pytest.mark.parametrize(
    ("question", "passage", "source", "said", "not_said"),
    [
        # the asked case alone, in either language of the question
        ("How long does a refund to a credit card take?", REFUND, "refund-faq.md > 退款多久到账", "3 到 7", "1 到 3"),
        ("退款到信用卡要多久？", REFUND, "refund-faq.md > 退款多久到账", "3 到 7", "1 到 3"),
        ("P2 告警要求多长时间内确认？", ONCALL, "oncall-policy.md > 值班制度 > 响应时限", "P2 告警要求 15 分钟", "P1"),
        ("acme 的支付接口合同配额是多少 QPS？", QUOTA, "acme-merchant-guide.md > 专属限流配额", "600 QPS", "200 QPS"),
    ],
)  # fmt: skip
def test_the_executor_states_the_asked_case_of_a_sentence_listing_several(
    question: str, passage: str, source: str, said: str, not_said: str
) -> None:
    chosen = choose_units(
        derive_needs(question),
        [_passage(passage, source)],
        relevance=lambda unit: 0.0,
        keep=lambda unit: True,
        max_claims=3,
        equivalents=bundled_equivalents(),
    )
    text = " ".join(unit.text for unit in chosen)
    assert said in text
    assert not_said not in text


def test_a_question_asking_no_particular_case_is_answered_by_the_whole_sentence() -> None:
    chosen = choose_units(
        derive_needs("告警要求多长时间内确认？"),
        [_passage(ONCALL, "oncall-policy.md > 值班制度 > 响应时限")],
        relevance=lambda unit: 0.0,
        keep=lambda unit: True,
        max_claims=3,
        equivalents=bundled_equivalents(),
    )
    assert [unit.text for unit in chosen] == [ONCALL]

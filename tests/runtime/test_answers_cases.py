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
from groundgate.runtime.answers import _listed_cases, choose_units
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


LAG = (
    "Normal values are below 100 messages for notify-payment-events and below 200 for order-settlement, "
    "with short peaks after deployments."
)
LAG_SOURCE = "platform/runbook-kafka-consumer-lag.md > Kafka Consumer Lag Runbook > Normal levels and alert"


@pytest.mark.parametrize(
    ("question", "said", "not_said"),
    [
        ("What counts as a normal lag for the order-settlement consumer group?",
         "Normal values are below 200 for order-settlement", "below 100"),
        ("What counts as a normal lag for the notify-payment-events consumer group?",
         "Normal values are below 100 messages for notify-payment-events", "below 200"),
    ],
)  # fmt: skip
def test_an_english_sentence_listing_values_for_several_things_is_cut_to_the_asked_things_value(
    question: str, said: str, not_said: str
) -> None:
    chosen = choose_units(
        derive_needs(question),
        [_passage(LAG, LAG_SOURCE)],
        relevance=lambda unit: 0.0,
        keep=lambda unit: True,
        max_claims=3,
        equivalents=bundled_equivalents(),
    )
    text = " ".join(unit.text for unit in chosen)
    assert said in text
    assert not_said not in text
    # the lead-in and the asked thing's piece are both quoted verbatim
    assert all(excerpt in LAG for unit in chosen for _, excerpt in unit.quotes)


@pytest.mark.parametrize(
    ("sentence", "cases"),
    [
        (LAG, ["below 100 messages for notify-payment-events", "below 200 for order-settlement"]),
        ("The limit is 5,000 for A, 2,000 for B and 300 for C.", ["5,000 for A", "2,000 for B", "300 for C."]),
        # the last value is for B and C both: cutting it would drop C
        ("The limit is 5,000 for A and 2,000 for B and C.", None),
        # one value only: nothing to cut
        ("Normal values are below 100 messages for notify-payment-events.", None),
        # Chinese sentences are cut at their commas (`_cases`), never this way
        ("借记卡 3 天 for A and 5 天 for B", None),
    ],
)  # fmt: skip
def test_an_english_listing_is_cut_only_where_each_piece_gives_one_value_for_one_thing(
    sentence: str, cases: list[str] | None
) -> None:
    listed = _listed_cases(sentence, 0, len(sentence))
    assert (None if listed is None else [sentence[a:b] for a, b in listed[1]]) == cases


def test_a_question_asking_no_particular_thing_of_a_listing_is_answered_by_the_whole_sentence() -> None:
    chosen = choose_units(
        derive_needs("What are the normal consumer lag values?"),
        [_passage(LAG, LAG_SOURCE)],
        relevance=lambda unit: 0.0,
        keep=lambda unit: True,
        max_claims=3,
        equivalents=bundled_equivalents(),
    )
    text = " ".join(unit.text for unit in chosen)
    assert "below 100" in text
    assert "below 200" in text

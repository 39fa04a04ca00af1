"""Session 34 (tune29): a part nothing chosen meets gets its closest on-topic statement beside the rest
(`groundgate.runtime.closest_statements`, docs/design.md §8).

Unit tests of `groundgate.runtime.answers.choose_units` over hand-made passages: no workspace, no tools.
"""

from __future__ import annotations

import pytest

from groundgate.contracts import EvidenceType
from groundgate.questions import derive_needs
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.runtime.answers import choose_units
from groundgate.verify.evidence_items import EvidenceItem

QUOTA = "根据合同附录，acme 的 POST /api/v1/pay 配额为 600 QPS，突发上限 1000，高于平台默认的 200 QPS。"
KEY = "合同中约定了更高配额的租户，以租户附录为准，网关配置项为 gateway.ratelimit.tenant.{tenant}.pay_qps。"
HOLIDAY = "公司年会安排在每年一月的第二个周五。"


def _passage(text: str, source: str, n: int) -> EvidenceItem:
    return EvidenceItem(
        invocation_id=f"inv-{n}",
        citation_id=f"doc:{n}",
        tool="lookup_knowledge",
        source=source,
        text=text,
        quote_text=text,
        evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
        round=1,
    )


def _said(question: str, passages: list[tuple[str, str]]) -> str:
    chosen = choose_units(
        derive_needs(question),
        [_passage(text, source, n) for n, (text, source) in enumerate(passages)],
        relevance=lambda unit: 0.0,
        keep=lambda unit: True,
        max_claims=4,
        equivalents=bundled_equivalents(),
    )
    return " ".join(unit.text for unit in chosen)


@pytest.mark.parametrize(
    ("question", "passages", "said", "not_said"),
    [
        # the quota part is unmet (its English words are never checked against the Chinese sentence),
        # the config-key part is met: the quota sentence is still stated beside it
        ("Before launch: what are acme's contracted quotas for POST /api/v1/pay (sustained and burst), "
         "and which gateway config key holds our pay quota?",
         [(QUOTA, "acme-merchant-guide.md > 专属限流配额"), (KEY, "rate-limit-policy.md > 默认配额"),
          (HOLIDAY, "hr-handbook.md > 年会")],
         ["600 QPS", "gateway.ratelimit.tenant"], ["年会"]),
    ],
)  # fmt: skip
def test_a_part_nothing_chosen_meets_gets_its_closest_on_topic_statement(
    question: str, passages: list[tuple[str, str]], said: list[str], not_said: list[str]
) -> None:
    text = _said(question, passages)
    assert all(s in text for s in said), text
    assert not any(s in text for s in not_said), text


def test_a_statement_about_something_else_is_not_stated_for_an_unmet_part() -> None:
    text = _said(
        "Which gateway config key holds our pay quota, and when is the company party?",
        [(KEY, "rate-limit-policy.md > 默认配额"), (QUOTA, "acme-merchant-guide.md > 专属限流配额")],
    )
    assert "gateway.ratelimit.tenant" in text
    assert "600 QPS" not in text


def test_a_part_the_answer_already_speaks_of_more_closely_gets_nothing_more() -> None:
    text = _said(
        "我老婆下个月生孩子，男员工陪产假有几天？必须在什么时间之内休完？",
        [
            (
                "女员工生育享受产假 158 天，其中产前可以休 15 天。男员工在配偶生育期间享受陪产假 10 天，须在婴儿出生后 3 个月内休完。",
                "hr-leave-policy.md > 产假与陪产假",
            )
        ],
    )
    assert "陪产假 10 天" in text
    assert "158" not in text

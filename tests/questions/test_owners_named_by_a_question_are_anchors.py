"""A tenant a question makes the owner of records is an anchor the answer must say, unless it is the
asker's own; words that own records without naming anyone are no tenant."""

from __future__ import annotations

import pytest

from groundgate.questions import derive_needs
from groundgate.questions.owners import named_owners


@pytest.mark.parametrize(
    ("question", "owners"),
    [
        ("Which of initech's orders were rejected with ERR_POOL_EXHAUSTED during the incident?", ["initech"]),
        ("initech 的订单里有几笔失败了？", ["initech"]),
        ("What is the default per-tenant rate limit on the refunds endpoint?", []),
        ("A payer's refund to their credit card still hasn't shown up", []),
        ("acme's failed payments since 14:00", ["acme"]),
        ("how many of today's orders failed?", []),
        ("the customer's payments were declined, why?", []),
        ("CMB's payments timed out", []),
        ("what did order-service's requests return?", []),
        ("What's the status of the orders?", []),
    ],
)
def test_a_name_owning_records_is_read_as_an_owner(question: str, owners: list[str]) -> None:
    assert named_owners(question) == owners


@pytest.mark.parametrize(
    ("question", "own", "others", "anchored"),
    [
        ("Which of initech's orders were rejected with ERR_POOL_EXHAUSTED?", "acme", ["globex"], "initech"),
        ("Which of globex's orders were rejected with ERR_POOL_EXHAUSTED?", "acme", ["globex"], "globex"),
        ("Which of acme's orders were rejected with ERR_POOL_EXHAUSTED?", "acme", ["globex"], None),
        # the asker's tenant unknown: an unknown name is left a term, as before
        ("Which of initech's orders were rejected with ERR_POOL_EXHAUSTED?", None, [], None),
    ],
)
def test_another_owner_is_an_anchor_and_the_askers_own_is_not(
    question: str, own: str | None, others: list[str], anchored: str | None
) -> None:
    needs = derive_needs(question, other_tenants=others, own_tenant=own).needs
    anchors = {a.lower() for n in needs for a in n.anchors}
    for name in ("initech", "globex", "acme"):
        assert (name in anchors) is (name == anchored)

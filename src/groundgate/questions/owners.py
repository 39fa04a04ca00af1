"""Whose records a question asks about: a tenant it names is an anchor the answer must say (docs/design.md
§8, Session 33).

Every read is the asker's tenant's, so a question about another tenant's orders has no answer here, and
the asker's own records given in its place are exactly the wrong answer. A name of a known other tenant
("globex's own success rate") has always been an anchor. A name no store knows is one too when the
question makes it an owner of tenant-scoped records: a possessive before orders, payments, refunds or
transactions ("Which of initech's orders were rejected", "initech 的订单"). The word tenant before a
word is no such sign ("per-tenant rate limit", "what does a tenant get"). The asker's own tenant so named ("acme's orders") is no anchor: its
records are what every read returns. Words that own records without naming anyone ("today's orders",
"the customer's payments") are not names, and neither are upper-case codes or channels ("CMB's
payments") nor parts of a hyphenated service name ("order-service's requests").

Pure code over text: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from groundgate.contracts import Need

__all__ = ["anchor_owners", "named_owners"]

#: Records a tenant owns.
_OWNED: Final = r"(?:orders?|payments?|refunds?|transactions?|account)"
#: "initech's (failed) orders": a possessive name, at most two words before the records.
_EN_POSSESSIVE: Final = re.compile(
    r"(?<![\w\-.])([A-Za-z][a-z][a-z0-9]{1,30})['’]s\s+(?:[a-z][\w-]*\s+){0,2}" + _OWNED + r"\b"
)
#: "initech 的订单", "initech 家的退款".
_ZH_POSSESSIVE: Final = re.compile(
    r"(?<![\w\-.])([A-Za-z][a-z][a-z0-9]{1,30})\s*(?:家)?的\s*\S{0,4}?(?:订单|支付|退款|交易)"
)
#: Possessives that own records without naming anyone.
_NOT_NAME_WORDS: Final = (
    "today yesterday tomorrow tonight week month year hour minute day morning afternoon evening night "
    "weekend quarter customer customers user users merchant client tenant payer payee buyer seller "
    "shopper member partner vendor supplier employee person cardholder account owner bank channel "
    "gateway platform service team company everyone anyone someone somebody nobody other another "
    "each this that last next first incident system our their your his her its one what that it "
    "there here who let how where when why"
)
_NOT_NAMES: Final = frozenset(_NOT_NAME_WORDS.split())


def named_owners(question: str) -> list[str]:
    """The names `question` makes owners of tenant-scoped records (module docs), lower-cased, in order."""
    found: list[str] = []
    for pattern in (_EN_POSSESSIVE, _ZH_POSSESSIVE):
        for match in pattern.finditer(question):
            name = match.group(1).lower()
            if name not in _NOT_NAMES and name not in found:
                found.append(name)
    return found


def anchor_owners(
    needs: list[Need], question: str, other_tenants: Collection[str], own_tenant: str | None
) -> None:
    """Make each tenant a need names an anchor of it (module docs): a known other tenant among its
    terms, and, when the asker's tenant is known, a name the question makes an owner of records."""
    others = {t.lower() for t in other_tenants}
    owners = set(others)
    if own_tenant:
        owners |= set(named_owners(question)) - {own_tenant.lower()}
    if not owners:
        return
    for need in needs:
        named = [t for t in need.terms if t.lower() in owners]
        lowered = need.text.lower()
        unknown = [
            o
            for o in owners - others
            if re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", lowered)
            and o not in (t.lower() for t in named)
        ]
        if named or unknown:
            need.anchors = [*need.anchors, *named, *(o for o in sorted(unknown) if o not in need.anchors)]
            need.terms = [t for t in need.terms if t not in named]

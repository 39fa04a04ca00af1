"""A share of failing things asked for is an error rate: "what % of pay requests were failing with
ERR_POOL_EXHAUSTED?" asks the `ERR_POOL_EXHAUSTED` error rate (docs/design.md §8).

Why: the series that answers (`payment_gateway_error_rate{error_code=ERR_POOL_EXHAUSTED}`) says
neither "requests" nor "failing"; held to those words, the point at the asked minute could never meet
the need, and only a sentence repeating the question's words (a rule on what counts as a bad request)
came close. The counted things stay as search help.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import AnswerKind, Need

__all__ = ["as_error_rate"]

#: "what % of pay requests were failing", "what share of refunds failed", "what percentage of calls
#: errored out", "失败的比例", "失败占比".
_FAILURE_SHARE: Final = re.compile(
    r"\bwhat\s+(?:%|(?:percent(?:age)?|share|fraction|proportion)\s+of\b)[^?]{0,60}?"
    r"\b(?:fail(?:ing|ed|s)?|error(?:ing|ed|s)?|rejected|timing\s+out|timed\s+out)\b"
    r"|失败(?:的)?(?:比例|占比|百分比)",
    re.IGNORECASE,
)
_RATE_TERMS: Final = {False: ["error", "rate"], True: ["错误率"]}
#: The words of the question that only say "failing": the rate says them.
_FAILING: Final = re.compile(r"^(?:fail\w*|error\w*|rejected|失败)$", re.IGNORECASE)


def as_error_rate(need: Need, zh: bool) -> None:
    """Make a quantity need asking a share of failing things ask the error rate: its terms become the
    rate's words, the things counted are kept as soft terms (search help, none required)."""
    if need.kind is not AnswerKind.QUANTITY or not _FAILURE_SHARE.search(need.text):
        return
    counted = [t for t in need.terms if not _FAILING.match(t)]
    need.soft_terms = list(dict.fromkeys([*need.soft_terms, *counted]))
    need.terms = list(_RATE_TERMS[zh])
    need.required_terms = [t for t in need.required_terms if t in need.terms]

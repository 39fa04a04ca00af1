"""An error code a later part of the question points back at (docs/design.md §8, Session 31 round 4).

"商户那边收到 ERR_POOL_EXHAUSTED 该怎么处理？今天我们有哪几笔订单是因为*这个错误*失败的？": the
second part is about the code the first one names, though it has nouns of its own (`订单`), so it
takes that code as its name: it is searched and read among the code's lines, and a statement about
other failures does not answer it. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import Need

__all__ = ["refer_back_codes"]

#: "这个错误", "该错误码", "这种报错", "this error", "that code".
_POINTS_AT_CODE: Final = re.compile(
    r"(?:这个|这种|该|此|这类|那个)(?:错误码?|报错|错误代码|返回码|失败码)"
    r"|\b(?:this|that|the\s+same)\s+(?:error(?:\s+code)?|code|failure(?:\s+code)?)\b",
    re.IGNORECASE,
)
#: An error or decline code (`ERR_POOL_EXHAUSTED`, `PAY-5003`), not a record id or a service.
_CODE: Final = re.compile(r"^(?:ERR_[A-Z_]+|[A-Z]{2,6}-\d{3,4})$")


def refer_back_codes(needs: list[Need]) -> None:
    """Give a part that points back at "this error" the codes of the nearest earlier part naming
    one (module docs)."""
    codes: list[str] = []
    for need in needs:
        own = [a for a in need.anchors if _CODE.match(a)]
        if not own and codes and _POINTS_AT_CODE.search(need.text):
            need.anchors = [*need.anchors, *codes]
            need.search_text = f"{' '.join(codes)} {need.search_text}"[:500]
            own = codes
        codes = own or codes

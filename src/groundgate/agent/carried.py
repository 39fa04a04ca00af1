"""Session turns that lean on an earlier one without naming what they lean on (blind 24).

Two readings, each of a short turn in a session:

- a correction with no "是" ("不对 4月的" after "3月到期的待办"): `BARE_CORRECTION` reads what follows a
  correction word that opens the message as the right part, replaced in the earlier question as
  "不对，我是说…" is (the rest of that question is kept);
- a carried count ("住4晚 一共多少" after "…二线城市…住宿 一晚多少"): a turn that gives only a count of
  nights or days and asks the total names no rate of its own, so it is asked of the earlier question's
  rate — the earlier question is put before it (`count_carried`), and the total is worked in code
  from the cited figure as for a question that gives both (`agent.totals`).

Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["BARE_CORRECTION", "count_carried"]

#: A correction word opening the message, then the right part with no "是" ("不对 4月的").
BARE_CORRECTION: Final = re.compile(
    r"^\s*(?:哦|噢|啊|呃)?\s*(?:说错了|搞错了|打错了|问错了|弄错了|不对|口误)[，,。\s]+([^，,。？?！!；;是]+)"
)
#: A count of nights or days and a total asked, nothing else ("住4晚 一共多少", "出差3天 总共多少").
_COUNT_TOTAL: Final = re.compile(
    r"^\s*(?:那)?(?:住|出差|待|呆|请)?\s*(?:\d{1,2}|[一二两三四五六七八九十]{1,2})\s*(?:晚|夜|天)\s*[，,]?\s*"
    r"(?:的话)?\s*(?:一共|总共|合计|总计|加起来)(?:能报|能拿|最多)?(?:多少|是多少)(?:钱)?\s*[呢？?。]*\s*$"
)
#: An earlier question that asked a rate per night or day.
_RATE_ASKED: Final = re.compile(r"一晚|每晚|一天|每天|标准|上限|封顶|多少")
#: An earlier question that already gave a count: the new one is no carried count but another case
#: ("一晚", "一天" alone are the rate's unit, no count).
_COUNT: Final = re.compile(r"(?:\d{1,2}|[二两三四五六七八九十][一二三四五六七八九十]?)\s*(?:晚|夜|天)")


def count_carried(question: str, previous: str) -> str | None:
    """`previous` with the count-and-total `question` put after it, or None when it is no such turn."""
    if not previous or not _COUNT_TOTAL.match(question):
        return None
    if not _RATE_ASKED.search(previous) or _COUNT.search(previous):
        return None
    return f"{previous.rstrip('？?。 ')}，{question.strip()}"

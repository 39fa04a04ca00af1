"""A stretch of days the question spans, from one relative day to the end of a period.

"从今天到这个月底，我还有哪些待办要到期？" (blind 26) asks the open tasks due from today to the month's
end; read cue by cue it had been 今天 alone (no task falls due on 2026-04-15: an empty list, answered).
A span names its first day (今天, 明天, 后天; 现在 is today) and its last (月底/月末 of this month,
周末 of this week or a later one), with 到/至 between them; the task window is that stretch whole.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Final

_START_DAYS: Final = {"今天": 0, "今日": 0, "现在": 0, "明天": 1, "明儿": 1, "后天": 2}
_SPAN = re.compile(
    r"(?:从)?(今天|今日|现在|明天|明儿|后天)(?:起|开始)?[，,]?\s*(?:一直)?(?:到|至)\s*"
    r"(?:(这个?|本)?(?:月底|月末)|(这|本|下+)?(?:个)?(?:周末|礼拜天|星期天|周日))"
)


def spanned_days(question: str, today: date) -> tuple[date, date] | None:
    """The first and the last day of the span the question names, or None when it names none."""
    m = _SPAN.search(question)
    if m is None:
        return None
    first = today + timedelta(days=_START_DAYS[m.group(1)])
    if m.group(0).endswith(("月底", "月末")):
        following = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        last = following - timedelta(days=1)
    else:
        weeks = len(m.group(3)) if m.group(3) and m.group(3).startswith("下") else 0
        last = today + timedelta(days=6 - today.weekday() + 7 * weeks)
    return (first, last) if first <= last else None

"""A figure put up for confirmation: the document's own figure confirms or corrects it (blind 25).

Written formally, a figure the asker remembers is put up with a request to confirm it and a closing 吧:
"麻烦确认一下，差旅住宿一线城市是 800 吧？", "请确认：4 月份出差的伙食补贴还是按每天 100 元发放吧？". The
amount cue reads `对吧`, `没错吧`, `是不是` (`agent.vocabulary`), never a bare 吧, so these found no need and
were asked back for a policy (`NEEDS_INPUT`). A clause holding a figure and closed by a bare 吧 is read
as closed by `对吧`: the amount rule is asked, its figure is put up for checking (no condition), and the
document's figure answers — 600 元 for the first, both daily allowances in force in April (a `CONFLICT`)
for the second. The request to confirm (`麻烦确认一下，`) names nothing and is read out. A 吧 after no
figure ("那就这样吧", "我先提交吧") is left alone. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["read_confirming"]

#: "麻烦确认一下，", "请帮我确认：", "烦请核实一下：": a request to confirm, before what is put up.
_REQUEST: Final = re.compile(
    r"(?:麻烦|烦请|请|劳驾)?(?:您|你)?(?:帮(?:我|忙))?(?:确认|核实|核对)(?:一下|下)?\s*[，,：:]\s*"
)
#: A clause holding a figure, closed by a bare 吧 (not `对吧`, `是吧`, `没错吧`, `好吧`).
#: The figure is what is confirmed: at most its unit and a verb of paying between it and 吧 ("800 吧", "每天
#: 100 元发放吧"), not a judgement ("按600报应该没问题吧" asks whether it is fine, not the figure).
_FIGURE_THEN_BA: Final = re.compile(
    r"((?:\d|[两二三四五六七八九十百千])\s*(?:元|块|天|晚|%|个工作日)?\s*(?:发放|发|报销|报|计算|算|封顶)?\s*)吧"
    r"(?=\s*[？?]\s*$)"
)


def read_confirming(text: str) -> str:
    """`text` with a figure put up for confirmation asked as `…对吧` (see the module docstring)."""
    if not _FIGURE_THEN_BA.search(text):
        return text
    return _FIGURE_THEN_BA.sub(r"\1对吧", _REQUEST.sub("", text))

"""Yes/no questions put negatively, read as the plain question they ask (blind 19).

"出差回来都一个多月了，是不是就不能报销了？" asks whether a claim is still in time, as "…还能报销吗？"
does; the cue tables read the plain form (a time limit asked), so the negative one is rewritten to it.
Only "no longer" (`不能…了`) is read so: `不能报吗` (may it be claimed at all) is left as it is.
"""

from __future__ import annotations

import re
from typing import Final

#: "是不是就不能报销了", "是不是不能再交了", "就不能休了吧": no longer allowed, i.e. whether it still is.
_NO_LONGER: Final = re.compile(
    r"(?:是不是|是否)?\s*(?:就|已经)?\s*不能\s*再?\s*(交|报|提|休|请)(销|交)?\s*了\s*(?:吧|吗|呢|么)?"
)


def read_no_longer(text: str) -> str:
    """`text` with "是不是就不能报销了" read as "还能报销吗" (see the module docstring)."""
    return _NO_LONGER.sub(lambda m: f"还能{m.group(1)}{m.group(2) or ''}吗", text)

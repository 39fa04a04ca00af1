"""Clauses that only greet, address or thank, dropped before the rules read a question.

A question sits in a longer message ("HR 小姐姐你好呀～下周想请三天假…需要提前准备哪些证明材料呢？麻烦啦，
提前谢过！", blind 15): the thanks named 提前 (read as a notice-period question), the greeting named
`小姐姐` and `HR` (read as subject words no passage names), so the materials asked for were never found.
What a clause of manners says is no part of what is asked, so a clause made of nothing but greetings,
forms of address and thanks is left out. A clause that says anything besides (`李老师的待办`) stays whole,
and a message of manners only is kept as it is.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["without_manners"]

#: Greetings, thanks, apologies and the forms of address of a chat message, with their particles.
_MANNERS: Final = re.compile(
    r"(?i)(?:hi|hello|hey|dear|hr|hrbp)\b"
    r"|您好|你好|早上好|上午好|中午好|下午好|晚上好|早安|哈喽|嗨|在吗"
    r"|打扰(?:您|你)?(?:一下)?|不好意思|想?请教(?:您|你)?(?:一下)?"
    r"|(?:提前|先)?(?:谢谢|多谢|感谢|谢过|谢啦|谢了)(?:您|你)?|麻烦(?:您|你)?(?:了|啦)?|辛苦(?:您|你)?(?:了|啦)?"
    # A form of address: `李姐`, `小姐姐`, `王老师`, `HR 小哥哥`.
    r"|[\u4e00-\u9fff]?(?:小姐姐|小哥哥|姐姐|哥哥|老师|同学|姐|哥)"
    r"|[哈呀啊啦哦嘛呐吖～~\s]"
)
#: A clause and the mark that ends it.
_CLAUSE: Final = re.compile(r"[^，,。！!～~；;：:？?]*[，,。！!～~；;：:？?]*")


def _only_manners(clause: str) -> bool:
    body = re.sub(r"[，,。！!～~；;：:？?]", "", clause)
    return bool(body.strip()) and not _MANNERS.sub("", body)


def without_manners(text: str) -> str:
    """`text` less its clauses of manners only (module docs); `text` itself when nothing else is left."""
    kept = "".join(c for c in _CLAUSE.findall(text) if not _only_manners(c))
    return kept.strip() or text

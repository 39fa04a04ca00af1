"""What a question asks someone to hand over: "我应该让他们*提供*什么信息", "需要*准备*哪些材料",
"要*提交*什么" (docs/design.md §8).

Why: such a question asks for the items one gives, and its category noun (`信息`, `材料`) is so
general that almost any statement sharing the subject's other words looked like an answer: "PAY-4xxx
表示请求本身或付款人账户的问题" met "商户想让我们帮忙查一笔有问题的支付请求，我应该让他们提供什么信息"
as a definition, a wrong PASS. The giving verb is what tells the asked thing from the rest of the
subject, so a Chinese statement must say it (a required term); an English one is not held to a Chinese
word.
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.contracts import Need

__all__ = ["given_verbs"]

#: A verb of handing something over, right before the question word ("提供什么", "准备哪些",
#: "附上哪几项").
_HAND_OVER: Final = re.compile(
    r"(提供|提交|准备|携带|带上|附上|上传|填写|出示|报上)(?:一下)?(?:哪些|什么|哪几[项个种样类份条]|啥)"
)


def given_verbs(need: Need) -> list[str]:
    """The giving verbs of a Chinese need that asks what to hand over, when they are words of its
    subject; otherwise nothing."""
    return [m.group(1) for m in _HAND_OVER.finditer(need.text) if m.group(1) in need.terms]

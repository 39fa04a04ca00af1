"""Asks about something no policy and no task of the caller can answer (blind 24).

The agent answers only from the policy documents and the caller's own tasks. "你是谁", "你背后用的啥
模型" ask about the assistant itself, and "帮我写封请假邮件" asks it to write a text for the asker: no
document states either, and asking back which policy is meant would not help. Such asks are planned
as unsupported (`NO_EVIDENCE`), never asked back and never answered with a policy passage, even when
they name a policy word (`请假`). Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["asks_off_topic"]

#: The assistant itself: who or what it is, the model behind it.
_ABOUT_ASSISTANT: Final = re.compile(
    r"^\W*(?:请问)?你(?:到底)?(?:是谁|是什么|是啥|叫什么|叫啥)\W*$"
    r"|你(?:背后|底层|后台)?(?:用的|用了|是|基于)(?:啥|什么|哪个|哪家)(?:大)?模型"
    r"|(?:who are you|what model)",
    re.IGNORECASE,
)
#: A text to be written for the asker (a mail, a letter, a summary): composing, not looking up.
_COMPOSE: Final = re.compile(
    r"(?:帮|替|给)我(?:写|起草|拟|润色|翻译)(?:一)?(?:封|份|篇|段|个)?"
    r"[^，,。？?]{0,8}(?:邮件|信|文案|申请书|说明|总结|周报|稿)"
)


def asks_off_topic(question: str) -> bool:
    """True when `question` asks about the assistant or asks it to compose a text."""
    return bool(_ABOUT_ASSISTANT.search(question) or _COMPOSE.search(question))

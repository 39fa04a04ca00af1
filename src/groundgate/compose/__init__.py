"""The composer and its fixed templates (zh-CN and en)."""

from groundgate.compose.composer import (
    Citation,
    ComposableClaim,
    ComposedAnswer,
    compose_degraded,
    compose_disclaimer,
    compose_normal,
    language_of,
)
from groundgate.compose.templates import EN, ZH_CN, Language, Templates, templates

__all__ = [
    "EN",
    "ZH_CN",
    "Citation",
    "ComposableClaim",
    "ComposedAnswer",
    "Language",
    "Templates",
    "compose_degraded",
    "compose_disclaimer",
    "compose_normal",
    "language_of",
    "templates",
]

"""The composer and its fixed templates (zh-CN and en): every user-facing sentence of a run — the
disclaimer, the degraded answer, evidence gaps, the feedback reply — lives in `templates`; the
composer renders `NORMAL`, the disclaimer and `DEGRADED` from them (docs/design.md §3). Pure code."""

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
    # fixed templates
    "EN",
    "ZH_CN",
    "Language",
    "Templates",
    "templates",
    # the composer
    "Citation",
    "ComposableClaim",
    "ComposedAnswer",
    "compose_degraded",
    "compose_disclaimer",
    "compose_normal",
    "language_of",
]

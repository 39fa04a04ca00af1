"""Text utilities shared by every room: pure functions over strings, no I/O beyond the bundled
lexicon read from the package.

- `segmentation`: normalisation (full-width, case, punctuation) with offset maps, tolerant
  matching, sentences, tokens (jieba for Chinese, a light stemmer for English);
- `lexicon`: the bundled zh↔en lexicon (`data/lexicon_zh_en.tsv`, built by
  `benchmarks/build_lexicon.py`);
- `instructions`: text addressed to the assistant ("ignore previous instructions…"), never evidence;
- `safety`: control characters refused at the edges (API, CLI, store);
- `places`: which class of city (一线, 省会, 计划单列市, other) a Chinese city is, as lodging rules rank them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:  # the lazy names, for type checkers and editors
    from groundgate.text.instructions import (
        InstructionKind,
        InstructionSpan,
        find_instructions,
        is_instruction_like,
        mask_instructions,
        overlaps,
    )
    from groundgate.text.lexicon import (
        Concept,
        Lexicon,
        TermMatch,
        default_lexicon,
    )
    from groundgate.text.places import city_classes
    from groundgate.text.safety import (
        control_character_problem,
        describe,
        first_control_character,
    )
    from groundgate.text.segmentation import (
        Span,
        find_all_tolerant,
        find_tolerant,
        is_cjk_text,
        normalize,
        normalize_with_map,
        split_sentences,
        stem,
        tokenize,
    )

# Public name → the module that defines it (loaded on first use, PEP 562).
_HOMES: dict[str, str] = {
    "InstructionKind": "groundgate.text.instructions",
    "InstructionSpan": "groundgate.text.instructions",
    "find_instructions": "groundgate.text.instructions",
    "is_instruction_like": "groundgate.text.instructions",
    "mask_instructions": "groundgate.text.instructions",
    "overlaps": "groundgate.text.instructions",
    "Concept": "groundgate.text.lexicon",
    "Lexicon": "groundgate.text.lexicon",
    "TermMatch": "groundgate.text.lexicon",
    "default_lexicon": "groundgate.text.lexicon",
    "city_classes": "groundgate.text.places",
    "control_character_problem": "groundgate.text.safety",
    "describe": "groundgate.text.safety",
    "first_control_character": "groundgate.text.safety",
    "Span": "groundgate.text.segmentation",
    "find_all_tolerant": "groundgate.text.segmentation",
    "find_tolerant": "groundgate.text.segmentation",
    "is_cjk_text": "groundgate.text.segmentation",
    "normalize": "groundgate.text.segmentation",
    "normalize_with_map": "groundgate.text.segmentation",
    "split_sentences": "groundgate.text.segmentation",
    "stem": "groundgate.text.segmentation",
    "tokenize": "groundgate.text.segmentation",
}

__all__ = [
    # segmentation and matching
    "Span",
    "normalize",
    "normalize_with_map",
    "find_tolerant",
    "find_all_tolerant",
    "split_sentences",
    "tokenize",
    "stem",
    "is_cjk_text",
    # the zh-en lexicon
    "Lexicon",
    "Concept",
    "TermMatch",
    "default_lexicon",
    # instruction-like text
    "InstructionKind",
    "InstructionSpan",
    "find_instructions",
    "is_instruction_like",
    "mask_instructions",
    "overlaps",
    # city classes
    "city_classes",
    # control characters
    "control_character_problem",
    "first_control_character",
    "describe",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

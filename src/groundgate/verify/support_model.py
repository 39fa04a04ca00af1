"""A small learned support model: the probability that an evidence text supports a claim.

`support_probability(claim, evidence)` scores bilingual lexical-alignment features with a logistic
regression trained in this repository (`benchmarks/train_support_model.py`, from the `tune` splits
of the public HaluQA/HaluSum sets and of `tests/data/check_dev.jsonl`). The weights ship in
`data/support_model.json` (a few KB) and are read lazily on first use, so importing this module does
no I/O and nothing is ever downloaded. Inference is pure Python: a few set lookups per claim token.

The features are meant to survive paraphrase, not to memorise rows: how much of the claim (words,
Chinese characters, bigrams) the evidence holds, in the evidence as a whole and in its best
sentence; whether the claim's numbers (digits, Chinese and English number words) and names or codes
appear; whether negation differs between the claim and its best sentence; and, across scripts, how
many of the claim's lexicon terms (`groundgate.text.lexicon`) have a translation in the evidence.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Final

#: The shipped weights, inside the package.
MODEL_RESOURCE: Final = "data/support_model.json"

FEATURE_NAMES: Final[tuple[str, ...]] = (
    "unit_precision",
    "bigram_precision",
    "best_sentence_precision",
    "rare_coverage",
    "has_numbers",
    "number_coverage",
    "numbers_missing",
    "entity_coverage",
    "entities_missing",
    "negation_mismatch",
    "cross_script",
    "lexicon_coverage",
    "missing_units",
    "cross_x_number_coverage",
    "cross_x_lexicon_coverage",
    "cross_x_unit_precision",
)

_CJK: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*|\d+(?:[.,:]\d+)*%?")
_CODE: Final = re.compile(r"\b(?:[A-Za-z]+[-_]?\d[\w-]*|\d+[A-Za-z][\w-]*|[A-Z]{2,}[\w-]*)\b")
_NUMBER: Final = re.compile(r"\d+(?:[.,]\d+)*")
_ZH_NUMBER: Final = re.compile("[零一二两三四五六七八九十百千万半]+")
_SENTENCE: Final = re.compile(r"(?<=[.!?。！？；;\n])\s*")

_EN_STOP: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "their",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "you",
        "your",
        "we",
        "our",
        "i",
        "me",
        "my",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "shall",
        "not",
        "no",
        "so",
        "than",
        "then",
        "also",
        "about",
        "into",
        "over",
        "under",
        "after",
        "before",
        "up",
        "out",
        "all",
        "any",
        "each",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "why",
        "how",
        "just",
        "only",
        "very",
        "more",
        "most",
        "such",
        "per",
        "via",
    ]
)
_ZH_STOP: Final = frozenset(
    "的了是在和与及或也就都而且但把被让给对于从向到为着过吗呢吧啊呀这那个些其之以可会能要"
)
_NEGATION_EN: Final = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "cannot",
        "can't",
        "don't",
        "doesn't",
        "isn't",
        "aren't",
        "won't",
        "without",
    ]
)
_NEGATION_ZH: Final = ("不", "没", "无", "未", "非", "禁止", "勿", "别")
_EN_NUMBERS: Final = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
} | {
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "hundred": 100,
    "twice": 2,
    "double": 2,
    "half": 0.5,
}
_ZH_DIGITS: Final = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_UNITS: Final = {"十": 10, "百": 100, "千": 1000, "万": 10000}


def _zh_number(text: str) -> float | None:
    """三 → 3, 十五 → 15, 三十 → 30, 两百 → 200, 半 → 0.5; None for what is not a number."""
    if text == "半":
        return 0.5
    total, current = 0, 0
    for char in text:
        if char in _ZH_DIGITS:
            current = _ZH_DIGITS[char]
        elif char in _ZH_UNITS:
            total += (current or 1) * _ZH_UNITS[char]
            current = 0
        else:
            return None
    return float(total + current)


def _numbers(text: str) -> set[float]:
    found: set[float] = set()
    for match in _NUMBER.finditer(text):
        raw = match.group().replace(",", "")
        try:
            found.add(float(raw))
        except ValueError:
            continue
    for match in _ZH_NUMBER.finditer(text):
        value = _zh_number(match.group())
        # A lone 一 is mostly a word part (一次, 一般), not a quantity worth checking.
        if value is not None and match.group() != "一":
            found.add(value)
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _EN_NUMBERS:
            found.add(float(_EN_NUMBERS[word]))
    return found


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True, slots=True)
class _Units:
    """A text as comparable units: stemmed English content words and Chinese characters."""

    units: tuple[str, ...]
    bigrams: frozenset[str]
    rare: frozenset[str]
    entities: frozenset[str]
    numbers: frozenset[float]
    negations: int
    cjk_share: float


def _analyse(text: str) -> _Units:
    words = _WORD.findall(text)
    en = [_stem(w) for w in words if w.lower() not in _EN_STOP]
    units: list[str] = list(en)
    bigrams = {f"{a} {b}" for a, b in itertools.pairwise(en)}
    for run in _CJK_RUN.findall(text):
        chars = [c for c in run if c not in _ZH_STOP]
        units.extend(chars)
        bigrams.update(run[i : i + 2] for i in range(len(run) - 1))
    rare = {u for u in en if len(u) >= 7 or any(c.isdigit() for c in u)}
    rare.update(run for run in _CJK_RUN.findall(text) if len(run) >= 4)
    entities = {m.group().lower() for m in _CODE.finditer(text)}
    entities.update(
        w.lower() for i, w in enumerate(words) if i > 0 and w[:1].isupper() and w.lower() not in _EN_STOP
    )
    lowered = text.lower()
    negations = sum(1 for w in re.findall(r"[a-z']+", lowered) if w in _NEGATION_EN)
    negations += sum(text.count(cue) for cue in _NEGATION_ZH)
    letters = sum(1 for c in text if c.isalpha())
    cjk = len(_CJK.findall(text))
    return _Units(
        units=tuple(units),
        bigrams=frozenset(bigrams),
        rare=frozenset(rare),
        entities=frozenset(entities),
        numbers=frozenset(_numbers(text)),
        negations=negations,
        cjk_share=cjk / letters if letters else 0.0,
    )


@dataclass(frozen=True, slots=True)
class _Evidence:
    whole: _Units
    unit_set: frozenset[str]
    sentences: tuple[tuple[frozenset[str], int], ...]
    """Each sentence's unit set and negation count."""
    folded: str


@lru_cache(maxsize=64)
def _evidence(text: str) -> _Evidence:
    """Evidence analysis, cached: a checker scores many claims against the same passages."""
    whole = _analyse(text)
    sentences = []
    for sentence in _SENTENCE.split(text):
        if sentence.strip():
            part = _analyse(sentence)
            sentences.append((frozenset(part.units), part.negations))
    return _Evidence(whole, frozenset(whole.units), tuple(sentences), text.lower())


def _share(items: Collection[str], present: AbstractSet[str], empty: float = 1.0) -> float:
    if not items:
        return empty
    return sum(1 for item in items if item in present) / len(items)


def _lexicon_coverage(claim: str, evidence_folded: str) -> tuple[float, int]:
    """Share of the claim's lexicon terms whose term or a translation is in the evidence."""
    from groundgate.text.lexicon import default_lexicon  # lazily: verify stays import-pure

    found = default_lexicon().matches(claim)
    if not found:
        return 0.5, 0
    hits = sum(1 for match in found if any(term.lower() in evidence_folded for term in match.concept.terms))
    return hits / len(found), len(found)


def features(claim: str, evidence: str) -> list[float]:
    """The feature vector of (claim, evidence), in `FEATURE_NAMES` order."""
    c = _analyse(claim)
    e = _evidence(evidence)
    units = c.units
    unit_precision = _share(units, e.unit_set, 0.0)
    bigram_precision = _share(c.bigrams, e.whole.bigrams, unit_precision)
    claim_set = set(units)
    best = 0.0
    best_negations = 0
    for sentence_units, negations in e.sentences:
        score = _share(claim_set, sentence_units, 0.0)
        if score > best:
            best, best_negations = score, negations
    numbers = c.numbers
    number_hits = sum(1 for n in numbers if n in e.whole.numbers)
    entity_hits = sum(1 for x in c.entities if x in e.folded)
    cross = 1.0 if abs(c.cjk_share - e.whole.cjk_share) > 0.5 else 0.0
    lexicon_coverage, _ = _lexicon_coverage(claim, e.folded)
    number_coverage = number_hits / len(numbers) if numbers else 1.0
    missing = sum(1 for u in claim_set if u not in e.unit_set)
    return [
        unit_precision,
        bigram_precision,
        best,
        _share(c.rare, e.unit_set | e.whole.rare, 1.0) if c.rare else 1.0,
        1.0 if numbers else 0.0,
        number_coverage,
        min(len(numbers) - number_hits, 3) / 3,
        entity_hits / len(c.entities) if c.entities else 1.0,
        min(len(c.entities) - entity_hits, 3) / 3,
        1.0 if (c.negations % 2) != (best_negations % 2) else 0.0,
        cross,
        lexicon_coverage,
        math.log1p(missing),
        cross * number_coverage,
        cross * lexicon_coverage,
        cross * unit_precision,
    ]


@dataclass(frozen=True, slots=True)
class SupportModel:
    """Standardised logistic regression over `features`."""

    version: str
    weights: tuple[float, ...]
    bias: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    threshold: float
    """The probability below which a claim counts as unsupported (chosen on the tune split)."""

    def probability(self, claim: str, evidence: str) -> float:
        z = self.bias
        for x, w, m, s in zip(features(claim, evidence), self.weights, self.means, self.scales, strict=True):
            z += w * (x - m) / s
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))


_LOAD_MS: list[float] = []


@lru_cache(maxsize=1)
def load_model() -> SupportModel:
    """The shipped model, read once per process from the package data."""
    started = time.perf_counter()
    raw = json.loads(resources.files("groundgate.verify").joinpath(MODEL_RESOURCE).read_text("utf-8"))
    if tuple(raw["features"]) != FEATURE_NAMES:
        raise ValueError("support_model.json was trained on other features: rerun train_support_model.py")
    model = SupportModel(
        version=str(raw["version"]),
        weights=tuple(float(w) for w in raw["weights"]),
        bias=float(raw["bias"]),
        means=tuple(float(m) for m in raw["means"]),
        scales=tuple(float(s) for s in raw["scales"]),
        threshold=float(raw["threshold"]),
    )
    from groundgate.text.lexicon import default_lexicon

    default_lexicon()  # part of the model: its load counts in the load time
    _LOAD_MS.append((time.perf_counter() - started) * 1000)
    return model


def support_probability(claim: str, evidence: str) -> float:
    """Probability in [0, 1] that `evidence` supports `claim` (either may be Chinese or English)."""
    if not claim.strip():
        return 1.0
    if not evidence.strip():
        return 0.0
    return load_model().probability(claim, evidence)


def load_time_ms() -> float:
    """Milliseconds the first `load_model()` took in this process (loading it now if needed)."""
    load_model()
    return _LOAD_MS[0] if _LOAD_MS else 0.0

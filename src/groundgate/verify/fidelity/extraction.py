"""Extraction: every fact-bearing mention of a text, with normalised values.

`extract` runs the passes of the `scan_*` modules over a text in order and caches the result by the
string when the text is short; `negation_cues` and `polarity` read negation off it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from groundgate.text.segmentation import CACHE_MAX_CHARS
from groundgate.verify.fidelity.model import Mention, Mentions
from groundgate.verify.fidelity.patterns import _ALPHA_RX, _DIGIT_RX
from groundgate.verify.fidelity.scan import _Extractor
from groundgate.verify.fidelity.scan_cues import comparators, negations
from groundgate.verify.fidelity.scan_dates import dates
from groundgate.verify.fidelity.scan_identifiers import codes, identifiers_early, names, versions
from groundgate.verify.fidelity.scan_quantities import quantities

_NUMBERED_NAME_RX = re.compile(r"(?<![\d.])\d{1,4}[ \t]*号(?=[线楼门机位院室口台厅馆舱库栋])")


def _scan(text: str) -> Mentions:
    """Every extraction pass over `text`, in order: each claims its spans before the next looks."""
    ex = _Extractor(text)
    nt = ex.nt
    digit = _DIGIT_RX.search(nt) is not None
    alpha = _ALPHA_RX.search(nt) is not None
    if digit or alpha:
        identifiers_early(ex, digit)
    dates(ex, digit, alpha)
    if alpha or "码" in nt:
        codes(ex, digit)
    if digit:
        versions(ex, alpha)
    if alpha:
        names(ex)
    if digit and "号" in nt:
        # `3号线`, `5号楼`, `2号门`: a numbered name, not the quantity 3 (it matched `3座` of another
        # sentence). Dates (`28号`) were read above.
        for m in _NUMBERED_NAME_RX.finditer(nt):
            if ex.free(*m.span()):
                ex.reserve(*m.span())
    quantities(ex, digit, alpha)
    comparators(ex)
    negations(ex, alpha)
    built = ex.build()
    return _per_second(built) if digit and any(m.kind == "size" for m in built.items) else built


_PER_SECOND_BEFORE = re.compile(r"每秒(?:钟)?\s*$")
_PER_SECOND_AFTER = re.compile(r"\s*(?:/\s*s(?:ec)?\b|每秒|per\s+second|a\s+second)", re.IGNORECASE)
_DECIMAL_BYTES = {"B": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}


def _per_second(found: Mentions) -> Mentions:
    """A data size said per second (`每秒 23 MB`, `23 MB per second`) is the data rate `23 MB/s`, in
    bits per second as the rate units are (`units.py`)."""
    items: list[Mention] = []
    text = found.text
    for m in found.items:
        factor = _DECIMAL_BYTES.get(m.surface_unit or "")
        if (
            m.kind == "size"
            and factor is not None
            and m.raw is not None
            and (
                _PER_SECOND_BEFORE.search(text[max(0, m.start - 4) : m.start])
                or _PER_SECOND_AFTER.match(text[m.end :])
            )
        ):
            m = replace(
                m, kind="measure", value=m.raw * factor * 8, unit="bit/s", surface_unit=f"{m.surface_unit}/s"
            )
        items.append(m)
    return Mentions(text, tuple(items))


def extract(text: str) -> Mentions:
    """Every fact-bearing mention of `text`, with normalised values and original offsets.

    Cached by the string when it is short (a claim, a sentence, an evidence window): such text repeats
    for every claim. A long text (a whole context) is not cached, so no cache pins it in memory after
    its check; a caller that needs it for many claims holds an `EvidenceIndex` instead.
    """
    if len(text) > CACHE_MAX_CHARS:
        return _scan(text)
    return _extract_cached(text)


@lru_cache(maxsize=8192)
def _extract_cached(text: str) -> Mentions:
    return _scan(text)


def negation_cues(text: str) -> list[Mention]:
    """The negation cues of `text` (`不`, `无需`, `not`, `never` …), exception words excluded."""
    return list(extract(text).of("negation"))


def polarity(text: str) -> int:
    """-1 when `text` carries an odd number of negation cues (double negation cancels), else +1."""
    return -1 if len(extract(text).of("negation")) % 2 else 1

"""Exact keys for L0: identifiers, titles and headings, extracted the same way from chunks and queries.

L0 is an exact match on keys stored in two keyword payload indexes:

- `identifiers`: error codes and other tokens that a person types exactly (`ERR_TIMEOUT`, `PAY-4031`,
  `ORA01555`), HTTP paths (`/api/v1/pay`), dotted config keys (`payment.gateway.timeout_ms`),
  API names in camelCase (`createOrder`) and anything quoted in backticks. Compared lower-cased.
- `title_keys`: the document title and distinctive headings, normalised (width, case, whitespace and
  punctuation folded by `verify.text.normalize`). A title or heading counts only when it is specific
  enough to name something: at least 4 CJK characters or two words and 8 letters, and not a generic
  heading (`Overview`, `概述`, `处理步骤`...). A query matches a title key when a contiguous run of
  its words normalises to it, so `支付网关错误码手册里的超时` matches the title `支付网关错误码手册`.

`label_terms` serves BM25 rather than L0: names made of a noun and a one-letter or numeric label
(`Team A`, `Team B`, `Phase 2`, `B 组`, `3 号楼`) become one term each (`teama`, `teamb`, `phase2`,
`teamb`, `building3`), in documents and queries alike. Without them `Team A` and `Team B` are the
same query to the tokenizer, which drops `a` as a stopword and keeps `b` as a meaningless letter, so
the other team's document ranks as high as the right one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from groundgate.text.segmentation import jieba_cut, normalize

_A: Final = r"A-Za-z0-9_"
_CODE = re.compile(rf"(?<![{_A}\-])[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)+(?![{_A}\-])")
_ALNUM_CODE = re.compile(rf"(?<![{_A}\-])[A-Za-z]+\d{{3,}}[A-Za-z0-9]*(?![{_A}\-])")
_CAMEL = re.compile(rf"(?<![{_A}\-])(?:[a-z]+[A-Z]|[A-Z][a-z]+[A-Z])[A-Za-z0-9]*(?![{_A}\-])")
_PATH = re.compile(r"(?<![\w./])/[A-Za-z0-9_.{}:\-]+(?:/[A-Za-z0-9_.{}:\-]+)*")
_HTTP_PATH = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(/[A-Za-z0-9_.{}:\-/]*)")
_DOTTED = re.compile(rf"(?<![{_A}.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?![{_A}])")
_BACKTICK = re.compile(r"`([^`\s]{3,80})`")
_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

#: Nouns that take a one-letter or numeric label, and the word their label term is spelled with
#: (synonyms, and the Chinese nouns, share one spelling so that `B 组` finds `Team B`).
_LABEL_NOUNS: Final = {
    "team": "team",
    "group": "team",
    "squad": "team",
    "zone": "zone",
    "region": "region",
    "phase": "phase",
    "plan": "plan",
    "building": "building",
    "floor": "floor",
    "tier": "tier",
    "level": "level",
    "stage": "stage",
    "wave": "wave",
    "batch": "batch",
    "shift": "shift",
    "option": "option",
}
_CJK_LABEL_NOUNS: Final = {
    "小组": "team",
    "团队": "team",
    "组": "team",
    "队": "team",
    "区": "zone",
    "期": "phase",
    "号楼": "building",
    "楼": "building",
    "层": "floor",
    "班": "shift",
}
_EN_LABEL = re.compile(
    rf"(?<![{_A}\-])({'|'.join(_LABEL_NOUNS)})\s+([A-Z]|\d{{1,3}})(?![{_A}\-:.,]\d|[{_A}])", re.I
)
_CJK_LABEL = re.compile(
    rf"(?<![{_A}])([A-Z]|\d{{1,3}})\s*({'|'.join(sorted(_CJK_LABEL_NOUNS, key=len, reverse=True))})"
)

_GENERIC_HEADINGS: Final = frozenset(
    normalize(h)
    for h in (
        "overview",
        "introduction",
        "summary",
        "background",
        "table of contents",
        "contents",
        "references",
        "appendix",
        "change log",
        "changelog",
        "revision history",
        "version history",
        "release notes",
        "getting started",
        "next steps",
        "see also",
        "notes",
        "faq",
        "frequently asked questions",
        "注意事项",
        "常见问题",
        "修订记录",
        "变更记录",
        "版本历史",
        "版本记录",
        "适用范围",
        "处理步骤",
        "操作步骤",
        "处理流程",
        "操作流程",
        "相关文档",
        "参考资料",
        "术语说明",
        "名词解释",
        "基本信息",
        "联系方式",
    )
)
#: Longest run of query words tried as a title key.
_MAX_SPAN_WORDS: Final = 12
#: Most title-key candidates sent for one query.
_MAX_CANDIDATES: Final = 1500


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def extract_identifiers(text: str) -> dict[str, str]:
    """Identifiers in `text`: lower-cased key → the spelling first seen."""
    return dict(_identifiers(text))


@lru_cache(maxsize=4096)
def _identifiers(text: str) -> tuple[tuple[str, str], ...]:
    folded = _fold(text)
    found: dict[str, str] = {}

    def add(value: str) -> None:
        value = value.strip().rstrip(".:,;")
        if len(value) >= 3:
            found.setdefault(value.lower(), value)

    for match in _CODE.finditer(folded):
        value = match.group()
        if "_" in value or any(c.isdigit() for c in value) or sum(c.isupper() for c in value) >= 2:
            add(value)
    for pattern in (_ALNUM_CODE, _CAMEL):
        for match in pattern.finditer(folded):
            add(match.group())
    for match in _PATH.finditer(folded):
        if match.group().count("/") >= 2:
            add(match.group().rstrip("/"))
    for match in _HTTP_PATH.finditer(folded):
        add(match.group(1).rstrip("/") or "/")
    for match in _DOTTED.finditer(folded):
        value = match.group()
        if len(value) >= 5 and any(len(part) > 1 for part in value.split(".")):
            add(value)
    for match in _BACKTICK.finditer(folded):
        add(match.group(1))
    return tuple(found.items())


def label_terms(text: str) -> list[str]:
    """`Team A` → `teama`, `B 组` → `teamb`: labelled names as single terms (see the module docs)."""
    return list(_labels(text))


@lru_cache(maxsize=4096)
def _labels(text: str) -> tuple[str, ...]:
    folded = _fold(text)
    found: dict[str, None] = {}
    for match in _EN_LABEL.finditer(folded):
        label = match.group(2)
        if label in ("a", "i"):  # lower-case `a` / `i` after a noun is an article or a pronoun
            continue
        found.setdefault(f"{_LABEL_NOUNS[match.group(1).lower()]}{label.lower()}", None)
    for match in _CJK_LABEL.finditer(folded):
        found.setdefault(f"{_CJK_LABEL_NOUNS[match.group(2)]}{match.group(1).lower()}", None)
    return tuple(found)


def squash(identifier: str) -> str:
    """An identifier as one BM25 term (`PAY-4031` → `pay4031`), since the tokenizer splits it."""
    return "".join(c for c in identifier.lower() if c.isalnum())


@lru_cache(maxsize=16384)
def title_key(name: str) -> str | None:
    """The normalised key of a title or heading, or None when it is too generic to match exactly."""
    key = normalize(name)
    if not key or len(key) > 80 or key in _GENERIC_HEADINGS:
        return None
    cjk = len(_CJK.findall(key))
    words = len(re.findall(r"[A-Za-z0-9]+", _fold(name)))
    if cjk >= 4 or (cjk == 0 and words >= 2 and len(key) >= 8) or (cjk and words and len(key) >= 6):
        return key
    return None


def title_keys(names: Iterable[str | None]) -> list[str]:
    """Distinct title keys of these titles and headings (generic ones left out)."""
    keys: dict[str, None] = {}
    for name in names:
        if name:
            key = title_key(name)
            if key:
                keys[key] = None
    return list(keys)


@lru_cache(maxsize=4096)
def _pieces(text: str) -> tuple[str, ...]:
    return tuple(jieba_cut(text))


def title_candidates(query: str) -> dict[str, str]:
    """Every run of up to 12 consecutive query words, normalised: key → the query text it came from."""
    folded = _fold(query)
    pieces = _pieces(folded)
    offsets = [0]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    if offsets[-1] != len(folded):  # the segmenter is expected to be lossless; fall back to the whole
        key = title_key(folded)
        return {key: folded} if key else {}
    candidates: dict[str, str] = {}
    for i, piece in enumerate(pieces):
        if not piece.strip() or not any(c.isalnum() for c in piece):
            continue
        for j in range(i + 1, min(i + _MAX_SPAN_WORDS, len(pieces)) + 1):
            span = folded[offsets[i] : offsets[j]]
            key = normalize(span)
            if len(key) >= 4 and key not in candidates and title_key(span) == key:
                candidates[key] = span.strip()
                if len(candidates) >= _MAX_CANDIDATES:
                    return candidates
    return candidates


__all__ = ["extract_identifiers", "label_terms", "squash", "title_candidates", "title_key", "title_keys"]

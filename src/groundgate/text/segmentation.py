"""Text utilities shared by the gatekeeper, the fidelity checks and the offline checker.

Chinese is segmented with jieba (the Rust port, `rjieba`: same dictionary, ~30x faster); English is
lower-cased and lightly stemmed. Everything keeps character offsets into the original text, because
every finding must point at the exact span a person can read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final


@dataclass(frozen=True, slots=True)
class Span:
    """A slice of a text with its offsets in the original string."""

    text: str
    start: int
    end: int


# --------------------------------------------------------------------------- normalisation

_KEEP_BETWEEN_ALNUM = frozenset(".-/:")


_CJK_CHAR = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")


def is_cjk_text(text: str, threshold: float = 0.2) -> bool:
    """True when at least `threshold` of the letters are CJK ideographs.

    Counted in C (`str.isalpha` mapped, the CJK ranges by regex): the answer chooser asks it about a
    hundred times per run. Not cached: it is asked of context sentences too, and a batch of checks
    must not hold on to the contexts it has checked (docs/security.md, "Checker budgets").
    """
    letters = sum(map(str.isalpha, text))
    if not letters:
        return False
    return sum(map(str.isalpha, _CJK_CHAR.findall(text))) / letters >= threshold


_KEEP, _DROP, _BETWEEN = 0, 1, 2


@lru_cache(maxsize=16384)
def _fold_char(raw: str) -> tuple[tuple[str, int], ...]:
    """NFKC + lower-case one character, and classify each resulting character (cached: hot path)."""
    folded: list[tuple[str, int]] = []
    for ch in unicodedata.normalize("NFKC", raw).lower():
        if ch.isalnum() or ch == "_" or ch == "%" or unicodedata.category(ch).startswith("S"):
            folded.append((ch, _KEEP))  # letters, digits, identifiers, currency and math symbols
        elif ch in _KEEP_BETWEEN_ALNUM:
            folded.append((ch, _BETWEEN))
        else:
            folded.append((ch, _DROP))  # whitespace and other punctuation
    return tuple(folded)


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """Fold width/case, drop whitespace and punctuation; keep digits, identifiers and symbols.

    Returns the normalised string and, for each of its characters, the index of the original
    character it came from. `.`, `-`, `/` and `:` survive between alphanumerics, so `v1.2` stays
    distinct from `v12` and `/api/pay` from `apipay`; `_` always survives (`ERR_TIMEOUT`).
    """
    out: list[str] = []
    offsets: list[int] = []
    last = len(text) - 1
    for i, raw in enumerate(text):
        for ch, kind in _fold_char(raw):
            if kind == _KEEP:
                out.append(ch)
                offsets.append(i)
            elif kind == _BETWEEN and 0 < i < last:
                prev = _fold_char(text[i - 1])
                nxt = _fold_char(text[i + 1])
                if prev and nxt and prev[-1][0].isalnum() and nxt[0][0].isalnum():
                    out.append(ch)
                    offsets.append(i)
    return "".join(out), offsets


#: Longer texts are not memoised: a module-level cache must not pin whole contexts in memory between
#: checks (a batch of large contexts would grow without bound); a long text is analysed once per
#: check by the caller's own index instead.
CACHE_MAX_CHARS: Final = 2_000


def normalize(text: str, *, cache: bool = True) -> str:
    """`normalize_with_map` without the offsets.

    `cache=False` for text that will not come again (the sentences of a large context, analysed once
    per check): caching it would only push out what does come again, and hold memory meanwhile.
    """
    if not cache or len(text) > CACHE_MAX_CHARS:
        return _normalize(text)
    return _normalize_cached(text)


@lru_cache(maxsize=16384)
def _normalize_cached(text: str) -> str:
    return _normalize(text)


@lru_cache(maxsize=65536)
def _fixed_fold(raw: str) -> str | None:
    """What `raw` adds to the normalised text whatever its neighbours, or None when that depends on them."""
    folded = _fold_char(raw)
    if any(kind == _BETWEEN for _, kind in folded):
        return None
    return "".join(ch for ch, kind in folded if kind == _KEEP)


#: From this length on, `_normalize` translates runs of context-free characters in C.
_TRANSLATE_FROM = 256


def _normalize(text: str) -> str:
    # `normalize_with_map` minus the offset list, which for a long context would cost a Python int
    # per character. A long text is translated in C, run by run, and only the few characters whose
    # fate depends on their neighbours (`.`, `-`, `/`, `:` and their variants) go through Python.
    if len(text) >= _TRANSLATE_FROM:
        table: dict[int, str] = {}
        between: list[str] = []
        for ch in set(text):
            fixed = _fixed_fold(ch)
            if fixed is None:
                between.append(ch)
            else:
                table[ord(ch)] = fixed
        if not between:
            return text.translate(table)
        out: list[str] = []
        pos = 0
        for found in re.finditer("[" + "".join(re.escape(ch) for ch in sorted(between)) + "]", text):
            i = found.start()
            out.append(text[pos:i].translate(table))
            _fold_between(text, i, out)
            pos = i + 1
        out.append(text[pos:].translate(table))
        return "".join(out)
    out = []
    last = len(text) - 1
    for i, raw in enumerate(text):
        for ch, kind in _fold_char(raw):
            if kind == _KEEP:
                out.append(ch)
            elif kind == _BETWEEN and 0 < i < last:
                prev = _fold_char(text[i - 1])
                nxt = _fold_char(text[i + 1])
                if prev and nxt and prev[-1][0].isalnum() and nxt[0][0].isalnum():
                    out.append(ch)
    return "".join(out)


def _fold_between(text: str, i: int, out: list[str]) -> None:
    """Append what text[i] adds to the normalised text, looking at its neighbours."""
    last = len(text) - 1
    for ch, kind in _fold_char(text[i]):
        if kind == _KEEP:
            out.append(ch)
        elif kind == _BETWEEN and 0 < i < last:
            prev = _fold_char(text[i - 1])
            nxt = _fold_char(text[i + 1])
            if prev and nxt and prev[-1][0].isalnum() and nxt[0][0].isalnum():
                out.append(ch)


def find_tolerant(needle: str, haystack: str) -> tuple[int, int] | None:
    """The first `find_all_tolerant` hit as original-offset `(start, end)`, or None."""
    return next(find_all_tolerant(needle, haystack), None)


def find_all_tolerant(needle: str, haystack: str) -> Iterator[tuple[int, int]]:
    """Every place `needle` occurs in `haystack` under tolerant matching, in order.

    Whitespace, punctuation, width and case are ignored; numbers and identifiers are strict: a hit
    may not be part of a longer number or identifier (`500` in `5000`, `500,000` or `5000.5`; `v1`
    in `v1.2`; `ERR-TIMEOUT` in `ERR-TIMEOUT-2`), and a number's sign must agree (`-5` vs `5`).
    """
    norm_needle, needle_offsets = normalize_with_map(needle)
    if not norm_needle:
        return
    norm_hay, offsets = normalize_with_map(haystack)
    pos = norm_hay.find(norm_needle)
    while pos >= 0:
        start, end = offsets[pos], offsets[pos + len(norm_needle) - 1] + 1
        hay_offsets = offsets[pos : pos + len(norm_needle)]
        if not _cuts_token(haystack, start, end, norm_needle) and not _signs_differ(
            norm_needle, needle, needle_offsets, haystack, hay_offsets
        ):
            # A quoted leading sign belongs to the match (`_signs_differ` saw it in both).
            signed = norm_needle[0].isdigit() and _sign_before(needle, needle_offsets[0])
            yield (start - 1 if signed else start), end
        pos = norm_hay.find(norm_needle, pos + 1)


# `v1.2`, `ERR-TIMEOUT-2`, `/api/pay`, `10:30`: joined by these, both sides are one token (the
# same joiners `normalize_with_map` keeps). A comma joins only digits (`500,000`), since
# `PAID,REFUNDED` lists two values.
_JOINERS: Final = frozenset(".-/:")


def _cuts_token(text: str, start: int, end: int, norm_needle: str) -> bool:
    """True when text[start:end] is only part of a longer number or identifier."""
    before, after = _char(text, start - 1, last=True), _char(text, end)
    if _continues_token(before, norm_needle[0]) or _continues_token(after, norm_needle[-1]):
        return True
    before2, after2 = _char(text, start - 2, last=True), _char(text, end + 1)
    if (before in _JOINERS and _continues_token(before2, norm_needle[0])) or (
        after in _JOINERS and _continues_token(after2, norm_needle[-1])
    ):
        return True
    digit_group_before = before == "," and before2.isdigit() and norm_needle[0].isdigit()
    digit_group_after = after == "," and after2.isdigit() and norm_needle[-1].isdigit()
    return digit_group_before or digit_group_after


def _signs_differ(
    norm_needle: str, needle: str, needle_offsets: list[int], haystack: str, hay_offsets: list[int]
) -> bool:
    """True when a number starts with a sign on one side only (`温度 -5 度` vs `温度 5 度`).

    Normalisation drops a `-` that does not sit between alphanumerics, so each number of the
    match is compared by the character just before its first digit, on both sides.
    """
    return any(
        _sign_before(needle, needle_offsets[k]) != _sign_before(haystack, hay_offsets[k])
        for k, ch in enumerate(norm_needle)
        if ch.isdigit() and (k == 0 or not norm_needle[k - 1].isdigit())
    )


def _char(text: str, index: int, *, last: bool = False) -> str:
    """text[index] in NFKC form ('' outside the text); `last` picks the end of an expansion."""
    if not 0 <= index < len(text):
        return ""
    folded = unicodedata.normalize("NFKC", text[index])
    return folded[-1:] if last else folded[:1]


def _sign_before(text: str, index: int) -> str:
    """`-` or `+` when text[index - 1] is a sign (ASCII, full-width or the minus sign), else ''."""
    char = _char(text, index - 1, last=True)
    return "-" if char in ("-", "−") else "+" if char == "+" else ""


def _continues_token(outside: str, inside: str) -> bool:
    """True when `outside` glued to `inside` would be one ASCII word or number."""
    return (
        bool(outside)
        and outside.isascii()
        and (outside.isalnum() or outside == "_")
        and (inside.isascii() and (inside.isalnum() or inside == "_"))
    )


# --------------------------------------------------------------------------- sentences

# A sentence ends at Chinese terminators, at `.!?;` followed by space/end (not inside `3.5` or
# `e.g.`), or at a line break. List markers at a line start are not part of the claim.
_SENTENCE_END = re.compile(r"[。！？；!?;]+[”’\"')）]*|\.(?=\s|$)[”’\"')）]*|\n+")
# `1.`, `2)`, `(3)`, `一、`, a bullet; not the `5.` of a decimal (`5.5 million`).
_LEADING_MARKER = re.compile(
    r"^\s*(?:[-*•·]|\d{1,2}(?:\.(?!\d)|[)、])|[（(]?\d{1,2}[)）]|[一二三四五六七八九十]+、)\s*"
)
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "mr", "mrs", "dr", "no", "fig", "approx", "inc", "u.s"}
)


#: `a.m.` / `p.m.` and a name's initial (`Dana R. gave it five stars`): a sentence ends there only
#: when what follows starts like a sentence.
_CLOCK_ABBREVIATION = re.compile(r"(?<![A-Za-z])(?:[aApP]\.[mM]|[A-Z])\.$")
_LOWER_NEXT = re.compile(r"\s*[a-z]")
_LIST_NUMBER = re.compile(r"\s*\d{1,2}")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")
#: The longest abbreviation in `_ABBREVIATIONS`, plus room: a longer word before `.` is not one.
_MAX_ABBREVIATION = 8


def split_sentences(text: str) -> list[Span]:
    """Split text into sentence spans (Chinese and English), trimmed, with original offsets."""
    spans: list[Span] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if match.group().startswith("."):
            dot = match.start()
            # Matched in place (no slice of the sentence so far), so a long sentence full of `e.g.`
            # costs linear, not quadratic, time.
            if _LIST_NUMBER.fullmatch(text, start, dot):
                continue  # "1. Restart it": a list number, not a sentence end
            if _abbreviation_before(text, start, dot):
                continue
            if _CLOCK_ABBREVIATION.search(text, max(start, dot - 4), dot + 1) and _LOWER_NEXT.match(
                text, end
            ):
                continue  # "until 3 a.m. the following morning": the clock's dot, and the sentence goes on
        _append_trimmed(spans, text, start, end)
        start = end
    _append_trimmed(spans, text, start, len(text))
    return spans


def _abbreviation_before(text: str, start: int, dot: int) -> bool:
    """Whether the run of letters and dots ending at text[dot] (within text[start:]) is an abbreviation."""
    begin = dot
    while begin > start and text[begin - 1] in _WORD_CHARS:
        begin -= 1
        if dot - begin > _MAX_ABBREVIATION:
            return False  # longer than any abbreviation: no need to find where the word starts
    return begin < dot and text[begin:dot].lower() in _ABBREVIATIONS


def _append_trimmed(spans: list[Span], text: str, start: int, end: int) -> None:
    chunk = text[start:end]
    marker = _LEADING_MARKER.match(chunk)
    if marker and marker.end() < len(chunk):
        start += marker.end()
        chunk = text[start:end]
    stripped_left = len(chunk) - len(chunk.lstrip())
    chunk = chunk.strip()
    if not chunk or not any(c.isalnum() for c in chunk):
        return
    s = start + stripped_left
    spans.append(Span(chunk, s, s + len(chunk)))


# --------------------------------------------------------------------------- tokens

_STOPWORDS_EN = frozenset(
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
        "here",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "so",
        "such",
        "can",
        "could",
        "may",
        "might",
        "must",
        "shall",
        "should",
        "will",
        "would",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "having",
        "not",
        "no",
        "nor",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "me",
        "him",
        "her",
        "us",
        "them",
        "my",
        "your",
        "his",
        "our",
        "their",
        "also",
        "just",
        "only",
        "very",
        "into",
        "onto",
        "about",
        "over",
        "under",
        "again",
        "further",
        "once",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "own",
        "same",
        "too",
        "s",
        "t",
        "into",
        "per",
        "via",
    ]
)
_STOPWORDS_ZH = frozenset(
    [
        "的",
        "了",
        "是",
        "在",
        "和",
        "与",
        "及",
        "或",
        "也",
        "都",
        "就",
        "而",
        "被",
        "把",
        "对",
        "为",
        "以",
        "于",
        "之",
        "其",
        "该",
        "这",
        "那",
        "这个",
        "那个",
        "这些",
        "那些",
        "一个",
        "一种",
        "个",
        "中",
        "上",
        "下",
        "时",
        "会",
        "能",
        "可",
        "可以",
        "可能",
        "将",
        "已",
        "已经",
        "还",
        "并",
        "且",
        "但",
        "但是",
        "如果",
        "则",
        "即",
        "等",
        "等等",
        "吗",
        "呢",
        "吧",
        "啊",
        "着",
        "过",
        "我",
        "你",
        "他",
        "她",
        "它",
        "我们",
        "你们",
        "他们",
        "请",
        "有",
        "没有",
        "要",
        "需要",
        "进行",
        "通过",
        "由",
        "从",
        "到",
        "向",
        "给",
        "让",
        "使",
        "用",
    ]
)
_TOKEN_CHARS = re.compile(r"[\w\u4e00-\u9fff%$¥€£./:-]+")
_EN_WORD = re.compile(r"^[a-z]+$")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light English stemmer: enough to match `timeouts`/`timeout`, `failed`/`fails`/`failing`."""
    if not _EN_WORD.match(word) or len(word) <= 3:
        return word
    for suffix, keep in (
        ("ational", "ate"),
        ("ization", "ize"),
        ("iveness", "ive"),
        ("fulness", "ful"),
        ("ousness", "ous"),
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ly", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
                return word[:-1]
            return word[: -len(suffix)] + keep
    return word


def _clean_token(token: str) -> str:
    return token.strip(".-/:")


def wordset(words: str) -> frozenset[str]:
    """A word list written as one space-separated string (easier to read than a list of literals)."""
    return frozenset(words.split())


def jieba_cut(text: str) -> list[str]:
    """jieba's words of `text`. rjieba loads its dictionary when first imported (about 0.2 s), so it
    is imported here, on first use: an English-only check or `--help` never pays for it."""
    import rjieba

    return rjieba.cut(text)


def jieba_tag(text: str) -> list[tuple[str, str]]:
    """jieba's words of `text` with their part-of-speech tags (imported on first use, as `jieba_cut`)."""
    import rjieba

    return rjieba.tag(text)


def _cut(text: str, cache: bool = True) -> tuple[str, ...]:
    if not cache or len(text) > CACHE_MAX_CHARS:
        return tuple(jieba_cut(text))
    return _cut_cached(text)


@lru_cache(maxsize=32768)
def _cut_cached(text: str) -> tuple[str, ...]:
    return tuple(jieba_cut(text))


def tokenize(text: str, *, keep_stopwords: bool = False, cache: bool = True) -> list[str]:
    """Content tokens: jieba words for Chinese, stemmed lower-case words for English.

    Identifiers (`ERR_TIMEOUT`, `/api/pay`, `v2.3.1`) stay whole. Punctuation is dropped.
    `cache=False`: as for `normalize`. Otherwise the tokens of a text are computed once and kept
    (the same evidence sentences are scored for every question that retrieves them); each call gets
    a list of its own.
    """
    if not cache or len(text) > CACHE_MAX_CHARS:
        return _tokenize(text, keep_stopwords, cache=cache)
    return list(_tokenize_cached(text, keep_stopwords))


@lru_cache(maxsize=32768)
def _tokenize_cached(text: str, keep_stopwords: bool) -> tuple[str, ...]:
    return tuple(_tokenize(text, keep_stopwords, cache=True))


def _tokenize(text: str, keep_stopwords: bool, *, cache: bool) -> list[str]:
    normalized = unicodedata.normalize("NFKC", text).lower()
    tokens: list[str] = []
    for piece in _TOKEN_CHARS.findall(normalized):
        words = _cut(piece, cache) if _CJK_CHAR.search(piece) else (piece,)
        for word in words:
            cleaned = _clean_token(word.strip())
            if not cleaned:
                continue
            if not keep_stopwords and (cleaned in _STOPWORDS_EN or cleaned in _STOPWORDS_ZH):
                continue
            tokens.append(stem(cleaned))
    return tokens

"""The bilingual term layer: a zh↔en lexicon that lets a question in one language find documents in the other.

BM25 matches only the words a query shares with a passage, so `What is the hotel limit per night in
Beijing?` shares nothing with `一线城市（北京、上海、广州、深圳）每晚不超过 600 元`. The lexicon bridges
that offline: each line of `data/lexicon_zh_en.tsv` is one concept with its Chinese and English terms
(`住宿|住宿费 ↔ accommodation|hotel stay`), all synonyms of each other, so it also joins spellings
within one language that the tokenizer keeps apart (`年假` is two BM25 terms, `年休假` one).

- `Lexicon.matches(text)` finds the lexicon terms in a text: Chinese by longest substring (terms have
  two characters at least, so single characters never match inside other words), English by whole
  words after a light fold (case, hyphens, plural `s`/`es`/`ies`), longest first, without overlaps.
- `Lexicon.expansions(text)` gives, for each match, the other terms of its concept: the knowledge
  index adds them to the BM25 query at a lower weight (`knowledge.index`), and counts a query term as
  covered by a passage when the passage holds it or one of its alternates.
- `Lexicon.translations(text)` lists the alternates alone: document titles and aliases are indexed
  with them, so a Chinese document is also found by the English words of its title.

The data file is built by `benchmarks/build_lexicon.py` from a curated list (see there for its
sources and licence); `default_lexicon()` loads it once per process.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Final

from groundgate.errors import ConfigurationError

#: The bundled lexicon, inside the package.
LEXICON_RESOURCE: Final = "data/lexicon_zh_en.tsv"

_CJK_CLASS: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK: Final = re.compile(f"[{_CJK_CLASS}]")
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
#: Most alternates taken from one concept (the first ones listed are the common spellings).
_MAX_ALTERNATES: Final = 8


@dataclass(frozen=True, slots=True)
class Concept:
    """One line of the lexicon: terms that mean the same thing, in Chinese and English."""

    id: str
    zh: tuple[str, ...]
    en: tuple[str, ...]

    @property
    def terms(self) -> tuple[str, ...]:
        return self.zh + self.en


@dataclass(frozen=True, slots=True)
class TermMatch:
    """A lexicon term found in a text, with offsets into that text."""

    start: int
    end: int
    text: str
    """The matched text as written."""
    concept: Concept

    def alternates(self) -> tuple[str, ...]:
        """The concept's other terms (in both languages), at most a few per language."""
        own = _fold_key(self.text)
        zh = [t for t in self.concept.zh if _fold_key(t) != own][:_MAX_ALTERNATES]
        en = [t for t in self.concept.en if _fold_key(t) != own][:_MAX_ALTERNATES]
        return (*zh, *en)


def _fold(text: str) -> str:
    """Width and compatibility folding, case folding: what both matchers compare."""
    return unicodedata.normalize("NFKC", text).lower()


@lru_cache(maxsize=65536)
def _fold_key(term: str) -> str:
    # Cached: every knowledge search folds the same title, heading and lexicon words again.
    return " ".join(_stem(w) for w in _WORD.findall(_fold(term).replace("-", " "))) or _fold(term)


def _stem(word: str) -> str:
    """A light English plural fold; the BM25 tokenizer stems on its own, this only finds terms."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class Lexicon:
    """Concepts and the two matchers over them (immutable after construction, so thread-safe)."""

    def __init__(self, concepts: Iterable[Concept]) -> None:
        self.concepts: tuple[Concept, ...] = tuple(concepts)
        self._zh: dict[str, Concept] = {}
        self._en: dict[tuple[str, ...], Concept] = {}
        for concept in self.concepts:
            for term in concept.zh:
                self._zh.setdefault(_fold(term), concept)
            for term in concept.en:
                words = tuple(_stem(w) for w in _WORD.findall(_fold(term).replace("-", " ")))
                if words:
                    self._en.setdefault(words, concept)
        self._zh_longest = max((len(t) for t in self._zh), default=0)
        self._en_longest = max((len(w) for w in self._en), default=0)
        # Queries repeat (retries, the same question in several tool calls) and chunk heads repeat
        # for every chunk of a document: match each text once.
        self._cached = lru_cache(maxsize=2048)(self._match)

    @classmethod
    def from_tsv(cls, text: str, *, source: str = "lexicon") -> Lexicon:
        """Parse the data file format: `id<TAB>zh terms<TAB>en terms`, terms separated by `|`."""
        concepts: list[Concept] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith(("#", "id\t")):
                continue
            parts = line.split("\t")
            if len(parts) != 3:
                raise ConfigurationError(f"{source}:{number}: expected 3 tab-separated columns")
            zh = tuple(t.strip() for t in parts[1].split("|") if t.strip())
            en = tuple(t.strip() for t in parts[2].split("|") if t.strip())
            if not zh and not en:
                raise ConfigurationError(f"{source}:{number}: a concept without terms")
            concepts.append(Concept(parts[0].strip(), zh, en))
        return cls(concepts)

    @classmethod
    def load(cls, path: Path) -> Lexicon:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigurationError(f"cannot read the lexicon {path}: {exc}") from exc
        return cls.from_tsv(text, source=str(path))

    def __len__(self) -> int:
        return len(self.concepts)

    @property
    def term_count(self) -> int:
        return sum(len(c.terms) for c in self.concepts)

    # ------------------------------------------------------------------ matching

    def knows(self, term: str) -> bool:
        """Whether `term` is one of the lexicon's Chinese terms as a whole (a domain word)."""
        return _fold(term) in self._zh

    def matches(self, text: str) -> list[TermMatch]:
        """Lexicon terms in `text`, in order, longest first and never overlapping."""
        return list(self._cached(text))

    def expansions(self, text: str) -> list[tuple[TermMatch, tuple[str, ...]]]:
        """Each match in `text` with its concept's other terms."""
        return [(match, match.alternates()) for match in self.matches(text)]

    def translations(self, text: str, *, limit: int = 24) -> list[str]:
        """The distinct alternates of every term in `text` (at most `limit`): what indexing adds."""
        seen: dict[str, None] = {}
        folded = _fold(text)
        for match in self.matches(text):
            for term in match.alternates():
                if _fold(term) not in folded:
                    seen.setdefault(term, None)
                    if len(seen) >= limit:
                        return list(seen)
        return list(seen)

    def _match(self, text: str) -> tuple[TermMatch, ...]:
        folded = _fold_same_length(text)
        found = self._zh_matches(text, folded) + self._en_matches(text, folded)
        return tuple(sorted(found, key=lambda m: m.start))

    def _zh_matches(self, text: str, folded: str) -> list[TermMatch]:
        found: list[TermMatch] = []
        i = 0
        while i < len(folded):
            if not _CJK.match(folded[i]):
                i += 1
                continue
            for length in range(min(self._zh_longest, len(folded) - i), 1, -1):
                concept = self._zh.get(folded[i : i + length])
                if concept is not None:
                    found.append(TermMatch(i, i + length, text[i : i + length], concept))
                    i += length
                    break
            else:
                i += 1
        return found

    def _en_matches(self, text: str, folded: str) -> list[TermMatch]:
        # Hyphens join words in a term (`on-call`) but count as spaces when matching (`on call`).
        words = [(m.start(), m.end(), _stem(m.group())) for m in _WORD.finditer(folded.replace("-", " "))]
        found: list[TermMatch] = []
        i = 0
        while i < len(words):
            for length in range(min(self._en_longest, len(words) - i), 0, -1):
                key = tuple(w for _, _, w in words[i : i + length])
                concept = self._en.get(key)
                if concept is not None:
                    start, end = words[i][0], words[i + length - 1][1]
                    found.append(TermMatch(start, end, text[start:end], concept))
                    i += length
                    break
            else:
                i += 1
        return found


def _fold_same_length(text: str) -> str:
    """`_fold` character by character, keeping a character whose fold is longer (so offsets hold)."""
    out = []
    for char in text:
        folded = unicodedata.normalize("NFKC", char).lower()
        out.append(folded if len(folded) == 1 else char)
    return "".join(out)


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The bundled lexicon (loaded once per process)."""
    resource = resources.files("groundgate.text").joinpath(LEXICON_RESOURCE)
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"cannot read the bundled lexicon {LEXICON_RESOURCE}: {exc}") from exc
    return Lexicon.from_tsv(text, source=LEXICON_RESOURCE)


__all__ = ["LEXICON_RESOURCE", "Concept", "Lexicon", "TermMatch", "default_lexicon"]

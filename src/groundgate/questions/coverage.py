"""Does a statement meet a question need? Pure code, shared by the executor (to choose what to
state) and the verifier (to decide whether the verified claims answer the question).

A statement meets a need when, in this order:

1. **anchors**: every name of the need appears in the statement or in its source (the cited
   document's path and headings: a passage under `Team B handbook` is about Team B);
2. **terms**: the subject's words appear — in the statement, its source, or the rest of the sentence
   a clause was taken from (`满 10 年的，年假为 10 天` is the second clause of a sentence about
   `员工累计工作…`) — all of them for up to three words, all but one for four to six, all but two
   beyond; words are compared only with statements in the same script, so a
   Chinese word is not "missing" from an English log line — such a statement must then match on
   something language-neutral (a name, a date, a time or a figure of the need);
3. **conditions**: each is included in what the statement says — a figure's range overlaps the
   asked one (`满 10 年的` covers 12 years, `满 1 年不满 10 年的` does not), a date is the asked
   day, a time lies within 30 minutes of the asked one (or inside a stated span);
4. **kind**: the statement gives the kind of answer asked for — a figure for `how many` (of the
   asked unit when one was named), a time or a schedule for `when`, a cause or an error for `why`,
   an action for `what should I do`.

`on_topic` is weaker: the right names, at least half the words, and no condition that contradicts
the asked case. An answer may carry on-topic context; a statement about another entity or another
case (`Team A`, the 1-10 years clause) is neither.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from groundgate.contracts import AnswerKind, ConditionKind, Need, NeedCondition
from groundgate.questions.answer_kinds import failure_terms, gives_kind
from groundgate.questions.conditions import (
    CONFLICT,
    SATISFIED,
    UNADDRESSED,
    at_strict_bound,
    condition_outcome,
    exceeds_limit,
    quantity_outcome,
)
from groundgate.questions.groups import counted_with_others
from groundgate.questions.log_lines import line_set_unsaid
from groundgate.questions.moments import not_at_asked_minute
from groundgate.questions.needs import (
    _EN_STOP,
    _ZH_FUNCTION,
    _ZH_GENERIC,
    term_weight,
)
from groundgate.questions.record_fields import asks_field_stated
from groundgate.questions.statements import _FLAT, Statement, statement
from groundgate.questions.when import predicate_codes, reference_event_words
from groundgate.questions.window_stats import stat_terms_said, stats_unsaid
from groundgate.text.segmentation import is_cjk_text, jieba_tag, normalize, stem, tokenize

__all__ = ["NeedMatch", "Statement", "TermEquivalents", "is_rule_name", "match_need", "statement"]

#: Optional hook: other words for the same thing (`Beijing` → `北京`), e.g. a bilingual term layer.
TermEquivalents = Callable[[str], Iterable[str]]


@dataclass(frozen=True, slots=True)
class NeedMatch:
    """How one statement fares against one need."""

    met: bool
    on_topic: bool
    codes: tuple[str, ...]
    """Why not (`need:anchor_missing:Team B`, ...); empty when met."""
    score: float
    """How much of the need it matches (to pick the closest statement when none meets it)."""
    mixed: bool = False
    """It also states other cases (`满 1 年不满 10 年的…；满 10 年的…`): a clause of it answers better."""

    @property
    def names_another_case(self) -> bool:
        """It fails the need by naming another case: another name, qualifier or range, or another
        case of the asked name (the executor does not state it; the verifier does not show it)."""
        return any(code.startswith(_OTHER_CASE_CODES) for code in self.codes)


_OTHER_CASE_CODES: Final = (
    "need:anchor_missing:",
    "need:other_case:",
    "need:qualifier_conflict:",
    "need:condition_not_met:",
)


@lru_cache(maxsize=16384)
def _is_cjk_word(word: str) -> bool:
    return _CJK_RUN.search(word) is not None


@lru_cache(maxsize=8192)
def _word_forms(word: str) -> tuple[bool, str, tuple[str, ...]]:
    """(Chinese?, the form looked for, its bigrams or stemmed parts): computed once per word."""
    if _is_cjk_word(word):
        folded = normalize(word)
        return True, folded, tuple(folded[i : i + 2] for i in range(len(folded) - 1))
    flat = " " + _FLAT.sub(" ", word.lower()).strip() + " "
    raw = re.findall(r"[A-Za-z0-9]+", word)
    if len(raw) > 1 and any(len(part) == 1 for part in raw):
        # `Team A`: the one letter is what tells it from `Team B`, and word parts drop it; only the
        # name as written (or an equivalent) counts.
        return False, flat, ()
    return False, flat, tuple(stem(p) for p in tokenize(word))


@lru_cache(maxsize=65536)
def _has_word(s: Statement, word: str) -> bool:
    # Cached per statement and word (a statement is one object per text, `statement` is cached, and
    # compares by identity): every need asks each statement about the same words, the executor and
    # the verifier ask again.
    cjk, form, pieces = _word_forms(word)
    if cjk:
        if form in s.cjk:
            return True
        return len(form) >= 3 and sum(p in s.cjk for p in pieces) * 3 >= 2 * len(pieces)
    if form in s.flat:
        return True
    if len(pieces) == 1 and pieces[0] not in s.stems:
        # `reminded` is said by `reminders`, `rotated` by `rotation`: one word, another suffix.
        return any(_derived(pieces[0], other) for other in s.stems)
    if not pieces or not all(p in s.stems for p in pieces):
        return False
    if len(pieces) == 1:
        return True
    # A phrase ("second line") is said when its words stand together, in order: "15 seconds as
    # pool stats lines" holds both stems, and says nothing about a second line.
    return _phrase_rx(pieces).search(s.flat) is not None


#: English suffixes that make another word of the same stem (`remind` → `reminder`, `rotat` → `rotation`).
_DERIVING: Final = ("er", "ion", "ation")


def _derived(a: str, b: str) -> bool:
    """Whether the stems `a` and `b` are one word with another suffix: the shorter (five letters at
    least) and the longer less one of `_DERIVING` (`rotat` and `rotation`, `remind` and `reminder`)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long.startswith(short) and long[len(short) :] in _DERIVING and short.isalpha()


@lru_cache(maxsize=4096)
def _phrase_rx(pieces: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(" " + "[a-z0-9]* ".join(re.escape(p) for p in pieces) + "[a-z0-9]* ")


def _present(s: Statement, word: str, equivalents: TermEquivalents | None, *, surround: bool = False) -> bool:
    """Whether `word` (or an equivalent) is said; with `surround`, also in the sentence around it."""
    where = [s, s.surround] if surround and s.surround is not None else [s]
    words = [word, *(equivalents(word) if equivalents is not None else ())]
    return any(_has_word(place, w) for place in where for w in words)


def _subject_codes(need: Need, s: Statement, words: TermEquivalents | None) -> list[str]:
    """Why `s` is about another subject than the need's, beyond its share of the need's words."""
    codes: list[str] = []
    required_missing = [
        t for t in need.required_terms if _checkable(s, t, words) and not _present(s, t, words, surround=True)
    ]
    if required_missing:
        # The figure measures something else ("300 秒" of a clock skew for "提前几天提醒"), or the
        # statement is about another subject than the one the question names twice.
        codes.append("need:required_missing:" + ",".join(required_missing))
    flipped = _polarity_conflicts(need.text, s.text)
    if flipped:
        # "offsets are *not moving*" answered by "If committed offsets *move* but lag still grows":
        # the statement speaks of the opposite case.
        codes.append("need:other_case:not " + flipped[0])
    excluded = [x for x in need.excluded_terms if _states_case(s.text, x)]
    if excluded:
        # "省会城市及计划单列市每晚不超过 450 元" for a city the question says is neither.
        codes.append(f"need:other_case:{excluded[0]}")
    other = _other_endpoint(need, s, words) if not need.anchors else None
    if other is not None:
        # The statement names its own endpoint ("POST /api/v1/pay 200 QPS") and a noun of the asked
        # one ("创建*订单*的接口") is only in another endpoint of its sentence (`/api/v1/orders`).
        codes.append("need:other_subject:" + other)
    return codes


def _other_endpoint(need: Need, s: Statement, equivalents: TermEquivalents | None) -> str | None:
    """Another endpoint of the sentence a clause was cut from that holds a noun of the need the clause
    itself does not say, when the clause names an endpoint of its own."""
    if s.surround is None:
        return None
    mine = {m.text for m in s.mentions if m.kind == "identifier" and m.qualifier == "path"}
    if not mine:
        return None
    own = statement(s.text)
    for m in s.surround.mentions:
        if m.kind != "identifier" or m.qualifier != "path" or m.text in mine:
            continue
        path = statement(m.text)
        for t in need.terms:
            if term_weight(t) == 2 and _present(path, t, equivalents) and not _present(own, t, equivalents):
                return m.text
    return None


def _said(s: Statement, word: str, equivalents: TermEquivalents | None) -> bool:
    """Whether `word` is in the statement itself or the sentence it was cut from (not the headings)."""
    places = [statement(s.text), *([s.surround] if s.surround is not None else [])]
    words = [word, *(equivalents(word) if equivalents is not None else ())]
    return any(_has_word(place, w) for place in places for w in words)


def _in_title(s: Statement, word: str, equivalents: TermEquivalents | None = None) -> bool:
    """Whether the title of the statement's document (`path > Title > Section`) names `word` (or an
    equivalent): a runbook titled "Kafka Consumer Lag Runbook" is about Kafka consumers throughout,
    where a section heading ("产假与婚假") only groups what its sentences are about."""
    parts = s.context.split(" > ")
    if len(parts) < 3:
        return False
    title = statement(parts[1])
    return any(_has_word(title, w) for w in [word, *(equivalents(word) if equivalents is not None else ())])


def _checkable(s: Statement, word: str, equivalents: TermEquivalents | None) -> bool:
    """A word can be looked for only in a statement written in its script (or through an
    equivalent): a Chinese word is not "missing" from an English log line, nor an English word from
    a Chinese sentence (whose Latin words are names, which the need holds as anchors)."""
    if equivalents is not None and any(True for _ in equivalents(word)):
        return True
    return s.text_has_cjk if _is_cjk_word(word) else not s.text_is_cjk


#: Needs answered by one fact: a statement that also states another case of it does not answer.
_ONE_FACT_KINDS: Final = frozenset(
    {
        AnswerKind.QUANTITY,
        AnswerKind.TIME,
        AnswerKind.PERSON,
        AnswerKind.CHOICE,
        AnswerKind.STATUS,
        AnswerKind.LOCATION,
        AnswerKind.DEFINITION,
    }
)
#: Share of the subject's nouns (or, without nouns, of its other words) a statement must carry.
_TERM_SHARE: Final = 0.6
_WHOLE_SHARE: Final = 0.5
_CODE_SHAPE = re.compile(r"[_\-./\d]|^[A-Z]{2,}")


def _is_code(anchor: str) -> bool:
    """An identifier or code (`ERR_TIMEOUT`, `payment-db`, `P2`, `/api/v1/pay`), not a plain name."""
    return bool(_CODE_SHAPE.search(anchor))


def _hard(c: NeedCondition) -> bool:
    """A condition an answer must state: a range (`满 12 年`, `超过 10 天`), a day, a time. A bare
    figure of the question (`a 99.95% objective`) must only not be excluded by the answer's range."""
    return c.kind is not ConditionKind.QUANTITY or c.low != c.high


# --------------------------------------------------------------------------- other words

_LATIN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")
_CJK_RUN = re.compile("[\u4e00-\u9fff]+")
#: Longest run of question words a phrase is looked up as (`hotel limit`, `per night`, `消费积压`).
_PHRASE_WORDS: Final = 3
_PHRASE_CHARS: Final = 3


def _phrases(text: str, word: str) -> list[str]:
    """The runs of `text` around `word` that a bilingual lexicon may hold as one term: `hotel limit`
    and `per night` for `hotel` and `night` in "hotel limit per night"; `消费积压` for `积压`."""
    found: list[str] = []
    if _is_cjk_word(word):
        for run in _CJK_RUN.finditer(text):
            at = run.group().find(word)
            if at < 0:
                continue
            chars = run.group()
            for start in range(max(0, at - _PHRASE_CHARS), at + 1):
                for end in range(at + len(word), min(len(chars), at + len(word) + _PHRASE_CHARS) + 1):
                    if (start, end) != (at, at + len(word)):
                        found.append(chars[start:end])
        return found
    words = _LATIN_WORD.findall(text)
    key = stem(word.lower())
    for n, w in enumerate(words):
        if stem(w.lower()) != key:
            continue
        for start in range(max(0, n - _PHRASE_WORDS + 1), n + 1):
            for end in range(n + 1, min(len(words), start + _PHRASE_WORDS) + 1):
                if end - start > 1:
                    found.append(" ".join(words[start:end]))
    return found


@lru_cache(maxsize=8192)
def _alternates(text: str, word: str, equivalents: TermEquivalents | None) -> tuple[str, ...]:
    """Other words for `word` as the question `text` uses it: its own equivalents, and those of the
    phrases of the question it is part of (`hotel` in "hotel limit" is also `住宿标准`)."""
    if equivalents is None:
        return ()
    found = [*equivalents(word)]
    for phrase in _phrases(text, word):
        found += equivalents(phrase)
    return tuple(dict.fromkeys(f for f in found if f.lower() != word.lower()))


def _within(equivalents: TermEquivalents | None, text: str) -> TermEquivalents | None:
    """`equivalents` widened to the phrases of the question `text` (see `_alternates`)."""
    if equivalents is None:
        return None
    return lambda word: _alternates(text, word, equivalents)


_SEGMENT = re.compile(r"[A-Za-z]+|\d+|[\u4e00-\u9fff]+")


@lru_cache(maxsize=4096)
def _rival_pattern(anchor: str) -> re.Pattern[str] | None:
    """A pattern for the names that differ from `anchor` in one part only: another number (`P1` for
    `P2`), another letter (`Team A` for `Team B`), another word of an identifier (`payment-events`
    for `order-events`) — another case of the same kind of thing."""
    segments = list(_SEGMENT.finditer(anchor))
    if len(segments) < 2:
        return None
    joined = bool(re.search(r"[_\-]", anchor))
    alternatives = []
    for n, m in enumerate(segments):
        part = m.group()
        if part.isdigit():
            other = r"\d+"
        elif part.isascii() and len(part) == 1:
            other = "[A-Z]" if part.isupper() else "[a-z]"
        elif part.isascii() and part.isupper() and joined and n == 0:
            # `ERR_POOL_EXHAUSTED`: the prefix names the family (`ERR_`), the rest the case, so any
            # other member of the family (`ERR_TIMEOUT`) is another case.
            alternatives.append(re.escape(anchor[: m.end() + 1]) + r"[A-Z0-9][A-Z0-9_\-]*")
            continue
        elif part.isascii() and joined and n < len(segments) - 1:
            # The last word of an identifier says what kind of thing it is (`order-events` is a
            # topic, `order-settlement` a consumer group): only the words before it name cases.
            other = "[A-Za-z]+"
        else:
            continue
        prefix, suffix = re.escape(anchor[: m.start()]), re.escape(anchor[m.end() :])
        alternatives.append(f"{prefix}{other}{suffix}")  # the name itself is dropped by `_rivals`
    if not alternatives:
        return None
    return re.compile(r"(?<![A-Za-z0-9_\-])(?:" + "|".join(alternatives) + r")(?![A-Za-z0-9_])")


def _rivals(s: Statement, anchors: Sequence[str]) -> list[str]:
    """Names in the statement's own text that are other cases of an asked name (`_rival_pattern`)."""
    found: list[str] = []
    for anchor in anchors:
        pattern = _rival_pattern(anchor)
        if pattern is not None:
            found += [m.group() for m in pattern.finditer(s.text) if m.group().lower() != anchor.lower()]
        if is_rule_name(anchor):
            # `GatewayLatencyHigh`: another alert rule's name in the sentence (`DBPoolSaturation 触发时
            # 抑制 … GatewayLatencyHigh`) makes it a sentence about that rule too.
            found += [
                m.group()
                for m in _RULE_NAME.finditer(s.text)
                if m.group() != anchor and is_rule_name(m.group())
            ]
        if _CAPS_NAME.fullmatch(anchor) and re.search(re.escape(anchor) + _FIGURE_AFTER, s.text):
            # `CMB 40%、ICBC 30%`: other short names each given a figure, as the asked one is, are
            # other cases of the same table.
            found += [
                m.group(1)
                for m in re.finditer(r"(?<![A-Za-z0-9_\-])([A-Z][A-Z0-9]{1,7})" + _FIGURE_AFTER, s.text)
                if m.group(1) != anchor
            ]
    return found


_CAPS_NAME = re.compile(r"[A-Z][A-Z0-9]{1,7}")
_RULE_NAME = re.compile(r"(?<![A-Za-z0-9_\-])[A-Z][A-Za-z0-9]{5,}(?![A-Za-z0-9_\-])")


def is_rule_name(name: str) -> bool:
    """An alert rule's kind of name: three or more capitalised words run together
    (`GatewayLatencyHigh`, `DBPoolSaturation`), not a product's two (`PagerDuty`, `PostgreSQL`)."""
    return bool(_RULE_NAME.fullmatch(name)) and len(re.findall(r"[A-Z][a-z0-9]+|[A-Z]+(?![a-z])", name)) >= 3


_FIGURE_AFTER = r"(?![A-Za-z0-9_\-])\s*[(（:：]?\s*\d"


#: Word classes that name a case (`一线`, `临时`, `默认`, `省会`); not `根据`, `其他`, `每个`.
_QUALIFIER_TAGS: Final = ("n", "b", "a", "m", "v", "j", "l")


@lru_cache(maxsize=4096)
def _qualifies(chars: str) -> bool:
    """Whether two characters before a word are one word that could name a case of it."""
    if set(chars) & _ZH_FUNCTION or chars in _ZH_GENERIC:
        return False
    tags = jieba_tag(chars)
    return len(tags) == 1 and tags[0][1].startswith(_QUALIFIER_TAGS)


@lru_cache(maxsize=4096)
def _qualifier_pairs(text: str, terms: tuple[str, ...]) -> tuple[tuple[str, str, bool], ...]:
    """The pairs of successive terms, in one script, that stand together in the question `text`
    (`省会城市`, "credit card"), with whether they are Chinese: the pairs `_qualifier_conflicts`
    compares, worked out once per question rather than once per statement."""
    pairs = []
    for first, second in itertools.pairwise(terms):
        cjk = _is_cjk_word(first)
        if cjk != _is_cjk_word(second):
            continue
        if cjk:
            if first + second not in text:
                continue
        elif second.lower().endswith("ed") or not re.search(
            rf"\b{re.escape(first)}\s+{re.escape(second)}\b", text, re.IGNORECASE
        ):
            continue  # "payments failed": a verb after its subject, not a case of it
        pairs.append((first, second, cjk))
    return tuple(pairs)


def _qualifier_conflicts(need: Need, s: Statement) -> list[str]:
    """Words of the question that qualify the next one (`省会` in `省会城市`, `credit` in `credit
    card`) where the statement, without the qualifier, says that next word with another one
    (`一线城市`, `debit card`): it states another case. Compared within one script only."""
    conflicts: list[str] = []
    own = {w.lower() for w in [*need.terms, *need.soft_terms, *need.anchors]}
    for first, second, cjk in _qualifier_pairs(need.text, tuple(need.terms)):
        if cjk != s.text_has_cjk or _has_word(s, first):
            continue
        if cjk:
            # The two characters before the word: a qualifier, unless a particle or a figure sits there.
            before = (
                s.text[max(0, m.start() - 2) : m.start()] for m in re.finditer(re.escape(second), s.text)
            )
            others = [b for b in before if re.fullmatch("[\u4e00-\u9fff]{2}", b) and _qualifies(b)]
        else:
            found = re.findall(rf"\b([a-z]+)[\s\-]+{re.escape(second)}\b", s.text, re.IGNORECASE)
            others = [o for o in found if o.lower() not in _EN_STOP and term_weight(o.lower()) > 0]
        rival = [o for o in others if not any(o.lower() in w or w in o.lower() for w in own)]
        if rival:
            conflicts.append(f"{rival[0]}{'' if cjk else ' '}{second}")
    return conflicts


# --------------------------------------------------------------------------- matching


def _anchors_missing(need: Need, s: Statement, equivalents: TermEquivalents | None) -> list[str]:
    """The need's names the statement does not carry: absent from it and its headings, or, for a name
    that tells this need from the question's other parts, not said by the statement itself (a
    document title naming it counts when the statement says another of the need's names)."""
    return [
        a
        for a in need.anchors
        if not (_present(s, a, equivalents) or _day_class_for(a, need.text, s))
        or (
            a in need.distinct
            and not _said(s, a, equivalents)
            # the document's title names it, and the statement names another of the need's names
            and not (
                _in_title(s, a, equivalents) and any(_said(s, b, equivalents) for b in need.anchors if b != a)
            )
        )
    ]


def match_need(
    need: Need, s: Statement | str, *, context: str = "", equivalents: TermEquivalents | None = None
) -> NeedMatch:
    """How `s` (a statement, or its text said under `context`) fares against `need` (module docs)."""
    if isinstance(s, str):
        s = statement(s, context)
    codes: list[str] = []
    score = 0.0
    anchors_missing = _anchors_missing(need, s, equivalents)
    score += 3 * (len(need.anchors) - len(anchors_missing))
    codes += [f"need:anchor_missing:{a}" for a in anchors_missing]
    if need.kind is AnswerKind.QUANTITY:  # one office's head count is not the three offices' total
        codes += [f"need:counted_with_others:{a}" for a in counted_with_others(need.anchors, s)]

    # A word of the question may stand for a phrase of it (`hotel` in "hotel limit" is `住宿标准`).
    words = _within(equivalents, need.text)
    checkable, reference = _comparable_terms(need, s, words)
    present = {t for t in checkable if _present(s, t, words, surround=True)}
    said = {t for t in present if _said(s, t, words)}
    # What tells this need from the question's other parts must be said, not only be a heading
    # (a section "产假与婚假" is not an answer about 婚假 for a sentence about 产假).
    shared = {t.lower() for t in need.terms} - {t.lower() for t in need.distinct}
    unsaid = [
        t
        for t in need.distinct
        if t in present
        and t not in said
        and not _modifies_shared(need.text, t, shared)
        and not _in_title(s, t, words)
    ]
    present -= set(unsaid)
    terms_missing = [t for t in checkable if t not in present]
    found = sum(term_weight(t) for t in present)
    # Words the statement says itself count more than words of its headings: of two sentences under
    # the same heading, the one that names the asked thing is about it.
    score += found + 0.5 * sum(term_weight(t) for t in said if t in present)
    score += 0.5 * sum(1 for t in need.soft_terms if _present(s, t, words, surround=True))
    # The subject is its nouns: most of them must be there (its verbs and adjectives, when it has no
    # noun), and every word that tells this need from the question's other parts.
    nouns = [t for t in need.terms if term_weight(t) == 2 and t not in reference]
    weighed = [t for t in checkable if term_weight(t) == 2] or checkable
    carried = sum(term_weight(t) for t in weighed if t in present)
    share = carried / max(1, sum(term_weight(t) for t in weighed))
    # And more than half of the whole subject: one shared noun (`公司` of "公司年会") under a question
    # of three words is another subject.
    whole = sum(term_weight(t) for t in checkable)
    overall = sum(term_weight(t) for t in checkable if t in present) / whole if whole else 1.0
    terms_ok = (
        (not weighed or share >= _TERM_SHARE)
        and (len(checkable) < 3 or overall > _WHOLE_SHARE)
        and not any(t in terms_missing for t in need.distinct)
    )
    if not terms_ok:
        codes.append("need:terms_missing:" + ",".join(terms_missing))
    elif (
        weighed
        and not any(t in said for t in weighed)
        and not any(_said(s, a, equivalents) for a in need.anchors)
        # the asked event of a "when … before …" question said is enough (its actor may be the heading's)
        and not (reference and any(t in said for t in checkable))
    ):
        # Every word found is a heading's and no asked name is said: the statement itself says
        # something else under that heading ("Normal values are below 100" under "… and alert").
        codes.append("need:terms_unsaid:" + ",".join(t for t in weighed if t in present))
    more, qualifiers, rivals = _statement_codes(need, s, words, checkable, present)
    codes += more

    outcomes = [(c, _yes_no_outcome(need, s, c)) for c in need.conditions]
    score += 2 * sum(1 for _, o in outcomes if o == SATISFIED)
    if not_at_asked_minute(s, need):  # no value at the minute the need asks it at
        codes.append("need:other_moment")
    conflict = any(o == CONFLICT for _, o in outcomes)
    codes += _condition_codes(outcomes, yes_no=need.kind is AnswerKind.YES_NO)

    # Nothing of the subject could be compared (another script): only a neutral match counts — an
    # identifier or code the need names, or a condition; a proper name alone is not enough.
    neutral = any(_is_code(a) for a in need.anchors) or any(o == SATISFIED for _, o in outcomes)
    blind = bool(need.terms) and not checkable and not neutral
    if blind:
        codes.append("need:language_mismatch")
    elif (
        terms_ok
        and checkable
        and not neutral
        and 2 * sum(1 for t in nouns if t in checkable) <= len(nouns) > 1
    ):
        # Across languages only the words the lexicon knows can be compared: when it knows half of
        # the subject's nouns or fewer, one shared word does not make it the same subject.
        codes.append("need:terms_uncheckable:" + ",".join(t for t in nouns if t not in checkable))

    # A record of the asked moment (a log line, a metric in the window) is evidence for a "why".
    kind_ok = gives_kind(s, need, lexicon=equivalents is not None) or (
        need.kind is AnswerKind.REASON
        and any(o == SATISFIED and c.kind is not ConditionKind.QUANTITY for c, o in outcomes)
    )
    score += 1 if kind_ok else 0
    if kind_ok and _asked_field(need, s):
        # "ORD-… 现在是什么状态", "走的哪家银行": the named record's own field outranks a log line of
        # one of its events (`order created order_id=ORD-…` says `created`, a state it has since
        # left), and the words of a scene told before the question ("客服说…大促时候超时失败的…")
        # are no part of what the field must say.
        score += 1
        codes = [c for c in codes if not c.startswith(_SUBJECT_CODES)]
    if not kind_ok:
        codes.append(f"need:kind_missing:{need.kind.value}")

    met = not codes
    on_topic = asks_field_stated(need.text, need.anchors, s.text) or (  # a field asked: about it
        not anchors_missing
        and not blind
        and not conflict
        and not qualifiers
        # About the asked thing: one of its nouns is there (a name alone is not: a sentence that
        # mentions Lanting Pay is not about its CEO).
        and (
            carried > 0 or not weighed or (found > 0 and weighed is checkable) or (not checkable and neutral)
        )
    )
    mixed = bool(rivals) or _mixed_quantities(need, s, outcomes)
    return NeedMatch(met=met, on_topic=on_topic or met, codes=tuple(codes), score=score, mixed=mixed)


def _statement_codes(
    need: Need, s: Statement, words: TermEquivalents | None, checkable: Sequence[str], present: set[str]
) -> tuple[list[str], list[str], list[str]]:
    """The codes of what the statement says against the need's predicate, case, subject and
    qualifiers, whether it states other cases too, and whether it only repeats the question; with
    the qualifier conflicts and rival cases found (the caller weighs those again)."""
    codes = predicate_codes(need, checkable, present)
    # A window statistic asked (the peak, how long over a value): the statement must give it.
    codes += [f"need:stat_unsaid:{k}" for k in [*stats_unsaid(need, s.text), *line_set_unsaid(need, s.text)]]
    codes += _case_codes(need, s, words)
    codes += _subject_codes(need, s, words)
    qualifiers = _qualifier_conflicts(need, s)
    codes += [f"need:qualifier_conflict:{q}" for q in qualifiers]
    rivals = _rivals(s, need.anchors)
    if rivals and need.kind in _ONE_FACT_KINDS:
        # It also states another case (`P1 … P2 … P3`): a clause of it answers, not the whole.
        codes.append(f"need:other_case:{rivals[0]}")
    echo = _RECORD_FIELD.match(s.text)
    if echo and need.kind is not AnswerKind.YES_NO and echo.group(1).strip().lower() in need.text.lower():
        # "ORD-… 一直卡在 PENDING，要不要重新付？" is not answered by `order.status …: PENDING`: a
        # record field whose value the question itself states only repeats the question.
        codes.append("need:repeats_question")
    return codes, qualifiers, rivals


#: One field of a record as the executor states it (`order.status [order:ORD-…:status]: PENDING`).
_RECORD_FIELD: Final = re.compile(r"^[\w.]+ \[[^\]]+\]: (.+)$")

#: The state of the named thing itself, no qualifier before `状态` ("退款状态" asks another field).
_ASKS_OWN_STATE: Final = re.compile(r"(?:什么|啥|哪种|哪个)状态|\bwhat\s+(?:state|status)\b", re.IGNORECASE)
#: A record field and the words that ask for it alone ("哪家银行" of an order is its channel).
_FIELD_WORDS: Final = {
    "channel": frozenset({"通道", "渠道", "银行", "channel", "bank"}),
    "amount": frozenset({"金额", "amount"}),
}
_SUBJECT_CODES: Final = ("need:terms_missing:", "need:terms_unsaid:", "need:terms_uncheckable:")


def _asked_field(need: Need, s: Statement) -> bool:
    """Whether `s` is a field of a record the need names and the field is all the need asks: its
    status asked as the record's own state, or a field every word of the need names."""
    if not _RECORD_FIELD.match(s.text) or not any(a.lower() in s.text.lower() for a in need.anchors):
        return False
    field = s.text.split(" ", 1)[0].lower().rsplit(".", 1)[-1]
    if field == "status":
        return need.kind is AnswerKind.STATUS and bool(_ASKS_OWN_STATE.search(need.text))
    words = _FIELD_WORDS.get(field, frozenset())
    return bool(need.terms) and all(t.lower() in words for t in need.terms)


def _comparable_terms(need: Need, s: Statement, words: TermEquivalents | None) -> tuple[list[str], set[str]]:
    """The need's terms that can be looked for in `s`, and the reference event's words left out.

    "When do merchants get reminded *before the old one is revoked*": the later clause names the
    event the asked time is measured from; the answer may say it its own way ("14 days before the
    revocation") or not at all."""
    failure = failure_terms(need)  # "why did ORD-… fail": the cause line need not say `fail`
    failure |= stat_terms_said(need, s.text)  # "worst minute": said by "peaked at … at 14:20"
    checkable = [t for t in need.terms if _checkable(s, t, words) and term_weight(t) > 0 and t not in failure]
    reference = reference_event_words(need)
    if reference and any(t not in reference for t in checkable):
        return [t for t in checkable if t not in reference], reference
    return checkable, reference


def _states_case(text: str, category: str) -> bool:
    """Whether `text` states something of `category` itself — not of what is outside it (`非省会城市`,
    `省会以外`, `other than a holiday`)."""
    for m in re.finditer(re.escape(category), text, re.IGNORECASE):
        before, after = text[max(0, m.start() - 3) : m.start()], text[m.end() : m.end() + 6]
        if re.search(r"非|不是|除了?|not\s+(?:a|an|the)?\s*$", before) or re.match(
            r"\s*(?:以外|之外)", after
        ):
            continue
        return True
    return False


def _case_codes(need: Need, s: Statement, words: TermEquivalents | None) -> list[str]:
    """The case the question sets, when the statement itself does not say it: it answers the general
    rule, not the case asked about ("每天 100 元" for the day of departure, which the rule's next
    clause prices at 50 元)."""
    if not need.case_terms:  # most needs set no case: build the statement alone only when one does
        return []
    own = statement(s.text) if s.context or s.surround is not None else s
    reference = reference_event_words(need)  # "before the old key is revoked" sets no case
    unsaid = [
        t
        for t in need.case_terms
        if t not in reference and _checkable(s, t, words) and not _present(own, t, words)
    ]
    return ["need:case_unsaid:" + ",".join(unsaid)] if unsaid else []


def _modifies_shared(text: str, word: str, shared: set[str]) -> bool:
    """Whether `word` stands right before a word the question's other parts share ("merchant *signing*
    keys … how long do old and new keys both work"): it narrows the thing both parts are about, so
    a heading that says it (`Signing Key Rotation Runbook`) is enough."""
    at = text.lower().find(word.lower())
    if at < 0:
        return False
    rest = text[at + len(word) :].lstrip().lower()
    return any(other and not other[0].isdigit() and rest.startswith(other) for other in shared)


_EN_NEGATED = re.compile(
    r"\b(?:not|never|no\s+longer|n't)\s+(?:(?:be|been|being|at\s+all|really|even)\s+)?([a-z]{3,})",
    re.IGNORECASE,
)
_EN_NEGATION_BEFORE = re.compile(r"\b(?:not|never|no|n't|without|nor)\b[^,;.]{0,20}$", re.IGNORECASE)


def _same_stem(a: str, b: str) -> bool:
    """`moving` / `move`, `moved` / `moves`: the light stems, or one a prefix of the other (3+ letters)."""
    x, y = stem(a.lower()), stem(b.lower())
    short, long = sorted((x, y), key=len)
    return len(short) >= 3 and long.startswith(short) and len(long) - len(short) <= 1


def _polarity_conflicts(asked: str, said: str) -> list[str]:
    """English verbs the question negates (`are not moving`) that the statement states plainly."""
    if is_cjk_text(asked) or is_cjk_text(said):
        return []
    found: list[str] = []
    for m in _EN_NEGATED.finditer(asked):
        verb = m.group(1)
        for w in re.finditer(r"[A-Za-z]{3,}", said):
            if _same_stem(verb, w.group()) and not _EN_NEGATION_BEFORE.search(said[: w.start()]):
                found.append(verb)
                break
    return found


_WEEKDAY_NAMES: Final = frozenset(
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)
_DAY_CLASSES: Final = re.compile(
    r"工作日|周末|节假日|法定假日|每天|\b(?:weekdays?|weekends?|working\s+days?|business\s+days?|"
    r"public\s+holidays?|every\s+day)\b",
    re.IGNORECASE,
)


#: A question that puts its weekday in a class: the classes above, or a holiday or leave day.
_ASKED_DAY_CLASS: Final = re.compile(_DAY_CLASSES.pattern + r"|\bholidays?\b|假日|假期", re.IGNORECASE)


def _day_class_for(anchor: str, asked: str, s: Statement) -> bool:
    """`a holiday that fell on a Wednesday` under `工作日每天 100 元、节假日每天 200 元`: when the question
    itself puts the weekday in a class of days (a holiday, a weekend), a rule for classes of days
    speaks of it. A bare weekday ("on a Monday during a release freeze") stays a name to repeat."""
    return (
        anchor.lower().rstrip("s") in _WEEKDAY_NAMES
        and bool(_ASKED_DAY_CLASS.search(asked))
        and bool(_DAY_CLASSES.search(s.text))
    )


def _yes_no_outcome(need: Need, s: Statement, c: NeedCondition) -> str:
    """A condition's outcome; in a yes/no question, a figure exactly at a rule's strict bound
    ("5.0% 整" against `大于 5（%）`) or beyond a stated limit ("three hours" against `最长 2 小时`) is
    decided by that rule: it answers the question (no), so it is no other case."""
    outcome = condition_outcome(s, c)
    if (
        outcome == CONFLICT
        and need.kind is AnswerKind.YES_NO
        and (at_strict_bound(s, c) or exceeds_limit(s, c))
    ):
        return SATISFIED
    return outcome


def _condition_codes(outcomes: Sequence[tuple[NeedCondition, str]], *, yes_no: bool = False) -> list[str]:
    """A condition the statement contradicts, or a hard one it leaves unaddressed. In a yes/no
    question every figure is hard ("一笔 300 元的支付…会被拒掉吗" asks about 300 元: a sentence stating
    no amount does not say)."""
    return [
        f"need:condition_{'not_met' if o == CONFLICT else 'unaddressed'}:{c.text}"
        for c, o in outcomes
        if o == CONFLICT or (o == UNADDRESSED and (yes_no or _hard(c)))
    ]


def _mixed_quantities(need: Need, s: Statement, outcomes: Sequence[tuple[NeedCondition, str]]) -> bool:
    """A condition is met, yet a quantity of the statement conflicts with a quantity condition: the
    statement states other cases too."""
    return any(o == SATISFIED for _, o in outcomes) and any(
        c.kind is ConditionKind.QUANTITY and quantity_outcome(s, c, any_conflict=True) == CONFLICT
        for c in need.conditions
    )


def best_match(need: Need, statements: Sequence[Statement], **kw: TermEquivalents | None) -> NeedMatch | None:
    """The closest of `statements` to `need` (met first, then by score)."""
    matches = [match_need(need, s, equivalents=kw.get("equivalents")) for s in statements]
    return max(matches, key=lambda m: (m.met, m.score), default=None)

"""The offline executor's answer: for each question need, the evidence that meets it, said cleanly.

**Units** are what may be stated, each quoted verbatim from one evidence item:
- a document sentence, and — when it has several clauses (`…的，年假为 5 天；满 10 年的，…`) — each
  clause on its own, so the clause whose condition matches can be stated without the others (a
  sentence of more than two clauses is stated only clause by clause);
- a table row, stated as `header: cell` pairs and quoting both the header line and the row;
- a verified fact, whole (bulky point lists are not quoted);
- a metric's recovery (`verify.series`), when a need asks when a metric recovered: stated from the
  summary and the points facts, both cited.

Headings, lead-ins ending in `:` and fragments are never units; markdown (list markers, backticks,
bold, table pipes) is removed from what is said, never from what is quoted.

**Choosing**: the unit meeting the most still-unmet needs is taken first (`questions.coverage`;
ties go to the closer match and the question's words, then to a unit that states one case only,
then the shorter); then a "why" need gets up to two more records that meet it, and a "what to do"
need the next sentences of its passage that go on with the procedure (`If…`, `然后…`, with an action). Needs no unit meets are left
unanswered (the verifier lists them as gaps). When no need is met at all, the two units closest to
the question are stated, so that what is known can be shown with a disclaimer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from groundgate.compose.templates import templates
from groundgate.contracts import AnswerKind, ConditionKind, EvidenceType, Need, QuestionNeeds
from groundgate.questions import Statement, TermEquivalents, match_need, statement
from groundgate.questions.coverage import NeedMatch
from groundgate.questions.moments import asked_minutes
from groundgate.questions.needs import term_weight
from groundgate.questions.record_fields import asked_fields, named_orders, record_field
from groundgate.questions.record_sets import records_listed
from groundgate.questions.statements import adds_to_rule_before
from groundgate.questions.status_classes import asked_status_class
from groundgate.questions.window_stats import asked_stats
from groundgate.runtime.closest_statements import closest_for_unmet
from groundgate.runtime.log_lines import line_set_units
from groundgate.runtime.stat_answers import computed_for_unmet
from groundgate.runtime.window_stats import partial_summaries, window_stat_units
from groundgate.text.instructions import is_instruction_like
from groundgate.text.segmentation import Span, split_sentences
from groundgate.verify.evidence_items import BULKY_FACT_TYPES, EvidenceItem
from groundgate.verify.series import (
    RECOVERY_WORDS,
    find_point,
    find_recovery,
    plain,
    points_excerpt,
)

__all__ = ["Unit", "choose_units", "clean", "units_of"]

_MARKDOWN = re.compile(r"\*\*|__|`|^\s*(?:[-*•·]|\d{1,2}[.)、])\s+|^#+\s*")
_ENDS_CLAUSE = ("；", ";")
#: Clauses (`；`-joined) a whole sentence may have to be stated whole.
_MAX_CLAUSES = 2
_FULL_STOP = ("。", "！", "？", ".", "!", "?")
_BLOCK_START = re.compile(r"[ \t]*(?:[-*•·|#>]|\d{1,2}[.)、])")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}")
#: A sentence that goes on with a procedure ("If the shard size is normal, restart…", "然后…").
_NEXT_STEP = re.compile(
    r"\s*(?:if|then|otherwise|next|after|afterwards|finally|else|when|once|若|如果|然后|再|之后|随后|最后|否则|"
    r"如仍|仍然|其次|第[二三四五])",
    re.IGNORECASE,
)
_LABELLED = re.compile(r"\s*(?:[A-Z][A-Za-z-]*(?: [a-z][A-Za-z-]*){0,3}|[\u4e00-\u9fff]{2,8})[:：]\s*\S")
_ACTION = re.compile(
    r"应|需|须|必须|先|再|然后|检查|重启|扩容|回滚|联系|提交|执行|切换|调整|设置|通知|排查|"
    r"\b(?:should|must|need|first|then|check|restart|run|contact|split|scale|roll|increase|set|watch|"
    r"verify|escalate|switch|disable|enable|open|call)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One statement the executor may make, with what it quotes."""

    text: str
    """What is said (markdown removed)."""
    quotes: tuple[tuple[EvidenceItem, str], ...]
    """(item, excerpt) pairs, each excerpt verbatim from the item's `quote_text`."""
    order: int
    """Reading order over all evidence (earlier: better ranked)."""
    seq: int = -1
    """Position among the full sentences of its passage (for a procedure's next steps); -1 otherwise."""
    surround: str = ""
    """The sentence a clause was cut from, or a table row's header."""
    clause: bool = False
    """A clause cut from a longer sentence."""
    text_raw: str = ""
    """A whole sentence as it stands in the passage (what its clauses name as `surround`)."""
    case: bool = False
    """One comma-separated case of a Chinese sentence that states several (`_cases`); its
    `surround` is the sentence's lead-in only, never the other cases."""
    sentence: str = ""
    """For a case: the whole sentence it was cut from."""
    view: Statement = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        source = " ".join(dict.fromkeys(item.source for item, _ in self.quotes))
        object.__setattr__(self, "view", statement(self.text, source, self.surround))

    @property
    def item(self) -> EvidenceItem:
        return self.quotes[0][0]


def clean(text: str) -> str:
    """Say a quoted sentence plainly: markdown markers and backticks removed, spaces collapsed."""
    said = _MARKDOWN.sub("", text.strip())
    said = re.sub(r"\s+", " ", said).strip()
    if said.endswith(_ENDS_CLAUSE):
        said = said[:-1] + ("。" if said[-1] == "；" else ".")
    return said


def _quotable(item: EvidenceItem, start: int, end: int) -> bool:
    """Not blanked as an instruction, and the same text in what is read and what is quoted."""
    return item.text[start:end] == item.quote_text[start:end] and not is_instruction_like(
        item.text[start:end]
    )


def _continues(previous: Span, span: Span, text: str) -> bool:
    """Whether `span` goes on with the sentence of `previous`: after a `；` on the same line, or after
    a soft line break (a paragraph wrapped in the source, no list item or table row starting)."""
    between = text[previous.end : span.start]
    if previous.text.endswith(_ENDS_CLAUSE) and "\n" not in between:
        return True
    line_start = text.rfind("\n", 0, span.start) + 1
    starts_block = bool(_BLOCK_START.match(text, line_start))
    return (
        not previous.text.endswith(_FULL_STOP + _ENDS_CLAUSE)
        and between.count("\n") == 1
        and not between.strip()
        and not starts_block
    )


def _sentences(spans: Sequence[Span], text: str) -> list[list[Span]]:
    """Clause spans grouped into sentences (see `_continues`)."""
    groups: list[list[Span]] = []
    for span in spans:
        previous = groups[-1][-1] if groups else None
        joined = previous is not None and _continues(previous, span, text)
        if joined:
            groups[-1].append(span)
        else:
            groups.append([span])
    return groups


def _clauses(sentence: Sequence[Span]) -> list[tuple[int, int]]:
    """The `；`-separated clauses of a sentence, as (start, end): a wrapped line is no new clause."""
    clauses: list[tuple[int, int]] = []
    start: int | None = None
    for n, span in enumerate(sentence):
        start = span.start if start is None else start
        if span.text.endswith(_ENDS_CLAUSE) or n == len(sentence) - 1:
            clauses.append((start, span.end))
            start = None
    return clauses


def units_of(item: EvidenceItem, order: int) -> list[Unit]:
    """The units of one evidence item (module docs), numbered from `order`."""
    if item.evidence_type is EvidenceType.VERIFIED_FACT:
        if item.fact_type in BULKY_FACT_TYPES or is_instruction_like(item.quote_text):
            return []
        return [Unit(item.text, ((item, item.quote_text),), order)]
    units: list[Unit] = []
    table_lines = list(re.finditer(r"(?m)^[ \t]*\|.*\|[ \t]*$", item.text))
    table_spans = [(m.start(), m.end()) for m in table_lines]
    units += _table_units(item, table_lines, order)
    spans = [
        s
        for s in split_sentences(item.text)
        if not any(a <= s.start < b for a, b in table_spans)
        and not s.text.lstrip().startswith("#")
        and not s.text.rstrip().endswith((":", "："))
    ]
    seq = 0
    for sentence in _sentences(spans, item.text):
        start, end = sentence[0].start, sentence[-1].end
        whole = item.text[start:end]
        if len(whole) < 6 or not _quotable(item, start, end):
            continue
        clauses = _clauses(sentence)
        if len(clauses) <= _MAX_CLAUSES:
            # A longer run of clauses is stated clause by clause: a claim is checked against one or
            # two sentences of its evidence, and says one thing.
            quote = item.quote_text[start:end]
            units.append(Unit(clean(whole), ((item, quote),), order + len(units), seq, text_raw=whole))
            seq += 1
        if len(clauses) > 1:
            for c_start, c_end in clauses:
                if c_end - c_start >= 6 and _quotable(item, c_start, c_end):
                    said = clean(item.text[c_start:c_end])
                    quote = item.quote_text[c_start:c_end]
                    units.append(
                        Unit(said, ((item, quote),), order + len(units), surround=whole, clause=True)
                    )
        units += _case_units(item, start, end, order + len(units))
    return units


def _case_units(item: EvidenceItem, start: int, end: int, order: int) -> list[Unit]:
    """The cases of the sentence `item.text[start:end]` (`_cases`, or an English listing of values
    for several things, `_listed_cases`), each a unit of its own."""
    whole = item.text[start:end]
    cases = _cases(item.text, start, end)
    if cases:
        lead_in = item.text[start : cases[0][0]]
        return [
            Unit(
                clean(item.text[a:b]),
                ((item, item.quote_text[a:b]),),
                order + n,
                surround=lead_in,
                clause=True,
                case=True,
                sentence=whole,
            )
            for n, (a, b) in enumerate((a, b) for a, b in cases if _quotable(item, a, b))
        ]
    listed = _listed_cases(item.text, start, end)
    if not listed:
        return []
    lead_end, cases = listed
    lead_in = item.text[start:lead_end].strip()
    units: list[Unit] = []
    for a, b in cases:
        if not _quotable(item, a, b) or (lead_in and not _quotable(item, start, lead_end)):
            continue
        # An English case needs the lead-in to be a sentence ("Normal values are" + "below 200 for
        # order-settlement"): both are quoted, as a table row quotes its header.
        quotes: tuple[tuple[EvidenceItem, str], ...] = (
            ((item, item.quote_text[start:lead_end].strip()),) if lead_in else ()
        ) + ((item, item.quote_text[a:b]),)
        said = clean(f"{lead_in} {item.text[a:b]}" if lead_in else item.text[a:b])
        units.append(
            Unit(
                said if said.endswith(_FULL_STOP) else said + ".",
                quotes,
                order + len(units),
                surround=lead_in,
                clause=True,
                case=True,
                sentence=whole,
            )
        )
    return units


#: A comma-separated piece of a Chinese sentence that states one case with its own figure (English
#: commas also separate list items and asides, so English sentences are not cut this way).
_CASE_SPLIT = re.compile(r"[，；：]\s*")
_CASE_FIGURE = re.compile(r"\d")
_CASE_WORDS = re.compile(r"[A-Za-z\u4e00-\u9fff]{2}")


def _cases(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The comma-separated pieces of `text[start:end]` when two or more of them state a figure
    (`借记卡一般 1 到 3 个工作日到账，信用卡一般 3 到 7 个工作日…`): each piece with a figure is one
    case, stated on its own so that the asked case is said without the others."""
    pieces: list[tuple[int, int]] = []
    at = start
    for sep in _CASE_SPLIT.finditer(text, start, end):
        pieces.append((at, sep.start()))
        at = sep.end()
    pieces.append((at, end))
    cases = [
        (a, b)
        for a, b in pieces
        if b - a >= 6
        and _CASE_FIGURE.search(text, a, b)
        and _CASE_WORDS.search(text[a:b])
        and text.count("（", a, b) == text.count("）", a, b)
        and text.count("(", a, b) == text.count(")", a, b)
    ]
    if len(cases) < 2 or len(pieces) < 3 or not re.search("[\u4e00-\u9fff]", text[start:end]):
        return []  # one case (or two halves of one clause): the sentence and its clauses say it
    return cases


#: An English listing of values for several things ("below 100 messages for notify-payment-events and
#: below 200 for order-settlement"): its pieces are split at commas (not a thousands separator),
#: semicolons and `and`; a case is a piece with a figure followed by `for` and what it is for.
_LIST_SPLIT = re.compile(r",(?!\d{3}(?!\d))\s*(?:and\s+)?|;\s*|\s+and\s+")
_LISTED = re.compile(
    r"(?:(?:below|above|under|over|up to|at most|at least|less than|more than|about|around|~)\s+)?"
    r"(?<![\d,.])\d[\d,.]*[^,;]*?\bfor\s+(?:the\s+)?[\w`*]",
    re.IGNORECASE,
)


def _listed_cases(text: str, start: int, end: int) -> tuple[int, list[tuple[int, int]]] | None:
    """(Where the lead-in ends, the cases) of an English sentence that lists values for several
    things in adjacent pieces (`_LISTED`), or None. The lead-in is what the first piece says before
    its value ("Normal values are"); a piece without a figure between two cases (`for A and B`) leaves
    the sentence whole, since a case would then drop a thing its value is for."""
    if re.search("[\u4e00-\u9fff]", text[start:end]):
        return None
    pieces: list[tuple[int, int]] = []
    joins: list[str] = []
    at = start
    for sep in _LIST_SPLIT.finditer(text, start, end):
        pieces.append((at, sep.start()))
        joins.append(sep.group().strip())
        at = sep.end()
    pieces.append((at, end))
    found = [(a, b, _LISTED.search(text, a, b)) for a, b in pieces]
    listed = [n for n, (_, _, m) in enumerate(found) if m]
    if len(listed) < 2 or listed != list(range(listed[0], listed[-1] + 1)):
        return None
    if listed[-1] + 1 < len(pieces) and joins[listed[-1]] == "and":
        return None  # "… 2,000 for B and C": the last value is for both
    # The first piece's lead-in is not part of its case ("Normal values are | below 100 … for …").
    lead_end = next(m.start() for _, _, m in found if m) if listed[0] == 0 else pieces[listed[0]][0]
    cases = [(lead_end if n == listed[0] else pieces[n][0], pieces[n][1]) for n in listed]
    return lead_end, [(a, b) for a, b in cases if b - a >= 6]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_units(item: EvidenceItem, lines: Sequence[re.Match[str]], order: int) -> list[Unit]:
    """One unit per table row: `header: cell` pairs, quoting the header line and the row."""
    units: list[Unit] = []
    header: re.Match[str] | None = None
    previous_end = -1
    for line in lines:
        if header is None or item.text[previous_end : line.start()].strip():
            header, previous_end = line, line.end()  # a new table starts with its header
            continue
        previous_end = line.end()
        if _TABLE_RULE.match(line.group().strip()):
            continue
        names, cells = _cells(header.group()), _cells(line.group())
        if len(names) != len(cells) or not _quotable(item, line.start(), line.end()):
            continue
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in header.group())
        said = ("，" if zh else "; ").join(
            f"{n}{'：' if zh else ': '}{c}" for n, c in zip(names, cells, strict=True)
        )
        quotes = (
            (item, item.quote_text[header.start() : header.end()].strip()),
            (item, item.quote_text[line.start() : line.end()].strip()),
        )
        units.append(Unit(clean(said), quotes, order + len(units), surround=header.group()))
    return units


# --------------------------------------------------------------------------- metric recovery


def _recovery_units(evidence: Sequence[EvidenceItem], need: Need, zh: bool, order: int) -> list[Unit]:
    """A recovery statement per metric series whose points show one (see `verify.series`)."""
    word = next((t for t in need.terms if any(w in t.lower() for w in RECOVERY_WORDS)), "")
    if not word:
        return []
    summaries = {i.citation_id: i for i in evidence if i.fact_type == "metric.summary"}
    units: list[Unit] = []
    for points in (i for i in evidence if i.fact_type == "metric.points"):
        summary = summaries.get(points.citation_id.removesuffix(":points"))
        value = points.value if isinstance(points.value, dict) else None
        if summary is None or value is None or not isinstance(summary.value, dict):
            continue
        recovery = find_recovery(value)
        if recovery is None:
            continue
        s = summary.value
        labels = ",".join(f"{k}={v}" for k, v in dict(s.get("labels") or {}).items())
        series = f"{s.get('name')}{{{labels}}}"
        peak, peak_at = plain(float(s.get("max", recovery.peak))), str(s.get("max_at", ""))[11:16]
        text = templates("zh-CN" if zh else "en").metric_recovery.format(
            series=series,
            day=recovery.day,
            peak_at=peak_at,
            peak=peak,
            at=recovery.at,
            value=plain(recovery.value),
            verb=word if word in RECOVERY_WORDS else "恢复",
        )
        quotes = ((summary, summary.quote_text), (points, points_excerpt(recovery)))
        units.append(Unit(text, quotes, order + len(units)))
    return units


def _point_units(evidence: Sequence[EvidenceItem], need: Need, zh: bool, order: int) -> list[Unit]:
    """The value of each cited series at the minute a question asks ("what was the success rate at
    14:12?"): the raw point stamped with that minute, quoted from the points fact (`verify.series`).
    A series' summary over a window is not the value at one of its minutes."""
    minutes = asked_minutes(need)  # both halves of the day for `2点08分` (no daypart said)
    if not minutes:
        return []
    day = next((c.value for c in need.conditions if c.kind is ConditionKind.DATE), None)
    units: list[Unit] = []
    for points in (i for i in evidence if i.fact_type == "metric.points"):
        value = points.value if isinstance(points.value, dict) else None
        found = (find_point(value, minute, day) for minute in minutes) if value is not None else iter(())
        point = next((p for p in found if p is not None), None)
        if value is None or point is None:
            continue
        labels = ",".join(f"{k}={v}" for k, v in dict(value.get("labels") or {}).items())
        text = templates("zh-CN" if zh else "en").metric_point.format(
            series=f"{value.get('name')}{{{labels}}}",
            day=point.day,
            at=point.at,
            value=plain(point.value),
        )
        units.append(Unit(text, ((points, points_excerpt(point)),), order + len(units)))
    return units


# --------------------------------------------------------------------------- choosing


@dataclass(slots=True)
class _Scored:
    unit: Unit
    matches: dict[str, NeedMatch]
    bonus: float


_END = "。.；;，, "


def choose_units(
    needs: QuestionNeeds,
    evidence: Sequence[EvidenceItem],
    *,
    relevance: Callable[[Unit], float],
    keep: Callable[[Unit], bool],
    max_claims: int,
    equivalents: TermEquivalents | None = None,
) -> list[Unit]:
    """The units that answer `needs` (module docs). `relevance` scores a unit against the question's
    words; `keep` vetoes one (e.g. a passage a higher authority contradicts)."""
    zh = needs.language == "zh-CN"
    units: list[Unit] = []
    together: list[set[str]] = []
    computed: dict[str, list[str]] = {}  # need id → the texts of the statistics computed for it
    # Session 30: a window statistic asked, a series read in chunks: no chunk's summary is the whole.
    partial = partial_summaries(evidence) if any(asked_stats(n) for n in needs.needs) else set()
    for item in evidence:
        # An order set is stated by its summary line alone (`_order_set_units`), not its raw fields.
        if item.citation_id not in partial and item.fact_type != "order.set":
            units += units_of(item, len(units))
    for need in needs.needs:
        if need.kind is AnswerKind.TIME:
            units += _recovery_units(evidence, need, zh, len(units))
        units += _point_units(evidence, need, zh, len(units))
        # Session 30: a statistic over a window (peak, first/last minute over a threshold, back under).
        # … and the log lines of one kind as a set (how many, the first and the last).
        stats = window_stat_units(evidence, need, zh, [*need.terms, *_other_words(needs, need)])
        if len(stats) > 1 and asked_status_class(need.text) is not None:
            together.append({text for text, _ in stats})  # "5xx": each code's figure, all of them
        stated = [*stats, *line_set_units(evidence, need, needs.resolved_question, zh)]
        if not partial:
            # A series read whole has its summary among the units: a statistic whose figures it already
            # states (`max 0.184 at 09:20`) would only take the place of another statement (an alert
            # diagnosis' log line showing the cause).
            stated = [(text, quotes) for text, quotes in stated if not _already_said(text, units)]
        units += [Unit(text, quotes, len(units) + n) for n, (text, quotes) in enumerate(stated)]
        computed[need.id] = [text for text, _ in stats]
    sets = _order_set_units(evidence, len(units))
    units += sets
    scored = [
        _Scored(u, {n.id: match_need(n, u.view, equivalents=equivalents) for n in needs.needs}, relevance(u))
        for u in units
    ]
    _prefer_cases(scored)
    verdicts: dict[int, bool] = {}

    def allowed(s: _Scored) -> bool:
        # `keep` may be costly (an authority comparison): asked only of what would be stated.
        if id(s) not in verdicts:
            verdicts[id(s)] = keep(s.unit)
        return verdicts[id(s)]

    chosen: list[_Scored] = []
    unmet = {n.id for n in needs.needs}
    while unmet and len(chosen) < max_claims:
        ranked = sorted((s for s in scored if s not in chosen), key=lambda s: _rank(s, unmet), reverse=True)
        best = next(
            (s for s in ranked if any(s.matches[n].met for n in unmet) and allowed(s)),
            None,
        )
        if best is None:
            break
        served = {n for n in unmet if best.matches[n].met}
        best = _narrowest(best, served, needs, scored, allowed)
        chosen.append(best)
        unmet -= served
    for need in needs.needs:
        chosen += [s for s in _extras(need, scored, chosen, max_claims - len(chosen)) if allowed(s)]
    # Session 34: a part nothing chosen meets gets its closest on-topic statement (`closest_statements.py`).
    chosen += closest_for_unmet(needs, scored, chosen, allowed, max_claims - len(chosen))
    if not chosen:
        on_topic = [s for s in scored if any(m.on_topic for m in s.matches.values())]
        on_topic.sort(key=lambda s: (-(max(m.score for m in s.matches.values()) + s.bonus), s.unit.order))
        chosen = [s for s in on_topic if allowed(s)][:2]
    for group in together:  # Session 31: one code of a status class stated, every code of it is
        if any(s.unit.text in group for s in chosen):
            chosen += [s for s in scored if s.unit.text in group and s not in chosen and allowed(s)]
    chosen += [s for s in computed_for_unmet(needs, scored, chosen, computed) if allowed(s)]
    # Session 30 (tune22): the asked fields of a named record, beside whatever else is stated.
    chosen += [s for s in _asked_record_fields(needs, scored, chosen) if allowed(s)]
    for need in needs.needs:  # Session 31: each record of an asked set, one read line each
        listed = [scored[n] for n in records_listed(need, [s.unit.text for s in scored])]
        chosen += [s for s in listed if s not in chosen and allowed(s)]
    # Session 31 round 5: the orders counted by the order store, stated as its summary line.
    chosen += [s for s in scored if any(s.unit is u for u in sets) and s not in chosen and allowed(s)]
    units = [s.unit for s in sorted(chosen, key=lambda s: s.unit.order)]
    # A clause cut from a sentence that is stated whole says nothing more: state it once.
    kept: list[Unit] = []
    for u in units:
        core = u.text.rstrip(_END)
        longer = any(core in o.text and len(o.text.rstrip(_END)) > len(core) for o in units)
        if not longer and all(k.text.rstrip(_END) != core for k in kept):
            kept.append(u)
    return kept


def _order_set_units(evidence: Sequence[EvidenceItem], order: int) -> list[Unit]:
    """Each `order.set` fact's summary line (`25 orders (created …): 21 PAID …`), quoted whole."""
    units: list[Unit] = []
    for item in evidence:
        summary = item.value.get("summary") if isinstance(item.value, dict) else None
        if item.fact_type == "order.set" and isinstance(summary, str) and summary in item.quote_text:
            units.append(Unit(summary, ((item, summary),), order + len(units)))
    return units


def _asked_record_fields(
    needs: QuestionNeeds, scored: Sequence[_Scored], chosen: list[_Scored]
) -> list[_Scored]:
    """The fields of the orders a need names that it asks by name and nothing stated says yet.

    "What's its current status, amount and channel" is one need no single field meets, so the fields
    were read and left unsaid: each is a verified fact of the record, stated beside the rest. Only the
    records the need itself names (or takes over from an earlier turn) and only the fields it asks."""
    said = " ".join(c.unit.text for c in chosen)
    extra: list[_Scored] = []
    for need in needs.needs:
        orders, fields = named_orders([need.text, *need.anchors]), asked_fields(need.text)
        if not orders or not fields:
            continue
        for s in scored:
            field = record_field(s.unit.text)
            if field is None or s in chosen or s in extra:
                continue
            order, name, value = field
            if order in orders and name in fields and value not in said:
                extra.append(s)
                said += " " + s.unit.text
    return extra


def _other_case(match: NeedMatch) -> bool:
    """Whether a case that does not meet a need answers the same question for something else."""
    if match.met or any(code.startswith("need:kind_missing") for code in match.codes):
        return False
    missing = [
        term
        for code in match.codes
        if code.startswith("need:terms_missing:")
        for term in code.split(":", 2)[2].split(",")
    ]
    # Another name, qualifier or range, or the asked noun missing.
    return match.names_another_case or any(term_weight(term) == 2 for term in missing if term)


def _prefer_cases(scored: Sequence[_Scored]) -> None:
    """Cases cut from one sentence (`借记卡…，信用卡…`) against each need: when some meet it and
    others do not, the sentence states other cases too, so it and its clauses that hold an unmet
    case no longer meet the need and the meeting case is stated alone; otherwise (every case
    meets, or none) the sentence says it better and the cases are not stated."""
    by_sentence: dict[str, list[_Scored]] = {}
    for s in scored:
        if s.unit.case:
            by_sentence.setdefault(s.unit.sentence, []).append(s)
    for sentence, cases in by_sentence.items():
        wholes = [
            s
            for s in scored
            if not s.unit.case and sentence in (s.unit.text_raw if s.unit.seq >= 0 else s.unit.surround)
        ]
        for need_id in cases[0].matches:
            # Another case gives the asked kind of answer for something else (`借记卡…1 到 3 个
            # 工作日` for a credit-card question); a piece without it (`P3 告警在下一个工作日处理`
            # for "how long") is no competing case.
            failing = [c.unit for c in cases if _other_case(c.matches[need_id])]
            if not failing or not any(c.matches[need_id].met for c in cases):
                for c in cases:
                    c.matches[need_id] = replace(c.matches[need_id], met=False)
                continue
            for w in wholes:
                # What a case quotes last is its own piece (an English case says its lead-in too).
                if w.matches[need_id].met and any(
                    f.text in w.unit.text or f.quotes[-1][1] in w.unit.quotes[-1][1] for f in failing
                ):
                    w.matches[need_id] = replace(w.matches[need_id], met=False, mixed=True)


#: Needs answered by one fact: a clause that states it is better than the sentence around it
#: ("P2 告警要求 15 分钟内确认" rather than the whole P1/P2/P3 sentence).
_FACT_KINDS = frozenset(
    {
        AnswerKind.QUANTITY,
        AnswerKind.TIME,
        AnswerKind.PERSON,
        AnswerKind.CHOICE,
        AnswerKind.STATUS,
        AnswerKind.LOCATION,
        AnswerKind.YES_NO,
    }
)


def _narrowest(
    best: _Scored,
    served: set[str],
    needs: QuestionNeeds,
    scored: Sequence[_Scored],
    allowed: Callable[[_Scored], bool],
) -> _Scored:
    """A clause of `best` that meets every need `best` was chosen for, when those ask for facts."""
    kinds = {n.kind for n in needs.needs if n.id in served}
    if not kinds <= _FACT_KINDS:
        return best
    # A whole sentence narrows to any of its parts; a clause to the cases inside it.
    sentence = best.unit.text_raw if best.unit.seq >= 0 else best.unit.surround
    if not sentence:
        return best
    clauses = [
        s
        for s in scored
        if s.unit.clause
        and s is not best
        and s.unit.surround == sentence
        and len(s.unit.text) < len(best.unit.text)
        and s.unit.text.rstrip("。.") in best.unit.text
        and all(s.matches[n].met for n in served)
        and allowed(s)
    ]
    return max(
        clauses, key=lambda s: (sum(s.matches[n].score for n in served), -len(s.unit.text)), default=best
    )


def _rank(s: _Scored, unmet: Iterable[str]) -> tuple[int, float, int, float, int]:
    """Most needs met, then closest to them, then stating one case only, then closest to the
    question's words (which count only within one language, so they only break ties), then first
    (a whole sentence comes before its clauses, so a clause is taken only when the sentence also
    states other cases)."""
    met = [s.matches[n] for n in unmet if s.matches[n].met]
    return (
        len(met),
        sum(m.score for m in met),
        -sum(m.mixed for m in met),
        s.bonus,
        -s.unit.order,
    )


def _extras(need: Need, scored: Sequence[_Scored], chosen: list[_Scored], room: int) -> list[_Scored]:
    """More of what a "why" or "what to do" need is answered by (module docs)."""
    if room <= 0 or not any(s.matches[need.id].met for s in chosen):
        return []
    extra: list[_Scored] = []
    if need.kind is AnswerKind.REASON:
        others = sorted(
            (
                s
                for s in scored
                if s not in chosen and s.matches[need.id].met and not s.matches[need.id].mixed
            ),
            key=lambda s: (-(s.matches[need.id].score + s.bonus), s.unit.order),
        )
        texts = {c.unit.text for c in chosen}
        for s in others:
            if len(extra) >= min(2, room):
                break
            if s.unit.text not in texts and not any(s.unit.text in t or t in s.unit.text for t in texts):
                extra.append(s)
                texts.add(s.unit.text)
    elif need.kind is AnswerKind.PROCEDURE:
        first = next(s for s in chosen if s.matches[need.id].met)
        # Labelled items ("Clock skew: … Key version: … must …") are a list of steps like "then …".
        labelled = bool(_LABELLED.match(first.unit.text))
        follows = [
            s
            for s in scored
            if s.unit.item is first.unit.item
            and first.unit.seq >= 0
            and first.unit.seq < s.unit.seq <= first.unit.seq + 2
            and (_NEXT_STEP.match(s.unit.text) or (labelled and _LABELLED.match(s.unit.text)))
            and _ACTION.search(s.unit.text)
            and s not in chosen
        ]
        extra = sorted(follows, key=lambda s: s.unit.seq)[:room]
    for c in chosen:
        if len(extra) >= room or not (c.matches[need.id].met and adds_to_rule_before(c.unit.text)):
            continue
        # "10,000 元以上还需财务 VP 审批": what it adds to is the rule just before it, stated with it.
        if c.unit.clause:  # the clause before it in the same sentence
            earlier = [
                s
                for s in scored
                if s.unit.clause and s.unit.surround == c.unit.surround and s.unit.order < c.unit.order
            ]
            before = [max(earlier, key=lambda s: s.unit.order)] if earlier else []
        else:
            before = [s for s in scored if s.unit.item is c.unit.item and s.unit.seq == c.unit.seq - 1 >= 0]
        extra += [s for s in before if s not in chosen and s not in extra]
    return extra


_FIGURE = re.compile(r"\d+(?:[.:]\d+)?")


def _already_said(text: str, units: list[Unit]) -> bool:
    """Whether one unit already states every figure of `text` (a summary's `max 0.184 at 09:20` for
    "峰值为 0.184，出现在 09:20")."""
    figures = set(_FIGURE.findall(text))
    return bool(figures) and any(figures <= set(_FIGURE.findall(u.text)) for u in units)


def _other_words(needs: QuestionNeeds, need: Need) -> list[str]:
    """The names and words of the question's other parts (Session 31: they may tell apart the sibling
    series a window statistic's need names alike)."""
    return list(dict.fromkeys(w for n in needs.needs if n.id != need.id for w in (*n.anchors, *n.terms) if w))

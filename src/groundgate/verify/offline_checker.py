"""The offline checker: classifies claims against context passages without any model.

For each claim it finds the best-supporting evidence window (one or two adjacent sentences of a
passage) by weighted lexical recall — jieba words and character bigrams for Chinese, lightly
stemmed words for English — then runs the deterministic fidelity checks (numbers, dates,
comparators, negation, versions, identifiers) against that window and the whole context.

Categories (seed 000):
- `contradicted`: a deterministic fidelity conflict (fabricated identifier, changed number, flipped
  negation or comparator, shifted date, other version);
- `direct_evidence`: one window states (nearly) everything the claim says;
- `indirect_support`: the claim is largely covered, but by a weaker window or scattered across the
  context;
- `no_evidence`: the context does not cover what the claim says (or it names entities the context
  never mentions).

Cost: near-linear in the input. The context is analysed once per check (`ContextIndex`: sentences,
words and bigram postings; the fidelity index of the whole context) and each claim looks its
candidate windows up instead of scoring every window, so a 200,000-character context with a
20,000-character answer checks in about a second rather than minutes. A `Deadline` stops the check
between claims; what it did not reach is `no_evidence` with reason `budget:time_exceeded`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from groundgate.contracts import EvidenceSpan, FactCategory
from groundgate.errors import OutOfTimeError
from groundgate.text.segmentation import Span, is_cjk_text, normalize, split_sentences, tokenize
from groundgate.verify import fidelity, record_rows, records
from groundgate.verify.actors import actor_swaps
from groundgate.verify.alignment import anchor_coverage, anchors, entity_swaps
from groundgate.verify.antonyms import negated_in, opposite_pairs
from groundgate.verify.assessment import ClaimAssessment, Classification, UnitAssessment
from groundgate.verify.budget import BUDGET_TIME_EXCEEDED, BUDGET_TOO_MANY_MENTIONS, Deadline
from groundgate.verify.causes import cause_phrases
from groundgate.verify.claims import key_decision, split_units
from groundgate.verify.contradictions import dropped_negation, triage
from groundgate.verify.list_items import unlisted_items
from groundgate.verify.measures import Measure, is_modifier, measure_support, unit_score
from groundgate.verify.org_swaps import organisation_swaps
from groundgate.verify.roles import role_name_findings
from groundgate.verify.stated_apart import stated_apart
from groundgate.verify.swaps import added_alternatives, exclusive_swaps, states_exclusive_value
from groundgate.verify.synonyms import readable
from groundgate.verify.turned_round import turned_round
from groundgate.verify.waived import waived_obligations
from groundgate.verify.windows import (
    DISCOURSE,
    MAX_EXCERPT_CHARS,
    ContextIndex,
    Support,
    weighted,
)
from groundgate.verify.worked_figures import vetted_figures


@dataclass(frozen=True, slots=True)
class CheckerThresholds:
    """Support thresholds of the offline checker (configurable via `verifier.*` settings).

    Support is the weighted share of a claim's content words (and, for Chinese, character
    bigrams) found in one evidence window. The defaults were chosen on the project's own dev set
    (`tests/data/check_dev.jsonl`, see docs/benchmarks.md): paraphrasing answers rarely reach high
    lexical support, while the decisive hallucination signals are the deterministic fidelity
    conflicts, so the support bars are moderate.
    """

    direct: float = 0.5
    """Best-window support at or above this is `direct_evidence` (Chinese claims; see `direct_latin`)."""
    direct_latin: float = 0.65
    """The same bar for a claim in Latin script. Its support counts words only, where a Chinese
    claim's averages words with character bigrams, so the two scales differ; set per language on the
    `tune` splits (docs/benchmarks.md)."""
    indirect: float = 0.3
    """Best-window support at or above this (or scattered support at `scattered`) is `indirect_support`."""
    scattered: float = 0.85
    """Support over the whole context that still counts as indirect support."""
    alignment_for_polarity: float = 0.7
    """Negation/comparator flips count only against a window at least this well aligned."""
    alignment_for_polarity_long: float = 0.85
    alignment_for_unit_polarity: float = 0.6
    """A clause of a compound claim: its own short window, aligned at least this well, places a negation
    it drops (a clause of its own is read at lower alignment than a whole sentence)."""
    """The same bar for a window longer than `short_window_chars` (a news or narrative sentence with
    several clauses). Tuned on the `tune` splits: a flip read off a loosely aligned long sentence is
    more often a paraphrase ("no one has claimed" / "no group has claimed") than a lie; 0.85 raised
    HaluSum's REJECT precision from 0.53 to 0.64 at the same balanced accuracy, while short rules
    ("超标部分需部门总监审批" → "无需审批") keep the 0.7 bar."""
    alignment_for_values: float = 0.5
    """A changed number or currency is a contradiction only against a window at least this well
    aligned; below it the figure is `no_evidence` (still flagged, never REJECT). Tuned on the
    `tune` splits: REJECT precision rose on every set at the same balanced accuracy."""
    short_window_chars: int = 120
    polarity_window_chars: int = 300
    """Negation/comparator flips count only against a window at most this long."""
    unit_scattered: float = 0.6
    """A clause of a compound claim with less window support is still supported when this share of
    its words occurs somewhere in the context (a clause is short; its words may sit in two sentences)."""
    cause_words: float = 0.75
    """A cause the claim gives (`因为…`, `driven by…`) needs this weighted share of its words somewhere
    in the context; an invented reason shares none of them."""
    cross_direct: float = 0.75
    """Across languages: the share of a claim's anchors (lexicon concepts, figures) one window must
    have for `direct_evidence`."""


# Mentions that name something (or state a literal figure) and must co-occur in the evidence.
# Figures count only when written with digits: spelled numbers (`一年`, `three`) are too common.
_FIGURE_KINDS = frozenset({"amount", "percent", "duration", "size", "version", "date"})
_DIGITS = re.compile(r"[0-9０-９]")

_PROPER_NOUN = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")

#: Days and months are capitalised but name no entity: a claim's "on Saturday" is a time, checked by
#: the date rules, and does not have to share a window with the claim's names.
_CALENDAR_WORDS = frozenset(
    {
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december"),
    }
)


class OfflineChecker:
    """Model-free claim classifier: lexical support plus deterministic fidelity checks."""

    honours_deadline = True
    """Stops at a `deadline` (see `groundgate.verify.assessment.classify_within`)."""

    def __init__(self, thresholds: CheckerThresholds | None = None) -> None:
        self.thresholds = thresholds or CheckerThresholds()

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> Classification:
        """Assess each claim; past `deadline` the claims not yet assessed are `no_evidence`."""
        # Claims and context in different languages: fold English lexicon terms too, and judge only
        # what survives translation (see `_cross_language`).
        sample = "".join(_as_read(p[:2_000]) for p in passages[:20])
        context_cjk = is_cjk_text(sample)
        # A log, metric summary or JSON record with Chinese messages is mostly Latin letters (keys,
        # series names, hosts), yet a Chinese claim over it is read in its own language: its words
        # are there to be found. Only a context with next to no Chinese makes a Chinese claim cross.
        some_cjk = context_cjk or is_cjk_text(sample, threshold=_SOME_CJK)
        cross = bool(passages) and any(_crosses(is_cjk_text(c.text), context_cjk, some_cjk) for c in claims)
        # A Chinese claim over a mostly Latin context with some Chinese (`请求` over
        # `http_requests_total`): English lexicon terms are folded too, though the claim is read in
        # its own language.
        mixed = cross or (some_cjk and not context_cjk and any(is_cjk_text(c.text) for c in claims))
        try:
            index = ContextIndex.build(passages, deadline, cross_language=mixed)
        except OutOfTimeError:
            return _out_of_time([], claims)
        index.context_cjk = context_cjk
        index.context_some_cjk = some_cjk
        # The fidelity checks compare every claim with the whole context: index it once per check
        # (a long context is deliberately not cached across checks, see `fidelity.index_evidence`).
        evidence = fidelity.index_evidence(index.fidelity_text)
        question_tokens = set(tokenize(question)) if question else set()
        assessments: list[ClaimAssessment] = []
        seen: dict[str, tuple[ClaimAssessment, int]] = {}  # a repeated sentence is assessed once
        shown: list[str] = []  # the supported sentences so far: operands of a later worked figure
        for n, claim in enumerate(claims):
            if deadline is not None and deadline.expired():
                return _out_of_time(assessments, claims[n:])
            found = seen.get(claim.text)
            if found is None:
                earlier = "\n".join(shown[-_EARLIER_SENTENCES:]) or None
                assessment = self._assess(claim, index, evidence, question, question_tokens, earlier)
                seen[claim.text] = (assessment, claim.start)
            else:  # the same sentence elsewhere in the answer: its clauses move with it
                assessment = found[0].shifted(claim.start - found[1])
            if assessment.category in _SHOWN:
                shown.append(claim.text)
            assessments.append(assessment)
        return Classification(assessments)

    # ------------------------------------------------------------------ one claim

    def _assess(
        self,
        span: Span,
        index: ContextIndex,
        evidence: fidelity.EvidenceIndex,
        question: str | None,
        question_tokens: set[str],
        earlier: str | None = None,
    ) -> ClaimAssessment:
        t = self.thresholds
        claim = span.text
        decision = key_decision(claim)
        reasons: list[str] = [decision.reason]
        measure = measure_support(claim, index)
        best, tokens = measure.best, measure.tokens
        cjk = is_cjk_text(claim)
        novel = self._novel_terms(tokens, index)
        novel_entities = [] if cjk or index.cross_language else self._novel_entities(claim, novel)
        apart = self._names_apart(claim, cjk, index)

        key, reasons[0] = _key_for_question(decision.key, decision.reason, measure, question_tokens, t)

        evidence_spans, aligned, fields = _window_evidence(best, index)
        issues = fidelity.check_claim(claim, aligned, evidence, question=question, earlier=earlier)
        cross = index.cross_language and _crosses(
            is_cjk_text(claim), index.context_cjk, index.context_some_cjk
        )
        # A negation or comparator flip is read off the aligned window: only a well aligned, short
        # one (a rule, not a news paragraph with several clauses) places the cue reliably.
        window_chars = len(best.window.text) if best.window is not None else 0
        short = window_chars <= t.short_window_chars
        polarity_bar = t.alignment_for_polarity if short else t.alignment_for_polarity_long
        # A question asserts no polarity ("So why doesn't the plan do more with nuclear power?").
        polarity_ok = (
            best.score >= polarity_bar
            and window_chars <= t.polarity_window_chars
            and decision.reason != "not_key:question"
        )
        # A changed figure is read off the window too: against a loosely aligned one (a different
        # sentence of a news story) it is unshown, not contradicted; both are flagged, only REJECT
        # must be certain.
        # A record is aligned by its fields, not by its prose: its values are compared as they are.
        # A short window (a rule: "一线城市每晚不超过 600 元") places a figure reliably at any support.
        value_ok = best.score >= t.alignment_for_values or short or bool(fields)
        applied, rows = _tiers(claim, best, index)
        if applied:  # the case the claim answers for (`满12年`), not a figure the evidence states
            issues = [i for i in issues if i.claim_mention != applied]
        contradictions, unjudged = triage(
            claim,
            issues,
            polarity_ok,
            cross,
            index,
            value_ok,
            best.score >= t.alignment_for_values,
            best.window.text if best.window is not None else "",
            bool(fields),
        )
        if not cross:
            elsewhere = stated_apart(
                claim,
                aligned,
                evidence,
                index.all_text,
                check_figures=not unjudged and best.score >= t.alignment_for_values,
            )
            elsewhere += ["condition_row:" + ",".join(rows[:3])] if rows else []
            unjudged = unjudged or bool(elsewhere)
            reasons.extend(elsewhere)
        # A figure the paraphrase worked out (`2,500 fewer`, `8 千元` for 8000 元) that the fidelity
        # checks accepted is no word the context lacks: support is measured on the rest.
        vetted = vetted_figures(claim, novel, issues, index.canonical)
        if vetted:
            measure = measure_support(claim, index, skip=vetted)
            best, novel = measure.best, [word for word in novel if word not in vetted]
        reasons.extend(f"fidelity:{issue.code}" for issue in issues)
        reasons.append(f"support:{best.score:.2f}")
        if novel:
            reasons.append("novel_terms:" + ",".join(readable(word, claim) for word in novel[:5]))
        if novel_entities:
            reasons.append("unsupported_entity:" + ",".join(novel_entities[:3]))
        units = self._units(span, index, fields, contradictions, vetted, evidence)
        field_conflicts = [code for u in units for code in u.reason_codes if code.startswith("record:")]
        reasons.extend(dict.fromkeys(field_conflicts))

        if contradictions or field_conflicts:
            # A contradiction is always a key fact, whatever its form (advice, hedge, imperative).
            details = [issue.detail for issue in contradictions]
            details += [
                f"The record states the field '{c.split(':', 2)[2]}' the other way." for c in field_conflicts
            ]
            return ClaimAssessment(
                FactCategory.CONTRADICTED,
                True,
                evidence_spans,
                tuple(reasons),
                deterministic_contradiction=True,
                rationale="; ".join(dict.fromkeys(details)),
                support_score=0.0,
                units=units,
            )
        category, score, more = self._category(claim, measure, index, novel_entities, apart, units)
        if applied and category is FactCategory.INDIRECT_SUPPORT and not unjudged:
            category, score = FactCategory.DIRECT_EVIDENCE, max(score, t.direct)
            more.append("condition_row_applied")
        if category is FactCategory.DIRECT_EVIDENCE and any(i.code == "number_rounded" for i in issues):
            # `around 300,000` for `294,000`: a fair estimate, but not the figure the evidence shows.
            category = FactCategory.INDIRECT_SUPPORT
            more.append("figure_rounded")
        if unjudged and category is not FactCategory.NO_EVIDENCE:
            # A figure the evidence does not state: not a contradiction (a paraphrase may compute or
            # round it), but the claim is not shown either.
            category, score = FactCategory.NO_EVIDENCE, min(score, 0.3)
            more.append("figure_not_in_evidence")
        reasons.extend(more)
        return ClaimAssessment(
            category, key, evidence_spans, tuple(reasons), support_score=score, units=units
        )

    def _category(
        self,
        claim: str,
        measure: Measure,
        index: ContextIndex,
        novel_entities: list[str],
        apart: list[str],
        units: tuple[UnitAssessment, ...],
    ) -> tuple[FactCategory, float, list[str]]:
        """The category of a claim without contradiction, its support score, and why."""
        t = self.thresholds
        best = measure.best
        score = best.score
        if index.cross_language and _crosses(is_cjk_text(claim), index.context_cjk, index.context_some_cjk):
            return _cross_language(measure, index, t)
        if len(fidelity.extract(claim)) > fidelity.MAX_CLAIM_MENTIONS:
            # More figures and names than the fidelity checks compare: the rest went unchecked, so
            # the claim is not called supported (fail closed).
            return FactCategory.NO_EVIDENCE, min(score, 0.3), [BUDGET_TOO_MANY_MENTIONS]
        if apart:
            # Every name is in the context, but never together: the claim pairs facts the context keeps
            # apart (an error code attributed to another service, one product's figure given to another).
            return FactCategory.NO_EVIDENCE, min(score, 0.3), ["names_never_together:" + ",".join(apart[:4])]
        # A person named with a role the context never writes, or gives to someone else; an item
        # added to a list the context holds (`… trumpeter swans and a bald eagle`).
        if odd := _odd_names(claim, index, best):
            return FactCategory.NO_EVIDENCE, min(score, 0.3), odd[:2]
        unsupported = [u for u in units if u.category is FactCategory.NO_EVIDENCE]
        if unsupported:
            # A compound claim is supported only if each of its clauses is.
            return (
                FactCategory.NO_EVIDENCE,
                min(score, *(u.support_score for u in unsupported)),
                ["unit_unsupported:" + unsupported[0].span.text[:60]],
            )
        for cause in cause_phrases(claim):
            words = [w for w in tokenize(index.canonical(cause.text)) if w not in DISCOURSE]
            if len(words) >= 2 and _cause_share(cause.text, words, index) < t.cause_words:
                # The effect is in the evidence, the reason given for it is not (an invented cause).
                return FactCategory.NO_EVIDENCE, min(score, 0.3), ["cause_not_in_evidence:" + cause.text[:40]]
        if best.window is not None and score >= t.indirect:
            # Against the sentence of the window most about the claim: a two-sentence window may hold
            # the opposite word for another subject (`revenue rose …. Costs fell …`).
            claim_words = set(measure.tokens)
            sentences = [set(tokenize(index.canonical(p.text))) for p in split_sentences(best.window.text)]
            closest = max(sentences, key=lambda words: len(words & claim_words), default=set())
            flipped = [
                pair for pair in opposite_pairs(measure.tokens, closest) if not negated_in(claim, pair[0])
            ]
            if flipped:
                # One word turned into its opposite (`放缓` for `加快`, `lower` for `higher`).
                return FactCategory.NO_EVIDENCE, min(score, 0.3), [_pairs("opposite", flipped, claim, best)]
            # Another schedule, kind or rank than the window states; or one of two alternatives the
            # window does not allow (`退货或换货` where it allows `换货` only).
            excluded = exclusive_swaps(claim, best.window.text) or added_alternatives(
                claim, best.window.text, index.all_text
            )
            actors = actor_swaps(claim, best.window.text)
            if actors:
                # Another approver, owner or escalation target than the window's clause about the
                # same action names (`主机组审批` where it says `存储组审批`).
                return FactCategory.NO_EVIDENCE, min(score, 0.3), [_pairs("actor", actors, claim, best)]
            if excluded:
                # Another schedule, numbered kind or rank than the window states (`按月` / `按季度`).
                return FactCategory.NO_EVIDENCE, min(score, 0.3), [_pairs("exclusive", excluded, claim, best)]
            for piece in _comma_pieces(claim):
                # A clause that is no unit of its own (`补贴按月打入社保卡，出生后 6 个月内申请的可补发`)
                # is read against its own window too: the sentence that states its schedule.
                own = measure_support(piece, index).best
                if own.window is not None and (excluded := exclusive_swaps(piece, own.window.text)):
                    return (
                        FactCategory.NO_EVIDENCE,
                        min(score, 0.3),
                        [_pairs("exclusive", excluded, piece, own)],
                    )
        if best.window is not None and score >= t.direct:
            swaps = [
                swap
                for swap in entity_swaps(
                    measure.ordered, tokenize(index.canonical(best.window.text)), index.anywhere
                )
                if is_modifier(claim, swap[0])
                and (_entity_like(swap[0], claim) or _entity_like(swap[1], best.window.text))
            ]
            if swaps:
                # One word of the claim stands where the evidence has another: a swapped entity.
                return FactCategory.NO_EVIDENCE, min(score, 0.3), [_pairs("entity_swap", swaps, claim, best)]
        if best.window is not None:
            fields = index.window_fields(best.number)
            misplaced = records.misattributed(measure.ordered, fields, index.canonical) if fields else []
            if misplaced:
                # A record's value given to an attribute the record does not have (`free parking`
                # from `WiFi: free`): the attribute is not in evidence.
                return (
                    FactCategory.NO_EVIDENCE,
                    min(score, 0.3),
                    ["record:attribute_missing:" + ",".join(misplaced)],
                )
        if score >= _direct_bar(
            claim, t, bool(best.window is not None and index.window_fields(best.number))
        ) and (not novel_entities):
            return FactCategory.DIRECT_EVIDENCE, score, ["support_high"]
        if (
            len(units) > 1
            and not novel_entities
            and all(
                u.category is FactCategory.DIRECT_EVIDENCE
                and u.support_score >= _direct_bar(u.span.text, t, False)
                for u in units
            )
        ):
            # Each clause is stated, each in its own place (a spec line retold in one sentence).
            return FactCategory.DIRECT_EVIDENCE, min(u.support_score for u in units), ["units_supported"]
        if score >= t.indirect or measure.scattered >= t.scattered:
            # A name the context never mentions keeps an otherwise well-covered claim from being direct.
            reason = "support_partial" if score >= t.indirect else "support_scattered"
            return FactCategory.INDIRECT_SUPPORT, max(score, 0.3), [reason]
        return FactCategory.NO_EVIDENCE, score, ["support_low"]

    def _units(
        self,
        span: Span,
        index: ContextIndex,
        fields: tuple[records.Field, ...],
        contradictions: list[fidelity.FidelityIssue],
        vetted: frozenset[str] = frozenset(),
        evidence: fidelity.EvidenceIndex | None = None,
    ) -> tuple[UnitAssessment, ...]:
        """Each clause of a compound claim, assessed on its own (none for a one-clause claim
        without record fields)."""
        t = self.thresholds
        parts = split_units(span)
        if len(parts) == 1 and not fields and not index.rows() and not index.items():
            return ()
        found: list[UnitAssessment] = []
        for part in parts:
            measure = measure_support(part.text, index, skip=vetted) if len(parts) > 1 else None
            score = unit_score(part.text, measure, index) if measure is not None else 1.0
            conflicts = record_rows.clause_conflicts(
                span.text[: part.start - span.start], part.text, fields, index.rows(), index.items()
            )
            mentioned = [i for i in contradictions if i.claim_mention and i.claim_mention in part.text]
            if conflicts or mentioned:
                codes = tuple(f"record:field_mismatch:{c}" for c in conflicts) + tuple(
                    f"fidelity:{i.code}" for i in mentioned
                )
                found.append(UnitAssessment(part, FactCategory.CONTRADICTED, 0.0, codes))
            elif measure is None:
                continue
            elif (
                evidence is not None
                and measure.best.window is not None
                and measure.best.score >= t.alignment_for_unit_polarity
                and len(measure.best.window.text) <= t.short_window_chars
                and (
                    flips := dropped_negation(
                        part, span, _window_evidence(measure.best, index)[1], evidence, index
                    )
                )
            ):
                # A clause whose own short, well aligned window states it the other way round ("沙箱环境和
                # 正式环境一样会限流" over "沙箱环境不限流"), though the whole sentence aligns loosely.
                found.append(UnitAssessment(part, FactCategory.NO_EVIDENCE, 0.0, tuple(flips)))
            elif measure.best.window is not None and (
                excluded := exclusive_swaps(part.text, measure.best.window.text)
            ):
                # The clause's own window states another schedule, numbered kind or rank.
                codes = (_pairs("exclusive", excluded, part.text, measure.best),)
                found.append(UnitAssessment(part, FactCategory.NO_EVIDENCE, min(score, 0.3), codes))
            elif score >= t.direct:
                found.append(UnitAssessment(part, FactCategory.DIRECT_EVIDENCE, score, ("support_high",)))
            elif score >= t.indirect or measure.scattered >= t.unit_scattered:
                found.append(
                    UnitAssessment(part, FactCategory.INDIRECT_SUPPORT, max(score, 0.3), ("support_partial",))
                )
            elif _worked_result(part.text, vetted):
                # "…, so it lasted 45 minutes": the clause only draws the figure the fidelity checks
                # worked out from the claim's own (14:22 to 15:07); its other words are the drawing.
                found.append(UnitAssessment(part, FactCategory.INDIRECT_SUPPORT, 0.3, ("worked_result",)))
            else:
                found.append(UnitAssessment(part, FactCategory.NO_EVIDENCE, score, ("support_low",)))
        return (
            tuple(found)
            if len(parts) > 1 or any(u.category is FactCategory.CONTRADICTED for u in found)
            else ()
        )

    # ------------------------------------------------------------------ measures

    @staticmethod
    def _novel_terms(tokens: list[str], index: ContextIndex) -> list[str]:
        """Claim words the context never uses (reported for the reader; paraphrase makes many)."""
        return [t for t in tokens if not index.anywhere(t)]

    @staticmethod
    def _names_apart(claim: str, cjk: bool, index: ContextIndex) -> list[str]:
        """The claim's names and literal figures when the context has each but no window has them all."""
        names = {
            m.text
            for m in fidelity.extract(claim)
            if (m.kind == "identifier" or (m.kind in _FIGURE_KINDS and _DIGITS.search(m.text)))
            and normalize(index.canonical(m.text))
            and index.in_normalized(normalize(index.canonical(m.text)))
        }
        if not cjk:
            names.update(
                match.group(1)
                for match in _PROPER_NOUN.finditer(claim)
                if match.group(1).lower().removesuffix("s") not in _CALENDAR_WORDS  # `Sundays` too
                and index.in_lower(match.group(1).lower())
            )
        if len(names) < 2:
            return []
        ids = sum(1 for m in fidelity.extract(claim) if m.kind == "identifier" and m.text in names)
        # The context is indexed in its canonical form (`$10 million` as `$10000000 million`).
        needles = [normalize(index.canonical(name)) for name in names]
        if (
            index.any_window_with_all(needles)
            or index.any_list_with_all(needles)
            # Two identifiers (`search-indexer`, `billing-sync-g1`) are items of one list a note may
            # hold side by side: their pairing is what the swap changes, so a note does not join them.
            or (ids < 2 and index.any_note_with_all(needles))
        ):
            return []
        return sorted(names)

    @staticmethod
    def _novel_entities(claim: str, novel: list[str]) -> list[str]:
        """Capitalised names in an English claim with a word the context never uses.

        One novel word is enough: `Jean De La Fontaine` for `Serge Haroche` shares `De` and `La`
        with any French text, and `King Henry VIII` shares `King` with many; a name is an identity,
        so a part the context lacks makes it another name."""
        if not novel:
            return []
        missing = set(novel)
        return [
            match.group(1)
            for match in _PROPER_NOUN.finditer(claim)
            if any(tok in missing for tok in tokenize(match.group(1)))
            # `on 4 March 2031` over `2031-03-04`: a month or a day is a date, which the date rules check
            and not all(word.lower() in _CALENDAR_WORDS for word in match.group(1).split())
        ]


_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


#: Sentences whose assessment shows them: their figures may be a later claim's operands.
_SHOWN = frozenset({FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT})
#: How many earlier supported sentences lend operands: a total sums what was just said.
_EARLIER_SENTENCES = 4


#: The share of a context's letters that are Chinese above which a Chinese claim is read in its own
#: language (`is_cjk_text`'s default, 0.2, decides what the context mostly is).
_SOME_CJK = 0.03


def _odd_names(claim: str, index: ContextIndex, best: Support) -> list[str]:
    """A person with a role the context never gives them, an item the context never lists, or an
    organisation the aligned window swaps for another of its kind."""
    people = role_name_findings(claim, index.all_text) if is_cjk_text(claim) else []
    window = best.window.text if best.window is not None else ""
    return (
        people
        or [f"item_not_in_evidence:{i}" for i in unlisted_items(claim, index.anywhere, index.canonical)]
        or organisation_swaps(claim, window, index.all_text)
        or turned_round(claim, index.all_text)
        or waived_obligations(claim, index.all_text)
    )


def _crosses(claim_cjk: bool, context_cjk: bool, context_some_cjk: bool) -> bool:
    """A claim in another language than its context: an English claim over a mostly Chinese context,
    a Chinese claim over one with next to no Chinese."""
    return not context_some_cjk if claim_cjk else context_cjk


def _as_read(text: str) -> str:
    """`text` with JSON's `\\uXXXX` escapes read as their characters: a record serialised with ASCII
    escapes (`"\\u8001\\u5f20"`) is Chinese to a reader, and so to the language check."""
    return _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text) if "\\u" in text else text


_COMMA = re.compile(r"[，,；;]\s*")


def _comma_pieces(claim: str) -> list[str]:
    """The comma-separated pieces of a claim that state an exclusive value (none when it has one piece)."""
    pieces = [p for p in _COMMA.split(claim) if p.strip()]
    return [p for p in pieces if states_exclusive_value(p)] if len(pieces) > 1 else []


def _pairs(code: str, pairs: list[tuple[str, str]], claim: str, best: Support) -> str:
    """`entity_swap:内存->cpu`: the claim's word and the window's, in the texts' own words."""
    window = best.window.text if best.window is not None else ""
    return f"{code}:" + ",".join(f"{readable(a, claim)}->{readable(b, window)}" for a, b in pairs[:3])


_ROWS_AROUND = 400


def _tiers(claim: str, best: Support, index: ContextIndex) -> tuple[str | None, list[str]]:
    """A tiered rule around the aligned window (`已满10年不满20年的，年休假10天；已满20年的，…15天`): the
    claim's condition when it applies its row (`满12年` with `10天`), and the results it takes from
    another row (`满12年` with `15天`). Nothing across languages."""
    if best.window is None or index.cross_language:
        return None, []
    rows = fidelity.read_condition_rows(claim, _around(best, index))
    return rows.applied, list(rows.conflicts)


def _around(best: Support, index: ContextIndex) -> str:
    """The aligned window with its neighbours in the passage: the other rows of a tiered rule (each
    `；` row is a sentence of its own)."""
    assert best.window is not None
    passage = index.passages[best.window.passage]
    return passage[max(0, best.window.start - _ROWS_AROUND) : best.window.end + _ROWS_AROUND]


def _cause_share(cause: str, words: list[str], index: ContextIndex) -> float:
    """Weighted share of a cause's words the context states: anywhere, or for a Chinese word, each of
    its characters in the sentence best aligned with the cause (`涨价` retells `价格上涨`)."""
    window = measure_support(cause, index).best.window if is_cjk_text(cause) else None
    window_text = index.canonical(window.text) if window is not None else ""
    total = found = 0.0
    for word, weight in weighted(words):
        total += weight
        if index.anywhere(word) or (is_cjk_text(word) and all(ch in window_text for ch in word)):
            found += weight
    return found / total if total else 1.0


def _key_for_question(
    key: bool, reason: str, measure: Measure, question_tokens: set[str], t: CheckerThresholds
) -> tuple[bool, str]:
    """Whether a claim is key once the question is known, and why."""
    tokens = measure.tokens
    if question_tokens and not key and reason == "not_key:no_content" and tokens:
        # A bare name or figure given in reply to a question ("Delhi") is the answer: the one fact
        # the reader relies on, so it is key and must be shown.
        return True, "key:answer_to_question"
    # A sentence that only restates the question ("About the travel policy:") asserts nothing.
    if (
        key
        and question_tokens
        and tokens
        and measure.best.score < t.indirect
        and sum(1 for tok in tokens if tok in question_tokens) / len(tokens) >= 0.8
    ):
        return False, "not_key:restates_question"
    return key, reason


def _out_of_time(done: list[ClaimAssessment], rest: Sequence[Span]) -> Classification:
    """The claims the deadline left unassessed: `no_evidence`, with the reason code saying why."""
    cut = []
    for claim in rest:
        decision = key_decision(claim.text)
        cut.append(
            ClaimAssessment(
                FactCategory.NO_EVIDENCE, decision.key, (), (decision.reason, BUDGET_TIME_EXCEEDED)
            )
        )
    return Classification([*done, *cut], notes=[BUDGET_TIME_EXCEEDED])


def _window_evidence(
    best: Support, index: ContextIndex
) -> tuple[tuple[EvidenceSpan, ...], str | fidelity.EvidenceIndex, tuple[records.Field, ...]]:
    """The best window's cited span, its text for the fidelity checks, and its record fields."""
    if best.window is None:
        return (), "", ()
    w = best.window
    aligned = index.aligned_evidence(w, best.number)
    fields = index.window_fields(best.number)
    if best.score <= 0:
        return (), aligned, fields
    # A window as long as a passage without sentence breaks is cited by its beginning: the result
    # must not repeat a whole context once per claim (output size is cost too).
    end = min(w.end, w.start + MAX_EXCERPT_CHARS)
    excerpt = w.raw[: end - w.start]
    return (EvidenceSpan(passage=w.passage, start=w.start, end=end, excerpt=excerpt),), aligned, fields


def _entity_like(word: str, text: str) -> bool:
    """`word` names a thing rather than describing one: a lexicon concept, a Chinese word, a word with
    a digit, or one written capitalised inside the text (`CPU`, `Redis`, `Team`). Adjectives and
    verbs in a summary's slot (`key` / `cornerstone`, `stole` / `steal`) are paraphrase far more often."""
    if word.startswith("qz") or not word.isascii() or any(c.isdigit() for c in word):
        return True
    for found in re.finditer(rf"(?i)(?<![A-Za-z]){re.escape(word)}[a-z]*", text):
        surface = found.group()
        start = found.start()
        sentence_start = start == 0 or text[:start].rstrip()[-1:] in {".", "!", "?", ":", "\n", ""}
        if (surface.isupper() and len(surface) > 1) or (surface[0].isupper() and not sentence_start):
            return True
    return False


def _direct_bar(claim: str, t: CheckerThresholds, record: bool) -> float:
    """The support a claim needs for `direct_evidence`: `direct`, or for a Latin-script claim read
    off prose the stricter of `direct` and `direct_latin` (a record is matched field by field, and a
    stricter configured `direct` always wins)."""
    if record or is_cjk_text(claim):
        return t.direct
    return max(t.direct, t.direct_latin)


def _cross_language(
    measure: Measure, index: ContextIndex, t: CheckerThresholds
) -> tuple[FactCategory, float, list[str]]:
    """A claim in the other language than its context: judged on its anchors only."""
    window = measure.best.window
    tokens = set(tokenize(index.canonical(window.text))) if window is not None else set()
    coverage, count = anchor_coverage(measure.tokens, tokens)
    # Figures alone carry no predicate: `周一正常开放，10:00 到 17:00` has the record's two times and
    # says the opposite of its `closed Mondays`. Without a lexicon concept found too, not shown.
    concepts = [a for a in anchors(measure.tokens) if not any(c.isdigit() for c in a)]
    if count >= 2 and coverage >= t.cross_direct and (concepts or len(measure.tokens) <= count + 1):
        return FactCategory.DIRECT_EVIDENCE, coverage, ["cross_language:anchors_found"]
    if count >= 1 and coverage >= 0.5:
        return FactCategory.INDIRECT_SUPPORT, 0.5 * coverage, ["cross_language:anchors_partly_found"]
    return FactCategory.NO_EVIDENCE, 0.3 * coverage, ["cross_language:unjudged"]


#: A clause that draws a result from what the claim said before it.
_DRAWS_RESULT = re.compile(
    r"^\s*(?:so|which\s+(?:means|makes|comes\s+to|gives)|that(?:'s|\s+is)|i\.e\.|in\s+all|in\s+total|"
    r"所以|也就是|即|合计|共计|总共|算下来|换算下来)\b",
    re.IGNORECASE,
)


def _worked_result(text: str, vetted: frozenset[str]) -> bool:
    """A clause drawing a result (`so it lasted 45 minutes`) whose every figure was worked out."""
    figures = [
        n for m in fidelity.extract(text) if m.kind in _FIGURE_KINDS for n in _DIGITS_RUN.findall(m.text)
    ]
    return bool(figures) and bool(_DRAWS_RESULT.match(text)) and all(f in vetted for f in figures)


_DIGITS_RUN = re.compile(r"\d+(?:\.\d+)?")

"""The verifier: classifies each key fact, then code computes verdict, score and need coverage
(docs/design.md §2, 004 §5; issue 11).

Its input is explicit state — the original query and its needs, the executor's structured claims,
the gatekeeper result, the tool trace summary and the retry context — never raw message history;
planner and executor reasoning never reach it.

- **Per claim**: each claim is classified against *its own* cited evidence only (the sentence around
  each excerpt the gatekeeper verified, or the whole fact it cites) — never against what other claims
  cite: a claim citing an unrelated log line has no evidence, whatever else the run found. With an
  LLM judge (one call for all claims), support the model finds in a passage the claim did not cite
  does not count, and the offline checker's deterministic contradictions on the claim's own evidence
  stand.
- **Gatekeeper**: a claim citing forged evidence is `contradicted`; one without a valid citation is
  no better than `no_evidence`; one quoting instruction-like text (`injection:instruction_text`) is no
  better than `no_evidence` either (`gate:instruction_text`).
- **Authority**: a supported claim whose cited documents are outranked by a passage of this run that
  contradicts it is `contradicted` (`authority:outranked…`; `verify.evidence_items.outranking_conflicts`).
- **Absence** ("the logs show no errors"): at most `indirect_support`, and only when an empty
  successful query of this run covers that scope (`verify.absence`); `no_evidence` otherwise.
- **Metric recovery** ("…recovered to 0.3 by 14:33"): confirmed in code from the cited points
  (`verify.series`) — `direct_evidence` when it names the computed recovery point.
- **Need coverage** (`groundgate.questions.coverage`): per need of the question, which supported
  claims meet it (right entity, asked attribute, condition included). The verdict is the seed matrix
  over the claims; coverage is recorded next to it and decides, with the verdict, between `NORMAL`
  and the disclaimer. Claims that are about none of the needs (another entity, another case) are
  verified but not shown. One need may be met by two claims together only when it asks why
  something happened at a named moment: a record of that moment (a log line at 14:05) and a claim
  naming what was asked about (`ERR_TIMEOUT`).
- **Traceability**: `facts_checked[*].evidence_refs` are the `trace_ref`s of the summary entries that
  hold the claim's valid citations — invocations of this run only; a forged id is never listed.
- **Gaps**: unmet needs by their labels, never single words; failed calls of the trace summary are
  named when a need is unmet; user-facing gaps never quote an unverified claim.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from groundgate.compose.composer import language_of
from groundgate.compose.templates import Templates, templates
from groundgate.contracts import (
    AgentStep,
    AnswerKind,
    Claim,
    ClaimCheck,
    ClaimGate,
    ConditionKind,
    EvidenceType,
    ExecutorOutput,
    FactCategory,
    FactCheck,
    GatekeeperResult,
    Need,
    NeedCoverage,
    ParseStatus,
    QuestionNeeds,
    RetryContext,
    ToolTraceSummaryEntry,
    VerifierEvaluation,
)
from groundgate.models._parsing import estimate_tokens
from groundgate.models.base import Usage
from groundgate.questions import NeedMatch, Statement, TermEquivalents, derive_needs, match_need, statement
from groundgate.questions.equivalents import bundled_equivalents
from groundgate.questions.statements import adds_to_rule_before
from groundgate.text.segmentation import Span, is_cjk_text
from groundgate.verify.absence import is_absence_claim, judge_absence
from groundgate.verify.assessment import (
    ClaimAssessment,
    ClaimClassifier,
    Classification,
    ModelBackedClassifier,
)
from groundgate.verify.evidence_items import EvidenceItem, evidence_by_ref, outranking_conflicts
from groundgate.verify.gatekeeper import FORGING_CODES, GateCode
from groundgate.verify.matrix import compute_verdict
from groundgate.verify.series import confirms_point, confirms_recovery

_SUPPORTED = frozenset({FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT})
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")


@dataclass(slots=True)
class Verification:
    """The evaluation, the step that records it, the gaps, and what the answer may show."""

    evaluation: VerifierEvaluation
    step: AgentStep
    gaps: list[str]
    """Key gaps for the retry context: unmet needs, and claims lacking direct evidence (quoted)."""
    safe_gaps: list[str]
    """Gaps shown to the user: they quote no unverified claim."""
    coverage: list[NeedCoverage] = field(default_factory=list)
    shown_claim_ids: set[str] = field(default_factory=set)
    """Supported claims about a need of the question: what an answer may state."""

    @property
    def unmet_need_ids(self) -> list[str]:
        return [c.need_id for c in self.coverage if not c.met]

    @property
    def needs_met(self) -> bool:
        """Every need met (vacuously true for a question without needs)."""
        return all(c.met for c in self.coverage)

    @property
    def needs_confirmed(self) -> bool:
        """Every need met within the question's language: what a `NORMAL` answer requires."""
        return all(c.met and not c.cross_language for c in self.coverage)


@dataclass(slots=True)
class _Own:
    """What one claim cites, as the verifier reads it."""

    items: list[EvidenceItem] = field(default_factory=list)
    passages: list[str] = field(default_factory=list)
    context: str = ""
    surround: str = ""


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence(s) holding `text[start:end]` (a clause cut out of a sentence is read in it)."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, max(end - 1, start))
    return (before[-1] if before else 0), (after.end() if after else len(text))


def own_evidence(
    claim: Claim, claim_gate: ClaimGate | None, by_ref: dict[tuple[str, str], EvidenceItem]
) -> _Own:
    """The evidence `claim` itself cites through valid references (module docs: per claim)."""
    own = _Own()
    for ref_check in claim_gate.refs if claim_gate else []:
        item = by_ref.get((ref_check.ref.invocation_id, ref_check.ref.citation_id or ""))
        if not ref_check.valid or item is None:
            continue
        if item.evidence_type is EvidenceType.DOCUMENT_EVIDENCE and ref_check.matched_start is not None:
            start, end = _sentence_around(item.text, ref_check.matched_start, ref_check.matched_end or 0)
            passage = item.text[start:end].strip()
            own.surround = own.surround or passage
        else:
            passage = item.text
        if item not in own.items:
            own.items.append(item)
        if passage and passage not in own.passages:
            own.passages.append(passage)
    own.context = " ".join(dict.fromkeys(item.source for item in own.items))
    return own


def _record_and_name(
    need: Need,
    matches: Sequence[tuple[str, NeedMatch]],
    supported: Sequence[tuple[Claim, Statement]],
    equivalents: TermEquivalents | None = None,
) -> list[str]:
    """A "why" about a moment, met by two claims: a record of that moment (a log line at 14:05) and a
    claim naming what was asked about (`ERR_TIMEOUT`). Only for reason needs with a date or time:
    who or what a question is about is never pieced together from different claims otherwise."""
    if need.kind is not AnswerKind.REASON or not any(
        c.kind is not ConditionKind.QUANTITY for c in need.conditions
    ):
        return []
    for claim_id, match in matches:
        if not match.codes or not all(
            c.startswith(("need:anchor_missing:", "need:terms_missing:")) for c in match.codes
        ):
            continue  # not a record of the asked moment that only lacks the names
        missing_anchors = [c.split(":", 2)[2] for c in match.codes if c.startswith("need:anchor_missing:")]
        missing_terms = [
            t
            for c in match.codes
            if c.startswith("need:terms_missing:")
            for t in c.split(":", 2)[2].split(",")
        ]
        naming = Need(
            id=need.id, text=need.text, label=need.label, anchors=missing_anchors, terms=missing_terms
        )
        for other, view in supported:
            if other.id != claim_id and match_need(naming, view, equivalents=equivalents).met:
                return [claim_id, other.id]
    return []


def _later_steps(
    met: Sequence[str], supported: Sequence[tuple[Claim, Statement]], matches: Sequence[tuple[str, NeedMatch]]
) -> set[str]:
    """Steps of a procedure cut from the same passage as a step that meets the need ("Clock skew: …",
    then "Key version: …"): shown with it, though they do not repeat the question's words — unless
    they name another case (an anchor, a qualifier or a condition of their own)."""
    sources = {
        ref.citation_id
        for claim, _ in supported
        if claim.id in met
        for ref in claim.evidence_refs
        if ref.citation_id
    }
    codes = dict(matches)
    return {
        claim.id
        for claim, _ in supported
        if claim.id not in met
        and any(ref.citation_id in sources for ref in claim.evidence_refs)
        and not codes[claim.id].names_another_case
    }


def _added_to(met: Sequence[str], supported: Sequence[tuple[Claim, Statement]]) -> set[str]:
    """The claim just before a met one that adds to it ("10,000 元以上还需财务 VP 审批" after
    "2,000 元以上至 10,000 元由直属经理和部门总监依次审批"), citing the same passage: shown with it,
    since the rule it adds to is part of the answer."""
    out: set[str] = set()
    for (before, _), (claim, view) in itertools.pairwise(supported):
        if claim.id in met and adds_to_rule_before(view.text) and _same_sources(before, claim):
            out.add(before.id)
    return out


def _same_sources(a: Claim, b: Claim) -> bool:
    return bool({r.citation_id for r in a.evidence_refs} & {r.citation_id for r in b.evidence_refs} - {None})


def _texts(zh: bool) -> Templates:
    return templates("zh-CN" if zh else "en")


class _Fixed:
    """A classifier that answers with assessments already made (the per-claim offline pass)."""

    def __init__(self, assessments: Sequence[ClaimAssessment]) -> None:
        self.assessments = list(assessments)

    def classify(
        self, claims: Sequence[Span], passages: Sequence[str], *, question: str | None = None
    ) -> Classification:
        del claims, passages, question  # decided per claim, against each claim's own evidence
        return Classification(list(self.assessments))


class Verifier:
    """Runs a claim classifier over the executor's claims and applies the code-level rules."""

    def __init__(self, classifier: ClaimClassifier, *, equivalents: TermEquivalents | None = None) -> None:
        self.classifier = classifier
        self.equivalents = equivalents if equivalents is not None else bundled_equivalents()
        """Other words for a need's words (default: the bundled zh↔en lexicon), used when checking
        coverage; `lambda term: ()` turns them off."""

    def verify(
        self,
        *,
        question: str,
        output: ExecutorOutput,
        gate: GatekeeperResult,
        evidence: Sequence[EvidenceItem],
        trace_summary: Sequence[ToolTraceSummaryEntry],
        retry_context: RetryContext | None,
        round: int,
        needs: QuestionNeeds | None = None,
    ) -> Verification:
        started = time.perf_counter()
        needs = needs or derive_needs(question)
        zh = is_cjk_text(question)
        by_ref = evidence_by_ref(evidence)
        gates = {g.claim_id: g for g in gate.claims}
        trace_refs = {inv: e.trace_ref for e in trace_summary for inv in e.source_invocation_ids}
        owns = {claim.id: own_evidence(claim, gates.get(claim.id), by_ref) for claim in output.claims}
        verifier_input = self._input_text(question, needs, output, trace_summary, retry_context)

        classification = self._classify(output.claims, owns, question)
        model_name = classification.model_name or "offline-checker"
        usage_in, usage_out = classification.usage.input_tokens, classification.usage.output_tokens
        status = classification.judge_status if classification.model_name else ParseStatus.NOT_CALLED

        facts: list[FactCheck] = []
        claim_checks: list[ClaimCheck] = []
        for claim, assessment in zip(output.claims, classification.assessments, strict=True):
            own_gate = gates.get(claim.id)
            own = owns[claim.id]
            category, codes = self._apply_gate(assessment, own_gate)
            rationale = assessment.rationale
            refs = [
                trace_refs[r.ref.invocation_id]
                for r in (own_gate.refs if own_gate else [])
                if r.valid and r.ref.invocation_id in trace_refs
            ]
            category, codes, rationale, refs = self._claim_rules(
                claim, own, evidence, trace_summary, category, codes, rationale, refs
            )
            facts.append(
                FactCheck(
                    fact=claim.text,
                    category=category,
                    key=claim.critical or assessment.key,
                    claim_id=claim.id,
                    evidence_refs=list(dict.fromkeys(refs)),
                    reason_codes=codes,
                    rationale=rationale,
                )
            )
            claim_checks.append(
                ClaimCheck(
                    claim_id=claim.id,
                    claim_text=claim.text,
                    category=category,
                    derivable=category in _SUPPORTED,
                    reason_codes=codes,
                )
            )

        coverage, shown = self._coverage(needs, output.claims, facts, owns, self.equivalents)
        for check in claim_checks:
            if check.derivable:
                check.reason_codes.append("need:on_topic" if check.claim_id in shown else "need:off_topic")
        outcome = compute_verdict(f.category for f in facts if f.key)
        gaps = self._retry_gaps(needs, coverage, facts, zh)
        safe_gaps = self._safe_gaps(needs, coverage, facts, shown, trace_summary, zh)
        retry_note = self._retry_note(retry_context, coverage)
        evaluation = VerifierEvaluation(
            verdict=outcome.verdict,
            groundedness_score=outcome.groundedness_score,
            critical_fact_count=outcome.critical_fact_count,
            claim_checks=claim_checks,
            facts_checked=facts,
            rationale=outcome.reason + retry_note,
            round=round,
            executor_structured_output=output,
            gatekeeper_result=gate,
            tool_trace_summary=list(trace_summary),
            verifier_input_tokens=usage_in or estimate_tokens(verifier_input),
            question_needs=needs,
            need_coverage=coverage,
            retry_context=retry_context,
        )
        met = sum(1 for c in coverage if c.met)
        step = AgentStep(
            role="verifier",
            round=round,
            thought=(
                f"{outcome.verdict.value} score {outcome.groundedness_score:.2f}: {outcome.reason}; "
                f"needs met {met}/{len(coverage)}"
            ),
            reason_code=outcome.reason,
            model_output={
                "facts_checked": [
                    f.model_dump(mode="json", include={"fact", "category", "key"}) for f in facts
                ],
                "need_coverage": [
                    c.model_dump(mode="json", include={"need_id", "label", "met"}) for c in coverage
                ],
                "input": {
                    "tool_trace_summary": [e.trace_ref for e in trace_summary],
                    "failed_calls": [e.trace_ref for e in trace_summary if not e.success or e.failure_count],
                    "retry_context": retry_context.model_dump(mode="json") if retry_context else None,
                },
            },
            parse_status=status,
            model_name=model_name,
            input_tokens=usage_in or estimate_tokens(verifier_input),
            output_tokens=usage_out,
            latency_ms=(time.perf_counter() - started) * 1000,
        )
        return Verification(evaluation, step, gaps, safe_gaps, coverage, shown)

    # ------------------------------------------------------------------ classification

    def _classify(self, claims: Sequence[Claim], owns: dict[str, _Own], question: str) -> Classification:
        """Per-claim classification (module docs); with a model-backed classifier, one call, then
        restricted. The result carries the model's name and usage (none offline)."""
        if not claims:
            return Classification([])
        spans = [Span(c.text, 0, len(c.text)) for c in claims]
        backed = self.classifier if isinstance(self.classifier, ModelBackedClassifier) else None
        offline = backed.fallback if backed is not None else self.classifier
        per_claim: list[ClaimAssessment | None] = [None] * len(claims)
        groups: dict[tuple[str, ...], list[int]] = {}
        for n, claim in enumerate(claims):
            groups.setdefault(tuple(owns[claim.id].passages), []).append(n)
        for passages, members in groups.items():
            result = offline.classify([spans[n] for n in members], list(passages) or [""], question=question)
            for n, assessment in zip(members, result.assessments, strict=True):
                per_claim[n] = assessment
        own_results = [a for a in per_claim if a is not None]
        if backed is None:
            return Classification(own_results)

        pooled = list(dict.fromkeys(p for passages in groups for p in passages))
        # The model-backed classifier's offline pass is the per-claim result above (its deterministic
        # contradictions stand, and it is the answer when the model fails): the checker does not run
        # twice.
        judged = backed.resting_on(_Fixed(own_results)).classify(spans, pooled or [""], question=question)
        if judged.checker != "llm":  # the model failed: the per-claim offline result stands
            return replace(judged, usage=Usage())
        restricted: list[ClaimAssessment] = []
        for claim, theirs in zip(claims, judged.assessments, strict=True):
            allowed = {pooled.index(p) for p in owns[claim.id].passages}
            if theirs.category in _SUPPORTED and any(e.passage not in allowed for e in theirs.evidence):
                theirs = replace(
                    theirs,
                    category=FactCategory.NO_EVIDENCE,
                    reason_codes=(*theirs.reason_codes, "verifier:support_outside_own_citations"),
                )
            restricted.append(theirs)
        return replace(judged, assessments=restricted)

    # ------------------------------------------------------------------ code rules per claim

    @staticmethod
    def _claim_rules(
        claim: Claim,
        own: _Own,
        evidence: Sequence[EvidenceItem],
        trace_summary: Sequence[ToolTraceSummaryEntry],
        category: FactCategory,
        codes: list[str],
        rationale: str,
        refs: list[str],
    ) -> tuple[FactCategory, list[str], str, list[str]]:
        """Authority, metric recovery and absence rules on one claim (module docs)."""
        forged = "gate:forged_evidence" in codes
        if category in _SUPPORTED:
            conflicts = outranking_conflicts(claim.text, own.items, evidence)
            if conflicts:
                category = FactCategory.CONTRADICTED
                codes = [
                    *codes,
                    "authority:outranked",
                    *(f"authority:outranked_by:{c.citation_id}" for c in conflicts),
                    *(f"fidelity:{code}" for c in conflicts for code in c.codes),
                ]
                rationale = "; ".join(
                    f"{c.authority.value} source {c.citation_id} says otherwise: {c.sentence}"
                    for c in conflicts
                )
        if category in (FactCategory.INDIRECT_SUPPORT, FactCategory.NO_EVIDENCE) and not forged:
            points = [i for i in own.items if i.fact_type == "metric.points" and isinstance(i.value, dict)]
            if any(confirms_recovery(claim.text, i.value) for i in points) and len(own.items) >= 2:
                category = FactCategory.DIRECT_EVIDENCE
                codes = [*codes, "series:recovery_confirmed"]
            elif any(confirms_point(claim.text, i.value) for i in points):
                # "… was 87.21 at 14:12 UTC": the cited series holds exactly that value at that minute.
                category = FactCategory.DIRECT_EVIDENCE
                codes = [*codes, "series:point_confirmed"]
        if is_absence_claim(claim.text) and category is not FactCategory.CONTRADICTED:
            finding = judge_absence(claim.text, trace_summary)
            category = FactCategory.INDIRECT_SUPPORT if finding.established else FactCategory.NO_EVIDENCE
            codes = [*codes, finding.reason]
            refs = [finding.trace_ref] if finding.established else []
            rationale = (
                "an empty query of this scope: not found is not ruled out"
                if finding.established
                else "no query of this run covering that scope came back empty: absence is not shown"
            )
        return category, codes, rationale, refs

    @staticmethod
    def _apply_gate(
        assessment: ClaimAssessment, claim_gate: ClaimGate | None
    ) -> tuple[FactCategory, list[str]]:
        codes = list(assessment.reason_codes)
        category = assessment.category
        if claim_gate is None:
            return FactCategory.NO_EVIDENCE, [*codes, "gate:missing"]
        forged = any(code in FORGING_CODES for ref in claim_gate.refs for code in ref.reason_codes)
        if forged:
            return FactCategory.CONTRADICTED, [*codes, "gate:forged_evidence"]
        instructed = any(
            code == GateCode.INJECTION_INSTRUCTION_TEXT
            for ref in claim_gate.refs
            for code in ref.reason_codes
        )
        if instructed:
            # Quoting an instruction as support says where the claim came from: never usable.
            capped = FactCategory.NO_EVIDENCE if category in _SUPPORTED else category
            return capped, [*codes, "gate:instruction_text"]
        if not claim_gate.passed and category in _SUPPORTED:
            return FactCategory.NO_EVIDENCE, [*codes, "gate:no_valid_citation"]
        return category, codes

    # ------------------------------------------------------------------ needs

    @staticmethod
    def _coverage(
        needs: QuestionNeeds,
        claims: Sequence[Claim],
        facts: Sequence[FactCheck],
        owns: dict[str, _Own],
        equivalents: TermEquivalents | None = None,
    ) -> tuple[list[NeedCoverage], set[str]]:
        """Per need, the supported claims that meet it; and the supported claims about any need."""
        supported = [
            (claim, statement(claim.text, owns[claim.id].context, owns[claim.id].surround))
            for claim, fact in zip(claims, facts, strict=True)
            if fact.category in _SUPPORTED
        ]
        if not needs.needs:
            return [], {claim.id for claim, _ in supported}
        coverage: list[NeedCoverage] = []
        shown: set[str] = set()
        for need in needs.needs:
            matches = [
                (claim.id, match_need(need, view, equivalents=equivalents)) for claim, view in supported
            ]
            shown.update(cid for cid, m in matches if m.on_topic)
            met = [cid for cid, m in matches if m.met] or _record_and_name(
                need, matches, supported, equivalents
            )
            shown.update(met)
            if need.kind is AnswerKind.PROCEDURE and met:
                shown.update(_later_steps(met, supported, matches))
            shown.update(_added_to(met, supported))
            best = max((m for _, m in matches), key=lambda m: m.score, default=None)
            reasons = [] if met else (list(best.codes) if best else ["need:no_supported_claim"])
            texts = {claim.id: claim.text for claim, _ in supported}
            # Met only by document prose in another language than the question (an English question,
            # Chinese passages, or the reverse)? Records (log lines, metrics, orders) are matched on
            # names, codes and times, which cross languages unchanged.
            crossed = bool(met) and all(
                language_of(texts[cid]) != language_of(need.text)
                and any(i.evidence_type is EvidenceType.DOCUMENT_EVIDENCE for i in owns[cid].items)
                for cid in met
            )
            if crossed:
                reasons.append("need:cross_language")
            coverage.append(
                NeedCoverage(
                    need_id=need.id,
                    label=need.label,
                    met=bool(met),
                    claim_ids=met,
                    reason_codes=reasons,
                    cross_language=crossed,
                )
            )
        return coverage, shown

    @staticmethod
    def _retry_note(retry_context: RetryContext | None, coverage: Sequence[NeedCoverage]) -> str:
        """Round 2: how many of the needs round 1 left open are met now (recorded in the rationale)."""
        if retry_context is None or not retry_context.unmet_need_ids:
            return ""
        wanted = set(retry_context.unmet_need_ids)
        now = sum(1 for c in coverage if c.need_id in wanted and c.met)
        return f"; retry needs met {now}/{len(wanted)}"

    # ------------------------------------------------------------------ gaps

    @classmethod
    def _retry_gaps(
        cls, needs: QuestionNeeds, coverage: Sequence[NeedCoverage], facts: Sequence[FactCheck], zh: bool
    ) -> list[str]:
        labels = {n.id: n.label for n in needs.needs}
        gaps = [labels.get(c.need_id, c.label) for c in coverage if not c.met]
        gaps += [
            cls._gap_text(f, zh) for f in facts if f.key and f.category is not FactCategory.DIRECT_EVIDENCE
        ]
        return list(dict.fromkeys(gaps))

    @classmethod
    def _safe_gaps(
        cls,
        needs: QuestionNeeds,
        coverage: Sequence[NeedCoverage],
        facts: Sequence[FactCheck],
        shown: set[str],
        trace_summary: Sequence[ToolTraceSummaryEntry],
        zh: bool,
    ) -> list[str]:
        gaps = [c.label for c in coverage if not c.met]
        gaps += [
            cls._gap_text(f, zh)
            for f in facts
            if f.key and f.claim_id in shown and f.category is FactCategory.INDIRECT_SUPPORT
        ]
        conflicting = sum(
            1 for f in facts if f.claim_id and f.key and f.category is FactCategory.CONTRADICTED
        )
        unproven = sum(1 for f in facts if f.claim_id and f.key and f.category is FactCategory.NO_EVIDENCE)
        if conflicting:
            gaps.append(
                f"{conflicting} 条关键陈述与证据冲突，已略去"
                if zh
                else f"{conflicting} key statements conflict with the evidence and were left out"
            )
        if unproven:
            gaps.append(
                f"{unproven} 条关键陈述缺少证据，已略去"
                if zh
                else f"{unproven} key statements lack evidence and were left out"
            )
        if any(not c.met for c in coverage):
            # Seed 000: failed calls stay in the summary "供 Verifier 判断证据缺口".
            for entry in trace_summary:
                if entry.failures:
                    reason = entry.failures[0]
                    gaps.append(_texts(zh).gap_tool_failed.format(tool=entry.tool_name, reason=reason))
        return list(dict.fromkeys(gaps))

    @staticmethod
    def _gap_text(fact: FactCheck, zh: bool) -> str:
        texts = _texts(zh)
        if fact.category is FactCategory.INDIRECT_SUPPORT:
            return texts.gap_indirect_only.format(fact=fact.fact)
        if fact.category is FactCategory.CONTRADICTED:
            return texts.gap_contradicted.format(fact=fact.fact)
        return texts.gap_no_direct_evidence.format(fact=fact.fact)

    @staticmethod
    def _input_text(
        question: str,
        needs: QuestionNeeds,
        output: ExecutorOutput,
        trace_summary: Sequence[ToolTraceSummaryEntry],
        retry_context: RetryContext | None,
    ) -> str:
        """The verifier's explicit input as it would be sent to a model (for the token count).

        Claims carry their gatekeeper-verified excerpts; full passages are not repeated.
        """
        payload = {
            "original_query": question,
            "needs": [n.label for n in needs.needs],
            "claims": [
                {"id": c.id, "text": c.text, "excerpts": [r.excerpt for r in c.evidence_refs]}
                for c in output.claims
            ],
            "tool_trace_summary": [
                {
                    "trace_ref": e.trace_ref,
                    "tool": e.tool_name,
                    "success": e.success,
                    "evidence_level": e.evidence_level.value,
                    "output": e.output_summary,
                }
                for e in trace_summary
            ],
            "retry_context": retry_context.model_dump() if retry_context else None,
        }
        return json.dumps(payload, ensure_ascii=False)

"""The verifier: classifies each key fact, then code computes verdict and score (seed 000, 004 §5).

Its input is explicit state — the original query, the executor's structured claims, the gatekeeper
result, the tool trace summary and the retry context — never raw message history; planner and
executor reasoning never reach it.

On top of the per-claim classification (offline checker or an LLM judge), code applies:
- the gatekeeper: a claim citing forged evidence is `contradicted`; a claim without any valid
  citation can be no better than `no_evidence`;
- question coverage: every identifier, date, time and figure the question names must be covered by
  a supported claim, or it is a key fact with `no_evidence` (the answer did not address it).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from groundgate.contracts import (
    AgentStep,
    ClaimCheck,
    ClaimGate,
    ExecutorOutput,
    FactCategory,
    FactCheck,
    GatekeeperResult,
    ParseStatus,
    RetryContext,
    ToolTraceSummaryEntry,
    VerifierEvaluation,
)
from groundgate.models._parsing import estimate_tokens
from groundgate.runtime.evidence import EvidenceItem, evidence_by_ref, question_anchors
from groundgate.runtime.offline import QUESTION_WORDS as _QUESTION_WORDS
from groundgate.verify import fidelity
from groundgate.verify.assessment import ClaimAssessment, ClaimClassifier, Classification
from groundgate.verify.gatekeeper import FORGING_CODES
from groundgate.verify.judge import LLMJudge
from groundgate.verify.matrix import compute_verdict
from groundgate.verify.text import Span, is_cjk_text, normalize, split_sentences, tokenize

_SUPPORTED = frozenset({FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT})
_NEED_KINDS = frozenset({"identifier", "date", "time", "amount", "percent", "version"})
#: Share of a question part's terms the supported claims must use for that part to count as answered.
_PART_COVERAGE = 0.5


@dataclass(slots=True)
class Verification:
    """The evaluation, the step that records it, and the key gaps in user words."""

    evaluation: VerifierEvaluation
    step: AgentStep
    gaps: list[str]
    """Key gaps quoting the claims (retry context and the disclaimer, which shows the answer anyway)."""
    safe_gaps: list[str]
    """Gaps that quote no unverified claim, for `DEGRADED` (which must not carry the answer)."""


class Verifier:
    """Runs a claim classifier over the executor's claims and applies the code-level rules."""

    def __init__(self, classifier: ClaimClassifier) -> None:
        self.classifier = classifier

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
    ) -> Verification:
        started = time.perf_counter()
        zh = is_cjk_text(question)
        by_ref = evidence_by_ref(evidence)
        gates = {g.claim_id: g for g in gate.claims}

        # Passages: the evidence cited through valid references (what the gatekeeper proved real).
        cited: dict[tuple[str, str], EvidenceItem] = {}
        for claim_gate in gate.claims:
            for ref_check in claim_gate.refs:
                key = (ref_check.ref.invocation_id, ref_check.ref.citation_id or "")
                if ref_check.valid and key in by_ref:
                    cited.setdefault(key, by_ref[key])
        passages = [item.text for item in cited.values()]
        spans = [Span(c.text, 0, len(c.text)) for c in output.claims]
        verifier_input = self._input_text(question, output, trace_summary, retry_context)

        usage_in = usage_out = 0
        model_name = "offline-checker"
        status = ParseStatus.NOT_CALLED
        if not spans:
            classification = Classification([])
        elif isinstance(self.classifier, LLMJudge):
            run = self.classifier.judge(spans, passages or [""], question=question)
            classification = run.classification
            usage_in, usage_out = run.usage.input_tokens, run.usage.output_tokens
            model_name = run.model_name or self.classifier.model.name
            status = classification.judge_status
        else:
            classification = self.classifier.classify(spans, passages or [""], question=question)

        facts: list[FactCheck] = []
        claim_checks: list[ClaimCheck] = []
        for claim, assessment in zip(output.claims, classification.assessments, strict=True):
            category, codes = self._apply_gate(assessment, gates.get(claim.id))
            refs = [r.invocation_id for r in claim.evidence_refs]
            facts.append(
                FactCheck(
                    fact=claim.text,
                    category=category,
                    key=claim.critical or assessment.key,
                    claim_id=claim.id,
                    evidence_refs=refs,
                    reason_codes=codes,
                    rationale=assessment.rationale,
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
        facts.extend(self._uncovered_needs(question, facts, zh))

        outcome = compute_verdict(f.category for f in facts if f.key)
        gaps = [
            self._gap_text(f, zh) for f in facts if f.key and f.category is not FactCategory.DIRECT_EVIDENCE
        ]
        evaluation = VerifierEvaluation(
            verdict=outcome.verdict,
            groundedness_score=outcome.groundedness_score,
            critical_fact_count=outcome.critical_fact_count,
            claim_checks=claim_checks,
            facts_checked=facts,
            rationale=outcome.reason,
            round=round,
            executor_structured_output=output,
            gatekeeper_result=gate,
            tool_trace_summary=list(trace_summary),
            verifier_input_tokens=usage_in or estimate_tokens(verifier_input),
        )
        step = AgentStep(
            role="verifier",
            round=round,
            thought=f"{outcome.verdict.value} score {outcome.groundedness_score:.2f}: {outcome.reason}",
            reason_code=outcome.reason,
            model_output={
                "facts_checked": [
                    f.model_dump(mode="json", include={"fact", "category", "key"}) for f in facts
                ]
            },
            parse_status=status,
            model_name=model_name,
            input_tokens=usage_in or estimate_tokens(verifier_input),
            output_tokens=usage_out,
            latency_ms=(time.perf_counter() - started) * 1000,
        )
        return Verification(evaluation, step, gaps, self._safe_gaps(facts, zh))

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
        if not claim_gate.passed and category in _SUPPORTED:
            return FactCategory.NO_EVIDENCE, [*codes, "gate:no_valid_citation"]
        return category, codes

    @staticmethod
    def _uncovered_needs(question: str, facts: Sequence[FactCheck], zh: bool) -> list[FactCheck]:
        """Key facts for what the question asks about but no supported claim addresses.

        Needs: every identifier, date, time and figure the question names, the Latin-script names in
        a Chinese question (`etcd`), and — for a question in several parts — each part.
        """
        supported = [f.fact for f in facts if f.category in _SUPPORTED]
        covered_text = normalize(" ".join(supported))
        covered_lower = " ".join(supported).lower()
        covered_values = {
            (m.kind, str(m.value))
            for text in supported
            for m in fidelity.extract(text)
            if m.kind in _NEED_KINDS
        }
        needs: list[tuple[str, str]] = []
        for mention in fidelity.extract(question):
            if mention.kind not in _NEED_KINDS:
                continue
            value = str(mention.value)
            if (mention.kind, value) in covered_values or normalize(mention.text) in covered_text:
                continue
            if mention.kind == "time" and any(
                k == "time" and v.startswith(value[:5]) for k, v in covered_values
            ):
                continue
            # A date without a year (`3月14日` → `--03-14`) is covered by the same day in any year.
            if (
                mention.kind == "date"
                and value.startswith("--")
                and any(k == "date" and v.endswith(value[1:]) for k, v in covered_values)
            ):
                continue
            needs.append((mention.text, f"need:{mention.kind}"))
        named = {text for text, _ in needs}
        for anchor in question_anchors(question):
            if anchor not in named and anchor.lower() not in covered_lower:
                needs.append((anchor, "need:name"))
        parts = [p.text for p in split_sentences(question)]
        if len(parts) > 1:
            covered_tokens = set(tokenize(" ".join(supported)))
            for part in parts:
                wanted = {t for t in tokenize(part) if len(t) > 1 and t not in _QUESTION_WORDS}
                if wanted and len(wanted & covered_tokens) / len(wanted) < _PART_COVERAGE:
                    needs.append((part.rstrip("?？。. "), "need:question_part"))
        return [
            FactCheck(
                fact=(f"问题中的“{text}”" if zh else f"'{text}' from the question"),
                category=FactCategory.NO_EVIDENCE,
                key=True,
                reason_codes=["question_need_not_covered", code],
            )
            for text, code in needs
        ]

    @classmethod
    def _safe_gaps(cls, facts: Sequence[FactCheck], zh: bool) -> list[str]:
        needs = [
            cls._gap_text(f, zh)
            for f in facts
            if f.key and f.claim_id is None and f.category is FactCategory.NO_EVIDENCE
        ]
        conflicting = sum(
            1 for f in facts if f.claim_id and f.key and f.category is FactCategory.CONTRADICTED
        )
        unproven = sum(1 for f in facts if f.claim_id and f.key and f.category is FactCategory.NO_EVIDENCE)
        if conflicting:
            needs.append(
                f"{conflicting} 条关键陈述与证据冲突，已略去"
                if zh
                else f"{conflicting} key statements conflict with the evidence and were left out"
            )
        if unproven:
            needs.append(
                f"{unproven} 条关键陈述缺少证据，已略去"
                if zh
                else f"{unproven} key statements lack evidence and were left out"
            )
        return needs

    @staticmethod
    def _gap_text(fact: FactCheck, zh: bool) -> str:
        if fact.category is FactCategory.INDIRECT_SUPPORT:
            return f"“{fact.fact}”只有间接支持" if zh else f"“{fact.fact}” has only indirect support"
        if fact.category is FactCategory.CONTRADICTED:
            return f"“{fact.fact}”与证据冲突" if zh else f"“{fact.fact}” conflicts with the evidence"
        return f"“{fact.fact}”缺少直接证据" if zh else f"“{fact.fact}” lacks direct evidence"

    @staticmethod
    def _input_text(
        question: str,
        output: ExecutorOutput,
        trace_summary: Sequence[ToolTraceSummaryEntry],
        retry_context: RetryContext | None,
    ) -> str:
        """The verifier's explicit input as it would be sent to a model (for the token count).

        Claims carry their gatekeeper-verified excerpts; full passages are not repeated.
        """
        payload = {
            "original_query": question,
            "claims": [
                {"id": c.id, "text": c.text, "excerpts": [r.excerpt for r in c.evidence_refs]}
                for c in output.claims
            ],
            "tool_trace_summary": [
                {
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

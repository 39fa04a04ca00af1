"""Grounded composition and claim/reference validation (seed "agent.answer").

A composer — `compose_offline` (extractive, no model) or `ModelComposer` (the `composer` role) —
sees only the question, the covered slots and the gated evidence of this run: never a missing slot
to fill, never a tool's failure detail. It drafts statements and steps, each naming its need and
citations. `validate_answer` then keeps a statement only if (seed "证据资格与结论校验" 4):

- its need is a covered slot (`PARTIAL` shows covered slots only; a missing step is never filled in);
- every citation is gated evidence of this run *for that need* (`CITATION_NOT_GATED`);
- its numbers, dates, comparators, negation and versions agree with the cited text
  (`groundgate.verify.fidelity.check_claim`; `NUMBER_INCONSISTENT`);
- the cited text entails it, conservatively: most of its content words are in the cited text
  (`STATEMENT_NOT_ENTAILED`).

Dropped statements are recorded with their reason; the runtime downgrades the decision when a
covered slot is left without any statement (fail-closed). User-facing summaries for doubt are fixed
templates (`SUMMARY`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from groundgate.agent.apart import per_word
from groundgate.agent.contracts import (
    Citation,
    DecisionStatus,
    EvidenceAssessment,
    EvidenceType,
    GroundedAnswer,
    GroundedStatement,
    GroundedStep,
    NeedCode,
    ReasonCode,
    RejectedCandidate,
    SlotStatus,
    VerifiedFact,
)
from groundgate.agent.evidence import BEYOND_RULE as _BEYOND_RULE
from groundgate.agent.evidence import fitting, on_topic_sentences
from groundgate.agent.excluded import not_excluded
from groundgate.models.base import Message, Model
from groundgate.text import mask_instructions, tokenize
from groundgate.verify.fidelity import check_claim, extract

__all__ = [
    "ENTAILMENT_COVERAGE",
    "SUMMARY",
    "ComposerDraft",
    "DraftStatement",
    "DraftStep",
    "ModelComposer",
    "compose_offline",
    "fact_text",
    "validate_answer",
    "SUPERSEDED_SUMMARY",
]

#: Share of a statement's content words the cited text must contain.
ENTAILMENT_COVERAGE: Final = 0.7

SUMMARY: Final[dict[DecisionStatus, str]] = {
    DecisionStatus.ANSWERED: "以下内容均来自现行制度或您的实时数据：",
    DecisionStatus.PARTIAL: "以下仅包含已找到依据的部分，其余内容暂无可靠依据：",
    DecisionStatus.NO_EVIDENCE: "没有找到可以作为依据的现行制度或实时数据，暂时无法回答。",
    DecisionStatus.CONFLICT: "现行资料对此说法不一致，无法给出确定结论，请联系 HR 确认：",
    DecisionStatus.NEEDS_INPUT: "还需要您补充信息才能回答。",
}
#: An answer from a rule in force on the day asked about but superseded since says so first.
SUPERSEDED_SUMMARY: Final[dict[DecisionStatus, str]] = {
    DecisionStatus.ANSWERED: "以下内容来自您所问时间当时有效的制度（该版本现已不再执行）：",
    DecisionStatus.PARTIAL: "以下仅包含已找到依据的部分，依据为您所问时间当时有效的制度（该版本现已不再执行），"
    "其余内容暂无可靠依据：",
}
UNSUPPORTED_SUMMARY: Final = "当前没有可用的工具处理这个请求：我只能查询人事制度文件和您本人的当前待办。"

_STATUS_ZH: Final = {"PENDING": "待处理", "IN_PROGRESS": "进行中", "COMPLETED": "已完成"}
_STEP_MARKER = re.compile(
    r"^\s*(?:第[一二三四五六七八九十\d]+步[：:]?|\d{1,2}\s*[.、)）]|[（(]\d{1,2}[)）]|[一二三四五六七八九十]+、|步骤\s*\d[：:]?)\s*"
)


class DraftStatement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    need: str
    text: str
    citations: list[str] = Field(default_factory=list)


class DraftStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    citations: list[str] = Field(default_factory=list)


class ComposerDraft(BaseModel):
    """What a composer proposes; nothing of it reaches the user before `validate_answer`."""

    model_config = ConfigDict(extra="forbid")

    summary: str = ""
    statements: list[DraftStatement] = Field(default_factory=list)
    steps: list[DraftStep] = Field(default_factory=list)


def fact_text(fact: VerifiedFact) -> str:
    """A fact as the one sentence statements about it are checked against."""
    value = fact.value if isinstance(fact.value, dict) else {"value": fact.value}
    if fact.fact_type == "task.count":
        return _count_text(value)
    status = _STATUS_ZH.get(str(value.get("status")), str(value.get("status")))
    due = f"，截止 {value['dueDate']}" if value.get("dueDate") else ""
    # The task's key beside its title ("T-1001 审批张伟的北京差旅报销单"), so the user can refer to it by id.
    key = f"{value['taskKey']} " if value.get("taskKey") else ""
    return f"{key}{value.get('title', '')}（{status}{due}）"


def _count_text(value: dict[str, Any]) -> str:
    """ "您当前共有 5 项待办。", or with the read's scope when it had one — "您共有 1 项待办（截止日期
    2026-03-01 至 2026-03-31，已完成）。" — so a count is never read as the whole open list."""
    count = value.get("count", 0)
    start, _, end = (p if p not in ("…", "None") else "" for p in str(value.get("window", "")).partition("~"))
    scope = []
    if start and end:
        scope.append(f"截止日期 {start}" if start == end else f"截止日期 {start} 至 {end}")
    elif start or end:
        scope.append(f"截止日期不早于 {start}" if start else f"截止日期不晚于 {end}")
    status = str(value.get("status", "OPEN"))
    if status != "OPEN":
        scope.append("含已完成" if status == "ALL" else _STATUS_ZH.get(status, status))
    if not scope:
        return f"您当前共有 {count} 项待办。"
    return f"您共有 {count} 项待办（{'，'.join(scope)}）。"


def _texts(assessment: EvidenceAssessment) -> dict[str, str]:
    texts = {cid: mask_instructions(d.text, d.instruction_spans) for cid, d in assessment.documents.items()}
    texts.update({ref: fact_text(f) for ref, f in assessment.facts.items()})
    return texts


#: At most this many sentences state one slot.
MAX_SENTENCES_PER_SLOT: Final = 3


def _over_cap(sentences: Sequence[str], question: str) -> bool:
    """Whether the question names a sum above a cap one of the sentences states (`不超过 600 元`): an
    amount, or a bare figure priced per night or day ("一晚 700")."""
    items = extract(question).items
    per_unit = any(m.kind == "count" and m.unit in ("晚", "天") for m in items)
    asked = [
        float(m.value)
        for m in items
        if isinstance(m.value, float) and (m.kind == "amount" or (m.kind == "number" and per_unit))
    ]
    caps = [
        float(m.value)
        for s in sentences
        if any(c.kind == "comparator" and c.value == "<=" for c in extract(s).items)
        for m in extract(s).items
        if m.kind == "amount" and isinstance(m.value, float)
    ]
    return bool(asked and caps) and max(asked) > min(caps)


def _best(sentences: Sequence[str], question: str, need: NeedCode = NeedCode.AMOUNT_RULE) -> list[str]:
    """The sentences that state the slot, in text order.

    An amount: those sharing most words with the question (all of them on a tie: "住宿标准" without
    a city gets every city tier, "一线城市住宿标准" only its own). Anything else: the few sharing most
    words, since conditions come in pairs ("5000 元以内…；超过 5000 元的…").
    """
    terms = set(tokenize(question))
    # "一二线以外的城市": the tiers the question excludes are not its case; "其他城市" is.
    sentences = not_excluded(sentences, question)
    if need is NeedCode.AMOUNT_RULE:
        # An amount is stated for the case asked ("满 10 年" → the 10-20 year tier) only.
        everything = list(sentences)
        sentences = fitting(sentences, question)
        scores = [len(terms & set(tokenize(s))) for s in sentences]
        keep = {i for i, score in enumerate(scores) if score == max(scores)}
        if not any(_BEYOND_RULE.search(sentences[i]) for i in keep) and _over_cap(
            [sentences[i] for i in keep], question
        ):
            # "酒店一晚 900 元能全报吗" (blind 15): a sum above the cap is answered by the cap and by
            # what happens above it, stated next to the cap ("超出标准的部分由员工自行承担").
            beyond = [s for s in everything if _BEYOND_RULE.search(s)]
            if beyond:
                kept = [sentences[i] for i in sorted(keep)][: MAX_SENTENCES_PER_SLOT - 1]
                return [s for s in everything if s in kept or s == beyond[0]]
        if all(_BEYOND_RULE.search(sentences[i]) for i in keep):
            # "超出标准的部分由员工自行承担" alone does not say what the standard is: the rule it is
            # about (the best-matching one of the others) goes with it.
            rules = [s for s in everything if not _BEYOND_RULE.search(s)]
            if rules:
                ranked = max(rules, key=lambda s: len(terms & set(tokenize(s))))
                return [s for s in everything if s == ranked or s in {sentences[i] for i in keep}][
                    :MAX_SENTENCES_PER_SLOT
                ]
    else:
        # Rules in pairs stay together ("5000 元以内…；超过 5000 元的还需…"), the fitting one first.
        fits = set(fitting(sentences, question))
        ranks = [(s in fits, len(terms & set(tokenize(s)))) for s in sentences]
        keep = set(
            sorted(range(len(sentences)), key=lambda i: ranks[i], reverse=True)[:MAX_SENTENCES_PER_SLOT]
        )
    return [s for i, s in enumerate(sentences) if i in keep][:MAX_SENTENCES_PER_SLOT]


def compose_offline(assessment: EvidenceAssessment, question: str) -> ComposerDraft:
    """Extractive: for each covered slot, the sentence (or steps, or facts) that covered it."""
    draft = ComposerDraft()
    for slot in assessment.slots:
        if slot.status is not SlotStatus.COVERED or not slot.citations:
            continue
        if slot.need.code is NeedCode.TASK_STATE:
            for ref in slot.citations:
                draft.statements.append(
                    DraftStatement(
                        need=slot.need.code.value, text=fact_text(assessment.facts[ref]), citations=[ref]
                    )
                )
            continue
        for cid, asked in _read_as(slot.citations, question, slot.need.code, assessment.read_apart):
            sentences = on_topic_sentences(assessment.documents[cid], slot.need.code, asked)
            if not sentences:
                continue
            if slot.need.code is NeedCode.PROCESS_STEPS:
                draft.steps += [DraftStep(text=_STEP_MARKER.sub("", s), citations=[cid]) for s in sentences]
            else:
                shown = {st.text for st in draft.statements}
                draft.statements += [
                    DraftStatement(need=slot.need.code.value, text=text, citations=[cid])
                    for text in _best(sentences, asked, slot.need.code)
                    if text not in shown  # one sentence may cover two slots: it is said once
                ]
    return draft


def _read_as(
    citations: Sequence[str], question: str, need: NeedCode, read_apart: dict[str, list[int]] | None = None
) -> list[tuple[str, str]]:
    """(citation, question it answers): the first citation, for the question as asked; each
    citation once per word compared when the question compares two of one class ("病假和年假比起来…
    分别…") or asks the need apart of each, for the question about that word alone (`apart.per_word`)."""
    readings = per_word(question, need)
    if not readings:
        return [(citations[0], question)]
    # A citation is read for the words it covered when judged, if that was recorded (one outranked for
    # a word — the company's 600 元 beside the project's 800 元 for 北京 — is not read for it).
    apart = read_apart or {}
    return [
        (cid, reading)
        for cid in citations
        for i, reading in enumerate(readings)
        if i in apart.get(f"{need.value}:{cid}", range(len(readings)))
    ]


def conflict_statements(assessment: EvidenceAssessment, question: str) -> list[GroundedStatement]:
    """Both sides of each conflict, each with its own citation (no composer involved)."""
    out: list[GroundedStatement] = []
    for slot in assessment.slots:
        if slot.status is not SlotStatus.CONFLICT:
            continue
        for cid in slot.citations:
            # Words compared ("住宿上限和伙食补贴各是多少？") are read one at a time, as judged.
            for reading in per_word(question, slot.need.code) or [question]:
                sentences = on_topic_sentences(assessment.documents[cid], slot.need.code, reading)
                if sentences:
                    text = _best(sentences, reading)[0]
                    out.append(GroundedStatement(need=slot.need.code, text=text, citations=[cid]))
                    break
    return out


_COMPOSER_PROMPT = """Answer the employee's question in Chinese using ONLY the evidence below.
Return JSON {"summary": str, "statements": [{"need": code, "text": str, "citations": [ids]}],
"steps": [{"text": str, "citations": [ids]}]}. Each statement restates what its cited evidence says,
with the same numbers; cite only the ids given for that need; add nothing the evidence does not say."""


class ModelComposer:
    """The answer model: sees the gated evidence of covered slots only."""

    def __init__(self, model: Model) -> None:
        self._model = model

    def compose(self, assessment: EvidenceAssessment, question: str) -> ComposerDraft:
        texts = _texts(assessment)
        slots = [
            {"need": s.need.code.value, "label": s.need.label, "evidence": {c: texts[c] for c in s.citations}}
            for s in assessment.slots
            if s.status is SlotStatus.COVERED
        ]
        messages = [
            Message("system", _COMPOSER_PROMPT),
            Message("user", json.dumps({"question": question, "covered": slots}, ensure_ascii=False)),
        ]
        return self._model.request(messages, ComposerDraft, role="composer").output


def _statement_problem(
    text: str, citations: Sequence[str], allowed: set[str], texts: dict[str, str], question: str
) -> ReasonCode | None:
    if not citations or any(c not in allowed for c in citations):
        return ReasonCode.CITATION_NOT_GATED
    cited = "\n".join(texts[c] for c in citations)
    issues = check_claim(text, cited, cited, question=question)
    if any(i.severity == "contradiction" for i in issues):
        return ReasonCode.NUMBER_INCONSISTENT
    words = set(tokenize(text))
    if not words:
        return ReasonCode.STATEMENT_NOT_ENTAILED
    if len(words & set(tokenize(cited))) / len(words) < ENTAILMENT_COVERAGE:
        return ReasonCode.STATEMENT_NOT_ENTAILED
    return None


def validate_answer(
    draft: ComposerDraft, assessment: EvidenceAssessment, question: str
) -> tuple[GroundedAnswer, list[RejectedCandidate]]:
    """Keep only statements and steps that pass every check of the module docstring."""
    covered = {s.need.code: set(s.citations) for s in assessment.slots if s.status is SlotStatus.COVERED}
    texts = _texts(assessment)
    dropped: list[RejectedCandidate] = []
    statements: list[GroundedStatement] = []
    for index, st in enumerate(draft.statements):
        need = NeedCode(st.need) if st.need in NeedCode.__members__ else None
        if need is None or need not in covered:
            dropped.append(
                RejectedCandidate(
                    citation_id=f"statement:{index}", reason=ReasonCode.STATEMENT_UNCOVERED_SLOT
                )
            )
            continue
        problem = _statement_problem(st.text, st.citations, covered[need], texts, question)
        if problem is not None:
            dropped.append(RejectedCandidate(citation_id=f"statement:{index}", reason=problem))
            continue
        statements.append(GroundedStatement(need=need, text=st.text.strip(), citations=list(st.citations)))
    steps: list[GroundedStep] = []
    step_citations = covered.get(NeedCode.PROCESS_STEPS)
    for index, step in enumerate(draft.steps):
        if step_citations is None:
            dropped.append(
                RejectedCandidate(citation_id=f"step:{index}", reason=ReasonCode.STATEMENT_UNCOVERED_SLOT)
            )
            continue
        problem = _statement_problem(step.text, step.citations, step_citations, texts, question)
        if problem is not None:
            dropped.append(RejectedCandidate(citation_id=f"step:{index}", reason=problem))
            continue
        steps.append(
            GroundedStep(order=len(steps) + 1, text=step.text.strip(), citations=list(step.citations))
        )
    kept = {c for s in statements for c in s.citations} | {c for s in steps for c in s.citations}
    summary = ""
    if draft.summary.strip() and kept:
        problem = _statement_problem(draft.summary, sorted(kept), kept, texts, question)
        summary = draft.summary.strip() if problem is None else ""
    answer = GroundedAnswer(
        summary=summary, statements=statements, steps=steps, citations=citations_for(assessment, kept)
    )
    return answer, dropped


def citations_for(assessment: EvidenceAssessment, ids: set[str]) -> list[Citation]:
    """The citation list of an answer, in a stable order (documents, then facts)."""
    out: list[Citation] = []
    for cid, doc in assessment.documents.items():
        if cid in ids:
            out.append(
                Citation(
                    citation_id=cid,
                    evidence_type=EvidenceType.DOCUMENT_EVIDENCE,
                    source=doc.source,
                    # The gated passage itself, which each statement citing it was checked against:
                    # what a reader opening the citation needs to see, not just its heading.
                    excerpt=doc.text,
                )
            )
    for ref, fact in assessment.facts.items():
        if ref in ids:
            out.append(
                Citation(
                    citation_id=ref,
                    evidence_type=EvidenceType.VERIFIED_FACT,
                    source=fact.source_system,
                    excerpt=fact_text(fact),
                )
            )
    return out

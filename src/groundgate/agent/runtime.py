"""The bounded executor: at most three rounds, driven by explicit code (seed "agent.runtime").

1. **First execution** — the validated plan's actions, through the registry (which re-validates,
   authorizes with the `ExecutionContext`, times out and drops late results).
2. **One follow-up** — only when a slot is still missing *and* there is a new evidence target: a
   knowledge search aimed at the missing needs alone (with the subject an earlier round found, e.g.
   the referenced task's title). A call whose tool and normalised arguments hash like an earlier one
   is never made again; no new target stops at once (`NO_NEW_EVIDENCE_TARGET`).
3. **Third round** — no tool runs: it only asks a clarifying question (`NEEDS_INPUT`) or ends.

Budgets cap tool calls and wall time; a tool's `TIMEOUT` or failure is an observation with a reason
code, never retried, and its detail never reaches the answer model. Zero qualified evidence ends in
`NO_EVIDENCE` without calling the answer model (invariant 6). The trace keeps structured actions,
observations and reason codes only — no model reasoning (invariant 7).

A `sink` (the chat orchestrator's `RunSink` seam, e.g. the store's `RunRecorder`) receives the run as
it happens: the planner step once the plan is validated, then each tool result as its call returns.
The gatekeeper and composer steps are not sent: they are part of the final record
(`agent.recording.run_result_of`), which starts with exactly what was sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from groundgate.agent.answer import (
    SUMMARY,
    SUPERSEDED_SUMMARY,
    UNSUPPORTED_SUMMARY,
    ModelComposer,
    citations_for,
    compose_offline,
    conflict_statements,
    validate_answer,
)
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import (
    ActionRecord,
    AgentTool,
    ContextRelation,
    DecisionResult,
    DecisionStatus,
    EvidenceAssessment,
    ExecutionContext,
    FactRefRecord,
    GroundedAnswer,
    Intent,
    NeedCode,
    ReasonCode,
    RejectedCandidate,
    ResolvedContext,
    SemanticQueryPlan,
    SlotStatus,
    ToolCall,
    ToolResult,
)
from groundgate.agent.difference import with_difference
from groundgate.agent.evidence import EvidenceEvaluator, ambiguous_tasks
from groundgate.agent.holders import another_account
from groundgate.agent.legs import with_legs_total
from groundgate.agent.overage import with_overage
from groundgate.agent.planning import SemanticPlanner, parts_without_need
from groundgate.agent.recording import new_run_id, planner_step
from groundgate.agent.tiers import as_service_length, unstated_tier
from groundgate.agent.tools import TASK_TTL_SECONDS, snapshot
from groundgate.agent.totals import CHANGE_LABEL, unworked_change, with_total
from groundgate.contracts import ToolStatus
from groundgate.errors import ModelError
from groundgate.models.base import Model
from groundgate.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from groundgate.runtime.orchestrator import RunSink

__all__ = ["AgentBudgets", "AgentRuntime", "MAX_EVIDENCE_ROUNDS"]

#: First execution plus one follow-up (invariant 5); a third round only clarifies or ends.
MAX_EVIDENCE_ROUNDS = 2


@dataclass(frozen=True, slots=True)
class AgentBudgets:
    max_tool_calls: int = 4
    max_candidates: int = 12
    """Documents kept per knowledge result (the best ranked first)."""
    wall_seconds: float = 20.0


class _Execution:
    """The calls of one run: dedup by hash, budgets, and the structured trace."""

    def __init__(
        self,
        registry: ToolRegistry,
        ctx: ExecutionContext,
        run_id: str,
        budgets: AgentBudgets,
        sink: RunSink | None = None,
    ) -> None:
        self.registry, self.ctx, self.run_id, self.budgets = registry, ctx, run_id, budgets
        self.sink = sink
        self.seen: set[str] = set()
        self.results: list[ToolResult] = []
        self.actions: list[ActionRecord] = []
        self.started = time.monotonic()

    def is_new(self, call: ToolCall) -> bool:
        return self.registry.call_key(call) not in self.seen

    def run(self, call: ToolCall, round_no: int) -> ToolResult | None:
        key = self.registry.call_key(call)
        reason: ReasonCode | None = None
        if key in self.seen:
            reason = ReasonCode.DUPLICATE_CALL
        elif (
            len(self.seen) >= self.budgets.max_tool_calls
            or time.monotonic() - self.started > self.budgets.wall_seconds
        ):
            reason = ReasonCode.BUDGET_EXHAUSTED
        if reason is not None:
            self.actions.append(
                ActionRecord(
                    round=round_no,
                    tool=call.tool,
                    arguments=call.arguments,
                    purpose=call.purpose,
                    reason=reason,
                )
            )
            return None
        self.seen.add(key)
        result = self.registry.execute(call, self.ctx, run_id=self.run_id, round=round_no)
        if len(result.documents) > self.budgets.max_candidates:
            result = result.model_copy(update={"documents": result.documents[: self.budgets.max_candidates]})
        done = ReasonCode.FOLLOW_UP_ROUND if round_no > 1 else ReasonCode.PLAN_OK
        code = {
            ToolStatus.OK: done,
            ToolStatus.EMPTY: done,
            ToolStatus.TIMEOUT: ReasonCode.TIMEOUT,
        }.get(result.status, ReasonCode.TOOL_FAILED)
        # The observation is the tool's structured summary; an error's detail stays in the registry's
        # record (`ToolResult.error`) and is never shown to a model.
        observation = (
            result.observation if result.status in (ToolStatus.OK, ToolStatus.EMPTY) else result.status.value
        )
        self.actions.append(
            ActionRecord(
                round=round_no,
                tool=call.tool,
                arguments=result.arguments,
                purpose=call.purpose,
                status=result.status,
                reason=code,
                observation=observation,
                invocation_id=result.invocation_id,
            )
        )
        self.results.append(result)
        if self.sink is not None:
            self.sink.on_tool_result(result)
        return result


class AgentRuntime:
    """Resolve → plan → execute (≤ 2 rounds) → evaluate → compose → validate → decide."""

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        planner_model: Model | None = None,
        composer_model: Model | None = None,
        clock: Callable[[], datetime] | None = None,
        budgets: AgentBudgets | None = None,
    ) -> None:
        self._registry = registry
        self._clock = clock or (lambda: datetime.now(UTC))
        self._planner = SemanticPlanner(registry, model=planner_model, clock=self._clock)
        self._composer = ModelComposer(composer_model) if composer_model is not None else None
        self._budgets = budgets or AgentBudgets()

    def now(self) -> datetime:
        """The runtime's clock now (what a recorded turn is replayed at)."""
        return self._clock()

    def run(
        self,
        question: str,
        ctx: ExecutionContext,
        *,
        state: ConversationState | None = None,
        client_refs: Sequence[str] = (),
        run_id: str | None = None,
        sink: RunSink | None = None,
    ) -> DecisionResult:
        """Decide one question; `sink` (optional) receives the planner step and each tool result as
        they happen (see the module docstring)."""
        run_id = run_id or new_run_id()
        now = self._clock()
        resolved = resolve_context(question, state, ctx, now, client_refs=client_refs)
        plan = self._planner.plan(resolved)
        if sink is not None:
            sink.on_step(planner_step(plan))
        base = DecisionResult(
            run_id=run_id,
            status=DecisionStatus.NEEDS_INPUT,
            reason=ReasonCode.PLAN_OK,
            question=question,
            resolved=resolved,
            plan=plan,
        )
        if not plan.complete:
            answer = GroundedAnswer(
                summary=SUMMARY[DecisionStatus.NEEDS_INPUT],
                clarifying_questions=["请说明您要查询的是哪项人事制度（如报销、休假），或您本人的待办。"],
            )
            return base.model_copy(
                update={"reason": ReasonCode.INCOMPLETE_PLAN, "fallback": True, "answer": answer}
            )
        if plan.intent is Intent.UNSUPPORTED or (
            any(n.code is NeedCode.TASK_STATE for n in plan.needs)
            and another_account(resolved.resolved_question, ctx.user, ctx.project or "")
        ):
            answer = GroundedAnswer(summary=UNSUPPORTED_SUMMARY)
            return base.model_copy(
                update={
                    "status": DecisionStatus.NO_EVIDENCE,
                    "reason": ReasonCode.UNSUPPORTED_CAPABILITY,
                    "answer": answer,
                }
            )
        if resolved.relation is ContextRelation.REFERENCE and not resolved.trusted_refs:
            # The item pointed at cannot be re-read: ask, never guess from an earlier answer.
            answer = GroundedAnswer(
                summary=SUMMARY[DecisionStatus.NEEDS_INPUT],
                missing_information=resolved.gaps,
                clarifying_questions=["请重新查询您的待办列表，再告诉我是第几项。"],
            )
            reason = next(iter(resolved.refused_refs.values()), ReasonCode.REF_UNKNOWN)
            return base.model_copy(update={"reason": reason, "answer": answer})

        tier = (
            unstated_tier(resolved.resolved_question, [n.code for n in plan.needs])
            if resolved.relation is ContextRelation.NEW and not resolved.trusted_refs
            else None
        )
        if tier is not None:
            # "出差住酒店一晚上能报多少钱？": the tier is the asker's case, which the question leaves out.
            answer = GroundedAnswer(summary=SUMMARY[DecisionStatus.NEEDS_INPUT], clarifying_questions=[tier])
            return base.model_copy(update={"reason": ReasonCode.CLARIFY, "answer": answer})
        execution = _Execution(self._registry, ctx, run_id, self._budgets, sink)
        focus = {r.item_key: r.fact_ref for r in resolved.trusted_refs}
        asked = _document_question(plan, now.date())
        evaluator = EvidenceEvaluator(
            ctx=ctx,
            now=now,
            run_id=run_id,
            question=asked,
            focus_items=focus,
            whole_question=plan.normalized_question,
        )
        for call in plan.actions:
            execution.run(call, 1)
        assessment = evaluator.evaluate(plan.needs, execution.results)
        choices = (
            ambiguous_tasks(resolved.question, [f for r in execution.results for f in r.facts])
            if not resolved.trusted_refs and all(n.code is NeedCode.TASK_STATE for n in plan.needs)
            else []
        )
        if choices:
            # "我那个审批还剩几天？" with two approvals open: ask which one, never pick one.
            answer = GroundedAnswer(
                summary=SUMMARY[DecisionStatus.NEEDS_INPUT],
                clarifying_questions=[f"您指的是哪一项：{'，还是'.join(choices)}？"],
            )
            update = {"actions": execution.actions, "tool_results": execution.results, "rounds": 1}
            return base.model_copy(update={**update, "reason": ReasonCode.CLARIFY, "answer": answer})
        if resolved.trusted_refs:
            # "第二个任务怎么处理": what the question is about is the re-read item, not its words.
            evaluator.question = f"{_titles(assessment)} {asked}"
            assessment = evaluator.evaluate(plan.needs, execution.results)
        rounds = 1
        if assessment.missing and not assessment.conflicts:
            target = _follow_up_target(plan, assessment, resolved)
            if target is not None and execution.is_new(target):
                execution.run(target, 2)
                rounds = 2
                assessment = evaluator.evaluate(plan.needs, execution.results)
            else:
                execution.actions.append(
                    ActionRecord(round=2, tool="-", reason=ReasonCode.NO_NEW_EVIDENCE_TARGET)
                )
        return self._decide(base, plan, resolved, assessment, execution, rounds, now)

    # ------------------------------------------------------------------ deciding

    def _decide(
        self,
        base: DecisionResult,
        plan: SemanticQueryPlan,
        resolved: ResolvedContext,
        assessment: EvidenceAssessment,
        execution: _Execution,
        rounds: int,
        now: datetime,
    ) -> DecisionResult:
        result = base.model_copy(
            update={
                "actions": execution.actions,
                "rounds": rounds,
                "conflicts": assessment.conflicts,
                "tool_results": execution.results,
            }
        )
        question = plan.normalized_question
        missing_labels = [s.need.label for s in assessment.missing]
        if assessment.conflicts:
            statements = conflict_statements(assessment, _document_question(plan, now.date()))
            ids = {c for group in assessment.conflicts for c in group}
            answer = GroundedAnswer(
                summary=SUMMARY[DecisionStatus.CONFLICT],
                statements=statements,
                missing_information=missing_labels,
                citations=citations_for(assessment, ids),
            )
            return result.model_copy(
                update={
                    "status": DecisionStatus.CONFLICT,
                    "reason": ReasonCode.SOURCE_CONFLICT,
                    "answer": answer,
                    "slots": assessment.slots,
                }
            )
        if not assessment.covered:
            return self._no_evidence(result, assessment, resolved, missing_labels)

        called = False
        draft = None
        dropped: list[RejectedCandidate] = []
        if self._composer is not None:
            called = True
            try:
                draft = self._composer.compose(assessment, question)
            except ModelError:
                dropped.append(
                    RejectedCandidate(citation_id="composer", reason=ReasonCode.COMPOSER_MODEL_FAILED)
                )
        if draft is None:
            draft = compose_offline(assessment, _document_question(plan, now.date()))
        answer, more = validate_answer(draft, assessment, question)
        # worked in code, from validated figures
        answer = with_legs_total(with_difference(with_total(answer, question), question), question)
        answer = with_overage(answer, question)  # the sum claimed against the cap (blind 28)
        dropped += more
        # Fail-closed: a covered slot left without any statement is not answered after all.
        shown = {s.need for s in answer.statements} | ({NeedCode.PROCESS_STEPS} if answer.steps else set())
        slots = [
            s.model_copy(update={"status": SlotStatus.MISSING, "citations": []})
            if s.status is SlotStatus.COVERED and s.need.code not in shown
            else s
            for s in assessment.slots
        ]
        covered = [s for s in slots if s.status is SlotStatus.COVERED]
        missing = [s.need.label for s in slots if s.status is SlotStatus.MISSING]
        missing += [label for label in assessment.unfound if label not in missing]  # words compared
        if all(n.code is not NeedCode.TASK_STATE for n in plan.needs):
            # A part of the question no need names is unanswered too: the rest is at most PARTIAL. (A
            # task's parts — "批了没有？截止哪天？" — are all about the task the facts describe.)
            missing += parts_without_need(plan.original_question)
        if unworked_change(answer, plan.original_question):
            missing.append(CHANGE_LABEL)
        if not covered:
            downgraded = assessment.model_copy(update={"slots": slots})
            out = self._no_evidence(result, downgraded, resolved, missing)
            reason = dropped[0].reason if dropped else ReasonCode.STATEMENT_NOT_ENTAILED
            return out.model_copy(
                update={"answer_model_called": called, "dropped_statements": dropped, "reason": reason}
            )
        status = DecisionStatus.PARTIAL if missing else DecisionStatus.ANSWERED
        summaries = SUMMARY
        cited = {c for s in answer.statements for c in s.citations} | {
            c for s in answer.steps for c in s.citations
        }
        if any(
            (doc := assessment.documents.get(c)) is not None
            and doc.effective_to is not None
            and doc.effective_to < now.date()
            for c in cited
        ):
            summaries = SUPERSEDED_SUMMARY
        answer = answer.model_copy(
            update={"summary": answer.summary or summaries[status], "missing_information": missing}
        )
        return result.model_copy(
            update={
                "status": status,
                "reason": ReasonCode.ALL_SLOTS_COVERED if not missing else ReasonCode.PLAN_OK,
                "answer": answer,
                "slots": slots,
                "answer_model_called": called,
                "dropped_statements": dropped,
                "new_refs": _new_refs(plan, assessment, answer, execution, resolved, now),
                "domain_result": _domain_result(assessment),
            }
        )

    def _no_evidence(
        self,
        result: DecisionResult,
        assessment: EvidenceAssessment,
        resolved: ResolvedContext,
        missing: list[str],
    ) -> DecisionResult:
        focus_gone = bool(resolved.trusted_refs) and any(
            s.need.code is NeedCode.TASK_STATE and s.status is SlotStatus.MISSING for s in assessment.slots
        )
        if focus_gone:
            answer = GroundedAnswer(
                summary=SUMMARY[DecisionStatus.NEEDS_INPUT],
                missing_information=missing,
                clarifying_questions=["您提到的那项待办已不在当前列表中，请重新查询待办后再告诉我是第几项。"],
            )
            return result.model_copy(
                update={
                    "status": DecisionStatus.NEEDS_INPUT,
                    "reason": ReasonCode.REF_ITEM_GONE,
                    "answer": answer,
                    "slots": assessment.slots,
                }
            )
        answer = GroundedAnswer(summary=SUMMARY[DecisionStatus.NO_EVIDENCE], missing_information=missing)
        return result.model_copy(
            update={
                "status": DecisionStatus.NO_EVIDENCE,
                "reason": ReasonCode.ZERO_QUALIFIED_EVIDENCE,
                "answer": answer,
                "slots": assessment.slots,
            }
        )


def _follow_up_target(
    plan: SemanticQueryPlan, assessment: EvidenceAssessment, resolved: ResolvedContext
) -> ToolCall | None:
    """A knowledge search aimed at the missing document needs only, or None."""
    missing = [s.need for s in assessment.missing if s.need.code is not NeedCode.TASK_STATE]
    if not missing:
        return None
    subject = _titles(assessment) if resolved.trusted_refs else ""
    if not subject:
        subject = " ".join(plan.entities) or plan.normalized_question
    query = f"{subject} {' '.join(n.label for n in missing)}".strip()
    arguments: dict[str, object] = {"query": query[:500]}
    if plan.domain:
        arguments["domain"] = plan.domain
    return ToolCall(
        tool=AgentTool.KNOWLEDGE_SEARCH.value, arguments=arguments, purpose=",".join(n.code for n in missing)
    )


def _document_question(plan: SemanticQueryPlan, today: date) -> str:
    """What the documents must be about: the knowledge search's query (a mixed question's task part
    left out), else the question — a joining date said as the years it makes (`as_service_length`)."""
    search = next((a for a in plan.actions if a.tool == AgentTool.KNOWLEDGE_SEARCH.value), None)
    return as_service_length(
        str(search.arguments.get("query")) if search else plan.normalized_question, today
    )


def _titles(assessment: EvidenceAssessment) -> str:
    """The titles of the task facts that stand (the subject of a question about one task)."""
    titles = [
        str(f.value.get("title", ""))
        for f in assessment.facts.values()
        if f.fact_type == "task" and isinstance(f.value, dict)
    ]
    return " ".join(t for t in titles if t)


def _new_refs(
    plan: SemanticQueryPlan,
    assessment: EvidenceAssessment,
    answer: GroundedAnswer,
    execution: _Execution,
    resolved: ResolvedContext,
    now: datetime,
) -> list[FactRefRecord]:
    """Records for the task items the answer listed, numbered as shown (what "第二个" points at)."""
    if resolved.trusted_refs:
        return []  # a re-read of one item keeps the list the user is numbering
    call = next(
        (
            r
            for r in execution.results
            if r.tool == AgentTool.MY_CURRENT_TASKS.value and r.status is ToolStatus.OK
        ),
        None,
    )
    if call is None:
        return []
    records: list[FactRefRecord] = []
    for statement in answer.statements:
        for ref in statement.citations:
            fact = assessment.facts.get(ref)
            if fact is None or fact.fact_type != "task" or not isinstance(fact.value, dict):
                continue
            records.append(
                FactRefRecord(
                    fact_ref=ref,
                    tool=AgentTool.MY_CURRENT_TASKS,
                    arguments=dict(call.arguments),
                    item_key=str(fact.value.get("taskKey")),
                    ordinal=len(records) + 1,
                    queried_at=fact.queried_at,
                    ttl_seconds=fact.ttl_seconds or TASK_TTL_SECONDS,
                    scope=fact.scope,
                    authorization_snapshot=dict(fact.authorization_snapshot) or snapshot(execution.ctx),
                    audit_ref=execution.run_id,
                )
            )
    return records


def _domain_result(assessment: EvidenceAssessment) -> dict[str, object]:
    tasks = [f.value for f in assessment.facts.values() if f.fact_type == "task"]
    return {"tasks": tasks} if tasks else {}

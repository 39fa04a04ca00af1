"""The round orchestrator: understand → plan → execute tools → gatekeeper → verifier → composer, in code.

Understanding (issue 11): a follow-up ("那 P2 呢？") is completed from the session's earlier
*questions* (`history`; answers are never passed, so never evidence), and the question's needs are
derived (`groundgate.questions`). Both are recorded on the round-1 planner step, in
`verifier_evaluation` and on the `RunResult`. The planner searches for the needs; the verifier
reports which needs the verified claims meet.

Routing (docs/design.md §2, with need coverage next to the verdict):
- `REJECT` → `DEGRADED` at once (no second round);
- `PASS` with every need met → `NORMAL`;
- a need still unmet, or `LOW_CONFID` below the threshold → one more round (if any) whose
  `retry_context` names the unmet needs (`unmet_need_ids`) and the claims lacking evidence; the
  planner searches for those needs only;
- otherwise → `LOW_CONFID_WITH_DISCLAIMER` with the verified claims about the question and the gaps;
  `DEGRADED` when no verified claim is about the question. An answer that meets no need is never
  `NORMAL`.
Zero qualified evidence → `DEGRADED` / `NO_EVIDENCE` without calling the executor (the model that
writes answers).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from groundgate.compose import (
    Citation,
    ComposableClaim,
    ComposedAnswer,
    Language,
    compose_degraded,
    compose_disclaimer,
    compose_normal,
    language_of,
)
from groundgate.compose.templates import templates
from groundgate.contracts import (
    AgentStep,
    AnswerCitation,
    ConditionKind,
    DecisionStatus,
    ExecutionContext,
    ExecutorOutput,
    FactCategory,
    ParseStatus,
    PlannerOutput,
    QuestionNeeds,
    RetryContext,
    RunEvent,
    RunResult,
    StopReason,
    ToolCall,
    ToolResult,
    ToolSpec,
    ToolStatus,
    Verdict,
)
from groundgate.questions import (
    Turn,
    derive_needs,
    failure_terms,
    gives_kind,
    refers_back,
    resolve_followup,
    statement,
)
from groundgate.runtime.budgets import Budgets
from groundgate.runtime.line_kinds import REPEAT_PENALTY, repeated_lines, unspoken_names
from groundgate.runtime.roles import ExecuteRequest, Executor, Planner, PlanRequest
from groundgate.runtime.tool_trace_summary import build_tool_trace_summary
from groundgate.runtime.window_stats import class_weight, states_a_statistic
from groundgate.verify import fidelity
from groundgate.verify.evidence_items import (
    EvidenceItem,
    every_evidence_ref,
    mentions_any,
    qualified_evidence,
    question_anchors,
)
from groundgate.verify.gatekeeper import gatekeep
from groundgate.verify.verifier import Verification, Verifier

EventSink = Callable[[RunEvent], None]


def _retry_context(
    state: _RunState, language: Language, round_no: int, unmet: Sequence[str], missing: Sequence[str]
) -> RetryContext:
    """What the follow-up round is told: the unmet needs and the evidence missing for them (the
    question itself when nothing narrower is known)."""
    return RetryContext(
        round=round_no,
        missing_evidence_facts=list(missing) or [state.resolved],
        instruction=(
            "仅补充以上断言相关证据，不要重复已完成检索"
            if language == "zh-CN"
            else "Only gather evidence for the statements above; do not repeat finished searches."
        ),
        unmet_need_ids=list(unmet),
    )


def _names_a_moment(state: _RunState) -> bool:
    """Whether a need of the question is about a day or a time (a window live evidence covers)."""
    return any(
        c.kind in (ConditionKind.DATE, ConditionKind.TIME) for n in state.needs.needs for c in n.conditions
    )


_STATABLE = frozenset({FactCategory.DIRECT_EVIDENCE, FactCategory.INDIRECT_SUPPORT})


class RunSink(Protocol):
    """Receives each step and each tool result as it happens (e.g. the store's `RunRecorder`).

    The composer's closing step is not sent: it is part of the final `RunResult`.
    """

    def on_step(self, step: AgentStep) -> None: ...

    def on_tool_result(self, result: ToolResult) -> None: ...


def _covered_by_windows(question: str, calls: Sequence[ToolCall]) -> set[str]:
    """Question dates/times that a planned `start`..`end` window contains (a window is no change)."""
    windows: list[tuple[datetime, datetime]] = []
    for call in calls:
        start, end = call.arguments.get("start"), call.arguments.get("end")
        try:
            if start and end:
                windows.append((datetime.fromisoformat(str(start)), datetime.fromisoformat(str(end))))
        except ValueError:
            continue
    covered: set[str] = set()
    for mention in fidelity.extract(question):
        value = str(mention.value)
        for lo, hi in windows:
            if mention.kind == "time" and re.fullmatch(r"\d{2}:\d{2}", value):
                # `2点08分` with no daypart is either half of the day (`12h`): 14:08 keeps it too.
                hours = {int(value[:2])} | ({int(value[:2]) + 12} if mention.qualifier == "12h" else set())
                if any(
                    lo <= d.replace(hour=h % 24, minute=int(value[3:])) <= hi for d in (lo, hi) for h in hours
                ):
                    covered.add(mention.text)
            elif mention.kind == "date":
                tail = value[-5:]  # MM-DD, with or without a year
                days = {lo.strftime("%m-%d"), hi.strftime("%m-%d")}
                year_ok = value.startswith("--") or value[:4] in {str(lo.year), str(hi.year)}
                if tail in days and year_ok:
                    covered.add(mention.text)
    return covered


class PlanCheckLike(Protocol):
    @property
    def ok(self) -> bool: ...

    @property
    def reason_code(self) -> str: ...

    @property
    def detail(self) -> str: ...

    @property
    def calls(self) -> Sequence[ToolCall]: ...


class ToolBackend(Protocol):
    """What the orchestrator needs from the tool registry."""

    def describe_for_model(self) -> list[dict[str, Any]]: ...

    def validate_plan(self, calls: Sequence[ToolCall]) -> PlanCheckLike: ...

    def execute(self, call: ToolCall, ctx: ExecutionContext, *, run_id: str, round: int) -> ToolResult: ...

    def call_key(self, call: ToolCall) -> str: ...

    def get(self, name: str) -> ToolSpec: ...


@dataclass(slots=True)
class _RunState:
    run_id: str
    session_id: str
    question: str
    needs: QuestionNeeds
    started: float
    steps: list[AgentStep] = field(default_factory=list)
    plans: list[PlannerOutput] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    done_keys: set[str] = field(default_factory=set)
    done_calls: list[ToolCall] = field(default_factory=list)
    retry_context: RetryContext | None = None
    unspoken: tuple[str, ...] = ()
    """The question's identifiers nothing read in round 1 mentions (the follow-up reads their lines)."""
    executor_output: ExecutorOutput | None = None
    verification: Verification | None = None
    sink: RunSink | None = None
    tool_descriptions: list[dict[str, Any]] | None = None

    @property
    def resolved(self) -> str:
        """The question the run answers (a follow-up completed from the session's earlier questions)."""
        return self.needs.resolved_question

    def add_step(self, step: AgentStep) -> None:
        self.steps.append(step)
        if self.sink is not None:
            self.sink.on_step(step)

    def add_result(self, result: ToolResult) -> None:
        self.results.append(result)
        if self.sink is not None:
            self.sink.on_tool_result(result)


def _referred_question(question: str, resolved: bool, history: Sequence[Turn] | None) -> str | None:
    """The session's last question when `question` points back to it by a pronoun (and was not
    already completed as a follow-up): its subject is what the pronoun stands for."""
    if resolved or not history or not refers_back(question):
        return None
    last = history[-1]
    return (last[1] or last[0]).strip() or None


class Orchestrator:
    """Runs one question through at most two evidence rounds, within budgets."""

    def __init__(
        self,
        tools: ToolBackend,
        *,
        planner: Planner,
        executor: Executor,
        verifier: Verifier,
        fallback_planner: Planner | None = None,
        budgets: Budgets | None = None,
        clock: Callable[[], float] = time.monotonic,
        tenants: Callable[[], Collection[str]] | None = None,
    ) -> None:
        """`tenants` lists the tenants whose data is loaded (`Workspace.tenants`): a question naming
        one other than the asker's is about that tenant's scope (`derive_needs`)."""
        self.tools = tools
        self.tenants = tenants
        self.planner = planner
        self.fallback_planner = fallback_planner
        self.executor = executor
        self.verifier = verifier
        self.budgets = budgets or Budgets()
        self.clock = clock

    # ------------------------------------------------------------------ public

    def run(
        self,
        question: str,
        ctx: ExecutionContext,
        *,
        run_id: str | None = None,
        session_id: str | None = None,
        on_event: EventSink | None = None,
        sink: RunSink | None = None,
        history: Sequence[Turn] | None = None,
    ) -> RunResult:
        """Run one question; `sink` (optional) receives each step and tool result as it happens.

        `history`: the session's earlier turns, oldest first, as (question, resolved question) — for
        understanding a follow-up only; never answers, never evidence.
        """
        emit = on_event or (lambda _event: None)
        started = self.clock()
        resolution = resolve_followup(question, history or ())
        state = _RunState(
            run_id=run_id or uuid.uuid4().hex,
            session_id=session_id or uuid.uuid4().hex,
            question=question,
            needs=derive_needs(
                question,
                resolved_question=resolution.question,
                followup=resolution.followup,
                previous_question=_referred_question(question, resolution.followup, history),
                other_tenants=[t for t in (self.tenants() if self.tenants else ()) if t != ctx.tenant],
                own_tenant=ctx.tenant,
            ),
            started=started,
            sink=sink,
        )
        emit(
            RunEvent(
                stage="run_started", detail={"run_id": state.run_id, "resolved_question": state.resolved}
            )
        )
        language = language_of(state.resolved)
        rounds = 0
        stop_reason: StopReason | None = None
        for round_no in range(1, self.budgets.max_rounds + 1):
            rounds = round_no
            new_calls = self._plan(state, round_no, emit)
            if new_calls is None:
                stop_reason = StopReason.NO_VALID_PLAN
                break
            if round_no > 1 and not new_calls:
                stop_reason = StopReason.NO_NEW_EVIDENCE_TARGET
                break
            budget_stop = self._execute(state, new_calls, ctx, round_no, emit)
            evidence = self._qualified(state)
            if not evidence:
                if (
                    state.verification is None
                    and round_no < self.budgets.max_rounds
                    and not budget_stop
                    and self.budgets.follow_up_without_evidence
                    and (_names_a_moment(state) or unspoken_names(state.results, state.needs))
                ):
                    # Nothing qualified in the documents, but the question is about a moment ("on
                    # March 14"): the one follow-up round may look where live evidence of it is (the
                    # logs and metrics of that window), aimed at every need. A plan with nothing new
                    # ends the run as before; a question about no moment ends here.
                    state.unspoken = unspoken_names(state.results, state.needs)
                    every = [n.id for n in state.needs.needs]
                    labels = [n.label for n in state.needs.needs]
                    state.retry_context = _retry_context(state, language, round_no, every, labels)
                    continue
                if state.verification is None:
                    return self._finish_no_evidence(
                        state, language, rounds, budget_stop or StopReason.NO_QUALIFIED_EVIDENCE, emit
                    )
                stop_reason = budget_stop or StopReason.NO_NEW_EVIDENCE
                break
            if self._elapsed(state) >= self.budgets.wall_seconds:
                stop_reason = StopReason.BUDGET_WALL_TIME
                if state.verification is None:
                    return self._finish_no_evidence(state, language, rounds, stop_reason, emit)
                break
            verification = self._verify(state, evidence, ctx, round_no, emit)
            verdict = verification.evaluation.verdict
            score = verification.evaluation.groundedness_score
            emit(
                RunEvent(
                    stage="round_done", round=round_no, detail={"verdict": verdict.value, "score": score}
                )
            )
            if verdict is Verdict.REJECT:
                stop_reason = StopReason.VERDICT_REJECT
                break
            if verdict is Verdict.PASS and verification.needs_met:
                stop_reason = StopReason.VERDICT_PASS
                break
            wants_more = not verification.needs_met or score < self.budgets.low_confidence_threshold
            if not wants_more:
                stop_reason = StopReason.LOW_CONFIDENCE_ABOVE_THRESHOLD
                break
            if budget_stop:
                stop_reason = budget_stop
                break
            if round_no == self.budgets.max_rounds:
                stop_reason = StopReason.MAX_ROUNDS
                break
            state.retry_context = _retry_context(
                state,
                language,
                round_no,
                verification.unmet_need_ids,
                verification.gaps
                or [n.label for n in state.needs.needs if n.id in verification.unmet_need_ids],
            )
        return self._finish(state, language, rounds, stop_reason, emit)

    # ------------------------------------------------------------------ steps

    def _qualified(self, state: _RunState) -> list[EvidenceItem]:
        """Evidence that may back an answer: from successful calls, and — when the question names
        anything (an error code, an order, `etcd`) — only if some of it mentions one of those names.
        Evidence that never mentions what was asked about does not answer the question; once some
        does, the rest (a cause, a fix) may matter without repeating the name."""
        names = [w.lower() for n in state.needs.needs for w in n.anchors]
        words = [w.lower() for n in state.needs.needs for w in n.terms if w not in failure_terms(n)]
        # "Why did ORD-… fail?": of the record's lines, those that say a cause come first — not those
        # that repeat `FAILED`, which the question's own word would favour (docs/design.md §8).
        causes = [n for n in state.needs.needs if failure_terms(n)]
        passages = (d.text for r in state.results if r.status is ToolStatus.OK for d in r.documents)
        of_class = class_weight(state.needs.needs, passages)  # "5xx": the class's codes and series
        # One line of each kind before the repeats — only when the follow-up read the lines of a name
        # no document spoke of (`recon-daily`): an alert's diagnosis cites its repeated error lines.
        repeats = repeated_lines(state.results) if state.unspoken else frozenset()

        def relevance(item: EvidenceItem) -> float:
            said = f"{item.text} {item.source}".lower()
            score = (
                2 * sum(name in said for name in names) + sum(word in said for word in words) + of_class(item)
            )
            if causes:
                view = statement(item.text, item.source)
                score += sum(1 for n in causes if gives_kind(view, n))
            return score - (REPEAT_PENALTY if item.citation_id in repeats else 0.0)

        items = qualified_evidence(state.results, limit=self.budgets.max_candidates, relevance=relevance)
        anchors = question_anchors(state.resolved)
        if anchors and not any(mentions_any(item.text, anchors) for item in items):
            # A part answered by a statistic of a series it names stands on its own (Session 31).
            zh = state.needs.language == "zh-CN"
            return items if states_a_statistic(state.needs.needs, items, zh) else []
        return items

    def _elapsed(self, state: _RunState) -> float:
        return self.clock() - state.started

    def _plan(self, state: _RunState, round_no: int, emit: EventSink) -> list[ToolCall] | None:
        """Plan, validate in code, drop calls already made. None when no valid plan exists at all."""
        emit(RunEvent(stage="planning", round=round_no))
        if state.tool_descriptions is None:  # built once per run: the schemas do not change mid-run
            state.tool_descriptions = self.tools.describe_for_model()
        request = PlanRequest(
            question=state.resolved,
            tools=state.tool_descriptions,
            round=round_no,
            retry_context=state.retry_context,
            done_calls=tuple(state.done_calls),
            needs=state.needs,
            unspoken_names=state.unspoken,
        )
        plan = self._checked_plan(self.planner, request, state)
        if plan is None and self.fallback_planner is not None:
            plan = self._checked_plan(self.fallback_planner, request, state)
        if plan is None:
            return None
        state.plans.append(plan)
        new_calls: list[ToolCall] = []
        for call in plan.calls:
            key = self.tools.call_key(call)
            if key in state.done_keys or any(self.tools.call_key(c) == key for c in new_calls):
                continue  # the same tool with the same normalised arguments is never called twice
            new_calls.append(call)
        return new_calls

    def _checked_plan(self, planner: Planner, request: PlanRequest, state: _RunState) -> PlannerOutput | None:
        outcome = planner.plan(request)
        step = outcome.step
        plan = outcome.output
        # The understanding of the question is recorded with the run (shown in the trace).
        understanding: dict[str, Any] = (
            {"question_needs": state.needs.model_dump(mode="json")}
            if request.retry_context is None
            else {"unmet_need_ids": list(request.retry_context.unmet_need_ids)}
        )
        step.model_output = {**(step.model_output or {}), **understanding}
        if plan is None:
            state.add_step(step)
            return None
        # Invariants 1 and 2: the registry rejects the whole plan for an unknown tool, an unknown or
        # ill-typed argument, or any authorization field (`tenantId`, `userId`, ...) at any depth.
        check = self.tools.validate_plan(plan.calls)
        if not check.ok:
            step.reason_code = check.reason_code
            step.thought = f"plan rejected: {check.reason_code}: {check.detail}"[:300]
            state.add_step(step)
            return None
        # Invariant 6: numbers, dates, comparators, negation and versions of the question survive.
        plan_text = json.dumps([c.arguments for c in check.calls], ensure_ascii=False)
        covered = _covered_by_windows(state.resolved, check.calls)
        changed = [
            i
            for i in fidelity.compare_constraints(state.resolved, plan_text)
            if i.severity == "contradiction"
            and i.code != "constraint_lost"
            # A window around a date/time keeps it (and "from 14:05" is inside a window from 13:35).
            and not (i.code in ("date_mismatch", "comparator_changed") and i.claim_mention in covered)
        ]
        if changed:
            step.reason_code = "constraint_changed"
            step.thought = "plan rejected: " + "; ".join(i.detail for i in changed)[:280]
            state.add_step(step)
            return None
        step.reason_code = step.reason_code or "plan_ok"
        if not step.thought:
            step.thought = f"{len(check.calls)} calls: " + ", ".join(c.tool for c in check.calls)
        state.add_step(step)
        return plan.model_copy(update={"calls": list(check.calls)})

    def _execute(
        self,
        state: _RunState,
        calls: Sequence[ToolCall],
        ctx: ExecutionContext,
        round_no: int,
        emit: EventSink,
    ) -> StopReason | None:
        """Run the new calls within the call budgets; returns a budget stop reason or None."""
        stop: StopReason | None = None
        for n, call in enumerate(calls):
            if len(state.done_calls) >= self.budgets.max_tool_calls:
                stop = StopReason.BUDGET_TOOL_CALLS
                break
            if n >= self.budgets.max_calls_per_round:
                stop = StopReason.BUDGET_CALLS_PER_ROUND
                break
            if self._elapsed(state) >= self.budgets.wall_seconds:
                stop = StopReason.BUDGET_WALL_TIME
                break
            emit(
                RunEvent(
                    stage="tool_call", round=round_no, detail={"tool": call.tool, "arguments": call.arguments}
                )
            )
            result = self.tools.execute(call, ctx, run_id=state.run_id, round=round_no)
            state.add_result(result)
            state.done_calls.append(call)
            state.done_keys.add(self.tools.call_key(call))
            emit(
                RunEvent(
                    stage="tool_result",
                    round=round_no,
                    detail={
                        "tool": call.tool,
                        "status": result.status.value,
                        "invocation_id": result.invocation_id,
                        "observation": result.observation,
                    },
                )
            )
        return stop

    def _verify(
        self,
        state: _RunState,
        evidence: list[EvidenceItem],
        ctx: ExecutionContext,
        round_no: int,
        emit: EventSink,
    ) -> Verification:
        del ctx  # the executor and verifier never see the ExecutionContext
        outcome = self.executor.execute(
            ExecuteRequest(
                question=state.resolved,
                evidence=evidence,
                round=round_no,
                retry_context=state.retry_context,
                needs=state.needs,
            )
        )
        state.add_step(outcome.step)
        output = outcome.output or ExecutorOutput()  # bad executor JSON: nothing claimed, nothing proven
        state.executor_output = output
        gate = gatekeep(output, state.results, run_id=state.run_id)
        state.add_step(
            AgentStep(
                role="gatekeeper",
                round=round_no,
                thought=f"{len(gate.passed_claim_ids)} of {len(output.claims)} claims cite real evidence",
                reason_code=gate.reason_codes[0] if gate.reason_codes else "",
                model_output=gate.model_dump(mode="json"),
            )
        )
        emit(
            RunEvent(
                stage="gatekeeper",
                round=round_no,
                detail={"passed": gate.passed_claim_ids, "rejected": gate.rejected_claim_ids},
            )
        )
        summary = build_tool_trace_summary(
            state.results,
            {r.tool: self.tools.get(r.tool).kind for r in state.results},
            executor_output=output,
            retry_round_invocations=[r.invocation_id for r in state.results if r.round > 1],
            retry_context=state.retry_context,
        )
        verification = self.verifier.verify(
            question=state.resolved,
            output=output,
            gate=gate,
            evidence=evidence,
            trace_summary=summary,
            retry_context=state.retry_context,
            round=round_no,
            needs=state.needs,
        )
        evaluation = verification.evaluation
        evaluation.executor_output_parse_status = {
            "status": outcome.step.parse_status.value,
            "claims": len(output.claims),
        }
        state.add_step(verification.step)
        state.verification = verification
        emit(
            RunEvent(
                stage="verifier",
                round=round_no,
                detail={
                    "verdict": evaluation.verdict.value,
                    "groundedness_score": evaluation.groundedness_score,
                    "needs_met": sum(1 for c in verification.coverage if c.met),
                    "needs": len(verification.coverage),
                },
            )
        )
        return verification

    # ------------------------------------------------------------------ endings

    def _claims_for_composer(self, state: _RunState) -> list[ComposableClaim]:
        """The claims an answer may state: verified, about a need of the question, with real citations."""
        assert state.verification is not None
        assert state.executor_output is not None
        evidence = every_evidence_ref(state.results)
        categories = {f.claim_id: f for f in state.verification.evaluation.facts_checked if f.claim_id}
        gate = state.verification.evaluation.gatekeeper_result
        valid_refs = {
            (r.ref.invocation_id, r.ref.citation_id or "")
            for g in (gate.claims if gate else [])
            for r in g.refs
            if r.valid
        }
        shown = state.verification.shown_claim_ids
        claims = []
        for claim in state.executor_output.claims:
            fact = categories.get(claim.id)
            if fact is None or claim.id not in shown:
                continue  # beside the question (another entity, another case): verified, not stated
            citations = tuple(
                Citation(0, item.citation_id, item.source, ref.excerpt or "", item.invocation_id)
                for ref in claim.evidence_refs
                if (key := (ref.invocation_id, ref.citation_id or "")) in valid_refs
                and (item := evidence.get(key))
            )
            claims.append(ComposableClaim(claim.id, claim.text, fact.category, fact.key, citations))
        return claims

    def _finish(
        self,
        state: _RunState,
        language: Language,
        rounds: int,
        stop_reason: StopReason | None,
        emit: EventSink,
    ) -> RunResult:
        verification = state.verification
        if verification is None:
            return self._finish_no_evidence(
                state, language, rounds, stop_reason or StopReason.NOT_VERIFIED, emit
            )
        evaluation = verification.evaluation
        claims = self._claims_for_composer(state)
        stated = [c for c in claims if c.category in _STATABLE and c.citations]
        gaps = verification.safe_gaps
        failed = self._failed_tools(state)
        if evaluation.verdict is Verdict.REJECT:
            composed = compose_degraded(claims, gaps, language, failed_tools=failed)
            # The answer contradicted its evidence: no reliable answer, not a conflict between
            # sources (which is what `CONFLICT` means, docs/agent.md).
            decision = DecisionStatus.NO_EVIDENCE
        elif evaluation.verdict is Verdict.PASS and verification.needs_confirmed and stated:
            composed = compose_normal(claims, language)
            decision = DecisionStatus.ANSWERED
        elif not stated:
            # Nothing verified is about the question: there is no answer to put a disclaimer on.
            composed = compose_degraded(claims, gaps, language, failed_tools=failed)
            decision = DecisionStatus.NO_EVIDENCE
        else:
            crossed = [c.label for c in verification.coverage if c.met and c.cross_language]
            note = templates(language).cross_language_gap
            composed = compose_disclaimer(claims, [*gaps, *(note.format(need=n) for n in crossed)], language)
            decision = DecisionStatus.PARTIAL
        evaluation.composer_output = composed.output
        return self._result(
            state, composed, evaluation.verdict, decision, rounds, stop_reason or StopReason.MAX_ROUNDS, emit
        )

    def _finish_no_evidence(
        self,
        state: _RunState,
        language: Language,
        rounds: int,
        stop_reason: StopReason | None,
        emit: EventSink,
    ) -> RunResult:
        """No verified answer to show: DEGRADED (invariant 8 when there is no qualified evidence, also a
        plan that never validated or a budget spent before verification). The executor is not called.
        The gaps are the names the question is about that no evidence mentions, else its needs."""
        texts = templates(language)
        found = qualified_evidence(state.results, limit=self.budgets.max_candidates)
        # The question names something nothing found mentions (`etcd`, an order id): say exactly that.
        gaps = [
            texts.gap_not_mentioned.format(name=a)
            for a in question_anchors(state.resolved)
            if not any(mentions_any(item.text, [a]) for item in found)
        ] or [n.label for n in state.needs.needs]
        gaps = gaps or [texts.gap_nothing_relevant]
        composed = compose_degraded([], gaps, language, failed_tools=self._failed_tools(state))
        reason = stop_reason or StopReason.NO_QUALIFIED_EVIDENCE
        return self._result(state, composed, None, DecisionStatus.NO_EVIDENCE, rounds, reason, emit)

    @staticmethod
    def _failed_tools(state: _RunState) -> list[str]:
        return [
            r.tool
            for r in state.results
            if r.status in (ToolStatus.ERROR, ToolStatus.TIMEOUT, ToolStatus.DENIED)
        ]

    def _result(
        self,
        state: _RunState,
        composed: ComposedAnswer,
        verdict: Verdict | None,
        decision: DecisionStatus,
        rounds: int,
        stop_reason: StopReason,
        emit: EventSink,
    ) -> RunResult:
        evaluation = state.verification.evaluation if state.verification else None
        result = RunResult(
            run_id=state.run_id,
            session_id=state.session_id,
            question=state.question,
            output_kind=composed.output.output_kind,
            verdict=verdict,
            decision_status=decision,
            groundedness_score=evaluation.groundedness_score if evaluation and verdict else 0.0,
            answer=composed.output.text,
            citations=[
                AnswerCitation(
                    number=c.number,
                    citation_id=c.citation_id,
                    source=c.source,
                    excerpt=c.excerpt,
                    invocation_id=c.invocation_id,
                )
                for c in composed.citations
            ],
            gaps=list(composed.output.gaps),
            rounds=rounds,
            stop_reason=stop_reason,
            steps=[
                *state.steps,
                AgentStep(
                    role="composer",
                    round=rounds,
                    thought=f"{composed.output.output_kind.value} from template",
                    reason_code=stop_reason,
                    model_output=composed.output.model_dump(mode="json"),
                    parse_status=ParseStatus.NOT_CALLED,
                    model_name="templates",
                ),
            ],
            plans=state.plans,
            tool_results=state.results,
            executor_output=state.executor_output,
            retry_context=state.retry_context,
            verifier_evaluation=evaluation,
            elapsed_ms=self._elapsed(state) * 1000,
            input_tokens=sum(s.input_tokens for s in state.steps),
            output_tokens=sum(s.output_tokens for s in state.steps),
            resolved_question=state.resolved,
            needs=state.needs,
            need_coverage=state.verification.coverage if state.verification else [],
        )
        emit(
            RunEvent(
                stage="final",
                round=rounds,
                detail={
                    "output_kind": result.output_kind.value,
                    "verdict": verdict.value if verdict else None,
                    "groundedness_score": result.groundedness_score,
                },
            )
        )
        return result

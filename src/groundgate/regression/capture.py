"""From production to fixture: a stored run, or a question asked now, frozen into a replayable case.

`capture_run(store, run_id, tenant=…)` reads the run through the application layer
(`groundgate.apps.get_trace`): its question, the session's earlier questions, its tool invocations,
the model outputs of the roles a model filled, and its outcome, which becomes the fixture's `expect`
(so replaying it reproduces it). The store keeps each invocation's arguments, status, summary and
evidence references, not every passage the tool returned; so, given the workspace's tools, capture
runs each recorded call again (same tool, arguments and tenant) and keeps that full output, noting
any difference from the stored row as `source.drift`. Without tools it rebuilds outputs from the
stored excerpts (`fidelity: summary`), which may not reproduce the run.

A `not_useful` run becomes a bad case with an empty `reviewer_expected` for a person to fill in;
a `useful` run a positive fixture. `freeze_question` asks a question through live tools now and
records every output as it comes (`fidelity: recorded`): how the bundled suites were made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from groundgate.contracts import (
    ExecutionContext,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from groundgate.errors import UsageError
from groundgate.regression.fixtures import (
    CaptureSource,
    Expectations,
    Fixture,
    HistoryTurn,
    KeyFactExpectation,
    QuestionInput,
    ReviewerExpected,
    ToolReplay,
)
from groundgate.regression.judge import FactSeen, Observed, ToolCallSeen, observe
from groundgate.regression.recorded import recorded_call as _recorded_call
from groundgate.regression.recorded import replayed_calls

if TYPE_CHECKING:
    from groundgate.apps import RunTrace
    from groundgate.regression.agent_replay import AgentTools
    from groundgate.runtime import ToolBackend
    from groundgate.runtime.orchestrator import PlanCheckLike
    from groundgate.store import Store

__all__ = [
    "OFFLINE_MODEL_NAMES",
    "FeedbackCapture",
    "RecordingTools",
    "capture_feedback",
    "capture_run",
    "chat_mode",
    "expectations_from",
    "freeze_question",
    "parse_since",
]

OFFLINE_MODEL_NAMES = frozenset({"", "offline-rules", "offline-extractive", "offline-checker", "templates"})
"""`model_name`s of steps no model took (rules, extraction, the checker, the templates)."""
KEY_FACT_CHARS = 80
"""A key fact is expected by its first characters: enough to find it, short enough to read."""
GROUNDEDNESS_SLACK = 0.05
_SINCE = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_SOURCES_HEAD = re.compile(r"^(?:Sources:|引用：)\s*$", re.M)
_SOURCE_LINE = re.compile(r"^\[\d+\]\s+(.+?)\s*$", re.M)


def parse_since(value: str) -> timedelta:
    """`7d`, `12h`, `30m`, `2w`, `90s` as a duration; `UsageError` otherwise."""
    match = _SINCE.match(value)
    if match is None or int(match.group(1)) <= 0:
        raise UsageError(f"--since {value!r}: give a positive number and a unit: 90s, 30m, 12h, 7d, 2w")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def _source_key(source: str) -> str:
    """The document (or log file and line) part of a citation's source, without its heading path."""
    return source.split(" > ", 1)[0].strip()


def _fact_head(text: str) -> str:
    """The first `KEY_FACT_CHARS` characters of a fact, cut where no number or word is split (a cut
    number would not match: `contains` does not find `2026031` in `20260314`)."""
    text = text.strip()
    if len(text) <= KEY_FACT_CHARS:
        return text
    head = text[:KEY_FACT_CHARS]
    if text[KEY_FACT_CHARS].isascii() and text[KEY_FACT_CHARS].isalnum():
        head = head.rstrip("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-")
    return head.strip() or text[:KEY_FACT_CHARS]


def expectations_from(seen: Observed) -> Expectations:
    """Expectations that hold for exactly this outcome (with a little slack on groundedness)."""
    return Expectations(
        output_kind=[seen.output_kind] if seen.output_kind else [],
        verdict=[seen.verdict or "none"],
        rounds=seen.rounds,
        min_groundedness=round(max(0.0, seen.groundedness - GROUNDEDNESS_SLACK), 2)
        if seen.groundedness > 0
        else None,
        cited_sources=list(dict.fromkeys(_source_key(s) for s in seen.cited_sources if s.strip())),
        key_facts=[
            KeyFactExpectation(text=_fact_head(f.text), category=f.category)
            for f in seen.key_facts
            if f.text.strip()
        ],
        tools_called=sorted({c.tool for c in seen.tool_calls}),
    )


class RecordingTools:
    """A `ToolBackend` passing every call to `inner` and keeping each result, in order."""

    def __init__(self, inner: ToolBackend) -> None:
        self.inner = inner
        self.results: list[ToolResult] = []

    def describe_for_model(self) -> list[dict[str, Any]]:
        return self.inner.describe_for_model()

    def validate_plan(self, calls: Sequence[ToolCall]) -> PlanCheckLike:
        return self.inner.validate_plan(calls)

    def call_key(self, call: ToolCall) -> str:
        return self.inner.call_key(call)

    def get(self, name: str) -> ToolSpec:
        return self.inner.get(name)

    def execute(self, call: ToolCall, ctx: ExecutionContext, *, run_id: str, round: int) -> ToolResult:
        result = self.inner.execute(call, ctx, run_id=run_id, round=round)
        self.results.append(result)
        return result


def freeze_question(
    question: str,
    tools: ToolBackend,
    *,
    fixture_id: str,
    suite: str = "",
    tenant: str = "acme",
    description: str = "",
    tags: Sequence[str] = (),
) -> Fixture:
    """Ask `question` through the offline pipeline over `tools` now and freeze it: every tool output
    recorded, the outcome as the expectations."""
    import time

    from groundgate.apps import build_orchestrator

    recording = RecordingTools(tools)
    ctx = ExecutionContext(tenant=tenant, user="eval", roles=("sre",))
    started = time.perf_counter()
    result = build_orchestrator(recording).run(question, ctx)
    seen = observe(result, latency_ms=(time.perf_counter() - started) * 1000)
    return Fixture(
        id=fixture_id,
        suite=suite,
        description=description,
        tags=list(tags),
        input=QuestionInput(question=question, tenant=tenant),
        tools=ToolReplay(calls=[_recorded_call(r) for r in recording.results]),
        expect=expectations_from(seen),
        source=CaptureSource(
            run_id=result.run_id,
            tenant=tenant,
            captured_at=datetime.now(UTC),
            fidelity="recorded",
            original=_original(seen),
        ),
    )


# --------------------------------------------------------------------------- stored runs


def _original(seen: Observed) -> dict[str, Any]:
    return {
        "output_kind": seen.output_kind,
        "verdict": seen.verdict,
        "groundedness": seen.groundedness,
        "rounds": seen.rounds,
        "input_tokens": seen.input_tokens,
        "output_tokens": seen.output_tokens,
        "latency_ms": seen.latency_ms,
    }


def _cited_in(answer: str) -> list[str]:
    """The sources listed under the answer's `引用：` / `Sources:` heading."""
    head = _SOURCES_HEAD.search(answer)
    return [] if head is None else _SOURCE_LINE.findall(answer[head.end() :])


def _observed_of(trace: RunTrace) -> Observed:
    evaluation = trace.verifier_evaluation
    return Observed(
        run_id=trace.run_id,
        output_kind=trace.output_kind,
        verdict=trace.verdict,
        decision=trace.decision_status,
        stop_reason=trace.stop_reason or "",
        rounds=trace.rounds,
        groundedness=evaluation.groundedness_score if evaluation is not None else 0.0,
        answer=trace.answer,
        gaps=list(evaluation.composer_output.gaps) if evaluation and evaluation.composer_output else [],
        cited_sources=_cited_in(trace.answer),
        key_facts=[
            FactSeen(text=f.fact, category=str(f.category), key=f.key)
            for f in (evaluation.facts_checked if evaluation is not None else [])
            if f.key
        ],
        tool_calls=[
            ToolCallSeen(tool=i.tool, status=i.status, round=i.round, error=i.error)
            for i in trace.tool_invocations
        ],
        input_tokens=trace.input_tokens,
        output_tokens=trace.output_tokens,
        latency_ms=trace.elapsed_ms,
        recorded=True,
    )


def _history(store: Store, trace: RunTrace, tenant: str | None) -> list[HistoryTurn]:
    """The session's finished questions before this run, oldest first (never their answers)."""
    from groundgate.apps import list_runs

    runs = list_runs(store, tenant=tenant, session_id=trace.session_id, limit=50, include_untenanted=True)
    earlier = [
        r
        for r in runs
        if r.run_id != trace.run_id
        and r.status != "RUNNING"
        and r.created_at is not None
        and trace.created_at is not None
        and r.created_at < trace.created_at
    ]
    return [HistoryTurn(question=r.query) for r in reversed(earlier[:5]) if r.query.strip()]


def _models_of(trace: RunTrace) -> dict[str, list[Any]]:
    models: dict[str, list[Any]] = {}
    for step in trace.steps:
        scripted = (
            step.role in ("planner", "executor", "verifier") and step.model_name not in OFFLINE_MODEL_NAMES
        )
        if scripted and step.model_output is not None:
            models.setdefault(step.role, []).append(step.model_output)
    return models


def capture_run(
    store: Store,
    run_id: str,
    *,
    tenant: str | None,
    tools: ToolBackend | None = None,
    fixture_id: str | None = None,
    suite: str = "captured",
    agent_tools: AgentTools | None = None,
) -> Fixture:
    """The stored run `run_id` (as `tenant` may see it; None: the operator) as a fixture: a chat run
    (`chat`, `demo`, `api`, `eval`, `agent-fallback`) as a question re-executed over `tools`; a
    business agent run (`agent`, `agent-shadow`) as an `agent_turn` re-executed over `agent_tools`
    (`agent_replay.capture_agent_run`)."""
    from groundgate.apps import get_trace

    trace = get_trace(store, run_id, tenant=tenant, include_untenanted=True)
    if trace.status == "RUNNING":
        raise UsageError(f"run {run_id} is still RUNNING; capture it once it has finished")
    if not chat_mode(trace.mode):
        from groundgate.regression.agent_replay import capture_agent_run

        return capture_agent_run(
            store, trace, tenant=tenant, tools=agent_tools, fixture_id=fixture_id, suite=suite
        )
    run_tenant = (trace.session.tenant if trace.session else None) or tenant or "acme"
    ctx = ExecutionContext(tenant=run_tenant, user="eval", roles=("sre",))
    calls, drift, fidelity = replayed_calls(trace, tools, ctx)
    seen = _observed_of(trace)
    feedback = trace.feedback
    return Fixture(
        id=fixture_id or f"{feedback or 'run'}-{run_id[:12]}".replace("_", "-"),
        suite=suite,
        description=f"captured from run {run_id}" + (f", rated {feedback}" if feedback else ""),
        tags=["captured", *([feedback] if feedback else [])],
        input=QuestionInput(
            question=trace.query,
            tenant=run_tenant,
            history=_history(store, trace, tenant),
        ),
        tools=ToolReplay(calls=calls),
        models=_models_of(trace),
        expect=expectations_from(seen),
        reviewer_expected=ReviewerExpected() if feedback == "not_useful" else None,
        source=CaptureSource(
            run_id=trace.run_id,
            session_id=trace.session_id,
            tenant=run_tenant,
            feedback=feedback,
            captured_at=datetime.now(UTC),
            fidelity=fidelity,
            drift=drift,
            original=_original(seen),
        ),
    )


def chat_mode(mode: str) -> bool:
    """Whether a run of this `mode` went through the chat pipeline (`chat`, `demo`, `api`, `eval`,
    `agent-fallback` — the chat pipeline answered for the agent), not the business agent (`agent`,
    and its shadow runs `agent-shadow`)."""
    return mode not in ("agent", "agent-shadow")


@dataclass(frozen=True, slots=True)
class FeedbackCapture:
    fixtures: list[Fixture]
    skipped: list[str]
    """`run id (mode)` of rated runs that could not be captured (none since agent runs are)."""


def capture_feedback(
    store: Store,
    *,
    feedback: str,
    since: timedelta,
    tenant: str | None,
    tools: ToolBackend | None = None,
    limit: int = 1000,
    now: datetime | None = None,
    agent_tools: AgentTools | None = None,
) -> FeedbackCapture:
    """Every finished run rated `feedback` (`not_useful`: the bad cases; `useful`: positive cases)
    created within `since`, newest first, as fixtures — chat runs as questions, agent runs as agent
    turns."""
    from groundgate.apps import list_runs

    cutoff = (now or datetime.now(UTC)) - since
    runs = list_runs(store, tenant=tenant, feedback=feedback, limit=limit, include_untenanted=True)
    chosen = [
        r for r in runs if r.status != "RUNNING" and r.created_at is not None and r.created_at >= cutoff
    ]
    return FeedbackCapture(
        fixtures=[
            capture_run(store, r.run_id, tenant=tenant, tools=tools, agent_tools=agent_tools) for r in chosen
        ],
        skipped=[],
    )

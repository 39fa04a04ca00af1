"""What a case did (`Observed`), what became of it (`CaseResult`), and judging one against a fixture's
expectations. Pure code: no I/O, so the rules are tested on their own.

Values are compared as `benchmarks/eval_pipeline.py` compares them: ignoring whitespace, width and
case, and a value that starts or ends with a digit only counts where no digit touches it (`3 秒`
is not found in `13 秒`). The answer's trailing source list is not part of what it states.
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from groundgate.regression.fixtures import Expectations

__all__ = [
    "CaseResult",
    "CaseStatus",
    "FactSeen",
    "Observed",
    "ToolCallSeen",
    "answer_body",
    "contains",
    "judge",
    "observe",
]

_SOURCES = re.compile(r"^(?:Sources:|引用：)\s*$", re.M)


class CaseStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    """Fails its expectations: a regression."""
    ERROR = "error"
    """Could not run (an exception, a missing workspace): a regression."""
    KNOWN_FAILURE = "known_failure"
    """Fails, and the fixture says it is known to: reported, not a regression."""
    FIXED = "fixed"
    """A known failure that passes now: remove `known_failure`."""
    SKIPPED = "skipped"
    """No driver for its input kind yet (an alert or agent turn before those drivers exist)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolCallSeen(_Model):
    tool: str
    status: str
    round: int = 1
    error: str | None = None


class FactSeen(_Model):
    text: str
    category: str
    key: bool = True


class Observed(_Model):
    """What one run of a case produced (the figures the report and the baseline read)."""

    run_id: str
    output_kind: str | None = None
    verdict: str | None = None
    decision: str | None = None
    stop_reason: str = ""
    rounds: int = 0
    groundedness: float = 0.0
    answer: str = ""
    gaps: list[str] = Field(default_factory=list)
    cited_sources: list[str] = Field(default_factory=list)
    key_facts: list[FactSeen] = Field(default_factory=list)
    tool_calls: list[ToolCallSeen] = Field(default_factory=list)
    replay_misses: list[str] = Field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    recorded: bool = False
    """Whether the run was recorded in a store (then `groundgate trace RUN_ID` shows it)."""
    driver_failures: list[str] = Field(default_factory=list)
    """Expectations a driver checked itself (a golden set with its own harness), in words."""
    aiops_verdict: str | None = None
    """An alert diagnosis's AIOps rule-evaluation verdict (the `alert` driver)."""
    covered_needs: list[str] = Field(default_factory=list)
    """An agent turn's covered needs (the `agent_turn` driver)."""
    missing_needs: list[str] = Field(default_factory=list)

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class CaseResult(_Model):
    """One case's outcome."""

    key: str
    id: str
    suite: str
    path: str = ""
    status: CaseStatus
    failures: list[str] = Field(default_factory=list)
    """Each expectation that did not hold, in words."""
    expected_output_kind: list[str] = Field(default_factory=list)
    observed: Observed | None = None
    source_run_id: str | None = None
    """The stored run a captured fixture came from."""
    needs_review: bool = False
    """A captured bad case whose `reviewer_expected` is still empty."""
    known_failure: str | None = None
    error: str | None = None
    note: str = ""

    @property
    def regression(self) -> bool:
        return self.status in (CaseStatus.FAILED, CaseStatus.ERROR)


def _fold(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def contains(text: str, value: str) -> bool:
    """Whether `value` is in `text` (see the module docstring for how)."""
    haystack, needle = _fold(text), _fold(value)
    if not needle:
        return False
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        before = haystack[start - 1] if start else ""
        after = haystack[end] if end < len(haystack) else ""
        before_ok = not needle[0].isdigit() or not (before.isdigit() or before == ".")
        after_ok = not needle[-1].isdigit() or not (
            after.isdigit() or (after == "." and haystack[end + 1 : end + 2].isdigit())
        )
        if before_ok and after_ok:
            return True
        start = haystack.find(needle, start + 1)
    return False


def answer_body(answer: str) -> str:
    """The answer without its trailing source list."""
    match = _SOURCES.search(answer)
    return answer[: match.start()] if match else answer


def _one_of(what: str, allowed: list[str], got: str | None) -> list[str]:
    if allowed and (got or "none") not in allowed:
        return [f"{what} is {got or 'none'}, expected {' or '.join(allowed)}"]
    return []


def judge(expect: Expectations, seen: Observed, *, strict_replay: bool = True) -> list[str]:
    """Every expectation `seen` does not meet, in words (empty: the case passes)."""
    failures: list[str] = list(seen.driver_failures)
    failures += _one_of("output kind", [str(k) for k in expect.output_kind], seen.output_kind)
    failures += _one_of("verdict", expect.verdict, seen.verdict)
    failures += _one_of("decision", expect.decision, seen.decision)
    failures += _one_of("stop reason", expect.stop_reason, seen.stop_reason)
    if expect.rounds is not None and seen.rounds != expect.rounds:
        failures.append(f"rounds {seen.rounds}, expected {expect.rounds}")
    if expect.min_groundedness is not None and seen.groundedness < expect.min_groundedness - 1e-9:
        failures.append(f"groundedness {seen.groundedness:.2f} is below {expect.min_groundedness:.2f}")
    if expect.max_groundedness is not None and seen.groundedness > expect.max_groundedness + 1e-9:
        failures.append(f"groundedness {seen.groundedness:.2f} is above {expect.max_groundedness:.2f}")
    body = answer_body(seen.answer)
    for item in expect.must_contain:
        alternatives = [item] if isinstance(item, str) else item
        if not any(contains(body, value) for value in alternatives):
            failures.append("the answer lacks " + " | ".join(repr(v) for v in alternatives))
    failures += [f"the answer states {value!r}" for value in expect.must_not_contain if contains(body, value)]
    for source in expect.cited_sources:
        if not any(contains(cited, source) for cited in seen.cited_sources):
            failures.append(f"no citation of {source!r}")
    for fact in expect.key_facts:
        matching = [f for f in seen.key_facts if contains(f.text, fact.text)]
        if not matching:
            failures.append(f"no key fact states {fact.text!r}")
        elif fact.category is not None and all(f.category != fact.category for f in matching):
            got = ", ".join(sorted({f.category for f in matching}))
            failures.append(f"key fact {fact.text!r} is {got}, expected {fact.category}")
    called = {call.tool for call in seen.tool_calls}
    failures += [f"{tool} was not called" for tool in expect.tools_called if tool not in called]
    if expect.aiops_verdict and seen.aiops_verdict not in expect.aiops_verdict:
        failures.append(f"aiops verdict {seen.aiops_verdict}, expected {' or '.join(expect.aiops_verdict)}")
    failures += [f"need {n} is not covered" for n in expect.covered_needs if n not in seen.covered_needs]
    failures += [f"need {n} is not missing" for n in expect.missing_needs if n not in seen.missing_needs]
    if strict_replay and seen.replay_misses:
        failures.append(
            f"{len(seen.replay_misses)} call(s) the fixture did not record: "
            + "; ".join(seen.replay_misses[:3])
        )
    return failures


def _value(value: Any) -> str | None:
    if value is None:
        return None
    return str(getattr(value, "value", value))


def observe(
    result: Any, *, latency_ms: float, misses: list[str] | None = None, recorded: bool = False
) -> Observed:
    """The `Observed` of a pipeline `RunResult` (duck-typed: other drivers may hand in their own)."""
    evaluation = getattr(result, "verifier_evaluation", None)
    facts = [
        FactSeen(text=f.fact, category=_value(f.category) or "", key=f.key)
        for f in (evaluation.facts_checked if evaluation is not None else [])
    ]
    return Observed(
        run_id=result.run_id,
        output_kind=_value(result.output_kind),
        verdict=_value(result.verdict),
        decision=_value(getattr(result, "decision_status", None)),
        stop_reason=str(result.stop_reason or ""),
        rounds=int(result.rounds),
        groundedness=float(result.groundedness_score),
        answer=result.answer,
        gaps=list(result.gaps),
        cited_sources=list(dict.fromkeys(c.source for c in result.citations)),
        key_facts=[f for f in facts if f.key],
        tool_calls=[
            ToolCallSeen(tool=r.tool, status=_value(r.status) or "", round=r.round, error=r.error)
            for r in result.tool_results
        ],
        replay_misses=list(misses or []),
        input_tokens=int(result.input_tokens),
        output_tokens=int(result.output_tokens),
        latency_ms=round(latency_ms, 3),
        recorded=recorded,
    )

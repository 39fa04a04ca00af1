"""End-to-end evaluation of the agent over the HR demo on real stores (`eval_questions.yaml`).

Each question has an expected decision, a key value the answer must carry, what it must never show
and the slots it should cover. `evaluate(runtime)` runs them (sessions in order, sharing their
conversation state) and reports:

- **decision accuracy** — the decision is the expected one and, when one is given, the key value is
  in the answer and no `never` string is;
- **wrong `ANSWERED` rate** (target 0) — answered where it should not have, or answered without the
  key value, or showing a `never` string;
- **slot recall and precision** — covered slots against the expected ones, over the questions that
  name them (micro-averaged).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

import yaml  # type: ignore[import-untyped]  # no PyYAML stubs in the dev environment

from groundgate.agent import AgentRuntime, ConversationState, DecisionResult, DecisionStatus
from groundgate.demo.hr import demo_context

__all__ = ["EvalItem", "EvalReport", "evaluate", "load_questions"]


@dataclass(frozen=True, slots=True)
class EvalItem:
    question: str
    decision: DecisionStatus
    key: str | None = None
    never: tuple[str, ...] = ()
    """Strings the answer must never show (a set may write one string or a list)."""
    slots: tuple[str, ...] | None = None
    user: str = "u-li"
    project: str | None = None
    session: str | None = None


@dataclass
class EvalOutcome:
    item: EvalItem
    result: DecisionResult
    problems: list[str]

    @property
    def correct(self) -> bool:
        return not self.problems


@dataclass
class EvalReport:
    outcomes: list[EvalOutcome] = field(default_factory=list)
    slot_tp: int = 0
    slot_fp: int = 0
    slot_fn: int = 0

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def accuracy(self) -> float:
        return sum(o.correct for o in self.outcomes) / self.total if self.total else 0.0

    @property
    def wrong_answered(self) -> int:
        return sum(1 for o in self.outcomes if _wrongly_answered(o))

    @property
    def wrong_answered_rate(self) -> float:
        return self.wrong_answered / self.total if self.total else 0.0

    @property
    def slot_recall(self) -> float:
        return self.slot_tp / (self.slot_tp + self.slot_fn) if self.slot_tp + self.slot_fn else 1.0

    @property
    def slot_precision(self) -> float:
        return self.slot_tp / (self.slot_tp + self.slot_fp) if self.slot_tp + self.slot_fp else 1.0

    def summary(self) -> dict[str, Any]:
        return {
            "questions": self.total,
            "decisionAccuracy": round(self.accuracy, 4),
            "wrongAnswered": self.wrong_answered,
            "wrongAnsweredRate": round(self.wrong_answered_rate, 4),
            "slotRecall": round(self.slot_recall, 4),
            "slotPrecision": round(self.slot_precision, 4),
            "misses": [
                {"question": o.item.question, "problems": o.problems} for o in self.outcomes if not o.correct
            ],
        }


def _strings(value: object) -> tuple[str, ...]:
    """`never: 3 个工作日` or `never: [结婚证, 病历]`; str(): YAML reads 2026-03-28 as a date."""
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return (str(value),)


def _item(raw: Mapping[str, Any], session: str | None) -> EvalItem:
    slots = raw.get("slots")
    return EvalItem(
        question=str(raw["q"]),
        decision=DecisionStatus(raw["decision"]),
        # str(): YAML reads 2026-03-28 as a date
        key=str(raw["key"]) if raw.get("key") is not None else None,
        never=_strings(raw.get("never")),
        slots=tuple(slots) if slots is not None else None,
        user=str(raw.get("user", "u-li")),
        project=raw.get("project"),
        session=session,
    )


def load_questions(text: str | None = None) -> list[EvalItem]:
    """The questions of `eval_questions.yaml` (or of `text`), sessions flattened in order."""
    source = (
        text
        if text is not None
        else files(__package__ or "").joinpath("eval_questions.yaml").read_text("utf-8")
    )
    items: list[EvalItem] = []
    for raw in yaml.safe_load(source):
        if "session" in raw:
            items += [_item(turn, str(raw["session"])) for turn in raw["turns"]]
        else:
            items.append(_item(raw, None))
    return items


def _wrongly_answered(outcome: EvalOutcome) -> bool:
    if outcome.result.status is not DecisionStatus.ANSWERED:
        return False
    return outcome.item.decision is not DecisionStatus.ANSWERED or any(
        p.startswith(("key", "never")) for p in outcome.problems
    )


def _problems(item: EvalItem, result: DecisionResult) -> list[str]:
    text = result.answer.render()
    problems: list[str] = []
    if result.status is not item.decision:
        problems.append(f"decision {result.status.value}, expected {item.decision.value}")
    if item.key and item.key not in text:
        problems.append(f"key {item.key!r} missing")
    problems += [f"never {never!r} shown" for never in item.never if never in text]
    return problems


def _runs(runtime: AgentRuntime, items: list[EvalItem]) -> Iterator[tuple[EvalItem, DecisionResult]]:
    states: dict[str, ConversationState] = {}
    for item in items:
        state = states.setdefault(item.session, ConversationState()) if item.session else None
        result = runtime.run(item.question, demo_context(item.user, project=item.project), state=state)
        if state is not None:
            state.remember(
                result.resolved.resolved_question, result.new_refs, result.resolved.invalidated_refs
            )
        yield item, result


def evaluate(runtime: AgentRuntime, items: list[EvalItem] | None = None) -> EvalReport:
    """Run every question through `runtime` and score it (see the module docstring)."""
    report = EvalReport()
    for item, result in _runs(runtime, items if items is not None else load_questions()):
        report.outcomes.append(EvalOutcome(item, result, _problems(item, result)))
        if item.slots is not None:
            expected, covered = set(item.slots), {n.value for n in result.covered_needs}
            report.slot_tp += len(expected & covered)
            report.slot_fp += len(covered - expected)
            report.slot_fn += len(expected - covered)
    return report

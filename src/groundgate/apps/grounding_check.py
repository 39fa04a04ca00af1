"""Grounding checks as the CLI and the API run them: within the `[check]` budgets, one at a time or
as a batch over a JSON-lines file (streamed, bounded memory, bad lines reported).

The budgets live here, once, for `groundgate check` and `POST /api/check` alike: `check_size`
refuses a context or answer over `check.max_context_chars` / `check.max_answer_chars` (HTTP 413, a
usage error in the CLI, a bad line in a batch), and `check_one` gives every check a deadline of
`check.time_budget_seconds` on an injected clock (past it, the remaining claims are `no_evidence`
with reason `budget:time_exceeded` and the verdict is not `PASS`). See docs/security.md.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal, cast

from pydantic import ValidationError

from groundgate.contracts import CheckRequest, CheckResult
from groundgate.errors import CheckBudgetError
from groundgate.settings import CheckSettings
from groundgate.verify.assessment import ClaimClassifier
from groundgate.verify.budget import Deadline
from groundgate.verify.grounding_check import check_request

if TYPE_CHECKING:  # scoring is imported by the eval alone: a plain `groundgate check` never needs it
    from groundgate.evaluation.scoring.checker_scores import EvalReport, Split

Clock = Callable[[], float]


def check_size(context: Sequence[str], answer: str, question: str | None, budget: CheckSettings) -> None:
    """Raise `CheckBudgetError` when the context, the answer or the question is over its limit.

    The question is held to the answer's limit: it is analysed like one.
    """
    context_chars = sum(len(passage) for passage in context)
    for what, actual, limit, setting in (
        ("context", context_chars, budget.max_context_chars, "max_context_chars"),
        ("answer", len(answer), budget.max_answer_chars, "max_answer_chars"),
        ("question", len(question or ""), budget.max_answer_chars, "max_answer_chars"),
    ):
        if actual > limit:
            raise CheckBudgetError(
                f"the {what} is {actual:,} characters, over the limit of {limit:,} "
                f"(setting check.{setting}, environment GROUNDGATE_CHECK__{setting.upper()})",
                setting=f"check.{setting}",
                limit=limit,
                actual=actual,
            )


def check_one(
    request: CheckRequest,
    classifier: ClaimClassifier | None,
    budget: CheckSettings,
    *,
    clock: Clock = time.monotonic,
) -> CheckResult:
    """Check one request within `budget`: its size first, then a deadline on `clock`."""
    check_size(request.context, request.answer, request.question, budget)
    deadline = Deadline.after(budget.time_budget_seconds, clock)
    return check_request(request, classifier, deadline=deadline)


def check_within_budget(
    *,
    context: Sequence[str],
    answer: str,
    question: str | None = None,
    classifier: ClaimClassifier | None = None,
    budget: CheckSettings,
    clock: Clock = time.monotonic,
) -> CheckResult:
    """`groundgate.check` within `budget` (as `groundgate check -c … -a …` and `POST /api/check`)."""
    check_size(context, answer, question, budget)  # before copying what may be a huge context
    request = CheckRequest(context=list(context), answer=answer, question=question)
    return check_one(request, classifier, budget, clock=clock)


#: How many bad lines are kept in memory for the summary (all are written to `errors_path`).
_MAX_KEPT_BAD_LINES = 100


@dataclass(frozen=True, slots=True)
class BadLine:
    """An input line that could not be checked, with why."""

    line: int
    error: str

    def to_json(self) -> str:
        return json.dumps({"line": self.line, "error": self.error}, ensure_ascii=False)


@dataclass(slots=True)
class BatchSummary:
    """What a batch did: counts by verdict and the bad lines."""

    checked: int = 0
    bad_count: int = 0
    bad_lines: list[BadLine] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)

    def record_bad(self, bad: BadLine) -> None:
        self.bad_count += 1
        if len(self.bad_lines) < _MAX_KEPT_BAD_LINES:
            self.bad_lines.append(bad)


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "line"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def iter_lines(stream: IO[bytes]) -> Iterator[tuple[int, int, dict[str, object] | BadLine]]:
    """Yield (line number, bytes consumed, parsed object or `BadLine`) for each non-blank line."""
    for number, raw in enumerate(stream, start=1):
        size = len(raw)
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            yield number, size, BadLine(number, f"not UTF-8: {exc.reason} at byte {exc.start}")
            continue
        except json.JSONDecodeError as exc:
            yield number, size, BadLine(number, f"invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        if not isinstance(value, dict):
            yield number, size, BadLine(number, f"expected a JSON object, got {type(value).__name__}")
            continue
        yield number, size, cast(dict[str, object], value)


def parse_request(number: int, obj: dict[str, object]) -> CheckRequest | BadLine:
    """Validate one input object; a missing or ill-typed field becomes a `BadLine`."""
    try:
        request = CheckRequest.model_validate(obj)
    except ValidationError as exc:
        return BadLine(number, _describe(exc))
    if not request.context or not any(p.strip() for p in request.context):
        return BadLine(number, "context: must contain at least one non-empty passage")
    if not request.answer.strip():
        return BadLine(number, "answer: must not be empty")
    return request


def run_batch(
    input_path: Path,
    output: IO[str],
    *,
    classifier: ClaimClassifier | None = None,
    errors: IO[str] | None = None,
    on_progress: Callable[[int], None] | None = None,
    budget: CheckSettings | None = None,
    clock: Clock = time.monotonic,
) -> BatchSummary:
    """Check every line of `input_path`, writing one result line per good input line as it goes.

    With `budget`, each line is checked within it: a line over a size limit is a bad line (the
    batch goes on), a line past the time budget is answered `LOW_CONFID`.
    """
    summary = BatchSummary()
    with input_path.open("rb") as stream:
        for number, size, item in iter_lines(stream):
            parsed = item if isinstance(item, BadLine) else parse_request(number, item)
            if not isinstance(parsed, BadLine):
                try:
                    result = (
                        check_one(parsed, classifier, budget, clock=clock)
                        if budget is not None
                        else check_request(parsed, classifier)
                    )
                except CheckBudgetError as exc:
                    parsed = BadLine(number, str(exc))
                else:
                    output.write(_result_line(result) + "\n")
                    summary.checked += 1
                    summary.verdicts[result.verdict.value] += 1
            if isinstance(parsed, BadLine):
                summary.record_bad(parsed)
                if errors is not None:
                    errors.write(parsed.to_json() + "\n")
            if on_progress is not None:
                on_progress(size)
    return summary


_OUTPUT_FIELDS = {
    "id",
    "verdict",
    "groundedness_score",
    "critical_fact_count",
    "claims",
    "checker",
    "judge_status",
    "support_score",
    "addresses_question",
    "unaddressed_parts",
}


def _result_line(result: CheckResult) -> str:
    return result.model_dump_json(include=_OUTPUT_FIELDS)


_LABELS: frozenset[str] = frozenset({"supported", "hallucinated"})


#: Line fields broken down in every eval report when the lines carry them.
BREAKDOWN_FIELDS: tuple[str, ...] = ("lang", "kind")


def answer_support_score(result: CheckResult) -> tuple[float, str]:
    """The answer's support score in [0, 1] and where it came from.

    The weakest key claim decides (one unsupported key claim makes the answer hallucinated), so it
    is the lowest per-claim `support_score` of the key claims (of all claims when none is key).
    Read defensively: until the checker reports per-claim scores, the groundedness score stands in.
    """
    claims = [c for c in result.claims if c.key] or list(result.claims)
    scores = [getattr(c, "support_score", None) for c in claims]
    numeric = [float(s) for s in scores if isinstance(s, int | float)]
    if numeric:
        return min(max(min(numeric), 0.0), 1.0), "support_score"
    return min(max(float(result.groundedness_score), 0.0), 1.0), "groundedness_score"


def run_eval(
    input_path: Path,
    *,
    classifier: ClaimClassifier | None = None,
    group_by: Literal["lang", "domain"] | None = "lang",
    predictions: IO[str] | None = None,
    on_progress: Callable[[int], None] | None = None,
    split: Split | None = None,
) -> tuple[EvalReport, BatchSummary]:
    """Score the checker on a labelled file (`label`: supported | hallucinated).

    With `split`, only the lines of that split are scored (`split_of`: a line's own `split` field,
    else a hash of its id); the others are skipped, not counted as bad.
    """
    from groundgate.evaluation.scoring.checker_scores import EvalAccumulator, Label, split_of

    acc = EvalAccumulator()
    summary = BatchSummary()
    with input_path.open("rb") as stream:
        for number, size, item in iter_lines(stream):
            if on_progress is not None:
                on_progress(size)
            if isinstance(item, BadLine):
                summary.record_bad(item)
                continue
            if split is not None and split_of(item.get("id", number), item.get("split")) != split:
                continue
            label = item.get("label")
            if label not in _LABELS:
                summary.record_bad(
                    BadLine(number, f"label: expected 'supported' or 'hallucinated', got {label!r}")
                )
                continue
            parsed = parse_request(number, item)
            if isinstance(parsed, BadLine):
                summary.record_bad(parsed)
                continue
            result = check_request(parsed, classifier)
            summary.checked += 1
            summary.verdicts[result.verdict.value] += 1
            group = item.get(group_by) if group_by else None
            score, source = answer_support_score(result)
            # `addressed` / `partly_addressed` / `not_addressed` (None without a question): the finding
            # counted is "does not address the question at all".
            coverage = result.addresses_question
            addresses = None if coverage is None else str(coverage) != "not_addressed"
            acc.add(
                cast(Label, label),
                result.verdict,
                str(group) if group is not None else None,
                score=score,
                score_source=source,
                fields={name: str(item[name]) for name in BREAKDOWN_FIELDS if item.get(name) is not None},
                addresses_question=addresses,
            )
            if predictions is not None:
                line = json.loads(_result_line(result))
                line["label"] = label
                line["support_score"] = round(score, 4)
                if coverage is not None:
                    line["addresses_question"] = str(coverage)
                for name in BREAKDOWN_FIELDS:
                    if item.get(name) is not None:
                        line[name] = item[name]
                predictions.write(json.dumps(line, ensure_ascii=False) + "\n")
    return acc.report(), summary

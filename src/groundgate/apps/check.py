"""Batch grounding checks over JSON-lines files: streamed, bounded memory, bad lines reported."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal, cast

from pydantic import ValidationError

from groundgate.contracts import CheckRequest, CheckResult
from groundgate.evaluation.check_eval import EvalAccumulator, EvalReport, Label
from groundgate.verify.assessment import ClaimClassifier
from groundgate.verify.check import check_request

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
) -> BatchSummary:
    """Check every line of `input_path`, writing one result line per good input line as it goes."""
    summary = BatchSummary()
    with input_path.open("rb") as stream:
        for number, size, item in iter_lines(stream):
            parsed = item if isinstance(item, BadLine) else parse_request(number, item)
            if isinstance(parsed, BadLine):
                summary.record_bad(parsed)
                if errors is not None:
                    errors.write(parsed.to_json() + "\n")
            else:
                result = check_request(parsed, classifier)
                output.write(_result_line(result) + "\n")
                summary.checked += 1
                summary.verdicts[result.verdict.value] += 1
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
}


def _result_line(result: CheckResult) -> str:
    return result.model_dump_json(include=_OUTPUT_FIELDS)


_LABELS: frozenset[str] = frozenset({"supported", "hallucinated"})


def run_eval(
    input_path: Path,
    *,
    classifier: ClaimClassifier | None = None,
    group_by: Literal["lang", "domain"] | None = "lang",
    predictions: IO[str] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[EvalReport, BatchSummary]:
    """Score the checker on a labelled file (`label`: supported | hallucinated)."""
    acc = EvalAccumulator()
    summary = BatchSummary()
    with input_path.open("rb") as stream:
        for number, size, item in iter_lines(stream):
            if on_progress is not None:
                on_progress(size)
            if isinstance(item, BadLine):
                summary.record_bad(item)
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
            acc.add(cast(Label, label), result.verdict, str(group) if group is not None else None)
            if predictions is not None:
                line = json.loads(_result_line(result))
                line["label"] = label
                predictions.write(json.dumps(line, ensure_ascii=False) + "\n")
    return acc.report(), summary

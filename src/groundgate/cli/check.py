"""`groundgate check`: one answer against its context, or a batch of JSON lines.

A `--context`/`--answer` value naming an existing file is read from it; one that looks like a path
(`runbook.md`, `docs/a.txt`) but names no file is an error rather than checked as the text
"runbook.md" — `--text` takes every value literally.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from groundgate.cli._common import (
    DataDirOption,
    ForceOption,
    JsonOption,
    ModelOption,
    classifier,
    command,
    echo_json,
    err,
    out,
    progress,
    settings,
)
from groundgate.errors import UsageError

if TYPE_CHECKING:
    from groundgate.apps.grounding_check import BatchSummary
    from groundgate.contracts import CheckResult
    from groundgate.settings import Settings
    from groundgate.text.segmentation import Span
    from groundgate.verify.assessment import ClaimClassifier, Classification
    from groundgate.verify.budget import Deadline

# A value without whitespace that ends in a file extension, holds a path separator or is `.`/`..`
# is a file name (`missing.md`, `./x`, `docs/a`); "3.5", "v1.2" and prose are text.
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_FALLBACK_NOTE = "judge_fallback:"


def looks_like_path(value: str) -> bool:
    """Whether a `--context`/`--answer` value is meant as a file name (see the module docstring)."""
    if not value or len(value) > 4096 or any(ch.isspace() for ch in value):
        return False
    if value in (".", "..") or value.startswith("~") or "/" in value or "\\" in value:
        return True
    return _EXTENSION.search(value) is not None


def read_value(flag: str, value: str, *, literal: bool) -> str:
    """The text of a `--context`/`--answer` value: a file's contents, or the value itself."""
    if literal or len(value) >= 4096 or "\n" in value:
        return value
    path = Path(value).expanduser()
    try:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {value}: {exc}") from exc
    if looks_like_path(value):
        what = "is not a file" if path.exists() else "no such file"
        raise UsageError(f"{flag} {value}: {what} (give --text to check it as text)")
    return value


class FallbackRecorder:
    """Wraps the classifier to keep why a model was not used: `CheckResult.judge_status` says only
    `ERROR`; the classifier's note also carries the model's own message ("Incorrect API key
    provided"), which is what a person at the screen needs."""

    honours_deadline = True

    def __init__(self, inner: ClaimClassifier) -> None:
        self.inner = inner
        self.reasons: list[str] = []

    def classify(
        self,
        claims: Sequence[Span],
        passages: Sequence[str],
        *,
        question: str | None = None,
        deadline: Deadline | None = None,
    ) -> Classification:
        from groundgate.verify.assessment import classify_within

        result = classify_within(self.inner, claims, passages, question=question, deadline=deadline)
        self.reasons += [n.removeprefix(_FALLBACK_NOTE) for n in result.notes if n.startswith(_FALLBACK_NOTE)]
        return result


def report_fallbacks(recorder: FallbackRecorder, checked: int) -> None:
    """On stderr: the model failed, how often and why; the offline checker answered instead."""
    if not recorder.reasons:
        return
    from rich.markup import escape

    counts = Counter(reason.split(":", 1)[0] for reason in recorder.reasons)
    times = "" if checked <= 1 else f" on {len(recorder.reasons)} of {checked} answers"
    err().print(
        f"[yellow]the model failed{times} ({', '.join(f'{k} {v}' for k, v in counts.items())}); "
        f"the offline checker answered instead:[/yellow] {escape(recorder.reasons[0])}",
        highlight=False,
    )


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: by path, or by device and inode (a hard link, a symlink)."""
    if a.resolve() == b.resolve():
        return True
    return a.exists() and b.exists() and os.path.samefile(a, b)


def refuse_overwrite(flag: str, target: Path | None, *, force: bool) -> None:
    """An existing output file is kept unless `--force` says otherwise."""
    if target is not None and target.exists() and not force:
        raise UsageError(f"{flag} {target} already exists (give --force to overwrite it)")


def check_command(
    context: Annotated[
        list[str] | None,
        typer.Option("--context", "-c", help="A context passage, or a file holding one. Repeat for more."),
    ] = None,
    answer: Annotated[
        str | None, typer.Option("--answer", "-a", help="The answer to check (text or file).")
    ] = None,
    question: Annotated[str | None, typer.Option("--question", "-q", help="The question, if any.")] = None,
    text: Annotated[
        bool, typer.Option("--text", help="Take --context and --answer as text, never as file names.")
    ] = False,
    input_path: Annotated[
        Path | None,
        typer.Option(
            "--input", "-i", help='Batch mode: JSON lines {"id", "question"?, "context", "answer"}.'
        ),
    ] = None,
    output_path: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Batch mode: where result lines go (default stdout)."),
    ] = None,
    errors_path: Annotated[
        Path | None, typer.Option("--errors", help="Batch mode: also write bad lines here as JSON lines.")
    ] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
    use_model: ModelOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Check that every key fact of an answer is grounded in the context."""
    from groundgate.apps.grounding_check import check_within_budget

    config = settings(data_dir)
    recorder = FallbackRecorder(classifier(config, use_model))
    if input_path is not None:
        if context or answer:
            raise UsageError("use either --input (batch) or --context/--answer, not both")
        summary = check_batch(input_path, output_path, errors_path, recorder, config=config, force=force)
        report_fallbacks(recorder, summary.checked)
        print_batch_summary(summary, as_json, to_stderr=output_path is None)
        return
    if not context or answer is None:
        raise UsageError("give --context (one or more) and --answer, or --input FILE for a batch")
    if not answer.strip():
        # The same rule as `POST /api/check` (422): an empty answer has nothing to check.
        raise UsageError("--answer is empty: give the answer to check (text or a file)")
    result = check_within_budget(  # within the `[check]` size and time budgets (over size: exit 2)
        context=[read_value("--context", c, literal=text) for c in context],
        answer=read_value("--answer", answer, literal=text),
        question=question,
        classifier=recorder,
        budget=config.check,
    )
    report_fallbacks(recorder, 1)
    if as_json:
        # The object `POST /api/check` answers, field for field.
        echo_json(result.model_dump(mode="json", by_alias=True))
    else:
        print_result(result)


def check_batch(
    input_path: Path,
    output_path: Path | None,
    errors_path: Path | None,
    recorder: FallbackRecorder,
    *,
    config: Settings,
    force: bool,
) -> BatchSummary:
    from groundgate.apps.grounding_check import run_batch

    if not input_path.is_file():
        raise UsageError(f"input file not found: {input_path}")
    for flag, target in (("--output", output_path), ("--errors", errors_path)):
        if target is not None and same_file(target, input_path):
            raise UsageError(f"{flag} must not be the input file (it would be overwritten)")
    if output_path is not None and errors_path is not None and same_file(output_path, errors_path):
        raise UsageError("--output and --errors must be different files")
    refuse_overwrite("--output", output_path, force=force)
    refuse_overwrite("--errors", errors_path, force=force)
    with ExitStack() as stack:
        output = stack.enter_context(output_path.open("w", encoding="utf-8")) if output_path else sys.stdout
        errors = stack.enter_context(errors_path.open("w", encoding="utf-8")) if errors_path else None
        bar = progress(err().is_terminal and output_path is not None)
        stack.enter_context(bar if bar is not None else nullcontext())
        task = bar.add_task("check", total=input_path.stat().st_size) if bar is not None else None

        def advance(size: int) -> None:
            if bar is not None and task is not None:
                bar.advance(task, size)

        return run_batch(
            input_path, output, classifier=recorder, errors=errors, on_progress=advance, budget=config.check
        )


def print_batch_summary(summary: BatchSummary, as_json: bool, *, to_stderr: bool) -> None:
    from rich.markup import escape

    for bad in summary.bad_lines:
        err().print(f"[red]line {bad.line}:[/red] {escape(bad.error)}")
    if summary.bad_count > len(summary.bad_lines):
        err().print(f"[red]… and {summary.bad_count - len(summary.bad_lines)} more bad lines[/red]")
    target = err() if to_stderr else out()
    if as_json:
        # Snake case, as the checker's own JSON (`CheckResult`, what `POST /api/check` answers). The
        # bad lines themselves are on stderr and in `--errors`; here only how many there were.
        payload = {
            "checked": summary.checked,
            "bad_line_count": summary.bad_count,
            "verdicts": dict(summary.verdicts),
        }
        target.print_json(data=payload)
    else:
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(summary.verdicts.items())) or "none"
        target.print(f"checked {summary.checked} answers ({verdicts}); {summary.bad_count} bad lines")


def print_result(result: CheckResult) -> None:
    """The verdict line, then each claim with its category, evidence spans and reason codes."""
    from rich.markup import escape

    from groundgate.contracts import FactCategory, Verdict

    verdict_style = {
        Verdict.PASS: "bold green",
        Verdict.LOW_CONFID: "bold yellow",
        Verdict.REJECT: "bold red",
    }
    category_style = {
        FactCategory.DIRECT_EVIDENCE: ("green", "✔"),
        FactCategory.INDIRECT_SUPPORT: ("cyan", "≈"),
        FactCategory.NO_EVIDENCE: ("yellow", "?"),
        FactCategory.CONTRADICTED: ("red", "✘"),
    }
    console = out()
    style = verdict_style[result.verdict]
    judge = result.judge_status.value
    if result.checker == "llm":
        checker = f"llm (judge {judge})"
    elif judge != "NOT_CALLED":  # the model was asked and failed: say so next to the verdict
        checker = f"offline (the model failed: {judge})"
    else:
        checker = "offline"
    console.print(
        f"[{style}]{result.verdict.value}[/{style}]  groundedness {result.groundedness_score:.2f}  "
        f"key facts {result.critical_fact_count}  checker {checker}"
    )
    for claim in result.claims:
        cat_style, mark = category_style[claim.category]
        key = "key" if claim.key else "not key"
        console.print(
            f" [{cat_style}]{mark} {claim.category.value}[/{cat_style}] [dim]({key})[/dim] {escape(claim.text)}"
        )
        for span in claim.evidence:
            console.print(
                f"     [dim]evidence {escape(f'[passage {span.passage}, {span.start}-{span.end}]')}[/dim] "
                f"{escape(span.excerpt)}"
            )
        if claim.rationale:
            console.print(f"     [dim]why[/dim] {escape(claim.rationale)}")
        codes = [c for c in claim.reason_codes if not c.startswith("novel_terms:")]
        console.print(f"     [dim]reasons {escape(', '.join(codes))}[/dim]")


def register(app: typer.Typer) -> None:
    command(app, "check")(check_command)

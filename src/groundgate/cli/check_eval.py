"""`groundgate check-eval`: score the grounding checker on labelled JSON lines."""

from __future__ import annotations

from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

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
from groundgate.cli.check import FallbackRecorder, refuse_overwrite, report_fallbacks
from groundgate.errors import UsageError

if TYPE_CHECKING:
    from rich.table import Table

    from groundgate.apps.grounding_check import BatchSummary
    from groundgate.evaluation.scoring.checker_scores import EvalFigures, EvalReport


def check_eval_command(
    input_path: Annotated[
        Path, typer.Option("--input", "-i", help="Labelled JSON lines: the check fields plus label.")
    ],
    predictions_path: Annotated[
        Path | None, typer.Option("--predictions", help="Also write each result with its label here.")
    ] = None,
    group_by: Annotated[
        str, typer.Option("--group-by", help="Field to break figures down by: lang, domain or none.")
    ] = "lang",
    split: Annotated[
        str,
        typer.Option(
            "--split",
            help="Score only the tune or test split (a line's split field, else a hash of its id), or all.",
        ),
    ] = "all",
    report_path: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Also write a self-contained HTML report here (and its figures as JSON beside it).",
        ),
    ] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
    use_model: ModelOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Score the checker on labelled data (LOW_CONFID and REJECT count as hallucinated)."""
    from groundgate.apps.grounding_check import run_eval

    if not input_path.is_file():
        raise UsageError(f"input file not found: {input_path}")
    if group_by not in ("lang", "domain", "none"):
        raise UsageError("--group-by must be lang, domain or none")
    if split not in ("tune", "test", "all"):
        raise UsageError("--split must be tune, test or all")
    refuse_overwrite("--predictions", predictions_path, force=force)
    refuse_overwrite("--report", report_path, force=force)
    recorder = FallbackRecorder(classifier(settings(data_dir), use_model))
    group = None if group_by == "none" else cast(Literal["lang", "domain"], group_by)
    with ExitStack() as stack:
        predictions = (
            stack.enter_context(predictions_path.open("w", encoding="utf-8")) if predictions_path else None
        )
        bar = progress(err().is_terminal and not as_json)
        stack.enter_context(bar if bar is not None else nullcontext())
        task = bar.add_task("eval", total=input_path.stat().st_size) if bar is not None else None

        def advance(size: int) -> None:
            if bar is not None and task is not None:
                bar.advance(task, size)

        report, summary = run_eval(
            input_path,
            classifier=recorder,
            group_by=group,
            predictions=predictions,
            on_progress=advance,
            split=None if split == "all" else cast(Literal["tune", "test"], split),
        )
    from rich.markup import escape

    for bad in summary.bad_lines:
        err().print(f"[red]line {bad.line}:[/red] {escape(bad.error)}")
    if summary.checked == 0:
        raise UsageError(f"no valid labelled lines in {input_path}")
    report_fallbacks(recorder, summary.checked)
    if report_path is not None:
        from groundgate.regression import write_check_report

        html, figures = write_check_report(report_path, report, source=str(input_path))
        err().print(f"report: {html} (figures: {figures})")
    if as_json:
        payload: dict[str, Any] = report.model_dump(mode="json")
        # How many input lines could not be read (they are listed on stderr); snake case, as the report.
        payload["bad_line_count"] = summary.bad_count
        echo_json(payload)
    else:
        print_eval(report, summary)


def _figures_row(table: Table, name: str, f: EvalFigures, reject: EvalFigures | None = None) -> None:
    table.add_row(
        name,
        str(f.count),
        f"{f.precision:.3f}",
        f"{f.recall:.3f}",
        f"{f.f1:.3f}",
        f"{f.balanced_accuracy:.3f}",
        f"{reject.precision:.3f}" if reject is not None else "",
    )


def print_eval(report: EvalReport, summary: BatchSummary) -> None:
    """Figures per set, the confusion table, the reliability table, the addresses-question line."""
    from rich.table import Table

    from groundgate.contracts import Verdict

    console = out()
    table = Table(title="hallucinated class (flagged = LOW_CONFID or REJECT)")
    for column in ("set", "n", "precision", "recall", "F1", "balanced acc.", "REJECT prec."):
        # Figures never wrap (a narrow terminal wraps the set names instead).
        table.add_column(column, justify="right" if column != "set" else "left", no_wrap=column != "set")
    _figures_row(table, "all (LOW_CONFID+REJECT)", report.flagged, report.reject_only)
    _figures_row(table, "all (REJECT only)", report.reject_only, report.reject_only)
    # The default grouping (lang) is also a breakdown: print it once, with its REJECT precision.
    if set(report.by_group) != set(report.breakdowns.get("lang", {})):
        for name, f in report.by_group.items():
            _figures_row(table, name, f)
    for field_name, values in report.breakdowns.items():
        for value, g in values.items():
            _figures_row(table, f"{field_name} = {value}", g.flagged, g.reject_only)
    console.print(table)
    confusion = Table(title="confusion: label × verdict")
    confusion.add_column("label")
    for verdict in Verdict:
        confusion.add_column(verdict.value, justify="right")
    for label, row in report.confusion_table.items():
        confusion.add_row(label, *(str(row.get(v.value, 0)) for v in Verdict))
    console.print(confusion)
    reliability = Table(
        title=f"reliability: support score ({report.score_source or 'none'}) vs. hallucination rate"
    )
    for column in ("score", "n", "hallucinated", "rate", "mean score"):
        reliability.add_column(column, justify="right" if column != "score" else "left")
    for b in report.reliability:
        reliability.add_row(
            f"{b.low:.1f}–{b.high:.1f}",
            str(b.count),
            str(b.hallucinated),
            f"{b.hallucination_rate:.3f}" if b.hallucination_rate is not None else "—",
            f"{b.mean_score:.3f}" if b.mean_score is not None else "—",
        )
    console.print(reliability)
    if report.addresses_question is not None:
        found = report.addresses_question
        console.print(
            f"not addressing the question: {sum(found.not_addressing.values())} of {found.checked} answers "
            f"({', '.join(f'{label} {n}' for label, n in found.not_addressing.items())})"
        )
    if summary.bad_count:
        console.print(f"[red]{summary.bad_count} bad lines skipped[/red]")


def register(app: typer.Typer) -> None:
    command(app, "check-eval")(check_eval_command)

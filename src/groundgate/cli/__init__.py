"""The `groundgate` command. Reads configuration, builds objects, prints results (Rich or `--json`)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from groundgate.apps.check import BatchSummary, check_within_budget, run_batch, run_eval
from groundgate.contracts import (
    CheckRequest,
    CheckResult,
    ExecutionContext,
    FactCategory,
    OutputKind,
    RunEvent,
    RunResult,
    Verdict,
)
from groundgate.errors import GroundgateError, UsageError
from groundgate.evaluation.check_eval import EvalFigures, EvalReport
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import CheckSettings, Settings, load_settings
from groundgate.text_safety import control_character_problem
from groundgate.verify.assessment import ClaimClassifier
from groundgate.wiring import (
    build_configured_orchestrator as _orchestrator,
)
from groundgate.wiring import (
    local_context as _context,
)
from groundgate.wiring import (
    open_configured_store as _open_store,
)
from groundgate.wiring import (
    open_configured_workspace as _open_workspace,
)

if TYPE_CHECKING:
    from groundgate.store import Store

app = typer.Typer(
    name="groundgate",
    help="Answers operations and business questions only with what its read-only tools proved.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

_VERDICT_STYLE = {Verdict.PASS: "bold green", Verdict.LOW_CONFID: "bold yellow", Verdict.REJECT: "bold red"}
_CATEGORY_STYLE = {
    FactCategory.DIRECT_EVIDENCE: "green",
    FactCategory.INDIRECT_SUPPORT: "cyan",
    FactCategory.NO_EVIDENCE: "yellow",
    FactCategory.CONTRADICTED: "red",
}

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]
ModelOption = Annotated[
    bool,
    typer.Option(
        "--model",
        help="Classify with the configured OpenAI-compatible model (GROUNDGATE_MODEL__NAME etc.) "
        "instead of the offline checker. Verdicts are still computed by code.",
    ),
]


def _classifier(settings: Settings, use_model: bool) -> ClaimClassifier:
    from groundgate.wiring import check_classifier, offline_checker

    if not use_model:
        return offline_checker(settings)
    if not settings.judge_model().configured:
        raise UsageError(
            "--model needs a configured model: set GROUNDGATE_MODEL__NAME (and __BASE_URL, __API_KEY) "
            "or [model] in groundgate.toml"
        )
    return check_classifier(settings)


def _read_text_or_file(value: str) -> str:
    """A value naming an existing file is read; anything else is the text itself."""
    if len(value) < 4096 and "\n" not in value:
        path = Path(value)
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {value}: {exc}") from exc
    return value


def _progress(enabled: bool) -> Progress | None:
    if not enabled:
        return None
    return Progress(
        TextColumn("[bold]checking"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    )


@app.command("check")
def check_command(
    context: Annotated[
        list[str] | None,
        typer.Option("--context", "-c", help="A context passage, or a file holding one. Repeat for more."),
    ] = None,
    answer: Annotated[
        str | None, typer.Option("--answer", "-a", help="The answer to check (text or file).")
    ] = None,
    question: Annotated[str | None, typer.Option("--question", "-q", help="The question, if any.")] = None,
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
    as_json: JsonOption = False,
    use_model: ModelOption = False,
) -> None:
    """Check that every key fact of an answer is grounded in the context."""
    settings = load_settings()
    classifier = _classifier(settings, use_model)
    if input_path is not None:
        if context or answer:
            raise UsageError("use either --input (batch) or --context/--answer, not both")
        _check_batch(input_path, output_path, errors_path, classifier, as_json, budget=settings.check)
        return
    if not context or answer is None:
        raise UsageError("give --context (one or more) and --answer, or --input FILE for a batch")
    if not answer.strip():
        # The same rule as `POST /api/check` (422): an empty answer has nothing to check.
        raise UsageError("--answer is empty: give the answer to check (text or a file)")
    result = check_within_budget(  # within the `[check]` size and time budgets (over size: exit 2)
        context=[_read_text_or_file(c) for c in context],
        answer=_read_text_or_file(answer),
        question=question,
        classifier=classifier,
        budget=settings.check,
    )
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        _print_result(result)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: by path, or by device and inode (a hard link, a symlink)."""
    if a.resolve() == b.resolve():
        return True
    return a.exists() and b.exists() and os.path.samefile(a, b)


def _check_batch(
    input_path: Path,
    output_path: Path | None,
    errors_path: Path | None,
    classifier: ClaimClassifier,
    as_json: bool,
    *,
    budget: CheckSettings | None = None,
) -> None:
    if not input_path.is_file():
        raise UsageError(f"input file not found: {input_path}")
    for flag, target in (("--output", output_path), ("--errors", errors_path)):
        if target is not None and _same_file(target, input_path):
            raise UsageError(f"{flag} must not be the input file (it would be overwritten)")
    if output_path is not None and errors_path is not None and _same_file(output_path, errors_path):
        raise UsageError("--output and --errors must be different files")
    total = input_path.stat().st_size
    with ExitStack() as stack:
        output = stack.enter_context(output_path.open("w", encoding="utf-8")) if output_path else sys.stdout
        errors = stack.enter_context(errors_path.open("w", encoding="utf-8")) if errors_path else None
        progress = _progress(err_console.is_terminal and output_path is not None)
        stack.enter_context(progress if progress is not None else nullcontext())
        task = progress.add_task("check", total=total) if progress is not None else None

        def advance(size: int) -> None:
            if progress is not None and task is not None:
                progress.advance(task, size)

        summary = run_batch(
            input_path, output, classifier=classifier, errors=errors, on_progress=advance, budget=budget
        )
    _print_batch_summary(summary, as_json, to_stderr=output_path is None)


def _print_batch_summary(summary: BatchSummary, as_json: bool, *, to_stderr: bool) -> None:
    for bad in summary.bad_lines:
        err_console.print(f"[red]line {bad.line}:[/red] {escape(bad.error)}")
    if summary.bad_count > len(summary.bad_lines):
        err_console.print(f"[red]… and {summary.bad_count - len(summary.bad_lines)} more bad lines[/red]")
    payload = {"checked": summary.checked, "bad_lines": summary.bad_count, "verdicts": dict(summary.verdicts)}
    target = err_console if to_stderr else console
    if as_json:
        target.print_json(json.dumps(payload))
    else:
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(summary.verdicts.items())) or "none"
        target.print(f"checked {summary.checked} answers ({verdicts}); {summary.bad_count} bad lines")


_CATEGORY_MARK = {
    FactCategory.DIRECT_EVIDENCE: "✔",
    FactCategory.INDIRECT_SUPPORT: "≈",
    FactCategory.NO_EVIDENCE: "?",
    FactCategory.CONTRADICTED: "✘",
}


def _print_result(result: CheckResult) -> None:
    style = _VERDICT_STYLE[result.verdict]
    console.print(
        f"[{style}]{result.verdict.value}[/{style}]  groundedness {result.groundedness_score:.2f}  "
        f"key facts {result.critical_fact_count}  checker {result.checker}"
        + (f" (judge {result.judge_status.value})" if result.checker == "llm" else "")
    )
    for claim in result.claims:
        cat_style = _CATEGORY_STYLE[claim.category]
        key = "key" if claim.key else "not key"
        console.print(
            f" [{cat_style}]{_CATEGORY_MARK[claim.category]} {claim.category.value}[/{cat_style}] "
            f"[dim]({key})[/dim] {escape(claim.text)}"
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


@app.command("check-eval")
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
    as_json: JsonOption = False,
    use_model: ModelOption = False,
) -> None:
    """Score the checker on labelled data (LOW_CONFID and REJECT count as hallucinated)."""
    if not input_path.is_file():
        raise UsageError(f"input file not found: {input_path}")
    if group_by not in ("lang", "domain", "none"):
        raise UsageError("--group-by must be lang, domain or none")
    if split not in ("tune", "test", "all"):
        raise UsageError("--split must be tune, test or all")
    settings = load_settings()
    classifier = _classifier(settings, use_model)
    group: Literal["lang", "domain"] | None = None if group_by == "none" else group_by  # type: ignore[assignment]
    with ExitStack() as stack:
        predictions = (
            stack.enter_context(predictions_path.open("w", encoding="utf-8")) if predictions_path else None
        )
        progress = _progress(err_console.is_terminal and not as_json)
        stack.enter_context(progress if progress is not None else nullcontext())
        task = progress.add_task("eval", total=input_path.stat().st_size) if progress is not None else None

        def advance(size: int) -> None:
            if progress is not None and task is not None:
                progress.advance(task, size)

        report, summary = run_eval(
            input_path,
            classifier=classifier,
            group_by=group,
            predictions=predictions,
            on_progress=advance,
            split=None if split == "all" else split,  # type: ignore[arg-type]
        )
    for bad in summary.bad_lines:
        err_console.print(f"[red]line {bad.line}:[/red] {escape(bad.error)}")
    if summary.checked == 0:
        raise UsageError(f"no valid labelled lines in {input_path}")
    if as_json:
        payload: dict[str, Any] = report.model_dump()
        payload["bad_lines"] = summary.bad_count
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        _print_eval(report, summary)


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


def _print_eval(report: EvalReport, summary: BatchSummary) -> None:
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


def _run_payload(result: RunResult) -> dict[str, Any]:
    """The `--json` shape of one run: exactly the API's `ChatResponse` (camelCase), so a script reads
    `groundgate ask --json` and `POST /api/chat` the same way."""
    from groundgate.api.schemas import ChatResponse

    payload: dict[str, Any] = ChatResponse.from_result(result).model_dump(mode="json", by_alias=True)
    return payload


_KIND_STYLE = {
    OutputKind.NORMAL: "bold green",
    OutputKind.LOW_CONFID_WITH_DISCLAIMER: "bold yellow",
    OutputKind.DEGRADED: "bold red",
}


def _print_run(result: RunResult, title: str | None = None) -> None:
    style = _KIND_STYLE[result.output_kind]
    verdict = result.verdict.value if result.verdict else "—"
    header = (
        f"[{style}]{result.output_kind.value}[/{style}]  verdict {verdict}  "
        f"groundedness {result.groundedness_score:.2f}  rounds {result.rounds}  "
        f"tools {', '.join(f'{r.tool}:{r.status.value}' for r in result.tool_results) or 'none'}"
    )
    console.print(header)
    console.print(Panel(escape(result.answer), title=escape(title or result.question), expand=True))


def _progress_printer(enabled: bool) -> Callable[[RunEvent], None] | None:
    if not enabled:
        return None

    def show(event: RunEvent) -> None:
        detail = event.detail
        if event.stage == "tool_call":
            err_console.print(
                f"[dim]round {event.round} · call {detail.get('tool')} {detail.get('arguments')}[/dim]"
            )
        elif event.stage == "tool_result":
            err_console.print(
                f"[dim]round {event.round} · {detail.get('tool')} → {detail.get('status')}[/dim]"
            )
        elif event.stage == "verifier":
            err_console.print(
                f"[dim]round {event.round} · verifier {detail.get('verdict')} "
                f"({detail.get('groundedness_score', 0):.2f})[/dim]"
            )

    return show


@app.command("ingest")
def ingest_command(
    path: Annotated[Path, typer.Argument(help="A Markdown/text file or a folder of them.")],
    force: Annotated[bool, typer.Option("--force", help="Re-index unchanged files too.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Ingest documents (front matter: authority, kind, version, effective dates, scope, tenant).

    Links leading outside PATH and files over `[ingest] max_file_bytes` are skipped and listed.
    """
    from groundgate.knowledge import ingest_path

    settings = load_settings()
    with _open_workspace(settings) as workspace:
        progress = _progress(err_console.is_terminal and not as_json)
        with progress if progress is not None else nullcontext():
            task = progress.add_task("ingest", total=None) if progress is not None else None

            def advance(*_args: object) -> None:
                if progress is not None and task is not None:
                    progress.advance(task, 1)

            report = ingest_path(
                path,
                workspace.index,
                on_progress=advance,
                force=force,
                max_file_bytes=settings.ingest.max_file_bytes,
            )
    payload = {
        "files": report.files,
        "ingested": report.ingested,
        "unchanged": report.unchanged,
        "chunks": report.chunks,
        "badFiles": [{"path": b.path, "reason": b.reason, "code": b.code.value} for b in report.bad_files],
        "instructionChunks": report.instruction_chunks,
        "seconds": round(report.seconds, 3),
    }
    for bad in report.bad_files:
        err_console.print(f"[red]skipped {escape(bad.path)}:[/red] {escape(bad.reason)}")
    if report.instruction_chunks:
        # Kept and shown as written, but never a claim's evidence: worth a look by the owner.
        err_console.print(
            f"[yellow]instruction-like text (never cited) in {len(report.instruction_chunks)} chunks:[/yellow] "
            + escape(", ".join(report.instruction_chunks[:10]))
        )
    if as_json:
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        console.print(
            f"ingested {report.ingested} of {report.files} files ({report.unchanged} unchanged), "
            f"{report.chunks} chunks in {report.seconds:.2f} s"
        )


@contextmanager
def _store_closing(settings: Settings, *, recover: bool = True) -> Iterator[Store]:
    """The configured store, closed afterwards; `recover`: runs whose lease expired are FAILED first."""
    store = _open_store(settings, recover=recover)
    try:
        yield store
    finally:
        store.close()


def _run_recorded(
    store: Store,
    orchestrator: Orchestrator,
    question: str,
    ctx: ExecutionContext,
    *,
    session_id: str | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
    mode: str = "chat",
) -> RunResult:
    """Run one question, writing the run, its steps and tool invocations as they happen."""
    from groundgate.apps.chat import ask_recorded

    return ask_recorded(
        store, orchestrator, question, ctx, session_id=session_id, mode=mode, on_event=on_event
    )


@app.command("ask")
def ask_command(
    question: Annotated[str, typer.Argument(help="The question.")],
    session: Annotated[str | None, typer.Option("--session", help="Continue this session id.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Answer a question with only what the read-only tools proved."""
    if not question.strip():
        raise UsageError("the question is empty")
    if len(question) > 2000:
        raise UsageError("the question is longer than 2,000 characters")
    for name, value, free_text in (("the question", question, True), ("--session", session or "", False)):
        # The API's 422 rule (groundgate.text_safety): no NUL or other control characters.
        problem = control_character_problem(value, allow_whitespace=free_text)
        if problem is not None:
            raise UsageError(f"{name} {problem}")
    settings = load_settings()
    with _open_workspace(settings) as workspace, _store_closing(settings) as store:
        result = _run_recorded(
            store,
            _orchestrator(settings, workspace),
            question,
            _context(settings),
            session_id=session,
            on_event=_progress_printer(not as_json and err_console.is_terminal),
        )
    if as_json:
        typer.echo(json.dumps(_run_payload(result), ensure_ascii=False, indent=2))
    else:
        _print_run(result)


@app.command("demo")
def demo_command(
    as_json: JsonOption = False,
    checker: Annotated[
        bool, typer.Option("--checker", help="Show the grounding checker on its examples instead.")
    ] = False,
) -> None:
    """Load the bundled demo workspace if needed and run its showcase questions (no model, no server)."""
    if checker:
        _checker_demo(as_json)
        return
    from groundgate.apps.workspace import DEMO_ROOT, load_demo

    settings = load_settings()
    payloads: list[dict[str, Any]] = []
    with _open_workspace(settings) as workspace, _store_closing(settings) as store:
        if not as_json:
            err_console.print(f"[dim]loading the demo workspace into {settings.data_dir} …[/dim]")
        load_demo(workspace)
        orchestrator = _orchestrator(settings, workspace)
        ctx = _context(settings)
        for line in (DEMO_ROOT / "showcase.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            result = _run_recorded(store, orchestrator, item["question"], ctx, mode="demo")
            payload = _run_payload(result)
            payload["showcase"] = item["id"]
            payload["expected"] = item["expect"]
            payloads.append(payload)
            if not as_json:
                _print_run(result, title=f"{item['id']}: {item['question']}")
                console.print()
    if as_json:
        typer.echo(json.dumps(payloads, ensure_ascii=False, indent=2))


def _checker_demo(as_json: bool) -> None:
    """The grounding checker on its bundled examples."""
    from groundgate.apps.check import iter_lines, parse_request
    from groundgate.demo import demo_file
    from groundgate.verify.check import check_request

    settings = load_settings()
    classifier = _classifier(settings, use_model=False)
    results: list[CheckResult] = []
    with demo_file("check_examples.jsonl").open("rb") as stream:
        for number, _size, item in iter_lines(stream):
            request = item if not isinstance(item, dict) else parse_request(number, item)
            if not isinstance(request, CheckRequest):
                raise GroundgateError(f"bundled demo line {number} is broken: {request}")
            result = check_request(request, classifier)
            results.append(result)
            if not as_json:
                console.print(
                    Panel.fit(
                        f"[bold]{escape(request.question or '')}[/bold]\n{escape(request.answer)}",
                        title=f"demo {request.id}",
                    )
                )
                _print_result(result)
                console.print()
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in results], ensure_ascii=False, indent=2))


# ---------------------------------------------------------------- auditing runs


def _echo_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))


@app.command("trace")
def trace_command(
    run_id: Annotated[str, typer.Argument(help="The run id (`runId` of `ask --json`, or from `runs`).")],
    as_json: JsonOption = False,
) -> None:
    """Show one stored run: status, verdict, feedback, self-evaluation, steps and tool invocations.

    Operator access: any tenant's run (whoever can run the CLI holds the store itself)."""
    from groundgate.apps.trace import get_trace

    settings = load_settings()
    with _store_closing(settings) as store, store.session() as session:
        trace = get_trace(run_id, session=session)
    if as_json:
        _echo_json(trace.model_dump(mode="json", by_alias=True))
        return
    rule = trace.rule_evaluation
    verifier = trace.verifier_evaluation
    console.print(
        f"[bold]run {escape(trace.run_id)}[/bold]  session {escape(trace.session_id)}  "
        f"status [bold]{trace.status}[/bold]  {trace.output_kind or '—'}  verdict {trace.verdict or '—'}  "
        f"feedback {trace.feedback or '—'}  rounds {trace.rounds}  {trace.elapsed_ms:.0f} ms"
    )
    console.print(
        f"evidence score {rule.evidence_score if rule else '—'}  "
        f"groundedness {f'{verifier.groundedness_score:.2f}' if verifier else '—'}  "
        f"stop {escape(trace.stop_reason or '—')}"
    )
    console.print(Panel(escape(trace.answer or "(no answer)"), title=escape(trace.query), expand=True))
    steps = Table(title="steps")
    for column in ("#", "round", "role", "reason", "thought"):
        steps.add_column(column)
    for step in trace.steps:
        steps.add_row(
            str(step.seq), str(step.round), step.role, escape(step.reason_code), escape(step.thought[:120])
        )
    console.print(steps)
    calls = Table(title="tool invocations")
    for column in ("round", "tool", "status", "arguments", "observation"):
        calls.add_column(column)
    for call in trace.tool_invocations:
        calls.add_row(
            str(call.round),
            call.tool,
            call.status,
            escape(json.dumps(call.arguments, ensure_ascii=False)[:80]),
            escape(call.output_summary[:100]),
        )
    console.print(calls)


# A group that still runs on its own: `groundgate runs [--session …]` lists, `groundgate runs recover`
# recovers.
runs_app = typer.Typer(invoke_without_command=True)
app.add_typer(runs_app, name="runs")


@runs_app.callback()
def runs_command(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Option("--session", help="Only this session's runs.")] = None,
    feedback: Annotated[
        str | None, typer.Option("--feedback", help="Only runs with this feedback (useful, not_useful).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", help="At most this many runs (newest first).")] = 50,
    as_json: JsonOption = False,
) -> None:
    """List stored runs, newest first (`--feedback not_useful`: the bad cases); `runs recover` marks
    FAILED the runs whose process is gone."""
    if ctx.invoked_subcommand is not None:
        return
    from groundgate.apps.feedback import FEEDBACK_VALUES
    from groundgate.apps.trace import list_runs

    if feedback is not None and feedback not in FEEDBACK_VALUES:
        raise UsageError(f"--feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {feedback!r}")
    settings = load_settings()
    with _store_closing(settings) as store, store.session() as session_:
        runs = list_runs(session=session_, session_id=session, feedback=feedback, limit=limit)
    if as_json:
        _echo_json([r.model_dump(mode="json", by_alias=True) for r in runs])
        return
    table = Table(title=f"{len(runs)} runs")
    for column in ("run", "session", "status", "output", "verdict", "feedback"):
        table.add_column(column, no_wrap=True)
    table.add_column("question", overflow="ellipsis", no_wrap=True, min_width=12)
    for run in runs:
        table.add_row(
            run.run_id,
            run.session_id[:12],
            run.status,
            run.output_kind or "—",
            run.verdict or "—",
            run.feedback or "—",
            escape(run.query[:60]),
        )
    console.print(table)


@runs_app.command("recover")
def runs_recover_command(as_json: JsonOption = False) -> None:
    """Mark FAILED the RUNNING runs whose lease expired (their process was killed, or lost the store
    for longer than the lease, store.lease_seconds); prints how many and their ids.

    Safe beside a running service: a run whose process still renews its lease is never touched."""
    from groundgate.store.leases import recover_interrupted_runs

    settings = load_settings()
    # Not at opening: what this command recovers is what it reports.
    with _store_closing(settings, recover=False) as store:
        recovered = recover_interrupted_runs(store)
    if as_json:
        _echo_json({"recovered": len(recovered), "runIds": recovered})
        return
    console.print(f"marked {len(recovered)} interrupted run(s) FAILED")
    for run_id in recovered:
        console.print(f"  {escape(run_id)}")


@app.command("feedback")
def feedback_command(
    run_id: Annotated[str, typer.Argument(help="The run id.")],
    value: Annotated[str, typer.Argument(help="useful or not_useful.")],
    session: Annotated[
        str | None, typer.Option("--session", help="The run's session id (default: the run's own).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Record feedback on a run: `useful` distils a case (once), `not_useful` marks a bad case."""
    from groundgate.apps.feedback import FEEDBACK_VALUES, submit_feedback
    from groundgate.store.repositories import get_run

    if value not in FEEDBACK_VALUES:
        raise UsageError(f"feedback must be one of {', '.join(FEEDBACK_VALUES)}; got {value!r}")
    settings = load_settings()
    with _store_closing(settings) as store, store.session() as session_:
        session_id = session or get_run(run_id, session=session_).session_id
        response = submit_feedback(session=session_, session_id=session_id, feedback=value, run_id=run_id)
    if as_json:
        _echo_json(response.model_dump(mode="json", by_alias=True))
    else:
        case = f"  case {response.case_id}" if response.case_id else ""
        console.print(f"{value} recorded for run {escape(run_id)}{case}")


@app.command("cases")
def cases_command(
    limit: Annotated[int, typer.Option("--limit", help="At most this many cases (newest first).")] = 50,
    as_json: JsonOption = False,
) -> None:
    """List the case library (cases distilled from `useful` runs) of every tenant (operator access)."""
    from sqlalchemy import select

    from groundgate.apps.cases import CaseRecord
    from groundgate.store.tables import CaseLibrary

    if limit < 1:
        raise UsageError(f"--limit must be at least 1; got {limit}")
    settings = load_settings()
    with _store_closing(settings) as store, store.session() as session:
        rows = session.scalars(select(CaseLibrary).order_by(CaseLibrary.id.desc()).limit(limit)).all()
        cases = [CaseRecord.from_row(row) for row in rows]
    if as_json:
        _echo_json([c.model_dump(mode="json", by_alias=True) for c in cases])
        return
    table = Table(title=f"{len(cases)} cases")
    for column in ("case", "run", "category", "service", "error codes", "title"):
        table.add_column(column)
    for case in cases:
        table.add_row(
            case.case_id[:8],
            case.diagnosis_id,
            case.fault_category,
            case.service or "—",
            ", ".join(case.error_codes) or "—",
            escape(case.title[:60]),
        )
    console.print(table)


db_app = typer.Typer(help="The run store's database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("upgrade")
def db_upgrade_command(as_json: JsonOption = False) -> None:
    """Migrate the store's schema to the newest revision (nothing changes when it is up to date)."""
    from groundgate.store.engine import create_store_engine, current_revision, resolve_url, upgrade

    settings = load_settings()
    engine = create_store_engine(resolve_url(settings.store.url or settings.data_dir))
    try:
        before = current_revision(engine)
        upgrade(engine)
        after = current_revision(engine)
        url = engine.url.render_as_string(hide_password=True)
    finally:
        engine.dispose()
    if as_json:
        _echo_json({"database": url, "from": before, "revision": after})
    else:
        console.print(f"{url}: {before or '(empty)'} → {after}")


@app.command("serve")
def serve_command(
    host: Annotated[str | None, typer.Option("--host", help="Address to bind (default [api] host).")] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port (default [api] port).")] = None,
    demo: Annotated[
        bool,
        typer.Option("--demo", help="Load the bundled demo workspace first (as `groundgate demo` does)."),
    ] = False,
) -> None:
    """Serve the HTTP API and the web page at / (FastAPI on uvicorn).

    Without [api.keys] only 127.0.0.1 may be bound."""
    from groundgate.api.app import check_bind_address, serve

    settings = load_settings()
    bind_host = host or settings.api.host
    check_bind_address(settings, bind_host)
    if demo:
        from groundgate.apps.workspace import load_demo

        # Loaded and closed before the app opens the workspace: the embedded shard has one owner.
        with _open_workspace(settings) as workspace:
            err_console.print(f"[dim]loading the demo workspace into {settings.data_dir} …[/dim]")
            load_demo(workspace)
    serve(settings, bind_host, port if port is not None else settings.api.port)


def main() -> None:
    """Console entry point: usage errors exit 2 with a clear message, run errors exit 1."""
    try:
        app()
    except UsageError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise SystemExit(2) from None
    except GroundgateError as exc:
        err_console.print(f"[red]failed:[/red] {escape(str(exc))}")
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()

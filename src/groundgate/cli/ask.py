"""`groundgate ask` and `groundgate demo`: questions through the evidence-gated pipeline, recorded."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from groundgate.cli._common import (
    DataDirOption,
    JsonOption,
    classifier,
    command,
    echo_json,
    err,
    out,
    settings,
    store_closing,
)
from groundgate.errors import GroundgateError, UsageError

if TYPE_CHECKING:
    from groundgate.contracts import ExecutionContext, RunEvent, RunResult
    from groundgate.settings import Settings
    from groundgate.store import Store

MAX_QUESTION_CHARS = 2000


def run_payload(result: RunResult) -> dict[str, Any]:
    """The `--json` shape of one run: exactly the API's `ChatResponse` (camelCase), so a script reads
    `groundgate ask --json` and `POST /api/chat` the same way."""
    from groundgate.api.schemas import ChatResponse

    payload: dict[str, Any] = ChatResponse.from_result(result).model_dump(mode="json", by_alias=True)
    return payload


def print_run(result: RunResult, title: str | None = None) -> None:
    from rich.markup import escape
    from rich.panel import Panel

    from groundgate.contracts import OutputKind

    kind_style = {
        OutputKind.NORMAL: "bold green",
        OutputKind.LOW_CONFID_WITH_DISCLAIMER: "bold yellow",
        OutputKind.DEGRADED: "bold red",
    }
    style = kind_style[result.output_kind]
    verdict = result.verdict.value if result.verdict else "—"
    console = out()
    console.print(
        f"[{style}]{result.output_kind.value}[/{style}]  verdict {verdict}  "
        f"groundedness {result.groundedness_score:.2f}  rounds {result.rounds}  "
        f"tools {', '.join(f'{r.tool}:{r.status.value}' for r in result.tool_results) or 'none'}"
    )
    console.print(Panel(escape(result.answer), title=escape(title or result.question), expand=True))


def progress_printer(enabled: bool) -> Callable[[RunEvent], None] | None:
    """Stages of a run on stderr as they happen (a terminal only)."""
    if not enabled:
        return None
    console = err()

    def show(event: RunEvent) -> None:
        detail = event.detail
        if event.stage == "tool_call":
            console.print(
                f"[dim]round {event.round} · call {detail.get('tool')} {detail.get('arguments')}[/dim]"
            )
        elif event.stage == "tool_result":
            console.print(f"[dim]round {event.round} · {detail.get('tool')} → {detail.get('status')}[/dim]")
        elif event.stage == "verifier":
            console.print(
                f"[dim]round {event.round} · verifier {detail.get('verdict')} "
                f"({detail.get('groundedness_score', 0):.2f})[/dim]"
            )

    return show


def check_question(question: str, session: str | None) -> None:
    """The API's 422 rules for a question and a session id, as usage errors."""
    from groundgate.text.safety import control_character_problem

    if not question.strip():
        raise UsageError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise UsageError(f"the question is longer than {MAX_QUESTION_CHARS:,} characters")
    for name, value, free_text in (("the question", question, True), ("--session", session or "", False)):
        problem = control_character_problem(value, allow_whitespace=free_text)
        if problem is not None:
            raise UsageError(f"{name} {problem}")


def ask_command(
    question: Annotated[str, typer.Argument(help="The question.")],
    session: Annotated[
        str | None, typer.Option("--session", metavar="ID", help="Continue this session id.")
    ] = None,
    as_json: JsonOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Answer a question with only what the read-only tools proved."""
    check_question(question, session)
    from groundgate.apps.chat import ask_recorded
    from groundgate.wiring import build_configured_orchestrator, local_context, open_configured_workspace

    config = settings(data_dir)
    with open_configured_workspace(config) as workspace, store_closing(config) as store:
        ctx = local_context(config)
        result = ask_recorded(
            store,
            build_configured_orchestrator(config, workspace),
            question,
            ctx,
            session_id=session,
            on_event=progress_printer(not as_json and err().is_terminal),
        )
        if as_json:
            echo_json(run_payload(result))
        else:
            print_run(result)
        if config.agent.mode == "shadow":
            shadow_beside(config, store, question, ctx, chat_run_id=result.run_id)


def shadow_beside(
    config: Settings, store: Store, question: str, ctx: ExecutionContext, *, chat_run_id: str
) -> None:
    """`[agent] mode = "shadow"`: after the answer is printed, the agent runs on the same question over
    the HR demo and its decision is recorded (mode `agent-shadow`, session `shadow-<run id>`); the
    output above is already final, and a failure of the agent is logged, never shown as an error."""
    import logging

    from groundgate.agent import TaskStore
    from groundgate.agent.recording import run_in_shadow
    from groundgate.apps.agent_rollout import shadow_session_id
    from groundgate.demo.hr.workspace import open_hr_workspace

    try:
        with open_hr_workspace(config.data_dir, TaskStore(store)) as hr:
            run_in_shadow(hr.runtime, store, question, ctx, session_id=shadow_session_id(chat_run_id))
    except Exception:
        logging.getLogger(__name__).exception("the agent's shadow run could not start")


def demo_command(
    as_json: JsonOption = False,
    checker: Annotated[
        bool, typer.Option("--checker", help="Show the grounding checker on its examples instead.")
    ] = False,
    data_dir: DataDirOption = None,
) -> None:
    """Load the bundled demo workspace if needed and run its showcase questions (no model, no server)."""
    if checker:
        checker_demo(as_json, data_dir)
        return
    from groundgate.apps.chat import ask_recorded
    from groundgate.apps.workspace import DEMO_ROOT, load_demo
    from groundgate.wiring import build_configured_orchestrator, local_context, open_configured_workspace

    config = settings(data_dir)
    payloads: list[dict[str, Any]] = []
    with open_configured_workspace(config) as workspace, store_closing(config) as store:
        if not as_json:
            err().print(f"[dim]loading the demo workspace into {config.data_dir} …[/dim]")
        load_demo(workspace)
        orchestrator = build_configured_orchestrator(config, workspace)
        ctx = local_context(config)
        for line in (DEMO_ROOT / "showcase.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            result = ask_recorded(store, orchestrator, item["question"], ctx, mode="demo")
            payload = run_payload(result)
            payload["showcase"] = item["id"]
            payload["expected"] = item["expect"]
            payloads.append(payload)
            if not as_json:
                print_run(result, title=f"{item['id']}: {item['question']}")
                out().print()
        if not as_json:
            # And one alert diagnosis (issue 14): the demo's PaymentHighErrorRate on payment-api.
            _demo_diagnosis(store, orchestrator, workspace, ctx)
    if as_json:
        echo_json(payloads)


def _demo_diagnosis(store: Any, orchestrator: Any, workspace: Any, ctx: Any) -> None:
    from groundgate.apps.diagnosis import diagnose_recorded, read_alert_file
    from groundgate.apps.workspace import AIOPS_DEMO_ROOT, load_aiops_demo
    from groundgate.cli.diagnose import DEMO_ALERT, print_diagnosis

    load_aiops_demo(workspace)
    alert, others = read_alert_file(AIOPS_DEMO_ROOT / "alerts" / DEMO_ALERT)
    out().print("[bold]alert diagnosis[/bold] (groundgate diagnose --demo)")
    print_diagnosis(diagnose_recorded(store, orchestrator, alert, ctx, others=others))


def checker_demo(as_json: bool, data_dir: Path | None) -> None:
    """The grounding checker on its bundled examples."""
    from rich.markup import escape
    from rich.panel import Panel

    from groundgate.apps.grounding_check import iter_lines, parse_request
    from groundgate.cli.check import print_result
    from groundgate.contracts import CheckRequest, CheckResult
    from groundgate.demo import demo_file
    from groundgate.verify.grounding_check import check_request

    offline = classifier(settings(data_dir), use_model=False)
    results: list[CheckResult] = []
    with demo_file("check_examples.jsonl").open("rb") as stream:
        for number, _size, item in iter_lines(stream):
            request = item if not isinstance(item, dict) else parse_request(number, item)
            if not isinstance(request, CheckRequest):
                raise GroundgateError(f"bundled demo line {number} is broken: {request}")
            result = check_request(request, offline)
            results.append(result)
            if not as_json:
                out().print(
                    Panel.fit(
                        f"[bold]{escape(request.question or '')}[/bold]\n{escape(request.answer)}",
                        title=f"demo {request.id}",
                    )
                )
                print_result(result)
                out().print()
    if as_json:
        echo_json([r.model_dump(mode="json", by_alias=True) for r in results])


def register(app: typer.Typer) -> None:
    command(app, "ask")(ask_command)
    command(app, "demo")(demo_command)

"""The eval loop (issue 15): fixtures, offline replay, one runner for every golden set, capture of
stored runs as fixtures, baselines and reports (docs/eval.md).

- `fixtures`: the YAML case format (pydantic models) and reading/writing it.
- `replay`: recorded tool outputs behind the orchestrator's `ToolBackend`; scripted models.
- `judge`: what a case did, and judging it against its expectations.
- `runner`: running fixtures in parallel through their drivers (`question` built in; `alert` through
  `aiops_suite`, `agent_turn` through `agent_suite`).
- `aiops_suite`: the `alert` driver — one alert diagnosis over recorded tool outputs.
- `suites`: the named golden sets (`showcase`, `questions`, hooks for `agent` and `aiops`).
- `capture`: a stored run, or a question asked now, frozen into a fixture.
- `baseline`: recording a run's figures and reporting what changed, case by case.
- `report`: one self-contained HTML file of figures (plotly, offline), and the same as JSON.
- `check_report`: the same kind of report for the grounding checker's labelled sets (`check-eval`).
- `agent_suite`: the business agent's golden set as the `agent` suite; `agent_replay`: free agent
  turns replayed over recorded tool outputs, and stored agent runs captured as such turns;
  `recorded`: tool outputs as fixtures record them; `otel`: runs as OpenTelemetry traces (the `otel`
  extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgate import _lazy

if TYPE_CHECKING:
    from groundgate.regression.baseline import (
        Baseline,
        BaselineDiff,
        CaseChange,
        compare_baseline,
        load_baseline,
        make_baseline,
        write_baseline,
    )
    from groundgate.regression.capture import (
        RecordingTools,
        capture_feedback,
        capture_run,
        freeze_question,
        parse_since,
    )
    from groundgate.regression.check_report import write_check_report
    from groundgate.regression.fixtures import (
        Expectations,
        Fixture,
        ReviewerExpected,
        load_fixtures,
        write_fixture,
    )
    from groundgate.regression.judge import CaseResult, CaseStatus, Observed, judge
    from groundgate.regression.replay import ReplayTools, register_tool_spec, scripted_role_models
    from groundgate.regression.report import report_figures, write_report
    from groundgate.regression.runner import EvalEnvironment, EvalRun, register_driver, run_fixtures
    from groundgate.regression.suites import freeze_showcase, load_suites, register_suite

_HOMES: dict[str, str] = {
    **dict.fromkeys(
        ("Expectations", "Fixture", "ReviewerExpected", "load_fixtures", "write_fixture"),
        "groundgate.regression.fixtures",
    ),
    **dict.fromkeys(
        ("ReplayTools", "register_tool_spec", "scripted_role_models"), "groundgate.regression.replay"
    ),
    **dict.fromkeys(("CaseResult", "CaseStatus", "Observed", "judge"), "groundgate.regression.judge"),
    **dict.fromkeys(
        ("EvalEnvironment", "EvalRun", "register_driver", "run_fixtures"), "groundgate.regression.runner"
    ),
    **dict.fromkeys(("freeze_showcase", "load_suites", "register_suite"), "groundgate.regression.suites"),
    **dict.fromkeys(
        ("RecordingTools", "capture_feedback", "capture_run", "freeze_question", "parse_since"),
        "groundgate.regression.capture",
    ),
    **dict.fromkeys(
        (
            "Baseline",
            "BaselineDiff",
            "CaseChange",
            "compare_baseline",
            "load_baseline",
            "make_baseline",
            "write_baseline",
        ),
        "groundgate.regression.baseline",
    ),
    **dict.fromkeys(("report_figures", "write_report"), "groundgate.regression.report"),
    "write_check_report": "groundgate.regression.check_report",
}

__all__ = [
    # the fixture format
    "Expectations",
    "Fixture",
    "ReviewerExpected",
    "load_fixtures",
    "write_fixture",
    # replay
    "ReplayTools",
    "register_tool_spec",
    "scripted_role_models",
    # running and judging
    "CaseResult",
    "CaseStatus",
    "EvalEnvironment",
    "EvalRun",
    "Observed",
    "judge",
    "register_driver",
    "run_fixtures",
    # suites
    "freeze_showcase",
    "load_suites",
    "register_suite",
    # capture
    "RecordingTools",
    "capture_feedback",
    "capture_run",
    "freeze_question",
    "parse_since",
    # baselines
    "Baseline",
    "BaselineDiff",
    "CaseChange",
    "compare_baseline",
    "load_baseline",
    "make_baseline",
    "write_baseline",
    # reports
    "report_figures",
    "write_check_report",
    "write_report",
]


def __getattr__(name: str) -> Any:
    return _lazy.load(__name__, _HOMES, name)


def __dir__() -> list[str]:
    return _lazy.names(globals(), __all__)

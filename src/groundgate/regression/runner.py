"""Running fixtures: each case through its driver, in parallel on a bounded thread pool, judged
against its expectations.

A driver turns one fixture into an `Observed` run. The `question` driver is built in: the real
pipeline (`groundgate.apps.build_orchestrator`), its tools the fixture's recordings (`ReplayTools`)
or a loaded workspace, its models the fixture's scripts (`ScriptedModel`) or offline roles. Alerts and
agent turns are typed extension points: the AIOps and business-agent packages register their drivers
with `register_driver("alert", …)` / `register_driver("agent_turn", …)`; a kind without a driver is
reported `skipped`, never silently passed. `agent_turn` runs the business agent's golden cases
(`groundgate.regression.agent_suite`); `alert` runs an alert diagnosis (`groundgate.regression.aiops_suite`).

Runs are not recorded unless a store is given (`groundgate eval run --record`): then each one is a
stored run (mode `eval`) whose trace `groundgate trace RUN_ID` shows.
"""

from __future__ import annotations

import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from groundgate.errors import FixtureError, GroundgateError
from groundgate.regression.fixtures import Fixture, QuestionInput
from groundgate.regression.judge import CaseResult, CaseStatus, Observed, judge, observe
from groundgate.regression.replay import ReplayTools, scripted_role_models

if TYPE_CHECKING:
    from groundgate.apps import Workspace
    from groundgate.store import Store

__all__ = [
    "DEFAULT_JOBS",
    "Driver",
    "EvalEnvironment",
    "EvalRun",
    "PIPELINE_DOCS",
    "register_driver",
    "run_case",
    "run_fixtures",
]

DEFAULT_JOBS = 4
PIPELINE_DOCS = Path(__file__).resolve().parents[3] / "tests" / "data" / "pipeline_docs"
"""The added documents of the labelled question set (a source checkout only)."""


class Driver(Protocol):
    """Runs one fixture; returns what it did. Raise `GroundgateError` for a case that cannot run."""

    def __call__(self, fixture: Fixture, env: EvalEnvironment) -> Observed: ...


_DRIVERS: dict[str, Driver] = {}


def register_driver(kind: str, driver: Driver) -> None:
    """Run fixtures whose `input.kind` is `kind` with `driver` (`alert`, `agent_turn`, …)."""
    _DRIVERS[kind] = driver


@dataclass(slots=True)
class EvalEnvironment:
    """What the cases of one eval run share: workspaces loaded once, and optionally a store that
    records every run. Close it when done (or use `with`)."""

    store: Store | None = None
    _workspaces: dict[str, Workspace] = field(default_factory=dict)
    _folders: list[tempfile.TemporaryDirectory[str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def workspace(self, name: str) -> Workspace:
        """The named workspace (`demo`, `demo+pipeline_docs`), loaded into a temporary folder on
        first use; later cases (any thread) share it."""
        with self._lock:
            if name in self._workspaces:
                return self._workspaces[name]
            from groundgate.apps import load_demo, open_workspace

            folder = tempfile.TemporaryDirectory(prefix="gg-eval-")
            self._folders.append(folder)
            workspace = open_workspace(Path(folder.name))
            load_demo(workspace)
            if name == "demo+pipeline_docs":
                if not PIPELINE_DOCS.is_dir():
                    workspace.close()
                    raise FixtureError(
                        f"workspace {name!r} needs {PIPELINE_DOCS} (a source checkout of groundgate)"
                    )
                from groundgate.knowledge import ingest_path

                ingest_path(PIPELINE_DOCS, workspace.index)
            self._workspaces[name] = workspace
            return workspace

    def close(self) -> None:
        with self._lock:
            for workspace in self._workspaces.values():
                workspace.close()
            self._workspaces.clear()
            for folder in self._folders:
                folder.cleanup()
            self._folders.clear()

    def __enter__(self) -> EvalEnvironment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_question(fixture: Fixture, env: EvalEnvironment) -> Observed:
    """The built-in driver: one question through the pipeline (see the module docstring)."""
    from groundgate.apps import ask_recorded, build_orchestrator
    from groundgate.contracts import ExecutionContext

    question = fixture.input
    assert isinstance(question, QuestionInput)
    replay = fixture.tools.mode == "replay"
    tools: Any = (
        ReplayTools(fixture.tools.calls, available=fixture.tools.available, strict=fixture.tools.strict)
        if replay
        else env.workspace(fixture.tools.workspace).registry
    )
    try:
        orchestrator = build_orchestrator(tools, models=scripted_role_models(fixture.models))
        ctx = ExecutionContext(tenant=question.tenant, user=question.user, roles=tuple(question.roles))
        history = [(t.question, t.resolved or t.question) for t in question.history]
        # A follow-up needs its earlier turns, which a fresh stored session does not have: such a
        # case runs unrecorded.
        record = env.store is not None and not history
        started = time.perf_counter()
        if record:
            assert env.store is not None
            result = ask_recorded(env.store, orchestrator, question.question, ctx, mode="eval")
        else:
            result = orchestrator.run(
                question.question,
                ctx,
                run_id=f"eval-{uuid.uuid4().hex[:20]}",
                session_id=f"eval-{uuid.uuid4().hex[:20]}",
                history=history,
            )
        latency = (time.perf_counter() - started) * 1000
    finally:
        if replay:
            tools.close()
    return observe(result, latency_ms=latency, misses=tools.misses if replay else [], recorded=record)


def _run_agent_turn(fixture: Fixture, env: EvalEnvironment) -> Observed:
    from groundgate.regression.agent_suite import run_agent_turn

    return run_agent_turn(fixture, env)


def _run_alert(fixture: Fixture, env: EvalEnvironment) -> Observed:
    from groundgate.regression.aiops_suite import run_alert

    return run_alert(fixture, env)


register_driver("question", run_question)
register_driver("agent_turn", _run_agent_turn)
register_driver("alert", _run_alert)


def run_case(fixture: Fixture, env: EvalEnvironment) -> CaseResult:
    """Run and judge one fixture; never raises (an exception is an `error` result)."""
    base: dict[str, Any] = {
        "key": fixture.key,
        "id": fixture.id,
        "suite": fixture.suite,
        "path": fixture.path,
        "expected_output_kind": [str(k) for k in fixture.expectations.output_kind],
        "source_run_id": fixture.source.run_id if fixture.source else None,
        "needs_review": fixture.reviewer_expected is not None and not fixture.reviewer_expected.filled,
        "known_failure": fixture.known_failure,
    }
    driver = _DRIVERS.get(fixture.input.kind)
    if driver is None:
        return CaseResult(
            **base,
            status=CaseStatus.SKIPPED,
            note=f"no driver for input kind {fixture.input.kind!r} yet",
        )
    try:
        seen = driver(fixture, env)
    except GroundgateError as exc:
        return CaseResult(**base, status=CaseStatus.ERROR, error=f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a crash inside the pipeline is what an eval must report, not hide
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return CaseResult(**base, status=CaseStatus.ERROR, error=tail)
    failures = judge(fixture.expectations, seen, strict_replay=fixture.tools.strict)
    if fixture.known_failure:
        status = CaseStatus.KNOWN_FAILURE if failures else CaseStatus.FIXED
    else:
        status = CaseStatus.FAILED if failures else CaseStatus.PASSED
    return CaseResult(**base, status=status, failures=failures, observed=seen)


@dataclass(slots=True)
class EvalRun:
    """The results of one eval run, in fixture order."""

    results: list[CaseResult]
    started_at: datetime
    seconds: float
    jobs: int

    @property
    def regressions(self) -> list[CaseResult]:
        return [r for r in self.results if r.regression]

    def counts(self) -> dict[str, int]:
        counts = {status.value: 0 for status in CaseStatus}
        for result in self.results:
            counts[result.status.value] += 1
        return counts


def run_fixtures(
    fixtures: Sequence[Fixture],
    *,
    jobs: int = DEFAULT_JOBS,
    env: EvalEnvironment | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> EvalRun:
    """Run every fixture on at most `jobs` threads; `on_result` is called as each case finishes (from
    the calling thread, so a progress bar needs no lock)."""
    if jobs < 1:
        raise FixtureError("--jobs must be at least 1")
    started_at = datetime.now(UTC)
    started = time.perf_counter()
    own = env is None
    environment = env or EvalEnvironment()
    results: dict[int, CaseResult] = {}
    try:
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="groundgate-eval") as pool:
            futures = {pool.submit(run_case, f, environment): n for n, f in enumerate(fixtures)}
            for future in as_completed(futures):
                result = future.result()
                results[futures[future]] = result
                if on_result is not None:
                    on_result(result)
    finally:
        if own:
            environment.close()
    ordered = [results[n] for n in range(len(fixtures))]
    return EvalRun(ordered, started_at, time.perf_counter() - started, jobs)

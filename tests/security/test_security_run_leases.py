"""Runs are leased by the process that executes them; nothing is left `RUNNING` forever (issue 9 item 3).

Before leases, only embedded SQLite recovered interrupted runs, only at start-up and only after
15 minutes of silence: on PostgreSQL/MariaDB a run whose process was killed, or whose store went away
mid-run, stayed `RUNNING` forever. Now a run carries a lease its process renews; any process may
mark a run whose lease expired `FAILED` (at start-up, periodically in the service, with
`groundgate runs recover`), several at once safely; and a run that lost its store is marked `FAILED`
by its own process as soon as the store is back. Time is an injected clock: no test waits for a
lease to run out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from _databases import BACKENDS, database_url, make_run_result
from groundgate.api import create_app
from groundgate.apps.run_trace import get_trace
from groundgate.apps.workspace import Workspace, open_workspace
from groundgate.contracts.run import RunResult
from groundgate.settings import Settings
from groundgate.store import Store, StoreError, open_store
from groundgate.store.leases import LeasePolicy, aware, recover_interrupted_runs
from groundgate.store.recorder import RunRecorder, record_run, run_recorded
from groundgate.store.repositories import get_run
from groundgate.store.tables import DiagnosisRun, utcnow

LEASE_S = 60.0


class Clock:
    """A settable UTC clock for leases."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture(scope="module", params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request.param, tmp_path_factory.mktemp("db"))


@pytest.fixture
def clock() -> Clock:
    return Clock(utcnow())


@pytest.fixture
def store(store_url: str, clock: Clock) -> Iterator[Store]:
    # A heartbeat period far beyond the test: only explicit `beat()` calls renew leases.
    opened = open_store(
        store_url, lease=LeasePolicy(lease_seconds=LEASE_S, heartbeat_seconds=3600, clock=clock)
    )
    yield opened
    opened.close()


def _started(store: Store, *, tenant: str = "acme") -> RunRecorder:
    recorder = RunRecorder(
        store,
        run_id=f"run-{uuid.uuid4().hex[:12]}",
        session_id=f"sess-{uuid.uuid4().hex[:12]}",
        question="q",
        tenant=tenant,
    )
    recorder.start()
    return recorder


def _run(store: Store, run_id: str) -> tuple[str, datetime | None]:
    with store.session() as session:
        run = get_run(run_id, session=session)
        return run.status, aware(run.lease_expires_at)


# ------------------------------------------------------------------ a killed process


KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from groundgate.contracts.enums import ToolStatus
    from groundgate.contracts.run import AgentStep
    from groundgate.contracts.tools import ToolResult
    from groundgate.store import open_store
    from groundgate.store.recorder import run_recorded

    url, run_id = sys.argv[1:3]
    store = open_store(url)

    def execute(recorder):
        recorder.on_step(AgentStep(role="planner", round=1, thought="1 call", reason_code="plan_ok"))
        recorder.on_tool_result(
            ToolResult(
                invocation_id=run_id + "-inv", tool="lookup_orders", status=ToolStatus.OK,
                run_id=run_id, arguments={"order": "4711"}, observation="1 order",
            )
        )
        os.kill(os.getpid(), signal.SIGKILL)  # no finally, no atexit, no heartbeat any more

    run_recorded(store, execute, question="订单 4711 的金额和银行？", run_id=run_id, tenant="acme")
    """
)


@pytest.mark.slow
def test_a_run_whose_process_was_killed_is_failed_once_its_lease_expires(
    store: Store, store_url: str, tmp_path: Path
) -> None:
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    script = tmp_path / "killed.py"
    script.write_text(KILLED_RUN, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDGATE_")}
    completed = subprocess.run(
        [sys.executable, str(script), store_url, run_id], env=env, capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == -9, completed.stderr
    status, expires = _run(store, run_id)
    assert status == "RUNNING"
    assert expires is not None
    # While the lease holds, the run may still be alive somewhere: nobody touches it.
    assert run_id not in recover_interrupted_runs(store, now=expires - timedelta(seconds=1))
    assert run_id in recover_interrupted_runs(store, now=expires + timedelta(seconds=1))
    with store.session() as session:
        trace = get_trace(run_id, session=session)
    assert trace.status == "FAILED"
    assert trace.stop_reason is not None
    assert trace.stop_reason.startswith("interrupted: the lease of ")
    assert [s.role for s in trace.steps] == ["planner"]
    assert [i.tool for i in trace.tool_invocations] == ["lookup_orders"]
    assert trace.finished_at is not None
    assert _run(store, run_id) == ("FAILED", None)
    assert run_id not in recover_interrupted_runs(store, now=expires + timedelta(days=1))


# ------------------------------------------------------------------ a live run


@pytest.mark.slow
def test_a_live_run_keeps_its_lease_through_writes_and_heartbeats(store: Store, clock: Clock) -> None:
    t0 = clock.now
    recorder = _started(store)
    assert _run(store, recorder.run_id) == ("RUNNING", t0 + timedelta(seconds=LEASE_S))
    result = make_run_result(run_id=recorder.run_id, session_id=recorder.session_id)

    clock.advance(50)
    recorder.on_step(result.steps[0])  # each write renews the lease
    assert run_id_kept(store, recorder, now=t0 + timedelta(seconds=100))

    clock.advance(50)  # t0 + 100: a long model call, no write; the heartbeat renews it
    store.heartbeat.beat()
    assert run_id_kept(store, recorder, now=t0 + timedelta(seconds=150))
    assert _run(store, recorder.run_id) == ("RUNNING", t0 + timedelta(seconds=100 + LEASE_S))

    recorder.finish(result)
    assert _run(store, recorder.run_id) == ("SUCCEEDED", None)
    assert recorder.run_id not in store.heartbeat.tracked()
    assert recorder.run_id not in recover_interrupted_runs(store, now=t0 + timedelta(days=30))
    assert _run(store, recorder.run_id)[0] == "SUCCEEDED"


def run_id_kept(store: Store, recorder: RunRecorder, *, now: datetime) -> bool:
    """Recovery at `now` leaves the run `RUNNING`."""
    recovered = recover_interrupted_runs(store, now=now)
    return recorder.run_id not in recovered and _run(store, recorder.run_id)[0] == "RUNNING"


@pytest.mark.slow
def test_several_recoverers_at_once_fail_each_expired_run_exactly_once(
    store: Store, store_url: str, clock: Clock
) -> None:
    t0 = clock.now
    expired = [_started(store).run_id for _ in range(8)]
    live = _started(store)
    for run_id in expired:
        store.heartbeat.release(run_id)  # their process "died": nobody renews them any more
    store.heartbeat.beat(now=t0 + timedelta(seconds=3000))  # the live run's owner renews it
    workers = [open_store(store_url, lease=store.lease) for _ in range(4)]  # four service processes
    barrier = threading.Barrier(len(workers))

    def recover(worker: Store) -> list[str]:
        barrier.wait(timeout=30)
        return recover_interrupted_runs(worker, now=t0 + timedelta(seconds=3000))

    try:
        with ThreadPoolExecutor(max_workers=len(workers)) as pool:
            results = list(pool.map(recover, workers))
    finally:
        for worker in workers:
            worker.close()
    mine = [
        run_id for recovered in results for run_id in recovered if run_id in expired or run_id == live.run_id
    ]
    assert sorted(mine) == sorted(expired)  # every one, and none twice
    assert all(_run(store, run_id) == ("FAILED", None) for run_id in expired)
    assert _run(store, live.run_id)[0] == "RUNNING"
    live.fail("test over")


@pytest.mark.slow
def test_a_heartbeat_racing_a_recoverer_either_keeps_the_run_or_loses_it_never_both(
    store: Store, clock: Clock
) -> None:
    t0 = clock.now
    outcomes: dict[str, int] = {"kept": 0, "recovered": 0}
    for _ in range(20):
        recorder = _started(store)  # lease until t0 + 60
        late = t0 + timedelta(seconds=LEASE_S + 1)  # its heartbeat is late: the lease has just expired
        barrier = threading.Barrier(2)

        def renew(late: datetime = late, barrier: threading.Barrier = barrier) -> None:
            barrier.wait(timeout=30)
            store.heartbeat.beat(now=late)

        def recover(late: datetime = late, barrier: threading.Barrier = barrier) -> list[str]:
            barrier.wait(timeout=30)
            return recover_interrupted_runs(store, now=late)

        with ThreadPoolExecutor(max_workers=2) as pool:
            renewing = pool.submit(renew)
            recovering = pool.submit(recover)
            renewing.result()
            recovered = recovering.result()
        status, expires = _run(store, recorder.run_id)
        if recorder.run_id in recovered:
            assert (status, expires) == ("FAILED", None)
            outcomes["recovered"] += 1
        else:
            assert status == "RUNNING"
            assert expires == late + timedelta(seconds=LEASE_S)
            outcomes["kept"] += 1
        store.heartbeat.release(recorder.run_id)
        if status == "RUNNING":
            recorder.fail("test over")
    assert sum(outcomes.values()) == 20


def test_a_run_without_a_lease_is_recovered_after_recover_after_seconds_of_silence(store: Store) -> None:
    """Rows written before leases existed (or by an older version during a rolling upgrade)."""
    legacy = make_run_result()
    with store.session() as session:
        record_run(legacy, session=session, tenant="acme")
        # What an older version left behind: RUNNING, no lease columns set.
        session.execute(
            update(DiagnosisRun).where(DiagnosisRun.run_id == legacy.run_id).values(status="RUNNING")
        )
    assert _run(store, legacy.run_id) == ("RUNNING", None)
    idle = store.lease.legacy_idle_seconds
    assert legacy.run_id not in recover_interrupted_runs(store, now=utcnow() + timedelta(seconds=idle / 2))
    assert legacy.run_id in recover_interrupted_runs(store, now=utcnow() + timedelta(seconds=idle + 60))
    with store.session() as session:
        trace = get_trace(legacy.run_id, session=session)
    assert trace.status == "FAILED"
    assert trace.stop_reason is not None
    assert trace.stop_reason.startswith("interrupted: no lease")
    assert len(trace.steps) == len(legacy.steps)


# ------------------------------------------------------------------ a store outage


@pytest.mark.slow
def test_a_run_that_lost_its_store_is_failed_by_its_own_process_once_the_store_is_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = make_run_result()
    real_session = store.session

    def down() -> Any:
        raise StoreError("database error while running a store transaction: connection refused")

    def execute(recorder: RunRecorder) -> RunResult:
        recorder.on_step(result.steps[0])  # written
        monkeypatch.setattr(store, "session", down)  # the store goes away mid-run
        recorder.on_tool_result(result.tool_results[0])  # held, not written
        recorder.on_step(result.steps[1])
        return result

    with pytest.raises(StoreError):
        run_recorded(store, execute, question=result.question, run_id=result.run_id, tenant="acme")
    assert store.heartbeat.pending_failures() == [result.run_id]
    assert store.heartbeat.beat() == []  # still down: retried at the next beat
    monkeypatch.setattr(store, "session", real_session)
    assert _run(store, result.run_id)[0] == "RUNNING"

    assert store.heartbeat.beat() == [result.run_id]  # the store is back: the first beat records it
    assert store.heartbeat.pending_failures() == []
    with store.session() as session:
        trace = get_trace(result.run_id, session=session)
    assert trace.status == "FAILED"
    assert trace.stop_reason is not None
    assert trace.stop_reason.startswith("error: could not finalize: StoreError")
    assert [s.role for s in trace.steps] == ["planner", "verifier"]  # every step the process held
    assert [i.invocation_id for i in trace.tool_invocations] == [result.tool_results[0].invocation_id]
    assert _run(store, result.run_id) == ("FAILED", None)


# ------------------------------------------------------------------ the service and the CLI


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    with open_workspace(tmp_path_factory.mktemp("lease-workspace")) as ws:
        yield ws


def _expired_run(store_url: str, *, started: datetime) -> str:
    """A run started by a process (clock `started`) that then vanished."""
    stale = open_store(store_url, lease=LeasePolicy(lease_seconds=LEASE_S, clock=lambda: started))
    try:
        recorder = _started(stale)
        stale.heartbeat.release(recorder.run_id)
        return recorder.run_id
    finally:
        stale.close()


@pytest.mark.slow
def test_the_service_recovers_expired_runs_at_start_up_and_while_it_runs(
    store: Store, store_url: str, workspace: Workspace, tmp_path: Path
) -> None:
    long_ago = utcnow() - timedelta(hours=1)
    before_start = _expired_run(store_url, started=long_ago)
    settings = Settings(data_dir=tmp_path, store={"recover_interval_seconds": 0.05})  # type: ignore[arg-type]
    with TestClient(create_app(settings, workspace=workspace, store=store)):
        assert _run(store, before_start) == ("FAILED", None)  # recovered before the first request
        while_serving = _expired_run(store_url, started=long_ago)
        give_up = time.monotonic() + 120  # a liveness limit, not a speed requirement
        while _run(store, while_serving)[0] != "FAILED":
            assert time.monotonic() < give_up, "the periodic recovery never marked the run FAILED"
            time.sleep(0.05)
        assert _run(store, while_serving) == ("FAILED", None)


def _cli(data_dir: Path, store_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDGATE_")}
    env.update({"GROUNDGATE_DATA_DIR": str(data_dir), "GROUNDGATE_STORE__URL": store_url, "COLUMNS": "200"})
    return subprocess.run(
        [sys.executable, "-m", "groundgate.cli", *args], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_groundgate_runs_recover_prints_the_runs_it_marked_failed(backend: str, tmp_path: Path) -> None:
    for url in database_url(backend, tmp_path):
        open_store(url).close()
        run_id = _expired_run(url, started=utcnow() - timedelta(hours=1))
        completed = _cli(tmp_path, url, "runs", "recover", "--json")
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout) == {"recovered": 1, "runIds": [run_id]}
        again = _cli(tmp_path, url, "runs", "recover")
        assert again.returncode == 0, again.stderr
        assert "marked 0 interrupted run(s) FAILED" in again.stdout
        listed = _cli(tmp_path, url, "runs", "--json")  # `runs` alone still lists
        assert listed.returncode == 0, listed.stderr
        assert [(r["runId"], r["status"]) for r in json.loads(listed.stdout)] == [(run_id, "FAILED")]

"""Threads of one process sharing an embedded SQLite store (the API's threadpool) queue for it.

Every SQLite transaction takes the write lock (`BEGIN IMMEDIATE`). Threads that met only in SQLite's
busy handler polled with sleeps (throughput collapsed under the load test) and failed with
"database is locked" once the busy timeout had passed. These tests set the busy timeout to zero,
so any transaction that reaches SQLite while another thread holds the lock fails at once: they pass
only when the store itself makes the threads of the process wait their turn.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

import groundgate.store.engine as store_engine
from _databases import make_run_result
from groundgate.contracts.run import RunResult
from groundgate.store import Store, StoreError, open_store
from groundgate.store.recorder import RunRecorder, run_recorded
from groundgate.store.tables import AgentStepRow, DiagnosisRun, DiagnosisSession

THREADS = 8
RUNS_PER_THREAD = 5


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_S", 0.0)
    opened = open_store(tmp_path)
    yield opened
    opened.close()


class Worker(threading.Thread):
    """Runs `target` and keeps its exception (an exception escaping a thread is a pytest warning)."""

    def __init__(self, target: Callable[[], None]) -> None:
        super().__init__(daemon=True)
        self._work = target
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._work()
        except BaseException as exc:
            self.error = exc


def _add_session(store: Store, session_id: str) -> None:
    with store.session() as session:
        session.add(DiagnosisSession(session_id=session_id, tenant="acme", query="q"))


@pytest.mark.slow
def test_a_second_thread_waits_for_the_open_transaction_instead_of_failing(store: Store) -> None:
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store.session() as session:
            session.add(DiagnosisSession(session_id="first", tenant="acme", query="q"))
            session.flush()
            held.set()
            release.wait()

    first = Worker(hold)
    first.start()
    held.wait()
    second = Worker(lambda: _add_session(store, "second"))
    second.start()
    second.join(timeout=0.5)  # without queueing it has failed by now ("database is locked")
    finished_early = not second.is_alive()
    release.set()
    first.join()
    second.join()
    assert first.error is None
    assert second.error is None, f"the second transaction failed: {second.error}"
    assert not finished_early, "the second transaction ran while the first held the write lock"
    with store.session() as session:
        ids = set(session.scalars(select(DiagnosisSession.session_id)))
    assert ids == {"first", "second"}


def test_runs_recorded_from_many_threads_are_each_stored_once_and_finished(store: Store) -> None:
    results = [make_run_result() for _ in range(THREADS * RUNS_PER_THREAD)]

    def record(batch: list[RunResult]) -> Callable[[], None]:
        def work() -> None:
            for result in batch:

                def execute(recorder: RunRecorder, result: RunResult = result) -> RunResult:
                    for step in result.steps:
                        recorder.on_step(step)
                    for tool_result in result.tool_results:
                        recorder.on_tool_result(tool_result)
                    return result

                run_recorded(
                    store,
                    execute,
                    question=result.question,
                    run_id=result.run_id,
                    session_id=result.session_id,
                )

        return work

    workers = [Worker(record(results[i::THREADS])) for i in range(THREADS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [w.error for w in workers] == [None] * THREADS
    with store.session() as session:
        stored = {
            row.run_id: row.status
            for row in session.execute(select(DiagnosisRun.run_id, DiagnosisRun.status))
        }
        steps = session.scalar(select(func.count()).select_from(AgentStepRow))
    assert stored == {r.run_id: "SUCCEEDED" for r in results}
    assert steps == sum(len(r.steps) for r in results)


def test_a_nested_session_in_the_same_thread_fails_instead_of_hanging(store: Store) -> None:
    with store.session() as outer:
        outer.add(DiagnosisSession(session_id="outer", tenant="acme", query="q"))
        outer.flush()
        with pytest.raises(StoreError, match="database is locked"), store.session() as inner:
            inner.add(DiagnosisSession(session_id="inner", tenant="acme", query="q"))
    with store.session() as session:
        assert set(session.scalars(select(DiagnosisSession.session_id))) == {"outer"}

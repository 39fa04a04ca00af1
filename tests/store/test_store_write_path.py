"""The cheap write path of a recorded run (issue 12, "Throughput"), on every backend.

A run is still written as it happens, one short transaction per step or tool call, but each costs
less: SQLite runs in WAL mode with `synchronous=NORMAL`; the recorder writes Core statements; the
rule evaluation rides on the finishing transaction instead of a transaction of its own; a write
renews the lease only when the last renewal is old; on PostgreSQL and MariaDB an append is one
autocommitted `INSERT` on the store's append engine (no `BEGIN`/`COMMIT` round trips), on PostgreSQL
without waiting for the WAL flush while the start and the finish do, and a new session is inserted
without a savepoint; pooled connections are pinged only after sitting idle; the heartbeat thread
outlives a run so the next one does not start a thread. Leases and recovery themselves:
tests/security/test_security_run_leases.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, text

import groundgate.store.engine as engine_module
from _databases import BACKENDS, database_url, make_run_result, verified
from groundgate.contracts.run import RunResult
from groundgate.evaluation.rule_evaluation import evaluate_rules
from groundgate.store import Store, open_store
from groundgate.store.leases import LeasePolicy, aware
from groundgate.store.recorder import RunRecorder, run_recorded
from groundgate.store.repositories import compute_rule_evaluation, get_run, read_self_evaluation
from groundgate.store.tables import utcnow


@pytest.fixture(scope="module", params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request.param, tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="module")
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    yield opened
    opened.close()


class Statements:
    """Every statement the store's engines send, and every commit, while attached. `appended`: the
    statements of the append engine (autocommitted one by one), `sql`: those of the main engine."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sql: list[str] = []
        self.appended: list[str] = []
        self.commits = 0

    def _on_execute(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.sql.append(" ".join(statement.split()))

    def _on_append(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.appended.append(" ".join(statement.split()))

    def _on_commit(self, _conn: Any) -> None:
        self.commits += 1

    def __enter__(self) -> Statements:
        event.listen(self.store.engine, "before_cursor_execute", self._on_execute)
        event.listen(self.store.engine, "commit", self._on_commit)
        if self.store.append_engine is not None:
            event.listen(self.store.append_engine, "before_cursor_execute", self._on_append)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.store.engine, "before_cursor_execute", self._on_execute)
        event.remove(self.store.engine, "commit", self._on_commit)
        if self.store.append_engine is not None:
            event.remove(self.store.append_engine, "before_cursor_execute", self._on_append)

    @property
    def transactions(self) -> int:
        """Commits of the main engine plus the append engine's statements, each its own transaction."""
        return self.commits + len(self.appended)

    def count(self, prefix: str) -> int:
        return sum(1 for s in [*self.sql, *self.appended] if s.upper().startswith(prefix.upper()))


def _two_appends(result: RunResult) -> Any:
    def execute(recorder: RunRecorder) -> RunResult:
        recorder.on_step(result.steps[0])
        recorder.on_tool_result(result.tool_results[0])
        return result  # the verifier's step is written by finish()

    return execute


def test_sqlite_runs_in_wal_mode_with_synchronous_normal(tmp_path: Any) -> None:
    store = open_store(tmp_path)
    try:
        with store.transaction() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    finally:
        store.close()


def test_a_run_is_start_one_transaction_per_append_and_finish(store: Store) -> None:
    """No transaction of its own for the rule evaluation: it is merged by the finishing one."""
    result = make_run_result(verifier=verified(("PAY-5003 表示连接池耗尽", True)))
    with Statements(store) as seen:
        run_recorded(
            store, _two_appends(result), question=result.question, run_id=result.run_id, tenant="acme"
        )
    assert seen.transactions == 4  # start, 2 appends, finish
    with store.session() as session:
        container = read_self_evaluation(result.run_id, session=session)
        run = get_run(result.run_id, session=session)
        assert run.self_evaluation_version == 2  # two slots, one per writer
        assert set(container) == {"verifier_evaluation", "rule_evaluation"}
        # evaluated in memory from the rows written = evaluated from the rows read back
        stored = compute_rule_evaluation(result.run_id, session=session)
    assert container["rule_evaluation"] == stored.model_dump(mode="json")


def test_a_failed_run_gets_its_rule_evaluation_in_the_failing_transaction(store: Store) -> None:
    result = make_run_result()

    def execute(recorder: RunRecorder) -> RunResult:
        recorder.on_tool_result(result.tool_results[0])
        raise RuntimeError("the model endpoint vanished")

    with Statements(store) as seen, pytest.raises(RuntimeError):
        run_recorded(store, execute, question="q", run_id=result.run_id)
    assert seen.transactions == 3  # start, 1 append, fail
    with store.session() as session:
        container = read_self_evaluation(result.run_id, session=session)
    assert container["rule_evaluation"] == evaluate_rules([], run_status="FAILED").model_dump(mode="json")


def test_evaluate_rules_false_writes_no_rule_slot(store: Store) -> None:
    result = make_run_result()
    run_recorded(
        store,
        _two_appends(result),
        question=result.question,
        run_id=result.run_id,
        evaluate_rules=False,
    )
    with store.session() as session:
        assert "rule_evaluation" not in read_self_evaluation(result.run_id, session=session)


def test_only_appends_skip_the_wal_flush_on_postgresql(store: Store) -> None:
    result = make_run_result()
    with Statements(store) as seen:
        run_recorded(store, _two_appends(result), question=result.question, run_id=result.run_id)
    assert seen.count("SET LOCAL synchronous_commit") == 0  # no round trip of its own any more
    with store.append() as connection:
        if store.backend == "postgresql":  # set once per connection of the append engine
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
    if store.backend == "postgresql":
        with store.transaction() as connection:  # the start and the finish: durable
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
        with store.transaction(durable=False) as connection:  # what a failed append left
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
        with store.session() as session:
            assert session.connection().exec_driver_sql("SHOW synchronous_commit").scalar() == "on"


def test_an_append_is_one_autocommitted_insert_on_server_backends(store: Store) -> None:
    """PostgreSQL/MariaDB: each append is its single `INSERT` on the append engine, no `BEGIN` or
    `COMMIT` of its own; the start and the finish stay transactions of the main engine. SQLite: every
    append is a transaction of the main engine, as before."""
    result = make_run_result()
    with Statements(store) as seen:
        run_recorded(store, _two_appends(result), question=result.question, run_id=result.run_id)
    if store.backend == "sqlite":
        assert store.append_engine is None
        assert not store.appends_autocommit
        assert seen.commits == 4
        return
    assert store.appends_autocommit
    assert seen.commits == 2  # start, finish
    assert [s.split(" (")[0] for s in seen.appended] == [
        "INSERT INTO agent_step",
        "INSERT INTO tool_invocation",
    ]
    with store.append() as connection:
        dbapi = connection.connection.dbapi_connection
        assert dbapi is not None
        autocommit = dbapi.get_autocommit() if hasattr(dbapi, "get_autocommit") else dbapi.autocommit
        assert autocommit is True
    with store.session() as session:
        trace = get_run(result.run_id, session=session)
        assert trace.status == "SUCCEEDED"
    _assert_written_once(store, result.run_id, steps=2, invocations=1)


def _assert_written_once(store: Store, run_id: str, *, steps: int, invocations: int) -> None:
    from groundgate.apps.run_trace import get_trace

    with store.session() as session:
        trace = get_trace(run_id, session=session)
    assert [s.seq for s in trace.steps] == list(range(steps))
    ids = [i.invocation_id for i in trace.tool_invocations]
    assert len(ids) == invocations == len(set(ids))


def test_a_failed_renewal_after_an_append_never_writes_the_row_twice(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An autocommitted append is committed when its statement returns: a lease renewal that fails
    after it leaves the row written once (and the renewal due, retried by the next write), and a
    failed insert leaves the row to the next write, never lost, never doubled; several rows pending
    are written by one transaction (an autocommitted statement each would not be atomic)."""
    import groundgate.store.recorder as recorder_module

    if store_url.startswith("sqlite"):
        pytest.skip("SQLite appends are transactions (test_a_failed_append_is_written_at_the_end)")
    clock = Clock(utcnow())
    store = open_store(store_url, lease=LeasePolicy(lease_seconds=120, heartbeat_seconds=3600, clock=clock))
    try:
        t0 = clock.now
        result = make_run_result()
        recorder = RunRecorder(
            store, run_id=result.run_id, session_id=result.session_id, question=result.question
        )
        recorder.start()
        real_renew = recorder_module.renew_lease
        renewals: list[str] = []

        def renewal_fails(run_id: str, **kwargs: Any) -> int:
            renewals.append(run_id)
            raise RuntimeError("connection lost after the insert")

        monkeypatch.setattr(recorder_module, "renew_lease", renewal_fails)
        clock.now = t0 + timedelta(seconds=40)  # a renewal is due with this write
        recorder.on_step(result.steps[0])  # logged, not raised
        assert renewals == [result.run_id]
        assert recorder.steps_written == 1  # the insert was committed before the renewal failed

        monkeypatch.setattr(recorder_module, "renew_lease", real_renew)
        real_append = store.append

        def append_fails() -> Any:
            raise RuntimeError("database briefly unavailable")

        monkeypatch.setattr(store, "append", append_fails)
        recorder.on_tool_result(result.tool_results[0])  # logged, not raised: still pending
        assert recorder.invocations_written == set()
        monkeypatch.setattr(store, "append", real_append)
        with Statements(store) as seen:
            recorder.on_step(result.steps[1])  # two rows pending: one transaction writes both
        assert (recorder.steps_written, recorder.invocations_written) == (
            2,
            {result.tool_results[0].invocation_id},
        )
        assert seen.commits == 1
        assert seen.appended == []
        recorder.finish(result)  # nothing left to write but the run row
        _assert_written_once(store, result.run_id, steps=2, invocations=1)
        with store.session() as session:
            assert get_run(result.run_id, session=session).status == "SUCCEEDED"
    finally:
        store.close()


def test_a_new_session_is_inserted_without_a_savepoint_except_on_mariadb(store: Store) -> None:
    result = make_run_result()
    with Statements(store) as seen:
        run_recorded(store, _two_appends(result), question=result.question, run_id=result.run_id)
    assert seen.count("SAVEPOINT") == (1 if store.backend in {"mysql", "mariadb"} else 0)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_a_write_renews_the_lease_only_once_the_last_renewal_is_old(store_url: str) -> None:
    clock = Clock(utcnow())
    policy = LeasePolicy(lease_seconds=120, heartbeat_seconds=3600, clock=clock)
    assert policy.write_renewal_seconds == 30  # a quarter of the lease (the heartbeat is longer)
    store = open_store(store_url, lease=policy)
    try:
        t0 = clock.now
        result = make_run_result()
        recorder = RunRecorder(
            store, run_id=result.run_id, session_id=result.session_id, question=result.question
        )
        recorder.start()

        def lease() -> datetime | None:
            with store.session() as session:
                return aware(get_run(result.run_id, session=session).lease_expires_at)

        clock.now = t0 + timedelta(seconds=10)
        with Statements(store) as seen:
            recorder.on_step(result.steps[0])
        assert seen.count("UPDATE diagnosis_run") == 0
        assert lease() == t0 + timedelta(seconds=120)  # the start's lease, still fresh

        clock.now = t0 + timedelta(seconds=40)
        recorder.on_tool_result(result.tool_results[0])
        assert lease() == t0 + timedelta(seconds=160)  # renewed by the write
        recorder.finish(result)
    finally:
        store.close()


def test_the_heartbeat_thread_outlives_a_run_and_ends_with_the_store(store_url: str) -> None:
    store = open_store(store_url)
    try:
        threads = []
        for _ in range(2):
            result = make_run_result()
            run_recorded(store, _two_appends(result), question=result.question, run_id=result.run_id)
            threads.append(store.heartbeat._thread)
        assert threads[0] is not None
        assert threads[0] is threads[1]  # one thread for both runs, not one per run
        assert store.heartbeat.tracked() == []
    finally:
        store.close()
    assert not threads[0].is_alive()


def test_pooled_connections_are_pinged_only_after_sitting_idle(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store_url.startswith("sqlite"):
        pytest.skip("SQLite has no server connection to ping")
    store = open_store(store_url, migrate=False)
    pings: list[object] = []
    real_ping = store.engine.dialect.do_ping

    def counting_ping(dbapi_connection: Any) -> bool:
        pings.append(dbapi_connection)
        return bool(real_ping(dbapi_connection))

    monkeypatch.setattr(store.engine.dialect, "do_ping", counting_ping)
    try:
        for _ in range(3):  # checked out right after its return: no ping
            with store.transaction() as connection:
                connection.execute(text("SELECT 1"))
        first = len(pings)
        assert first <= 1  # at most the first checkout of a fresh connection
        monkeypatch.setattr(engine_module, "PING_AFTER_IDLE_S", 0.0)
        with store.transaction() as connection:
            connection.execute(text("SELECT 1"))
        assert len(pings) == first + 1
    finally:
        store.close()


def test_a_dead_pooled_connection_is_replaced_when_its_ping_fails(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store_url.startswith("sqlite"):
        pytest.skip("SQLite has no server connection to ping")
    store = open_store(store_url, migrate=False)
    try:
        with store.transaction() as connection:
            connection.execute(text("SELECT 1"))
        calls: list[int] = []
        real_ping = store.engine.dialect.do_ping

        def ping_fails_once(dbapi_connection: Any) -> bool:
            calls.append(1)
            if len(calls) == 1:
                raise ConnectionError("server closed the connection unexpectedly")
            return bool(real_ping(dbapi_connection))

        monkeypatch.setattr(store.engine.dialect, "do_ping", ping_fails_once)
        monkeypatch.setattr(engine_module, "PING_AFTER_IDLE_S", 0.0)
        with store.transaction() as connection:
            assert connection.execute(text("SELECT 1")).scalar() == 1
        assert len(calls) == 2  # the dead one, then the fresh one
    finally:
        store.close()


def test_a_session_created_before_the_run_gets_its_query(store: Store) -> None:
    """The API claims a session before the run (without a question); `start()` then sets its query
    after inserting the run (the order that keeps MariaDB free of a deadlock)."""
    from groundgate.store.repositories import claim_session, find_session_row

    session_id = f"sess-{uuid.uuid4().hex[:12]}"
    with store.session() as session:
        claim_session(session_id, tenant="acme", session=session)
    result = make_run_result(session_id=session_id)
    run_recorded(
        store,
        _two_appends(result),
        question=result.question,
        run_id=result.run_id,
        session_id=session_id,
        tenant="acme",
    )
    with store.session() as session:
        row = find_session_row(session_id, session=session)
        assert row is not None
        assert row.query == result.question


def test_the_append_pool_keeps_every_connection_it_opens(store_url: str) -> None:
    """The main pool closes its overflow connections when they come back; under the service's 40
    worker threads the append pool would then open a connection every few appends. It keeps up to
    `pool_size + max_overflow` instead, and opens no more."""
    if store_url.startswith("sqlite"):
        pytest.skip("SQLite appends use the main engine")
    store = open_store(store_url, migrate=False, pool_size=3, max_overflow=4)
    unlimited = open_store(store_url, migrate=False, pool_size=3, max_overflow=-1)
    try:
        assert store.append_engine is not None
        pool: Any = store.append_engine.pool
        assert (pool.size(), pool._max_overflow) == (7, 0)
        assert unlimited.append_engine is not None
        pool = unlimited.append_engine.pool
        assert (pool.size(), pool._max_overflow) == (3, -1)  # taken as it is
    finally:
        store.close()
        unlimited.close()

"""Engines, sessions and migrations.

`open_store(data_dir_or_url)` builds the engine (SQLite file `data_dir/groundgate.sqlite` by default,
PostgreSQL or MySQL/MariaDB by URL) and upgrades the schema to head through the Alembic API.

SQLite transactions start with `BEGIN IMMEDIATE`, so a read-modify-write holds the database write
lock from its first read; PostgreSQL and MariaDB use row locks (`SELECT … FOR UPDATE`).

On SQLite, `Store.session()` also queues the threads of one process on an in-process lock before
`BEGIN IMMEDIATE`. Without it, concurrent threads (the API's threadpool) meet only in SQLite's busy
handler, which polls with sleeps of up to 100 ms: the write lock sits idle while waiters sleep,
throughput collapses as contention grows, and a starved waiter fails with "database is locked" once
the busy timeout has passed. Other processes (the CLI beside the server) still wait in the busy handler.

SQLite runs in WAL mode with `synchronous=NORMAL`: a commit appends to the write-ahead log without an
fsync (the log is synced at checkpoints), so a committed transaction survives a crash of the process
and the database stays consistent after a power loss, which may only roll back the last commits.
With the default rollback journal and `synchronous=FULL` every commit cost several fsyncs, and a run
(10 transactions) was bound by them (docs/benchmarks.md, "Store"). WAL also lets readers (a trace,
the CLI beside the server) read while a writer writes.

`Store.transaction()` is a SQLAlchemy Core unit of work for the hot path (the run recorder): the
same queueing and error translation as `session()`, without the ORM's identity map and flush.

`Store.append()` (PostgreSQL and MariaDB) is a connection of a second engine in autocommit mode, for
the run recorder's appends (one step or tool invocation, one `INSERT`): the statement is its own
transaction, one round trip instead of four (`BEGIN`, `SET LOCAL synchronous_commit`, the insert,
`COMMIT`). On PostgreSQL that engine's connections run with `synchronous_commit = off` at session
level (set once when the connection is made), so an append does not wait for the WAL flush, as
before; the main engine's commits (a run's start and its end, every `session()`) still do. Its pool
keeps the connections it opened (`create_append_engine`).

A `Store` also carries the run-lease policy and, once a run is recorded, its `Heartbeat` thread
(`groundgate.store.leases`): `close()` stops it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from groundgate.errors import ConfigurationError, StoreError
from groundgate.store.leases import Heartbeat, LeasePolicy

SQLITE_FILENAME = "groundgate.sqlite"
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
SQLITE_BUSY_TIMEOUT_S = 30.0
PING_AFTER_IDLE_S = 1.0
"""PostgreSQL/MariaDB: a pooled connection idle this long is pinged before use (`_install_idle_ping`)."""
SQLITE_QUEUE_TIMEOUT_S = 30.0
"""How long a thread waits for this process's other SQLite transactions before `StoreError`."""


def _store_error(message: str) -> Exception:
    return StoreError(message)


@contextmanager
def translate_errors(action: str) -> Iterator[None]:
    """Translate SQLAlchemy exceptions into `StoreError` (a `RunError`) at the store boundary."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise _store_error(f"database error while {action}: {type(exc).__name__}: {exc}") from exc


def resolve_url(target: str | Path) -> str:
    """A directory (or a path that is not a URL) means the embedded SQLite file inside it."""
    text = str(target)
    if "://" in text:
        return text
    directory = Path(target)
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(directory / SQLITE_FILENAME).resolve()}"


def _install_sqlite_locking(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        # Persistent in the file once set; an in-memory database answers "memory" and stays so.
        cursor.execute("PRAGMA journal_mode = WAL")
        # Per connection: in WAL mode NORMAL syncs at checkpoints, not at every commit.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _install_idle_ping(engine: Engine) -> None:
    """Ping a pooled connection before use only when it sat idle for `PING_AFTER_IDLE_S` or more.

    SQLAlchemy's `pool_pre_ping` pings at every checkout: a round trip for each transaction, two in
    five of the round trips of a recorded run. A connection returned less than a second ago is
    alive unless the server went away in that second; then its first statement fails like any
    statement in flight at that moment would, and SQLAlchemy, seeing a disconnect, drops the
    pool's older connections. A failed ping discards the connection and the pool takes another."""

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["groundgate_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("groundgate_idle_since")
        if idle_since is not None and time.monotonic() - idle_since < PING_AFTER_IDLE_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError(f"the pooled connection is gone: {exc}") from exc


def _install_lazy_commit(engine: Engine) -> None:
    """PostgreSQL: every commit of this engine's connections returns before the WAL flush
    (`synchronous_commit = off` for the session, set once per connection, no round trip later)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("SET synchronous_commit = off")
        cursor.close()
        dbapi_connection.commit()  # a session-level SET outlives its transaction; no-op in autocommit


APPEND_POOL_DEFAULTS = {"pool_size": 5, "max_overflow": 10}
"""SQLAlchemy's `QueuePool` defaults, when the caller sets no pool size."""


def create_append_engine(engine: Engine, **kwargs: Any) -> Engine | None:
    """The engine of `Store.append()` for `engine`'s database: autocommit, and on PostgreSQL no wait
    for the WAL flush; None for SQLite (its appends stay transactions, see `Store.append`).

    `kwargs` are those of the main engine. Its pool keeps `pool_size` connections and opens up to
    `max_overflow` more, closing those again when they are returned: under load (the service's 40
    worker threads) that is a new database connection every few appends, each costing more than the
    appends it serves (a server process forked, a login, a `SET`). The append pool keeps all it
    opened instead, `pool_size + max_overflow` at most, and opens no more: a thread holds one only
    for its single statement and never while it holds one of the main engine, so a thread beyond
    that waits a fraction of a millisecond for one to come back."""
    backend = engine.dialect.name
    if backend == "sqlite":
        return None
    # No rollback when a connection goes back to the pool: in autocommit no transaction is ever
    # left open (the `Connection`'s own close already sends the DBAPI its no-op rollback).
    options = {"pool_reset_on_return": None, **kwargs, "isolation_level": "AUTOCOMMIT"}
    sizes = {**APPEND_POOL_DEFAULTS, **{k: kwargs[k] for k in APPEND_POOL_DEFAULTS if k in kwargs}}
    if "poolclass" not in kwargs and "pool" not in kwargs and sizes["pool_size"] > 0 <= sizes["max_overflow"]:
        # (a pool without limits, `max_overflow=-1` or `pool_size=0`, is taken as it is)
        options |= {"pool_size": sizes["pool_size"] + sizes["max_overflow"], "max_overflow": 0}
    appends = create_store_engine(engine.url.render_as_string(hide_password=False), **options)
    if backend == "postgresql":
        _install_lazy_commit(appends)
    return appends


def create_store_engine(url: str, **kwargs: Any) -> Engine:
    """Build an engine for a SQLite, PostgreSQL or MySQL/MariaDB URL."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigurationError(f"invalid database URL {url!r}: {exc}") from exc
    backend = parsed.get_backend_name()
    if backend not in {"sqlite", "postgresql", "mysql", "mariadb"}:
        raise ConfigurationError(f"unsupported database backend {backend!r} (sqlite, postgresql, mysql)")
    try:
        if backend == "sqlite":
            engine = create_engine(
                parsed, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False}, **kwargs
            )
            _install_sqlite_locking(engine)
        else:
            explicit_ping = "pool_pre_ping" in kwargs
            engine = create_engine(parsed, **kwargs)
            if not explicit_ping:
                _install_idle_ping(engine)
    except (ImportError, SQLAlchemyError) as exc:
        raise ConfigurationError(f"cannot create a database engine for {backend}: {exc}") from exc
    return engine


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with translate_errors("reading the schema revision"), engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(target: str | Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision`; upgrading an up-to-date database changes nothing."""
    engine = create_store_engine(target) if isinstance(target, str) else target
    config = _alembic_config()
    try:
        with translate_errors("migrating the schema"), engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        if isinstance(target, str):
            engine.dispose()


@dataclass
class Store:
    """An engine and its session factory; `session()` is a unit of work that commits or rolls back."""

    engine: Engine
    sessions: sessionmaker[Session]
    lease: LeasePolicy = field(default_factory=LeasePolicy)
    append_engine: Engine | None = field(default=None, repr=False, compare=False)
    """`Store.append()`'s autocommit engine (`create_append_engine`); None: appends are transactions."""
    _sqlite_queue: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)
    _heartbeat: Heartbeat | None = field(default=None, repr=False, compare=False)
    _heartbeat_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def heartbeat(self) -> Heartbeat:
        """The one heartbeat of this store (created on first use; its thread runs only while runs do)."""
        with self._heartbeat_lock:
            if self._heartbeat is None:
                self._heartbeat = Heartbeat(self)
            return self._heartbeat

    @contextmanager
    def session(self) -> Iterator[Session]:
        with (
            self._queued(),
            translate_errors("running a store transaction"),
            self.sessions.begin() as session,
        ):
            yield session

    @contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[Connection]:
        """A Core transaction that commits or rolls back, for the run recorder's many short writes:
        Core statements on the connection of a `session()` (so it shares its queueing, error
        translation and every seam on `session`), without the ORM's objects and unit-of-work flush,
        which cost more than the writes themselves.

        `durable=False` (PostgreSQL): the commit does not wait for the WAL flush
        (`synchronous_commit = off` for this transaction only). It is committed and visible at once,
        and survives a crash of this process; only a crash of the database server within a fraction
        of a second (3 x `wal_writer_delay`) could lose it, never leaving the database inconsistent:
        the same trade as SQLite's `synchronous=NORMAL`. Elsewhere the flag changes nothing."""
        with self.session() as session:
            connection = session.connection()
            if not durable and self.backend == "postgresql":
                connection.exec_driver_sql("SET LOCAL synchronous_commit = off")
            yield connection

    @property
    def appends_autocommit(self) -> bool:
        """Whether `append()` commits each statement on its own (PostgreSQL, MariaDB)."""
        return self.append_engine is not None

    @contextmanager
    def append(self) -> Iterator[Connection]:
        """A connection for the run recorder's appends. With `appends_autocommit` every statement
        executed on it is its own transaction, committed when `execute` returns (PostgreSQL: without
        waiting for the WAL flush, like `transaction(durable=False)`), so a block of several
        statements is not atomic: the recorder sends one statement per append, and anything more
        through `transaction(durable=False)`. Without it (SQLite, or a `Store` built without an append
        engine) this is `transaction(durable=False)`: the block commits or rolls back as a whole."""
        if self.append_engine is None:
            with self.transaction(durable=False) as connection:
                yield connection
            return
        with translate_errors("appending to a run"), self.append_engine.connect() as connection:
            yield connection

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for a short read of committed rows. With `appends_autocommit` each statement
        is its own transaction on the append engine (one round trip: no `BEGIN`, no `COMMIT`), so
        several statements do not share a snapshot; otherwise (SQLite) a `session()`'s connection,
        queued like any transaction."""
        if self.append_engine is None:
            with self.session() as session:
                yield session.connection()
            return
        with translate_errors("reading from the store"), self.append_engine.connect() as connection:
            yield connection

    @contextmanager
    def _queued(self) -> Iterator[None]:
        """SQLite: one transaction of this process at a time, the others waiting on a lock (re-entrant,
        so a nested session in the same thread still fails in SQLite's busy handler, never hangs)."""
        if self.backend != "sqlite":
            yield
            return
        if not self._sqlite_queue.acquire(timeout=SQLITE_QUEUE_TIMEOUT_S):
            raise _store_error(
                f"database error while running a store transaction: waited {SQLITE_QUEUE_TIMEOUT_S:.0f} s "
                "for the other transactions of this process (SQLite allows one writer)"
            )
        try:
            yield
        finally:
            self._sqlite_queue.release()

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        with self._heartbeat_lock:
            heartbeat = self._heartbeat
        if heartbeat is not None:
            heartbeat.close()  # before the engine goes: a beat may be using a connection
        if self.append_engine is not None:
            self.append_engine.dispose()
        self.engine.dispose()


def open_store(
    target: str | Path, *, migrate: bool = True, lease: LeasePolicy | None = None, **engine_kwargs: Any
) -> Store:
    """Open the store at a data directory (embedded SQLite) or a database URL, upgraded to head.

    `lease`: how runs recorded through this store are leased (default `LeasePolicy()`)."""
    engine = create_store_engine(resolve_url(target), **engine_kwargs)
    if migrate:
        upgrade(engine)
    return Store(
        engine=engine,
        sessions=sessionmaker(engine, expire_on_commit=False),
        lease=lease or LeasePolicy(),
        append_engine=create_append_engine(engine, **engine_kwargs),
    )

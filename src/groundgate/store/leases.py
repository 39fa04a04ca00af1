"""Run leases: which process owns a `RUNNING` run, and recovering the runs whose owner is gone.

A run is written as it happens, so a process that dies mid-run (kill -9, out of memory, a lost node)
or loses its store leaves the row `RUNNING`, and the row alone cannot say whether anybody is still
working on it. A lease says it:

- Owner. `RunRecorder.start()` stamps the run with `lease_owner` (this process, `host:pid:random`)
  and `lease_expires_at = now + lease_seconds`.
- Heartbeat. A write of the run pushes the lease forward (once the last such renewal is older than
  `LeasePolicy.write_renewal_seconds`), and one `Heartbeat` thread per open store renews the leases of all the runs this process is executing every `heartbeat_seconds` (a long
  model call writes nothing for a while). `finish()` / `fail()` clear the lease.
- Recovery. `recover_interrupted_runs` marks `FAILED` each `RUNNING` run whose lease has expired,
  with one conditional `UPDATE … WHERE status = 'RUNNING' AND lease_expires_at < now` per run. The
  database re-checks the condition under the row lock, so any number of processes may recover at
  once: each run is recovered by exactly one of them, and a run whose lease was renewed in between is
  left alone. Rows without a lease (written before revision 3, or by an older version during a
  rolling upgrade) are judged as before: `FAILED` once their last write is older than
  `legacy_idle_seconds` (`[store] recover_after_seconds`).
- Outage. A run whose store went away mid-way cannot be marked `FAILED` when it ends; its recorder
  stays with the heartbeat, which retries `fail()` on every beat until the store is back, writing the
  steps and tool results the process still holds.

Leases compare the clocks of different processes (and hosts): `lease_seconds` must stay well above
`heartbeat_seconds` plus any clock skew between the machines sharing a store.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, cast

from sqlalchemy import Connection, CursorResult, bindparam, func, or_, select, update
from sqlalchemy.orm import Session

from groundgate.store.tables import AgentStepRow, DiagnosisRun, ToolInvocation, utcnow

if TYPE_CHECKING:
    from groundgate.store.engine import Store

logger = logging.getLogger(__name__)

RUNNING = "RUNNING"
FAILED = "FAILED"
STOP_REASON_CHARS = 128
OWNER_CHARS = 128
CLOSE_WAIT_S = 10.0
IDLE_LINGER_S = 30.0
"""How long the heartbeat thread outlives the last run it kept (`close()` ends it at once)."""
"""How long closing a store waits for a heartbeat that is in the middle of a database call."""

_owner_lock = threading.Lock()
_owner: tuple[int, str] | None = None


def process_owner() -> str:
    """This process's lease owner id, `host:pid:random` (new after a fork: the child is another owner)."""
    global _owner
    with _owner_lock:
        pid = os.getpid()
        if _owner is None or _owner[0] != pid:
            # The random part tells a restarted process that reuses a pid from its predecessor.
            _owner = (pid, f"{socket.gethostname()[:64]}:{pid}:{secrets.token_hex(4)}"[:OWNER_CHARS])
        return _owner[1]


@dataclass(frozen=True)
class LeasePolicy:
    """How long a run's lease lasts, how often it is renewed, and the clock both are measured with."""

    lease_seconds: float = 120.0
    heartbeat_seconds: float = 15.0
    legacy_idle_seconds: float = 900.0
    """Rows without a lease: `FAILED` once their last write is older than this."""
    clock: Callable[[], datetime] = field(default=utcnow, compare=False)
    """Injected in tests; always timezone-aware UTC."""

    def expiry(self, now: datetime | None = None) -> datetime:
        return (now or self.clock()) + timedelta(seconds=self.lease_seconds)

    @property
    def write_renewal_seconds(self) -> float:
        """A write of a run renews its lease once the last renewal by that write path is older than
        this: a heartbeat period, at most a quarter of the lease. So after any write the lease has at
        least three quarters of `lease_seconds` left, as after a beat, while the many writes of a
        short run cost one `UPDATE` less each."""
        return min(self.heartbeat_seconds, self.lease_seconds / 4)


def aware(value: datetime | None) -> datetime | None:
    """SQLite and MariaDB return naive datetimes; every stored time is UTC."""
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _execute(session: Session | Connection, statement: Any) -> CursorResult[Any]:
    """An UPDATE's result, whose `rowcount` (rows matched) says whether the condition held."""
    return cast(CursorResult[Any], session.execute(statement))


def renew_leases(
    run_ids: Sequence[str], *, owner: str, expires_at: datetime, session: Session | Connection
) -> int:
    """Push the leases of `owner`'s runs that are still `RUNNING` to `expires_at`; returns how many.

    A run another process has already recovered (no longer `RUNNING`) is not brought back."""
    if not run_ids:
        return 0
    result = _execute(
        session,
        update(DiagnosisRun)
        .where(
            DiagnosisRun.run_id.in_(list(run_ids)),
            DiagnosisRun.status == RUNNING,
            DiagnosisRun.lease_owner == owner,
        )
        .values(lease_expires_at=expires_at)
        .execution_options(synchronize_session=False),
    )
    return int(result.rowcount)


_RENEW_ONE = (
    update(DiagnosisRun)
    .where(
        DiagnosisRun.run_id == bindparam("b_run_id"),
        DiagnosisRun.status == RUNNING,
        DiagnosisRun.lease_owner == bindparam("b_owner"),
    )
    .values(lease_expires_at=bindparam("b_expires_at"))
)
"""Built once: building the statement per write cost more than executing it (a compiled-cache hit)."""


def renew_lease(run_id: str, *, owner: str, expires_at: datetime, connection: Connection) -> int:
    """`renew_leases` for one run, as the recorder does on every write; returns 1 when renewed."""
    result = connection.execute(
        _RENEW_ONE, {"b_run_id": run_id, "b_owner": owner, "b_expires_at": expires_at}
    )
    return int(result.rowcount)


class LeaseHolder(Protocol):
    """What the heartbeat needs of a run it keeps alive (a `RunRecorder`)."""

    run_id: str

    def fail(self, error: BaseException | str) -> None: ...


class Heartbeat:
    """Renews the leases of the runs this process executes on one store, and retries failed `fail()`s.

    The thread exists while there are runs to keep and for `IDLE_LINGER_S` after the last one; closing
    the store ends it (a CLI command leaves none behind); `beat()` is also callable directly (tests call it with an explicit `now`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.owner = process_owner()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._runs: dict[str, LeaseHolder] = {}
        self._failing: dict[str, str] = {}
        self._thread: threading.Thread | None = None
        self._idle = False
        """The thread is lingering without runs (`_loop`); set and read with the lock held."""
        self._closed = False
        self._beating = threading.Lock()
        """One beat at a time (the thread's, a direct call, the last one at close): a recorder's
        `fail()` must not run twice at once."""

    @property
    def policy(self) -> LeasePolicy:
        return self.store.lease

    def track(self, holder: LeaseHolder) -> None:
        """`holder`'s run is executing in this process: keep its lease alive."""
        with self._lock:
            self._keep(holder)

    def retry_failure(self, holder: LeaseHolder, reason: str) -> None:
        """`holder.fail(reason)` could not reach the store: retry it on every beat until it succeeds."""
        with self._lock:
            self._keep(holder)
            self._failing[holder.run_id] = reason

    def _keep(self, holder: LeaseHolder) -> None:
        """Called with the lock held."""
        self._runs[holder.run_id] = holder
        self._ensure_thread()
        if self._idle:
            # Only an idle thread is woken: waking a beating one would restart its wait, and runs
            # that keep arriving would postpone the beat forever.
            self._changed.notify_all()

    def release(self, run_id: str) -> None:
        """The run is final in the store: nothing more to keep."""
        with self._lock:
            self._runs.pop(run_id, None)
            self._failing.pop(run_id, None)
            # No wake-up: the thread notices at its next beat that there is nothing to renew and
            # goes idle then (waking it for every run cost a thread switch per run).

    def tracked(self) -> list[str]:
        with self._lock:
            return list(self._runs)

    def pending_failures(self) -> list[str]:
        with self._lock:
            return list(self._failing)

    def beat(self, now: datetime | None = None) -> list[str]:
        """One heartbeat: retry the pending `fail()`s, then renew the leases of the runs still held.

        Returns the ids of the runs this beat recorded `FAILED`. A store that is still down is logged
        and tried again at the next beat."""
        with self._beating:
            return self._beat(now)

    def _beat(self, now: datetime | None) -> list[str]:
        with self._lock:
            failing = [(self._runs[run_id], reason) for run_id, reason in self._failing.items()]
        recorded: list[str] = []
        for holder, reason in failing:
            try:
                holder.fail(reason)
            except Exception as exc:
                logger.warning(
                    "run %s: still cannot mark it FAILED (%s: %s); retrying at the next heartbeat",
                    holder.run_id,
                    type(exc).__name__,
                    exc,
                )
                continue
            self.release(holder.run_id)
            recorded.append(holder.run_id)
            logger.warning("run %s: the store is back, the run is recorded FAILED", holder.run_id)
        held = self.tracked()
        if held:
            try:
                with self.store.session() as session:
                    renew_leases(held, owner=self.owner, expires_at=self.policy.expiry(now), session=session)
            except Exception as exc:
                logger.warning(
                    "could not renew the leases of %d run(s): %s: %s", len(held), type(exc).__name__, exc
                )
        return recorded

    def close(self) -> None:
        """Stop the thread (the store is closing), after one last try at the pending failures (a CLI
        command ends right after its run). Runs still held are left to lease recovery."""
        if self.pending_failures():
            self.beat()
        with self._lock:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
            left = list(self._runs)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=CLOSE_WAIT_S)
        if left:
            logger.warning(
                "store closed while %d run(s) were still held (%s); they become FAILED once their lease expires",
                len(left),
                ", ".join(left),
            )

    def _ensure_thread(self) -> None:
        """Called with the lock held."""
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._loop, name="groundgate-heartbeat", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    self._thread = None
                    return
                if not self._runs:
                    # Idle: linger a while, so a server answering runs one after another keeps one
                    # thread instead of starting one per run (a thread start cost more than the
                    # run's writes); woken at once by the next run or by close().
                    self._idle = True
                    self._changed.wait(timeout=IDLE_LINGER_S)
                    self._idle = False
                    if self._closed or not self._runs:
                        self._thread = None
                        return
                    continue
                timed_out = not self._changed.wait(timeout=self.policy.heartbeat_seconds)
                if self._closed or not self._runs:
                    continue
            if timed_out:  # woken early only by close(): no extra beat
                try:
                    self.beat()
                except Exception:
                    logger.exception("heartbeat failed; trying again at the next beat")


# ------------------------------------------------------------------ recovery


def last_write(run: DiagnosisRun, *, session: Session) -> datetime:
    """When the run last showed a sign of life in the store: its row, its last step or tool call."""
    times = [aware(run.started_at), aware(run.created_at)]
    for table in (AgentStepRow, ToolInvocation):
        times.append(
            aware(session.scalar(select(func.max(table.created_at)).where(table.run_id == run.run_id)))
        )
    return max(t for t in times if t is not None)


def _recover_run(run_id: str, *, now: datetime, legacy_idle_seconds: float, session: Session) -> bool:
    """Mark one interrupted run `FAILED` unless somebody else did, or its owner renewed its lease."""
    run = session.scalars(select(DiagnosisRun).where(DiagnosisRun.run_id == run_id)).one_or_none()
    if run is None or run.status != RUNNING:
        return False
    last = last_write(run, session=session)
    expires = aware(run.lease_expires_at)
    if expires is not None:
        if expires >= now:
            return False
        still_expired = DiagnosisRun.lease_expires_at < now
        reason = f"interrupted: the lease of {run.lease_owner or 'its process'} expired at {expires:%Y-%m-%dT%H:%M:%SZ}"
    else:
        idle = (now - last).total_seconds()
        if idle < legacy_idle_seconds:
            return False
        still_expired = DiagnosisRun.lease_expires_at.is_(None)
        reason = f"interrupted: no lease and no write for {idle:.0f}s"
    started = aware(run.started_at)
    # The conditional update is the decision: under the row lock the database re-checks that the
    # run is still RUNNING and its lease still expired, so a concurrent recoverer or a heartbeat
    # that renewed the lease in between makes this update match nothing.
    result = _execute(
        session,
        update(DiagnosisRun)
        .where(DiagnosisRun.run_id == run_id, DiagnosisRun.status == RUNNING, still_expired)
        .values(
            status=FAILED,
            stop_reason=reason[:STOP_REASON_CHARS],
            finished_at=last,
            elapsed_ms=(last - started).total_seconds() * 1000 if started is not None else run.elapsed_ms,
            lease_expires_at=None,
        )
        .execution_options(synchronize_session=False),
    )
    return int(result.rowcount) == 1


def recover_interrupted_runs(
    store: Store, *, now: datetime | None = None, older_than_seconds: float | None = None
) -> list[str]:
    """Mark `FAILED` the `RUNNING` runs whose lease expired (rows without a lease: whose last write is
    older than `older_than_seconds`, default the store's `legacy_idle_seconds`); returns their ids.

    Their steps and tool invocations are kept; `stop_reason` starts with `interrupted`. Safe to run
    in several processes at once (each run is recovered once); one short transaction per run."""
    policy = store.lease
    now = now or policy.clock()
    legacy_idle = policy.legacy_idle_seconds if older_than_seconds is None else older_than_seconds
    with store.session() as session:
        candidates = list(
            session.scalars(
                select(DiagnosisRun.run_id)
                .where(
                    DiagnosisRun.status == RUNNING,
                    or_(DiagnosisRun.lease_expires_at < now, DiagnosisRun.lease_expires_at.is_(None)),
                )
                .order_by(DiagnosisRun.id)
            )
        )
    recovered: list[str] = []
    for run_id in candidates:
        with store.session() as session:
            if _recover_run(run_id, now=now, legacy_idle_seconds=legacy_idle, session=session):
                recovered.append(run_id)
    if recovered:
        logger.warning("marked %d interrupted run(s) FAILED: %s", len(recovered), ", ".join(recovered))
    for run_id in recovered:
        _evaluate_failed_run(store, run_id)
    return recovered


def _evaluate_failed_run(store: Store, run_id: str) -> None:
    """A recovered run gets its `rule_evaluation` too (`execution_failed`, docs/design.md §5); a
    failure here is logged and leaves the slot missing, as after any run."""
    from groundgate.store.repositories import compute_rule_evaluation, merge_self_evaluation_slot

    try:
        with store.session() as session:
            evaluation = compute_rule_evaluation(run_id, session=session)
            merge_self_evaluation_slot(run_id, "rule_evaluation", evaluation, session=session)
    except Exception:
        logger.exception("rule evaluation failed for recovered run %s", run_id)

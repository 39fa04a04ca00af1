"""What the app shares between requests: settings, the workspace, the store, the orchestrator, metrics,
and the slots that bound how many grounding checks run at once."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field

from groundgate.apps.workspace import Workspace
from groundgate.contracts import RunResult
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.settings import Settings
from groundgate.store import Store
from groundgate.verify.assessment import ClaimClassifier


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


@dataclass
class Metrics:
    """Counters for `/metrics` (Prometheus text exposition format 0.0.4), per process."""

    runs: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    tool_seconds_sum: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    tool_count: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    tokens: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    requests_failed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def observe_run(self, result: RunResult) -> None:
        with self.lock:
            verdict = result.verdict.value if result.verdict else "NONE"
            self.runs[(verdict, result.output_kind.value)] += 1
            for tool_result in result.tool_results:
                key = (tool_result.tool, tool_result.status.value)
                self.tool_seconds_sum[key] += (tool_result.latency_ms or 0.0) / 1000
                self.tool_count[key] += 1
            self.tokens["input"] += result.input_tokens
            self.tokens["output"] += result.output_tokens

    def observe_failed_run(self) -> None:
        with self.lock:
            self.runs[("NONE", "DEGRADED")] += 1
            self.requests_failed += 1

    def exposition(self) -> str:
        with self.lock:
            lines = [
                "# HELP groundgate_runs_total Runs answered, by verdict and output kind.",
                "# TYPE groundgate_runs_total counter",
            ]
            for (verdict, kind), count in sorted(self.runs.items()):
                lines.append(
                    f'groundgate_runs_total{{verdict="{_escape(verdict)}",output_kind="{_escape(kind)}"}} {count}'
                )
            lines += [
                "# HELP groundgate_tool_latency_seconds Tool call latency, by tool and status.",
                "# TYPE groundgate_tool_latency_seconds summary",
            ]
            for (tool, status), total in sorted(self.tool_seconds_sum.items()):
                labels = f'tool="{_escape(tool)}",status="{_escape(status)}"'
                lines.append(f"groundgate_tool_latency_seconds_sum{{{labels}}} {total:.6f}")
                lines.append(
                    f"groundgate_tool_latency_seconds_count{{{labels}}} {self.tool_count[(tool, status)]}"
                )
            lines += [
                "# HELP groundgate_model_tokens_total Model tokens used by runs.",
                "# TYPE groundgate_model_tokens_total counter",
            ]
            for direction in ("input", "output"):
                lines.append(
                    f'groundgate_model_tokens_total{{direction="{direction}"}} {self.tokens[direction]}'
                )
            lines += [
                "# HELP groundgate_run_failures_total Runs that raised and were answered DEGRADED.",
                "# TYPE groundgate_run_failures_total counter",
                f"groundgate_run_failures_total {self.requests_failed}",
            ]
        return "\n".join(lines) + "\n"


class CheckSlots:
    """At most `limit` grounding checks at once; a request waits at most `timeout` seconds for a slot.

    Checks run in the threadpool the chat runs share, so without a bound a few large checks would
    hold its threads and slow every chat. Waiting happens on the event loop (no thread is held while
    waiting), first come first served. Use from the event loop only: `acquire` and `release` are not
    thread-safe, and need not be.
    """

    def __init__(self, limit: int, timeout: float) -> None:
        self.limit = limit
        self.timeout = timeout
        self._free = limit
        self._waiters: deque[asyncio.Future[bool]] = deque()

    async def acquire(self) -> bool:
        """Take a slot: True once one is free, False when none came free within `timeout`."""
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return True
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        self._waiters.append(waiter)
        timer = loop.call_later(self.timeout, self._expire, waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            # The request went away. A slot handed over just before that must not be lost.
            if waiter.done() and not waiter.cancelled() and waiter.result():
                self.release()
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise
        finally:
            timer.cancel()

    def release(self) -> None:
        """Give a slot back: to the longest waiter, if any."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(True)  # the slot passes straight to it
                return
        self._free += 1

    @property
    def busy(self) -> int:
        """Slots in use now."""
        return self.limit - self._free

    def _expire(self, waiter: asyncio.Future[bool]) -> None:
        if not waiter.done():
            self._waiters.remove(waiter)
            waiter.set_result(False)


@dataclass
class Services:
    settings: Settings
    workspace: Workspace
    store: Store
    orchestrator: Orchestrator
    classifier: ClaimClassifier
    """The grounding checker of `POST /api/check` (the judge model when configured, else offline)."""
    metrics: Metrics = field(default_factory=Metrics)
    check_slots: CheckSlots = field(init=False)
    """`POST /api/check` runs at most `check.max_concurrency` checks at once (see `CheckSlots`)."""

    def __post_init__(self) -> None:
        check = self.settings.check
        self.check_slots = CheckSlots(check.max_concurrency, check.queue_timeout_seconds)

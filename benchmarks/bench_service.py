"""Load test of the HTTP service: concurrent chat and feedback requests, on SQLite and PostgreSQL.

For each backend a fresh data directory gets the demo workspace, then `groundgate serve` runs as a
subprocess on a free 127.0.0.1 port with the offline model (no model configured), and

- chat: `--chats` POST /api/chat requests sent at once (one connection each), questions drawn from
  the demo's showcase and retrieval questions (Chinese and English, every outcome), each with its
  own `sessionId`;
- feedback: `--feedbacks` POST /api/feedback requests, `--concurrency` in flight, `useful` and
  `not_useful`, with and without `runId`, a tenth of the runs receiving most of them (so the
  case-library "create once" path races). The last request for each run is sent after the others
  for that run have been answered, so the value stored is known.

Then the store is opened directly and checked: one `diagnosis_run` row per answered chat (every
returned `runId` exactly once, none `RUNNING`), no duplicated step or invocation, the stored feedback
equals the last one sent for each run, at most one case per `diagnosisId` and one for every run
whose last feedback is `useful` (none for the others: `not_useful` withdraws a case). Any 5xx or
failed check makes the script exit 1.

    python benchmarks/bench_service.py [--chats 200] [--feedbacks 1000] [--concurrency 100]
        [--backends sqlite,postgres] [--chat-workers N] [--no-write]

`--chat-workers` sets the server's `[api] chat_workers` (default: the setting's default, 4 offline).

PostgreSQL: an admin URL (`GROUNDGATE_BENCH_POSTGRES_URL`, default
`postgresql+psycopg://postgres@127.0.0.1:5432/test`); a `gg_bench_…` database is created and dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from _report import write_section
from groundgate.apps.workspace import DEMO_ROOT, load_demo, open_workspace
from groundgate.store import open_store
from groundgate.store.tables import AgentStepRow, CaseLibrary, DiagnosisRun, DiagnosisSession, ToolInvocation
from groundgate.testing import running_service

POSTGRES_ADMIN = os.environ.get(
    "GROUNDGATE_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
HOT_SHARE = 0.4
"""The share of feedback requests aimed at the hot tenth of the runs."""
KEEPALIVE_S = 2.0
"""Idle connections are dropped by the client before uvicorn's 5 s keep-alive timeout closes them, so
a request is never sent on a connection the server is closing (a `ReadError`, not a server error)."""


@dataclass
class Call:
    """One HTTP request: status, latency, and the JSON body when there is one."""

    status: int
    ms: float
    body: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


@dataclass
class Phase:
    name: str
    calls: list[Call]
    wall_s: float

    @property
    def statuses(self) -> Counter[int]:
        return Counter(c.status for c in self.calls)

    @property
    def server_errors(self) -> int:
        return sum(1 for c in self.calls if c.status >= 500 or c.status == 0)

    def percentile(self, q: float) -> float:
        ordered = sorted(c.ms for c in self.calls)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def row(self, backend: str) -> str:
        statuses = ", ".join(f"{k or 'no response'}: {v}" for k, v in sorted(self.statuses.items()))
        return (
            f"| {backend} | {self.name} | {len(self.calls):,} | {statuses} | {self.server_errors} | "
            f"{self.percentile(0.5):.0f} | {self.percentile(0.95):.0f} | {max(c.ms for c in self.calls):.0f} | "
            f"{len(self.calls) / self.wall_s:.1f} | {self.wall_s:.1f} |"
        )


# ---------------------------------------------------------------------------------------- the server


@contextmanager
def sqlite_target() -> Iterator[str | None]:
    yield None  # the embedded store under the data directory


@contextmanager
def postgres_target() -> Iterator[str | None]:
    name = f"gg_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES_ADMIN).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def running_server(
    data_dir: Path, store_url: str | None, log_path: Path, chat_workers: int | None = None
) -> Iterator[str]:
    """`groundgate serve` on the offline model; cwd is the fresh data dir (no ./groundgate.toml)."""
    env = {"GROUNDGATE_STORE__URL": store_url} if store_url else {}
    if chat_workers is not None:
        env["GROUNDGATE_API__CHAT_WORKERS"] = str(chat_workers)
    with running_service(data_dir, cwd=data_dir, log_path=log_path, env=env) as base:
        yield base


def server_pid(base: str) -> int | None:
    """The pid of the `groundgate serve` this process started on `base`'s port (Linux `/proc`; None
    elsewhere or when not found)."""
    port = base.rsplit(":", 1)[1].encode()
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and b"serve" in command and port in command:
            return int(entry.name)
    return None


def server_usage(pid: int | None) -> tuple[float, int] | None:
    """CPU seconds (all threads) and context switches (voluntary and involuntary, all threads) of
    `pid` so far, from `/proc`; None when they cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        switches = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches += int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return cpu, switches


# ---------------------------------------------------------------------------------------- the load


def demo_questions() -> list[str]:
    questions: list[str] = []
    for name in ("showcase.jsonl", "questions.jsonl"):
        for line in (DEMO_ROOT / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                questions.append(json.loads(line)["question"])
    return questions


async def _post(client: httpx.AsyncClient, path: str, payload: dict[str, Any]) -> Call:
    t0 = time.perf_counter()
    try:
        response = await client.post(path, json=payload)
    except httpx.HTTPError as exc:
        return Call(0, (time.perf_counter() - t0) * 1000, error=f"{type(exc).__name__}: {exc}")
    ms = (time.perf_counter() - t0) * 1000
    try:
        body = response.json()
    except ValueError:
        body = {"raw": response.text[:500]}
    return Call(response.status_code, ms, body if isinstance(body, dict) else {"raw": body})


async def chat_phase(base: str, count: int, rng: random.Random) -> tuple[Phase, list[dict[str, Any]]]:
    """`count` chats at once, each on its own connection and session."""
    pool = demo_questions()
    questions = [pool[i % len(pool)] for i in range(count)]
    rng.shuffle(questions)
    payloads = [{"question": q, "sessionId": f"bench-{uuid.uuid4().hex}"} for q in questions]
    limits = httpx.Limits(
        max_connections=count, max_keepalive_connections=count, keepalive_expiry=KEEPALIVE_S
    )
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(900.0)) as client:
        started = time.perf_counter()
        calls = await asyncio.gather(*(_post(client, "/api/chat", p) for p in payloads))
        wall = time.perf_counter() - started
    return Phase("chat", list(calls), wall), payloads


@dataclass
class FeedbackPlan:
    """Feedback requests in two waves; the last request per run is in the second."""

    contended: list[dict[str, Any]]
    final: list[dict[str, Any]]


def plan_feedback(runs: list[tuple[str, str]], count: int, rng: random.Random) -> FeedbackPlan:
    """`runs` are (runId, sessionId) of answered chats; a tenth of them get `HOT_SHARE` of the requests."""
    hot = runs[: max(1, len(runs) // 10)]
    per_run: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for i in range(count):
        run_id, session_id = rng.choice(hot) if rng.random() < HOT_SHARE else runs[i % len(runs)]
        payload: dict[str, Any] = {
            "sessionId": session_id,
            "feedback": rng.choice(("useful", "not_useful")),
        }
        if rng.random() < 0.5:
            payload["runId"] = run_id
        per_run[(run_id, session_id)].append(payload)
    contended = [p for requests in per_run.values() for p in requests[:-1]]
    rng.shuffle(contended)
    return FeedbackPlan(contended, [requests[-1] for requests in per_run.values()])


async def feedback_phase(base: str, plan: FeedbackPlan, concurrency: int) -> Phase:
    limits = httpx.Limits(
        max_connections=concurrency, max_keepalive_connections=concurrency, keepalive_expiry=KEEPALIVE_S
    )
    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(300.0)) as client:

        async def one(payload: dict[str, Any]) -> Call:
            async with gate:
                call = await _post(client, "/api/feedback", payload)
            call.body["_request"] = payload
            return call

        started = time.perf_counter()
        calls = await asyncio.gather(*(one(p) for p in plan.contended))
        calls += await asyncio.gather(*(one(p) for p in plan.final))
        wall = time.perf_counter() - started
    return Phase("feedback", list(calls), wall)


# ---------------------------------------------------------------------------------------- the checks


@dataclass
class Checks:
    lines: list[tuple[str, bool, str]] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str = "") -> None:
        self.lines.append((name, ok, detail))
        print(f"  [{'ok' if ok else 'FAIL'}] {name}{': ' + detail if detail else ''}", flush=True)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.lines)


def verify_store(
    target: str | Path,
    chat: Phase,
    chat_payloads: list[dict[str, Any]],
    feedback: Phase,
    checks: Checks,
) -> dict[str, int]:
    """Compare what the service answered with what the store holds."""
    answered = [(c, p) for c, p in zip(chat.calls, chat_payloads, strict=True) if c.status == 200]
    returned = [c.body.get("runId") for c, _ in answered]
    by_session = {p["sessionId"]: c.body.get("runId") for c, p in answered}
    hidden = [
        c.body.get("stopReason") for c, _ in answered if str(c.body.get("stopReason", "")).startswith("error")
    ]
    checks.add(
        "chat answers carry no swallowed error (stopReason 'error: …')",
        not hidden,
        f"{len(hidden)} of {len(answered)}" + (f", e.g. {hidden[0]!r}" if hidden else ""),
    )
    store = open_store(target, migrate=False)
    try:
        with store.session() as session:
            rows = list(session.scalars(select(DiagnosisRun)))
            sessions = session.scalar(select(func.count()).select_from(DiagnosisSession)) or 0
            dup_steps = session.execute(
                select(AgentStepRow.run_id, AgentStepRow.seq)
                .group_by(AgentStepRow.run_id, AgentStepRow.seq)
                .having(func.count() > 1)
            ).all()
            dup_invocations = session.execute(
                select(ToolInvocation.invocation_id)
                .group_by(ToolInvocation.invocation_id)
                .having(func.count() > 1)
            ).all()
            runs_without_steps = session.scalar(
                select(func.count())
                .select_from(DiagnosisRun)
                .where(~DiagnosisRun.run_id.in_(select(AgentStepRow.run_id)))
            )
            cases = list(session.scalars(select(CaseLibrary)))
    finally:
        store.close()

    stored = Counter(r.run_id for r in rows)
    checks.add(
        "diagnosis_run rows = chat responses with status 200",
        len(rows) == len(answered),
        f"{len(rows)} rows, {len(answered)} answered",
    )
    missing = [r for r in returned if stored.get(str(r), 0) == 0]
    twice = [r for r in returned if stored.get(str(r), 0) > 1]
    checks.add(
        "every returned runId stored exactly once",
        not missing and not twice and len(set(returned)) == len(returned),
        f"{len(missing)} missing, {len(twice)} duplicated, {len(returned) - len(set(returned))} repeated in answers",
    )
    checks.add("one diagnosis_session per chat session", sessions == len(answered), f"{sessions} sessions")
    statuses = Counter(r.status for r in rows)
    checks.add(
        "every run finished (SUCCEEDED/FAILED, none RUNNING)",
        set(statuses) <= {"SUCCEEDED", "FAILED"},
        ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())),
    )
    row_by_id = {r.run_id: r for r in rows}
    kinds_differ = [
        c.body["runId"]
        for c, _ in answered
        if c.body.get("runId") in row_by_id
        and row_by_id[c.body["runId"]].output_kind != c.body.get("outputKind")
    ]
    checks.add("stored outputKind = answered outputKind", not kinds_differ, f"{len(kinds_differ)} differ")
    checks.add(
        "no duplicated step (run_id, seq) or invocation; every run has steps",
        not dup_steps and not dup_invocations and not runs_without_steps,
        f"{len(dup_steps)} duplicated steps, {len(dup_invocations)} duplicated invocations, "
        f"{runs_without_steps} runs without steps",
    )

    # feedback: the last request per run was sent alone, after all the others for that run.
    last: dict[str, str] = {}
    final_case_id: dict[str, str] = {}
    wrong_binding = 0
    for call in feedback.calls:
        request = call.body["_request"]
        if call.status != 200:
            continue
        run_id = call.body.get("runId")
        expected = request.get("runId") or by_session.get(request["sessionId"])
        if run_id != expected or call.body.get("fallbackToLatestRun") != ("runId" not in request):
            wrong_binding += 1
        last[str(run_id)] = request["feedback"]
        final_case_id[str(run_id)] = str(call.body.get("caseId"))
    checks.add(
        "feedback bound to the named run, or to the session's latest with fallbackToLatestRun",
        wrong_binding == 0,
        f"{wrong_binding} wrong",
    )
    mismatched = [
        rid for rid, value in last.items() if rid not in row_by_id or row_by_id[rid].feedback != value
    ]
    checks.add(
        "stored feedback = last accepted feedback per run",
        not mismatched,
        f"{len(last)} runs with feedback, {len(mismatched)} differ",
    )
    # The case library follows the latest feedback: `not_useful` after `useful` withdraws the case.
    useful_runs = {rid for rid, value in last.items() if value == "useful"}
    per_diagnosis = Counter(c.diagnosis_id for c in cases)
    stored_case = {c.diagnosis_id: c.case_id for c in cases}
    checks.add(
        "at most one case per diagnosisId; one for every run whose last feedback is `useful`, none else",
        all(n == 1 for n in per_diagnosis.values()) and set(per_diagnosis) == useful_runs,
        f"{len(cases)} cases for {len(per_diagnosis)} runs, {len(useful_runs)} runs last given useful",
    )
    split = [rid for rid in useful_runs if stored_case.get(rid) != final_case_id.get(rid)]
    checks.add(
        "the last `useful` answer of each run names its stored caseId", not split, f"{len(split)} differ"
    )
    hottest = max(Counter(str(c.body.get("runId")) for c in feedback.calls).values(), default=0)
    return {"runs": len(rows), "cases": len(cases), "feedback_runs": len(last), "hottest": hottest}


def scan_log(log_path: Path, checks: Checks) -> None:
    log = log_path.read_text(encoding="utf-8", errors="replace")
    tracebacks = log.count("Traceback (most recent call last)")
    locked = log.count("database is locked")
    checks.add(
        "server log: no traceback, no 'database is locked'",
        tracebacks == 0 and locked == 0,
        f"{tracebacks} tracebacks, {locked} 'database is locked'",
    )


# ---------------------------------------------------------------------------------------- main


def run_backend(backend: str, args: argparse.Namespace) -> tuple[list[str], Checks, dict[str, Any]]:
    factories = {"sqlite": sqlite_target, "postgres": postgres_target}
    rng = random.Random(args.seed)
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="gg-bench-service-") as tmp, factories[backend]() as url:
        data_dir = Path(tmp) / "data"
        workspace = open_workspace(data_dir)
        try:
            load_demo(workspace)
        finally:
            workspace.close()
        log_path = Path(tmp) / "server.log"
        print(f"{backend}: serving {data_dir} ({url or 'embedded SQLite'})", flush=True)
        with running_server(data_dir, url, log_path, args.chat_workers) as base:
            pid = server_pid(base)
            before = server_usage(pid)
            chat, chat_payloads = asyncio.run(chat_phase(base, args.chats, rng))
            after = server_usage(pid)
            print(f"  chat: {dict(chat.statuses)} in {chat.wall_s:.1f} s", flush=True)
            answered = [
                (str(c.body["runId"]), p["sessionId"])
                for c, p in zip(chat.calls, chat_payloads, strict=True)
                if c.status == 200 and "runId" in c.body
            ]
            if not answered:
                raise SystemExit(f"{backend}: no chat answered; see the server log")
            plan = plan_feedback(answered, args.feedbacks, rng)
            feedback = asyncio.run(feedback_phase(base, plan, args.concurrency))
            print(f"  feedback: {dict(feedback.statuses)} in {feedback.wall_s:.1f} s", flush=True)
        for phase in (chat, feedback):
            checks.add(f"{phase.name}: zero 5xx (and no transport error)", phase.server_errors == 0)
            failures = [c for c in phase.calls if c.status != 200]
            if failures:
                sample = failures[0]
                print(
                    f"    e.g. {sample.status} {sample.error or json.dumps(sample.body, ensure_ascii=False)[:300]}"
                )
        info: dict[str, Any] = dict(verify_store(url or data_dir, chat, chat_payloads, feedback, checks))
        scan_log(log_path, checks)
        kinds = Counter(str(c.body.get("outputKind")) for c in chat.calls if c.status == 200)
        info["kinds"] = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        info["server"] = (
            f"server process during the chat phase: {(after[0] - before[0]) / args.chats * 1000:.1f} ms CPU "
            f"and {(after[1] - before[1]) / args.chats:.0f} context switches per chat"
            if before and after
            else "server process usage not readable here (no /proc)"
        )
        if not checks.ok and args.keep_log:
            Path(args.keep_log).write_bytes(log_path.read_bytes())
    return [chat.row(backend), feedback.row(backend)], checks, info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chats", type=int, default=200, help="chat requests sent at once")
    parser.add_argument("--feedbacks", type=int, default=1000, help="feedback requests")
    parser.add_argument("--concurrency", type=int, default=100, help="feedback requests in flight")
    parser.add_argument("--backends", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chat-workers", type=int, default=None, help="the server's [api] chat_workers")
    parser.add_argument("--keep-log", default=None, help="copy the server log here when a check fails")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md")
    args = parser.parse_args()
    rows: list[str] = []
    notes: list[str] = []
    check_rows: list[str] = []
    all_ok = True
    for backend in args.backends.split(","):
        phase_rows, checks, info = run_backend(backend.strip(), args)
        rows += phase_rows
        all_ok &= checks.ok
        notes.append(
            f"- {backend}: outcomes {info['kinds']}; {info['runs']} runs stored, feedback on "
            f"{info['feedback_runs']} runs (the hottest got {info['hottest']} requests), {info['cases']} cases; "
            f"{info['server']}"
        )
        for name, ok, detail in checks.lines:
            check_rows.append(f"| {backend} | {name} | {'pass' if ok else '**FAIL**'} | {detail} |")
    body = "\n".join(
        [
            f"`groundgate serve` (uvicorn, one process; `[api] chat_workers` "
            f"{args.chat_workers or 'default (4 offline)'}) with the offline model and the demo workspace, "
            f"driven over HTTP by httpx: {args.chats} POST /api/chat sent at once (one connection and one "
            f"session each, demo questions in Chinese and English), then {args.feedbacks} POST "
            f"/api/feedback with {args.concurrency} in flight (`useful`/`not_useful`, half without "
            f"`runId`, {HOT_SHARE:.0%} of them on a tenth of the runs). Latency is per request as the "
            "client sees it, queueing included; PostgreSQL runs locally (same machine, TCP).",
            "",
            "| backend | requests | n | status codes | 5xx | p50 ms | p95 ms | max ms | req/s | wall s |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            *notes,
            "",
            "Checks against the store after the run:",
            "",
            "| backend | check | result | detail |",
            "|---|---|---|---|",
            *check_rows,
        ]
    )
    print(body)
    if not args.no_write:
        write_section("service", body)
    if not all_ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

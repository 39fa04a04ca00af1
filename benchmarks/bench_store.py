"""Run write throughput and trace read latency with 100,000 stored runs, on SQLite and PostgreSQL.

Each backend gets a fresh database: 100,000 background runs (with 5 steps and 3 tool invocations
each, like the measured ones) are bulk-inserted through SQLAlchemy Core, then

- writes: runs recorded through the real `run_recorded`/`RunRecorder` — the run row (`RUNNING`),
  4 steps and 3 tool invocations appended one transaction each as they arrive (on PostgreSQL one
  autocommitted `INSERT` each, `groundgate.store.engine.Store.append`), and the finalize
  transaction (the composer's step, answer, verdict, the `verifier_evaluation` and
  `rule_evaluation` slots): 9 transactions per run, one writer;
- reads: `get_trace` of random stored runs (run, session, steps, invocations, slots parsed).

    python benchmarks/bench_store.py [--runs 100000] [--writes 300] [--reads 1000] [--no-write]

PostgreSQL: an admin URL (`GROUNDGATE_BENCH_POSTGRES_URL`, default
`postgresql+psycopg://postgres@127.0.0.1:5432/test`); a `gg_bench_…` database is created and dropped.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import make_url

from _report import write_section
from groundgate.apps.run_trace import get_trace
from groundgate.contracts.enums import (
    DecisionStatus,
    FactCategory,
    OutputKind,
    RetrievalLayer,
    ToolStatus,
    Verdict,
)
from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import EvidenceRef, ToolResult
from groundgate.contracts.verification import ClaimCheck, VerifierEvaluation
from groundgate.store import Store, open_store
from groundgate.store.recorder import RunRecorder, invocation_row, run_recorded, step_row
from groundgate.store.tables import AgentStepRow, DiagnosisRun, DiagnosisSession, ToolInvocation

POSTGRES_ADMIN = os.environ.get(
    "GROUNDGATE_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
CHUNK = 5000
ROLES = ("planner", "executor", "gatekeeper", "verifier")


def _result(run_id: str, session_id: str) -> RunResult:
    """A typical run: 5 steps (planner, executor, gatekeeper, verifier, composer), 3 tool calls."""
    tools = [
        ToolResult(
            invocation_id=f"inv-{uuid.uuid4().hex}",
            tool=tool,
            status=ToolStatus.OK,
            run_id=run_id,
            arguments={"query": "PAY-5003 连接池", "top_k": 5},
            observation="L0 hit PAY-5003 in payment/payment-gateway-error-codes.md; 4 chunks",
            retrieval_layers=[RetrievalLayer.L0],
            evidence_refs=[
                EvidenceRef(
                    invocation_id="x",
                    citation_id=f"doc#{n}",
                    start=0,
                    end=40,
                    excerpt="PAY-5003 表示 payment-db-proxy 连接池耗尽，需要扩容或排查慢查询。",
                )
                for n in range(3)
            ],
            latency_ms=3.5,
        )
        for tool in ("lookup_knowledge", "search_logs", "query_metrics")
    ]
    steps = [
        AgentStep(
            role=role,
            round=1,
            thought=f"{role} step: 3 calls, 4 claims",
            reason_code="ok",
            model_output={"note": role, "items": list(range(10))},
            input_tokens=50,
        )
        for role in (*ROLES, "composer")
    ]
    evaluation = VerifierEvaluation(
        verdict=Verdict.PASS,
        groundedness_score=0.9,
        critical_fact_count=4,
        claim_checks=[
            ClaimCheck(
                claim_id=f"c{i}",
                claim_text="PAY-5003 表示 payment-db-proxy 连接池耗尽",
                category=FactCategory.DIRECT_EVIDENCE,
                derivable=True,
            )
            for i in range(4)
        ],
    )
    return RunResult(
        run_id=run_id,
        session_id=session_id,
        question="支付网关 PAY-5003 是什么原因？",
        output_kind=OutputKind.NORMAL,
        verdict=Verdict.PASS,
        decision_status=DecisionStatus.ANSWERED,
        answer="PAY-5003 表示 payment-db-proxy 连接池耗尽。[1]\n\n引用：\n[1] payment/errors.md",
        steps=steps,
        tool_results=tools,
        verifier_evaluation=evaluation,
        elapsed_ms=42.0,
        input_tokens=250,
        output_tokens=40,
    )


def _row_dict(row: Any) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in row.__table__.columns if c.key != "id"}


def bulk_fill(store: Store, count: int) -> tuple[float, list[str]]:
    """Insert `count` background runs (session, run, 5 steps, 3 invocations) with Core executemany."""
    started = time.perf_counter()
    now = datetime.now(UTC)
    template = _result("run-template", "sess-template")
    self_evaluation = {
        "verifier_evaluation": template.verifier_evaluation.model_dump(mode="json")  # type: ignore[union-attr]
    }
    run_ids: list[str] = []
    for offset in range(0, count, CHUNK):
        sessions, runs, steps, invocations = [], [], [], []
        for _ in range(min(CHUNK, count - offset)):
            run_id = f"run-{uuid.uuid4().hex}"
            session_id = f"sess-{uuid.uuid4().hex}"
            run_ids.append(run_id)
            sessions.append(
                {"session_id": session_id, "tenant": "acme", "query": template.question, "created_at": now}
            )
            runs.append(
                {
                    "run_id": run_id,
                    "session_id": session_id,
                    "query": template.question,
                    "answer": template.answer,
                    "mode": "chat",
                    "output_kind": "NORMAL",
                    "verdict": "PASS",
                    "decision_status": "ANSWERED",
                    "status": "SUCCEEDED",
                    "stop_reason": "verdict_pass",
                    "self_evaluation": self_evaluation,
                    "self_evaluation_version": 1,
                    "rounds": 1,
                    "elapsed_ms": 42.0,
                    "input_tokens": 250,
                    "output_tokens": 40,
                    "started_at": now,
                    "finished_at": now,
                    "created_at": now,
                }
            )
            for seq, step in enumerate(template.steps):
                row = _row_dict(step_row(run_id, seq, step))
                row["created_at"] = now
                steps.append(row)
            for tool_result in template.tool_results:
                row = _row_dict(invocation_row(run_id, tool_result))
                row["invocation_id"] = f"inv-{uuid.uuid4().hex}"
                row["created_at"] = now
                invocations.append(row)
        with store.engine.begin() as connection:
            connection.execute(insert(DiagnosisSession), sessions)
            connection.execute(insert(DiagnosisRun), runs)
            connection.execute(insert(AgentStepRow), steps)
            connection.execute(insert(ToolInvocation), invocations)
    return time.perf_counter() - started, run_ids


def measure_writes(store: Store, count: int) -> tuple[float, list[float]]:
    """Record `count` runs through the real recorder; returns (runs/s, per-run ms).

    The results are built first: building the pydantic models of a run is the pipeline's work,
    not the store's, and is left out of both figures."""
    results = [_result(f"run-{uuid.uuid4().hex}", f"sess-{uuid.uuid4().hex}") for _ in range(count)]
    per_run: list[float] = []
    started = time.perf_counter()
    for result in results:

        def execute(recorder: RunRecorder, result: RunResult = result) -> RunResult:
            for step in result.steps[:2]:
                recorder.on_step(step)
            for tool_result in result.tool_results:
                recorder.on_tool_result(tool_result)
            for step in result.steps[2:4]:
                recorder.on_step(step)
            return result  # the composer's step is written by finish()

        t0 = time.perf_counter()
        run_recorded(
            store, execute, question=result.question, run_id=result.run_id, session_id=result.session_id
        )
        per_run.append((time.perf_counter() - t0) * 1000)
    return count / (time.perf_counter() - started), per_run


def measure_reads(store: Store, run_ids: list[str], count: int) -> list[float]:
    rng = random.Random(7)
    latencies: list[float] = []
    for run_id in rng.sample(run_ids, min(count, len(run_ids))):
        t0 = time.perf_counter()
        with store.session() as session:
            trace = get_trace(run_id, session=session)
        latencies.append((time.perf_counter() - t0) * 1000)
        assert len(trace.steps) == 5
        assert len(trace.tool_invocations) == 3
    return latencies


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextmanager
def sqlite_store() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp))
        try:
            yield store
        finally:
            store.close()


@contextmanager
def postgres_store() -> Iterator[Store]:
    name = f"gg_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(POSTGRES_ADMIN).set(database=name).render_as_string(hide_password=False)
    store = open_store(url)
    try:
        yield store
    finally:
        store.close()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100_000, help="background runs stored first")
    parser.add_argument("--writes", type=int, default=300, help="runs recorded through the recorder")
    parser.add_argument("--reads", type=int, default=1000, help="get_trace calls")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md")
    args = parser.parse_args()
    rows: list[str] = []
    factories = {"sqlite": sqlite_store, "postgresql": postgres_store}
    for backend in args.backends.split(","):
        with factories[backend]() as store:
            fill_s, run_ids = bulk_fill(store, args.runs)
            runs_per_s, per_run = measure_writes(store, args.writes)
            reads = measure_reads(store, run_ids, args.reads)
        row = (
            f"| {backend} | {args.runs:,} | {fill_s:.1f} | {runs_per_s:.0f} | "
            f"{statistics.median(per_run):.1f} | {_percentile(per_run, 0.95):.1f} | "
            f"{statistics.median(reads):.2f} | {_percentile(reads, 0.95):.2f} |"
        )
        print(row, flush=True)
        rows.append(row)
    body = "\n".join(
        [
            f"{args.writes} runs written through `run_recorded` (5 steps, 3 tool invocations, 9 transactions "
            f"each: start, 7 appends, finish; one writer) and {args.reads} `get_trace` reads of random runs, "
            "after bulk-inserting the background runs (each also with 5 steps and 3 invocations) into a "
            "fresh database. SQLite in WAL mode with `synchronous=NORMAL`; on PostgreSQL each append is one "
            "autocommitted `INSERT` on a connection with `synchronous_commit = off` (no `BEGIN`, `SET LOCAL` "
            "or `COMMIT` round trip), the start and the finish are durable transactions. PostgreSQL runs "
            "locally (same machine, TCP).",
            "",
            "| backend | stored runs | bulk fill s | writes runs/s | write ms p50 | write ms p95 | "
            "trace ms p50 | trace ms p95 |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    print(body)
    if not args.no_write:
        write_section("store", body)


if __name__ == "__main__":
    main()

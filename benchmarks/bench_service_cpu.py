"""CPU per chat in process: the app through Starlette's TestClient, one chat after another.

`bench_service.py` measures a served process under 200 concurrent chats, whose wall time on a shared
2-core machine is set as much by the machine's speed as by the code. This script measures what the
code costs: `time.process_time` (all threads of this process) per chat over `--chats` chats through
`groundgate.api.app.create_app` on the demo workspace with the offline models, on SQLite or
PostgreSQL — and, as a yardstick of the machine's speed at that moment, the offline pipeline's own
CPU per run (`Orchestrator.run` on the demo questions, no store). Compare the two within one run.

    python benchmarks/bench_service_cpu.py [--backends sqlite,postgres] [--chats 600] [--repeats 3] [--no-write]

PostgreSQL: the admin URL of `bench_service.py` (`GROUNDGATE_BENCH_POSTGRES_URL`); a `gg_bench_…`
database is created and dropped.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from _report import write_section
from bench_service import demo_questions, postgres_target
from groundgate.apps.chat import build_orchestrator
from groundgate.apps.workspace import load_demo, open_workspace
from groundgate.contracts import ExecutionContext

CTX = ExecutionContext(tenant="acme", user="demo", roles=("sre",))


def pipeline_cpu_ms(repeats: int) -> list[float]:
    """CPU per offline pipeline run (no store), once per repeat over the demo questions."""
    questions = demo_questions()
    with tempfile.TemporaryDirectory(prefix="gg-bench-cpu-") as tmp:
        workspace = open_workspace(Path(tmp))
        try:
            load_demo(workspace)
            orchestrator = build_orchestrator(workspace.registry)
            for q in questions:  # warm the caches and the index
                orchestrator.run(q, CTX)
            out = []
            for _ in range(repeats):
                started = time.process_time()
                for q in questions:
                    orchestrator.run(q, CTX)
                out.append((time.process_time() - started) / len(questions) * 1000)
            return out
        finally:
            workspace.close()


@contextlib.contextmanager
def _store_url(backend: str) -> Iterator[str | None]:
    if backend == "postgres":
        with postgres_target() as url:
            yield url
    else:
        yield None


def chat_cpu_ms(backend: str, chats: int, repeats: int) -> list[float]:
    """CPU per chat through the app (store included), once per repeat of `chats` chats."""
    from fastapi.testclient import TestClient

    from groundgate.api.app import create_app
    from groundgate.settings import EmbeddingSettings, ModelSettings, RoleModels, load_settings

    questions = demo_questions()
    with tempfile.TemporaryDirectory(prefix="gg-bench-cpu-") as tmp, _store_url(backend) as url:
        data_dir = Path(tmp) / "data"
        workspace = open_workspace(data_dir)
        try:
            load_demo(workspace)
        finally:
            workspace.close()
        previous = os.environ.get("GROUNDGATE_STORE__URL")
        if url:
            os.environ["GROUNDGATE_STORE__URL"] = url
        try:
            settings = load_settings(
                data_dir=data_dir, model=ModelSettings(), roles=RoleModels(), embedding=EmbeddingSettings()
            )
            with TestClient(create_app(settings)) as client:
                for q in questions[:10]:
                    client.post("/api/chat", json={"question": q, "sessionId": uuid.uuid4().hex})
                out = []
                for _ in range(repeats):
                    started = time.process_time()
                    for i in range(chats):
                        payload = {"question": questions[i % len(questions)], "sessionId": uuid.uuid4().hex}
                        response = client.post("/api/chat", json=payload)
                        if response.status_code != 200:
                            raise SystemExit(f"{backend}: chat answered {response.status_code}")
                    out.append((time.process_time() - started) / chats * 1000)
                return out
        finally:
            if url:
                if previous is None:
                    os.environ.pop("GROUNDGATE_STORE__URL", None)
                else:
                    os.environ["GROUNDGATE_STORE__URL"] = previous


def _fmt(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({', '.join(f'{v:.1f}' for v in values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--chats", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md")
    args = parser.parse_args()
    rows = [f"| offline pipeline alone (no store), per run | {_fmt(pipeline_cpu_ms(args.repeats))} |"]
    for backend in args.backends.split(","):
        rows.append(
            f"| chat through the app, {backend}, per chat | {_fmt(chat_cpu_ms(backend, args.chats, args.repeats))} |"
        )
    body = "\n".join(
        [
            f"CPU (`time.process_time`, all threads) per run or chat, median of {args.repeats} repeats "
            f"(each repeat in brackets); {args.chats} chats per repeat, one after another.",
            "",
            "| what | CPU ms |",
            "|---|---|",
            *rows,
        ]
    )
    print(body)
    if not args.no_write:
        write_section("service-cpu", body)


if __name__ == "__main__":
    main()

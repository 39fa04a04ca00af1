"""Orchestration overhead per run and verifier input tokens, on the bundled demo workspace.

Overhead = everything except model time: the planner, executor and verifier are instant scripted
models (the verifier goes through the LLM judge path, including its deterministic override), while
tools, gatekeeper, trace summary, verdict and composer run for real against the demo's Qdrant Edge
shard and SQLite stores. Also measured: the fully offline pipeline (rules, extraction, checker).

    python benchmarks/bench_pipeline.py [--repeat 3] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _report import write_section
from groundgate.apps.chat import RoleModels, build_orchestrator
from groundgate.apps.workspace import DEMO_ROOT, load_demo, open_workspace
from groundgate.contracts import ExecutionContext, RunResult
from groundgate.models import Message, ScriptedModel

CTX = ExecutionContext(tenant="acme", user="bench", roles=("sre",))


def _scripted() -> ScriptedModel:
    """Instant models: plan a knowledge search, quote the first evidence, call every claim direct."""

    def respond(messages: list[Message], output_type: Any, role: str) -> dict[str, Any]:
        prompt = messages[-1].content
        if role == "planner":
            question = json.loads(prompt)["question"]
            return {
                "intent": "lookup",
                "calls": [{"tool": "lookup_knowledge", "arguments": {"query": question}}],
            }
        if role == "executor":
            claims = []
            for block in prompt.split("\n\n[E")[:3]:
                header, _, text = block.partition("\n")
                if "invocation_id=" not in header or not text.strip():
                    continue
                inv = header.split("invocation_id=")[1].split()[0]
                cit = header.split("citation_id=")[1].split()[0]
                sentence = text.strip().splitlines()[-1][:200]
                claims.append(
                    {
                        "id": f"c{len(claims) + 1}",
                        "text": sentence,
                        "evidence_refs": [{"invocation_id": inv, "citation_id": cit, "excerpt": sentence}],
                    }
                )
            return {"claims": claims, "final_answer": " ".join(c["text"] for c in claims)}
        count = prompt.count("\n[") + 1
        return {
            "claims": [
                {
                    "claim_index": i + 1,
                    "key": True,
                    "category": "direct_evidence",
                    "passage": None,
                    "excerpt": None,
                    "rationale": "",
                }
                for i in range(count)
            ]
        }

    return ScriptedModel(function=respond, name="instant")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    questions = [
        json.loads(line)["question"]
        for line in (DEMO_ROOT / "questions.jsonl").read_text("utf-8").splitlines()
        if line
    ]
    questions += [
        json.loads(line)["question"]
        for line in (DEMO_ROOT / "showcase.jsonl").read_text("utf-8").splitlines()
        if line
    ]
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, open_workspace(Path(tmp)) as workspace:
        load_demo(workspace)
        model = _scripted()
        modes = {
            "instant scripted models": build_orchestrator(
                workspace.registry, models=RoleModels(planner=model, executor=model, verifier=model)
            ),
            "offline roles (rules, extraction, checker)": build_orchestrator(workspace.registry),
        }
        token_counts: list[int] = []
        for name, orchestrator in modes.items():
            orchestrator.run(questions[0], CTX)  # warm caches outside the measurement
            times: list[float] = []
            results: list[RunResult] = []
            for _ in range(args.repeat):
                for question in questions:
                    started = time.perf_counter()
                    results.append(orchestrator.run(question, CTX))
                    times.append((time.perf_counter() - started) * 1000)
            tool_ms = [sum(r.latency_ms or 0 for r in res.tool_results) for res in results]
            two_rounds = sum(1 for r in results if r.rounds == 2) / len(results)
            rows.append(
                f"| {name} | {len(times)} | {statistics.median(times):.1f} | {_percentile(times, 0.95):.1f} | "
                f"{statistics.median(tool_ms):.1f} | {two_rounds:.0%} |"
            )
            if name.startswith("offline"):
                token_counts = [
                    r.verifier_evaluation.verifier_input_tokens or 0 for r in results if r.verifier_evaluation
                ]
    body = "\n".join(
        [
            f"{len(questions)} demo questions (the retrieval set plus the showcase) × {args.repeat}, tenant `acme`.",
            "",
            "| pipeline | runs | median ms | p95 ms | median tool ms | runs with 2 rounds |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            "Verifier input per run (the explicit state of seed 000 — query, claims with their verified excerpts,",
            "tool_trace_summary, retry_context — counted at 4 characters per token):",
            "",
            "| runs verified | median tokens | p95 tokens | max tokens |",
            "|---|---|---|---|",
            f"| {len(token_counts)} | {statistics.median(token_counts):.0f} | {_percentile(token_counts, 0.95):.0f} | "
            f"{max(token_counts)} |",
        ]
    )
    print(body)
    if not args.no_write:
        write_section("pipeline", body)


if __name__ == "__main__":
    main()

"""How the offline checker's time and peak memory grow with the size of its input.

Builds one check per (context size, answer size) from the same generated ops and HR text as
`bench_checker.py` (Chinese and English, numbers and identifiers, a third of the answer sentences
with a changed number), runs each in a fresh process pinned to one core (so every row's peak RSS is
its own) and reports wall time, claims per second and peak RSS. The checker core is called
directly (`check_request`), without the size and time budgets of `groundgate check`/`/api/check`,
so the figures show the cost itself. A size whose check runs past `--timeout` is reported as such.

    python benchmarks/bench_checker_scaling.py [--sizes 10000,100000,500000,2000000]
        [--answers 2000,20000] [--timeout 900] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from _report import write_section
from bench_checker import make_pairs
from groundgate.contracts import CheckRequest

#: Passages of a generated context are about this long (a large retrieved chunk).
_PASSAGE_CHARS = 2_000


def make_case(context_chars: int, answer_chars: int, seed: int = 11) -> CheckRequest:
    """A context of about `context_chars` characters in passages, and an answer of about `answer_chars`."""
    rng = random.Random(seed)
    passages: list[str] = []
    answer: list[str] = []
    size = answer_size = 0
    current: list[str] = []
    current_size = 0
    batch = 0
    while size < context_chars or answer_size < answer_chars:
        batch += 1
        for request in make_pairs(50, seed=seed * 1_000 + batch):
            if size < context_chars:
                for passage in request.context:
                    current.append(passage)
                    current_size += len(passage)
                    size += len(passage)
                    if current_size >= _PASSAGE_CHARS:
                        passages.append("\n\n".join(current))
                        current, current_size = [], 0
            if answer_size < answer_chars and rng.random() < 0.5:
                answer.append(request.answer)
                answer_size += len(request.answer) + 1
    if current:
        passages.append("\n\n".join(current))
    text = " ".join(answer)[:answer_chars]
    return CheckRequest(id=f"{context_chars}/{answer_chars}", context=passages, answer=text)


def _one(context_chars: int, answer_chars: int) -> None:
    """Child process: build the case, check it once, print one JSON line of figures."""
    from groundgate.verify.grounding_check import check_request

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    check_request(CheckRequest(context=["预热 warm-up 5 秒."], answer="预热 5 秒."))  # load jieba
    request = make_case(context_chars, answer_chars)
    before_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    result = check_request(request)
    elapsed = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "context": sum(len(p) for p in request.context),
                "passages": len(request.context),
                "answer": len(request.answer),
                "claims": len(result.claims),
                "seconds": elapsed,
                "peak_mb": peak_mb,
                "input_mb": before_mb,
                "verdict": result.verdict.value,
            }
        )
    )


def _measure(context_chars: int, answer_chars: int, timeout: float) -> dict[str, object] | None:
    command = [sys.executable, str(Path(__file__).resolve()), "--one", f"{context_chars},{answer_chars}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _sizes(value: str) -> list[int]:
    return [int(float(v)) for v in value.split(",") if v.strip()]


def _human(chars: int) -> str:
    return f"{chars / 1_000_000:.2f} M" if chars >= 1_000_000 else f"{chars / 1_000:,.0f} k"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=_sizes, default=[10_000, 100_000, 500_000, 2_000_000])
    parser.add_argument("--answers", type=_sizes, default=[2_000, 20_000])
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per size before giving up")
    parser.add_argument(
        "--no-write", action="store_true", help="print only; do not update docs/benchmarks.md"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        context_chars, answer_chars = _sizes(args.one)
        _one(context_chars, answer_chars)
        return

    rows = [
        "| context | answer | claims | wall time | claims/s | peak RSS | RSS added by the check |",
        "|---|---|---|---|---|---|---|",
    ]
    for answer_chars in args.answers:
        for context_chars in args.sizes:
            figures = _measure(context_chars, answer_chars, args.timeout)
            if figures is None:
                row = (
                    f"| {_human(context_chars)} chars | {_human(answer_chars)} chars | – "
                    f"| > {args.timeout:.0f} s | – | – | – |"
                )
            else:
                seconds = float(str(figures["seconds"]))
                claims = int(str(figures["claims"]))
                row = (
                    f"| {_human(int(str(figures['context'])))} chars ({figures['passages']} passages) "
                    f"| {_human(int(str(figures['answer'])))} chars | {claims} | {seconds:.2f} s "
                    f"| {claims / seconds:,.0f} | {float(str(figures['peak_mb'])):.0f} MB "
                    f"| {float(str(figures['peak_mb'])) - float(str(figures['input_mb'])):.0f} MB |"
                )
            print(row, flush=True)
            rows.append(row)
    body = "\n".join(rows)
    print(body)
    if not args.no_write:
        write_section("checker-scaling", body)


if __name__ == "__main__":
    main()

"""Start-up time of the `groundgate` command: whole processes, as a person at a terminal waits for them.

Each command runs `--runs` times (after one unmeasured warm-up run that compiles bytecode and fills
the page cache) in a fresh process through the installed console script, with an empty data
directory and no model configured; the figure is the median wall time, with min and max beside it.
Targets (issue 12): `groundgate --help` under 0.3 s, one `groundgate check` under 0.6 s. Also
lists the slowest imports of `groundgate check` (`python -X importtime`), which is what is left.

    python benchmarks/bench_startup.py [--runs 11] [--no-write] [--strict]

`--strict` exits 1 when a median misses its target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import write_section

CONTEXT = "差旅住宿标准：一线城市每晚不超过 600 元。超标部分需部门总监审批。"
ANSWER = "一线城市住宿每晚最多报销 600 元。超标部分需要部门总监审批。"


def _groundgate() -> list[str]:
    """The console script beside this interpreter (what `pip install` made), else `-m groundgate.cli`."""
    script = Path(sys.executable).with_name("groundgate")
    return [str(script)] if script.exists() else [sys.executable, "-m", "groundgate.cli"]


# name, arguments, target median in seconds (None: no target)
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("groundgate --help", ["--help"], 0.3),
    ("groundgate --version", ["--version"], None),
    ("groundgate check --help", ["check", "--help"], None),
    ("groundgate check -c … -a … (offline)", ["check", "--text", "-c", CONTEXT, "-a", ANSWER], 0.6),
    ("groundgate check -c … -a … --json", ["check", "--text", "-c", CONTEXT, "-a", ANSWER, "--json"], None),
]


def _env(data_dir: str) -> dict[str, str]:
    # PYTHONDONTWRITEBYTECODE (set in some shells and CI images) would keep the warm-up from writing
    # bytecode, so every measured run would compile groundgate's sources again (~0.07 s of a check):
    # not what an installed command costs a user, whose first run leaves the .pyc files behind.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GROUNDGATE_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env["GROUNDGATE_DATA_DIR"] = data_dir
    return env


def _time(command: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def _slowest_imports(command: list[str], env: dict[str, str], cwd: str, top: int) -> list[tuple[str, float]]:
    """The packages with the largest own import time (summed over their modules) in one run."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "groundgate.cli", *command],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    own: dict[str, float] = {}
    for line in done.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        name = parts[2].strip().split(".")
        # groundgate by subpackage (`groundgate.verify`), everything else by distribution.
        package = ".".join(name[:2]) if name[0] == "groundgate" else name[0]
        own[package] = own.get(package, 0.0) + int(parts[0]) / 1e6
    return sorted(own.items(), key=lambda item: -item[1])[:top]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=11, help="measured runs per command")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/benchmarks.md alone")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a median misses its target")
    args = parser.parse_args()
    groundgate = _groundgate()
    rows: list[str] = []
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="gg-bench-startup-") as tmp:
        env = _env(str(Path(tmp) / "data"))
        for name, arguments, target in COMMANDS:
            _time([*groundgate, *arguments], env, tmp)  # warm-up: bytecode, page cache
            times = [_time([*groundgate, *arguments], env, tmp) for _ in range(args.runs)]
            median = statistics.median(times)
            verdict = "—" if target is None else ("met" if median < target else "**missed**")
            if target is not None and median >= target:
                missed.append(name)
            rows.append(
                f"| `{name}` | **{median:.3f}** | {min(times):.3f} | {max(times):.3f} | "
                f"{'' if target is None else f'< {target:.1f}'} | {verdict} |"
            )
            print(rows[-1], flush=True)
        imports = _slowest_imports(COMMANDS[3][1], env, tmp, top=10)
    how = "console script" if len(groundgate) == 1 else "`python -m groundgate.cli`"
    body = "\n".join(
        [
            f"Wall time of whole processes ({how}), {args.runs} runs each after one warm-up; "
            "empty data directory, offline (no model).",
            "",
            "| command | median s | min s | max s | target s | |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            "Where one `groundgate check` spends its import time (own time per package, groundgate's by "
            "subpackage; one run of `python -X importtime`):",
            "",
            "| package | import s |",
            "|---|---|",
            *(f"| `{package}` | {seconds:.3f} |" for package, seconds in imports),
        ]
    )
    print(body)
    if not args.no_write:
        write_section("startup", body)
    if args.strict and missed:
        print(f"missed target: {', '.join(missed)}", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()

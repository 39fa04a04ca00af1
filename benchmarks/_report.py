"""Write benchmark figures into docs/benchmarks.md between named markers, with command and machine."""

from __future__ import annotations

import datetime as _dt
import os
import platform
import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def machine() -> str:
    """One line naming the machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = os.cpu_count()
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {cores} cores{mem}; {platform.system()} {platform.release()}; Python {platform.python_version()}"


def write_section(name: str, body: str) -> None:
    """Replace (or append) the section `name` of docs/benchmarks.md."""
    command = "python " + " ".join([os.path.relpath(sys.argv[0], DOC.parent.parent), *sys.argv[1:]])
    stamp = _dt.date.today().isoformat()
    block = (
        f"<!-- bench:{name}:start -->\n"
        f"Command: `{command}`  \nMachine: {machine()}  \nDate: {stamp}\n\n{body.strip()}\n"
        f"<!-- bench:{name}:end -->"
    )
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    pattern = re.compile(
        rf"<!-- bench:{re.escape(name)}:start -->.*?<!-- bench:{re.escape(name)}:end -->", re.S
    )
    text = pattern.sub(lambda _m: block, text) if pattern.search(text) else text.rstrip() + f"\n\n{block}\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")

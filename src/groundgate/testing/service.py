"""`groundgate serve` in a subprocess on a free loopback port, for browser tests and load tests.

The service runs exactly as a user starts it (the CLI, real HTTP), with its own data directory and
none of the caller's `GROUNDGATE_*` environment, so a developer's settings never leak in.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    """A loopback port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_service(
    data_dir: Path,
    *,
    cwd: Path,
    log_path: Path,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    ready_seconds: float = 120.0,
) -> Iterator[str]:
    """Start `groundgate serve [args]`; yield its base URL once `/healthz` answers; stop it after.

    `cwd` is where a `groundgate.toml` would be read from; `env` adds `GROUNDGATE_*` settings. The
    server's output goes to `log_path`; if it exits or is not ready in time, `RuntimeError` carries
    the end of that log.
    """
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    child_env = {k: v for k, v in os.environ.items() if not k.startswith("GROUNDGATE_")}
    child_env["GROUNDGATE_DATA_DIR"] = str(data_dir)
    child_env.update(env or {})
    command = [sys.executable, "-m", "groundgate.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]

    def log_tail() -> str:
        return log_path.read_text(encoding="utf-8", errors="replace")[-4000:]

    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, *args], env=child_env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + ready_seconds
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"groundgate serve exited with {process.returncode}:\n{log_tail()}")
                try:
                    if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"groundgate serve was not ready in {ready_seconds:.0f} s:\n{log_tail()}"
                    )
                time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

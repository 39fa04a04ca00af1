"""`groundgate serve`: the HTTP API and the web page (FastAPI on uvicorn, imported only here)."""

from __future__ import annotations

from typing import Annotated

import typer

from groundgate.cli._common import DataDirOption, command, err, settings


def serve_command(
    host: Annotated[str | None, typer.Option("--host", help="Address to bind (default [api] host).")] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port (default [api] port).")] = None,
    demo: Annotated[
        bool,
        typer.Option("--demo", help="Load the bundled demo workspace first (as `groundgate demo` does)."),
    ] = False,
    data_dir: DataDirOption = None,
) -> None:
    """Serve the HTTP API and the web page at / (FastAPI on uvicorn).

    Without [api.keys] only 127.0.0.1 may be bound."""
    from groundgate.api.app import check_bind_address, serve

    config = settings(data_dir)
    bind_host = host or config.api.host
    check_bind_address(config, bind_host)
    if demo:
        from groundgate.apps.workspace import load_demo
        from groundgate.wiring import open_configured_workspace

        # Loaded and closed before the app opens the workspace: the embedded shard has one owner.
        with open_configured_workspace(config) as workspace:
            err().print(f"[dim]loading the demo workspace into {config.data_dir} …[/dim]")
            load_demo(workspace)
    serve(config, bind_host, port if port is not None else config.api.port)


def register(app: typer.Typer) -> None:
    command(app, "serve")(serve_command)

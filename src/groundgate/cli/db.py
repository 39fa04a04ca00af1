"""`groundgate db upgrade`: the run store's schema."""

from __future__ import annotations

import typer

from groundgate.cli._common import DataDirOption, JsonOption, command, echo_json, out, settings, sub_app


def upgrade_command(as_json: JsonOption = False, data_dir: DataDirOption = None) -> None:
    """Migrate the store's schema to the newest revision (nothing changes when it is up to date)."""
    from groundgate.store.engine import create_store_engine, current_revision, resolve_url, upgrade

    config = settings(data_dir)
    engine = create_store_engine(resolve_url(config.store.url or config.data_dir))
    try:
        before = current_revision(engine)
        upgrade(engine)
        after = current_revision(engine)
        url = engine.url.render_as_string(hide_password=True)
    finally:
        engine.dispose()
    if as_json:
        echo_json({"database": url, "from": before, "revision": after})
    else:
        out().print(f"{url}: {before or '(empty)'} → {after}", markup=False)


def register(app: typer.Typer) -> None:
    db_app = sub_app("The run store's database.", no_args_is_help=True)
    command(db_app, "upgrade")(upgrade_command)
    app.add_typer(db_app, name="db")

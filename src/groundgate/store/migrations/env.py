"""Alembic environment, driven from `groundgate.store.engine.upgrade` (no ini file needed)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from groundgate.store.tables import Base

config = context.config
connection = config.attributes.get("connection")
if not isinstance(connection, Connection):  # pragma: no cover - only reachable by misuse
    raise RuntimeError("groundgate migrations run through groundgate.store.upgrade(), with a connection")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

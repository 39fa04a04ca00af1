"""Persistence: SQLAlchemy 2 tables, repositories and Alembic migrations (DESIGN "Storage and search").

Every run is stored so that it can be audited afterwards: the run, its steps, its tool invocations
(with `retrieval_details.evidence_refs`), the self-evaluation container and the user's feedback.
"""

from __future__ import annotations

from groundgate.errors import RunError, UsageError


class NotFoundError(UsageError):
    """An id (run, session) the caller named does not exist; nothing was changed."""


class StoreError(RunError):
    """The database failed (connection, lock timeout, constraint); translated from SQLAlchemy."""


from groundgate.store.engine import Store, open_store, upgrade  # noqa: E402

__all__ = ["NotFoundError", "Store", "StoreError", "open_store", "upgrade"]

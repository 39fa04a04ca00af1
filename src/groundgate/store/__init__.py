"""Persistence: SQLAlchemy 2 tables, repositories and Alembic migrations (DESIGN "Storage and search").

Every run is stored so that it can be audited afterwards: the run, its steps, its tool invocations
(with `retrieval_details.evidence_refs`), the self-evaluation container and the user's feedback.
"""

from __future__ import annotations

# The errors live in the one error tree (`groundgate.errors`); re-exported here, where callers of the
# store have always imported them from.
from groundgate.errors import NotFoundError, StoreError
from groundgate.store.engine import Store, open_store, upgrade

__all__ = ["NotFoundError", "Store", "StoreError", "open_store", "upgrade"]

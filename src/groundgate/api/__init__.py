"""The HTTP service: FastAPI app, API-key authentication → `ExecutionContext`, server-sent events."""

from __future__ import annotations

from groundgate.api.app import check_bind_address, create_app

__all__ = ["check_bind_address", "create_app"]

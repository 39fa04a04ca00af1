"""Additive: `diagnosis_run.self_evaluation_version`, `conversation.state_json` / `state_version`.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    if "self_evaluation_version" not in _columns("diagnosis_run"):
        with op.batch_alter_table("diagnosis_run") as batch:
            batch.add_column(
                sa.Column("self_evaluation_version", sa.Integer, nullable=False, server_default="0")
            )
    existing = _columns("conversation")
    if "state_json" not in existing or "state_version" not in existing:
        with op.batch_alter_table("conversation") as batch:
            if "state_json" not in existing:
                batch.add_column(sa.Column("state_json", sa.JSON))
            if "state_version" not in existing:
                batch.add_column(sa.Column("state_version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("conversation") as batch:
        batch.drop_column("state_version")
        batch.drop_column("state_json")
    with op.batch_alter_table("diagnosis_run") as batch:
        batch.drop_column("self_evaluation_version")

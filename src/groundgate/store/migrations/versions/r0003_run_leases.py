"""Additive: run leases — `diagnosis_run.lease_owner` / `lease_expires_at` and an index for recovery.

A `RUNNING` run is owned by the process that started it (`lease_owner`, `host:pid:random`) until
`lease_expires_at`, which that process keeps pushing forward (each write and a heartbeat). Recovery
looks for `status = 'RUNNING' AND lease_expires_at < now`, hence the index. Rows written before this
revision have no lease (NULL): recovery keeps judging them by the age of their last write.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True).with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
INDEX = "ix_diagnosis_run_status_lease"


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _indexes(table: str) -> set[str]:
    return {str(i["name"]) for i in sa.inspect(op.get_bind()).get_indexes(table)}


def upgrade() -> None:
    existing = _columns("diagnosis_run")
    # Tables created by `Base.metadata.create_all` already have them: adopted, like revision 2.
    if "lease_owner" not in existing or "lease_expires_at" not in existing:
        with op.batch_alter_table("diagnosis_run") as batch:
            if "lease_owner" not in existing:
                batch.add_column(sa.Column("lease_owner", sa.String(128)))
            if "lease_expires_at" not in existing:
                batch.add_column(sa.Column("lease_expires_at", TS))
    if INDEX not in _indexes("diagnosis_run"):
        op.create_index(INDEX, "diagnosis_run", ["status", "lease_expires_at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="diagnosis_run")
    with op.batch_alter_table("diagnosis_run") as batch:
        batch.drop_column("lease_expires_at")
        batch.drop_column("lease_owner")

"""Additive: `alert_episode`, the durable queue of received alerts (`groundgate.store.alert_queue`).

Idempotent like revisions 2 to 4: a table that already exists (created by
`AlertQueue.create_schema()`) is adopted. Old services ignore the new table.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLE = "alert_episode"


def upgrade() -> None:
    if TABLE in sa.inspect(op.get_bind()).get_table_names():
        return
    timestamp = sa.DateTime(timezone=True).with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(128), nullable=False),
        sa.Column("dedup_key", sa.String(160), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("alertname", sa.String(256), nullable=False),
        sa.Column("group_key", sa.Text(), nullable=False),
        sa.Column("starts_at", timestamp, nullable=False),
        sa.Column("alert", sa.JSON(), nullable=False),
        sa.Column("others", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("notifications", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.String(64), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("claimed_by", sa.String(128), nullable=True),
        sa.Column("claimed_until", timestamp, nullable=True),
        sa.Column("received_at", timestamp, nullable=False),
        sa.Column("updated_at", timestamp, nullable=False),
        sa.Column("resolved_at", timestamp, nullable=True),
    )
    op.create_index("uq_alert_episode_key", TABLE, ["tenant", "dedup_key"], unique=True)
    op.create_index("ix_alert_episode_status", TABLE, ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_alert_episode_status", table_name=TABLE)
    op.drop_index("uq_alert_episode_key", table_name=TABLE)
    op.drop_table(TABLE)

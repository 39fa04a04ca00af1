"""Additive: `agent_task`, the per-user task table of the business agent (`groundgate.agent.tasks_store`).

Idempotent like revisions 2 and 3: a table that already exists (created by
`TaskStore.create_schema()`) is adopted. Old services ignore the new table.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TABLE = "agent_task"


def upgrade() -> None:
    if TABLE in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(128), nullable=False),
        sa.Column("project", sa.String(128), nullable=True),
        sa.Column("assignee", sa.String(128), nullable=False),
        sa.Column("task_key", sa.String(64), nullable=False),
        sa.Column("title", sa.String(512), nullable=False),
        sa.Column("category", sa.String(64), nullable=True),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("due_date", sa.Date(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_agent_task_owner", TABLE, ["tenant", "assignee", "project"])
    op.create_index("uq_agent_task_key", TABLE, ["tenant", "task_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_agent_task_key", table_name=TABLE)
    op.drop_index("ix_agent_task_owner", table_name=TABLE)
    op.drop_table(TABLE)

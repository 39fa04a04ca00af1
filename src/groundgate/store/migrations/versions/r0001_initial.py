"""Initial schema: sessions, runs, steps, tool invocations, case library, conversation.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ID = sa.String(64)
TS = sa.DateTime(timezone=True).with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
PK = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _pk() -> sa.Column[int]:
    return sa.Column("id", PK, primary_key=True, autoincrement=True)


def _exists(name: str) -> bool:
    return name in sa.inspect(op.get_bind()).get_table_names()


def upgrade() -> None:
    if not _exists("diagnosis_session"):
        op.create_table(
            "diagnosis_session",
            _pk(),
            sa.Column("session_id", ID, nullable=False, unique=True),
            sa.Column("tenant", sa.String(128)),
            sa.Column("query", sa.Text),
            sa.Column("answer", sa.Text),
            sa.Column("status", sa.String(32)),
            sa.Column("feedback", sa.String(32)),
            sa.Column("self_evaluation", sa.JSON),
            sa.Column("created_at", TS, nullable=False),
            sa.Column("updated_at", TS, nullable=False),
        )
    if not _exists("diagnosis_run"):
        op.create_table(
            "diagnosis_run",
            _pk(),
            sa.Column("run_id", ID, nullable=False, unique=True),
            sa.Column("session_id", ID, sa.ForeignKey("diagnosis_session.session_id"), nullable=False),
            sa.Column("query", sa.Text, nullable=False),
            sa.Column("answer", sa.Text, nullable=False),
            sa.Column("mode", sa.String(32), nullable=False),
            sa.Column("output_kind", sa.String(64)),
            sa.Column("verdict", sa.String(32)),
            sa.Column("decision_status", sa.String(32)),
            sa.Column("status", sa.String(32), nullable=False),
            sa.Column("stop_reason", sa.String(128)),
            sa.Column("feedback", sa.String(32)),
            sa.Column("self_evaluation", sa.JSON),
            sa.Column("rounds", sa.Integer, nullable=False),
            sa.Column("elapsed_ms", sa.Float, nullable=False),
            sa.Column("input_tokens", sa.Integer, nullable=False),
            sa.Column("output_tokens", sa.Integer, nullable=False),
            sa.Column("started_at", TS),
            sa.Column("finished_at", TS),
            sa.Column("created_at", TS, nullable=False),
        )
        op.create_index("ix_diagnosis_run_session_id", "diagnosis_run", ["session_id"])
        op.create_index("ix_diagnosis_run_feedback", "diagnosis_run", ["feedback"])
    if not _exists("agent_step"):
        op.create_table(
            "agent_step",
            _pk(),
            sa.Column("run_id", ID, sa.ForeignKey("diagnosis_run.run_id"), nullable=False),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("role", sa.String(32), nullable=False),
            sa.Column("round", sa.Integer, nullable=False),
            sa.Column("thought", sa.Text, nullable=False),
            sa.Column("reason_code", sa.String(128), nullable=False),
            sa.Column("model_output", sa.JSON),
            sa.Column("parse_status", sa.String(32), nullable=False),
            sa.Column("model_name", sa.String(128), nullable=False),
            sa.Column("input_tokens", sa.Integer, nullable=False),
            sa.Column("output_tokens", sa.Integer, nullable=False),
            sa.Column("latency_ms", sa.Float, nullable=False),
            sa.Column("created_at", TS, nullable=False),
        )
        op.create_index("ix_agent_step_run_id", "agent_step", ["run_id"])
    if not _exists("tool_invocation"):
        op.create_table(
            "tool_invocation",
            _pk(),
            sa.Column("invocation_id", ID, nullable=False, unique=True),
            sa.Column("run_id", ID, sa.ForeignKey("diagnosis_run.run_id"), nullable=False),
            sa.Column("tool", sa.String(128), nullable=False),
            sa.Column("arguments", sa.JSON),
            sa.Column("status", sa.String(32), nullable=False),
            sa.Column("output_summary", sa.Text, nullable=False),
            sa.Column("retrieval_details", sa.JSON),
            sa.Column("error", sa.Text),
            sa.Column("latency_ms", sa.Float),
            sa.Column("round", sa.Integer, nullable=False),
            sa.Column("created_at", TS, nullable=False),
        )
        op.create_index("ix_tool_invocation_run_id", "tool_invocation", ["run_id"])
    if not _exists("case_library"):
        op.create_table(
            "case_library",
            _pk(),
            sa.Column("case_id", ID, nullable=False, unique=True),
            sa.Column("diagnosis_id", ID, nullable=False, unique=True),
            sa.Column("source_type", sa.String(32), nullable=False),
            sa.Column("fault_category", sa.String(64), nullable=False),
            sa.Column("title", sa.String(400), nullable=False),
            sa.Column("root_cause", sa.Text, nullable=False),
            sa.Column("solution", sa.Text, nullable=False),
            sa.Column("error_codes", sa.JSON),
            sa.Column("service", sa.String(128)),
            sa.Column("created_by", sa.String(64), nullable=False),
            sa.Column("created_at", TS, nullable=False),
        )
    if not _exists("conversation"):
        op.create_table(
            "conversation",
            _pk(),
            sa.Column("session_id", ID, nullable=False, unique=True),
            sa.Column("context_json", sa.JSON),
            sa.Column("updated_at", TS, nullable=False),
        )


def downgrade() -> None:
    for name in ("conversation", "case_library", "tool_invocation", "agent_step", "diagnosis_run"):
        op.drop_table(name)
    op.drop_table("diagnosis_session")

"""The typed ORM tables (SQLAlchemy 2 `Mapped[...]`).

Integer surrogate keys give a stable insertion order ("latest run" never depends on clock
resolution); the public ids (`run_id`, `session_id`, `case_id`) are unique strings.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.dialects import mysql
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

ID = String(64)
"""Public ids (uuid4 hex or `run-…` strings)."""

Timestamp = DateTime(timezone=True).with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
PK = BigInteger().with_variant(Integer(), "sqlite")
"""SQLite autoincrements only `INTEGER PRIMARY KEY`."""


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


class DiagnosisSession(Base):
    """A conversation/diagnosis session. Legacy rows may carry query/answer/feedback/self_evaluation."""

    __tablename__ = "diagnosis_session"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ID, unique=True)
    tenant: Mapped[str | None] = mapped_column(String(128))
    query: Mapped[str | None] = mapped_column(Text)
    answer: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str | None] = mapped_column(String(32))
    feedback: Mapped[str | None] = mapped_column(String(32))
    self_evaluation: Mapped[Any | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, onupdate=utcnow)


class DiagnosisRun(Base):
    """One run: `status` is execution status only; quality is `verdict`/`output_kind`/`self_evaluation`."""

    __tablename__ = "diagnosis_run"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ID, unique=True)
    session_id: Mapped[str] = mapped_column(ID, ForeignKey("diagnosis_session.session_id"), index=True)
    query: Mapped[str] = mapped_column(Text, default="")
    answer: Mapped[str] = mapped_column(Text, default="")
    mode: Mapped[str] = mapped_column(String(32), default="chat")
    output_kind: Mapped[str | None] = mapped_column(String(64))
    verdict: Mapped[str | None] = mapped_column(String(32))
    decision_status: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(32), default="SUCCEEDED")
    stop_reason: Mapped[str | None] = mapped_column(String(128))
    feedback: Mapped[str | None] = mapped_column(String(32), index=True)
    self_evaluation: Mapped[Any | None] = mapped_column(JSON)
    self_evaluation_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Added by revision 2; incremented by every self-evaluation merge."""
    rounds: Mapped[int] = mapped_column(Integer, default=1)
    elapsed_ms: Mapped[float] = mapped_column(Float, default=0.0)
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(Timestamp)
    finished_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)
    lease_owner: Mapped[str | None] = mapped_column(String(128))
    """Added by revision 3: the process that runs (ran) it, `host:pid:random` (`store.leases`)."""
    lease_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    """Added by revision 3: while `RUNNING`, the owner keeps this in the future; once it has passed,
    any process may mark the run `FAILED`. NULL once the run is final, and on rows older than the lease."""

    __table_args__ = (Index("ix_diagnosis_run_status_lease", "status", "lease_expires_at"),)


class AgentStepRow(Base):
    """One role's step: structured action, concise thought, model output snapshot — no hidden reasoning."""

    __tablename__ = "agent_step"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ID, ForeignKey("diagnosis_run.run_id"), index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    role: Mapped[str] = mapped_column(String(32))
    round: Mapped[int] = mapped_column(Integer, default=1)
    thought: Mapped[str] = mapped_column(Text, default="")
    reason_code: Mapped[str] = mapped_column(String(128), default="")
    model_output: Mapped[Any | None] = mapped_column(JSON)
    parse_status: Mapped[str] = mapped_column(String(32), default="NOT_CALLED")
    model_name: Mapped[str] = mapped_column(String(128), default="")
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    latency_ms: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class ToolInvocation(Base):
    """One tool call of a run, with `retrieval_details` (layers, relevance, `evidence_refs`)."""

    __tablename__ = "tool_invocation"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    invocation_id: Mapped[str] = mapped_column(ID, unique=True)
    run_id: Mapped[str] = mapped_column(ID, ForeignKey("diagnosis_run.run_id"), index=True)
    tool: Mapped[str] = mapped_column(String(128))
    arguments: Mapped[Any | None] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(32))
    output_summary: Mapped[str] = mapped_column(Text, default="")
    retrieval_details: Mapped[Any | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    latency_ms: Mapped[float | None] = mapped_column(Float)
    round: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class CaseLibrary(Base):
    """A case distilled from a `useful` run (docs/design.md §6); unique on `diagnosis_id`."""

    __tablename__ = "case_library"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    case_id: Mapped[str] = mapped_column(ID, unique=True)
    diagnosis_id: Mapped[str] = mapped_column(ID, unique=True)
    source_type: Mapped[str] = mapped_column(String(32), default="AUTO")
    fault_category: Mapped[str] = mapped_column(String(64), default="GENERAL")
    title: Mapped[str] = mapped_column(String(400), default="")
    root_cause: Mapped[str] = mapped_column(Text, default="")
    solution: Mapped[str] = mapped_column(Text, default="")
    error_codes: Mapped[Any | None] = mapped_column(JSON)
    service: Mapped[str | None] = mapped_column(String(128))
    created_by: Mapped[str] = mapped_column(String(64), default="system")
    created_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow)


class Conversation(Base):
    """Conversation state: legacy `context_json`, plus additive `state_json`/`state_version` (revision 2)."""

    __tablename__ = "conversation"

    id: Mapped[int] = mapped_column(PK, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ID, unique=True)
    context_json: Mapped[Any | None] = mapped_column(JSON)
    state_json: Mapped[Any | None] = mapped_column(JSON)
    state_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(Timestamp, default=utcnow, onupdate=utcnow)

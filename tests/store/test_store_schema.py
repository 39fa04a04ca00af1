"""Schema and migrations on SQLite, PostgreSQL and MariaDB: additive, idempotent, rows kept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from _databases import BACKENDS, database_url
from groundgate.errors import ConfigurationError
from groundgate.store import StoreError, open_store, upgrade
from groundgate.store.engine import SQLITE_FILENAME, current_revision, head_revision
from groundgate.store.tables import Base

TABLES = {
    "diagnosis_session",
    "diagnosis_run",
    "agent_step",
    "tool_invocation",
    "case_library",
    "conversation",
}


@pytest.fixture(params=BACKENDS)
def fresh_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from database_url(request.param, tmp_path_factory.mktemp("db"))


def _schema(url: str) -> dict[str, list[str]]:
    engine = create_engine(url)
    try:
        inspector = inspect(engine)
        return {
            t: sorted(c["name"] for c in inspector.get_columns(t))
            for t in sorted(inspector.get_table_names())
        }
    finally:
        engine.dispose()


def test_open_store_creates_the_embedded_sqlite_file_at_head(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    store = open_store(data_dir)
    try:
        assert (data_dir / SQLITE_FILENAME).is_file()
        assert current_revision(store.engine) == head_revision() == "0005"
        assert set(inspect(store.engine).get_table_names()) >= TABLES
    finally:
        store.close()
    again = open_store(data_dir)  # opening an up-to-date store again changes nothing
    again.close()


def test_unsupported_or_malformed_urls_are_configuration_errors() -> None:
    with pytest.raises(ConfigurationError, match="unsupported database backend"):
        open_store("oracle://scott@localhost/x")
    with pytest.raises(ConfigurationError, match="invalid database URL"):
        open_store("not a url ://")


@pytest.mark.slow
def test_upgrading_twice_is_harmless(fresh_url: str) -> None:
    upgrade(fresh_url)
    first = _schema(fresh_url)
    upgrade(fresh_url)
    assert _schema(fresh_url) == first
    assert set(first) >= TABLES
    assert {"self_evaluation_version", "lease_owner", "lease_expires_at"} <= set(first["diagnosis_run"])
    assert {"context_json", "state_json", "state_version"} <= set(first["conversation"])


@pytest.mark.slow
def test_a_database_created_at_revision_1_keeps_every_row(fresh_url: str) -> None:
    upgrade(fresh_url, "0001")
    engine = create_engine(fresh_url)
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    legacy = json.dumps({"evidence_score": 65, "source": "rule", "factors": []})
    rows = {
        "diagnosis_session": {
            "session_id": "s1", "query": "旧问题", "answer": "旧答案", "status": "SUCCEEDED",
            "self_evaluation": legacy, "created_at": now, "updated_at": now,
        },
        "diagnosis_run": {
            "run_id": "r1", "session_id": "s1", "query": "PAY-5003 是什么", "answer": "连接池耗尽", "mode": "chat",
            "status": "SUCCEEDED", "feedback": "useful", "self_evaluation": legacy, "rounds": 1,
            "elapsed_ms": 1.5, "input_tokens": 3, "output_tokens": 4, "created_at": now,
        },
        "agent_step": {
            "run_id": "r1", "seq": 0, "role": "planner", "round": 1, "thought": "plan", "reason_code": "ok",
            "model_output": json.dumps({"intent": "x"}), "parse_status": "OK", "model_name": "m",
            "input_tokens": 1, "output_tokens": 2, "latency_ms": 3.0, "created_at": now,
        },
        "tool_invocation": {
            "invocation_id": "i1", "run_id": "r1", "tool": "lookup_knowledge", "arguments": json.dumps({"q": 1}),
            "status": "OK", "output_summary": "2 chunks",
            "retrieval_details": json.dumps({"retrieval_layers": ["L0"], "evidence_refs": []}),
            "latency_ms": 2.0, "round": 1, "created_at": now,
        },
        "case_library": {
            "case_id": "c1", "diagnosis_id": "r1", "source_type": "AUTO", "fault_category": "GENERAL",
            "title": "PAY-5003", "root_cause": "a", "solution": "b", "created_by": "system", "created_at": now,
        },
        "conversation": {"session_id": "s1", "context_json": json.dumps({"turns": 2}), "updated_at": now},
    }  # fmt: skip
    try:
        with engine.begin() as connection:
            for table, row in rows.items():
                columns = ", ".join(row)
                values = ", ".join(f":{c}" for c in row)
                connection.execute(text(f"INSERT INTO {table} ({columns}) VALUES ({values})"), row)
        upgrade(fresh_url)
        upgrade(fresh_url)
        with engine.connect() as connection:
            for table in rows:
                assert connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one() == 1, table
            run = connection.execute(
                text(
                    "SELECT query, feedback, self_evaluation_version, self_evaluation, lease_owner, "
                    "lease_expires_at FROM diagnosis_run"
                )
            ).one()
            assert run[0] == "PAY-5003 是什么"
            assert run[1] == "useful"
            assert run[2] == 0
            stored = run[3] if isinstance(run[3], dict) else json.loads(run[3])
            assert stored["evidence_score"] == 65
            assert (run[4], run[5]) == (None, None)  # a row from before leases has none
            conversation = connection.execute(
                text("SELECT state_version, state_json FROM conversation")
            ).one()
            assert conversation[0] == 0
            assert conversation[1] is None
        assert current_revision(engine) == "0005"
    finally:
        engine.dispose()


@pytest.mark.slow
def test_tables_created_without_alembic_are_adopted(fresh_url: str) -> None:
    engine = create_engine(fresh_url)
    try:
        Base.metadata.create_all(engine)
        upgrade(fresh_url)
        assert current_revision(engine) == "0005"
    finally:
        engine.dispose()


def test_an_unreachable_server_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="database error while migrating"):
        open_store("postgresql+psycopg://postgres@127.0.0.1:1/none", connect_args={"connect_timeout": 2})

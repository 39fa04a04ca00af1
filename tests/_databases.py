"""Real database backends for store tests (a helper module, not a conftest).

Each call of `database_url` creates a uniquely named database on the server (or a SQLite file in a
temporary directory) and drops it afterwards, so tests can run repeatedly and never collide.
An unreachable server skips its tests, unless `GROUNDGATE_REQUIRE_DB_SERVERS=1` (read at import,
before the autouse fixture clears `GROUNDGATE_*`), in which case they fail with a clear message.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from groundgate.contracts.enums import (
    DecisionStatus,
    FactCategory,
    OutputKind,
    RetrievalLayer,
    ToolStatus,
    Verdict,
)
from groundgate.contracts.run import AgentStep, RunResult
from groundgate.contracts.tools import EvidenceRef, ToolResult
from groundgate.contracts.verification import ClaimCheck, VerifierEvaluation

REQUIRE_SERVERS = os.environ.get("GROUNDGATE_REQUIRE_DB_SERVERS") == "1"
SERVER_URLS = {
    "postgresql": os.environ.get(
        "GROUNDGATE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    ),
    "mariadb": os.environ.get("GROUNDGATE_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test"),
}
BACKENDS = ("sqlite", "postgresql", "mariadb")
CONNECT_TIMEOUT_S = 3


def _unavailable(backend: str, url: str, exc: Exception) -> None:
    message = (
        f"{backend} server at {make_url(url).render_as_string(hide_password=True)} is unreachable: {exc}"
    )
    if REQUIRE_SERVERS:
        pytest.fail(f"GROUNDGATE_REQUIRE_DB_SERVERS=1 but {message}", pytrace=False)
    pytest.skip(message)


def database_url(backend: str, tmp_dir: Path) -> Iterator[str]:
    """Yield the URL of a fresh, empty database on `backend`; drop it afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_dir / f'gg_{uuid.uuid4().hex[:10]}.sqlite'}"
        return
    admin_url = SERVER_URLS[backend]
    name = f"gg_test_{uuid.uuid4().hex[:12]}"
    connect_args = {"connect_timeout": CONNECT_TIMEOUT_S}
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args=connect_args)
    try:
        with admin.connect() as connection:
            if backend == "postgresql":
                connection.execute(text(f'CREATE DATABASE "{name}"'))
            else:
                connection.execute(
                    text(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
                )
    except SQLAlchemyError as exc:
        admin.dispose()
        _unavailable(backend, admin_url, exc)
    url = make_url(admin_url).set(database=name)
    if backend == "mariadb":
        url = url.update_query_dict({"charset": "utf8mb4"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            if backend == "postgresql":
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            else:
                connection.execute(text(f"DROP DATABASE IF EXISTS `{name}`"))
        admin.dispose()


def make_run_result(
    *,
    session_id: str | None = None,
    run_id: str | None = None,
    question: str = "支付网关 PAY-5003 是什么原因？",
    answer: str = "PAY-5003 表示 payment-db-proxy 连接池耗尽。",
    status: str = "SUCCEEDED",
    tool_results: list[ToolResult] | None = None,
    verifier: VerifierEvaluation | None = None,
) -> RunResult:
    """A small but complete `RunResult` (one knowledge call with an L0 hit unless told otherwise)."""
    run_id = run_id or f"run-{uuid.uuid4().hex[:12]}"
    if tool_results is None:
        tool_results = [
            ToolResult(
                invocation_id=f"inv-{uuid.uuid4().hex[:12]}",
                tool="lookup_knowledge",
                status=ToolStatus.OK,
                run_id=run_id,
                arguments={"query": "PAY-5003"},
                observation="2 chunks",
                retrieval_layers=[RetrievalLayer.L0],
                evidence_refs=[
                    EvidenceRef(invocation_id="x", citation_id="doc#1", start=0, end=8, excerpt="PAY-5003")
                ],
                latency_ms=3.5,
            )
        ]
    return RunResult(
        run_id=run_id,
        session_id=session_id or f"sess-{uuid.uuid4().hex[:12]}",
        question=question,
        status=status,
        output_kind=OutputKind.NORMAL,
        verdict=Verdict.PASS if verifier else None,
        decision_status=DecisionStatus.ANSWERED,
        answer=answer,
        steps=[
            AgentStep(
                role="planner", round=1, thought="lookup PAY-5003", reason_code="plan_ok", input_tokens=10
            ),
            AgentStep(role="verifier", round=1, thought="1 claim derivable", reason_code="verdict_pass"),
        ],
        tool_results=tool_results,
        verifier_evaluation=verifier,
        elapsed_ms=42.0,
        input_tokens=100,
        output_tokens=20,
    )


def verified(*claims: tuple[str, bool]) -> VerifierEvaluation:
    """A verifier evaluation whose `claim_checks` hold (text, derivable) pairs."""
    return VerifierEvaluation(
        verdict=Verdict.PASS,
        groundedness_score=0.9,
        critical_fact_count=len(claims),
        claim_checks=[
            ClaimCheck(
                claim_id=f"c{i}", claim_text=text_, category=FactCategory.DIRECT_EVIDENCE, derivable=derivable
            )
            for i, (text_, derivable) in enumerate(claims)
        ],
    )

"""Case library (docs/design.md §6, `CaseLibraryService.createFromRun`).

A `useful` run becomes a case once (unique on `diagnosisId`), and only a run that `SUCCEEDED`: a
`RUNNING` or `FAILED` run has no verified answer to keep, so its case would be empty. `faultCategory`, `errorCodes` and
`service` are extracted from the run's verified claims (derivable `claim_checks` and supported
`facts_checked` of `verifier_evaluation`), not from unverified answer text; without verified
claims the category stays `GENERAL`.

The library follows the latest feedback: a run rated `useful`, then `not_useful`, leaves it again
(`withdraw_case`), so a case never rests on an answer its user has since rejected.

`list_cases` reads the library tenant-scoped, with the rule of `groundgate.apps.runs`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from groundgate.apps.runs import check_limit, tenant_session_ids
from groundgate.errors import InvalidInputError
from groundgate.evaluation.self_evaluation import load_container
from groundgate.store import Store
from groundgate.store.repositories import find_case, get_run, get_session_row, insert_case_once
from groundgate.store.tables import CaseLibrary, DiagnosisRun

__all__ = [
    # reading
    "CaseRecord",
    "list_cases",
    # writing (feedback)
    "create_case_from_legacy_session",
    "create_case_from_run",
    "withdraw_case",
    # extraction
    "extract_case_facts",
    "verified_claim_texts",
]

TITLE_CHARS = 100
# PAY-4009 style, symbolic ERR_TIMEOUT / ERROR_POOL_EXHAUSTED style, HTTP 504 / SQLSTATE 40001.
ERROR_CODE = re.compile(
    r"\b[A-Z]{2,8}-\d{3,5}\b|\bERR(?:OR)?_[A-Z0-9]+(?:_[A-Z0-9]+)*\b|\b(?:HTTP|SQLSTATE)\s?\d{3,5}\b"
)
SERVICE = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|gateway|proxy|api|worker|db)\b")
SUPPORTED = frozenset({"direct_evidence", "indirect_support"})
CATEGORY_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "DATABASE",
        ("数据库", "连接池", "database", "connection pool", "db-proxy", "deadlock", "慢查询", "sql"),
    ),
    ("RATE_LIMIT", ("限流", "rate limit", "rate-limit", "429", "throttl")),
    ("TIMEOUT", ("超时", "timeout", "timed out")),
    ("DEPLOYMENT", ("发布", "回滚", "deploy", "rollback", "release")),
    ("CONFIGURATION", ("配置", "证书", "密钥", "config", "certificate", "key rotation")),
    ("MESSAGING", ("kafka", "消费积压", "consumer lag", "队列", "queue")),
    ("CACHE", ("redis", "缓存", "cache")),
    ("CALLBACK", ("回调", "callback")),
    ("NETWORK", ("网络", "dns", "network", "connection refused")),
)


class CaseRecord(BaseModel):
    """A case as the API shows it (docs/design.md §6 field names, plus `errorCodes` and `service`)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    case_id: str
    diagnosis_id: str
    source_type: str = "AUTO"
    fault_category: str = "GENERAL"
    title: str
    root_cause: str
    solution: str
    error_codes: list[str] = []
    service: str | None = None
    created_by: str = "system"

    @classmethod
    def from_row(cls, row: CaseLibrary) -> CaseRecord:
        return cls(
            case_id=row.case_id,
            diagnosis_id=row.diagnosis_id,
            source_type=row.source_type,
            fault_category=row.fault_category,
            title=row.title,
            root_cause=row.root_cause,
            solution=row.solution,
            error_codes=list(row.error_codes or []),
            service=row.service,
            created_by=row.created_by,
        )


def verified_claim_texts(container: dict[str, Any]) -> list[str]:
    """Texts the verifier accepted: derivable `claim_checks` and supported key `facts_checked`."""
    verifier = container.get("verifier_evaluation")
    if not isinstance(verifier, dict):
        return []
    texts: list[str] = []
    for check in verifier.get("claim_checks") or []:
        if isinstance(check, dict) and check.get("derivable") and check.get("claim_text"):
            texts.append(str(check["claim_text"]))
    for fact in verifier.get("facts_checked") or []:
        if isinstance(fact, dict) and fact.get("category") in SUPPORTED and fact.get("fact"):
            texts.append(str(fact["fact"]))
    return list(dict.fromkeys(texts))


def extract_case_facts(texts: Iterable[str]) -> tuple[str, list[str], str | None]:
    """(faultCategory, errorCodes, service) from verified claim texts."""
    corpus = list(texts)
    codes = list(dict.fromkeys(m.group(0) for text in corpus for m in ERROR_CODE.finditer(text)))
    services = [m.group(0) for text in corpus for m in SERVICE.finditer(text)]
    service = max(set(services), key=lambda s: (services.count(s), -services.index(s))) if services else None
    lowered = " ".join(corpus).lower()
    category = next(
        (name for name, words in CATEGORY_KEYWORDS if any(word in lowered for word in words)),
        "GENERAL",
    )
    return category, codes, service


def create_case_from_run(run_id: str, *, session: Session) -> tuple[CaseRecord, bool]:
    """Create or return the case of `run_id` (idempotent). Returns (case, created).

    A run that did not succeed raises `InvalidInputError` (nothing is created)."""
    run = get_run(run_id, session=session)
    if run.status != "SUCCEEDED":
        raise InvalidInputError(f"run {run_id!r} is {run.status}: only a run that succeeded becomes a case")
    try:
        container = load_container(run.self_evaluation, what=f"run {run_id} self_evaluation")
    except InvalidInputError:
        container = {}
    category, codes, service = extract_case_facts(verified_claim_texts(container))
    case, created = insert_case_once(
        {
            "diagnosis_id": run.run_id,
            "source_type": "AUTO",
            "fault_category": category,
            "title": run.query[:TITLE_CHARS],
            "root_cause": run.answer,
            "solution": run.answer,
            "error_codes": codes,
            "service": service,
            "created_by": "system",
        },
        session=session,
    )
    return CaseRecord.from_row(case), created


def create_case_from_legacy_session(session_id: str, *, session: Session) -> tuple[CaseRecord, bool]:
    """Legacy data without `diagnosis_run`: the case's `diagnosisId` is the session id."""
    row = get_session_row(session_id, session=session)
    case, created = insert_case_once(
        {
            "diagnosis_id": row.session_id,
            "source_type": "AUTO",
            "fault_category": "GENERAL",
            "title": (row.query or "")[:TITLE_CHARS],
            "root_cause": row.answer or "",
            "solution": row.answer or "",
            "error_codes": [],
            "service": None,
            "created_by": "system",
        },
        session=session,
    )
    return CaseRecord.from_row(case), created


def withdraw_case(diagnosis_id: str, *, session: Session) -> bool:
    """Remove the case of `diagnosis_id` (a run id, or a legacy session id); True when there was one."""
    case = find_case(diagnosis_id, session=session, lock=True)
    if case is None:
        return False
    session.delete(case)
    session.flush()
    return True


def list_cases(
    store: Store, *, tenant: str | None, limit: int = 50, include_untenanted: bool = False
) -> list[CaseRecord]:
    """The case library as `tenant` may see it (None: the operator, every tenant's), newest first.

    A case belongs to the tenant of the run it was distilled from (or, for a legacy case, of the
    session it names)."""
    check_limit(limit)
    stmt = select(CaseLibrary).order_by(CaseLibrary.id.desc()).limit(limit)
    if tenant is not None:
        sessions = tenant_session_ids(tenant, include_untenanted=include_untenanted)
        tenant_runs = select(DiagnosisRun.run_id).where(DiagnosisRun.session_id.in_(sessions))
        stmt = stmt.where(
            or_(CaseLibrary.diagnosis_id.in_(tenant_runs), CaseLibrary.diagnosis_id.in_(sessions))
        )
    with store.session() as session:
        return [CaseRecord.from_row(row) for row in session.scalars(stmt)]

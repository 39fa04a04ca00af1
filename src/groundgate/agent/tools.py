"""The agent's two whitelisted tools, registered in the shared `ToolRegistry` (seed "agent.tool").

| tool | arguments (nothing else) | returns | policy |
|---|---|---|---|
| `KNOWLEDGE_SEARCH` | `query`, `domain` | `DocumentEvidence` with candidate labels | `tenant` |
| `MY_CURRENT_TASKS` | `dateRange`, `startDate`, `endDate`, `status` | `VerifiedFact`s | `tenant` |

The argument models forbid every other key, so a date range never reaches a knowledge search and no
authorization field is ever an argument (invariant 9): tenant, user and project come from the
`ExecutionContext` the registry hands to the function. The registry re-validates each call right
before it runs, times it out and drops late results.

Where documents come from is a `DocumentSource`: `IndexDocumentSource` over the knowledge index
(tenant, effective date and project scope filtered inside the engine; domain = the top folder of
the document's path), or `StaticDocumentSource` for contract tests, which filters nothing so that the
evidence evaluator's own governance gate is what is tested. Candidate labels
(`supportedNeedCodes`/`claimTypes`) come from a `Labeler`; they are candidates only (invariant 8).
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Literal, Protocol

from pydantic import Field

from groundgate.agent.contracts import NEED_CLAIM_TYPE, AgentTool, NeedCode
from groundgate.agent.tasks_store import OPEN_STATUSES, TaskRow, TaskStore
from groundgate.contracts import (
    DocumentEvidence,
    EvidenceRef,
    ExecutionContext,
    ToolOutput,
    ToolSpec,
    ToolStatus,
    VerifiedFact,
)
from groundgate.knowledge import KnowledgeIndex, SearchFilter, SearchHit
from groundgate.tools.builtin.knowledge import best_excerpt, document_evidence
from groundgate.tools.registry import ToolArguments, ToolFunction, ToolRegistry

__all__ = [
    "COMPANY_SCOPE",
    "TASK_SOURCE_SYSTEM",
    "TASK_TTL_SECONDS",
    "DateRange",
    "DocumentSource",
    "IndexDocumentSource",
    "KnowledgeSearchArgs",
    "Labeler",
    "MyCurrentTasksArgs",
    "StaticDocumentSource",
    "TaskStatusArg",
    "TaskSource",
    "label_passage",
    "register_agent_tools",
    "resolve_dates",
    "with_labels",
    "document_evidence",
]

#: The scope of documents that apply to every project of a tenant.
COMPANY_SCOPE = "company"
TASK_SOURCE_SYSTEM = "hr-task-store"
#: How long a task fact may be trusted: a later turn re-reads it after this.
TASK_TTL_SECONDS = 600

DateRange = Literal["TODAY", "THIS_WEEK", "THIS_MONTH", "NEXT_7_DAYS", "LAST_MONTH"]
TaskStatusArg = Literal["PENDING", "IN_PROGRESS", "COMPLETED", "OPEN", "ALL"]


class KnowledgeSearchArgs(ToolArguments):
    """`KNOWLEDGE_SEARCH` accepts `query` and `domain` only (seed "有界执行与工具参数")."""

    query: str = Field(min_length=1, max_length=500, description="The policy question, in the user's words.")
    domain: str | None = Field(
        default=None, min_length=1, max_length=64, description="Business domain, e.g. reimbursement, leave."
    )


class MyCurrentTasksArgs(ToolArguments):
    """`MY_CURRENT_TASKS` accepts `dateRange`, `startDate`, `endDate` and `status` only."""

    # The seed's field names, camelCase as the HTTP contract spells them.
    dateRange: DateRange | None = None  # noqa: N815
    startDate: date | None = None  # noqa: N815
    endDate: date | None = None  # noqa: N815
    status: TaskStatusArg | None = None


# --------------------------------------------------------------------------- labels


class Labeler(Protocol):
    """Proposes candidate need codes for a passage (a model, or `label_passage`)."""

    def __call__(self, text: str, kind: str | None) -> list[NeedCode]: ...


_LABEL_CUES: dict[NeedCode, re.Pattern[str]] = {
    NeedCode.AMOUNT_RULE: re.compile(r"元|标准|额度|上限|补贴|津贴|享有|\d+\s*天"),
    NeedCode.PROCESS_STEPS: re.compile(r"步骤|流程|第[一二三四五六七八九十\d]+步|提交|登录|发起"),
    NeedCode.MATERIALS: re.compile(r"材料|发票|附件|单据|证明|复印件"),
    NeedCode.APPROVAL: re.compile(r"审批|批准|审核|签字"),
    NeedCode.ELIGIBILITY: re.compile(r"适用|条件|资格|满\s*\d|试用期|仅限|可以申请|不得申请"),
}


def label_passage(text: str, kind: str | None = None) -> list[NeedCode]:
    """Loose candidate labels by cue words: deliberately generous, the evaluator is the strict one."""
    return [code for code, cue in _LABEL_CUES.items() if cue.search(text)]


def with_labels(doc: DocumentEvidence, labeler: Labeler = label_passage) -> DocumentEvidence:
    """The passage with the candidate labels `labeler` proposes for its text."""
    needs = labeler(doc.text, doc.kind)
    return doc.model_copy(
        update={
            "supported_need_codes": [n.value for n in needs],
            "claim_types": [NEED_CLAIM_TYPE[n] for n in needs],
        }
    )


# --------------------------------------------------------------------------- documents


class DocumentSource(Protocol):
    """Candidate passages for a query, read under `ctx`."""

    def search(self, query: str, domain: str | None, ctx: ExecutionContext) -> list[DocumentEvidence]: ...


class IndexDocumentSource:
    """Passages from the knowledge index, governance-filtered inside the engine.

    Tenant and effective date as `lookup_knowledge` does; project scope: a document scoped
    `company` applies to every project, any other scope only to that project (`ctx.project`).
    """

    def __init__(
        self,
        index: KnowledgeIndex,
        *,
        as_of: date | Callable[[], date] | None = None,
        limit: int = 6,
        labeler: Labeler = label_passage,
    ) -> None:
        self._index = index
        self._as_of = as_of
        self._limit = limit
        self._labeler = labeler

    def _today(self) -> date:
        if self._as_of is None:
            return datetime.now(UTC).date()
        return self._as_of() if callable(self._as_of) else self._as_of

    def search(self, query: str, domain: str | None, ctx: ExecutionContext) -> list[DocumentEvidence]:
        scopes = (COMPANY_SCOPE, ctx.project) if ctx.project else (COMPANY_SCOPE,)
        today = self._today()
        current = SearchFilter(tenant=ctx.tenant, as_of=today, scopes=scopes)
        out = self._evidence(self._index.search(query, filters=current, limit=self._limit * 2), domain)
        out = out[: self._limit]
        # Superseded versions come after, a few: a question placed in an earlier month or year is
        # asked of the rules then in force (docs/agent.md, "Subject words"), and the evidence
        # evaluator's governance gate judges every passage on the asked day — so an expired passage
        # never answers a question about now (it is listed as GOVERNANCE_EXPIRED), and the current
        # passages keep their places. The search takes no date: the tool's arguments stay
        # `query` and `domain`.
        anytime = SearchFilter(tenant=ctx.tenant, scopes=scopes)
        hits = self._index.search(query, filters=anytime, limit=self._limit * 2)
        expired = [
            h for h in hits if h.chunk.meta.effective_to is not None and h.chunk.meta.effective_to < today
        ]
        return out + self._evidence(expired, domain)[: max(1, self._limit // 2)]

    def _evidence(self, hits: Sequence[SearchHit], domain: str | None) -> list[DocumentEvidence]:
        out: list[DocumentEvidence] = []
        for hit in hits:
            chunk = hit.chunk
            if domain and chunk.meta.source.split("/", 1)[0].lower() != domain.lower():
                continue
            out.append(
                with_labels(
                    document_evidence(chunk, layer=hit.layer, score=round(hit.score, 4)), self._labeler
                )
            )
        return out


class StaticDocumentSource:
    """A fixed corpus ranked by shared query terms; filters nothing (contract tests).

    Passages keep the labels they were given (a test may mislabel one on purpose); unlabelled ones
    are labelled by `labeler`.
    """

    def __init__(
        self, documents: Sequence[DocumentEvidence], *, limit: int = 6, labeler: Labeler = label_passage
    ) -> None:
        self._documents = [d if d.supported_need_codes else with_labels(d, labeler) for d in documents]
        self._limit = limit

    def search(self, query: str, domain: str | None, ctx: ExecutionContext) -> list[DocumentEvidence]:
        from groundgate.text import tokenize

        terms = set(tokenize(query))
        scored: list[tuple[int, int, DocumentEvidence]] = []
        for position, doc in enumerate(self._documents):
            if domain and doc.source.split("/", 1)[0].lower() != domain.lower():
                continue
            shared = len(terms & set(tokenize(f"{doc.heading or ''} {doc.text}")))
            if shared:
                scored.append((shared, -position, doc))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [doc for _, _, doc in scored[: self._limit]]


def _knowledge_search(source: DocumentSource) -> ToolFunction[KnowledgeSearchArgs]:
    def run(args: KnowledgeSearchArgs, ctx: ExecutionContext) -> ToolOutput:
        documents = source.search(args.query, args.domain, ctx)
        if not documents:
            return ToolOutput(
                status=ToolStatus.EMPTY,
                gaps=[f"no document in effect matches {args.query!r}"],
                observation="0 passages",
            )
        refs: list[EvidenceRef] = []
        for doc in documents:
            span = best_excerpt(doc.text, args.query, avoid=doc.instruction_spans)
            refs.append(
                EvidenceRef(
                    invocation_id="",
                    citation_id=doc.citation_id,
                    start=span.start if span.text else None,
                    end=span.end if span.text else None,
                    excerpt=span.text or None,
                )
            )
        sources = list(dict.fromkeys(d.source for d in documents))
        return ToolOutput(
            status=ToolStatus.OK,
            documents=documents,
            observation=f"{len(documents)} passages from {len(sources)} documents",
            source_documents=sources,
            evidence_refs=refs,
        )

    return run


# --------------------------------------------------------------------------- tasks


class TaskSource(Protocol):
    def tasks(
        self,
        *,
        tenant: str,
        assignee: str,
        project: str | None,
        start: date | None = None,
        end: date | None = None,
        statuses: Sequence[str] = OPEN_STATUSES,
    ) -> list[TaskRow]: ...


def resolve_dates(args: MyCurrentTasksArgs, today: date) -> tuple[date | None, date | None]:
    """The due-date window of the arguments: an explicit start/end wins over `dateRange`."""
    if args.startDate or args.endDate:
        return args.startDate, args.endDate
    match args.dateRange:
        case "TODAY":
            return today, today
        case "THIS_WEEK":
            monday = today - timedelta(days=today.weekday())
            return monday, monday + timedelta(days=6)
        case "THIS_MONTH":
            first = today.replace(day=1)
            following = (first + timedelta(days=32)).replace(day=1)
            return first, following - timedelta(days=1)
        case "LAST_MONTH":
            last = today.replace(day=1) - timedelta(days=1)
            return last.replace(day=1), last
        case "NEXT_7_DAYS":
            return today, today + timedelta(days=7)
        case _:
            return None, None


def _statuses(status: str | None) -> tuple[str, ...]:
    if status in (None, "OPEN"):
        return OPEN_STATUSES
    if status == "ALL":
        return ()
    return (str(status),)


def snapshot(ctx: ExecutionContext) -> dict[str, str]:
    """The authorization a fact was read under (audit; compared on reuse, never sent to a model)."""
    pairs = {
        "tenant": ctx.tenant,
        "user": ctx.user,
        "project": ctx.project,
        "app": ctx.app,
        "space": ctx.space,
    }
    return {key: value for key, value in pairs.items() if value}


def task_fact_ref(ctx: ExecutionContext, task_key: str) -> str:
    """An opaque, unguessable ref; what it maps to is kept server-side (`agent.context`)."""
    digest = hashlib.sha256(f"{ctx.tenant}\x00{ctx.user}\x00{task_key}\x00{uuid.uuid4().hex}".encode())
    return "fact-" + digest.hexdigest()[:24]


def _my_current_tasks(source: TaskSource, clock: Callable[[], datetime]) -> ToolFunction[MyCurrentTasksArgs]:
    def run(args: MyCurrentTasksArgs, ctx: ExecutionContext) -> ToolOutput:
        if not ctx.user.strip():
            return ToolOutput(status=ToolStatus.DENIED, observation="denied: no principal")
        now = clock()
        start, end = resolve_dates(args, now.date())
        rows = source.tasks(
            tenant=ctx.tenant,
            assignee=ctx.user,
            project=ctx.project,
            start=start,
            end=end,
            statuses=_statuses(args.status),
        )
        if ctx.allowed_projects:
            # A caller limited to some projects never sees a task of another, project set or not.
            rows = [r for r in rows if r.project in ctx.allowed_projects]
        auth = snapshot(ctx)
        window = f"{start or '…'}~{end or '…'}"
        facts = [
            VerifiedFact(
                fact_ref=task_fact_ref(ctx, "count"),
                fact_type="task.count",
                value={"count": len(rows), "window": window, "status": args.status or "OPEN"},
                source_system=TASK_SOURCE_SYSTEM,
                queried_at=now,
                ttl_seconds=TASK_TTL_SECONDS,
                scope=ctx.project,
                authorization_snapshot=auth,
            )
        ]
        for row in rows:
            facts.append(
                VerifiedFact(
                    fact_ref=task_fact_ref(ctx, row.task_key),
                    fact_type="task",
                    value={
                        "taskKey": row.task_key,
                        "title": row.title,
                        "status": row.status,
                        "dueDate": row.due_date.isoformat() if row.due_date else None,
                        "category": row.category,
                    },
                    source_system=TASK_SOURCE_SYSTEM,
                    queried_at=now,
                    ttl_seconds=TASK_TTL_SECONDS,
                    scope=row.project,
                    authorization_snapshot=auth,
                )
            )
        return ToolOutput(status=ToolStatus.OK, facts=facts, observation=f"{len(rows)} tasks ({window})")

    return run


# --------------------------------------------------------------------------- registration


def register_agent_tools(
    registry: ToolRegistry,
    *,
    documents: DocumentSource,
    tasks: TaskSource | TaskStore,
    clock: Callable[[], datetime] | None = None,
    knowledge_timeout: float = 5.0,
    tasks_timeout: float = 5.0,
) -> None:
    """Register `KNOWLEDGE_SEARCH` and `MY_CURRENT_TASKS` in `registry`."""
    now = clock or (lambda: datetime.now(UTC))
    registry.register(
        ToolSpec(
            name=AgentTool.KNOWLEDGE_SEARCH.value,
            description="Search the governed HR policy documents in effect. Arguments: query, domain.",
            argument_model=KnowledgeSearchArgs,
            authorization_policy="tenant",
            timeout_seconds=knowledge_timeout,
        ),
        _knowledge_search(documents),
    )
    registry.register(
        ToolSpec(
            name=AgentTool.MY_CURRENT_TASKS.value,
            description="The asking user's own current tasks. Arguments: dateRange, startDate, endDate, status.",
            argument_model=MyCurrentTasksArgs,
            authorization_policy="tenant",
            timeout_seconds=tasks_timeout,
        ),
        _my_current_tasks(tasks, now),
    )

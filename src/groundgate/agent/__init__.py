"""The constrained business agent (seed 003): authorization-safe plans, evidence slots, bounded runs.

An HR employee asks, in Chinese (or English), about policies (reimbursement amounts, leave, approvals, materials)
and their own live tasks. The modules follow the seed's boundaries:

- `contracts` — `ResolvedContext`, `SemanticQueryPlan`, `EvidenceSlot`, `DecisionResult`,
  `GroundedAnswer` (and the shared `ExecutionContext`, `ToolCall`, `ToolResult`, `DocumentEvidence`,
  `VerifiedFact` re-exported);
- `context` — the question against the conversation state: follow-ups, "第二个任务", corrections;
- `english` — a question written in English, read in the documents' Chinese words first;
- `planning` — a model or offline rules propose, deterministic validation decides (`holders`: whose
  tasks a question asks; someone else's are never answered);
- `tools` — `KNOWLEDGE_SEARCH` and `MY_CURRENT_TASKS` in the shared `ToolRegistry`;
- `tasks_store` — the per-user task table those tasks are read from;
- `evidence` — governance ∩ candidate labels ∩ text, slot by slot, conflicts;
- `runtime` — first execution, one follow-up, a third round that only clarifies or ends;
- `answer` — grounded composition and claim/reference validation;
- `sessions` — the conversation state in the run store's `conversation` table, the reply's JSON;
- `recording` — each decision persisted like a chat run (mode `agent`);
- `vocabulary` — the HR domain words (subjects and follow-ups by substring, not by token).

```python
registry = ToolRegistry()
register_agent_tools(registry, documents=IndexDocumentSource(index), tasks=TaskStore(engine))
agent = AgentRuntime(registry)                     # planner_model=…, composer_model=… optional
result = agent.run("一线城市出差住宿标准是多少？", ExecutionContext(tenant="hrdemo", user="u-li"))
result.status, result.answer.render()
```
"""

from __future__ import annotations

from groundgate.agent.answer import ComposerDraft, ModelComposer, compose_offline, validate_answer
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.contracts import (
    NEED_CLAIM_TYPE,
    ActionRecord,
    AgentTool,
    Citation,
    ContextRelation,
    DecisionResult,
    DecisionStatus,
    EvidenceAssessment,
    EvidenceNeed,
    EvidenceSlot,
    FactRefRecord,
    GroundedAnswer,
    GroundedStatement,
    GroundedStep,
    Intent,
    NeedCode,
    PlanSource,
    ReasonCode,
    RejectedCandidate,
    ResolvedContext,
    SemanticQueryPlan,
    SlotStatus,
)
from groundgate.agent.evidence import EvidenceEvaluator, governance_reason, supporting_sentences
from groundgate.agent.planning import (
    ModelPlanner,
    PlannerDraft,
    SemanticPlanner,
    authorization_findings,
    propose_by_rules,
    validate_draft,
)
from groundgate.agent.recording import record_decision, run_in_shadow, run_result_of
from groundgate.agent.runtime import AgentBudgets, AgentRuntime
from groundgate.agent.sessions import SessionStore, StoreSessionStore, ask_in_session, decision_payload
from groundgate.agent.tasks_store import TaskRow, TaskStore
from groundgate.agent.tools import (
    IndexDocumentSource,
    KnowledgeSearchArgs,
    MyCurrentTasksArgs,
    StaticDocumentSource,
    label_passage,
    register_agent_tools,
)

__all__ = [
    # contracts and codes
    "ActionRecord",
    "AgentTool",
    "Citation",
    "ContextRelation",
    "DecisionResult",
    "DecisionStatus",
    "EvidenceAssessment",
    "EvidenceNeed",
    "EvidenceSlot",
    "FactRefRecord",
    "GroundedAnswer",
    "GroundedStatement",
    "GroundedStep",
    "Intent",
    "NEED_CLAIM_TYPE",
    "NeedCode",
    "PlanSource",
    "ReasonCode",
    "RejectedCandidate",
    "ResolvedContext",
    "SemanticQueryPlan",
    "SlotStatus",
    # context
    "ConversationState",
    "resolve_context",
    # planning
    "ModelPlanner",
    "PlannerDraft",
    "SemanticPlanner",
    "authorization_findings",
    "propose_by_rules",
    "validate_draft",
    # tools and the task store
    "IndexDocumentSource",
    "KnowledgeSearchArgs",
    "MyCurrentTasksArgs",
    "StaticDocumentSource",
    "TaskRow",
    "TaskStore",
    "label_passage",
    "register_agent_tools",
    # evidence
    "EvidenceEvaluator",
    "governance_reason",
    "supporting_sentences",
    # runtime and answer
    "AgentBudgets",
    "AgentRuntime",
    "ComposerDraft",
    "ModelComposer",
    "compose_offline",
    "validate_answer",
    # conversations and replies
    "SessionStore",
    "StoreSessionStore",
    "ask_in_session",
    "decision_payload",
    "record_decision",
    "run_in_shadow",
    "run_result_of",
]

"""Grounded composition and claim validation; the bounded runtime's budgets and its trace."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from groundgate.agent import (
    AgentBudgets,
    AgentRuntime,
    ComposerDraft,
    DecisionStatus,
    EvidenceAssessment,
    EvidenceNeed,
    EvidenceSlot,
    NeedCode,
    ReasonCode,
    SlotStatus,
    StaticDocumentSource,
    TaskStore,
    register_agent_tools,
    validate_answer,
)
from groundgate.contracts import DocumentEvidence
from groundgate.demo.hr import DEMO_NOW, demo_context, demo_documents, load_tasks
from groundgate.tools.registry import ToolRegistry

LODGING = "一线城市出差住宿费每晚不超过 600 元；二线城市出差住宿费每晚不超过 450 元。"
MATERIALS = "报销时需提供住宿发票、酒店水单和出差审批单。"


def _assessment() -> EvidenceAssessment:
    docs = {
        "a#0": DocumentEvidence(citation_id="a#0", source="a.md", text=LODGING, kind="policy"),
        "m#0": DocumentEvidence(citation_id="m#0", source="m.md", text=MATERIALS, kind="policy"),
    }
    return EvidenceAssessment(
        slots=[
            EvidenceSlot(
                need=EvidenceNeed(code=NeedCode.AMOUNT_RULE, label="金额"),
                status=SlotStatus.COVERED,
                citations=["a#0"],
            ),
            EvidenceSlot(
                need=EvidenceNeed(code=NeedCode.MATERIALS, label="材料"),
                status=SlotStatus.COVERED,
                citations=["m#0"],
            ),
            EvidenceSlot(
                need=EvidenceNeed(code=NeedCode.PROCESS_STEPS, label="步骤"), status=SlotStatus.MISSING
            ),
        ],
        documents=docs,
    )


STATEMENTS = [
    ({"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 600 元。", "citations": ["a#0"]}, None),
    (
        {"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 800 元。", "citations": ["a#0"]},
        ReasonCode.NUMBER_INCONSISTENT,
    ),
    (
        {"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 600 元。", "citations": ["m#0"]},
        ReasonCode.CITATION_NOT_GATED,
    ),
    (
        {"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 600 元。", "citations": ["zz#9"]},
        ReasonCode.CITATION_NOT_GATED,
    ),
    (
        {"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 600 元。", "citations": []},
        ReasonCode.CITATION_NOT_GATED,
    ),
    (
        {"need": "PROCESS_STEPS", "text": "在费控系统提交报销单。", "citations": ["a#0"]},
        ReasonCode.STATEMENT_UNCOVERED_SLOT,
    ),
    (
        {
            "need": "MATERIALS",
            "text": "报销时还需提供部门经理签字的情况说明和机票原件。",
            "citations": ["m#0"],
        },
        ReasonCode.STATEMENT_NOT_ENTAILED,
    ),
    ({"need": "MATERIALS", "text": "报销时需提供住宿发票和酒店水单。", "citations": ["m#0"]}, None),
]


@pytest.mark.parametrize(
    ("statement", "reason"), STATEMENTS, ids=[s[0]["text"][:14] + str(s[1]) for s in STATEMENTS]
)
def test_a_statement_stands_only_on_its_own_slots_gated_text(
    statement: dict[str, Any], reason: ReasonCode | None
) -> None:
    # seed L147 "最终逐 claim 校验正文蕴含、数字一致性和引用 ID 属于本轮通过门禁的证据"; L152 "PARTIAL
    # 只输出已覆盖槽位，缺失步骤不得由最终模型补齐"
    draft = ComposerDraft.model_validate({"statements": [statement]})
    answer, dropped = validate_answer(draft, _assessment(), "一线城市住宿标准和报销材料？")
    if reason is None:
        assert [s.text for s in answer.statements] == [statement["text"]]
        assert dropped == []
    else:
        assert answer.statements == []
        assert [d.reason for d in dropped] == [reason]


def test_a_composer_summary_that_the_evidence_does_not_carry_is_dropped() -> None:
    draft = ComposerDraft.model_validate(
        {
            "summary": "公司报销非常宽松，住宿每晚 900 元以内都可以。",
            "statements": [
                {"need": "AMOUNT_RULE", "text": "一线城市出差住宿费每晚不超过 600 元。", "citations": ["a#0"]}
            ],
        }
    )
    answer, _ = validate_answer(draft, _assessment(), "住宿标准？")
    assert answer.summary == ""


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    with ToolRegistry() as reg:
        register_agent_tools(
            reg, documents=StaticDocumentSource(demo_documents()), tasks=tasks, clock=lambda: DEMO_NOW
        )
        yield reg


def test_the_call_budget_stops_further_calls(registry: ToolRegistry) -> None:
    # seed L167 "运行时设总工具调用数、候选数和耗时预算"
    agent = AgentRuntime(registry, clock=lambda: DEMO_NOW, budgets=AgentBudgets(max_tool_calls=1))
    result = agent.run("我有哪些待办？病假需要提供哪些材料？", demo_context())
    assert [a.reason for a in result.actions] == [
        ReasonCode.PLAN_OK,
        ReasonCode.BUDGET_EXHAUSTED,
        ReasonCode.NO_NEW_EVIDENCE_TARGET,  # the missing slot is live state: no document target
    ]
    assert result.status is DecisionStatus.PARTIAL


def test_at_most_two_evidence_rounds_run(registry: ToolRegistry) -> None:
    # seed L44 "初次执行加一次有明确证据目标的补查；第三轮只允许澄清或结束"
    agent = AgentRuntime(registry, clock=lambda: DEMO_NOW)
    for question in ("员工宠物补贴标准是多少？", "婚假需要提供什么材料？怎么申请？", "年假怎么申请？"):
        result = agent.run(question, demo_context())
        assert result.rounds <= 2
        assert {a.round for a in result.actions} <= {1, 2}


PRIVATE_REASONING_KEYS = ("thought", "thinking", "reasoning", "chain_of_thought", "rationale", "scratchpad")


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {str(k) for k in value} | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_a_decision_records_actions_observations_and_reason_codes_only(registry: ToolRegistry) -> None:
    # seed L50 "模型私有思维过程不保存、不展示；只记录结构化 action、observation 和 reason code"
    agent = AgentRuntime(registry, clock=lambda: DEMO_NOW)
    result = agent.run("我本周有哪些待办？差旅报销需要谁审批？", demo_context())
    keys = _keys(json.loads(result.model_dump_json()))
    assert not keys & set(PRIVATE_REASONING_KEYS)
    assert all(a.reason in ReasonCode for a in result.actions)


def test_the_answer_keeps_the_old_answer_and_citations_fields() -> None:
    # seed L95 "HTTP DTO 在兼容期保持 additive，旧客户端可继续读取 answer/citations/data"
    from groundgate.agent.sessions import decision_payload

    tasks = TaskStore.in_memory()
    load_tasks(tasks)
    with ToolRegistry() as reg:
        register_agent_tools(
            reg, documents=StaticDocumentSource(demo_documents()), tasks=tasks, clock=lambda: DEMO_NOW
        )
        result = AgentRuntime(reg, clock=lambda: DEMO_NOW).run("我有哪些待办？", demo_context())
    payload = decision_payload(result, session_id="s1")
    assert "共有 5 项待办" in payload["answer"]
    assert {"citationId", "evidenceType", "source", "excerpt"} <= set(payload["citations"][0])
    assert len(payload["data"]["tasks"]) == 5
    assert payload["decision"] == "ANSWERED"


class _SlowDocuments:
    """Finishes only once the test releases it: a fixed sleep can lose the race against the
    registry's 0.05 s wait when a busy machine deschedules the caller for longer than the sleep."""

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()

    def search(self, query: str, domain: str | None, ctx: Any) -> list[DocumentEvidence]:
        self.release.wait(10)
        return demo_documents()


def test_a_timed_out_search_is_a_timeout_and_its_late_result_is_dropped() -> None:
    # seed L167 "超时映射为受控 TIMEOUT，迟到结果丢弃，不无限重试，也不把失败详情交给答案模型"
    import time

    slow = _SlowDocuments()
    with ToolRegistry() as reg:
        register_agent_tools(
            reg,
            documents=slow,
            tasks=TaskStore.in_memory(),
            clock=lambda: DEMO_NOW,
            knowledge_timeout=0.05,
        )
        result = AgentRuntime(reg, clock=lambda: DEMO_NOW).run("病假需要提供哪些材料？", demo_context())
        slow.release.set()
        deadline = time.monotonic() + 3
        while reg.late_results_dropped < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reg.late_results_dropped == 2
    assert [a.reason for a in result.actions] == [ReasonCode.TIMEOUT, ReasonCode.TIMEOUT]
    assert result.status is DecisionStatus.NO_EVIDENCE
    assert not result.answer_model_called


TIERS = [
    "入职满 1 年不满 10 年的员工每年享有年休假 5 天；",
    "满 10 年不满 20 年的每年享有年休假 10 天；",
    "满 20 年的每年享有年休假 15 天。",
    "至少提前 3 个工作日提交申请。",
]
CITIES = [
    "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元；",
    "二线城市出差住宿费每晚不超过 450 元；",
    "其他城市出差住宿费每晚不超过 350 元。",
]


@pytest.mark.parametrize(
    ("sentences", "question", "stated"),
    [
        # a length of service in years and months is one length: the 10-20 year tier
        (TIERS, "我在公司 19 年零 11 个月了，今年年假有几天？", "满 10 年不满 20 年的每年享有年休假 10 天；"),
        # the tiers a question excludes are not its case; "其他城市" is
        (
            CITIES,
            "我们西部项目组去一二线以外的城市出差，住宿每晚能报多少？",
            "其他城市出差住宿费每晚不超过 350 元。",
        ),
        (CITIES, "去二线城市出差住宿每晚能报多少？", "二线城市出差住宿费每晚不超过 450 元；"),
    ],
)
def test_the_amount_stated_is_the_one_for_the_asked_case(
    sentences: list[str], question: str, stated: str
) -> None:
    from groundgate.agent.answer import _best

    assert _best(sentences, question) == [stated]

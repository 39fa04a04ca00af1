"""The evidence-gated pipeline end to end with scripted models and a real tool registry.

Each routing path of seed 000 and each DESIGN invariant 1-9 is exercised here; the tools are small
in-memory functions registered in the real `ToolRegistry` (the stores have their own tests).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ConfigDict

from groundgate.compose import EN, ZH_CN
from groundgate.contracts import (
    DecisionStatus,
    DocumentEvidence,
    ExecutionContext,
    OutputKind,
    ParseStatus,
    ToolKind,
    ToolOutput,
    ToolSpec,
    ToolStatus,
    Verdict,
)
from groundgate.models import ScriptedModel
from groundgate.runtime.budgets import Budgets
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.runtime.roles import ModelExecutor, ModelPlanner
from groundgate.tools.registry import ToolArguments, ToolRegistry
from groundgate.verify.offline_checker import OfflineChecker
from groundgate.verify.verifier import Verifier

CTX = ExecutionContext(tenant="acme", user="alice", roles=("sre",))

DOCS = {
    "errors": "ERR_TIMEOUT：支付网关在 3 秒内未收到下游银行通道响应时返回该错误码。",
    "pool": "当 payment-db 连接池使用率持续高于 95% 时，请求排队超过 3 秒即触发 ERR_TIMEOUT。处理方法：扩容 max_size 至 200。",
}
LOGS = "2026-03-14 14:05 payment-db-proxy ERROR pool exhausted active=100/100, acquire connection timeout"


class KnowledgeArgs(ToolArguments):
    query: str
    domain: str | None = None


class LogArgs(ToolArguments):
    keywords: list[str] | None = None
    start: str | None = None
    end: str | None = None


class NoArgs(ToolArguments):
    model_config = ConfigDict(extra="forbid")


class Calls:
    """Records what each tool was asked, and what context it ran under."""

    def __init__(self) -> None:
        self.knowledge: list[tuple[KnowledgeArgs, ExecutionContext]] = []
        self.logs: list[LogArgs] = []


def _doc(key: str) -> DocumentEvidence:
    return DocumentEvidence(citation_id=f"{key}#1", source=f"docs/{key}.md", text=DOCS[key])


@pytest.fixture
def calls() -> Calls:
    return Calls()


@pytest.fixture
def registry(calls: Calls) -> Iterator[ToolRegistry]:
    reg = ToolRegistry()

    def knowledge(args: KnowledgeArgs, ctx: ExecutionContext) -> ToolOutput:
        calls.knowledge.append((args, ctx))
        hits = [_doc(k) for k in DOCS if any(w in DOCS[k] for w in args.query.split())]
        if not hits:
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[args.query])
        return ToolOutput(
            documents=hits, observation=f"{len(hits)} chunks", source_documents=[h.source for h in hits]
        )

    def logs(args: LogArgs, ctx: ExecutionContext) -> ToolOutput:
        calls.logs.append(args)
        return ToolOutput(documents=[DocumentEvidence(citation_id="log#1", source="logs", text=LOGS)])

    def broken(args: NoArgs, ctx: ExecutionContext) -> ToolOutput:
        raise RuntimeError("backend down")

    release = threading.Event()

    def slow(args: NoArgs, ctx: ExecutionContext) -> ToolOutput:
        release.wait(2)
        return ToolOutput(
            documents=[DocumentEvidence(citation_id="late#1", source="late", text="late result")]
        )

    def clock(args: NoArgs, ctx: ExecutionContext) -> ToolOutput:
        return ToolOutput(observation="2026-03-14T15:00:00Z")

    reg.register(
        ToolSpec(name="lookup_knowledge", description="search docs", argument_model=KnowledgeArgs), knowledge
    )
    reg.register(ToolSpec(name="query_logs", description="search logs", argument_model=LogArgs), logs)
    reg.register(ToolSpec(name="broken_tool", description="always fails", argument_model=NoArgs), broken)
    reg.register(
        ToolSpec(name="slow_tool", description="too slow", argument_model=NoArgs, timeout_seconds=0.1), slow
    )
    reg.register(
        ToolSpec(
            name="get_current_datetime", description="clock", argument_model=NoArgs, kind=ToolKind.AUXILIARY
        ),
        clock,
    )
    yield reg
    release.set()
    reg.close()


def plan(*tool_args: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "intent": "t",
        "calls": [{"tool": t, "arguments": a} for t, a in tool_args],
        "evidence_targets": ["x"],
    }


def claim(cid: str, text: str, invocation: str, citation: str, excerpt: str) -> dict[str, Any]:
    return {
        "id": cid,
        "text": text,
        "critical": True,
        "evidence_refs": [{"invocation_id": invocation, "citation_id": citation, "excerpt": excerpt}],
    }


class InvocationFinder:
    """Scripted executors must cite real invocation ids, which exist only at run time."""

    def __init__(self) -> None:
        self.model = ScriptedModel(name="scripted")

    def executor_outputs(self, *builders: Any) -> None:
        for build in builders:
            self.model.add("executor", build)


def make(
    registry: ToolRegistry,
    model: ScriptedModel,
    *,
    budgets: Budgets | None = None,
    fallback: bool = False,
) -> Orchestrator:
    return Orchestrator(
        registry,
        planner=ModelPlanner(model),
        executor=ModelExecutor(model),
        verifier=Verifier(OfflineChecker()),
        fallback_planner=RulePlanner() if fallback else None,
        budgets=budgets,
    )


def cite_from_messages(messages: Any, citation: str) -> str:
    """Find the invocation id of a citation in the executor prompt (what a real model would copy)."""
    text = messages[-1].content
    for line in text.splitlines():
        if f"citation_id={citation} " in line:
            return str(line.split("invocation_id=")[1].split()[0])
    raise AssertionError(f"{citation} not offered to the executor")


def executor_fn(*claims_spec: tuple[str, str, str, str]) -> Any:
    """A scripted executor answer built from the prompt: (id, text, citation, excerpt)."""

    def build(messages: Any, output_type: Any, role: str) -> dict[str, Any]:
        out = [
            claim(cid, text, cite_from_messages(messages, cit), cit, exc)
            for cid, text, cit, exc in claims_spec
        ]
        return {"claims": out, "final_answer": " ".join(c[1] for c in claims_spec)}

    return build


def scripted(planner: list[Any], executor: list[Any], verifier: list[Any] | None = None) -> ScriptedModel:
    outputs: dict[str, list[Any]] = {"planner": planner, "executor": executor}
    if verifier:
        outputs["verifier"] = verifier
    return ScriptedModel(outputs, name="scripted")  # type: ignore[arg-type]


class _Func:
    """ScriptedModel takes one function for all roles; route by role to per-role queues."""

    def __init__(self, **queues: list[Any]) -> None:
        self.queues = {role: list(items) for role, items in queues.items()}

    def __call__(self, messages: Any, output_type: Any, role: str) -> Any:
        item = self.queues[role].pop(0)
        return item(messages, output_type, role) if callable(item) else item


def model_of(**queues: list[Any]) -> ScriptedModel:
    return ScriptedModel(function=_Func(**queues), name="scripted")


# --------------------------------------------------------------------------- routing paths


def test_pass_gives_normal_with_only_allowed_claims_and_citations(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            executor_fn(
                (
                    "c1",
                    "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。",
                    "errors#1",
                    DOCS["errors"][:30],
                ),
            )
        ],
    )
    result = make(registry, model).run("ERR_TIMEOUT 是什么意思？", CTX)
    assert result.output_kind is OutputKind.NORMAL
    assert result.verdict is Verdict.PASS
    assert result.decision_status is DecisionStatus.ANSWERED
    assert result.rounds == 1
    assert "[1]" in result.answer
    assert result.citations[0].citation_id == "errors#1"
    assert result.verifier_evaluation is not None
    assert result.verifier_evaluation.composer_output is not None


def test_low_confid_above_threshold_gives_a_disclaimer_with_only_the_verified_claims(
    registry: ToolRegistry,
) -> None:
    unproven = "该错误在上周导致了大规模客诉。"
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            executor_fn(
                (
                    "c1",
                    "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。",
                    "errors#1",
                    DOCS["errors"][:30],
                ),
                ("c2", unproven, "errors#1", DOCS["errors"][:30]),
            )
        ],
    )
    result = make(registry, model).run("ERR_TIMEOUT 是什么意思？", CTX)
    assert result.verdict is Verdict.LOW_CONFID
    assert result.groundedness_score >= 0.5
    assert result.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER
    assert result.answer.startswith(ZH_CN.disclaimer)
    assert "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。[1]" in result.answer
    assert "上周" not in result.answer  # an unverified claim never reaches the user, not even as a gap
    assert ZH_CN.gaps_heading in result.answer
    assert result.gaps == ["1 条关键陈述缺少证据，已略去"]
    assert all(gap in result.answer for gap in result.gaps)
    assert [c.citation_id for c in result.citations] == ["errors#1"]
    assert result.rounds == 1


def test_low_confid_below_threshold_runs_a_second_round_for_the_missing_evidence(
    registry: ToolRegistry, calls: Calls
) -> None:
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"})),
            plan(
                (
                    "query_logs",
                    {"keywords": ["pool"], "start": "2026-03-14T13:35:00Z", "end": "2026-03-14T14:35:00Z"},
                )
            ),
        ],
        executor=[
            executor_fn(("c1", "14:05 的超时是连接池耗尽造成的。", "errors#1", DOCS["errors"][:20])),
            executor_fn(
                (
                    "c1",
                    "2026-03-14 14:05 payment-db-proxy 报 pool exhausted active=100/100。",
                    "log#1",
                    "2026-03-14 14:05 payment-db-proxy ERROR pool exhausted active=100/100",
                ),
                (
                    "c2",
                    "ERR_TIMEOUT 是支付网关在 3 秒内未收到银行通道响应时返回的错误码。",
                    "errors#1",
                    DOCS["errors"][:30],
                ),
            ),
        ],
    )
    result = make(registry, model).run("3月14日 14:05 的 ERR_TIMEOUT 根因是什么？", CTX)
    assert result.rounds == 2
    assert result.retry_context is not None
    assert result.retry_context.round == 1
    assert result.retry_context.missing_evidence_facts
    assert result.retry_context.instruction == "仅补充以上断言相关证据，不要重复已完成检索"
    planner_requests = model.requests_for("planner")
    second = json.loads(planner_requests[1].messages[-1].content)
    assert second["retry_context"]["missing_evidence_facts"] == result.retry_context.missing_evidence_facts
    assert second["calls_already_made"][0]["tool"] == "lookup_knowledge"
    assert len(calls.logs) == 1
    assert result.verdict is Verdict.PASS
    assert result.output_kind is OutputKind.NORMAL


def test_reject_degrades_at_once_without_the_executor_answer(registry: ToolRegistry) -> None:
    wrong = "ERR_TIMEOUT 表示支付网关 5 秒内未收到银行通道响应。"
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[executor_fn(("c1", wrong, "errors#1", DOCS["errors"][:30]))],
    )
    result = make(registry, model).run("ERR_TIMEOUT 是什么意思？", CTX)
    assert result.verdict is Verdict.REJECT
    assert result.output_kind is OutputKind.DEGRADED
    assert result.decision_status is DecisionStatus.NO_EVIDENCE  # a wrong answer, not conflicting sources
    assert result.rounds == 1  # REJECT never gets a second round
    assert wrong not in result.answer
    assert result.answer.startswith(ZH_CN.degraded_intro)
    for heading in (ZH_CN.confirmed_heading, ZH_CN.degraded_gaps_heading, ZH_CN.next_steps_heading):
        assert heading in result.answer


DEFINITION = (
    "c1",
    "ERR_TIMEOUT 是支付网关在 3 秒内未收到银行通道响应时返回的错误码。",
    "errors#1",
    DOCS["errors"][:30],
)
VAGUE = ("c2", "14:05 的超时是连接池耗尽造成的。", "errors#1", DOCS["errors"][:20])


def test_still_low_confid_after_round_two_gives_disclaimer(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"})),
            plan(("query_logs", {"keywords": ["x"]})),
        ],
        executor=[executor_fn(DEFINITION, VAGUE), executor_fn(DEFINITION, VAGUE)],
    )
    result = make(registry, model).run("3月14日 14:05 的 ERR_TIMEOUT 根因是什么？", CTX)
    assert result.rounds == 2
    assert result.verdict is Verdict.LOW_CONFID
    assert result.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER
    assert result.stop_reason == "max_rounds"
    assert "连接池耗尽" not in result.answer
    assert "3月14日 14:05 ERR_TIMEOUT 原因" in result.gaps  # the unmet need, by its label


def test_a_retry_without_a_new_evidence_target_stops(registry: ToolRegistry, calls: Calls) -> None:
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"})),
            plan(("lookup_knowledge", {"query": " ERR_TIMEOUT "})),
        ],
        executor=[executor_fn(DEFINITION, VAGUE)],
    )
    result = make(registry, model).run("3月14日 14:05 的 ERR_TIMEOUT 根因是什么？", CTX)
    assert result.stop_reason == "no_new_evidence_target"
    assert len(calls.knowledge) == 1  # the same normalised call is never made twice
    assert len(model.requests_for("executor")) == 1
    assert result.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER


def test_nothing_verified_about_the_question_degrades_instead_of_a_disclaimer(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"})),
            plan(("lookup_knowledge", {"query": " ERR_TIMEOUT "})),
        ],
        executor=[executor_fn(VAGUE)],
    )
    result = make(registry, model).run("3月14日 14:05 的 ERR_TIMEOUT 根因是什么？", CTX)
    assert result.output_kind is OutputKind.DEGRADED
    assert result.decision_status is DecisionStatus.NO_EVIDENCE
    assert "连接池耗尽" not in result.answer


def test_zero_evidence_degrades_without_calling_the_answer_model(registry: ToolRegistry) -> None:
    model = model_of(planner=[plan(("lookup_knowledge", {"query": "nothing-matches-this"}))], executor=[])
    result = make(registry, model).run("What is ERR_NOPE?", CTX)
    assert result.output_kind is OutputKind.DEGRADED
    assert result.decision_status is DecisionStatus.NO_EVIDENCE
    assert result.verdict is None
    assert model.requests_for("executor") == []  # invariant 8
    assert result.answer.startswith(EN.degraded_intro)


# --------------------------------------------------------------------------- failures


@pytest.mark.slow
def test_tool_failure_and_timeout_are_recorded_and_the_late_result_dropped(registry: ToolRegistry) -> None:
    model = model_of(planner=[plan(("broken_tool", {}), ("slow_tool", {}))], executor=[])
    result = make(registry, model).run("anything?", CTX)
    statuses = {r.tool: r.status for r in result.tool_results}
    assert statuses == {"broken_tool": ToolStatus.ERROR, "slow_tool": ToolStatus.TIMEOUT}
    assert all("Traceback" not in (r.error or "") for r in result.tool_results)
    assert result.output_kind is OutputKind.DEGRADED
    time.sleep(0.05)
    assert all(r.documents == [] for r in result.tool_results)  # the late output never arrives
    assert "broken_tool" in result.answer  # next steps name the failing sources


@pytest.mark.parametrize(
    "bad", ["not json", '{"calls": "nope"}', '{"intent": 1, "calls": [], "evidence_targets": [], "x": 2}']
)
def test_malformed_planner_output_falls_back_to_rule_planner(registry: ToolRegistry, bad: str) -> None:
    model = model_of(
        planner=[bad],
        executor=[
            executor_fn(("c1", "ERR_TIMEOUT 是支付网关返回的错误码。", "errors#1", DOCS["errors"][:30]))
        ],
    )
    result = make(registry, model, fallback=True).run("ERR_TIMEOUT 是什么？", CTX)
    planner_steps = [s for s in result.steps if s.role == "planner"]
    assert planner_steps[0].parse_status in {ParseStatus.INVALID_JSON, ParseStatus.SCHEMA_MISMATCH}
    assert planner_steps[1].model_name == "offline-rules"
    assert result.tool_results
    assert result.tool_results[0].tool == "lookup_knowledge"


def test_malformed_planner_output_without_fallback_degrades(registry: ToolRegistry) -> None:
    model = model_of(planner=["{{{"], executor=[])
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    assert result.output_kind is OutputKind.DEGRADED
    assert result.stop_reason == "no_valid_plan"
    assert result.status == "SUCCEEDED"


def test_malformed_executor_output_claims_nothing(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))] * 2, executor=["oops", "oops"]
    )
    result = make(registry, model).run("ERR_TIMEOUT 是什么？", CTX)
    executor_steps = [s for s in result.steps if s.role == "executor"]
    assert executor_steps[0].parse_status is ParseStatus.INVALID_JSON
    assert result.verdict is Verdict.LOW_CONFID  # nothing claimed, nothing proven
    assert result.rounds == 2
    # With no answer at all there is nothing to put a disclaimer on.
    assert result.output_kind is OutputKind.DEGRADED
    assert result.decision_status is DecisionStatus.NO_EVIDENCE


def test_malformed_verifier_output_falls_back_to_offline_checker(registry: ToolRegistry) -> None:
    from groundgate.verify.judge import LLMJudge

    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            executor_fn(
                ("c1", "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。", "errors#1", DOCS["errors"][:30])
            )
        ],
        verifier=["<<not json>>"],
    )
    orchestrator = Orchestrator(
        registry,
        planner=ModelPlanner(model),
        executor=ModelExecutor(model),
        verifier=Verifier(LLMJudge(model, fallback=OfflineChecker(), role="verifier")),
    )
    result = orchestrator.run("ERR_TIMEOUT 是什么意思？", CTX)
    verifier_step = next(s for s in result.steps if s.role == "verifier")
    assert verifier_step.parse_status is ParseStatus.INVALID_JSON
    assert result.verdict is Verdict.PASS


# --------------------------------------------------------------------------- invariants


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "ERR_TIMEOUT", "tenantId": "globex"},
        {"query": "ERR_TIMEOUT", "domain": "payment", "user_id": "root"},
    ],
)
def test_invariant_1_a_plan_with_authorization_fields_is_discarded_whole(
    registry: ToolRegistry, calls: Calls, arguments: dict[str, Any]
) -> None:
    model = model_of(
        planner=[plan(("lookup_knowledge", arguments), ("query_logs", {"keywords": ["a"]}))], executor=[]
    )
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    assert calls.knowledge == []
    assert calls.logs == []  # the whole plan, not just the bad call
    assert result.steps[0].reason_code == "authorization_field_in_plan"


def test_invariant_1_execution_context_never_reaches_a_model(registry: ToolRegistry, calls: Calls) -> None:
    secret = ExecutionContext(tenant="tenant-secret-42", user="user-secret-7", project="proj-secret-9")
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[executor_fn(("c1", "ERR_TIMEOUT 是支付网关返回的。", "errors#1", DOCS["errors"][:30]))],
    )
    make(registry, model).run("ERR_TIMEOUT?", secret)
    sent = json.dumps([[m.content for m in r.messages] for r in model.requests], ensure_ascii=False)
    for value in ("tenant-secret-42", "user-secret-7", "proj-secret-9"):
        assert value not in sent
    assert calls.knowledge[0][1] == secret  # the tool got the server's context


def test_invariant_2_unregistered_tool_rejects_the_plan(registry: ToolRegistry, calls: Calls) -> None:
    model = model_of(planner=[plan(("lookup_knowledge", {"query": "a"}), ("drop_tables", {}))], executor=[])
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    assert result.steps[0].reason_code == "unknown_tool"
    assert calls.knowledge == []


def test_invariant_2_argument_in_the_wrong_tool_rejects_the_plan(
    registry: ToolRegistry, calls: Calls
) -> None:
    model = model_of(planner=[plan(("lookup_knowledge", {"query": "a", "start": "2026-03-01"}))], executor=[])
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    assert result.steps[0].reason_code == "invalid_arguments"
    assert calls.knowledge == []


def test_invariant_3_forged_citation_is_contradicted(registry: ToolRegistry) -> None:
    def forged(messages: Any, output_type: Any, role: str) -> dict[str, Any]:
        inv = cite_from_messages(messages, "errors#1")
        return {
            "claims": [
                claim("c1", "ERR_TIMEOUT 表示支付网关超时。", inv, "errors#1", "支付网关在 30 秒内未收到响应")
            ],
            "final_answer": "x",
        }

    model = model_of(planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))], executor=[forged])
    result = make(registry, model).run("ERR_TIMEOUT 是什么？", CTX)
    assert result.verdict is Verdict.REJECT
    fact = result.verifier_evaluation.facts_checked[0]  # type: ignore[union-attr]
    assert "gate:forged_evidence" in fact.reason_codes


def test_invariant_6_a_plan_that_changes_a_number_is_rejected(registry: ToolRegistry, calls: Calls) -> None:
    model = model_of(planner=[plan(("lookup_knowledge", {"query": "报销 不超过 500 元"}))], executor=[])
    result = make(registry, model).run("报销不超过5000元需要谁审批？", CTX)
    assert result.steps[0].reason_code == "constraint_changed"
    assert calls.knowledge == []


def test_invariant_7_budgets_bound_the_calls(registry: ToolRegistry, calls: Calls) -> None:
    model = model_of(
        planner=[plan(*[("lookup_knowledge", {"query": f"q{i}"}) for i in range(6)])],
        executor=[],
    )
    result = make(registry, model, budgets=Budgets(max_tool_calls=2)).run("ERR_TIMEOUT?", CTX)
    assert len(calls.knowledge) == 2
    assert result.stop_reason == "budget_tool_calls"


def test_invariant_9_steps_hold_structured_records_not_reasoning(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[executor_fn(("c1", "ERR_TIMEOUT 是支付网关返回的。", "errors#1", DOCS["errors"][:30]))],
    )
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    roles = [s.role for s in result.steps]
    assert roles == ["planner", "executor", "gatekeeper", "verifier", "composer"]
    for step in result.steps:
        assert len(step.thought) <= 300
        assert "reasoning" not in json.dumps(step.model_output or {})


def test_auxiliary_tools_never_enter_the_trace_summary(registry: ToolRegistry) -> None:
    model = model_of(
        planner=[plan(("get_current_datetime", {}), ("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[executor_fn(("c1", "ERR_TIMEOUT 是支付网关返回的。", "errors#1", DOCS["errors"][:30]))],
    )
    result = make(registry, model).run("ERR_TIMEOUT?", CTX)
    summary = result.verifier_evaluation.tool_trace_summary  # type: ignore[union-attr]
    assert [e.tool_name for e in summary] == ["lookup_knowledge"]
    assert summary[0].trace_ref == "T1"
    assert summary[0].source_invocation_ids == [
        r.invocation_id for r in result.tool_results if r.tool == "lookup_knowledge"
    ]


def test_offline_roles_answer_grounded(registry: ToolRegistry) -> None:
    orchestrator = Orchestrator(
        registry, planner=RulePlanner(), executor=ExtractiveExecutor(), verifier=Verifier(OfflineChecker())
    )
    result = orchestrator.run("ERR_TIMEOUT 是什么错误码？", CTX)
    assert result.tool_results[0].tool == "lookup_knowledge"
    assert result.verdict in {Verdict.PASS, Verdict.LOW_CONFID}
    assert result.executor_output is not None
    for c in result.executor_output.claims:
        assert any(c.text in doc for doc in DOCS.values())  # extraction never writes its own facts


def test_invariant_4_a_verifier_model_cannot_pass_a_changed_number(registry: ToolRegistry) -> None:
    from groundgate.verify.judge import LLMJudge

    says_direct = {
        "claims": [
            {
                "claim_index": 1,
                "key": True,
                "category": "direct_evidence",
                "passage": 1,
                "excerpt": DOCS["errors"][:30],
                "rationale": "looks fine",
            }
        ]
    }
    model = model_of(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            executor_fn(
                (
                    "c1",
                    "ERR_TIMEOUT 表示支付网关 30 秒内未收到银行通道响应。",
                    "errors#1",
                    DOCS["errors"][:30],
                )
            )
        ],
        verifier=[says_direct],
    )
    orchestrator = Orchestrator(
        registry,
        planner=ModelPlanner(model),
        executor=ModelExecutor(model),
        verifier=Verifier(LLMJudge(model, fallback=OfflineChecker(), role="verifier")),
    )
    result = orchestrator.run("ERR_TIMEOUT 是什么意思？", CTX)
    assert result.verdict is Verdict.REJECT
    assert result.groundedness_score == 0.0
    assert result.output_kind is OutputKind.DEGRADED


def test_a_passage_two_calls_found_is_stated_whichever_call_the_claim_cites() -> None:
    # The executor's candidates are ranked by relevance, so it sees (and cites) the first call for a
    # passage the second call found too; the answer must still state it with its citation instead of
    # degrading ("nothing verified") because a list kept in the tools' order holds the other call.
    reg = ToolRegistry()
    order = {"排队": ["pool", "errors"], "错误码": ["errors"]}

    def knowledge(args: KnowledgeArgs, ctx: ExecutionContext) -> ToolOutput:
        keys = next(v for k, v in order.items() if k in args.query)
        return ToolOutput(documents=[_doc(k) for k in keys], observation=f"{len(keys)} chunks")

    reg.register(
        ToolSpec(name="lookup_knowledge", description="search docs", argument_model=KnowledgeArgs), knowledge
    )
    text = "ERR_TIMEOUT 表示支付网关 3 秒内未收到银行通道响应。"
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "排队 超时"}), ("lookup_knowledge", {"query": "错误码 含义"}))
        ],
        executor=[executor_fn(("c1", text, "errors#1", DOCS["errors"][:30]))],
    )
    try:
        result = make(reg, model).run("支付网关返回的 ERR_TIMEOUT 是什么意思？", CTX)
    finally:
        reg.close()
    first_call = result.tool_results[0].invocation_id
    assert result.executor_output is not None
    assert result.executor_output.claims[0].evidence_refs[0].invocation_id == first_call
    assert result.output_kind is OutputKind.NORMAL, result.answer
    assert [c.citation_id for c in result.citations] == ["errors#1"]


def test_a_question_about_a_moment_looks_at_live_evidence_when_the_documents_have_nothing(
    registry: ToolRegistry, calls: Calls
) -> None:
    # Round 1 searches the documents and finds nothing qualified; the question names a day, so the
    # one follow-up round reads the logs of that day (a question about no moment ends after round 1).
    model = model_of(
        planner=[
            plan(("lookup_knowledge", {"query": "nothing-matches-this"})),
            plan(("query_logs", {"keywords": ["pool"], "start": "2026-03-14T00:00:00Z"})),
        ],
        executor=[executor_fn(("c1", LOGS, "log#1", LOGS[:30]))],
    )
    result = make(registry, model).run("What happened to payment-db-proxy on 2026-03-14?", CTX)
    assert result.rounds == 2
    assert [a.keywords for a in calls.logs] == [["pool"]]
    assert len(model.requests_for("executor")) == 1  # the log line qualified as evidence
    assert any(r.tool == "query_logs" and r.status is ToolStatus.OK for r in result.tool_results)


def test_a_question_about_no_moment_ends_after_a_round_that_found_nothing(registry: ToolRegistry) -> None:
    model = model_of(planner=[plan(("lookup_knowledge", {"query": "nothing-matches-this"}))], executor=[])
    result = make(registry, model).run("Which component returns ERR_NOPE?", CTX)
    assert result.rounds == 1
    assert len(model.requests_for("planner")) == 1
    assert result.output_kind is OutputKind.DEGRADED

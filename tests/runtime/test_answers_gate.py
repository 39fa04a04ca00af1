"""The gate made strict (issue 11): per-claim verification, absence claims, disclaimers that carry
only verified claims, need coverage next to the verdict, and the seed's verifier inputs.

Scripted models (or the offline roles) over small in-memory tools registered in the real
`ToolRegistry`; each test is a way a wrong answer used to come out green, or a seed rule the code
did not follow.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from groundgate.compose import ZH_CN
from groundgate.contracts import (
    DocumentEvidence,
    ExecutionContext,
    FactCategory,
    OutputKind,
    RunResult,
    ToolOutput,
    ToolSpec,
    ToolStatus,
    Verdict,
    VerifiedFact,
)
from groundgate.models import ScriptedModel
from groundgate.runtime.offline import ExtractiveExecutor, RulePlanner
from groundgate.runtime.orchestrator import Orchestrator
from groundgate.runtime.roles import ModelExecutor, ModelPlanner
from groundgate.tools.registry import ToolArguments, ToolRegistry
from groundgate.verify.judge import LLMJudge
from groundgate.verify.offline_checker import OfflineChecker
from groundgate.verify.verifier import Verifier

CTX = ExecutionContext(tenant="acme", user="alice", roles=("sre",))
NOW = datetime(2026, 3, 14, 15, 0, tzinfo=UTC)

DOCS = {
    "errors": "ERR_TIMEOUT：支付网关在 3 秒内未收到下游银行通道响应时返回该错误码。",
    "pool": "当 payment-db 连接池使用率持续高于 95% 时，请求排队超过 3 秒即触发 ERR_TIMEOUT。",
    "refund": "退款到账时间：借记卡一般 1 到 3 个工作日到账，信用卡一般 3 到 7 个工作日。",
    "slo": "Acme Pay keeps the payment gateway available for 99.95% of requests over 30 days.",
}
INFO_LINE = {
    "ts": "2026-03-14T14:00:00Z",
    "service": "payment-gateway",
    "level": "INFO",
    "message": "health check ok",
    "source": "payment-gateway.jsonl:1",
}


class KnowledgeArgs(ToolArguments):
    query: str


class LogArgs(ToolArguments):
    service: str | None = None
    level: str | None = None
    keywords: list[str] | None = None
    start: str | None = None
    end: str | None = None


def _doc(key: str) -> DocumentEvidence:
    return DocumentEvidence(citation_id=f"{key}#1", source=f"docs/{key}.md", text=DOCS[key])


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    reg = ToolRegistry()

    def knowledge(args: KnowledgeArgs, ctx: ExecutionContext) -> ToolOutput:
        # Whole words, and any two Chinese characters in a row: enough of a search for these documents.
        words = args.query.replace("？", " ").split()
        words += [
            args.query[i : i + 2] for i in range(len(args.query) - 1) if "\u4e00" <= args.query[i] <= "\u9fff"
        ]
        hits = [_doc(k) for k in DOCS if any(w in DOCS[k] for w in words)]
        if not hits:
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[args.query])
        return ToolOutput(documents=hits, source_documents=[h.source for h in hits])

    def logs(args: LogArgs, ctx: ExecutionContext) -> ToolOutput:
        if args.level == "ERROR":
            return ToolOutput(status=ToolStatus.EMPTY, gaps=["no ERROR lines"], observation="0 lines")
        fact = VerifiedFact(
            fact_ref="log:payment-gateway.jsonl:1",
            fact_type="log.line",
            value=INFO_LINE,
            source_system="log_store",
            queried_at=NOW,
        )
        return ToolOutput(facts=[fact], observation="1 line")

    def broken(args: LogArgs, ctx: ExecutionContext) -> ToolOutput:
        raise RuntimeError("metrics backend down")

    reg.register(
        ToolSpec(name="lookup_knowledge", description="docs", argument_model=KnowledgeArgs), knowledge
    )
    reg.register(ToolSpec(name="query_logs", description="logs", argument_model=LogArgs), logs)
    reg.register(ToolSpec(name="query_metrics", description="metrics", argument_model=LogArgs), broken)
    yield reg
    reg.close()


def plan(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"intent": "t", "calls": [{"tool": t, "arguments": a} for t, a in calls], "evidence_targets": []}


def invocation(messages: Any, citation: str) -> str:
    """The invocation id of `citation` as the executor prompt shows it (what a model would copy)."""
    for line in messages[-1].content.splitlines():
        if f"citation_id={citation} " in line:
            return str(line.split("invocation_id=")[1].split()[0])
    raise AssertionError(f"{citation} not offered")


def answer(*claims: tuple[str, str, str | None, str], final: str | None = None) -> Any:
    """A scripted executor: (id, text, citation or None for a made-up invocation, excerpt)."""

    def build(messages: Any, output_type: Any, role: str) -> dict[str, Any]:
        out = []
        for cid, text, citation, excerpt in claims:
            inv = invocation(messages, citation) if citation else "inv-made-up"
            out.append(
                {
                    "id": cid,
                    "text": text,
                    "critical": True,
                    "evidence_refs": [
                        {"invocation_id": inv, "citation_id": citation or "x#1", "excerpt": excerpt}
                    ],
                }
            )
        return {"claims": out, "final_answer": final if final is not None else " ".join(c[1] for c in claims)}

    return build


class Roles:
    """One scripted model, routed by role to per-role queues."""

    def __init__(self, **queues: list[Any]) -> None:
        self.queues = {role: list(items) for role, items in queues.items()}

    def __call__(self, messages: Any, output_type: Any, role: str) -> Any:
        item = self.queues[role].pop(0)
        return item(messages, output_type, role) if callable(item) else item


def scripted(**queues: list[Any]) -> ScriptedModel:
    return ScriptedModel(function=Roles(**queues), name="scripted")


def run(registry: ToolRegistry, model: ScriptedModel, question: str, *, judge: bool = False) -> RunResult:
    verifier = Verifier(
        LLMJudge(model, fallback=OfflineChecker(), role="verifier") if judge else OfflineChecker()
    )
    return Orchestrator(
        registry, planner=ModelPlanner(model), executor=ModelExecutor(model), verifier=verifier
    ).run(question, CTX)


def facts(result: RunResult) -> dict[str, Any]:
    assert result.verifier_evaluation is not None
    return {f.claim_id: f for f in result.verifier_evaluation.facts_checked}


# --------------------------------------------------------------------------- per claim


def test_a_claim_is_judged_only_by_the_evidence_it_cites(registry: ToolRegistry) -> None:
    pool = DOCS["pool"]
    model = scripted(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            answer(
                ("c1", pool, "errors#1", DOCS["errors"]),  # the pool sentence, citing the error table
                ("c2", pool, "pool#1", pool),
            )
        ],
    )
    result = run(registry, model, "ERR_TIMEOUT 是什么原因触发的？")
    checked = facts(result)
    assert checked["c2"].category is FactCategory.DIRECT_EVIDENCE
    assert (
        checked["c1"].category is not FactCategory.DIRECT_EVIDENCE
    )  # another claim's passage proves nothing
    assert result.verdict is not Verdict.PASS


def test_support_a_judge_finds_in_another_claims_passage_does_not_count(registry: ToolRegistry) -> None:
    pool = DOCS["pool"]
    claimed = "连接池使用率过高时请求会排队并触发 ERR_TIMEOUT。"
    says_direct = {
        "claims": [
            {"claim_index": 1, "key": True, "category": "direct_evidence", "passage": 2, "excerpt": pool[:20],
             "rationale": "passage 2 says so"},
            {"claim_index": 2, "key": True, "category": "direct_evidence", "passage": 2, "excerpt": pool[:20],
             "rationale": "ok"},
        ]
    }  # fmt: skip
    model = scripted(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))] * 2,
        executor=[answer(("c1", claimed, "errors#1", DOCS["errors"]), ("c2", pool, "pool#1", pool))] * 2,
        verifier=[says_direct] * 2,
    )
    result = run(registry, model, "ERR_TIMEOUT 是什么原因触发的？", judge=True)
    checked = facts(result)
    assert checked["c1"].category is FactCategory.NO_EVIDENCE
    assert "verifier:support_outside_own_citations" in checked["c1"].reason_codes
    assert checked["c2"].category is FactCategory.DIRECT_EVIDENCE


# --------------------------------------------------------------------------- absence claims

INFO_EXCERPT = "health check ok"


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("payment-gateway 日志里有错误吗？", "日志显示 payment-gateway 没有错误。"),
        ("Did payment-gateway log any errors?", "The logs show no errors for payment-gateway."),
        ("Did the payment fail?", "The payment never failed."),
    ],
)
def test_an_absence_claim_resting_on_a_hit_is_no_evidence(
    registry: ToolRegistry, question: str, claim: str
) -> None:
    model = scripted(
        planner=[plan(("query_logs", {"service": "payment-gateway", "level": "INFO"}))] * 2,
        executor=[answer(("c1", claim, "log:payment-gateway.jsonl:1", INFO_EXCERPT))] * 2,
    )
    result = run(registry, model, question)
    fact = facts(result)["c1"]
    assert fact.category is FactCategory.NO_EVIDENCE
    assert "absence:not_established" in fact.reason_codes
    assert result.verdict is not Verdict.PASS
    assert result.output_kind is not OutputKind.NORMAL
    assert claim not in result.answer


def test_an_absence_claim_is_at_most_indirect_when_an_empty_query_covered_its_scope(
    registry: ToolRegistry,
) -> None:
    model = scripted(
        planner=[
            plan(
                ("query_logs", {"service": "payment-gateway", "level": "ERROR"}),
                ("query_logs", {"service": "payment-gateway", "level": "INFO"}),
            )
        ]
        * 2,
        executor=[
            answer(("c1", "日志显示 payment-gateway 没有错误。", "log:payment-gateway.jsonl:1", INFO_EXCERPT))
        ]
        * 2,
    )
    result = run(registry, model, "payment-gateway 日志里有错误吗？")
    fact = facts(result)["c1"]
    assert fact.category is FactCategory.INDIRECT_SUPPORT  # "not found", never "ruled out"
    summary = result.verifier_evaluation.tool_trace_summary  # type: ignore[union-attr]
    empty = next(e for e in summary if e.empty_queries)
    assert fact.evidence_refs == [empty.trace_ref]
    assert result.verdict is Verdict.LOW_CONFID


# --------------------------------------------------------------------------- what reaches the user


def test_a_disclaimer_carries_only_verified_claims_never_the_executor_text(registry: ToolRegistry) -> None:
    verified = "ERR_TIMEOUT 表示支付网关在 3 秒内未收到下游银行通道响应。"
    unproven = "该错误的根因是连接池耗尽。"
    advice = "建议立即重启 payment-gateway 并把超时改成 30 秒。"
    model = scripted(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            answer(
                ("c1", verified, "errors#1", DOCS["errors"]),
                ("c2", unproven, "errors#1", DOCS["errors"]),
                final=f"{verified}{unproven}{advice}",  # the advice is in the text, in no claim
            )
        ],
    )
    result = run(registry, model, "ERR_TIMEOUT 是什么意思？")
    assert result.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER
    assert result.answer.startswith(ZH_CN.disclaimer)
    assert f"{verified}[1]" in result.answer
    for leaked in ("根因", "重启", "30 秒"):
        assert leaked not in result.answer
    assert [c.citation_id for c in result.citations] == ["errors#1"]


def test_an_answer_that_meets_no_need_is_never_normal(registry: ToolRegistry) -> None:
    slo = DOCS["slo"]
    model = scripted(
        planner=[
            plan(("lookup_knowledge", {"query": "Acme Pay"})),
            plan(("lookup_knowledge", {"query": "CEO"})),
        ],
        executor=[answer(("c1", slo, "slo#1", slo))] * 2,
    )
    result = run(registry, model, "Who is the CEO of Acme Pay?")
    assert result.verdict is Verdict.PASS  # the claim itself is true...
    assert [c.met for c in result.need_coverage] == [False]  # ...and answers nothing that was asked
    assert result.output_kind is OutputKind.DEGRADED
    assert "99.95" not in result.answer
    assert result.gaps[0] == "Who is the CEO of Acme Pay"


# --------------------------------------------------------------------------- seed fidelity


def test_evidence_refs_name_trace_refs_of_this_run_never_a_forged_invocation(registry: ToolRegistry) -> None:
    model = scripted(
        planner=[plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"}))],
        executor=[
            answer(
                ("c1", DOCS["errors"], "errors#1", DOCS["errors"]),
                ("c2", "ERR_TIMEOUT 会自动重试三次。", None, "自动重试三次"),
            )
        ],
    )
    result = run(registry, model, "ERR_TIMEOUT 是什么意思？")
    checked = facts(result)
    summary = result.verifier_evaluation.tool_trace_summary  # type: ignore[union-attr]
    assert checked["c1"].evidence_refs == [summary[0].trace_ref] == ["T1"]
    assert checked["c2"].category is FactCategory.CONTRADICTED
    assert checked["c2"].evidence_refs == []
    assert "inv-made-up" not in json.dumps(
        result.verifier_evaluation.model_dump(mode="json")["facts_checked"]
    )


def test_the_verifier_is_given_the_retry_context_and_names_failed_calls_in_the_gaps(
    registry: ToolRegistry,
) -> None:
    model = scripted(
        planner=[
            plan(("lookup_knowledge", {"query": "ERR_TIMEOUT"})),
            plan(
                (
                    "query_metrics",
                    {
                        "service": "payment-gateway",
                        "start": "2026-03-14T13:35:00Z",
                        "end": "2026-03-14T14:35:00Z",
                    },
                )
            ),
        ],
        executor=[answer(("c1", DOCS["errors"], "errors#1", DOCS["errors"]))] * 2,
    )
    result = run(registry, model, "3月14日 14:05 的 ERR_TIMEOUT 根因是什么？")
    assert result.rounds == 2
    evaluation = result.verifier_evaluation
    assert evaluation is not None
    assert evaluation.retry_context == result.retry_context
    assert result.retry_context is not None
    assert result.retry_context.unmet_need_ids == ["n1"]
    verifier_step = [s for s in result.steps if s.role == "verifier"][-1]
    assert verifier_step.model_output["input"]["retry_context"]["unmet_need_ids"] == ["n1"]  # type: ignore[index]
    assert any("query_metrics" in gap and "metrics backend down" in gap for gap in result.gaps), result.gaps


def test_round_two_searches_for_the_unmet_need_never_for_gap_prose(registry: ToolRegistry) -> None:
    from groundgate.questions import derive_needs, round_two_query

    question = "退款一般多久到账？退款手续费由谁承担？"
    orchestrator = Orchestrator(
        registry,
        planner=RulePlanner(now=NOW),
        executor=ExtractiveExecutor(),
        verifier=Verifier(OfflineChecker()),
    )
    result = orchestrator.run(question, CTX)
    assert result.retry_context is not None
    assert result.retry_context.unmet_need_ids == ["n2"]
    fee = derive_needs(question).needs[1]
    round_two = [r.arguments.get("query") for r in result.tool_results if r.round == 2]
    assert round_two == [round_two_query(fee)] == ["退款 手续费 承担"]
    assert result.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER
    assert "1 到 3 个工作日" in result.answer
    assert result.gaps == ["退款手续费由谁承担"]


@pytest.mark.parametrize(
    "question",
    [
        "What does ERR_TIMEOUT mean, and 退款手续费由谁承担？",
        "退款一般多久到账？退款手续费由谁承担？",
        "Who is the CEO of Acme Pay and when was it founded?",
    ],
)
def test_gaps_name_needs_never_single_words_or_nested_quotes(registry: ToolRegistry, question: str) -> None:
    orchestrator = Orchestrator(
        registry,
        planner=RulePlanner(now=NOW),
        executor=ExtractiveExecutor(),
        verifier=Verifier(OfflineChecker()),
    )
    result = orchestrator.run(question, CTX)
    assert result.needs is not None
    assert len(result.gaps) <= len(result.needs.needs) + 2  # one per need, and at most two summary lines
    for gap in result.gaps:
        assert "问题中的" not in gap
        assert gap.count("“") <= 1
        assert len(gap.split()) >= 2 or len(gap) >= 4, gap


def test_the_model_planner_is_asked_for_the_needs(registry: ToolRegistry) -> None:
    model = scripted(
        planner=[
            plan(("lookup_knowledge", {"query": "产假"})),
            plan(("lookup_knowledge", {"query": "婚假"})),
        ],
        executor=[answer(("c1", DOCS["errors"], "errors#1", DOCS["errors"]))] * 2,
    )
    result = run(registry, model, "产假多少天？婚假多少天？")
    first = json.loads(model.requests_for("planner")[0].messages[-1].content)
    assert [n["need"] for n in first["needs"]] == ["产假天数", "婚假天数"]
    planner_step = next(s for s in result.steps if s.role == "planner")
    assert planner_step.model_output["question_needs"]["needs"][0]["label"] == "产假天数"  # type: ignore[index]

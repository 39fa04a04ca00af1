"""Planning: the rules route questions to needs and whitelisted tools; validation discards plans with
authorization fields, narrows arguments to each schema and keeps the question's constraints."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest

from groundgate.agent import (
    AgentTool,
    NeedCode,
    PlannerDraft,
    PlanSource,
    ReasonCode,
    ResolvedContext,
    StaticDocumentSource,
    TaskStore,
    authorization_findings,
    propose_by_rules,
    register_agent_tools,
    validate_draft,
)
from groundgate.agent.planning import SemanticPlanner, _needs_of, task_window
from groundgate.errors import ModelTimeoutError
from groundgate.models.scripted import ScriptedModel
from groundgate.tools.registry import ToolRegistry

TODAY = date(2026, 4, 15)


@pytest.fixture
def registry() -> Iterator[ToolRegistry]:
    with ToolRegistry() as reg:
        register_agent_tools(reg, documents=StaticDocumentSource([]), tasks=TaskStore.in_memory())
        yield reg


def _resolved(question: str) -> ResolvedContext:
    return ResolvedContext(question=question, resolved_question=question)


def _validate(draft: dict[str, Any], question: str, registry: ToolRegistry) -> Any:
    return validate_draft(
        PlannerDraft.model_validate(draft),
        _resolved(question),
        registry,
        today=TODAY,
        source=PlanSource.MODEL,
    )


# seed L32 "LLM 不得生成或覆盖 tenantId/userId/projectId/spaceId/appId/extPartyId/role 等授权字段" and
# L162 "tenant/user/project/space/app 等授权字段出现时整份模型计划失效": any position, any spelling.
AUTHORIZATION_SMUGGLING = [
    {"tenant": "acme"},
    {"tenantId": "acme"},
    {"tenant_id": "acme"},
    {"TENANT": "acme"},
    {"Tenant-Id": "acme"},
    {"userId": "u-wang"},
    {"principal": "u-wang"},
    {"roles": ["admin"]},
    {"role": "admin"},
    {"appId": "hr"},
    {"projectId": "proj-west"},
    {"PROJECT_ID": "proj-west"},
    {"spaceId": "s1"},
    {"extPartyId": "x"},
    {"filters": [{"and": [{"user_id": "u-wang"}]}]},
    {"query": "tenantId=acme 的报销标准"},
    {"query": "project: proj-west 的待办"},
]


@pytest.mark.parametrize("smuggled", AUTHORIZATION_SMUGGLING, ids=lambda s: str(s)[:40])
def test_an_authorization_field_anywhere_discards_the_whole_plan(
    smuggled: dict[str, Any], registry: ToolRegistry
) -> None:
    arguments = {"query": "病假需要提供哪些材料？", **smuggled}
    plan = _validate(
        {"needs": ["MATERIALS"], "actions": [{"tool": "KNOWLEDGE_SEARCH", "arguments": arguments}]},
        "病假需要提供哪些材料？",
        registry,
    )
    assert plan.validation[0] is ReasonCode.AUTHORIZATION_FIELD_IN_PLAN
    assert plan.actions == []
    assert not plan.complete


@pytest.mark.parametrize(
    "draft",
    [
        {"needs": ["TASK_STATE"], "tenantId": "acme", "actions": []},
        {"needs": ["TASK_STATE"], "entities": [{"userId": "u-wang"}], "actions": []},
        {"needs": ["TASK_STATE"], "actions": [{"tool": "MY_CURRENT_TASKS", "arguments": {}, "spaceId": "x"}]},
    ],
)
def test_an_authorization_field_outside_the_arguments_also_discards_the_plan(
    draft: dict[str, Any], registry: ToolRegistry
) -> None:
    plan = _validate(draft, "我有哪些待办？", registry)
    assert plan.validation[0] is ReasonCode.AUTHORIZATION_FIELD_IN_PLAN


def test_clean_business_arguments_are_not_mistaken_for_authorization() -> None:
    assert authorization_findings({"query": "项目管理制度里年假怎么申请", "domain": "leave"}) == []
    assert authorization_findings({"status": "OPEN", "dateRange": "THIS_WEEK"}) == []


def test_an_unregistered_action_discards_the_plan(registry: ToolRegistry) -> None:
    # seed L216 "新运行时仅在计划通过严格 schema 校验且所有动作已注册时接管"
    plan = _validate(
        {"needs": ["AMOUNT_RULE"], "actions": [{"tool": "CRM_QUERY", "arguments": {}}]}, "x", registry
    )
    assert plan.validation == [ReasonCode.UNREGISTERED_ACTION]


def test_a_date_range_is_narrowed_out_of_a_knowledge_search(registry: ToolRegistry) -> None:
    # seed L56 "日期范围只进入 MY_CURRENT_TASKS，不得进入 KNOWLEDGE_SEARCH"
    plan = _validate(
        {
            "needs": ["PROCESS_STEPS"],
            "actions": [
                {
                    "tool": "KNOWLEDGE_SEARCH",
                    "arguments": {
                        "query": "年假怎么申请？",
                        "startDate": "2026-04-01",
                        "endDate": "2026-04-30",
                    },
                }
            ],
        },
        "年假怎么申请？",
        registry,
    )
    assert ReasonCode.ARGUMENT_NARROWED in plan.validation
    assert plan.actions[0].arguments == {"query": "年假怎么申请？"}
    assert plan.complete


def test_task_arguments_keep_only_their_schema(registry: ToolRegistry) -> None:
    # seed L162 "MY_CURRENT_TASKS 只接受 dateRange/startDate/endDate/status，KNOWLEDGE_SEARCH 只接受 query/domain"
    plan = _validate(
        {
            "needs": ["TASK_STATE"],
            "actions": [
                {"tool": "MY_CURRENT_TASKS", "arguments": {"status": "OPEN", "query": "待办", "limit": 5}}
            ],
        },
        "我有哪些待办？",
        registry,
    )
    assert plan.actions[0].arguments == {"status": "OPEN"}


CONSTRAINT_CHANGES = [
    ("一线城市住宿每晚600元能报销吗？", "一线城市住宿每晚500元能报销吗？"),
    ("出差住宿不超过600元吗？", "出差住宿超过600元吗？"),
    ("2026年版差旅制度的住宿标准是多少？", "2025年版差旅制度的住宿标准是多少？"),
    ("试用期员工不能休年假吗？", "试用期员工能休年假吗？"),
]


@pytest.mark.parametrize(("question", "changed"), CONSTRAINT_CHANGES)
def test_the_questions_constraints_survive_a_model_rewrite(
    question: str, changed: str, registry: ToolRegistry
) -> None:
    # seed L35 "原问题中的数字、币种、日期、期限、比较符、否定和版本必须由确定性校验器保真"
    plan = _validate(
        {
            "needs": ["AMOUNT_RULE"],
            "normalized_question": changed,
            "actions": [{"tool": "KNOWLEDGE_SEARCH", "arguments": {"query": changed}}],
        },
        question,
        registry,
    )
    assert ReasonCode.CONSTRAINT_RESTORED in plan.validation
    assert plan.normalized_question == question
    assert plan.actions[0].arguments["query"] == question


def test_a_model_month_that_differs_from_the_questions_is_replaced(registry: ToolRegistry) -> None:
    plan = _validate(
        {
            "intent": "MY_TASKS",
            "needs": ["TASK_STATE"],
            "actions": [{"tool": "MY_CURRENT_TASKS", "arguments": {"dateRange": "THIS_MONTH"}}],
        },
        "我三月有哪些待办？",
        registry,
    )
    assert plan.actions[0].arguments == {"startDate": "2026-03-01", "endDate": "2026-03-31"}


ROUTES = [
    ("一线城市出差住宿标准是多少？", [NeedCode.AMOUNT_RULE], [AgentTool.KNOWLEDGE_SEARCH]),
    ("病假需要提供哪些材料？", [NeedCode.MATERIALS], [AgentTool.KNOWLEDGE_SEARCH]),
    ("我有哪些待办？", [NeedCode.TASK_STATE], [AgentTool.MY_CURRENT_TASKS]),
    ("哪些待办快到期了？", [NeedCode.TASK_STATE], [AgentTool.MY_CURRENT_TASKS]),
    ("年假怎么申请，谁审批？", [NeedCode.PROCESS_STEPS, NeedCode.APPROVAL], [AgentTool.KNOWLEDGE_SEARCH]),
    ("试用期员工可以休年假吗？", [NeedCode.ELIGIBILITY], [AgentTool.KNOWLEDGE_SEARCH]),
    (
        "我本周有哪些待办？差旅报销需要谁审批？",
        [NeedCode.APPROVAL, NeedCode.TASK_STATE],
        [AgentTool.KNOWLEDGE_SEARCH, AgentTool.MY_CURRENT_TASKS],
    ),
    # "我有什么要审批的" with a task verb is the caller's own approvals, not the approval policy
    ("这礼拜我有什么要审批的？", [NeedCode.TASK_STATE], [AgentTool.MY_CURRENT_TASKS]),
]


def test_materials_asked_of_nothing_named_are_asked_back(registry: ToolRegistry) -> None:
    # "需要交哪些材料？": every policy lists its own; asking which beats picking one.
    draft = propose_by_rules(_resolved("需要交哪些材料？"), TODAY)
    plan = validate_draft(
        draft, _resolved("需要交哪些材料？"), registry, today=TODAY, source=PlanSource.RULES
    )
    assert not plan.actions
    draft = propose_by_rules(_resolved("病假需要交哪些材料？"), TODAY)
    assert [a["tool"] for a in draft.actions] == [AgentTool.KNOWLEDGE_SEARCH.value]


@pytest.mark.parametrize(("question", "needs", "tools"), ROUTES)
def test_the_rules_route_by_what_is_asked_not_by_a_keyword(
    question: str, needs: list[NeedCode], tools: list[AgentTool], registry: ToolRegistry
) -> None:
    # seed L232 "`哪些` 路由": 哪些材料 is a document need, 哪些待办 live state.
    draft = propose_by_rules(_resolved(question), TODAY)
    plan = validate_draft(draft, _resolved(question), registry, today=TODAY, source=PlanSource.RULES)
    assert [n.code for n in plan.needs] == needs
    assert [a.tool for a in plan.actions] == [t.value for t in tools]
    assert plan.complete


@pytest.mark.parametrize(
    ("question", "arguments"),
    [
        ("我三月有哪些待办？", {"startDate": "2026-03-01", "endDate": "2026-03-31"}),
        ("我12月有哪些待办？", {"startDate": "2026-12-01", "endDate": "2026-12-31"}),
        ("我本周有哪些待办？", {"dateRange": "THIS_WEEK"}),
        ("今天有哪些待办？", {"dateRange": "TODAY"}),
        ("上个月已完成的任务", {"dateRange": "LAST_MONTH", "status": "COMPLETED"}),
        ("我有哪些待办？", {}),
        # each 下 is a week on
        ("下周有什么任务到期？", {"startDate": "2026-04-20", "endDate": "2026-04-26"}),
        ("下下周有没有什么任务到期？", {"startDate": "2026-04-27", "endDate": "2026-05-03"}),
        # whether one named task is done: a done task is not an open one
        ("季度绩效自评那个我是不是已经交了？", {"status": "ALL"}),
        ("体检预约那个几号截止？", {}),
        # one day ahead; done ones; overdue = open and due before today
        ("明天有没有要截止的待办？", {"startDate": "2026-04-16", "endDate": "2026-04-16"}),
        ("后天到期的任务有哪些？", {"startDate": "2026-04-17", "endDate": "2026-04-17"}),
        ("上个月到期的那些待办里，哪些我已经做完了？", {"dateRange": "LAST_MONTH", "status": "COMPLETED"}),
        ("我有哪些待办已经逾期了还没弄？", {"endDate": "2026-04-14"}),
        ("上个月的待办还有哪些没做完？", {"dateRange": "LAST_MONTH"}),
        # a named task is read whatever its date
        ("王芳那个病假的审批，我是不是已经拖过期了？", {}),
    ],
)
def test_the_task_window_comes_from_the_questions_own_words(question: str, arguments: dict[str, str]) -> None:
    assert task_window(question, TODAY) == arguments


def test_the_planner_model_never_sees_the_execution_context(registry: ToolRegistry) -> None:
    # seed L72 "ExecutionContext：服务端从认证上下文解析的租户、主体、应用、项目、空间与角色；不进入模型输入"
    model = ScriptedModel({"planner": [ModelTimeoutError("slow")]})
    planner = SemanticPlanner(registry, model=model, clock=lambda: datetime(2026, 4, 15, tzinfo=UTC))
    plan = planner.plan(_resolved("病假需要提供哪些材料？"))
    assert plan.source is PlanSource.RULES_AFTER_MODEL_FAILURE
    prompt = model.requests[0].prompt
    assert "病假需要提供哪些材料？" in prompt
    for private in ("hrdemo", "u-li", "proj-east", "tenant_id", "authorization_policy"):
        assert private not in prompt


def test_a_question_nothing_can_plan_is_handed_back() -> None:
    # seed L197 "新 Evidence Evaluator 和 Grounded Composer 只接管新 Planner 能完整规划的请求，其他请求回退旧链路"
    with ToolRegistry() as reg:
        register_agent_tools(reg, documents=StaticDocumentSource([]), tasks=TaskStore.in_memory())
        plan = SemanticPlanner(reg).plan(_resolved("今天天气怎么样？"))
    assert not plan.complete
    assert ReasonCode.INCOMPLETE_PLAN in plan.validation


@pytest.mark.parametrize(
    ("question", "need"),
    [
        ("领导跟我说婚假就给三天，我们公司真这么少？", NeedCode.AMOUNT_RULE),
        ("我记得二线城市出差住宿一晚是三百八封顶，现在还是这个数吧？", NeedCode.AMOUNT_RULE),
        ("领完结婚证以后，婚假最晚得在多长时间内休掉？", NeedCode.AMOUNT_RULE),
        ("第一次用费控系统报差旅，从登录开始要怎么一步步弄？", NeedCode.PROCESS_STEPS),
    ],
)
def test_colloquial_cues_name_the_need(question: str, need: NeedCode) -> None:
    assert need in _needs_of(question)

"""Constrained semantic planning with deterministic validation (seed "agent.planning").

A planner proposes a `PlannerDraft` — intent, domain, entities, evidence needs and actions — from the
resolved question alone (the `ExecutionContext` is never in its input). Two proposers share one
validator:

- `propose_by_rules`: offline cue tables for the HR domains (reimbursement, leave) and tasks;
- `ModelPlanner`: a model in the `planner` role (any `Model`; `ScriptedModel` in tests).

`validate_draft` then decides in code, in this order:

1. any authorization field anywhere in the draft — a key at any depth in any spelling
   (`tenant`, `tenantId`, `TENANT_ID`, `userId`, `principal`, `roles`, `appId`, `projectId`, `spaceId`…)
   or a `key=value` / `key: value` inside a string — discards the whole draft (invariant 1);
2. an action that is not whitelisted and registered discards the whole draft (seed "兼容与回滚");
3. each action's arguments are narrowed to its tool's schema: other keys are dropped (so a date
   range never reaches `KNOWLEDGE_SEARCH`, invariant 9) and the registry validates the rest;
4. the question's numbers, currency, dates, periods, comparators, negation and versions must
   survive (`groundgate.verify.fidelity.compare_constraints`); where they do not, the question's own
   words replace the normalised question and the search query, and the date window the rules read
   from the question replaces the model's (invariant 2);
5. unknown need codes are dropped; a need no action can serve leaves the plan incomplete, and an
   incomplete plan is not taken over by the agent (seed "迁移顺序" 3).

`SemanticPlanner` asks the model when there is one and falls back to the rules when the model fails
or its draft is discarded; the plan records where it came from and every reason code.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from groundgate.agent.across import policies_compared
from groundgate.agent.approving import approver_checked
from groundgate.agent.contracts import (
    AgentTool,
    EvidenceNeed,
    Intent,
    NeedCode,
    PlanSource,
    ReasonCode,
    ResolvedContext,
    SemanticQueryPlan,
    ToolCall,
)
from groundgate.agent.due_against import deadline_query, due_against_deadline
from groundgate.agent.everyday import asks_unwritten, asks_where_written
from groundgate.agent.holders import someone_elses_tasks
from groundgate.agent.offtopic import asks_off_topic
from groundgate.agent.spans import spanned_days
from groundgate.agent.subjects import asking_clause_terms, subject_terms
from groundgate.agent.task_rules import rule_behind_task, without_task_words
from groundgate.agent.vocabulary import (
    ASKS,
    NEED_CUES,
    OFFERED_FIGURES,
    STILL_IN_TIME,
    canonical_terms,
    entities_in,
)
from groundgate.errors import ModelError
from groundgate.models.base import Message, Model
from groundgate.tools.registry import ToolRegistry, find_authorization_fields
from groundgate.verify.fidelity import compare_constraints, extract
from groundgate.verify.fidelity.numbers import parse_chinese_numeral

__all__ = [
    "DOMAINS",
    "parts_without_need",
    "PlannerDraft",
    "ModelPlanner",
    "SemanticPlanner",
    "authorization_findings",
    "propose_by_rules",
    "task_window",
    "validate_draft",
]

#: Business domains a knowledge search may name (the top folder of the HR documents).
DOMAINS: Final = ("reimbursement", "leave")

#: Names that carry authorization beyond `AUTHORIZATION_FIELDS` (which the registry folds in every
#: case style): a principal or an owner is a user by another name.
_EXTRA_AUTH_KEYS: Final = frozenset({"principal", "principalid", "owner", "ownerid", "assignee", "operator"})
_AUTH_IN_TEXT = re.compile(
    r"(?i)\b(?:tenant|user|project|space|app|ext[_-]?party|role|principal)s?[_\-\s]?(?:id)?\s*[:=]"
)


class PlannerDraft(BaseModel):
    """What a planner proposes. Extra keys are kept, not refused, so that validation can find an
    authorization field the model slipped in and discard the draft for that reason."""

    model_config = ConfigDict(extra="allow")

    intent: str = Intent.POLICY_QUESTION.value
    domain: str | None = None
    normalized_question: str | None = None
    entities: list[Any] = Field(default_factory=list)
    """Loosely typed on purpose: an authorization field hidden inside is found and named, not a parse error."""
    needs: list[str] = Field(default_factory=list)
    actions: list[dict[str, Any]] = Field(default_factory=list)


# --------------------------------------------------------------------------- rules

_DOMAIN_CUES: Final[dict[str, re.Pattern[str]]] = {
    "reimbursement": re.compile(
        r"报销|差旅|出差|住宿|酒店|宾馆|餐补|饭补|餐费|伙食|交通费|打车|机票|招待|发票|水单|行程单|票据|"
        r"(?:能|给|可以|照样|也能)报(?!告)|报不报|补贴|(?i:reimburse|hotel)"
    ),
    "leave": re.compile(
        r"年假|年休假|病假|事假|婚假|产假|陪产假|丧假|请假|休假|调休|"
        r"请\s*[一二两三四五六七八九十几半\d]+\s*个?(?:天|周|星期)假|^假(?=要|如果|连)"
    ),
}
#: Questions about the caller's own live tasks: lists ("我有哪些待办", "这礼拜我手上有啥活儿", "这礼拜我有
#: 什么要审批的" — a task verb, not "有什么要注意的", which asks the policy) and one
#: task's state ("王芳那个病假审批是不是已经拖过期了", "三月的差旅报销我提交了没有").
_TASK_CUE = re.compile(
    r"待办|任务|待审批|待处理|要处理的|等着我|手(?:上|头)(?:有|还有)|(?:啥|什么|哪些)(?:活儿?|事儿?)(?:要|在|没)?|"
    r"要交的(?!材料|资料|单据|证明|发票|票据|凭证)|有啥要|(?:什么|啥)(?:东西|事儿?|活儿?)要(?:交|做|办|处理|审批|批|完成)|我[^，,？?]{0,4}有(?:什么|啥|哪些)要(?:审批|批|处理|提交|交|做|完成|办|签|跟进)的|(?:提交|交|做完|办完|处理|批)了没|(?:截止|到期|过期)(?:了没|没|是|了吗|日期)|拖过期|"
    r"(?:几号|哪天)(?:要交|截止|到期)|最晚几号|现在是什么状态|什么状态|进度|"
    # "这周我还有几件事没弄完": a count of the caller's open items
    r"(?:几|多少)(?:件|个|项|条)(?:事|活|待办|任务)|"
    # "这礼拜到期的活都有哪些", "过期了还没弄完的有几个", "上个月我都做完了些啥", "我明天有啥到期的没"
    r"(?:到期|过期|逾期|截止)的(?:活|事|东西|单子)|(?:过期|逾期)了?(?:还)?没(?:弄|做|办|处理|交)完|"
    r"没(?:弄|做|办|处理)完的|(?:做|弄|办|处理)完了(?:些)?(?:啥|什么|哪些)|有啥(?:到期|过期|要交|要做)|"
    # "明天到期的有啥", "下周截止的都有哪些": what falls due in a window is the caller's tasks
    r"(?:今天|明天|明儿个?|后天|这周|本周|这礼拜|下周|下礼拜|这个月|本月|月底|周[一二三四五六日天])(?:要)?(?:到期|截止)的|"
    # chat English: "下周有啥deadline", "我的task list", "todo"
    r"(?:啥|什么|哪些)\s*(?i:deadlines?|ddl)|(?i:deadlines?|ddl)\s*(?:都)?有(?:啥|什么|哪些)|(?i:task\s*list|to-?dos?(?![A-Za-z]))"
)
#: A named item ("体检预约那个…", "我那个四月差旅报销…"): the question is about that one task.
_NAMED_ITEM = re.compile(
    r"[\u4e00-\u9fa5A-Za-z]{2,}(?:那个|那张|那笔|那项|那条|那件)|我那(?:个|条|张|笔|项|件)"
)
#: Whether a task is done ("交了没", "是不是已经交了", "批完了吗"), not when it is due.
_DONE_ASKED = re.compile(
    r"(?:交|批|做|办|弄|搞|处理|提交)(?:了|上去|完|好)|完成|搞定|(?:没|未)(?:批|交|做|办|处理|提交)"
)
#: What a question about a named item asks of it: its due date, status, or whether it is done
#: ("…那个我是不是已经交了", "…那张我批了没").
_ITEM_STATE = re.compile(
    r"截止|到期|过期|超期|逾期|状态|提交|做完|办完|几号|哪天|最晚|啥时候|什么时候|还剩几天|"
    + _DONE_ASKED.pattern
)
#: A pointer with nothing it points at ("这个要谁批？", "那张单子到期了没？", "上回说的那件事").
_DEICTIC = re.compile(
    r"^(?:这|那)(?:个|张|件|笔|份|项)(?!月|星期|礼拜|周)|上回|上次跟你|之前跟你|刚才说的|那件事|那张单子"
)
#: "最多能报多少钱" without saying for what: lodging, meals and approval limits all differ.
_AMOUNT_SUBJECT = re.compile(
    r"住宿|酒店|伙食|餐|交通|机票|火车|年假|年休假|病假|婚假|事假|产假|丧假|差旅|出差|实习"
)
#: Leave in general ("请假的话要准备哪些证明材料？"): every kind of leave has its own materials.
#: "请两天假", "假要是连着请超过五天" name no kind of leave either.
_ANY_LEAVE = re.compile(
    r"请假|休假|请\s*[一二两三四五六七八九十几半\d]+\s*个?(?:天|周|星期)假|^假(?=要|如果|连)"
)
#: "能全报吗", "能全额报不" (an A-not-A form, blind 15): whether an amount is reimbursed.
_REIMBURSABLE = re.compile(r"(?:能|可以)(?:全额|全)?报(?:销)?(?:[^？?]*吗|不(?=\s*(?:[？?]|$)))")
_TASK_DOC_NEEDS: Final = frozenset({NeedCode.PROCESS_STEPS, NeedCode.MATERIALS})
#: A task part asks a document need only when it asks how a task is handled or what it takes.
_HOW_TO_HANDLE = re.compile(r"怎么|怎样|咋|如何|流程|步骤|手续|材料|资料|证明|单据|附件")
_OVER_STANDARD = re.compile(r"超标|超出|超了|谁出|承担|多出来|多出的|多出部分|超过的部分")


#: An amount said the spoken way, without its unit ("一晚五百八", "一千二"): a sum of money in a
#: question about what is reimbursed.
_SPOKEN_AMOUNT = re.compile(r"[一二两三四五六七八九][百千][一二两三四五六七八九]?(?![天年月周个])")


def _names_amount(text: str) -> bool:
    items = extract(text).items
    # "住了一晚刚好 600 的酒店": a bare figure priced per night or day is a sum too (blind 15)
    per_unit = any(m.kind == "count" and m.unit in ("晚", "天") for m in items)
    return any(m.kind == "amount" or (per_unit and m.kind == "number") for m in items) or bool(
        _SPOKEN_AMOUNT.search(text)
    )


_UNSUPPORTED = re.compile(r"(?i)CRM|客户|合同|商机|销售额|工资条|薪资")
#: Why a rule is so ("公司当初定这条是出于什么考虑？", "婚假为啥从三天改成十天了？", blind 15): the documents
#: state rules, never the reasons for them, so no passage answers it and the rule itself is no answer.
#: The reason asked outright, or a why put to a change of the rule. (Why the asker's own claim came out
#: as it did — "为什么每晚只给我报了 600？" — is answered by the rule that caused it, and asks neither.)
_RULE_REASON = re.compile(
    r"(?:出于|基于)(?:什么|啥|哪些)(?:考虑|原因|目的)|(?:什么|啥)(?:原因|理由|考虑|用意|初衷)|(?:原因|理由|初衷|用意)是(?:什么|啥)"
    r"|(?:为什么|为啥|为何)[^？?。]{0,20}(?:改成|改为|改到|调到|调成|调整|变成|涨到|降到|改了|调了)"
)
#: Requests to act, not to know: every tool is read-only, so these are never planned.
_WRITE_ACTION = re.compile(
    r"(?:帮我|替我|给我|帮忙)(?:把[^，,。？?]{0,24}?)?"
    r"(?:提交|审批|批准|删除|修改|发起|撤回|取消|订|预订|预定|买|购买|标成|标记|标为|改成|改为|设为|设成|关闭|完成掉)"
    r"|(?:标成|标记为|改成|设为)已完成"
)
_NEED_LABEL: Final[dict[NeedCode, str]] = {
    NeedCode.AMOUNT_RULE: "金额标准",
    NeedCode.PROCESS_STEPS: "办理步骤",
    NeedCode.MATERIALS: "所需材料",
    NeedCode.APPROVAL: "审批要求",
    NeedCode.ELIGIBILITY: "适用条件",
    NeedCode.TASK_STATE: "我的当前待办",
}
_DOMAIN_LABEL: Final = {"reimbursement": "报销", "leave": "休假"}

_MONTH = re.compile(
    r"(?<![\d一二三四五六七八九十])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])\s*月"
    # "五月十号", "5月10日": a day of the month, in digits or words, is no month window
    r"(?!\s*(?:\d+|[一二三四五六七八九十]+)\s*[日号])"
    # "三月的差旅报销…": the month names the task ("提交三月差旅报销"), it is no due-date window
    r"(?!的?\s*(?:差旅|报销|出差|住宿|伙食|采购|绩效|体检|周报|月报))"
)
#: "四月二十号", "4月20日", "4/20": one day of a month. Checked before the month alone, which would
#: otherwise read "四月二十号那天有什么到期" as the whole of April and show tasks due on other days.
_DAY_NUMBER = (
    r"(3[01]|[12]\d|[1-9]|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])"
)
_MONTH_DAY = re.compile(
    r"(?<![\d一二三四五六七八九十/])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])\s*月\s*"
    + _DAY_NUMBER
    + r"\s*[日号]"
    r"|(?<![\d/])(1[0-2]|[1-9])\s*/\s*(3[01]|[12]\d|[1-9])(?![\d/])"
)
#: "20号那天", "这个月二十五号": a day of this month (号 only: "工作日", "自然日" are no dates).
_DAY_OF_MONTH = re.compile(r"(?<![\d一二三四五六七八九十第/])" + _DAY_NUMBER + r"\s*号")
#: "下周" is one week on, "下下周" two: the repeated 下 counts the weeks.
_NEXT_WEEK = re.compile(r"(下+)(?:个)?(?:周|礼拜|星期)")
_WEEKDAY = re.compile(r"(?:(下+)|这|本)?(?:个)?(?:周|礼拜|星期)([一二三四五六日天])")
_CN_DIGITS: Final = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
#: "明天截止的", "后天到期吗": one day ahead of the runtime's day (`startDate` = `endDate`).
_DAYS_AHEAD: Final = {"明天": 1, "明日": 1, "明儿": 1, "明儿个": 1, "后天": 2, "大后天": 3}
_DAY_AHEAD = re.compile("|".join(sorted(_DAYS_AHEAD, key=len, reverse=True)))
#: Past its due date: "逾期了", "已经过期", "超期", "拖过截止日期".
_OVERDUE = re.compile(r"逾期|过期|超期|过了截止|拖过")
_RANGE_CUES: Final = (
    (re.compile(r"今天|今日"), "TODAY"),
    (re.compile(r"本周|这周|这个?星期|这个?礼拜"), "THIS_WEEK"),
    (re.compile(r"上个?月"), "LAST_MONTH"),
    (re.compile(r"本月|这个月"), "THIS_MONTH"),
    (re.compile(r"未来\s*7\s*天|最近一周|接下来一周"), "NEXT_7_DAYS"),
)
_STATUS_CUES: Final = (
    # "哪些我已经做完了": done ones; "还没做完" (not yet) is the open default, never COMPLETED.
    (re.compile(r"已完成|完成了的|(?<![没未不])(?:已经|都)?(?:做|办|弄|处理|搞)完了"), "COMPLETED"),
    (re.compile(r"进行中|处理中"), "IN_PROGRESS"),
    (re.compile(r"全部|所有"), "ALL"),
)


def _month_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text.startswith("十"):
        return 10 + (_CN_DIGITS[text[1]] if len(text) > 1 else 0)
    return _CN_DIGITS[text]


def _named_days(question: str, today: date) -> list[date]:
    """The days of this year the question names ("四月二十号", "4/20", "20号"), in order."""
    days: list[date] = []
    for m in _MONTH_DAY.finditer(question):
        month, day = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        with contextlib.suppress(ValueError):
            days.append(date(today.year, _month_number(month), _day_number(day)))
    if not days:
        for m in _DAY_OF_MONTH.finditer(question):
            with contextlib.suppress(ValueError):
                days.append(date(today.year, today.month, _day_number(m.group(1))))
    return days


def _day_number(text: str) -> int:
    return int(text) if text.isdigit() else int(parse_chinese_numeral(text) or 0)


def task_window(question: str, today: date) -> dict[str, Any]:
    """`MY_CURRENT_TASKS` arguments read from the question's own words (day, month, range, status)."""
    args: dict[str, Any] = {}
    months = _MONTH.findall(question)
    days = [] if _NAMED_ITEM.search(question) else _named_days(question, today)
    if span := spanned_days(question, today):
        # "从今天到这个月底": the stretch whole, not its first day alone (`agent.spans`)
        args["startDate"], args["endDate"] = span[0].isoformat(), span[1].isoformat()
    elif days:
        # "四月二十号那天…到期": that day; "4/20 到 4/30 之间": from the first day named to the last.
        # Not with a task named ("确认年休假计划那条是5月15号截止的吧？"): its date is put up for
        # checking, and the task is read whatever its due date.
        args["startDate"], args["endDate"] = min(days).isoformat(), max(days).isoformat()
    elif months:
        # A correction ("不是三月，是四月") names the right month last.
        month = _month_number(months[-1])
        first = date(today.year, month, 1)
        following = (first + timedelta(days=32)).replace(day=1)
        args["startDate"] = first.isoformat()
        args["endDate"] = (following - timedelta(days=1)).isoformat()
    elif weekday := _WEEKDAY.search(question):
        # "下周一", "这周五": one day of this week or a later one
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 * len(weekday.group(1) or ""))
        day = monday + timedelta(
            days="一二三四五六日天".index(weekday.group(2)) if weekday.group(2) != "天" else 6
        )
        args["startDate"] = args["endDate"] = day.isoformat()
    elif next_week := _NEXT_WEEK.search(question):
        weeks = len(next_week.group(1))
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 * weeks)
        args["startDate"] = monday.isoformat()
        args["endDate"] = (monday + timedelta(days=6)).isoformat()
    elif _OVERDUE.search(question) and not _NAMED_ITEM.search(question):
        # "哪些待办已经逾期了": open ones due before today (a named task is read whatever its date,
        # so "王芳那个审批过期了吗" can be answered with its due date).
        args["endDate"] = (today - timedelta(days=1)).isoformat()
    elif ahead := _DAY_AHEAD.search(question):
        day = today + timedelta(days=_DAYS_AHEAD[ahead.group(0)])
        args["startDate"] = args["endDate"] = day.isoformat()
    else:
        for cue, value in _RANGE_CUES:
            if cue.search(question):
                args["dateRange"] = value
                break
    for cue, value in _STATUS_CUES:
        if cue.search(question):
            args["status"] = value
            break
    else:
        if _NAMED_ITEM.search(question) and _DONE_ASKED.search(question):
            # "季度绩效自评那个我是不是已经交了？": whether one task is done; a done task is not open.
            args["status"] = "ALL"
    return args


#: "听同事说婚假就 3 天，真的假的？", "年假是不是该涨到 10 天了？": a figure put up for checking, which the
#: amount rule confirms or corrects (not whether the asker may claim it).
_DOUBTS_FIGURE = re.compile(
    r"靠谱吗|真的假的|是真的吗|真的吗|属实吗|是不是真的|是不是(?:该|要|能|有|还是|就|只有)|没错吧|"
    # "婚假就给三天，真这么少？", "三百八封顶，现在还是这个数吧？"
    r"真(?:的)?(?:这么|那么)(?:少|多|低|高)|还是这个(?:数|标准|额度)|没变吧|还是这样吗"
    # "今年出差还按三百报吗": whether an earlier figure still holds.
    r"|还(?:按|是按|照)[^，,。？?]{0,6}(?:报|算|发|给)吗"
    # "现在还是一天八十块吧": an earlier figure taken for granted
    r"|还是[^，,。？?]{0,6}(?:块|元|天)吧"
)
_FIGURE = re.compile(r"\d|[一两二三四五六七八九十百千万]\s*(?:天|元|块|晚|千|百|万)")


_APPROVAL_PROGRESS = re.compile(r"(?:看|查)[^？?，,]{0,4}审批(?:进度|到哪|状态|结果|走到)")


def _needs_of(question: str) -> list[NeedCode]:
    needs = [code for code, cue in NEED_CUES.items() if cue.search(question)]
    if OFFERED_FIGURES.search(question) and NeedCode.AMOUNT_RULE not in needs:
        needs.insert(0, NeedCode.AMOUNT_RULE)
    if (
        _DOUBTS_FIGURE.search(question)
        and _FIGURE.search(question)
        and not (set(needs) - {NeedCode.AMOUNT_RULE, NeedCode.ELIGIBILITY})
    ):
        needs = [NeedCode.AMOUNT_RULE]
    if NeedCode.ELIGIBILITY in needs and (
        (_REIMBURSABLE.search(question) and _names_amount(question)) or _OVER_STANDARD.search(question)
    ):
        # "每晚 500 元能报销吗", "超标了也能照样报吗" ask whether an amount is within the rule: the
        # amount rule answers it.
        needs = [n for n in needs if n is not NeedCode.ELIGIBILITY]
        if NeedCode.AMOUNT_RULE not in needs:
            needs.insert(0, NeedCode.AMOUNT_RULE)
    if NeedCode.ELIGIBILITY in needs and STILL_IN_TIME.search(question):
        # "婚假现在还能休吗": whether it is still in time is the rule's period, not who may take it.
        needs = [n for n in needs if n is not NeedCode.ELIGIBILITY]
        if NeedCode.AMOUNT_RULE not in needs:
            needs.insert(0, NeedCode.AMOUNT_RULE)
    if NeedCode.APPROVAL in needs and NeedCode.PROCESS_STEPS in needs and _APPROVAL_PROGRESS.search(question):
        needs.remove(NeedCode.APPROVAL)  # "去哪儿看审批到哪一步了": where to look, not who approves
    if NeedCode.APPROVAL in needs and NeedCode.ELIGIBILITY in needs and re.search(r"批[^？?]*吗", question):
        needs.remove(NeedCode.ELIGIBILITY)  # "光部门经理批就够了吗": who approves, not who may
    if NeedCode.APPROVAL in needs and NeedCode.AMOUNT_RULE in needs and approver_checked(question):
        needs.remove(NeedCode.AMOUNT_RULE)  # "超过3000就得财务总监签字了对吧": the approval rule's threshold
    if NeedCode.ELIGIBILITY in needs and len(needs) > 1 and _ASKED_TO_TELL.search(question):
        needs.remove(NeedCode.ELIGIBILITY)  # "能一步步说下怎么弄吗": a request to be told, not who may
    return needs


#: "能一步步说下怎么弄吗", "可以讲讲流程吗": 能/可以 asking the agent to tell, not whether the asker may;
#: so does a polite request to look something up ("能不能麻烦您帮我看看，…一晚能报多少呀？", blind 16).
_ASKED_TO_TELL = re.compile(
    r"(?:能|可以|可不可以|能不能|能否)(?:一步步|一步一步|详细|具体|简单|大概|帮我|给我|跟我)?(?:说|讲|告诉|介绍|解释)"
    r"|(?:能|可以|可不可以|能不能|能否)\s*(?:麻烦|劳烦|请)(?:您|你)?\s*(?:帮(?:我|忙)?|给我|替我)\s*(?:看看|看一下|瞧瞧|查查|查一下|确认一下)"
)


_PARTS: Final = re.compile(r"[？?！!。；;]")
#: "…公司给报吗？有没有什么例外情况？": a rule's exceptions are its conditions, stated by the passage
#: that answers the part before, not a further question no evidence need names.
#: Blind 17: a part asking whether what came before holds ("…1000以内都能报，这个说法出自哪儿？靠谱吗？")
#: or which document says it asks of that claim too — the rule's figure and its citation answer it.
_EXCEPTIONS_ASKED = re.compile(
    r"例外|特殊情况|特例|另有规定|^\s*(?:靠谱|真的|是真的|对|准|属实|可信)吗|出自|出处|来源|哪份(?:制度|文件|规定)"
    r"|驳回|(?:能|可以|该)批(?:吗|不)|批行吗"  # the approver's verdict on the case the rule decides (blind 28)
    r"|(?:^|：)\s*那?(?:要是|如果|假如|换成)[^，,：]{0,12}呢\s*$"  # "那要是7天呢？我批完还要谁批？": the case asked of
)


def parts_without_need(question: str) -> list[str]:
    """The parts of a question of several parts that ask something no evidence need names
    ("出差回来多少天之内得把报销交上去？*报销款会打到哪张卡上？*"): no rule could answer them, so the
    answer may cover the rest only (a `PARTIAL`, with the part as missing information)."""
    parts = [p.strip() for p in _PARTS.split(question) if p.strip()]
    if len(parts) < 2:
        return []
    return [
        p
        for p in parts
        if ASKS.search(p)
        and not _EXCEPTIONS_ASKED.search(p)
        and not asks_where_written(p)
        and not any(cue.search(p) for cue in NEED_CUES.values())
        and not _is_task_question(p)
    ]


def _is_task_question(question: str) -> bool:
    return bool(_TASK_CUE.search(question)) or (
        bool(_NAMED_ITEM.search(question)) and bool(_ITEM_STATE.search(question))
    )


def propose_by_rules(resolved: ResolvedContext, today: date) -> PlannerDraft:
    """The offline planner: cue tables over the resolved question."""
    question = resolved.resolved_question
    if (
        _WRITE_ACTION.search(question)
        or someone_elses_tasks(question, task_question=_is_task_question(question))
        or _RULE_REASON.search(question)
        or asks_unwritten(question)
        or asks_off_topic(question)
    ):
        return PlannerDraft(intent=Intent.UNSUPPORTED.value, normalized_question=question)
    # Two policies of two domains compared ("病假…和差旅报销…分别是啥"): the search is bounded by neither.
    domain = (
        None
        if policies_compared(question)
        else next((n for n, c in _DOMAIN_CUES.items() if c.search(question)), None)
    )
    parts = [p for p in re.split(r"(?<=[？?；;。!！])", question) if p.strip()]
    task_parts = [p for p in parts if _is_task_question(p)]
    policy_parts = [p for p in parts if p not in task_parts]
    policy = "".join(policy_parts)
    needs = _needs_of(policy) if policy else []
    for part in task_parts:
        # "第三个任务怎么处理？": how to handle a task is a document question about it — but "走之前得先
        # 看看明天到期的待办" asks the tasks only: what comes first there is looking at them.
        if _HOW_TO_HANDLE.search(part):
            needs += [n for n in _needs_of(part) if n in _TASK_DOC_NEEDS and n not in needs]
        needs += [n for n in rule_behind_task(part, _is_task_question, _needs_of) if n not in needs]
    if task_parts and due_against_deadline(question) and NeedCode.AMOUNT_RULE not in needs:
        needs.insert(0, NeedCode.AMOUNT_RULE)  # "…待办截止那天再交还来得及吗": the rule's period decides
    if task_parts:
        needs.append(NeedCode.TASK_STATE)
    elif resolved.trusted_refs:
        needs.insert(0, NeedCode.TASK_STATE)  # "第二个任务…": the referenced task is re-read
    if _UNSUPPORTED.search(question) and not (domain and needs):
        return PlannerDraft(intent=Intent.UNSUPPORTED.value, normalized_question=question)
    doc_needs = [n for n in needs if n is not NeedCode.TASK_STATE]
    if (
        needs
        and not resolved.trusted_refs
        and resolved.relation.value == "NEW"
        and not entities_in(question)
        and _DEICTIC.search(question.strip())
    ):
        # "这个要谁批？" with nothing earlier it could point at: ask, never guess the subject.
        doc_needs, needs = [], []
    if (
        doc_needs == [NeedCode.AMOUNT_RULE]
        and domain == "reimbursement"
        and not _AMOUNT_SUBJECT.search(question)
        and not _names_amount(question)
        and not subject_terms(question)
    ):
        # "我想报销，最多能报多少钱？": which expense? Lodging, meals and approval limits all differ.
        doc_needs, needs = [], [n for n in needs if n is NeedCode.TASK_STATE]
    if (
        doc_needs
        and (not domain or (domain == "leave" and _ANY_LEAVE.search(question)))
        and not task_parts
        and not resolved.trusted_refs
        and resolved.relation.value == "NEW"
        and not entities_in(question)
        # "下周想请三天假在家陪孩子，要准备什么材料？": why the leave is taken, said in a clause that does
        # not ask, names no kind of leave (session 29).
        and not (asking_clause_terms(question) if _ANY_LEAVE.search(question) else subject_terms(question))
        - {"请假", "休假", "假"}
    ):
        # "需要交哪些材料？" (or "请假的话…") with no kind of leave, expense or process named, and nothing earlier to lean on:
        # every policy lists its own materials; ask which one, never pick one. (No task part and no
        # referenced task: nothing else is left to plan.)
        doc_needs, needs = [], []
    actions: list[dict[str, Any]] = []
    if doc_needs:
        # The parts asking about tasks ("我本周有哪些待办？") are not the document question.
        query = policy or question
        if task_parts and due_against_deadline(question):
            query = deadline_query(query)
        elif not policy and any(rule_behind_task(p, _is_task_question, _needs_of) for p in task_parts):
            # "我那条提交四月差旅报销的待办，…要谁审批？": the task's pointer words are no subject (`agent.task_rules`)
            query = without_task_words(query)
        extra = canonical_terms(query)
        arguments: dict[str, Any] = {"query": f"{query} {extra}" if extra else query}
        if domain:
            arguments["domain"] = domain
        actions.append({"tool": AgentTool.KNOWLEDGE_SEARCH.value, "arguments": arguments})
    if NeedCode.TASK_STATE in needs:
        if resolved.trusted_refs:
            arguments = dict(resolved.trusted_refs[0].arguments)
        else:
            arguments = task_window(question, today)
        actions.append({"tool": AgentTool.MY_CURRENT_TASKS.value, "arguments": arguments})
    if NeedCode.TASK_STATE in needs:
        intent = Intent.TASKS_AND_POLICY if doc_needs else Intent.MY_TASKS
    else:
        intent = Intent.POLICY_QUESTION
    return PlannerDraft(
        intent=intent.value,
        domain=domain,
        normalized_question=question,
        entities=list(resolved.candidate_entities),
        needs=[n.value for n in needs],
        actions=actions,
    )


# --------------------------------------------------------------------------- validation


def authorization_findings(value: object, *, scan_text: bool = True) -> list[str]:
    """Where an authorization field appears in `value`: keys at any depth in any spelling (the
    registry's folding), a few synonyms, and `key=value` / `key: value` written inside a string."""
    found = find_authorization_fields(value)

    def walk(item: object, path: str) -> None:
        if isinstance(item, dict):
            for key, inner in item.items():
                here = f"{path}.{key}" if path else str(key)
                if re.sub(r"[^0-9a-z]", "", str(key).casefold()) in _EXTRA_AUTH_KEYS:
                    found.append(here)
                walk(inner, here)
        elif isinstance(item, list | tuple):
            for index, inner in enumerate(item):
                walk(inner, f"{path}[{index}]")
        elif scan_text and isinstance(item, str) and _AUTH_IN_TEXT.search(item):
            found.append(f"{path} (text)")

    walk(value, "")
    return found


def _served_by(code: NeedCode) -> AgentTool:
    return AgentTool.MY_CURRENT_TASKS if code is NeedCode.TASK_STATE else AgentTool.KNOWLEDGE_SEARCH


def _discarded(resolved: ResolvedContext, reason: ReasonCode, detail: str) -> SemanticQueryPlan:
    return SemanticQueryPlan(
        original_question=resolved.question,
        normalized_question=resolved.resolved_question,
        intent=Intent.UNSUPPORTED,
        validation=[reason],
        validation_detail=[detail],
        complete=False,
    )


def validate_draft(
    draft: PlannerDraft,
    resolved: ResolvedContext,
    registry: ToolRegistry,
    *,
    today: date,
    source: PlanSource,
) -> SemanticQueryPlan:
    """The deterministic checks of the module docstring; a discarded draft has `complete=False`
    and the reason first in `validation`."""
    question = resolved.resolved_question
    raw = draft.model_dump(mode="json")
    # A model may not even write `tenantId=…` into its text; the rules only copy the user's words,
    # which change nothing (the context is the server's), so their text is not scanned.
    auth = authorization_findings(raw, scan_text=source is PlanSource.MODEL)
    if auth:
        return _discarded(resolved, ReasonCode.AUTHORIZATION_FIELD_IN_PLAN, ", ".join(auth[:5]))
    reasons: list[ReasonCode] = []
    details: list[str] = []
    calls: list[ToolCall] = []
    for action in draft.actions:
        tool = str(action.get("tool", ""))
        if tool not in AgentTool.__members__ or tool not in registry:
            return _discarded(resolved, ReasonCode.UNREGISTERED_ACTION, f"action {tool!r} is not registered")
        arguments = action.get("arguments") or {}
        if not isinstance(arguments, dict):
            return _discarded(resolved, ReasonCode.INVALID_ARGUMENTS, f"{tool}: arguments are not an object")
        allowed = registry.get(tool).argument_model.model_fields
        narrowed = {key: value for key, value in arguments.items() if key in allowed}
        if len(narrowed) != len(arguments):
            reasons.append(ReasonCode.ARGUMENT_NARROWED)
            details.append(f"{tool}: dropped {sorted(set(arguments) - set(narrowed))}")
        if tool == AgentTool.KNOWLEDGE_SEARCH and narrowed.get("domain") not in (None, *DOMAINS):
            reasons.append(ReasonCode.ARGUMENT_NARROWED)
            details.append(f"{tool}: unknown domain {narrowed.pop('domain')!r}")
        calls.append(ToolCall(tool=tool, arguments=narrowed))

    normalized = draft.normalized_question or question
    calls, normalized = _keep_constraints(question, normalized, calls, today, reasons, details)
    check = registry.validate_plan(calls)
    if not check.ok:
        return _discarded(resolved, ReasonCode.INVALID_ARGUMENTS, check.detail)

    needs: list[EvidenceNeed] = []
    for code in draft.needs:
        if code not in NeedCode.__members__:
            reasons.append(ReasonCode.UNKNOWN_NEED_DROPPED)
            details.append(f"unknown need {code!r}")
            continue
        need = NeedCode(code)
        if all(n.code is not need for n in needs):
            needs.append(EvidenceNeed(code=need, label=_label(need, draft.domain)))
    tools = {call.tool for call in check.calls}
    complete = all(_served_by(n.code).value in tools for n in needs)
    intent = Intent(draft.intent) if draft.intent in Intent.__members__ else Intent.POLICY_QUESTION
    if intent is Intent.UNSUPPORTED:
        complete = True  # the agent itself answers that no registered tool can do this
    elif not needs:
        complete = False
    if not complete:
        reasons.append(ReasonCode.INCOMPLETE_PLAN)
    purposes = {
        AgentTool.KNOWLEDGE_SEARCH.value: ",".join(
            n.code for n in needs if n.code is not NeedCode.TASK_STATE
        ),
        AgentTool.MY_CURRENT_TASKS.value: NeedCode.TASK_STATE.value,
    }
    return SemanticQueryPlan(
        original_question=resolved.question,
        normalized_question=normalized,
        intent=intent,
        domain=draft.domain if draft.domain in DOMAINS else None,
        entities=[e for e in draft.entities if isinstance(e, str)][:10],
        needs=needs,
        actions=[call.model_copy(update={"purpose": purposes.get(call.tool)}) for call in check.calls],
        source=source,
        validation=reasons or [ReasonCode.PLAN_OK],
        validation_detail=details,
        complete=complete,
    )


def _label(code: NeedCode, domain: str | None) -> str:
    prefix = _DOMAIN_LABEL.get(domain or "", "") if code is not NeedCode.TASK_STATE else ""
    return prefix + _NEED_LABEL[code]


def _keep_constraints(
    question: str,
    normalized: str,
    calls: list[ToolCall],
    today: date,
    reasons: list[ReasonCode],
    details: list[str],
) -> tuple[list[ToolCall], str]:
    """Invariant 2: restore the question's own words and date window where the plan lost them."""
    texts = [normalized] + [str(c.arguments.get("query", "")) for c in calls]
    issues = compare_constraints(question, "\n".join(texts))
    lost = [i for i in issues if i.severity == "contradiction" or i.code == "constraint_lost"]
    restored: list[ToolCall] = []
    if lost:
        reasons.append(ReasonCode.CONSTRAINT_RESTORED)
        details.append("; ".join(sorted({i.code for i in lost})))
        normalized = question
    window = task_window(question, today)
    for call in calls:
        arguments = dict(call.arguments)
        if call.tool == AgentTool.KNOWLEDGE_SEARCH and lost:
            arguments["query"] = question
        if call.tool == AgentTool.MY_CURRENT_TASKS and window:
            dates = {k: arguments.get(k) for k in ("dateRange", "startDate", "endDate")}
            wanted = {k: window.get(k) for k in ("dateRange", "startDate", "endDate")}
            if dates != wanted:
                reasons.append(ReasonCode.CONSTRAINT_RESTORED)
                details.append(f"task window {dates} → {wanted}")
                arguments = {**{k: v for k, v in arguments.items() if k not in dates}, **window}
        restored.append(call.model_copy(update={"arguments": arguments}))
    return restored, normalized


# --------------------------------------------------------------------------- planners

_SYSTEM_PROMPT = """You plan how to answer an employee's HR question with read-only tools.
Return JSON: {"intent": one of POLICY_QUESTION|MY_TASKS|TASKS_AND_POLICY|UNSUPPORTED,
"domain": one of reimbursement|leave|null, "normalized_question": the question, keeping every number,
currency, date, period, comparator, negation and version exactly, "entities": [...],
"needs": subset of AMOUNT_RULE|PROCESS_STEPS|MATERIALS|APPROVAL|ELIGIBILITY|TASK_STATE,
"actions": [{"tool": name, "arguments": {...}}] using only the tools below and only their arguments.
Never name a tenant, user, project, space, app or role: the server supplies them."""


class ModelPlanner:
    """A planner model: sees the resolved question and the tool schemas, never the context."""

    def __init__(self, model: Model) -> None:
        self._model = model

    def propose(self, resolved: ResolvedContext, registry: ToolRegistry) -> PlannerDraft:
        tools = [t for t in registry.describe_for_model() if t["name"] in AgentTool.__members__]
        messages = [
            Message("system", _SYSTEM_PROMPT + "\nTools:\n" + json.dumps(tools, ensure_ascii=False)),
            Message("user", resolved.resolved_question),
        ]
        return self._model.request(messages, PlannerDraft, role="planner").output


class SemanticPlanner:
    """The model when there is one, the rules otherwise or after it fails; always validated."""

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        model: Model | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._registry = registry
        self._model = ModelPlanner(model) if model is not None else None
        self._clock = clock or (lambda: datetime.now(UTC))

    def plan(self, resolved: ResolvedContext) -> SemanticQueryPlan:
        today = self._clock().date()
        earlier: list[ReasonCode] = []
        earlier_detail: list[str] = []
        source = PlanSource.RULES
        if self._model is not None:
            try:
                draft = self._model.propose(resolved, self._registry)
            except ModelError as exc:
                source = PlanSource.RULES_AFTER_MODEL_FAILURE
                earlier, earlier_detail = [ReasonCode.MODEL_FAILED], [type(exc).__name__]
            else:
                plan = validate_draft(draft, resolved, self._registry, today=today, source=PlanSource.MODEL)
                if plan.complete:
                    return plan
                # Discarded whole, or a need no action serves: the rules plan from scratch.
                source = PlanSource.RULES_AFTER_DISCARD
                earlier, earlier_detail = plan.validation, plan.validation_detail
        rules = propose_by_rules(resolved, today)
        plan = validate_draft(rules, resolved, self._registry, today=today, source=source)
        return plan.model_copy(
            update={
                "validation": [*earlier, *plan.validation],
                "validation_detail": [*earlier_detail, *plan.validation_detail],
            }
        )

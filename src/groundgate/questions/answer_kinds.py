"""Does a statement give the kind of answer a need asks for? A figure for "how many", a time or a
condition for "when", a cause for "why", an approver for "who approves", an identifier for "which
refund number", a retention for "how long is it kept" (docs/design.md §8, "Coverage").

Split out of `groundgate.questions.coverage` (step 4 of its matching). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from groundgate.contracts import AnswerKind, ConditionKind, Need
from groundgate.questions.conditions import quantity_interval
from groundgate.questions.confirmations import says_asserted_figures
from groundgate.questions.firsts import asks_first, says_first
from groundgate.questions.needs import term_weight
from groundgate.questions.record_sets import asks_record_set, names_record_set
from groundgate.questions.statements import _FLAT, Statement
from groundgate.questions.when import states_a_time
from groundgate.text.lexicon import default_lexicon
from groundgate.text.segmentation import is_cjk_text, stem, tokenize
from groundgate.verify import fidelity

__all__ = ["failure_terms", "gives_kind"]

_NUMERIC: Final = frozenset(
    {"amount", "percent", "duration", "size", "measure", "count", "number", "range", "period"}
)
#: A question asking under what condition, which a clock time alone does not answer.
_ASKS_CONDITION: Final = re.compile(
    r"什么条件|什么情况下|何种情况|哪些条件|\bunder\s+what\s+conditions?\b|\bwhat\s+conditions?\b",
    re.IGNORECASE,
)
_CONDITION_WORDS: Final = re.compile(
    r"满足|达到|连续|持续|稳定|之后|以后|以上|以下|低于|高于|恢复|确认|\b(?:after|once|until|only\s+if|provided|stable|"
    r"for\s+(?:at\s+least\s+)?\d+)\b",
    re.IGNORECASE,
)
#: A question asking for a clock time or a day, which no condition answers.
_ASKS_CLOCK: Final = re.compile(
    r"几点|几时几分|哪天|哪一天|几号|\bwhat\s+time\b|\bat\s+what\s+time\b|\bwhich\s+(?:day|date)\b",
    re.IGNORECASE,
)
#: A span asked by its two ends ("从几点到几点", "from what time to what time", "between which times").
_ASKS_SPAN: Final = re.compile(
    r"从几点(?:几分)?(?:到|至)几点|从什么时候(?:到|至)什么时候|\bfrom\s+what\s+time\s+(?:to|until|till)\s+what\s+time\b|"
    r"\bbetween\s+(?:what|which)\s+times\b",
    re.IGNORECASE,
)
#: Two clock times joined as the ends of one span (`03:20 至 04:05`, "14:05 to 14:32").
_TIME_RANGE: Final = re.compile(
    r"\d{1,2}:\d{2}(?::\d{2})?\s*(?:（UTC）|\(UTC\)|UTC)?\s*(?:至|到|~|～|-|–|—|\bto\b|\buntil\b|\btill\b|\bthrough\b)"
    r"\s*\d{1,2}:\d{2}",
    re.IGNORECASE,
)
#: Words naming both ends of a span (`从 14:05 持续到 14:32`, `第一分钟…最后一分钟`, `impact_start=… impact_end=…`).
_BOTH_ENDS: Final = re.compile(
    r"(?:从|自|第一|最早|开始|start|first|from).*(?:到|至|最后|最晚|结束|end|last|until|\bto\b)",
    re.IGNORECASE | re.DOTALL,
)
_WHEN_WORDS = re.compile(
    r"当|若|如果|一旦|之前|之后|以后|以前|期间|时|超过|持续|"
    r"\b(?:when|whenever|if|once|after|before|until|during|within|while|above|below)\b",
    re.IGNORECASE,
)
_CAUSE_WORDS = re.compile(
    r"因为|由于|导致|原因|根因|造成|引起|所致|错误|报错|失败|超时|耗尽|异常|拒绝|不可用|打满|占满|余额不足|"
    r"\b(?:because|due|cause[sd]?|caused|result(?:s|ed)?|led|error|errors|fail\w*|failure|timeout|timed|"
    r"exhaust\w*|refus\w*|reject\w*|declin\w*|insufficient|reason|no\s+response|unavailable|saturat\w*|"
    r"exceed\w*|down|outage)\b",
    re.IGNORECASE,
)
#: The fields of a record line that state its outcome (`status=FAILED`, `error_code=ERR_TIMEOUT`, a
#: record's `order.failure_code [...]: ERR_TIMEOUT`, `status PENDING -> FAILED`, the line's level): a
#: "why did it fail" is not answered by its outcome restated, only by a line that says what happened
#: (`no response in 3000ms`, `acquire connection timeout`, `reason=insufficient_balance`) —
#: docs/design.md §8, "Answer kinds". `_OUTCOME_NAMES`: the same fields named by a fact's source.
_FIELDS = r"(?:status|state|error_code|failure_code|result|outcome)"
_OUTCOME_FIELDS = re.compile(
    rf"\b(?:\w+\.)?{_FIELDS}(?:\s*\[[^\]]*\])?\s*[=:]\s*\S+"
    r"|\b(?:status\s+)?[A-Z][A-Z_]+\s*->\s*[A-Z][A-Z_]+\b"
    r"|\b(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|CRITICAL):"  # a log line's level: how bad, not why
)
_OUTCOME_NAMES = re.compile(rf"{_FIELDS}\b", re.IGNORECASE)


def failure_terms(need: Need) -> frozenset[str]:
    """The terms of a "why did <record> fail" that name the failure itself (`fail`, `失败`, `报错`).
    The line that gives the cause is about the record (it names it) and says what happened (`no
    response in 3000ms`); it need not repeat the failure, and the lines that do restate the outcome
    (`status=FAILED`). Empty for any other need."""
    if need.kind is not AnswerKind.REASON or not need.anchors:
        return frozenset()
    return frozenset(t for t in need.terms if _CAUSE_WORDS.fullmatch(t))


def _restates_predicate(word: str, terms: Sequence[str]) -> bool:
    """Whether a cause word is one of the question's own terms (`FAILED` for "why did it fail")."""
    w = word.lower()
    if not w.isascii():
        return w in terms
    # A Chinese question's predicate restated in a record's English (`payment failed` for 为什么失败).
    said = [_PREDICATE_EN.get(t, t) for t in terms]
    return any(t.isascii() and len(t) >= 3 and w[:4] == t.lower()[:4] for t in said)


#: The English a record line uses for a Chinese question's failure word.
_PREDICATE_EN: Final = {"失败": "fail", "报错": "error", "超时": "timeout"}


_ACTION_WORDS = re.compile(
    r"应|需|须|必须|先|再|然后|检查|重启|扩容|回滚|联系|提交|申请|按|计算|发放|执行|确认|切换|升级|调整|设置|"
    r"打开|关闭|通知|上报|处理|排查|查看|拆分|限流|降级|观察|等待|重试|停止|清理|删除|避免|不要|降低|提高|"
    r"\b(?:should|must|need|needs|first|then|check|restart|"
    r"run|contact|submit|split|scale|roll|increase|decrease|reduce|raise|set|open|close|call|use|apply|verify|"
    r"escalate|page|watch|switch|upgrade|disable|enable|remove|add|rotate|create|file|ask|follow|look|find|"
    r"inspect|investigate|review|lower|move|keep|wait|retry|stop|kill|clear|delete|avoid|never|do\s+not)\b",
    re.IGNORECASE,
)
_FLOOR = re.compile(
    r"[0-9０-９一二三四五六七八九十]+\s*(?:楼|层)|\b\d+(?:st|nd|rd|th)?\s+floor\b|\bfloor\s+\d+\b|\b\d+F\b",
    re.IGNORECASE,
)


_FREQUENCY = re.compile(
    # "every 90 days", "once a week" — not "every API request": `every`/`each`/`per` with a period
    r"(?i)\b(?:every|each|per)\s+(?:\d+\s+|other\s+|few\s+|couple\s+of\s+)?"
    r"(?:seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|quarters?|years?|night|morning|shift|sprint|release|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|(?:business|working)\s+days?)\b"
    r"|\b(?:once|twice|daily|weekly|monthly|quarterly|yearly|annually|hourly)\b"
    r"|每[^，。；,;]{0,6}(?:次|天|日|周|月|季度|年|小时|分钟)|[一二两三四五六七八九十\d]+\s*次"
)


_PERSON_WORDS = re.compile(
    r"负责人|经理|总监|主管|组长|总裁|董事|老板|上级|领导|专员|团队|小组|值班|同事|员工|本人|部门|[A-Z]{2,}|"
    r"商户|平台|公司|客户|用户|买家|卖家|甲方|乙方|个人|银行|租户|供应商|"
    r"由[^，。；,;]{1,10}?(?:承担|负责|审批|批准|处理|支付|发起|确认|决定|签字)|"
    r"[\u4e00-\u9fff](?:组|部|人|官|长|师|员)(?![\u4e00-\u9fff]{0,1}时)|"
    r"(?i:\b(?:lead|leads|owner|owners|manager|managers|director|head|engineer|engineers|team|teams|"
    r"on-call|oncall|commander|ceo|cto|cfo|coo|founder|admin|administrator|approver|approvers|"
    r"reviewer|officer|staff|employee|employees|chair|president|he|she|merchant|merchants|"
    r"customer|customers|user|users|platform|company|bank|vendor|supplier|tenant|tenants|"
    r"approved\s+by|paid\s+by|borne\s+by|owned\s+by|signed\s+off\s+by)\b)|"
    r"\b[A-Z][a-z]+\s+[A-Z][a-z]+\b"
)


def _without_asked_group(text: str, need: Need) -> str:
    """The statement less the asked entity when that entity is itself a group or role ("Who runs *Team
    A*'s standup?"): its name, and its kind word elsewhere ("Team A is the checkout *team*"), describe
    it — they do not say who runs it."""
    for anchor in need.anchors:
        heads = {m.group(0).lower() for m in _PERSON_WORDS.finditer(anchor)}
        if not heads:
            continue
        text = re.sub(re.escape(anchor), " ", text, flags=re.IGNORECASE)
        for head in heads:
            text = re.sub(rf"(?i)(?<![A-Za-z]){re.escape(head)}(?![A-Za-z])", " ", text)
    return text


_CLAUSE_CUT: Final = re.compile(r"[,;!?]\s|\.(?:\s|$)")
_RECORD_MARKS: Final = re.compile(r"[{}=|:]|\t")


def _figure_about_other_thing(s: Statement, m: fidelity.Mention, need: Need) -> bool:
    """The figure's own clause names none of the question's words, though the statement does (in
    the same script): `the 30-day availability budget` under "how long may the gateway wait" is a
    duration of something else. Across scripts nothing can be compared, so nothing is ruled out."""
    if is_cjk_text(need.text) or s.text_has_cjk or _RECORD_MARKS.search(s.text):
        # English prose only: Chinese words need the synonym folding to compare (`年休假` / `年假`),
        # and a record or log line (`{error_code=…, service=…}: max 2.3`) has no clauses to cut.
        return False
    start = max((cut.end() for cut in _CLAUSE_CUT.finditer(s.text, 0, m.start)), default=0)
    end = next((cut.start() for cut in _CLAUSE_CUT.finditer(s.text, m.end)), len(s.text))
    clause = s.text[start:end]
    terms = [t for t in need.terms if term_weight(t) > 0]
    if not terms:
        return False
    words, everywhere = _part_stems(clause), _part_stems(s.text)
    stems = [stem(t.lower()) for t in terms]
    return not any(t in words for t in stems) and any(t in everywhere for t in stems)


def _part_stems(text: str) -> set[str]:
    """Stems of `text`'s words, a compound split into its parts (`payment-gateway` has `gateway`)."""
    return {stem(part) for word in tokenize(text) for part in re.split(r"[_\-./]+", word) if part}


_TIMED_SERIES: Final = re.compile(
    r"\b[a-z][a-z0-9_]*_(?:ms|seconds|duration|latency)(?:_[a-z0-9]+)*\b|_p\d{2}_ms\b"
)


def gives_kind(s: Statement, need: Need, *, lexicon: bool = False) -> bool:
    """Whether `s` gives the kind of answer `need` asks for (the module docs list the kinds).
    `lexicon`: the bundled lexicon's synonyms of the question's words count as its words (a client
    dinner is business entertainment)."""
    kind = need.kind
    if s.text.startswith("log.count") and not (
        kind is AnswerKind.QUANTITY and _ASKS_OCCURRENCES.search(need.text)
    ):
        # A count of matching log lines (`log.count … total 4`) answers "how many errors / times",
        # nothing else: not "刚开单的时候定的是几级" (a level), not what the lines say.
        return False
    if asks_first(need) and not says_first(s):
        # "那天最早响的是哪个告警": which came first, an order in time a rule naming alerts does not give.
        return False
    if _DESCRIBES_DOCUMENT.search(s.text) or not says_asserted_figures(s.text, need.text):
        # "This runbook describes how … certificates are renewed": what the document covers, not what it
        # says. "…最多 5 次部分退款，对吗": only a figure of that measure confirms it (`confirmations.py`).
        return False
    if _ASKS_LEVEL.search(need.text) and kind is not AnswerKind.PERSON:
        # "Which severity should the incident get?", "定为几级": a level is named (`SEV2`, `P1`, `二级`),
        # not a sentence about severities in general ("Severity can be raised at any time"); the level
        # is the figure `几级` asks (`级别 SEV2` gives it, though it is no count).
        return bool(_SAYS_LEVEL.search(s.text))
    if kind not in _NOT_IDENTIFIER_KINDS and _ASKS_IDENTIFIER.search(need.text):
        # "对应的退款单号是哪个" / "which ticket number": an identifier other than the ones the
        # question names (`order.status … ORD-…: REFUNDED` names the order, not its refund).
        own = {a.lower() for a in need.anchors}
        return any(
            m.kind == "identifier" and m.qualifier != "config_key" and m.text.lower() not in own
            for m in s.mentions
        ) or any(code.lower() not in own for code in _CODE.findall(s.text) if not code.isdigit())
    if kind is AnswerKind.QUANTITY:
        if need.value_kinds == ["frequency"]:
            # "How often": a recurrence (`every 90 days`, `每季度一次`, `daily`), not any duration.
            return bool(_FREQUENCY.search(s.text))
        if need.value_kinds == ["floor"]:
            # "几楼": a floor (`5 楼`, `五层`, `5th floor`), not the room's size (`12 人`).
            return bool(_FLOOR.search(s.text))
        if (
            "duration" in need.value_kinds
            and _ASKS_RETENTION.search(need.text)
            and not _SAYS_RETENTION.search(s.text)
            and not _SAYS_RETENTION.search(s.context)
        ):
            # "How long does es-search keep its slow log?" asks how long something is kept: a
            # duration of another thing (`queries slower than 2 seconds are written to the slow log`)
            # is not the answer.
            return False
        if _ASKS_LIMIT.search(need.text) and not _SAYS_LIMIT.search(f"{s.context}\n{s.text}"):
            # "连接池上限是多少" / "what is the pool's limit": a configured bound, not an observed
            # peak (`db_pool_active_connections … max 34 at 14:11`).
            return False
        taken = {c.dimension for c in need.conditions if c.kind is ConditionKind.QUANTITY}
        # A series measured in time units (`http_request_duration_p99_ms{…} was 1850`) states
        # durations as bare numbers.
        timed = "duration" in need.value_kinds and bool(_TIMED_SERIES.search(s.text))
        for m in s.mentions:
            allowed = not need.value_kinds or m.kind in need.value_kinds or (timed and m.kind == "number")
            if m.kind not in _NUMERIC or not allowed:
                continue
            if (
                str(m.unit or m.kind) in taken
                and quantity_interval(s.text, m)[0] != quantity_interval(s.text, m)[1]
            ):
                continue  # `满 10 年的` restates the condition; it is not the asked figure
            if _figure_about_other_thing(s, m, need):
                continue
            return True
        return False
    if kind is AnswerKind.TIME:
        if _ASKS_SPAN.search(need.text):
            # "从几点到几点", "from what time to what time": both ends, two clock times (`03:20 至
            # 04:05`), not the one time an end of it happened (`04:05 重复推送停止`).
            minutes = {str(m.value)[:5] for m in s.mentions if m.kind == "time"}
            return len(minutes) >= 2 and bool(_TIME_RANGE.search(s.text) or _BOTH_ENDS.search(s.text))
        if _ASKS_CLOCK.search(need.text):
            # "what time", "哪天": a clock time or a day, not a condition (`触发时`).
            return any(m.kind in ("time", "date") for m in s.mentions)
        if _ASKS_CONDITION.search(need.text):
            # "满足什么条件才能宣布结束": a rule's condition, not the time one case of it happened
            # (`04:05 重复推送停止，事故结束`).
            return bool(_WHEN_WORDS.search(s.text) or _CONDITION_WORDS.search(s.text))
        # "When did it recover", "什么时候处理": a time, a date, a day or a span is stated; a sentence
        # with no time (`recovered after the restart`, `当错误率超过 5% 时`) does not say when.
        return states_a_time(s)
    if kind is AnswerKind.REASON:
        # "Why did ORD-… fail?" is not answered by `status: FAILED`: the question's own predicate
        # (fail, 失败) restated is no cause.
        said = _OUTCOME_FIELDS.sub(" ", s.text)
        source = _OUTCOME_NAMES.sub(" ", s.context)  # `order:ORD-…:failure_code` names a field, no cause
        flat = " " + _FLAT.sub(" ", f"{said} \n {source}".lower()) + " "
        return any(
            not _restates_predicate(m.group(0), need.terms)
            for text in (said, flat)
            for m in _CAUSE_WORDS.finditer(text)
        )
    if kind is AnswerKind.PERSON:
        # "Who approves": a person, a role or a team is named (`the SRE lead`, `部门负责人`, `Chen Yu`);
        # for an approval, by a sentence that speaks of approving, not one under an approvals heading
        # (`出差结束后 30 天内提交报销单` names no approver).
        if _ASKS_APPROVAL.search(need.text):
            return _names_approver(s.text) and not _approves_other_thing(s, need, lexicon=lexicon)
        return bool(_PERSON_WORDS.search(_without_asked_group(s.text, need)))
    if kind is AnswerKind.PROCEDURE:
        return bool(_ACTION_WORDS.search(s.text)) or any(m.kind in _NUMERIC for m in s.mentions)
    if kind is AnswerKind.LOCATION:
        # "Where is our stand-up", "在哪取": a place is named (a room, a floor, a city, a channel, a
        # path), not who holds the thing ("Team A is the checkout team of Payments-Eng").
        return bool(_SAYS_PLACE.search(s.text))
    if kind is AnswerKind.STATUS:
        # "ORD-… 现在是什么状态": a state, not another field of the same record (`order.channel … CMB`).
        return bool(_SAYS_STATUS.search(s.text))
    if kind is AnswerKind.CHOICE and asks_record_set(need.text):
        # "哪几笔订单…失败的", "which orders failed": the set of records, not one of them (a log line
        # of one order's failure names one of several).
        return names_record_set(s.text)
    if _ASKS_RETURNED.search(need.text):
        # "退款接口会返回什么" / "which error code does it return": a code or status, not a rule.
        return any(m.kind == "identifier" for m in s.mentions) or bool(_CODE.search(s.text))
    return True


_ASKS_LEVEL: Final = re.compile(
    r"\b(?:which|what)\s+(?:severity|priority|sev|level|tier)\b(?!\s+(?:means|mean)\b)"
    r"|(?:定|算|定为|算作|属于|是)(?:几级|什么级别|哪个级别|哪一级|哪一档|什么等级|哪个等级)|(?:优先级|严重级别|严重程度|级别)是(?:多少|什么|哪个)",
    re.IGNORECASE,
)
_SAYS_LEVEL: Final = re.compile(
    r"\b(?:SEV|Sev|sev|P|L|S|T)-?\d\b|\b(?:level|tier|severity|priority)\s+\d\b|[一二三四五六七八九十\d]\s*级(?!别)"
    r"|\b(?:critical|high|medium|low|major|minor)\b",
    re.IGNORECASE,
)
_ASKS_OCCURRENCES: Final = re.compile(
    r"多少(?:次|条|个|笔|回)|几(?:次|条|笔|回)|次数|条数|\bhow many\s+(?:times|errors|lines|entries|events|"
    r"failures|timeouts|requests|occurrences|alerts|warnings|messages)\b|\bhow often\b|\bcount\b",
    re.IGNORECASE,
)
_DESCRIBES_DOCUMENT: Final = re.compile(
    r"^\s*(?:this|the)\s+(?:runbook|document|guide|page|manual|section|article|handbook|faq|reference|chapter)"
    r"\s+(?:describes|covers|explains|outlines|lists|summari[sz]es|is about|introduces)\b"
    r"|^\s*(?:本|该)(?:文档?|手册|指南|页面?|章节?|FAQ|说明书)(?:主要)?(?:介绍|描述|概述|涵盖|列出|说明了?)",
    re.IGNORECASE,
)
_ASKS_LIMIT: Final = re.compile(r"上限|限额|封顶|\blimit\b|\bcap\b|\bmax(?:imum)? size\b", re.IGNORECASE)
_SAYS_LIMIT: Final = re.compile(
    r"上限|限额|封顶|不超过|不得超过|不能超过|至多|最多|最大|\blimit|\bcap\b|\bcapacity\b|\bmaximum\b|\bmax[_ ]?"
    r"(?:size|connections|conn|pool|replicas|value)\b|\bmax_\w+|\bup to\b|\bat most\b|\bno more than\b|"
    r"\bexceed|超过|超出|配额|限流|\bquotas?\b|\bthrottl|\bqps\b|\brps\b|per second",
    re.IGNORECASE,
)
_SAYS_STATUS: Final = re.compile(
    r"\bstat(?:us|e)\b|状态|\b(?:PENDING|SUCCE\w*|FAIL\w*|REFUND\w*|CLOSED|OPEN|RESOLVED|FIRING|ACTIVE|"
    r"INACTIVE|RUNNING|STOPPED|DONE|CANCEL\w*|EXPIRED|PAID|UNPAID|PROCESSING|CREATED|MITIGATED|DEGRADED|"
    r"HEALTHY|UNHEALTHY|DOWN|ONGOING)\b|成功|失败|处理中|已?退款|已关闭|已完成|待处理|进行中|已取消|已?恢复|"
    r"已解决|降级|正常|异常|未完成|已过期|生效|失效",
    re.IGNORECASE,
)
_SAYS_PLACE: Final = re.compile(
    r"\b(?:rooms?|floors?|buildings?|offices?|halls?|headquarter\w*|HQ|campus|city|cities|zoom|teams|slack|"
    r"channels?|online|remote|site|regions?|data\s*cent(?:er|re)s?|clusters?|namespaces?|s?ftp|paths?|"
    r"director(?:y|ies)|folders?|buckets?|urls?|links?|portal|console|dashboards?|pages?|tabs?|menus?|"
    r"systems?|servers?|hosts?|repo\w*|wiki|confluence|grafana|kibana|e-?mail|inbox|queues?|topics?|"
    r"databases?|tables?|files?|endpoints?|address)\b"
    r"|(?:^|[\s(（:：])[/#~]\w|https?://|(?-i:\b(?:in|at|on|under|via|inside|into|from)\s+(?:the\s+)?[A-Z#/`])"
    r"|室|楼|层|厅|城市|[省市区县]|路径|目录|文件夹|频道|群|线上|官网|后台|控制台|系统|地址|总部|办公|现场|平台|页面|"
    r"菜单|邮箱|邮件|服务器|机房|仓库|[在到于往][^，。；;,]{1,20}(?:中|里|上|内|下|处)",
    re.IGNORECASE,
)
_ASKS_RETENTION: Final = re.compile(
    r"\b(?:keep|kept|retain(?:ed)?|store[sd]?)\b|保留|保存|留存|存多久", re.IGNORECASE
)
_SAYS_RETENTION: Final = re.compile(
    r"\b(?:keep|keeps|kept|retain|retains|retained|retention|store[sd]?|storage|ttl|expire[sd]?|purged?|"
    r"deleted|archived?)\b|保留|保存|留存|存储|过期|清理|删除|归档",
    re.IGNORECASE,
)
_ASKS_APPROVAL: Final = re.compile(r"审批|批准|审核|签批|核准|谁批|\bapprov|\bsign[- ]?off\b", re.IGNORECASE)
_SAYS_APPROVAL: Final = re.compile(
    r"审批|批准|审核|签批|核准|批|\bapprov|\bsign[- ]?off|\bsigns?\b", re.IGNORECASE
)

#: An approval clause and what it approves, the words between the clause's start and the verb:
#: `借款需部门总监审批` approves `借款`, `schema changes additionally need DBA approval` approves
#: `schema changes`. A clause that starts at the approver (`由直属经理审批`) names no object.
_ZH_APPROVAL_OF: Final = re.compile(
    r"(?P<head>[^，。；：,;:]*?)(?:还|另|也|均|都)?(?:需要?|须|必须|应|要)(?:经过?|由|报)?[^，。；,;]{1,14}?(?:审批|批准|签批|核准)"
)
_EN_APPROVAL_OF: Final = re.compile(
    r"(?P<head>[^,;.:]*?)\b(?:must|needs?|requires?|shall|should)\s+(?:also\s+|additionally\s+)?"
    r"(?:be\s+)?(?:approved|(?:\w+\s+){0,3}(?:approval|sign[- ]?off))",
    re.IGNORECASE,
)
#: Words in an approval clause's head that do not name what is approved.
_HEAD_FILLER: Final = re.compile(
    r"[的了是都还也均另则时后前由并且而对于其各所有需要须应可以被将在]|\d+(?:[.,]\d+)*%?|"
    r"(?i:\b(?:the|a|an|all|any|each|every|also|additionally|then|and|or|of|for|to|in|on|that|which|it|"
    r"they|this|these|those|such)\b)"
)


def _names_approver(text: str) -> bool:
    """Someone is named at an approval verb: just before it (`部门总监审批`, `DBA approval`), or after
    `由`/`by`/`from` (`由直属经理和部门总监依次审批`, `approved by the SRE lead`). `审批层级` under "本流程
    规定员工费用报销…的审批层级" speaks of approving but names no approver."""
    for m in _SAYS_APPROVAL.finditer(text):
        before = text[max(0, m.start() - 12) : m.start()]
        after = text[m.end() : m.end() + 30]
        if is_cjk_text(before):
            # An acronym counts only right at the verb (`财务 VP 审批`): `OA 系统中的审批` names a system.
            before = _ACRONYM.sub(" ", before[-8:-3]) + before[-3:]
        if _PERSON_WORDS.search(before) or (_BY_PERSON.match(after) and _PERSON_WORDS.search(after)):
            return True
    return bool(_BY_APPROVER.search(text))


_ACRONYM: Final = re.compile(r"[A-Z]{2,}")
#: After an approval verb, the approver: `approved by the SRE lead`, `sign-off from finance`.
_BY_PERSON: Final = re.compile(r"\s*(?:by|from|of)\b", re.IGNORECASE)
#: `由 X … 审批` with the approver between (`由直属经理和部门总监依次审批`).
_BY_APPROVER: Final = re.compile(r"由[^，。；,;]{1,16}?(?:审批|批准|签批|核准|审核)")


@lru_cache(maxsize=1024)
def _with_synonyms(text: str) -> str:
    """`text` and the lexicon's other terms for the terms it holds (once per question, not per
    statement matched against it)."""
    return text + " " + " ".join(alt for _, alts in default_lexicon().expansions(text) for alt in alts)


def _approves_other_thing(s: Statement, need: Need, *, lexicon: bool = False) -> bool:
    """Every approval clause of `s` that names what it approves names something the question does
    not: `借款需部门总监审批` does not say who approves a 报销单, and `超标金额超过标准 30% 的还需财务 VP
    审批` does not say who approves "超出来的部分" (docs/design.md §8, "Coverage").

    Loose on purpose: the object counts as the question's when any two-character run (Chinese) or
    any word stem (English) of it is in the question, so only an object with nothing in common is
    ruled out; a clause that names no object (`由直属经理审批`) rules nothing out."""
    asked = _with_synonyms(need.text) if lexicon else need.text
    objects = [
        head
        for rx in (_ZH_APPROVAL_OF, _EN_APPROVAL_OF)
        for m in rx.finditer(s.text)
        if (head := _HEAD_FILLER.sub(" ", m.group("head")).strip())
    ]
    if not objects:
        return False
    asked_stems = _part_stems(asked)
    for head in objects:
        runs = re.findall(r"[\u4e00-\u9fff]+", head)
        bigrams = {run[i : i + 2] for run in runs for i in range(len(run) - 1)}
        latin = _part_stems(re.sub(r"[\u4e00-\u9fff]+", " ", head))
        if not bigrams and not latin:
            return False  # only one Chinese character left: nothing to compare
        if any(b in asked for b in bigrams) or latin & asked_stems:
            return False
    return True


#: A question asking for an identifier: a refund number, a ticket id, an order number.
_ASKS_IDENTIFIER: Final = re.compile(
    r"(?:单号|编号|号码|流水号|工单号|\bID\b)\s*(?:是|为)?\s*(?:哪个|哪一个|什么|多少|是啥|几)|"
    r"\b(?:what|which)\b[^?]{0,40}\b(?:ids?|identifiers?|(?:ticket|order|refund|incident|case|change|trace)"
    r"\s+(?:numbers?|no\.?|ids?))\b",
    re.IGNORECASE,
)
_NOT_IDENTIFIER_KINDS: Final = frozenset(
    {AnswerKind.PERSON, AnswerKind.TIME, AnswerKind.REASON, AnswerKind.PROCEDURE}
)

#: A question about what a call returns or reports asks for a code or status.
_ASKS_RETURNED: Final = re.compile(
    r"返回(?:什么|啥|哪个|哪些)|报(?:什么|啥|哪个)错|(?:什么|哪个)错误码|"
    r"\b(?:what|which)\b[^?]{0,40}\b(?:return|returns|respond|responds)\b|\bwhich\s+(?:error|status)\s+code\b",
    re.IGNORECASE,
)
_CODE: Final = re.compile(r"\b[A-Z][A-Z0-9]*[-_][A-Z0-9_-]+\b|\b[1-5]\d\d\b")

"""The evidence evaluator, slot by slot (seed "agent.evidence", "证据资格与结论校验").

A document passage covers a need only if all three hold (fail-closed: any doubt is "not covered"):

1. **governance** — tenant, effective dates, project scope, authority level and document kind pass
   (`governance_reason`); the kinds a need accepts are `NEED_KINDS`: an amount or eligibility rule
   only from a `policy`, so a manual's steps never prove an amount or who is eligible;
2. **candidate labels** — its `supportedNeedCodes` name the need and its `claimTypes` the need's
   claim type (`NEED_CLAIM_TYPE`); labels come from a model or loose cues and are never enough alone
   (invariant 8);
3. **text** — a conservative check of its own text, instruction-like stretches blanked out, finds a
   sentence of that claim type (`supporting_sentences`): an amount with a rule cue for
   `AMOUNT_RULE`, two ordered steps for `PROCESS_STEPS`, … An amount clause therefore supports only
   `AMOUNT_RULE`, whatever it was labelled.

Among the passages that qualify for a need, only the highest authority level stands (the others are
`OUTRANKED`). Two qualifying sources of that level that state different amounts or periods for the
question's subject make the slot `CONFLICT`, citing both.

`TASK_STATE` is live state: only a `VerifiedFact` of this run's own tool results covers it, unexpired
and read under the current tenant/user/project; a document never does, and a fact never covers a
document need (invariant 3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Final

from groundgate.agent.apart import compared_words, only_word, per_word
from groundgate.agent.contracts import (
    NEED_CLAIM_TYPE,
    DocumentEvidence,
    EvidenceAssessment,
    EvidenceNeed,
    EvidenceSlot,
    ExecutionContext,
    NeedCode,
    ReasonCode,
    RejectedCandidate,
    SlotStatus,
    ToolResult,
    VerifiedFact,
)
from groundgate.agent.due_against import due_against_deadline
from groundgate.agent.excluded import not_excluded
from groundgate.agent.subjects import (
    ALTERNATIVES,
    STEP_TAKES,
    alternatives_offered,
    names_entities,
    need_subject,
    on_subject,
    place_unranked,
    steps_timed,
    subject_terms,
)
from groundgate.agent.task_pointers import ambiguous_tasks, named_tasks, pointed_task
from groundgate.agent.tools import COMPANY_SCOPE, snapshot
from groundgate.agent.vocabulary import (
    LATE_CLAIM,
    NEED_CUES,
    OFFERED_FIGURES,
    START_ASKED,
    STILL_IN_TIME,
    entities_in,
)
from groundgate.contracts import ToolStatus
from groundgate.contracts.evidence import Authority
from groundgate.questions import quantity_interval
from groundgate.text import mask_instructions, split_sentences, tokenize
from groundgate.verify.fidelity import extract
from groundgate.verify.fidelity.numbers import parse_chinese_numeral

__all__ = [
    "BEYOND_RULE",
    "NEED_KINDS",
    "EvidenceEvaluator",
    "ambiguous_tasks",
    "compared_words",
    "condition_fit",
    "fitting",
    "governance_reason",
    "named_tasks",
    "on_topic_sentences",
    "only_word",
    "month_asked_as_then",
    "supporting_sentences",
]

#: Document kinds that may support each need (seed: "制度/流程结论只能由合适 authority/kind 的
#: DocumentEvidence 支持").
NEED_KINDS: Final[dict[NeedCode, frozenset[str]]] = {
    NeedCode.AMOUNT_RULE: frozenset({"policy"}),
    NeedCode.ELIGIBILITY: frozenset({"policy"}),
    NeedCode.APPROVAL: frozenset({"policy", "process"}),
    NeedCode.MATERIALS: frozenset({"policy", "process", "manual"}),
    NeedCode.PROCESS_STEPS: frozenset({"policy", "process", "manual"}),
}
MIN_AUTHORITY: Final = Authority.OWNED

_RULE_CUE = re.compile(
    r"标准|上限|不超过|不得超过|最高|最多|每(?:天|晚|日|人|次|月|年)|补贴|额度|限额|以内|按|享有|可休|给予|至少|提前|\d+\s*(?:天|个工作日)内"
)
#: What happens beyond an amount rule ("超出标准的部分由员工自行承担"): part of that rule.
BEYOND_RULE = re.compile(r"超(?:出|过)(?:标准|限额|上限)的部分")
_EXAMPLE_CUE = re.compile(r"例如|比如|示例|举例|如：|如:")
_STEP_LINE = re.compile(
    r"^\s*(?:第[一二三四五六七八九十\d]+步|\d{1,2}\s*[.、)）]|[（(]\d{1,2}[)）]|[一二三四五六七八九十]+、|步骤\s*\d)",
    re.MULTILINE,
)
_SEQUENCE = re.compile(r"首先.{1,80}?(?:然后|再|之后|最后)")
_MATERIAL_VERB = re.compile(r"需(?:要)?(?:提供|提交|附|上传|准备|携带)|材料|附件|须附")
_MATERIAL_NOUN = re.compile(r"发票|单据|证明|清单|复印件|截图|行程单|病历|诊断|登机牌|水单|申请表")
_APPROVAL_VERB = re.compile(r"审批|批准|审核|签字|同意")
_APPROVAL_ACTOR = re.compile(r"经理|主管|负责人|HRBP|HR|人力|总监|部门|财务|上级|领导|总经理")
_ELIGIBILITY_CUE = re.compile(
    r"适用于|适用|符合|满\s*\d|入职满|试用期|仅限|方可|才能|可以申请|可申请|有资格|不得申请|不能申请|均可享受"
)


_YEAR = re.compile(r"((?:19|20)\d\d)\s*年")
_LAST_YEAR = re.compile(r"去年|上一年|上年度")
_YEAR_BEFORE = re.compile(r"前年")
_NOW_CUE = re.compile(r"现在|目前|如今|今年|还能|现行")
#: "那会儿的伙食补贴按多少算", "那趟的伙食补贴": the rule of the time the question places itself at, not today's.
#: "那会儿", "当时"…; and a trip said taken in a month of a year named (`今年 2 月…去深圳出差 3 天`, blind 25).
_THEN_CUE = re.compile(
    r"那会儿?|当时|那时候?|那阵子|那趟|那次|那回|那几天"
    r"|(?:今年|\d{4}\s*年)\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月份?[^，,。？?]{0,12}?出差"
    # "王芳2月份出差的饭补", "李明3月底出差3天" (blind 28): a month alone before the trip places it too
    r"|(?<![\d年])(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月(?:份|底|初|末|中旬|上旬|下旬)?[^，,。？?\d]{0,6}?出差"
)
_MONTH = re.compile(r"(?:(\d{4})\s*年|(今年|去年))?\s*(\d{1,2}|[一二三四五六七八九十]{1,3})\s*月份?")


def month_asked_as_then(question: str, today: date) -> date | None:
    """The last day of the earlier month a question asks about as then ("我今年二月份出差了 5 天，
    那会儿的伙食补贴…" → 2026-02-28), when it says so (`_THEN_CUE`) and not "现在"."""
    if not _THEN_CUE.search(question) or re.search(r"现在|目前|如今|现行|还能", question):
        return None
    for m in _MONTH.finditer(question):
        number = parse_chinese_numeral(m.group(3)) if not m.group(3).isdigit() else int(m.group(3))
        if number is None or not 1 <= number <= 12:
            continue
        year = int(m.group(1)) if m.group(1) else today.year - 1 if m.group(2) == "去年" else today.year
        if (year, int(number)) < (today.year, today.month):
            following = date(year + int(number) // 12, int(number) % 12 + 1, 1)
            return following - timedelta(days=1)
    return None


#: "这两天还算伙食补贴吗", "周末算不算": whether a case counts under a rule, not the rule's figure.
_COUNTS_ASKED: Final = re.compile(r"(?:还|也)算[^？?，,。]{0,6}吗|算不算")


_CONDITION_KINDS: Final = frozenset({"amount", "duration", "count", "percent"})


def _intervals(text: str) -> dict[tuple[str, str | None], tuple[float, float, bool, bool]]:
    """Per kind and unit, the interval the text's figures bound (`满 1 年不满 10 年` → [12, 120) months)."""
    out: dict[tuple[str, str | None], tuple[float, float, bool, bool]] = {}
    for m in extract(text):
        if m.kind not in _CONDITION_KINDS or not isinstance(m.value, int | float):
            continue
        lo, hi, lo_in, hi_in = quantity_interval(text, m)
        key = (m.kind, m.unit)
        if key in out:
            plo, phi, plo_in, phi_in = out[key]
            lo, lo_in = (lo, lo_in) if lo > plo else (plo, plo_in if lo < plo else plo_in and lo_in)
            hi, hi_in = (hi, hi_in) if hi < phi else (phi, phi_in if hi > phi else phi_in and hi_in)
        out[key] = (lo, hi, lo_in, hi_in)
    return out


_NTH_YEAR = re.compile(r"第\s*(\d+)\s*年")
#: "一年能休几天", "每年有几天", "一年到底几天", "一年的年假": a rate, not a condition on the years served.
_PER_YEAR = re.compile(
    r"(?:一|每)\s*年(?=\s*(?:到底|究竟|大概|大约|一般)?\s*(?:能|可以|有|可|给|一共|总共|共|休|享|几|多少|的))"
)


_YEARS_AND_MONTHS: Final = re.compile(r"(\d+)\s*年\s*(?:零|又)?\s*(\d+)\s*个?月")
#: "十九年半", "3 年半": a length of service with half a year on top, in months.
_YEARS_AND_A_HALF: Final = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*年半")
#: "离二十年还差一点": short of that length (a hint beside the length itself, dropped).
_TIME_GONE: Final = re.compile(
    r"(?:都|已经|快)?\s*(?:\d+|[一二两三四五六七八九十几半]+)\s*个?\s*(?:天|周|星期|礼拜|月)(?:了|多)?"
)
_YEARS_TURNED: Final = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*个\s*年头")
_SHORT_OF: Final = re.compile(
    r"离\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:年|个月|天)\s*还?差(?:一点|一些|点|几个月)?"
    # "再过一天就满二十年了" (blind 19): a length not yet reached, beside the one served
    r"|(?:再过|还差|还有)\s*(?:\d+|[一二两三四五六七八九十几半]+)\s*个?\s*(?:天|周|星期|礼拜|月)"
    r"\s*就?\s*(?:要|能|可以)?\s*满\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个?月|年)了?"
)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else int(parse_chinese_numeral(raw) or 0)


def _as_conditions(question: str) -> str:
    """The question's figures as conditions: "第 12 年" has served 满 11 年; a rate is dropped, and so
    are the figures it offers as answers ("年假是 10 天还是 15 天")."""
    question = OFFERED_FIGURES.sub(" ", question)
    question = _NTH_YEAR.sub(lambda m: f"满 {max(int(m.group(1)) - 1, 0)} 年", question)
    # "19 年零 11 个月" is one length of service, 239 months: not 19 years and, apart, 11 months
    # (which no tier holds, so every tier would look contradicted).
    question = _YEARS_AND_MONTHS.sub(lambda m: f"{int(m.group(1)) * 12 + int(m.group(2))} 个月", question)
    question = _YEARS_AND_A_HALF.sub(lambda m: f"{_count(m.group(1)) * 12 + 6} 个月", question)
    # "离二十年还差一点" only says the length is under twenty years, which the length said beside it
    # already places; as a bound of its own it would fit no tier whole.
    question = _SHORT_OF.sub(" ", question)
    if STILL_IN_TIME.search(question):
        # "出差回来都五个礼拜了，现在交还来得及吗": the time gone by is measured against the limit the
        # rule states, not a case the rule must hold for.
        question = _TIME_GONE.sub(" ", question)
    # "干满二十个年头": years
    question = _YEARS_TURNED.sub(lambda m: f"{_count(m.group(1))} 年", question)
    return _PER_YEAR.sub(" ", question)


def condition_fit(sentence: str, question: str) -> bool | None:
    """Whether the figures the question states fall inside the conditions the sentence sets
    ("入职满 10 年" fits "满 10 年不满 20 年", not "满 1 年不满 10 年"; "6000 元" fits "超过 5000 元");
    None when they share no kind of figure."""
    question = _as_conditions(question)
    asked = [
        (m.kind, m.unit, float(m.value))
        for m in extract(question)
        if m.kind in _CONDITION_KINDS and isinstance(m.value, int | float)
    ]
    bounds = _intervals(sentence)
    verdicts: list[bool] = []
    for kind, unit, value in asked:
        interval = bounds.get((kind, unit))
        if interval is None:
            continue
        lo, hi, lo_in, hi_in = interval
        verdicts.append((value > lo or (lo_in and value == lo)) and (value < hi or (hi_in and value == hi)))
    return all(verdicts) if verdicts else None


def fitting(sentences: Sequence[str], question: str) -> list[str]:
    """The sentences whose conditions the question meets ("满 15 年" → the 10-20 year tier, not a
    sentence that bounds no years); else those that at least do not contradict it; else all."""
    verdicts = [(s, condition_fit(s, question)) for s in sentences]
    exact = [s for s, fit in verdicts if fit is True]
    if exact:
        return exact
    keep = [s for s, fit in verdicts if fit is not False]
    if keep and all(BEYOND_RULE.search(s) for s in keep):
        return list(sentences)  # what happens beyond a rule is no answer without the rule
    return keep or list(sentences)


def governance_reason(
    doc: DocumentEvidence, need: NeedCode, ctx: ExecutionContext, today: date
) -> ReasonCode | None:
    """None when the passage's source may support `need` for `ctx` today, else why not."""
    if doc.tenant is not None and doc.tenant != ctx.tenant:
        return ReasonCode.GOVERNANCE_TENANT
    if doc.effective_from is not None and doc.effective_from > today:
        return ReasonCode.GOVERNANCE_NOT_YET_EFFECTIVE
    if doc.effective_to is not None and doc.effective_to < today:
        return ReasonCode.GOVERNANCE_EXPIRED
    scopes = {s.strip().lower() for s in (doc.scope or "").split(",") if s.strip()}
    if scopes and COMPANY_SCOPE not in scopes and (ctx.project or "").lower() not in scopes:
        return ReasonCode.GOVERNANCE_SCOPE
    if doc.authority_level.rank < MIN_AUTHORITY.rank:
        return ReasonCode.GOVERNANCE_AUTHORITY
    if (doc.kind or "").lower() not in NEED_KINDS.get(need, frozenset()):
        return ReasonCode.GOVERNANCE_KIND
    return None


def _has_amount(sentence: str) -> bool:
    """An amount with its currency, an entitlement in days (`年休假 5 天`), or a share of pay
    (`工资按基本工资的 80% 发放`): what a rule grants."""
    return any(
        (m.kind == "amount" and m.unit) or m.kind in ("duration", "percent") for m in extract(sentence)
    )


def supporting_sentences(doc: DocumentEvidence, need: NeedCode) -> list[str]:
    """Sentences of the passage that by themselves state a claim of the need's type (may be empty).

    For `PROCESS_STEPS` the step lines, in order (at least two), or one "首先…然后…" sentence.
    """
    text = mask_instructions(doc.text, doc.instruction_spans)
    if need is NeedCode.PROCESS_STEPS:
        lines = [line.strip() for line in text.splitlines() if _STEP_LINE.match(line)]
        if len(lines) >= 2:
            return lines
        return [s.text for s in split_sentences(text) if _SEQUENCE.search(s.text)]
    sentences = [
        s.text for s in split_sentences(text) if s.text.strip() and not s.text.lstrip().startswith("#")
    ]
    if need is NeedCode.AMOUNT_RULE:
        return [
            s
            for s in sentences
            if (_has_amount(s) and _RULE_CUE.search(s) and not _EXAMPLE_CUE.search(s))
            or BEYOND_RULE.search(s)
        ]
    if need is NeedCode.MATERIALS:
        return [s for s in sentences if _MATERIAL_VERB.search(s) and _MATERIAL_NOUN.search(s)]
    if need is NeedCode.APPROVAL:
        return [s for s in sentences if _APPROVAL_VERB.search(s) and _APPROVAL_ACTOR.search(s)]
    if need is NeedCode.ELIGIBILITY:
        return [s for s in sentences if _ELIGIBILITY_CUE.search(s)]
    return []


def on_topic_sentences(doc: DocumentEvidence, need: NeedCode, question: str) -> list[str]:
    """The supporting sentences that name the question's domain words (all of them for steps, which
    are read as one list under their heading)."""
    sentences = supporting_sentences(doc, need)
    if need is NeedCode.PROCESS_STEPS:
        return sentences if names_entities(" ".join(sentences), doc, question, need) else []
    named = [s for s in sentences if names_entities(s, doc, question, need)]
    if need is NeedCode.AMOUNT_RULE:
        # "超出标准的部分由员工自行承担" is about the rule just before it in the text.
        text = mask_instructions(doc.text, doc.instruction_spans)
        order = [sp.text for sp in split_sentences(text)]
        named += [
            s
            for s in sentences
            if s not in named
            and BEYOND_RULE.search(s)
            and any(n in _paragraph_of(text, s) and n in order[: order.index(s)] for n in named)
        ]
        named = [s for s in sentences if s in named]
    sentences = named
    if need in (NeedCode.AMOUNT_RULE, NeedCode.ELIGIBILITY):
        # A figure answers only the aspect asked: "请年假要提前多久" is not answered by how many days
        # of leave there are. The paragraph holding the sentence must name the question's other
        # subject words (those that are not domain words), when it has any.
        aspect = subject_terms(question) - set(entities_in(question))
        if aspect:
            text = mask_instructions(doc.text, doc.instruction_spans)
            named = [s for s in sentences if _names_any(_paragraph_of(text, s), aspect)]
            # Preferred, not required: word segmentation is too unsure a ground to refuse on.
            sentences = named or sentences
        sentences = fitting(not_excluded(sentences, question), question)  # "一二线以外": not 二线's
    offered = alternatives_offered(question) if need is NeedCode.AMOUNT_RULE else []
    if offered:
        # "婚假是按工作日算还是按自然日算？": "婚假 10 天" does not say which.
        sentences = [s for s in sentences if any(word in s for word in offered)]
    if need is NeedCode.AMOUNT_RULE and _ASKS_DAYS.search(question):
        # "病假一年最多能请多少天" asks a number of days: a share of pay (`工资按 80% 发放`) is not one.
        sentences = [s for s in sentences if not _only_percents(s)]
    if need is NeedCode.AMOUNT_RULE and _asked_value_kinds(question) == {"duration"}:
        # "拖到今天才报销还能报吗" asks the time limit: a daily allowance does not answer it.
        sentences = [s for s in sentences if any(m.kind == "duration" for m in extract(s))]
    if need is NeedCode.AMOUNT_RULE and START_ASKED.search(question):
        # "…是从哪天开始执行的？": the day a rule starts, stated by its own sentence ("自…起"); front matter
        # is no statement, so a passage that does not say it leaves the part missing (blind 16).
        sentences = [
            s for s in sentences if _STARTS_ON.search(s) and any(m.kind == "date" for m in extract(s))
        ]
    if need is NeedCode.AMOUNT_RULE and (steps := steps_timed(question)):
        sentences = _timing_the_step(sentences, question, steps)
    if need is NeedCode.AMOUNT_RULE and _TAKEN_WITHIN.search(question):
        # "婚假得在多长时间内休完" asks by when it is taken: "一年内休完" answers it, a notice period
        # ("提前 3 个工作日") or the number of days does not.
        sentences = [s for s in sentences if _WITHIN_STATED.search(s)]
    return sentences


def _timing_the_step(sentences: list[str], question: str, steps: frozenset[str]) -> list[str]:
    """ "审批一般要几天？" (blind 17): how long a step takes is stated only by a sentence that names the
    step — a deadline for the asker's own step ("出差结束后 30 天内提交报销申请") is no answer; when
    nothing else in the question asks an amount, a sentence without a duration (the 5000 元 that picks
    the approver) is none either."""

    def timed(s: str) -> bool:
        return any(m.kind == "duration" for m in extract(s))

    if NEED_CUES[NeedCode.AMOUNT_RULE].search(STEP_TAKES.sub(" ", question)):
        return [s for s in sentences if not timed(s) or any(step in s for step in steps)]
    return [s for s in sentences if timed(s) and any(step in s for step in steps)]


_STARTS_ON: Final = re.compile(r"起|开始|生效|施行|执行")
_TAKEN_WITHIN: Final = re.compile(r"内(?:休|用|请)(?:完|掉)|作废")
_WITHIN_STATED: Final = re.compile(r"(?:年|月|天|日|周)\s*(?:之)?内")


#: A question about a time limit ("还来得及吗", "拖到今天还能报吗", "报销期限") asks a duration; one
#: about money ("多少钱", "标准", "补贴多少") an amount; others either.
_ASKS_DEADLINE: Final = re.compile(
    r"来得及|还能(?:交|报|提)|期限|时限|逾期|截止|最晚|多久|内(?:休|用|请)(?:完|掉)|作废"
    # "多少天之内得把报销交上去": within how many days is a time limit, whatever else the message asks.
    r"|(?:几|多少)(?:个工作)?天(?:之)?内|" + LATE_CLAIM
)
_ASKS_MONEY: Final = re.compile(r"多少钱|几块|多少元|标准|补贴|补助|额度|上限|报多少|给多少|发多少|按多少")


def _asked_value_kinds(question: str) -> frozenset[str]:
    deadline, money = bool(_ASKS_DEADLINE.search(question)), bool(_ASKS_MONEY.search(question))
    if deadline and not money:
        return frozenset({"duration"})
    if money and not deadline:
        return frozenset({"amount"})
    return frozenset({"amount", "duration"})


#: The question ends on a number of days ("最多能请多少天？"); "那几天工资怎么发" names days, asks pay.
_ASKS_DAYS: Final = re.compile(
    r"(?:几|多少)(?:个工作)?天\s*(?:[\u4e00-\u9fff]{0,2}假)?\s*(?:[？?。]|$|呢|吗)|(?:几|多少)(?:个工作)?天假|多久|多长时间"
)


def _only_percents(sentence: str) -> bool:
    kinds = {m.kind for m in extract(sentence) if m.kind in ("amount", "duration", "percent")}
    return kinds == {"percent"}


def _paragraph_of(text: str, sentence: str) -> str:
    """The block of `text` (between blank lines) that holds `sentence`."""
    return next((block for block in re.split(r"\n\s*\n", text) if sentence in block), sentence)


def _names_any(text: str, words: frozenset[str]) -> bool:
    # Whole words only: "工作满 15 年" is not about "3 个工作日".
    return bool(words & set(tokenize(text)))


def _labelled_for(doc: DocumentEvidence, need: NeedCode) -> bool:
    return need.value in doc.supported_need_codes and NEED_CLAIM_TYPE[need] in doc.claim_types


@dataclass
class _Qualified:
    doc: DocumentEvidence
    sentences: list[str]


@dataclass
class EvidenceEvaluator:
    """Judges one run's tool results against the plan's needs (see the module docstring)."""

    ctx: ExecutionContext
    now: datetime
    run_id: str
    question: str = ""
    focus_items: dict[str, str] = field(default_factory=dict)
    """item key → ref: when the question points at earlier items, only those facts count."""
    whole_question: str = ""
    """the question with its task part, where it sets a task's due day against a rule (`agent.due_against`)."""

    def evaluate(self, needs: Sequence[EvidenceNeed], results: Sequence[ToolResult]) -> EvidenceAssessment:
        usable = [r for r in results if r.run_id == self.run_id and r.status is ToolStatus.OK]
        documents = {d.citation_id: d for r in usable for d in r.documents}
        facts = [f for r in usable for f in r.facts]
        assessment = EvidenceAssessment()
        due = bool(self.whole_question) and due_against_deadline(self.whole_question)
        named = set()
        if not self.focus_items and (due or all(n.code is NeedCode.TASK_STATE for n in needs)):
            named = named_tasks(self.whole_question if due else self.question, facts)
        elif not self.focus_items:
            # a task named by its pointer beside a rule asked ("…那条deadline哪天？要带哪些票？"): that task
            named = pointed_task(self.whole_question or self.question, facts)
        for need in needs:
            if need.code is NeedCode.TASK_STATE:
                slot = self._fact_slot(need, facts, assessment, named)
            elif readings := per_word(self.question, need.code):
                slot = self._compared_slot(need, list(documents.values()), assessment, readings)
            else:
                slot = self._document_slot(need, list(documents.values()), assessment)
            assessment.slots.append(slot)
        return assessment

    # ------------------------------------------------------------------ documents

    def _asked_date(self) -> date | None:
        """The day a question about an earlier year asks about ("2025 年那会儿…", "去年…按当时的标准"):
        the end of that year; None for a question about now."""
        today = self.now.date()
        month = month_asked_as_then(self.question, today)
        if month is not None:
            return month
        if _NOW_CUE.search(self.question):
            return None
        years = [int(y) for y in _YEAR.findall(self.question)]
        if _LAST_YEAR.search(self.question):
            years.append(today.year - 1)
        if _YEAR_BEFORE.search(self.question):
            years.append(today.year - 2)
        past = [y for y in years if y < today.year]
        return date(min(past), 12, 31) if past and len(past) == len(years) else None

    def _document_slot(
        self,
        need: EvidenceNeed,
        documents: list[DocumentEvidence],
        assessment: EvidenceAssessment,
    ) -> EvidenceSlot:
        # Facts are never candidates for a document need (invariant 3).
        slot = EvidenceSlot(need=need)
        subject = need_subject(self.question, need.code)
        today = self.now.date()
        asked = self._asked_date()
        qualified: list[_Qualified] = []
        for doc in documents:
            # Validity is judged on the day asked about: a question about now takes the rules in
            # force today; one placed in an earlier month or year takes those in force then — a
            # later rule does not say what applied, and the version that did, though superseded
            # since, does (docs/agent.md, "Superseded rules"; the answer says it is no longer in force).
            reason = governance_reason(doc, need.code, self.ctx, asked or today)
            if reason is None and not _labelled_for(doc, need.code):
                reason = ReasonCode.LABEL_MISSING
            if reason is None and not on_subject(doc, subject):
                reason = ReasonCode.OFF_SUBJECT
            sentences = on_topic_sentences(doc, need.code, self.question) if reason is None else []
            if reason is None and not sentences:
                # A sentence of the type that is about something else is off subject, not unsupported.
                supported = supporting_sentences(doc, need.code)
                reason = ReasonCode.OFF_SUBJECT if supported else ReasonCode.TEXT_UNSUPPORTED
            if reason is not None:
                slot.rejected.append(RejectedCandidate(citation_id=doc.citation_id, reason=reason))
                continue
            qualified.append(_Qualified(doc, sentences))
        if not qualified:
            return slot
        top = max(q.doc.authority_level.rank for q in qualified)
        for q in qualified:
            if q.doc.authority_level.rank < top:
                slot.rejected.append(
                    RejectedCandidate(citation_id=q.doc.citation_id, reason=ReasonCode.OUTRANKED)
                )
        standing = [q for q in qualified if q.doc.authority_level.rank == top]
        standing = self._most_specific(standing, slot)
        conflict = self._conflict(need.code, standing)
        for q in standing:
            assessment.documents[q.doc.citation_id] = q.doc
        if conflict:
            slot.status = SlotStatus.CONFLICT
            slot.citations = conflict
            assessment.conflicts.append(conflict)
        else:
            slot.status = SlotStatus.COVERED
            slot.citations = [q.doc.citation_id for q in standing]
        return slot

    def _compared_slot(
        self,
        need: EvidenceNeed,
        documents: list[DocumentEvidence],
        assessment: EvidenceAssessment,
        readings: list[str],
    ) -> EvidenceSlot:
        """ "病假和年假比起来…审批上分别还得多找谁？": each word compared keeps its own rule, so the need is
        judged once per word, as if the question named that word alone (or asked only the part about
        it, `apart.per_word`), and is covered only when every word's rule is found (a passage naming
        one of them is not off the subject of the other) — or, for words compared, by the words whose
        rule is found, the others listed as unfound ("病假工资和婚假工资分别怎么算？": sick pay is
        stated, marriage-leave pay no document states; blind 17)."""
        slots = [
            replace(self, question=reading)._document_slot(need, documents, assessment)
            for reading in readings
        ]
        for i, one in enumerate(slots):
            for c in one.citations:
                assessment.read_apart.setdefault(f"{need.code.value}:{c}", []).append(i)
        words = compared_words(self.question)
        found = [one.status is SlotStatus.COVERED for one in slots]
        conflicting = any(one.status is SlotStatus.CONFLICT for one in slots)
        if len(words) == len(slots) and any(found) and not all(found) and not conflicting:
            assessment.unfound += [f"{w}的{need.label}" for w, ok in zip(words, found, strict=True) if not ok]
            slots = [one for one in slots if one.status is SlotStatus.COVERED]
        elif not words and any(found) and not all(found) and not conflicting:
            # parts asked apart ("病假工资咋算？一年最多能请几天病假？", blind 27): the part no document answers
            # is listed as unfound, by its own words, and the others stated
            assessment.unfound += [
                r.strip("？?。！! ") for r, ok in zip(readings, found, strict=True) if not ok
            ]
            slots = [one for one in slots if one.status is SlotStatus.COVERED]
        cited = [c for one in slots for c in one.citations]
        merged = EvidenceSlot(need=need, citations=list(dict.fromkeys(cited)))
        merged.rejected = list(
            dict.fromkeys(r for one in slots for r in one.rejected if r.citation_id not in cited)
        )
        if any(one.status is SlotStatus.CONFLICT for one in slots):
            merged.status = SlotStatus.CONFLICT
        elif all(one.status is SlotStatus.COVERED for one in slots):
            merged.status = SlotStatus.COVERED
        else:
            merged.citations = []
        return merged

    def _most_specific(self, standing: list[_Qualified], slot: EvidenceSlot) -> list[_Qualified]:
        """A rule written for the caller's project stands over the company's on the same subject
        (the supplement "西部项目组…一线城市…800 元" over the company's 600 元, for that project only)."""
        project = (self.ctx.project or "").lower()
        if not project:
            return standing
        own = [q for q in standing if project in {p.strip().lower() for p in (q.doc.scope or "").split(",")}]
        if not own or len(own) == len(standing):
            return standing
        for q in standing:
            if q not in own:
                slot.rejected.append(
                    RejectedCandidate(citation_id=q.doc.citation_id, reason=ReasonCode.OUTRANKED)
                )
        return own

    def _conflict(self, need: NeedCode, standing: list[_Qualified]) -> list[str]:
        """Citation ids of two sources that state different values for the question's subject."""
        if need not in (NeedCode.AMOUNT_RULE, NeedCode.ELIGIBILITY):
            return []
        offered = alternatives_offered(self.question)
        rest = ALTERNATIVES.sub(" ", self.question)
        if (offered or _COUNTS_ASKED.search(self.question)) and not re.search(r"多少|几", rest):
            # "按工作日算还是按自然日算" asks which way a rule counts, not its figure: sources that
            # differ in the amount but count the same way do not disagree about what was asked
            # (unless it also asks the figure: "…还是按工作日算？一天多少？"). So does "周六周日还算
            # 伙食补贴吗": whether a day counts, not how much it pays.
            return []
        # The subject the sources must both name is the one they were judged on subject with: the
        # asking part's, so the circumstance a long message opens with (`住的是公司协议酒店`) is no
        # word a figure must repeat to disagree (blind 18).
        subject = need_subject(self.question, need)
        terms = subject or frozenset(tokenize(self.question))
        kinds = _asked_value_kinds(self.question)
        best: dict[str, tuple[str, frozenset[tuple[str, str | None, float]]]] = {}
        for q in standing:
            # Only sentences stating a figure of the asked kind: "拖到今天还能报吗" asks the deadline,
            # and a meal allowance of 100 元 against one of 120 元 is no disagreement about it.
            candidates = [
                s for s in fitting(q.sentences, self.question) if any(m.kind in kinds for m in extract(s))
            ]
            ranked = sorted(candidates, key=lambda s: len(terms & set(tokenize(s))), reverse=True)
            for sentence in ranked[:1]:
                # Two sources disagree only about the same thing: the sentence names the whole subject.
                named = {*entities_in(sentence), *tokenize(sentence)}
                if not all(
                    term in named or term in sentence.lower() or place_unranked(term, sentence)
                    for term in subject
                ):
                    continue
                values = frozenset(
                    (m.kind, m.unit, float(m.value))
                    for m in extract(sentence)
                    if m.kind in kinds and isinstance(m.value, int | float)
                )
                if values and q.doc.source not in best:
                    best[q.doc.source] = (q.doc.citation_id, values)
        entries = list(best.values())
        for i, (first_id, first) in enumerate(entries):
            for second_id, second in entries[i + 1 :]:
                # Only figures of one kind and unit can disagree: 30 天 and 120 元 are two rules.
                shared = {(k, u) for k, u, _ in first} & {(k, u) for k, u, _ in second}
                if shared and all(
                    {v for k, u, v in first if (k, u) == kind}.isdisjoint(
                        {v for k, u, v in second if (k, u) == kind}
                    )
                    for kind in shared
                ):
                    return [first_id, second_id]
        return []

    # ------------------------------------------------------------------ facts

    def _fact_slot(
        self,
        need: EvidenceNeed,
        facts: list[VerifiedFact],
        assessment: EvidenceAssessment,
        named: set[str] | frozenset[str] = frozenset(),
    ) -> EvidenceSlot:
        # Documents are never considered for live state (invariant 3).
        slot = EvidenceSlot(need=need)
        wanted = snapshot(self.ctx)
        counted = False
        for fact in facts:
            reason: ReasonCode | None = None
            expiry = fact.queried_at + timedelta(seconds=fact.ttl_seconds or 0)
            if fact.ttl_seconds is not None and expiry < self.now:
                reason = ReasonCode.FACT_EXPIRED
            elif any(fact.authorization_snapshot.get(k) != v for k, v in wanted.items()) or any(
                k not in wanted for k in fact.authorization_snapshot
            ):
                reason = ReasonCode.FACT_UNAUTHORIZED
            elif not fact.fact_type.startswith("task"):
                reason = ReasonCode.WRONG_EVIDENCE_TYPE
            elif self.focus_items and fact.fact_type == "task":
                key = fact.value.get("taskKey") if isinstance(fact.value, dict) else None
                if key not in self.focus_items:
                    continue  # another item of the same list: not what the question points at
            elif self.focus_items:
                continue  # the count of a re-read list says nothing about the one item
            elif named and fact.fact_type == "task" and fact.fact_ref not in named:
                continue  # "体检预约那个任务…": another task of the list
            elif named and fact.fact_type != "task":
                continue  # the count says nothing about the one task named
            if reason is not None:
                slot.rejected.append(RejectedCandidate(citation_id=fact.fact_ref, reason=reason))
                continue
            assessment.facts[fact.fact_ref] = fact
            slot.citations.append(fact.fact_ref)
            counted = True
        slot.status = SlotStatus.COVERED if counted else SlotStatus.MISSING
        return slot

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
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Final

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
from groundgate.agent.tools import COMPANY_SCOPE, snapshot
from groundgate.agent.vocabulary import (
    ENTITY,
    FILLER_PHRASES,
    FILLER_WORDS,
    NEED_CUES,
    PLACES,
    entities_in,
    hypernyms_of,
)
from groundgate.contracts import ToolStatus
from groundgate.contracts.evidence import Authority
from groundgate.questions import quantity_interval
from groundgate.text import mask_instructions, split_sentences, tokenize
from groundgate.text.segmentation import jieba_tag
from groundgate.verify.fidelity import extract

__all__ = [
    "BEYOND_RULE",
    "NEED_KINDS",
    "EvidenceEvaluator",
    "condition_fit",
    "fitting",
    "governance_reason",
    "named_tasks",
    "names_entities",
    "on_subject",
    "on_topic_sentences",
    "subject_terms",
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


#: Words that say what kind of answer is wanted, not what it is about: they do not make a passage
#: relevant ("员工宠物补贴标准" shares 补贴/标准 with every allowance rule, but is about 宠物).
_GENERIC_WORDS: Final = frozenset(
    tokenize(
        "标准 多少 多少钱 补贴 报销 费用 员工 需要 怎么 怎样 如何 申请 哪些 什么 材料 审批 流程 步骤 办理 谁 可以 能 "
        "能不能 吗 是 规定 制度 每天 每晚 公司 提供 要求 条件 资格 几天 呢 处理 任务 待办 我 我的 有 现在 目前 一下 "
        "操作 具体 最后 首先 然后 另外 外面 里面 外头 第二个 第一个 第三个 金额 上限 额度 超过 以上 以内 不超过 能报 可以 每晚 全额 本周 今天 本月 上个月 论坛 听说 真的 是不是 准备 享受 满足 需要 要交 提交 什么样 分别 多久 内要 什么时候"
    )
)


_YEAR = re.compile(r"((?:19|20)\d\d)\s*年")
_LAST_YEAR = re.compile(r"去年|上一年|上年度")
_YEAR_BEFORE = re.compile(r"前年")
_NOW_CUE = re.compile(r"现在|目前|如今|今年|还能|现行")
_APPROX_PERIOD = re.compile(
    r"[一二两三四五六七八九十几半\d]+\s*个多?(?:月|星期|礼拜)多?|[一二两三四五六七八九十几\d]+\s*(?:年|天)多(?:一点)?"
)
_ASKED_NOUN = re.compile(r"(?:什么|哪些|哪种|哪类|啥)(?:样的)?(?:证明|单据|票据|材料|资料|凭证|手续|文件)+")
_ALTERNATIVES = re.compile(
    r"(?<=[是按])\s*[^，,。？?！!；;是按]{1,6}?(?:算|计)?还是按?[^，,。？?！!；;]{1,8}"
)
_ASSERTED = re.compile(r"我(?:是|已经|刚刚?|在)[^，,。？?！!]{1,12}[，,]")
#: Who the asker is with ("我们西部项目组去…", "这阵子借调在西部项目组，…"): the project comes from the
#: context, and a policy for the asker's case need not repeat their group's name.
_OWN_GROUP = re.compile(r"(?:我们|咱们|我在|借调在|调到|我们的)[\u4e00-\u9fa5]{0,4}项目组?(?:成员|的人)?")


def subject_terms(question: str) -> frozenset[str]:
    """The words of the question that name what it is about: its domain words (`agent.vocabulary`),
    then the other words of the rest, less those that only say what kind of answer is wanted
    (`_GENERIC_WORDS`); single characters (满, 年) and figures are conditions, not subjects."""
    question = _ASSERTED.sub(" ", question)  # "我是经理，…": who the user says they are is no subject
    question = _OWN_GROUP.sub(" ", question)
    question = _APPROX_PERIOD.sub(" ", question)  # "一个多月": a condition, not a subject
    # "要交什么证明材料": the noun the interrogative asks for is the answer's kind, not its subject.
    question = _ASKED_NOUN.sub(" ", question)
    # "按工作日算还是按自然日算": the alternatives are the answers offered, not the subject.
    question = _ALTERNATIVES.sub(" ", question)
    entities = entities_in(question)
    rest = ENTITY.sub(" ", question)
    for phrase in FILLER_PHRASES:
        rest = rest.replace(phrase, " ")
    for m in reversed(extract(rest).items):  # figures and periods ("半年", "500 元") are conditions
        rest = rest[: m.start] + " " + rest[m.end :]
    words = {
        t
        for t in tokenize(rest)
        if t not in _GENERIC_WORDS and t not in FILLER_WORDS and len(t) > 1 and not t.isdigit()
    }
    # A one-character noun is a subject too when it is all the question names ("钱…几天能到账"):
    # without it every passage would be on the subject of a question about nothing.
    tagged = jieba_tag(rest)
    nouns = {w for w, tag in tagged if len(w) == 1 and tag == "n" and w not in _GENERIC_WORDS}
    tags: dict[str, list[str]] = {}
    for w, tag in tagged:
        tags.setdefault(w, []).append(tag)
    named = {w for w in words if _names_a_thing(w, tags.get(w) or [t for _, t in jieba_tag(w)])}
    return frozenset(entities) | frozenset(named or (nouns if not entities else ()))


#: Parts of speech that never name what a question is about (jieba's tags): adjectives, adverbs,
#: idioms, pronouns, prepositions, conjunctions, particles, measure words.
_NOT_A_NAME_TAGS: Final = frozenset(
    {"a", "ad", "d", "i", "r", "zg", "y", "p", "u", "uj", "ul", "uz", "ug", "uv", "ud", "vd", "q"}
)
#: The characters a count ends with (`几天`, `块整`, `头一回`); a rank ends with what it ranks (`二线`).
_COUNT_END: Final = frozenset("0123456789一二两三四五六七八九十百千万几半整个天次回块元年月日号")
#: A word starting with one of these is an adverb or a modal glued to a verb by the segmenter
#: (`刚领` "just got", `能放` "can take"), not a name, even when tagged as a noun.
_FUNCTION_START: Final = frozenset("刚才就都还再也又要会可能很太挺真正")


def _names_a_thing(word: str, tags: Sequence[str]) -> bool:
    """Whether a Chinese word of the question may name what it is about, given its part-of-speech
    tags in the question (else its own): `正好`, `具体`, `头一回`, `块整` say how or how much, and
    requiring them of a passage only rules the right one out (docs/agent.md, "Subject words"). Latin
    words are kept as they are."""
    if not re.search("[\u4e00-\u9fff]", word):
        return True
    if word[0] in _FUNCTION_START:
        return False
    if tags and all(tag in _NOT_A_NAME_TAGS for tag in tags):
        return False
    # A count (`块整`) says how much; a rank (`二线`) names a category, and `港澳台`, tagged a numeral
    # too, a place. An exclusion (`以外`, a conjunction to the tagger) stays: it narrows the case.
    return not (tags and all(tag == "m" for tag in tags) and word[-1] in _COUNT_END)


_PART_END: Final = re.compile(r"[？?！!。；;]")


def need_subject(question: str, need: NeedCode) -> frozenset[str]:
    """The subject a passage must name to cover `need`: in a question asking several things, that of
    the part that asks for this need, with the whole question's domain words ("病假需要提前几天申请？
    要准备什么材料？": `提前` is the amount part's aspect, not the materials part's). A question of one
    part, or a need no single part asks for, keeps the whole question's subject."""
    parts = [p for p in _PART_END.split(question) if p.strip()]
    cue = NEED_CUES.get(need)
    asking = [p for p in parts if cue is not None and cue.search(p)] if len(parts) > 1 else []
    if len(asking) != 1:
        return subject_terms(question)
    return subject_terms(asking[0]) | frozenset(entities_in(question))


def names_entities(sentence: str, doc: DocumentEvidence, question: str) -> bool:
    """Whether the sentence, read under its document's title, names every domain word of the
    question: "出差机票可以报多少钱" is not answered by a meal-allowance sentence of a travel policy.
    A general word names its instances ("一线城市" names 深圳, `vocabulary.HYPERNYMS`)."""
    context = f"{(doc.heading or '').split('>', 1)[0]} {sentence}"
    named = set(entities_in(context))
    return all(
        word in named
        or word in context
        or any(h in context for h in hypernyms_of({word}))
        or _place_unranked(word, context)
        for word in entities_in(question)
    )


def _place_unranked(word: str, text: str) -> bool:
    """A place the question names is a condition the text need not repeat when the text names no
    place at all: a meal allowance "按每天 120 元" holds in 成都 too; a lodging rule that ranks cities
    (`一线城市…600 元`) must name the asked one or its class."""
    return word in PLACES and not any(place in text for place in PLACES) and "城市" not in text


def on_subject(doc: DocumentEvidence, subject: frozenset[str]) -> bool:
    """Whether the passage (heading included) names the question's subject: every subject word of a
    short subject (up to three: "国外出差住宿" is not "出差住宿"), two in three of a longer one."""
    if not subject:
        return True
    text = f"{doc.heading or ''}\n{doc.text}".lower()
    text += " " + " ".join(entities_in(text))  # 年休假 names 年假
    words = set(tokenize(text))
    # Substrings too: jieba cuts 住宿费 whole, and a question about 住宿 is still about it.
    named = sum(
        1
        for term in subject
        if term in words
        or term in text
        or any(h in text for h in hypernyms_of({term}))
        or _place_unranked(term, text)
    )
    return named == len(subject) if len(subject) <= 3 else named * 3 >= len(subject) * 2


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
#: "一年能休几天", "每年有几天": a rate, not a condition on the years served.
_PER_YEAR = re.compile(r"(?:一|每)\s*年(?=\s*(?:能|可以|有|可|给|一共|总共|共|休|享))")


_YEARS_AND_MONTHS: Final = re.compile(r"(\d+)\s*年\s*(?:零|又)?\s*(\d+)\s*个?月")


def _as_conditions(question: str) -> str:
    """The question's figures as conditions: "第 12 年" has served 满 11 年; a rate is dropped."""
    question = _NTH_YEAR.sub(lambda m: f"满 {max(int(m.group(1)) - 1, 0)} 年", question)
    # "19 年零 11 个月" is one length of service, 239 months: not 19 years and, apart, 11 months
    # (which no tier holds, so every tier would look contradicted).
    question = _YEARS_AND_MONTHS.sub(lambda m: f"{int(m.group(1)) * 12 + int(m.group(2))} 个月", question)
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
        return sentences if names_entities(" ".join(sentences), doc, question) else []
    named = [s for s in sentences if names_entities(s, doc, question)]
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
        sentences = fitting(sentences, question)
    if need is NeedCode.AMOUNT_RULE and _ASKS_DAYS.search(question):
        # "病假一年最多能请多少天" asks a number of days: a share of pay (`工资按 80% 发放`) is not one.
        sentences = [s for s in sentences if not _only_percents(s)]
    if need is NeedCode.AMOUNT_RULE and _asked_value_kinds(question) == {"duration"}:
        # "拖到今天才报销还能报吗" asks the time limit: a daily allowance does not answer it.
        sentences = [
            s for s in sentences if any(m.kind == "duration" for m in extract(s)) or BEYOND_RULE.search(s)
        ]
    return sentences


#: A question about a time limit ("还来得及吗", "拖到今天还能报吗", "报销期限") asks a duration; one
#: about money ("多少钱", "标准", "补贴多少") an amount; others either.
_ASKS_DEADLINE: Final = re.compile(r"来得及|还能(?:交|报|提)|期限|时限|逾期|截止|最晚|多久")
_ASKS_MONEY: Final = re.compile(r"多少钱|几块|多少元|标准|补贴|补助|额度|上限|报多少|给多少|发多少|按多少")


def _asked_value_kinds(question: str) -> frozenset[str]:
    deadline, money = bool(_ASKS_DEADLINE.search(question)), bool(_ASKS_MONEY.search(question))
    if deadline and not money:
        return frozenset({"duration"})
    if money and not deadline:
        return frozenset({"amount"})
    return frozenset({"amount", "duration"})


#: The question ends on a number of days ("最多能请多少天？"); "那几天工资怎么发" names days, asks pay.
_ASKS_DAYS: Final = re.compile(r"(?:几|多少)(?:个工作)?天\s*(?:[？?。]|$|呢|吗|假)|多久|多长时间")


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


#: Words every task title may share that name no task ("审批…", "提交…报销").
_TITLE_GENERIC: Final = frozenset({"审批", "报销", "提交", "申请", "任务", "待办", "完成", "确认", "处理"})
#: Shared title words (in characters) that name a task: "王芳…病假", "体检预约", "三月…差旅".
NAMED_TASK_MIN: Final = 4


def named_tasks(question: str, facts: Sequence[VerifiedFact]) -> set[str]:
    """The refs of the tasks the question names by their title ("王芳那个病假审批…" → 审批王芳的病假申请):
    those sharing the most title words with it, at least `NAMED_TASK_MIN` characters of them; empty
    when it names none (a list question, or a task that is not in this list)."""
    asked = {t for t in tokenize(question) if len(t) > 1 and t not in _TITLE_GENERIC}
    scores: dict[str, int] = {}
    for fact in facts:
        if fact.fact_type != "task" or not isinstance(fact.value, dict):
            continue
        title = str(fact.value.get("title", ""))
        shared = {t for t in tokenize(title) if len(t) > 1 and t not in _TITLE_GENERIC} & asked
        scores[fact.fact_ref] = sum(len(t) for t in shared)
    best = max(scores.values(), default=0)
    return {ref for ref, score in scores.items() if score == best} if best >= NAMED_TASK_MIN else set()


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

    def evaluate(self, needs: Sequence[EvidenceNeed], results: Sequence[ToolResult]) -> EvidenceAssessment:
        usable = [r for r in results if r.run_id == self.run_id and r.status is ToolStatus.OK]
        documents = {d.citation_id: d for r in usable for d in r.documents}
        facts = [f for r in usable for f in r.facts]
        assessment = EvidenceAssessment()
        named = (
            named_tasks(self.question, facts)
            if not self.focus_items and all(n.code is NeedCode.TASK_STATE for n in needs)
            else set()
        )
        for need in needs:
            if need.code is NeedCode.TASK_STATE:
                slot = self._fact_slot(need, facts, assessment, named)
            else:
                slot = self._document_slot(need, list(documents.values()), assessment)
            assessment.slots.append(slot)
        return assessment

    # ------------------------------------------------------------------ documents

    def _asked_date(self) -> date | None:
        """The day a question about an earlier year asks about ("2025 年那会儿…", "去年…按当时的标准"):
        the end of that year; None for a question about now."""
        today = self.now.date()
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
            reason = governance_reason(doc, need.code, self.ctx, today)
            if (
                reason is None
                and asked is not None
                and doc.effective_from is not None
                and doc.effective_from > asked
            ):
                # A rule that took effect after the time asked about does not say what applied then;
                # the one that did has expired, and an expired document is no evidence.
                reason = ReasonCode.GOVERNANCE_NOT_YET_EFFECTIVE
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
        offered = _ALTERNATIVES.search(self.question)
        rest = _ALTERNATIVES.sub(" ", self.question)
        if offered and not re.search(r"\d", offered.group(0)) and not re.search(r"多少|几", rest):
            # "按工作日算还是按自然日算" asks which way a rule counts, not its figure: sources that
            # differ in the amount but count the same way do not disagree about what was asked
            # (unless it also asks the figure: "…还是按工作日算？一天多少？").
            return []
        subject = subject_terms(self.question)
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
                    term in named or term in sentence.lower() or _place_unranked(term, sentence)
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

"""Context relations, structured conversation state and ref invalidation (seed "agent.context").

A question is resolved against the conversation's `ConversationState`: earlier *questions* (for
language only: earlier answers have no fact status, invariant 4) and the server-side records of
the `factRef`s earlier answers showed. A record maps a ref to the tool, its business arguments, the
item key, when it was read, its TTL, scope, authorization snapshot and the run that read it — never
the fact itself; reusing it means re-reading it through the registered tool (`agent.runtime`).

Relations:

- `REFERENCE` — "第二个任务…": the record of item 2 becomes a trusted ref, unless it has expired
  (`REF_EXPIRED`), was read under another tenant/user/project/app/space (`REF_OUT_OF_SCOPE`), or does
  not exist (`REF_UNKNOWN`); a ref the client sends that the server never issued is `REF_UNKNOWN`;
- `CORRECTION` — "不是三月，是四月": the previous question with the wrong part replaced; the refs
  read for the wrong part are invalidated (`REF_INVALIDATED`) and leave the state;
- `FOLLOW_UP` — "那病假呢？": the previous question with the part of the same kind replaced (HR word
  classes first, then `groundgate.questions.resolve_followup`); "那第二个要交什么材料？" after "年假和
  病假分别需要谁审批？" points at the second word named, not at a list item (`_word_at`);
- `NEW` — anything else.

What the user asserts about themselves ("我已经提交了", "我是经理") is kept as `UserAssertion`s: for
understanding, never proof.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from groundgate.agent.approving import read_approving
from groundgate.agent.carried import BARE_CORRECTION, count_carried
from groundgate.agent.confirming import read_confirming
from groundgate.agent.contracts import (
    ContextRelation,
    ExecutionContext,
    FactRefRecord,
    ReasonCode,
    ResolvedContext,
    UserAssertion,
)
from groundgate.agent.dialect import read_cantonese
from groundgate.agent.difference import read_class_pair
from groundgate.agent.english import read_chat, read_english, read_mixed
from groundgate.agent.everyday import read_everyday, where_written
from groundgate.agent.hanzi import read_simplified
from groundgate.agent.manners import without_manners
from groundgate.agent.named_back import task_named_back
from groundgate.agent.named_cases import read_colleagues
from groundgate.agent.narrowing import narrowed_task_question
from groundgate.agent.negative import read_no_longer
from groundgate.agent.planning import task_window
from groundgate.agent.rambling import to_the_point
from groundgate.agent.reviewing import read_polite_english, read_reviewing
from groundgate.agent.slang import read_slang
from groundgate.agent.subjects import subject_terms
from groundgate.agent.tools import snapshot
from groundgate.agent.vocabulary import NEED_CUES, REPLACEABLE_CLASSES, WORD_CLASSES, entities_in
from groundgate.questions import resolve_followup

__all__ = ["STATE_VERSION", "ConversationState", "ordinal_of", "resolve_context"]

#: The version of the `state_json` layout (stored in `state_version`).
STATE_VERSION: Final = 1

_CN_NUMBERS: Final = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
_ORDINAL = re.compile(r"第\s*([一二两三四五六七八九十\d]{1,2})\s*(?:个|项|条|件)")
_CORRECTION = re.compile(r"不是\s*([^，,。；;]+?)\s*[，,、]\s*(?:而)?是\s*([^，,。？?！!；;]+)")
#: "说错了，我想问的是下周": a correction that names only the right part.
_SOFT_CORRECTION = re.compile(
    r"(?:说错了|搞错了|打错了|问错了|弄错了|不对|口误|更正一下|纠正一下)[，,。\s]*(?:我)?"
    # "我要看的是三月份的", "想查的是下周": what the asker wanted, then the right part.
    r"(?:(?:想|要)?(?:问|看|查|找|说)的|指的)?是\s*([^，,。？?！!；;]+)"
)
#: Words that point back at the previous question ("那我要是…这些…", "审批呢", "也是在那儿提吗").
_ANAPHOR = re.compile(r"^\s*(?:那么?|还有|另外)|呢|这些|那些|也|那儿|那里|同样|一样")
#: A question opening on a third person ("她连着请了三天，得交啥材料？", blind 27) speaks of whom the turn
#: before did: asking a document need with no subject of its own, it asks of that turn's subject (病假).
_PRONOUN_OPENING = re.compile(r"^\s*(?:她|他)(?!们)(?![^，,。？?]*(?:待办|任务|活|到期|截止))")
#: A question that names its own domain needs nothing carried over.
_OWN_DOMAIN = re.compile(r"报销|差旅|出差|住宿|伙食|请假|休假|待办|任务")
_ASSERTION = re.compile(r"我(?:已经|刚刚?|是|有|在)[^，,。？?！!]{1,20}")


class ConversationState(BaseModel):
    """What `state_json` holds: earlier questions and fact-ref records, never fact bodies."""

    model_config = ConfigDict(extra="forbid")

    version: int = STATE_VERSION
    questions: list[str] = Field(default_factory=list)
    """Earlier resolved questions, oldest first (never answers)."""
    refs: list[FactRefRecord] = Field(default_factory=list)
    """The refs of the items the latest answer showed (a new list replaces the old one)."""

    def remember(self, question: str, new_refs: Sequence[FactRefRecord], invalidated: Sequence[str]) -> None:
        """Record a finished turn: its question, and its refs when it showed any."""
        self.questions = [*self.questions, question][-10:]
        kept = [r for r in self.refs if r.fact_ref not in set(invalidated)]
        self.refs = list(new_refs) if new_refs else kept


#: The last item of a list just shown ("那最后一个呢？", "最后那条什么时候截止？").
_LAST_ITEM = re.compile(r"最后(?:一|那|这)?\s*(?:个|项|条|件)")


#: "按《出差管理办法》第 5 条", "制度第三条": an article of a named document, not an item of a list (blind 19).
_CITED_BY: Final = re.compile(r"(?:》|制度|办法|规定|手册|政策|通知|条例|细则)\s*(?:的|里|中)?\s*$")


def ordinal_of(text: str) -> int | None:
    match = next(
        (
            m
            for m in _ORDINAL.finditer(text)
            if not (m.group(0).endswith("条") and _CITED_BY.search(text[: m.start()]))
        ),
        None,
    )
    if match is None:
        return None
    raw = match.group(1)
    if raw.isdigit():
        return int(raw)
    if raw.startswith("十"):
        return 10 + (_CN_NUMBERS.get(raw[1:], 0) if len(raw) > 1 else 0)
    return _CN_NUMBERS.get(raw)


def _ref_problem(record: FactRefRecord, ctx: ExecutionContext, now: datetime) -> ReasonCode | None:
    if record.queried_at + timedelta(seconds=record.ttl_seconds) < now:
        return ReasonCode.REF_EXPIRED
    if record.authorization_snapshot != snapshot(ctx):
        return ReasonCode.REF_OUT_OF_SCOPE
    return None


def _same_class_replacement(focus: str, previous: str) -> str | None:
    found = _same_class_pair(focus, previous)
    return previous.replace(found[0], found[1], 1) if found is not None else None


_MONTH_WORD = re.compile(r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月份?")


#: "不是一二线城市", "非一线城市": said the way the rules read exclusions ("一二线以外的城市"), so the
#: class named is left out rather than asked about.
_NOT_CLASS = re.compile(r"(?:不是|不在|非)\s*([一二三四五]{1,3}线)(?:的)?(?:城市|地方)?")
#: A class named to be left out ("不是一二线城市", "一二线以外的城市", "非一线城市").
_EXCLUDED_CLASS = re.compile(
    r"(?:不是|不在|非|除了)[^，,。？?]{0,6}?城市|[^，,。？?\s]{1,6}?(?:以外|之外)(?:的城市|的地方)?"
)


#: The present said as a time ("那换成这个月去呢？", "那现在呢？"), and an earlier time a question placed
#: itself in ("去年十二月", "2025 年 3 月", "前年"): the present replaces it as a month replaces a month.
_NOW_TIME = re.compile(r"这个月|本月|现在|目前|如今|今年")
_PAST_TIME = re.compile(
    r"(?:\d{4}\s*年|去年|前年|今年)\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月份?|\d{4}\s*年|去年|前年"
)


#: The present or a time ahead a question placed itself in ("下周去深圳出差", "下个月", "这个月").
_AHEAD_TIME = re.compile(
    r"下+(?:个)?(?:周|礼拜|星期|月)|这(?:个)?(?:周|礼拜|星期|月)|本(?:周|月)|现在|目前|今天|明天|后天"
)


#: What a follow-up that only names a time says besides it ("去年十二月那趟", "换成去年十二月").
_ONLY_TIME = re.compile(_PAST_TIME.pattern + r"|那趟|那次|那回|出差|换成|如果是|要是|的|\s")


def _same_class_pair(focus: str, previous: str) -> tuple[str, str] | None:
    """(old, new): the word of `previous` that `focus` replaces with one of the same class (a month
    replaces a month: "3 月份到期的待办" → "我要问的是 4 月份的"; the present an earlier time:
    "去年十二月在广州出差…住宿…" → "那换成这个月去呢？")."""
    new_month, old_month = _MONTH_WORD.search(focus), _MONTH_WORD.search(previous)
    if new_month and old_month and new_month.group(0) != old_month.group(0):
        return old_month.group(0), new_month.group(0)
    now, past = _NOW_TIME.search(focus), _PAST_TIME.search(previous)
    if now and past and not new_month:
        return past.group(0), now.group(0)
    # "下周去深圳出差…" → "那去年十一月那趟呢？": an earlier time replaces the time ahead the question
    # was placed in, so it is asked of the rules in force then (blind 20)
    went, ahead = _PAST_TIME.search(focus), _AHEAD_TIME.search(previous)
    if went and ahead and not _PAST_TIME.search(previous):
        return ahead.group(0), went.group(0)
    # "这个月去成都出差…" → "那要是他1月份去的呢": a month replaces the present the question was placed in (blind 28)
    if new_month and not old_month and ahead and ahead.group(0) in {"这个月", "本月"}:
        return ahead.group(0), new_month.group(0)
    # "今年二月出差那几天…" → "那换成下个月出差呢？": a time ahead replaces the earlier one; a follow-up
    # that is only an earlier time ("那去年十二月那趟呢？") after a question placed in none puts that
    # time before it (blind 21)
    later, earlier = _AHEAD_TIME.search(focus), _PAST_TIME.search(previous)
    if later and earlier and not went:
        return earlier.group(0), later.group(0)
    if went and not ahead and not _PAST_TIME.search(previous) and not _ONLY_TIME.sub("", focus):
        return "", f"{focus}，"
    for group in REPLACEABLE_CLASSES:
        new = next((w for w in sorted(group, key=len, reverse=True) if w in focus), None)
        if new is None:
            continue
        excluded = _EXCLUDED_CLASS.search(focus)
        if excluded and new in excluded.group(0):
            # "那要是去的地方不是一二线城市呢？": the case is what the phrase leaves out, not 二线城市.
            new = excluded.group(0)
        old = next((w for w in sorted(group, key=len, reverse=True) if w in previous and w != new), None)
        if old is not None:
            return old, new
    return None


#: A follow-up that only offers another figure ("那要是八千呢？", "要是 8000 呢"), and the one sum of the
#: earlier question it replaces ("差旅报销４０００块找谁批？": full-width digits too).
_FIGURE_ONLY = re.compile(
    r"^(?:要是|如果|假如|换成)?\s*([\d０-９]+|[一二两三四五六七八九][千百万][一二两三四五六七八九]?)\s*(?:块|元)?$"
)
_SUM = re.compile(
    # "一晚六百整" (blind 15): a round spoken sum ends in 整 as well as in its unit
    r"[\d０-９]{3,}\s*(?:块钱|块|元)?|[一二两三四五六七八九][千百万][一二两三四五六七八九]?(?:块钱|块|元|整)"
    # "差旅报个销两千五 找谁批" (blind 27): thousands said without a unit are a sum as well
    r"|(?<![一二两三四五六七八九十百千万])[一二两三四五六七八九][千万][一二两三四五六七八九]?(?![一二两三四五六七八九十百千万])"
)
_UNIT_BELOW: Final = {"万": 1000, "千": 100, "百": 10}


def _spoken_figure(text: str) -> int:
    """ "八千" → 8000, "四千八" → 4800, "８０００" → 8000."""
    if text[0].isdigit():
        return int(text.translate(str.maketrans("０１２３４５６７８９", "0123456789")))
    unit = {"万": 10000, "千": 1000, "百": 100}[text[1]]
    value = _CN_NUMBERS[text[0]] * unit
    return value + (_CN_NUMBERS[text[2]] * _UNIT_BELOW[text[1]] if len(text) > 2 else 0)


def _figure_replaced(body: str, previous: str) -> str | None:
    """The earlier question with its one sum replaced by the figure the follow-up offers."""
    figure = _FIGURE_ONLY.match(body.strip())
    sums = _SUM.findall(previous)
    if figure is None or len(sums) != 1:
        return None
    return previous.replace(sums[0], f"{_spoken_figure(figure.group(1))} 元", 1)


def _follow_up(question: str, previous: str) -> str | None:
    if (narrowed := narrowed_task_question(question, previous)) is not None:
        return narrowed  # "只看西部项目的呢？", "那 u-wang 呢？" after a task list (`agent.narrowing`)
    body = re.sub(r"^\s*(?:那么|那|还有|另外)\s*|\s*(?:的)?呢?\s*[？?。!！]*\s*$", "", question)
    if (
        not body
        or len(body) > 16
        or not (re.match(r"^\s*(?:那么|那|还有|另外)", question) or re.search(r"呢|也|那儿|那里", question))
    ):
        return None
    if entities_in(body) and any(cue.search(body) for cue in NEED_CUES.values()):
        # "那婚假要交啥？" after "病假连着请三天，还得交病历吗？" names its subject and asks its own
        # need: a question of its own, not the earlier one with 婚假 put in (which would ask for 病历).
        return body
    replaced = _same_class_replacement(body, previous)
    if replaced is not None:
        return replaced
    resolution = resolve_followup(question, [(previous, previous)])
    if resolution.followup:
        return resolution.question
    # "那要是八千呢？" after "差旅报销４０００块找谁批？": the one sum asked about, replaced.
    return _figure_replaced(body, previous)


#: "他们也是这个数吗？", "也一样吗": the earlier question's answer asked again, for a new case.
_SAME_AGAIN = re.compile(r"也(?:是|按|用|能按)?(?:这个|这|那个)(?:数|标准|价|额度|规定|样)|也一样|也这样")


def _same_asked_for(question: str, previous: str) -> str | None:
    """ "那西部项目组的同事去北京呢？他们也是这个数吗？": the earlier question asked for the case the
    first part names (who, where), so that case is a condition of the answer — not a new question
    with nothing to ask."""
    if (written := where_written(question, previous)) is not None:
        return written  # "这规定写在哪儿？": the rule just asked, stated again with its document
    if (carried := count_carried(question, previous)) is not None:
        return carried  # "住4晚 一共多少": the earlier question's rate, times the count (`agent.carried`)
    parts = [p for p in re.split(r"[？?]", question) if p.strip()]
    if len(parts) < 2 or not _SAME_AGAIN.search(parts[-1]) or not re.search(r"呢\s*$", parts[0]):
        return None
    case = re.sub(r"^\s*(?:那么|那|还有|另外)\s*|\s*呢\s*$", "", parts[0])
    return f"{case}，{previous}" if case else None


def _correct(question: str, previous: str, old: str, new: str) -> str:
    if old in previous:
        return previous.replace(old, new, 1)
    return f"{previous}（{new}）" if previous else question


def _refs_read_for(old: str, refs: Sequence[FactRefRecord]) -> list[str]:
    """Refs whose recorded arguments name what the correction says was wrong (a month, a status)."""
    window = task_window(old, datetime(2000, 1, 1).date())
    wrong_month = str(window.get("startDate", ""))[5:7] if re.search(r"月", old) else ""
    wrong_range = window.get("dateRange")
    out: list[str] = []
    for record in refs:
        start = str(record.arguments.get("startDate", ""))
        if (
            (wrong_month and start[5:7] == wrong_month)
            or (wrong_range and record.arguments.get("dateRange") == wrong_range)
            or (old and old in str(record.arguments))
        ):
            out.append(record.fact_ref)
    return out


#: "第二个" pointing at a word of the earlier question, and what a question about a task item says.
_ORDINAL_WORD = re.compile(r"第\s*[一二两三四五六七八九十\d]{1,2}\s*个")
_ITEM_WORDS = re.compile(r"任务|待办|活儿?|单子|截止|到期|状态|进度|做完|完成|办完|交了")


def _word_at(text: str, previous: str, ordinal: int) -> str | None:
    """The `ordinal`-th of two or more words of one class the earlier question named ("年假和病假分别
    需要谁审批？"), when `text` points with 第N个, names no domain word of its own and asks nothing of
    a task (blind 16): the earlier question listed kinds of leave, not items a tool returned. None
    otherwise — 第N个 then refers to an item of the list the last answer showed."""
    if not _ORDINAL_WORD.search(text) or entities_in(text) or _ITEM_WORDS.search(text):
        return None
    named = entities_in(previous)
    for group in WORD_CLASSES:
        words = [w for w in named if w in group]
        if len(words) >= 2:
            return words[ordinal - 1] if ordinal <= len(words) else None
    return None


#: A short question asking only for a policy's materials, approver or steps (`要交啥材料？`).
_BARE_NEED: Final = re.compile(r"^.{0,8}(?:材料|单据|证明|谁批|审批|流程|步骤|手续).{0,4}[？?]?$")


def _leans_on_previous(text: str) -> bool:
    """Whether `text` names no subject of its own and leans on the earlier question's: an anaphor, a bare
    need, or a third person asking a document need ("她连着请了三天，得交啥材料？")."""
    return bool(
        (
            _ANAPHOR.search(text)
            or (_BARE_NEED.search(text) and not subject_terms(text))
            or (_PRONOUN_OPENING.search(text) and any(c.search(text) for c in NEED_CUES.values()))
        )
        and not entities_in(text)
        and not _OWN_DOMAIN.search(text)
    )


def resolve_context(
    question: str,
    state: ConversationState | None,
    ctx: ExecutionContext,
    now: datetime,
    *,
    client_refs: Sequence[str] = (),
) -> ResolvedContext:
    """The question against the state (see the module docstring)."""
    state = state or ConversationState()
    # "俺那条审批的活儿", "俺俩": 俺 is 我 in northern speech; the rules read 我.
    text = question.strip().replace("俺", "我")
    # "Can I already take annual leave (年假)?": a question written in English is read in the
    # documents' words (`agent.english`), since every cue table is Chinese.
    text = read_english(read_polite_english(text))
    # "我的 annual leave 一年有几天？": the HR words of chat English inside a Chinese question, glossed.
    text = read_mixed(text)
    # "nj提前几天申请啊", "bx 超过5k找谁批": chat shorthand and typos read as the words they stand for.
    text = read_class_pair(read_chat(text))
    # "年休请4天 谁approve", "帝都出差hotel一晚封顶多少": chat-window slang read as the documents' words.
    text = read_slang(text)
    # "是不是就不能报销了？": no longer allowed is asked as whether it still is (`agent.negative`).
    text = read_no_longer(text)
    # "幫我查一下張偉這週手上有哪些待辦？": traditional characters read as the simplified ones every cue
    # table and document uses (`agent.hanzi`).
    text = read_simplified(text)
    # "请病假使唔使交病历㗎？", "我喺公司做咗十二年": Cantonese chat read in Mandarin words (`agent.dialect`).
    text = read_cantonese(text)
    # "HR 小姐姐你好呀～…麻烦啦，提前谢过！": clauses that only greet or thank are no part of the question.
    text = without_manners(text)
    # "…扯远了，其实就想问一句：…" read from its point (`agent.rambling`); "审批下属的病假时，" is circumstance
    # (`agent.approving`), "下属小孙…"/"张伟北京住了4晚" 他 (`agent.named_cases`), "…是 800 吧？" put up to confirm.
    text = read_confirming(read_everyday(read_colleagues(read_reviewing(read_approving(to_the_point(text))))))
    previous = state.questions[-1] if state.questions else ""
    known = {r.fact_ref: r for r in state.refs}
    refused: dict[str, ReasonCode] = {ref: ReasonCode.REF_UNKNOWN for ref in client_refs if ref not in known}
    trusted: list[FactRefRecord] = []
    for ref in client_refs:
        record = known.get(ref)
        if record is None:
            continue
        problem = _ref_problem(record, ctx, now)
        if problem is None:
            trusted.append(record)
        else:
            refused[ref] = problem
    gaps: list[str] = []
    relation = ContextRelation.NEW
    resolved = text
    invalidated: list[str] = []

    correction = _CORRECTION.search(text)
    soft = _SOFT_CORRECTION.search(text) or BARE_CORRECTION.search(text)
    # The question corrected is the latest that names a word of the class ("3 月份到期的待办都有啥？",
    # "第二个现在是什么状态？", "哦不对，我要问的是 4 月份的": the first).
    soft_pair, corrected = None, previous
    for earlier in reversed(state.questions if soft else []):
        soft_pair = _same_class_pair(soft.group(1), earlier) if soft else None
        if soft_pair is not None:
            corrected = earlier
            break
    ordinal = ordinal_of(text)
    if ordinal is None and state.refs and _LAST_ITEM.search(text):
        # "那最后一个呢？" after a list (blind 17): the last item shown, whatever its number.
        ordinal = max(r.ordinal for r in state.refs)
    if soft_pair is not None and not correction:
        relation = ContextRelation.CORRECTION
        old, new = soft_pair
        resolved = corrected.replace(old, new, 1)
        invalidated = _refs_read_for(old, state.refs)
    elif correction and previous:
        relation = ContextRelation.CORRECTION
        old, new = correction.group(1).strip(), correction.group(2).strip()
        resolved = _correct(text, previous, old, new)
        invalidated = _refs_read_for(old, state.refs)
    elif ordinal is not None and (named := _word_at(text, previous, ordinal)) is not None:
        # "年假和病假分别需要谁审批？" → "那第二个要交什么材料？": the second word named, not a list item.
        relation, resolved = ContextRelation.FOLLOW_UP, _ORDINAL_WORD.sub(named, text, count=1)
    elif ordinal is not None:
        relation = ContextRelation.REFERENCE
        record = next((r for r in state.refs if r.ordinal == ordinal), None)
        if record is None:
            gaps.append(f"找不到第{ordinal}项：请先查询列表")
            refused.setdefault(f"ordinal:{ordinal}", ReasonCode.REF_UNKNOWN)
        else:
            problem = _ref_problem(record, ctx, now)
            if problem is None:
                trusted.append(record)
            else:
                refused[record.fact_ref] = problem
                gaps.append(f"第{ordinal}项的记录已失效：请重新查询")
    elif previous:
        # "哦 王芳病假那条" after "我那个审批的活还没弄吧" was asked back: that question, of the task named
        completed = (
            task_named_back(text, previous) or _follow_up(text, previous) or _same_asked_for(text, previous)
        )
        if completed is not None:
            relation, resolved = ContextRelation.FOLLOW_UP, completed
        elif _leans_on_previous(text):
            # "要交啥材料？" after a question about 婚假 names no subject of its own: the same one.
            # "那我要是一次把这些全休了，得谁批？" after a question about 年假: about the same thing.
            carried = entities_in(previous)
            if carried:
                relation, resolved = ContextRelation.FOLLOW_UP, f"{''.join(carried)}：{text}"

    return ResolvedContext(
        question=text,
        resolved_question=_NOT_CLASS.sub(r"\1以外的城市", resolved),
        relation=relation,
        current_goal=resolved,
        candidate_entities=entities_in(resolved),
        user_assertions=[
            UserAssertion(text=m.group(0), turn=len(state.questions) + 1) for m in _ASSERTION.finditer(text)
        ],
        trusted_refs=trusted,
        refused_refs=refused,
        invalidated_refs=invalidated,
        gaps=gaps,
    )

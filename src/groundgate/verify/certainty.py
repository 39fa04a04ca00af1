"""What the context hedges, retold as settled: a forecast as a decision, an association as a cause.

"预计 2 至 3 年后才可能进入中试" retold as "团队已经敲定在两到三年后正式进入中试", or "the study was
observational and cannot establish that walking caused the lower risk" under an answer saying "walking
7,000 steps a day lowers the risk": every figure and name is the context's, but the claim is surer than
its source. Two findings, both `no_evidence` (not shown), never `contradicted` — the context does not
say the opposite, only less (docs/design.md §2.1):

- `certainty_added`: the claim says a thing is decided or certain (`已经敲定`, `has been confirmed`)
  where a context sentence about the same thing hedges it (`预计`, `可能`, `expected`, `may`);
- `causation_not_shown`: the context disclaims causation (`cannot establish that … caused`,
  `observational`, `不能证明…导致`) and the claim states a cause (`lowers`, `降低`) without saying
  "associated" or repeating the disclaimer.

- `exception_added`: the claim allows a thing even in a case (`即使已经拆封安装也可以退`, "even if it
  was opened you can still return it") that a context sentence names in a negated rule
  (`已拆封安装的不支持无理由退货`).

- `obligation_dropped`: the claim makes optional (`advisable but not compulsory`, `非强制`, `可以自愿`)
  what a context sentence about the same thing requires (`mandatory`, `必须`, `需要`).
- `obligation_added`: the claim makes required (`is mandatory`, "are required to stay", `必须`) what a
  context sentence about the same thing only allows or recommends (`optional`, "are allowed to stay",
  `建议`) and nowhere requires (docs/design.md §2.1, "Session 33").
- `scope_widened`: the claim says a rule covers everything (`全厂各车间`, "every team") where the
  context sentence that states it keeps it to one's own (`本车间`, "its own team").

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from groundgate.text.segmentation import split_sentences, tokenize

__all__ = [
    "agreement_added",
    "cause_hedged",
    "causation_not_shown",
    "certainty_added",
    "exception_added",
    "hedge_dropped",
    "obligation_added",
    "qualified_widened",
    "obligation_dropped",
    "only_widened",
    "scope_widened",
]

_HEDGE: Final = re.compile(
    r"预计|可能|或将|有望|计划|拟|打算|预期|估计|或许|也许|争取|不排除|尚不确定|待定"
    r"|正在考虑|考虑|初步|怀疑|疑似|待确认|有待|还没有确定|尚未确定"
    r"|\b(?:working\s+theory|suspected|suspects?|under\s+consideration|considering|not\s+(?:yet\s+)?been\s+confirmed|unconfirmed)\b|hasn't\s+been\s+confirmed"
    r"|\b(?:(?:cannot|can't|could\s+not|not)\s+be\s+ruled\s+out|expected|expects|may|might|could|likely|possibly|"
    r"plans?\s+to|aims?\s+to|hopes?\s+to|"
    r"intends?\s+to|projected|forecast|anticipated|tentative(?:ly)?)\b",
    re.IGNORECASE,
)
_CERTAIN: Final = re.compile(
    r"已经?敲定|已经?确定|正式确定|确定了|板上钉钉|一定会|必将|已定于|已经定了|已经?确认|已经?证实"
    r"|已经?决定|已经?定好|已经?查明|已经?查清|已经?锁定"
    r"|\b(?:have|has)\s+(?:traced|pinned|identified|decided|determined)\b|\bwas\s+traced\s+to\b"
    r"|\b(?:has|have)\s+(?:been\s+)?(?:confirmed|fixed|finali[sz]ed|locked\s+in|set\s+in\s+stone)\b"
    r"|\bis\s+(?:confirmed|certain|guaranteed)\s+to\b|\bwill\s+definitely\b|\bdefinitely\s+will\b",
    re.IGNORECASE,
)
_CLAUSE: Final = re.compile(r"[，,；;。!?！？]")
_FUTURE: Final = re.compile(
    r"\b(?:will|is\s+to|are\s+to|to\s+start|to\s+begin)\b|将于|将要|即将", re.IGNORECASE
)

_NO_CAUSATION: Final = re.compile(
    r"\b(?:cannot|can't|could\s+not|does\s+not|do\s+not|did\s+not|doesn't|don't|didn't)\s+"
    r"(?:establish|prove|show|determine|demonstrate)\b[^.;]{0,60}\bcaus"
    r"|\bobservational\b|\bcorrelation\b[^.;]{0,20}\bnot\s+causation\b"
    r"|(?:不能|无法|并不能|尚不能)(?:证明|确定|说明|证实)[^。；]{0,24}(?:导致|造成|引起|因果)|观察性研究|相关(?:性)?不(?:等于|代表)因果",
    re.IGNORECASE,
)
_CAUSAL: Final = re.compile(
    r"\b(?:lowers|lowered\s+the|reduces|reduced\s+the|cuts|causes|caused|prevents|prevented|leads\s+to|led\s+to|"
    r"results\s+in|improves|boosts|raises|protects\s+against)\b|(?<!不)(?:降低了|减少了|导致|引起了|造成了|预防|能降低|可以降低)",
    re.IGNORECASE,
)
_ASSOCIATED: Final = re.compile(
    r"\b(?:associat\w*|link\w*|correlat\w*|tied\s+to)\b|相关|关联|有联系", re.IGNORECASE
)


#: A step said to be done (`物业验收已经完成`, "the inspection has been completed") …
_DONE: Final = re.compile(
    r"已经?(?:完成|结束|通过|办完|验收)|(?:完成|通过)了"
    r"|(?:已经?|也已|均已)?(?:处理|修复|恢复|关闭|解决|办理)完毕|已经?(?:关闭|修复|解决|办结)"
    r"|\b(?:has|have)\s+(?:already\s+)?(?:been\s+)?(?:completed|finished|passed|approved|done)\b"
    r"|\b(?:has|have)\s+already\s+(?:been\s+)?[a-z]+ed\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:closed|resolved|fixed|restored|repaired)\b",
    re.IGNORECASE,
)
#: … where the context says it is still awaited (`待物业验收完成后另行通知`, "once the inspection is done").
_PENDING: Final = re.compile(
    r"待[^，,。；;]{1,12}(?:完成|通过|验收|确认|批准)后|尚未|还未|仍未"
    # `剩余约700户分光箱仍在处理中`: still under way
    r"|(?:仍|还|正)在[^，,。；;]{0,10}中"
    r"|\b(?:pending|awaiting|not\s+yet|yet\s+to\s+be|once\s+[^,.;]{1,40}?\s+(?:is|are|has\s+been)\s+(?:completed|done|finished|approved))\b"
    # "incident to be closed if no errors", "under observation", "still being repaired"
    r"|\bto\s+be\s+(?:closed|resolved|completed|approved|confirmed|restored)\b"
    r"|\bstill\s+(?:being\s+[a-z]+ed|in\s+progress|under\s+[a-z]+)\b",
    re.IGNORECASE,
)


def certainty_added(claim: str, context: str) -> list[str]:
    """`["certainty_added:<cue>"]` when the claim settles what a context sentence about the same thing
    hedges, or says done a step the context still awaits (module docs); else []."""
    done = _DONE.search(claim)
    if done is not None:
        words = _clause_words(claim, done) - _DONE_WORDS
        # the participle said done (`moved`): a future sentence must name the same verb (`will move`)
        verb = [v for v in tokenize(done.group(0).split()[-1]) if len(v) >= 3]
        for sentence in _sentences(context):
            pending = _PENDING.search(sentence)
            if pending and (
                words & set(tokenize(pending.group(0))) or len(words & _clause_words(sentence, pending)) >= 2
            ):
                # the awaited step named in the cue (`待物业验收完成后`), or the thing still under way
                # named in its clause (`剩余约700户分光箱仍在处理中`)
                return [f"certainty_added:{done.group(0)}"]
            said = set(tokenize(sentence))
            same_verb = any(w[:3] == v[:3] for v in verb for w in said)
            if _FUTURE.search(sentence) and same_verb and len(words & said) >= 2:
                # "22 beds will move … during the works" retold as "have already been moved"
                return [f"certainty_added:{done.group(0)}"]
    found = _CERTAIN.search(claim)
    if found is None:
        return []
    words = _clause_words(claim, found)
    for sentence in _sentences(context):
        if _HEDGE.search(sentence) and words & set(tokenize(sentence)):
            return [f"certainty_added:{found.group(0)}"]
    return []


#: An agreement said to be made: `已经签约`, `达成协议`, "has agreed to", "signed".
_AGREED: Final = re.compile(
    r"已经?签约|已签订|签下了?|已经?达成(?:了)?协议|已经?(?:和|与|同)[^，,。；;]{1,12}?(?:签约|签订|签了|达成)|\b(?:has|have|had)\s+(?:agreed|signed)\b|\bagreed\s+to\b",
    re.IGNORECASE,
)
#: … where the context is still talking: `正在洽谈`, `磋商`, "in talks", "negotiating", "to look into".
_TALKING: Final = re.compile(
    r"洽谈|谈判|磋商|商谈|接洽|在谈|论证|\bin\s+talks\b|\bnegotiat\w*|\bdiscussions?\s+with\b|\bexploring\b"
    r"|\bto\s+look\s+into\b",
    re.IGNORECASE,
)


_AGREEMENT_WORDS: Final = frozenset({"签约", "签订", "达成", "协议", "agreed", "signed", "agre", "sign"})


def agreement_added(claim: str, context: str) -> list[str]:
    """`["certainty_added:<cue>"]` when the claim says an agreement was made (`已经和3家赞助商签约`, "has
    agreed to conserve") that a context piece about the same parties, sharing two of the clause's
    words, says is still being talked over (`正在和3家赞助商洽谈`, "is in talks with … about conserving")
    and never says made (docs/design.md §2.1, "Session 33"); else []."""
    found = _AGREED.search(claim)
    if found is None:
        return []
    words = _clause_words(claim, found) - _AGREEMENT_WORDS
    # A short Chinese clause (`已经和3家赞助商签约`) has one word besides the cue: that one must be shared.
    shared = min(2, len(words))
    if not shared:
        return []
    pieces = _pieces(context)
    if any(_AGREED.search(p) and len(words & set(tokenize(p))) >= shared for p in pieces):
        return []  # the context says an agreement was made too (`has signed a memorandum`)
    said = _stated_otherwise(words, pieces, _TALKING, _AGREED, shared=shared)
    return [f"certainty_added:{found.group(0)}"] if said else []


def causation_not_shown(claim: str, context: str) -> list[str]:
    """`["causation_not_shown"]` when the context disclaims a cause the claim states (module docs)."""
    if not _CAUSAL.search(claim) or _NO_CAUSATION.search(claim) or _ASSOCIATED.search(claim):
        return []
    return ["causation_not_shown"] if _disclaims_causation(context) else []


@lru_cache(maxsize=4)
def _disclaims_causation(context: str) -> bool:
    # Asked once per checked claim with a causal verb, of the same whole context: read it once per
    # check (a few contexts kept, not their sentences).
    return bool(_NO_CAUSATION.search(context))


#: "即使已经拆封安装也可以退", "even if it was installed you can still return it": an exception claimed.
_EVEN_IF: Final = re.compile(
    r"(?:即使|哪怕|就算|即便)(?P<zh>[^，,。；;]{2,20}?)(?:也|还|都)(?:可以|能|可|照样|一样)"
    r"|\beven\s+(?:if|when|though)\s+(?P<en>[^,.;]{3,60}?),?\s+(?:you|it|they|we|he|she)?\s*(?:can|may|could|still|will)\b",
    re.IGNORECASE,
)
_NEGATED_RULE: Final = re.compile(
    r"不支持|不接受|不予|不可|不能|不得|禁止|不允许|不适用|除外|\b(?:not|no|never|cannot|can't|excluded|except)\b",
    re.IGNORECASE,
)


def exception_added(claim: str, context: str) -> list[str]:
    """`["exception_added"]` when the claim allows a thing in a case a context rule names as negated
    (module docs); else []."""
    found = _EVEN_IF.search(claim)
    if found is None:
        return []
    case = found.group("zh") or found.group("en") or ""
    words = {
        w for w in tokenize(case) if len(w) >= 2 and w not in {"已经", "已", "been", "was", "were", "the"}
    }
    if not words:
        return []
    for sentence in _sentences(context):
        for piece in re.split(r"[，,；;]", sentence):
            own = set(tokenize(piece))
            if _NEGATED_RULE.search(piece) and len(words & own) * 2 >= len(words):
                return ["exception_added"]
    return []


def _clause_start(claim: str, found: re.Match[str]) -> int:
    """Where the clause of `claim` around `found` starts."""
    return max((m.end() for m in _CLAUSE.finditer(claim, 0, found.start())), default=0)


def _clause_of(claim: str, found: re.Match[str]) -> str:
    """The clause of `claim` around `found`."""
    end = _CLAUSE.search(claim, found.end())
    return claim[_clause_start(claim, found) : end.start() if end else len(claim)]


def _clause_words(claim: str, found: re.Match[str]) -> set[str]:
    """The words (2+ characters) of the clause of `claim` around `found`."""
    return {w for w in tokenize(_clause_of(claim, found)) if len(w) >= 2}


#: The words of a "done" cue itself: what it is said of must be shared, not the cue.
_DONE_WORDS: Final = frozenset({"完成", "通过", "已经", "completed", "complet", "done"})


@lru_cache(maxsize=4)
def _sentences(context: str) -> tuple[str, ...]:
    """The context's sentences, split once per context however many claims ask (a few kept)."""
    return tuple(s.text for s in split_sentences(context))


@lru_cache(maxsize=4)
def _pieces(context: str) -> tuple[str, ...]:
    """The context's rules: its sentences and `;` clauses, a numbered step (`2)`) one of its own —
    split once per context, as `_sentences` is, whichever of the obligation readers asks."""
    return tuple(re.split(r"[;；。.]\s*|\d\)\s*", context))


_WHOLE_SCOPE: Final = re.compile(
    r"全厂|全公司|全集团|全部门|全院|全校|所有(?:部门|车间|团队|员工|人)|各个?(?:部门|车间|团队)都"
    r"|\b(?:every|all)\s+(?:team|department|workshop|site|unit|office)s?\b|\bcompany-wide\b|\bacross\s+the\s+(?:company|plant|firm)\b",
    re.IGNORECASE,
)
_OWN_SCOPE: Final = re.compile(
    r"本(?:车间|部门|团队|科室|单位|院系|班组|人)|自己的|\b(?:its|their|his|her)\s+own\b", re.IGNORECASE
)


def scope_widened(claim: str, context: str) -> list[str]:
    """`["scope_widened"]` when the claim widens to everything a rule a context sentence keeps to one's
    own (module docs); else []."""
    found = _WHOLE_SCOPE.search(claim)
    if found is None:
        return []
    said = _stated_otherwise(_clause_words(claim, found), _sentences(context), _OWN_SCOPE, _WHOLE_SCOPE)
    return ["scope_widened"] if said else []


def _stated_otherwise(
    words: set[str],
    pieces: Sequence[str],
    states: re.Pattern[str],
    claims: re.Pattern[str],
    *,
    shared: int = 2,
) -> bool:
    """Some context piece about the claim's clause (`shared` of its `words`) says `states` and not
    the claim's own `claims`."""
    return any(
        states.search(p) and not claims.search(p) and len(words & set(tokenize(p))) >= shared for p in pieces
    )


_NOT_REQUIRED: Final = re.compile(
    r"\bnot\s+(?:compulsory|mandatory|required|obligatory)\b|\b(?:isn't|aren't|is\s+not|are\s+not)\s+"
    r"(?:compulsory|mandatory|required)\b|\boptional\b|非强制|不强制|不是必须|不必须|可选|可不|自愿|可视情况|视情况|酌情|看情况|\bif\s+(?:you|they|he|she)\s+(?:wish|like|prefer|want)\b|\b(?:at\s+(?:your|their|the\s+\w+'s)\s+discretion|up\s+to\s+(?:you|them))\b",
    re.IGNORECASE,
)
_REQUIRED: Final = re.compile(
    r"\b(?:mandatory|compulsory|required|must|obligatory)\b|必须|强制|务必|(?<![不无])需要|(?<![无必])须|应当|(?<![无不必])需(?=[\u4e00-\u9fff])(?![求要])",
    re.IGNORECASE,
)
#: What a claim says is required, firmly: `must`, `are required to`, `mandatory`, `必须`.
_FIRMLY_REQUIRED: Final = re.compile(
    r"\b(?:mandatory|compulsory|obligatory|must(?!\s+not\b|n't))\b|\b(?:is|are)\s+required\s+to\b|必须|务必|强制",
    re.IGNORECASE,
)
#: What a context allows or recommends without requiring it.
_ALLOWED: Final = re.compile(
    r"\boptional\b|\b(?:is|are)\s+(?:allowed|permitted|free|welcome|encouraged)\s+to\b"
    r"|\brecommended\b|\b(?:we\s+)?recommend\b|\bencouraged\b|建议|鼓励|可选|自愿|允许"
    # `may` of a rule, said of the people it governs (`Contractors may keep using app codes`); a
    # news `may` is a possibility (`the case may galvanize a discussion`).
    r"|\b(?:employees?|staff|contractors?|customers?|users?|you|members?|applicants?|students?|guests?|"
    r"tenants?|visitors?|managers?|departments?|teams?|interns?|travell?ers?|passengers?|drivers?|owners?)"
    r"\s+(?:\w+\s+)?(?:may|can)\b(?!\s+not\b)",
    re.IGNORECASE,
)
#: Anything that requires, however weakly: a context piece that says it is no "only allowed".
_ANY_REQUIRED: Final = re.compile(
    r"\b(?:mandatory|compulsory|required|must|obligatory|need\s+to|needs\s+to|has\s+to|have\s+to|shall)\b"
    r"|必须|强制|务必|需要|须|应当|应该|要求|不得|禁止",
    re.IGNORECASE,
)


#: The obligation words themselves (folded too): what they are said of must be shared, not the cue.
_OBLIGATION_WORDS: Final = frozenset(
    {"compulsori", "compulsory", "mandatori", "mandatory", "requir", "required"}
)


def obligation_dropped(claim: str, context: str) -> list[str]:
    """`["obligation_dropped"]` when the claim makes optional what a context sentence about the same
    thing requires (module docs); else []."""
    found = _NOT_REQUIRED.search(claim)
    if found is None:
        return []
    words = _clause_words(claim, found) - _OBLIGATION_WORDS
    pieces = _pieces(context)
    return ["obligation_dropped"] if _stated_otherwise(words, pieces, _REQUIRED, _NOT_REQUIRED) else []


def obligation_added(claim: str, context: str) -> list[str]:
    """`["obligation_added"]` when the claim requires what a context sentence about the same thing
    only allows or recommends, and says nothing that requires it (module docs); else []."""
    found = _FIRMLY_REQUIRED.search(claim)
    if found is None:
        return []
    words = _clause_words(claim, found) - _OBLIGATION_WORDS
    pieces = _pieces(context)
    # Three shared words, not two: a rule's other sentences share its nouns (`remote days`) and
    # a `may` beside them is about something else.
    said = _stated_otherwise(words, pieces, _ALLOWED, _ANY_REQUIRED, shared=3)
    return ["obligation_added"] if said else []


#: A claim that says a thing will happen, flatly: `就会`, `一定会`, `确定`, `will` (not `will likely`).
_ASSERTED: Final = re.compile(
    r"就会|一定会|肯定会|必然会?|必定|(?<![已不])确定(?!了?[是否吗])|将会"
    r"|\bwill\b(?!\s+(?:likely|probably|possibly|perhaps|maybe|not|be\s+able))|\bis\s+going\s+to\b",
    re.IGNORECASE,
)
#: The hedges a flat `will` overstates. Not `expected`/`likely`/`projected`: news writes "is expected to
#: miss" and its summary "will miss" for the same report.
_SOFT_HEDGE: Final = re.compile(
    r"可能|预计|或将|有望|也许|或许|计划|打算|争取|不排除|尚不确定|待定"
    r"|\b(?:may|might|could|possibly|perhaps|hopes?\s+to|hoping\s+to|plans?\s+to|planning\s+to)\b",
    re.IGNORECASE,
)
#: A clause that reports someone's view or attempt is no flat claim (`revealed X will start`, `will try to`).
_REPORTED: Final = re.compile(
    r"表示|认为|称|希望|打算|\b(?:said|says|say|told|revealed|believes?|believed|thinks?|expects?|hopes?|hoped|"
    r"claims?|insists?|warned|predicts?|according\s+to)\b|\bwill\s+(?:try|attempt|seek|aim|hope|look)\b",
    re.IGNORECASE,
)
_FILLERS: Final = frozenset({"或", "或者", "and", "or", "the", "to", "be", "it", "in"})
#: How far after a context hedge the thing it hedges is named, and after the claim's word its verb.
_HEDGED_REACH, _ASSERTED_REACH = 16, 16


def hedge_dropped(claim: str, context: str) -> list[str]:
    """`["certainty_added:<word>"]` when the claim says flatly that a thing will happen (`就会直接推迟`,
    `确定年底前开工`, "it will reopen") which a context sentence hedges right before naming it
    (`可能会推迟`, `预计年底前开工`, "hoping to reopen"), and the claim's clause hedges nothing
    (docs/design.md §2.1, "Session 32"); else []."""
    found = _ASSERTED.search(claim)
    if found is None:
        return []
    clause = _clause_of(claim, found)
    if _HEDGE.search(clause) or _REPORTED.search(clause):
        return []
    asserted = tokenize(claim[found.end() : found.end() + _ASSERTED_REACH])
    if not asserted:
        return []
    for sentence in _sentences(context):
        for hedge in _SOFT_HEDGE.finditer(sentence):
            hedged = tokenize(sentence[hedge.end() : hedge.end() + _HEDGED_REACH])
            # what the hedge governs first is what the claim asserts (`推迟或取消`, `reopen`, `年底前开工`)
            if set(hedged[:3]) & set(asserted[:3]) - _FILLERS:
                return [f"certainty_added:{found.group(0)}"]
    return []


#: `所有区域`, `全国各办公室`, "every order", "all admins", "any flight": a claim's rule over everything of a kind.
_UNIVERSAL: Final = re.compile(
    r"(?:所有|全部|任何|全国各|各个)的?(?P<zh>[\u4e00-\u9fff]{2})"
    r"|\b(?:all|every|any)\s+(?!(?:two|three|four|five|six|seven|eight|nine|ten|both|of|the|other)\b)"
    r"(?P<en>[A-Za-z][\w-]{2,}(?:\s+[a-z][\w-]{2,})?)",
    re.IGNORECASE,
)
_NEGATED_BEFORE: Final = re.compile(r"[不没无未]|\b(?:not|no|without|never)\b|n't", re.IGNORECASE)
#: A context sentence that keeps a rule to one thing: `只影响华北二区`, "the only user granted".
_ONLY: Final = re.compile(r"只|仅|唯一|\b(?:only|solely|exclusively)\b", re.IGNORECASE)


def only_widened(claim: str, context: str) -> list[str]:
    """`["scope_widened:<kind>"]` when the claim says a rule holds for all of a kind (`会影响所有区域`,
    "all admins") that the context states of that kind with `only`/`只`/`仅` and never of all of it
    (docs/design.md §2.1, "Session 32"); else []."""
    for found in _UNIVERSAL.finditer(claim):
        if _NEGATED_BEFORE.search(claim[max(0, found.start() - 12) : found.start()]):
            continue  # `不需要提供任何额外材料`, "without any fee": a negated universal narrows nothing
        kind = found["zh"] or found["en"]
        words = set(tokenize(kind))
        if not words:
            continue
        if any(words & set(tokenize(u.group(0))) for u in _UNIVERSAL.finditer(context)):
            continue  # the context says it of all of them too
        for sentence in _sentences(context):
            if _ONLY.search(sentence) and words & set(tokenize(sentence)):
                return [f"scope_widened:{kind}"]
    return []


#: What keeps a kind to some of it when written right after it: "orders over £40", "flights longer
#: than six hours", "keys created after 1 September", "users who signed up".
_QUALIFIER_AFTER: Final = re.compile(
    r"\s+(?:over|above|under|below|longer|shorter|more\s+than|less\s+than|fewer\s+than|exceeding|worth|"
    r"costing|older|younger|created|placed|bought|purchased|booked|with|without|that|which|who|whose|where)\b",
    re.IGNORECASE,
)
#: A context that says a rule of a whole kind: `every`, `all`, `each`, `any`.
_CONTEXT_UNIVERSAL: Final = re.compile(r"\b(?:all|every|each|any)\b", re.IGNORECASE)


def qualified_widened(claim: str, context: str) -> list[str]:
    """`["scope_widened:<kind>"]` when an English claim says a rule holds for every one of a kind
    ("free on every order", "business class on any flight") where the context sentence most about
    the same rule names the kind with a qualifier right after it ("orders over £40", "flights over
    6 hours") and the context never says it of the whole kind (docs/design.md §2.1, "Session 33");
    else []."""
    for found in _UNIVERSAL.finditer(claim):
        kind = found["en"]
        if not kind or _NEGATED_BEFORE.search(claim[max(0, found.start() - 12) : found.start()]):
            continue
        head = kind.split()[0].lower()
        if _QUALIFIER_AFTER.match(claim, found.start("en") + len(head)):
            continue  # `any deal over €50k` is qualified itself
        stem = head[:-1] if head.endswith("s") and len(head) > 4 else head
        mention = re.compile(rf"\b{re.escape(stem)}(?:s|es)?\b", re.IGNORECASE)
        if any(
            _CONTEXT_UNIVERSAL.search(context[max(0, m.start() - 16) : m.start()])
            for m in mention.finditer(context)
        ):
            continue
        words = _clause_words(claim, found)
        pieces = [p for p in re.split(r"[;；。\n]|(?<=[a-z)])\.\s", context) if mention.search(p)]
        if not pieces:
            continue
        # the first of the pieces sharing most of the clause's words
        shared, closest = max(((len(words & set(tokenize(p))), p) for p in pieces), key=lambda sp: sp[0])
        if shared >= 2 and any(_QUALIFIER_AFTER.match(closest, m.end()) for m in mention.finditer(closest)):
            return [f"scope_widened:{head}"]
    return []


#: A cause stated flatly: "was caused by X", "because of X", `原因是X`, `是因为X`, `根因是X`.
_CAUSE_CUE: Final = re.compile(
    r"\b(?:was|were|is|are)\s+caused\s+by\b|\bbecause\s+of\b|\bdue\s+to\b|\bthe\s+cause\s+(?:was|is)\b"
    r"|原因是|是因为|根因是|起因是|是由于",
    re.IGNORECASE,
)
#: How much of the cause is compared, and how many of its words a context sentence must share.
_CAUSE_REACH, _CAUSE_WORDS = 48, 2


def cause_hedged(claim: str, context: str) -> list[str]:
    """`["certainty_added:cause"]` when the claim states as the cause what every context sentence naming
    it only suspects (`may have been caused by`, `可能和…有关`, `怀疑`), and the claim's clause hedges
    nothing (docs/design.md §2.1, "Session 32"); else []."""
    found = _CAUSE_CUE.search(claim)
    if found is None:
        return []
    if _HEDGE.search(claim[_clause_start(claim, found) : found.end() + _CAUSE_REACH]):
        return []
    cause = set(tokenize(claim[found.end() : found.end() + _CAUSE_REACH])) - _FILLERS
    naming = [s for s in _sentences(context) if len(cause & set(tokenize(s))) >= _CAUSE_WORDS]
    if naming and all(_HEDGE.search(s) for s in naming):
        return ["certainty_added:cause"]
    return []

"""The subject of a business question: the words a passage must name to be about what was asked.

A policy passage covers a need only if it is about the question's subject (docs/agent.md, "Subject
words"): "员工宠物补贴标准" shares 补贴/标准 with every allowance rule, but is about 宠物. The subject
is the question's domain words (`agent.vocabulary`) and the other words that may name a thing, read
clause by clause: the clause that asks sets it, and what the asker does around the question (`跑客户`,
`看中的酒店`), when (`月底`), the kind of answer wanted (`标准`, `哪些领导`) and the alternatives
offered are not subject words. Pure: jieba's tags and the bundled lexicon, no I/O of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from groundgate.agent.contracts import DocumentEvidence, NeedCode
from groundgate.agent.named_cases import colleague_names
from groundgate.agent.vocabulary import (
    ASKS,
    COLLOQUIAL,
    ENTITY,
    FILLER_PHRASES,
    FILLER_WORDS,
    NEED_CUES,
    OFFERED_FIGURES,
    PLACES,
    WORD_CLASSES,
    entities_in,
    hypernyms_of,
)
from groundgate.text import tokenize
from groundgate.text.lexicon import default_lexicon
from groundgate.text.places import city_classes
from groundgate.text.segmentation import jieba_tag
from groundgate.verify.fidelity import extract

__all__ = [
    "ALTERNATIVES",
    "alternatives_offered",
    "STEP_TAKES",
    "asking_clause_terms",
    "asked_entities",
    "names_entities",
    "need_subject",
    "on_subject",
    "other_parts_words",
    "place_unranked",
    "steps_timed",
    "subject_terms",
    "without_stay_length",
]

#: Words that say what kind of answer is wanted, not what it is about: they do not make a passage
#: relevant ("员工宠物补贴标准" shares 补贴/标准 with every allowance rule, but is about 宠物).
_GENERIC_WORDS: Final = frozenset(
    tokenize(
        "标准 按规定 按制度 当时 多少 多少钱 补贴 报销 费用 员工 需要 怎么 怎样 如何 申请 哪些 什么 材料 审批 流程 步骤 办理 谁 可以 能 "
        "能不能 吗 是 规定 制度 每天 每晚 公司 提供 要求 条件 资格 几天 呢 处理 任务 待办 我 我的 有 现在 目前 一下 "
        "操作 具体 最后 首先 然后 另外 外面 里面 外头 原件 复印件 扫描件 电子版 纸质版 纸质 交上去 上交 交上 带上 带去 交过去 第二个 第一个 第三个 金额 上限 额度 超过 以上 以内 不超过 能报 可以 每晚 全额 本周 今天 本月 上个月 论坛 听说 真的 是不是 准备 享受 满足 需要 要交 提交 什么样 分别 各 各是 各为 各自 各要 各需 多久 多长时间 多长 内要 什么时候 "
        # English words of chat: 报销 and a time limit, said the way the answer's kind is said
        "reimburse reimbursement deadline ddl 咋算 咋操作 咋弄 咋办 咋整 "
        # how it is done, said the way chat says it: the kind of answer, like 咋弄 (session 29)
        "怎么弄 怎么搞 怎么整 说下 说一下 讲下 讲一下 "
        # a share asked for, a length of leave said in weeks, leave taken in a row: the kind of
        # answer or a condition, never the subject ("按几成发", "两礼拜", "连休", blind 15)
        "几成 几折 礼拜 连休 "
        # what the asker takes to be so, or must do ("应该能全额报销吧", "必须休完"): how sure the
        # asker is, never what the question is about (session 30)
        "应该 应当 必须 务必 肯定 反正 "
        # the words that join a premise to what is asked ("既然一线城市的住宿上限是 800，那…", "所以…对吧"):
        # the tagger's conjunctions also hold words that say what is asked (`接着用`), so these by name
        "既然 所以 因为 因此 但是 可是 而且 并且 虽然 不过 然而 于是 况且 何况 "
        # when a rule took effect is asked of the rule ("是从哪天开始执行的"): the kind of answer
        "开始 执行 生效 实施 施行 是从 起 "
        # two things set side by side ("病假和年假 审批有啥区别"): how they differ is the kind of answer (blind 24)
        "区别 不同 不一样 差别 "
        # by when something must be done ("最晚要在什么期限内休完"): a time limit asked, the kind of answer (blind 25)
        "期限 期限内 时限"
    )
)


_APPROX_PERIOD = re.compile(
    r"[一二两三四五六七八九十几半\d]+\s*个多?(?:月|星期|礼拜)(?:多(?!少))?|[一二两三四五六七八九十几\d]+\s*(?:年|天)多(?!少)(?:一点)?"
)
#: What the asker goes somewhere to do ("跑两天客户", "见客户", "拜访供应商"): circumstance.
_VISIT: Final = re.compile(r"(?:跑|见|拜访|陪|谈)[^，,。？?]{0,3}(?:客户|供应商|合作方|项目)")
_ASKER_CASE: Final = re.compile(r"我们|咱们|我的|我这")
_REPORTED: Final = re.compile(r"^[^，,]{0,8}?(?:说|讲|听说|据说|传言|提到)")
_A_NOT_A: Final = re.compile(r"([\u4e00-\u9fff])不\1|有没有")
_ASKED_NOUN = re.compile(
    # "要核对哪些票据": checking them is what the approver does with the answer, no subject (blind 20).
    r"(?:核对|核查|检查|查看|审核|审查)?(?:什么|哪些|哪种|哪类|啥)(?:样的)?(?:证明|单据|票据|材料|资料|凭证|手续|文件)+"
    # "要经过哪些领导审批": the approver asked for is the answer, not the subject.
    r"|(?:哪些|哪个|哪位|哪级|哪一级|什么|啥)(?:级别的|样的)?(?:领导|上级|人|部门|负责人)"
    r"|(?:什么|哪些|哪几|哪种|哪个|哪张|啥)(?:样的)?(?:单子|表格?|票)"
    # "按多少比例给": a rate asked for; "批到哪一步了": the progress asked for.
    r"|(?:多少|什么|啥|几成)(?:的)?比例|(?:批|审|走|办)到(?:哪一步|哪步|哪儿|哪里|哪)了?|(?:审批)?进度"
    # "要给 HR 提供什么材料": whom something goes to is no subject.
    r"|(?:给|向|交给|发给|提交给)\s*(?:HR|hr|HRBP|人事|人力|财务|领导|主管|公司)(?=\s*(?:提供|交|提交|递|发|报|[？?。！!]|$))"
)
#: Which document says so (blind 17: "这条是哪份制度里规定的？", "这个说法出自哪儿？", "出处", "依据是什么"):
#: the answer's citations name it, so these words ask the source of the rule, never its subject.
_SOURCE_ASKED: Final = re.compile(
    r"(?:这条|这一条|这个说法|这种说法|这说法|这个规定|这规定|这个数|这个标准)?\s*(?:是|在)?\s*"
    r"(?:出自|来自|依据|根据)?\s*哪(?:份|个|条|一份|一条|部|一个)(?:制度|文件|规定|文档|政策|通知|资料)?"
    r"(?:里|中|上)?(?:规定|写|说|定)?的?"
    r"|(?:这个说法|这种说法|这说法|这条|这个规定)?\s*(?:出自|来自)\s*(?:哪儿|哪里|哪)"
    r"|(?:出处|来源|依据)(?:是什么|是啥|在哪儿?|在哪里)?"
)
#: The approver an approval question names ("用得着找 HRBP 审批吗", "除了主管还得找谁批"): the one put
#: up for checking, or already known; the rule's sentence names who approves, whatever its subject.
_NAMED_APPROVER: Final = re.compile(
    r"除了\s*(?:[\u4e00-\u9fff]{0,4}(?:主管|经理|总监|负责人|领导)|HRBP|HR)"
    r"|(?:找|让|经过|要|得|光|只|只要|仅)\s*(?:[\u4e00-\u9fff]{0,4}(?:主管|经理|总监|负责人|领导)|HRBP|HR)(?=\s*(?:审批|批|签字|签|补签|补批))"
    # "HRBP那边也得批吗": the approver's side put up for checking
    r"|(?:[\u4e00-\u9fff]{0,4}(?:主管|经理|总监|负责人|领导)|HRBP|HR)\s*那(?:边|儿)(?=[^，,。？?]{0,4}(?:审批|批|签))",
    re.IGNORECASE,
)
#: "除了诊断证明以外，还要…": the 以外/之外 that closes a 除了 phrase only ends it; read as a subject word
#: (as `一二线以外的城市` reads it, a case left out) no passage names it (blind 15).
_BESIDES_END: Final = re.compile(r"(除了[^，,。？?！!]{1,12}?)(?:以外|之外)")
_CLAUSE_BREAK: Final = re.compile(r"[，,、：:]")
ALTERNATIVES = re.compile(r"(?<=[是按])\s*[^，,。？?！!；;是按]{1,6}?(?:算|计)?还是按?[^，,。？?！!；;]{1,8}")


def alternatives_offered(question: str) -> list[str]:
    """The answers a question offers ("按工作日算还是按自然日算" → 工作日, 自然日): a passage answers it
    only by naming one of them."""
    m = ALTERNATIVES.search(question)
    if m is None:
        return []
    out = []
    for side in m.group(0).split("还是"):
        word = re.sub(r"^\s*按|(?:计算|算|计)\s*$", "", side.strip()).strip()
        if len(word) >= 2:
            out.append(word)
    if OFFERED_FIGURES.search(m.group(0)):
        return []  # "一天一百还是一百二": figures offered, which the rule's figure decides
    return out if len(out) == 2 else []


_ASSERTED = re.compile(r"我(?:是|已经|刚刚?|在)[^，,。？?！!]{1,12}[，,]")
#: Who the asker is with ("我们西部项目组去…", "这阵子借调在西部项目组，…"): the project comes from the
#: context, and a policy for the asker's case need not repeat their group's name.
_OWN_GROUP = re.compile(r"(?:我们|咱们|我在|借调在|调到|我们的)[\u4e00-\u9fa5]{0,4}项目组?(?:成员|的人)?")


#: "住了四晚": how long a trip lasted, said as the nights stayed.
_STAY_LENGTH: Final = re.compile(r"住了?\s*(?:[一两二三四五六七八九十几]+|\d+)\s*[晚宿]")


def without_stay_length(question: str) -> str:
    """The question less the nights stayed that a clause which does not ask states, when the clause
    that asks names its own domain word: "上个月去西安出了趟差，住了四晚，那趟的伙食补贴一天能算多少？"
    asks the meal allowance; the four nights are the trip's length, not a question about lodging."""
    clauses = [c for c in re.split(r"[，,。；;！!]", question) if c.strip()]
    asking = [c for c in clauses if ASKS.search(c)]
    if len(clauses) < 2 or len(asking) != 1 or not set(entities_in(asking[0])) - {"住宿"}:
        return question
    for clause in clauses:
        if clause is not asking[0] and _STAY_LENGTH.search(clause):
            question = question.replace(clause, _STAY_LENGTH.sub(" ", clause), 1)
    return question


def subject_terms(question: str) -> frozenset[str]:
    """The words of the question that name what it is about: its domain words (`agent.vocabulary`),
    then the other words of the rest, less those that only say what kind of answer is wanted
    (`_GENERIC_WORDS`); single characters (满, 年) and figures are conditions, not subjects.

    Of a question of several clauses, the clause that asks sets the subject when it names something
    itself: "月底要去深圳跑客户，酒店每晚能报到多少？" is about 住宿 in 深圳, not 客户; the other clauses
    add only their domain words and proper names (a place: "去新加坡出差，酒店…"). What the asker does
    there (`跑`, `看中`, `交上去`) is circumstance, and so is when (`月底`). A clause that asks about
    nothing of its own ("我们部门搞团建，费用怎么报？") leaves the other clauses' words in."""
    question = without_stay_length(question)
    question = _HEADING.sub(" ", question)
    question = _EXCUSE.sub(lambda m: " ".join(entities_in(m.group())) + " ", question)
    question = _without_reports(question)
    question = _ASSERTED.sub(" ", question)  # "我是经理，…": who the user says they are is no subject
    question = _OWN_GROUP.sub(" ", question)
    question = _APPROX_PERIOD.sub(" ", question)  # "一个多月": a condition, not a subject
    question = _VISIT.sub(" ", question)  # "跑两天客户": what the asker does there, circumstance
    question = _A_NOT_A.sub(" ", question)  # "用不用找财务总监签字": a question form, no subject
    question = _NAMED_APPROVER.sub(" ", question)
    question = _SOURCE_ASKED.sub(" ", question)
    question = _BESIDES_END.sub(r"\1 ", question)  # "除了诊断证明以外": 以外 closes the phrase, no exclusion
    # "要交什么证明材料": the noun the interrogative asks for is the answer's kind, not its subject.
    question = _ASKED_NOUN.sub(" ", question)
    # "按工作日算还是按自然日算": the alternatives are the answers offered, not the subject.
    question = ALTERNATIVES.sub(" ", question)
    entities = frozenset(entities_in(question))
    clauses = [c for c in _CLAUSE_BREAK.split(question) if c.strip()]
    if len(clauses) <= 1:
        named = _named_in(question, asking=True)
        return entities | (named or (_one_character_nouns(question) if not entities else frozenset()))
    # The clause that asks (`vocabulary.ASKS`): in "月底要去深圳跑客户，酒店每晚能报到多少？" the subject is
    # its `住宿`, not what the asker does around it (`客户`).
    asks = [i for i, c in enumerate(clauses) if ASKS.search(c)]
    at = asks[-1] if asks else len(clauses) - 1
    own = _named_in(clauses[at], asking=True)
    # What someone else said, when the asker then turns to their own case ("我们组长说西部项目组的人…能报
    # 800，我们东部的是不是也一样？"), is the claim put up for checking: its domain words stay, its other
    # words are theirs, not the asker's subject. ("听说西部项目组…比我们高，具体是多少？" asks about theirs.)
    own_case = bool(_ASKER_CASE.search(clauses[at]))
    around = frozenset().union(
        *(
            _named_in(c, asking=False)
            for i, c in enumerate(clauses)
            if i != at and not (own_case and _REPORTED.search(c))
        )
    )
    if own or entities_in(clauses[at]):
        around = frozenset(w for w in around if not _is_common_word(w))
    named = own | around
    if not named and not entities:
        # A one-character noun is a subject too when it is all the question names ("钱…几天能到账"):
        # without it every passage would be on the subject of a question about nothing.
        named = _one_character_nouns(question)
    return entities | named


#: The heading of a formal request ("关于差旅费报销及婚假事宜，现请示如下：一、…？二、…？", blind 18): it
#: lists the topics of the numbered questions after it, so its words are no condition on any one of them.
_HEADING: Final = re.compile(r"关于[^，,：:。？?]{1,30}?(?:事宜|事项|问题|有关情况)(?:的请示)?(?=[，,：:。])")


#: A clause saying why the asker is late or has not done it ("这阵子项目太忙一直没顾上报销", "一忙就给忘了",
#: blind 18): the excuse is circumstance, so its words (`项目`) are no condition — its domain words stay.
_EXCUSE: Final = re.compile(
    r"[^，,。；;？?！!]*(?:太忙|很忙|忙着|忙于|一忙|忘了|给忘|没顾上|顾不上|没空|没时间)[^，,。；;？?！!吗呢]*(?=[，,。；;])"
)


def _without_reports(question: str) -> str:
    """The question less the sentences that only report what someone else says, beside one that asks
    ("伙食补贴一天100还是120？组长说3月涨到120了。", blind 18): the claim is the figure put up for
    checking, and who made it (`组长`) or how it moved (`涨到`) is no word a rule names. Its domain words
    stay, as a reported clause's do."""
    sentences = [s for s in re.split(r"(?<=[。！!？?；;])", question) if s.strip()]

    def asks(sentence: str) -> bool:
        return bool(ASKS.search(sentence)) or sentence.rstrip().endswith(("？", "?"))

    if len(sentences) < 2 or not any(asks(s) for s in sentences):
        return question
    return "".join(
        " ".join(entities_in(s)) + " " if _REPORTED.search(s.strip()) and not asks(s) else s
        for s in sentences
    )


def asking_clause_terms(question: str) -> frozenset[str]:
    """The subject words of the clause that asks alone: "下周想请三天假在家陪孩子，要准备什么材料？" asks
    about nothing of its own (`陪孩子` is why the leave is taken, said in a clause that does not ask)."""
    clauses = [c for c in _CLAUSE_BREAK.split(question) if c.strip()]
    asks = [c for c in clauses if ASKS.search(c)]
    return subject_terms(asks[-1]) if asks else subject_terms(question)


def _tagged_words(text: str) -> dict[str, list[str]]:
    """The words of `text` outside its domain words, filler phrases and figures, with their
    part-of-speech tags. Figures and periods ("半年", "500 元") are conditions: the words they overlap
    are left out whole, not cut ("一天多少钱" must not leave a word "少钱")."""
    rest = ENTITY.sub(" ", text)
    for phrase in FILLER_PHRASES:
        rest = rest.replace(phrase, " ")
    figures = [(m.start, m.end) for m in extract(rest).items]
    tags: dict[str, list[str]] = {}
    at = 0
    for w, tag in jieba_tag(rest):
        start = rest.find(w, at)
        start = at if start < 0 else start
        at = start + len(w)
        if any(start < end and begin < at for begin, end in figures):
            continue
        # (tokenize drops stopwords such as 需要 and stems Latin words)
        for token in tokenize(w) if w.isascii() or not tokenize(w) else [w.lower()]:
            tags.setdefault(token, []).append(tag)
    return tags


def _named_in(text: str, *, asking: bool) -> frozenset[str]:
    """The words of one clause that may name what the question is about (`_names_a_thing`); verbs
    only in the clause that asks ("能不能拆成半天休": 拆成 is what is asked)."""
    tags = _tagged_words(text)
    # "王芳病假那条，她…" (blind 28): a colleague named beside their case; no policy names an employee
    colleagues = colleague_names(text)
    return frozenset(
        t
        for t, word_tags in tags.items()
        if t not in _GENERIC_WORDS
        and t not in colleagues
        and t not in FILLER_WORDS
        and len(t) > 1
        and not t.isdigit()
        and t.strip()
        and _names_a_thing(t, word_tags, verbs=asking)
    )


def _one_character_nouns(text: str) -> frozenset[str]:
    return frozenset(
        w
        for w, tags in _tagged_words(text).items()
        if len(w) == 1 and "n" in tags and w not in _GENERIC_WORDS and w not in FILLER_WORDS
    )


#: Common nouns and verbs: outside the clause that asks, what the asker handles or does (`客户`,
#: `项目组`), and the words that qualify how it happens (`中途`, `临时`: "出差中途临时延长了两天，多出来的
#: 那两天还算伙食补贴吗？", blind 18). Proper names (`新加坡`), ranks (`二线`) and exclusions (`以外`) stay
#: conditions.
_COMMON_TAGS: Final = frozenset({"n", "vn", "v", "vg", "vi", "l", "ng", "an", "b"})


def _is_common_word(word: str) -> bool:
    if re.fullmatch(r"[A-Za-z0-9_\-.]+", word):
        return False
    tags = [tag for _, tag in jieba_tag(word)]
    return bool(tags) and all(tag in _COMMON_TAGS for tag in tags)


#: Parts of speech that never name what a question is about (jieba's tags): adjectives, adverbs,
#: idioms, pronouns, prepositions, conjunctions, particles, measure words.
_NOT_A_NAME_TAGS: Final = frozenset(
    {"a", "ad", "d", "i", "r", "zg", "y", "p", "u", "uj", "ul", "uz", "ug", "uv", "ud", "vd", "q"}
)
#: Time words: when the asker does something (`月底`) is a condition, not a subject — unless the
#: lexicon knows the word as a domain term.
_TIME_TAGS: Final = frozenset({"t", "tg", "f"})
#: Days of the week and the weekend ("中间跨一个周末", "周六周日还算伙食补贴吗"): when a trip or a leave
#: falls, a case the rule's own counting (`按出差自然日计算`) decides — never a word the rule names. The
#: lexicon knows 周末, so the time tag alone does not leave it out (session 30).
_WEEK_DAY: Final = re.compile(r"周末|双休日?|(?:周|星期|礼拜)[一二三四五六日天]")

#: Verbs: outside the clause that asks, what the asker does (`看中`, `交上去`, `跑`) is circumstance —
#: unless the lexicon knows the word as a domain term (`加班`, `离职`: "加班了，有补贴吗").
_VERB_TAGS: Final = frozenset({"v", "vg", "vi", "vq"})
#: The characters a count ends with (`几天`, `块整`, `头一回`); a rank ends with what it ranks (`二线`).
_COUNT_END: Final = frozenset("0123456789一二两三四五六七八九十百千万几半整个天次回块元年月日号步项条")
#: A word starting with one of these is an adverb or a modal glued to a verb by the segmenter
#: (`刚领` "just got", `能放` "can take"), not a name, even when tagged as a noun.
_FUNCTION_START: Final = frozenset("刚才就都还再也又要会可能很太挺真正该先")
#: The unit of a count glued to 假 by the segmenter ("一年有多少天假？" → `天假`): how much leave is
#: asked, not a kind of leave a passage must name (blind 18).
_UNIT_LEAVE: Final = re.compile(r"[天日周月]假")


def _names_a_thing(word: str, tags: Sequence[str], *, verbs: bool = True) -> bool:
    """Whether a Chinese word of the question may name what it is about, given its part-of-speech
    tags in the question (else its own): `正好`, `具体`, `头一回`, `块整` say how or how much, and
    requiring them of a passage only rules the right one out (docs/agent.md, "Subject words"). Latin
    words are kept as they are."""
    if not re.search("[\u4e00-\u9fff]", word):
        return True
    if word[0] in _FUNCTION_START or _WEEK_DAY.fullmatch(word) or _UNIT_LEAVE.fullmatch(word):
        return False
    if tags and all(tag in _NOT_A_NAME_TAGS for tag in tags):
        return False
    circumstance = _TIME_TAGS if verbs else _TIME_TAGS | _VERB_TAGS
    if tags and all(tag in circumstance for tag in tags) and not default_lexicon().knows(word):
        return False
    # A count (`块整`) says how much; a rank (`二线`) names a category, and `港澳台`, tagged a numeral
    # too, a place. An exclusion (`以外`, a conjunction to the tagger) stays: it narrows the case.
    return not (tags and all(tag == "m" for tag in tags) and word[-1] in _COUNT_END)


_PART_END: Final = re.compile(r"[？?！!。；;]")


_CANONICAL_WORDS: Final = frozenset(w for _, words in COLLOQUIAL for w in words.split())


def _parts_and_asking(question: str, need: NeedCode) -> tuple[list[str], str | None]:
    """The question's parts and the one part that asks for `need` (None unless exactly one does)."""
    # The search query may end in the documents' words for a colloquial phrasing (`… 审批`, see
    # `vocabulary.canonical_terms`): they are no part of the question that asks.
    parts = [p for p in _PART_END.split(question) if p.strip() and not set(p.split()) <= _CANONICAL_WORDS]
    cue = NEED_CUES.get(need)
    asking = [p for p in parts if cue is not None and cue.search(p)] if len(parts) > 1 else []
    if need is NeedCode.APPROVAL and len(asking) > 1:
        # "得谁批？批完财务几天能打款？" (blind 28): how long a step takes after the approval asks no approver
        asking = [p for p in asking if not STEP_TAKES.search(p) or re.search(r"谁|哪", p)]
    return parts, asking[0] if len(asking) == 1 else None


def other_parts_words(question: str, need: NeedCode | None) -> frozenset[str]:
    """The domain words another part names in place of the one the part asking for `need` names:
    in "婚假需要提交什么材料？另外年假要提前几天申请？" the materials are 婚假's, so 年假 (a word of
    the same class, said in the other part) is no condition on them; the whole question's other
    domain words (`出差`) still hold for every part."""
    question = _HEADING.sub(" ", question)
    parts, asking = _parts_and_asking(question, need) if need is not None else ([], None)
    if asking is None:
        return frozenset()
    named = set(entities_in(asking))
    # "…除了我这个直属主管，还得谁审批？另外他病假这几天的绩效奖金怎么算？": a word named only in a part that
    # asks another need (绩效, of the bonus part) is that part's subject, not a condition on this one —
    # when this part names a domain word of its own (blind 16).
    theirs = (
        {w for p in parts if p is not asking and _asks_apart(p, need) for w in entities_in(p)}
        - {w for p in parts if p is asking or not ASKS.search(p) for w in entities_in(p)}
        if named
        else set()
    )
    return frozenset({w for group in WORD_CLASSES if named & set(group) for w in group} - named) | theirs


def _asks_apart(part: str, need: NeedCode | None) -> bool:
    """Whether `part` asks something of its own beside the part asking `need`: another need's cue,
    or a question no need names ("…还要谁批？另外她休年假期间绩效奖金照发吗？", blind 20) — its words
    are its own subject, no condition on `need` (that part is then reported as a gap)."""
    return any(c.search(part) for n, c in NEED_CUES.items() if n is not need) or (
        bool(ASKS.search(part)) and not any(c.search(part) for c in NEED_CUES.values())
    )


#: How long a step of the process takes (blind 17: "审批一般要几天？", "报下来的钱多久能到账？"): the step
#: is what the duration is asked of, so a sentence must name it — a submission deadline ("出差结束后
#: 30 天内提交报销申请") bounds the asker's own step, not the approval's. `审批` is otherwise a generic
#: word (the kind of answer an approval question wants), so it is added back here only.
STEP_TAKES: Final = re.compile(
    r"(审批|审核|打款|到账|放款|批下来|批完)[^，,。；;？?]{0,6}?(?:几天|几个工作日|多久|多长时间|多少天)"
)


def need_subject(question: str, need: NeedCode) -> frozenset[str]:
    """The subject a passage must name to cover `need`: in a question asking several things, that of
    the part that asks for this need, with the whole question's domain words ("病假需要提前几天申请？
    要准备什么材料？": `提前` is the amount part's aspect, not the materials part's) less those of a
    class the part names another of (`other_parts_words`). A question of one part, or a need no
    single part asks for, keeps the whole question's subject."""
    question = _HEADING.sub(" ", question)
    parts, asking = _parts_and_asking(question, need)
    # Only a duration asked (`AMOUNT_RULE`) is asked of a step: "得谁审批？批完大概多久能到账？" asks the
    # approver of the claim, and `批完` is the other part's step (blind 18).
    timed = steps_timed if need is NeedCode.AMOUNT_RULE else (lambda _text: frozenset[str]())
    if asking is None:
        return subject_terms(question) | timed(question)
    own = subject_terms(asking) | timed(asking)
    if not own and not entities_in(question) and parts.index(asking) > 0:
        # "有没有话费补贴？一个月能报多少？": a part that names nothing asks about the part before it
        # (when the question has no domain word that would say what it is about).
        own = subject_terms(parts[parts.index(asking) - 1])
    return own | (frozenset(entities_in(question)) - other_parts_words(question, need))


def steps_timed(text: str) -> frozenset[str]:
    """The steps of the process whose duration `text` asks (`_STEP_TAKES`)."""
    return frozenset(m.group(1) for m in STEP_TAKES.finditer(text))


def asked_entities(question: str) -> list[str]:
    """The question's domain words, less those a clause that does not ask names as an alternative to
    one the asking clause names: in "手册上写一线城市 600 以内…，那去二线城市住宿按多少报？" the first
    clause's 一线城市 is the premise, 二线城市 the case asked."""
    question = without_stay_length(question)
    words = entities_in(question)
    clauses = [c for c in re.split(r"[，,。；;！!]", question) if c.strip()]
    asking = [c for c in clauses if ASKS.search(c)]
    if len(clauses) < 2 or len(asking) != 1:
        return words
    own = set(entities_in(asking[0]))
    replaced = {w for group in WORD_CLASSES if own & set(group) for w in group} - own
    return [w for w in words if w not in replaced]


def names_entities(sentence: str, doc: DocumentEvidence, question: str, need: NeedCode | None = None) -> bool:
    """Whether the sentence, read under its document's title, names every domain word of the
    question: "出差机票可以报多少钱" is not answered by a meal-allowance sentence of a travel policy.
    A general word names its instances ("一线城市" names 深圳, `vocabulary.HYPERNYMS`). With `need`,
    another part's word of a class its own part names is left out (`other_parts_words`)."""
    context = f"{(doc.heading or '').split('>', 1)[0]} {sentence}"
    named = set(entities_in(context))
    others = other_parts_words(question, need)
    return all(
        word in named
        or word in context
        or any(h in context for h in hypernyms_of({word}))
        or place_unranked(word, context)
        for word in asked_entities(question)
        if word not in others
    )


#: Regions of the country ("这回去西北跑了一大圈"): where a domestic trip went, a place like a city.
_REGIONS: Final = frozenset({"西北", "东北", "华北", "华东", "华南", "华中", "西南", "东南"})


def is_place(word: str) -> bool:
    """A city or city class of the HR vocabulary, any city `text.places` knows (`西宁`, `重庆`), or a
    region of the country (`西北`)."""
    return word in PLACES or word in _REGIONS or bool(city_classes(word))


def place_unranked(word: str, text: str) -> bool:
    """A place the question names is a condition the text need not repeat when the text names no
    place at all: a meal allowance "按每天 120 元" holds in 成都 (or 西宁) too; a lodging rule that
    ranks cities (`一线城市…600 元`) must name the asked one or its class."""
    return is_place(word) and not any(place in text for place in PLACES) and "城市" not in text


def on_subject(doc: DocumentEvidence, subject: frozenset[str]) -> bool:
    """Whether the passage (heading included) names the question's subject: every subject word of a
    short subject (up to three: "国外出差住宿" is not "出差住宿"), two in three of a longer one."""
    if not subject:
        return True
    text = f"{doc.heading or ''}\n{doc.text}".lower()
    text += " " + " ".join(entities_in(text))  # 年休假 names 年假
    words = set(tokenize(text))
    # Substrings too: jieba cuts 住宿费 whole, and a question about 住宿 is still about it.
    # A place is a condition a sentence naming no place need not repeat — judged per sentence, so a
    # passage holding both a lodging table that ranks cities and a flat daily allowance is still
    # about 成都's allowance ("…住宿费每晚不超过 500 元。…伙食补贴按每天 80 元").
    sentences = [p for p in re.split(r"[。\n；;]", text) if p.strip()]
    others = {t for t in subject if not is_place(t)}
    named = sum(
        1
        for term in subject
        if term in words
        or term in text
        or any(h in text for h in hypernyms_of({term}))
        or place_unranked(term, text)
        or (
            is_place(term) and any(place_unranked(term, p) and any(o in p for o in others) for p in sentences)
        )
    )
    if any(term.endswith("项目组") and term not in text for term in subject):
        # "西部项目组的同事去北京…一晚上限是多少": who the rule is asked for is no word a majority of
        # the others can stand in for — the company's 600 元 is not that project's cap (session 29).
        return False
    return named == len(subject) if len(subject) <= 3 else named * 3 >= len(subject) * 2

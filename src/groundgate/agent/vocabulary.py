"""The HR domain's words: what the agent treats as one thing, whatever the word segmenter does.

jieba cuts "休年假" into 休年 / 假 and "住宿费" whole; a subject named by these words is found by
substring, not by token. Word classes also drive follow-ups ("那病假呢？" replaces 年假).
"""

from __future__ import annotations

import re
from typing import Final

from groundgate.agent.contracts import NeedCode

__all__ = [
    "ASKS",
    "COLLOQUIAL",
    "ENTITY",
    "FILLER_PHRASES",
    "FILLER_WORDS",
    "HYPERNYMS",
    "LATE_CLAIM",
    "NEED_CUES",
    "OFFERED_FIGURES",
    "STILL_IN_TIME",
    "START_ASKED",
    "PLACES",
    "REPLACEABLE_CLASSES",
    "TIME_WORDS",
    "WORD_CLASSES",
    "canonical_terms",
    "entities_in",
    "hypernyms_of",
]

WORD_CLASSES: Final = (
    ("年假", "病假", "事假", "婚假", "产假", "陪产假", "丧假", "调休"),
    ("一线城市", "二线城市", "三线城市", "其他城市"),
    ("北京", "上海", "广州", "深圳", "杭州", "成都", "武汉", "西安"),
    ("住宿", "伙食", "交通", "机票", "火车票", "体检"),
    ("试用期", "实习生", "正式员工"),
    ("差旅", "采购", "绩效"),
)
#: Places (city classes and cities): a condition of a rule that ranks places, no subject of one
#: that does not.
PLACES: Final = frozenset({*WORD_CLASSES[1], *WORD_CLASSES[2]})
#: Task windows: not subjects of a document, but "那下周呢？" / "说错了，我想问的是下周" replace the
#: window asked about, as a word of the same class.
TIME_WORDS: Final = (
    "这礼拜",
    "这个礼拜",
    "这个星期",
    "这星期",
    "这周",
    "本周",
    "下礼拜",
    "下个礼拜",
    "下周",
    "下星期",
    # "这礼拜有啥到期的？" → "那下下周呢？": the week after next, never read as 下周 (blind 20)
    "下下周",
    "下下礼拜",
    "下下个礼拜",
    "下下星期",
    "今天",
    "本月",
    "这个月",
    "上个月",
    "明天",
    "后天",
    # "明儿个有啥到期的活儿？" → "那下周一呢？": tomorrow said the northern way (blind 15)
    "明儿个",
    "明儿",
    "明日",
    "大后天",
    # "那下周一呢？" after "我明天有啥到期的没？": one day of a week
    *(
        f"{week}{day}"
        for week in ("下周", "下礼拜", "下星期", "这周", "本周", "周", "礼拜", "星期")
        for day in "一二三四五六日"
    ),
)
REPLACEABLE_CLASSES: Final = (*WORD_CLASSES, tuple(sorted(PLACES)), TIME_WORDS)
_ALIASES: Final = {
    "年休假": "年假",
    "住宿费": "住宿",
    "伙食补贴": "伙食",
    "餐补": "伙食",
    "酒店": "住宿",
    "出差": "差旅",
    "飞机": "机票",
    "航班": "机票",
    "高铁": "火车票",
    "动车": "火车票",
    "住酒店": "住宿",
    "路费": "交通",
    "车费": "交通",
    "交通费": "交通",
    "宾馆": "住宿",
    "饭补": "伙食",
    "餐费": "伙食",
    "吃饭": "伙食",
    # The policy ranks cities 一线 / 二线 / 其他: every lower tier and small town is 其他城市.
    "三线城市": "其他城市",
    "三四线城市": "其他城市",
    "四线城市": "其他城市",
    "五线城市": "其他城市",
    "四线小城": "其他城市",
    "三线小城": "其他城市",
    "小城市": "其他城市",
    "县城": "其他城市",
    # English words of chat ("住一晚hotel最多报多少"): the documents' words for them.
    "hotel": "住宿",
    "Hotel": "住宿",
    "HOTEL": "住宿",
}

#: A sentence naming the general word names each of its instances: "一线城市…600 元" is the rule
#: for 深圳 too (the policy lists the first-tier cities).
HYPERNYMS: Final = {
    "北京": "一线城市",
    "上海": "一线城市",
    "广州": "一线城市",
    "深圳": "一线城市",
}

#: Colloquial phrasings → the words the documents use. Appended to a knowledge search (and so to
#: what the evidence must be about); never replaces the user's words, so no constraint is lost.
COLLOQUIAL: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (
        re.compile(r"(?i)来得及|还能交|过了多久|多久(?:之|以)?内|时限|期限|逾期|拖了|晚交|deadline|ddl"),
        "提交 逾期",
    ),
    (re.compile(r"头一天|前一天|当天|打个?招呼|提前多久|多早"), "提前 申请"),
    # ("多出来的那两天": days added to a trip, not a sum over the cap — blind 18)
    (
        re.compile(
            r"超标|超出|超了|多出来(?!的?(?:那|这)?[几两一二三四五六七八九十\d]+(?:天|日))|超出来|谁出"
            r"|自己(?:出|掏|付)|自掏腰包"
        ),
        "超出标准 承担",
    ),
    (re.compile(r"签字|签批|谁批|找谁批|谁来批|批就够|批完"), "审批"),
    (re.compile(r"在哪个?系统|哪个平台|在哪(?:里|儿)?(?:提|交|申请|办)|怎么提"), "申请 流程"),
    (re.compile(r"哪张票|什么票|要附|附上|票据|凭证"), "材料 票据"),
)


def canonical_terms(text: str) -> str:
    """The documents' words for the colloquial phrasings of `text` (may be empty)."""
    return " ".join(dict.fromkeys(w for cue, words in COLLOQUIAL if cue.search(text) for w in words.split()))


def _words(text: str) -> list[str]:
    return text.split()


#: Phrases of spoken questions that say nothing about the subject, blanked out before the question is
#: cut into words (the segmenter would otherwise make "我入" / "职才" of "我入职才四个月").
FILLER_PHRASES: Final = tuple(
    sorted(
        _words(
            """
        进公司 入职 转正 刚转正 上个月 这趟 一共 花了 就够了 就够 就行了 就行 只给 开了 没拿 会不会卡 会不会 回来 想起
        现在 目前 如今 交还 来得及 头一天 前一天 跟领导 打个招呼 打招呼 我们组 新来的 新来 跟我 他的 她的 公司 给报
        费用 在系统里 系统里 哪个系统 在系统 系统 一口气 除了 还得 得谁 签字 谁来批 批完 要是 一次把 这些 那些 全休了
        一整周 整周 我病了 病了 有同事说 同事说 听说 照样 靠谱吗 靠谱 对吧 没错吧 没错 是不是 涨了 一天 每天 这阵子
        借调 那会儿 当时的 当时 按当时 住了 超出来的 超出来 那个 这个 那份 那张 都写了些什么 写了些什么 写了什么 都
        还能 能休 能报 要交 要附 哪张票 哪个 坐飞机 最晚 几号 哪天 截止 多少 就完事了 就完事 完事了 那去
        交点 带点 补点 附点 到时候 到时 去民政局 民政局 把证领了 领证 登记结婚
        休完 休掉 用完 过期作废 就作废 作废 他托我问一下 她托我问一下 托我问一下 托我问 让我问一下 让我问 帮他问 帮她问 替他问 替她问 签完字 签个字
        另外
        接着去 紧接着去 然后去 随后去 多少天内 多少天之内 哪天前 哪天之前 几号前 几号之前
        """
            # Greetings and thanks around the question ("您好，想请教一下：…谢谢！", "麻烦啦，提前谢过！",
            # blind 15) are manners, not subjects: a passage need not say 谢谢 to answer it.
            """
        您好 你好 早上好 下午好 晚上好 请教一下 请教 打扰一下 打扰您一下 打扰了 打扰 谢谢 多谢 感谢 提前谢过 谢过 谢啦
        麻烦啦 麻烦了 麻烦您 麻烦 辛苦啦 辛苦了 辛苦
        """
            # preparing in advance is how materials are asked for, like 准备: no notice period; "想问下"
            # only says a question follows (blind 15)
            """
        提前准备 提前备好 想问一下 想问下 问一下 问下
        """
            # how a long message leads up to its questions ("请问我现在能休年假吗", "想先问问", "想确认两件事：
            # 一是…，二是…", blind 18): the questions follow, these name nothing of them
            """
        请问 想先问问 先问问 想问问 问问 想确认一下 想确认 确认一下 一是 二是 三是
        """
            # the forms of a written request (公文) around its questions ("现请示如下", "妥否，请批示")
            """
        现请示如下 请示如下 特此请示 妥否 请批示 敬请批示 敬请告知 请予批准
        """
            # the order asked of steps: how the answer is to be told, not what it is about
            """
        按先后顺序 按顺序 先做什么后做什么 先做什么再做什么 先干啥后干啥
        """
            # an approver's verdict asked of a colleague's case ("我能批吗", "我直接批可以吗", "我按这个批行吗",
            # "我是不是该驳回", blind 28): whether the rule allows it, which names nothing of the rule; nor do a
            # sign-off put up to save a late claim (补签) and by when (`啥时候前得休完`)
            """
        是不是该驳回 该不该驳回 该驳回 要驳回 驳回 我能批 我直接批 直接批 我按这个批 按这个批 批行 补签个字 补签
        啥时候前 什么时候前 啥时候之前 什么时候之前
        """
        ),
        key=len,
        reverse=True,
    )
)

#: Words of spoken questions that say nothing about the subject (who, when, how it is phrased):
#: they must not make a passage look off subject. Whole tokens only.
FILLER_WORDS: Final = frozenset(
    _words(
        """
    上周 上次 上回 这次 这趟 那次 一晚 一晚上 住了 超出来 出来 块 块钱 谁出 干了 多一点 一点 一年 一口气 头一天
    前一天 打招呼 打个 招呼 就行 就够 够了 靠谱 同事 有人 听说 照样 还能 领的 那会儿 那时 当时 现在 目前 这阵子
    最近 回来 想起 才想起 来得及 还来得及 交还 再交 我们 我们组 组里 新来 新来的 跟我 他的 她的 公司 给报 报吗
    会不会 卡 开了 只给 没拿 拿 坐 去 到 住 要附 哪张 张票 票 一共 对吧 没错 没错吧 是不是 涨 涨了 给 发 发多少
    一天 每天 以后 之后 之前 除了 还得 得谁 谁 签字 批完 就行了 主管批 经理批 光 一整周 整周 病了 我病 刚 刚转正
    转正 入职 才 进公司 第 进 了 吧 啊 呀 嘛 哦 请 提 提吗 在 系统里 那儿 那里 这里 这儿 也 也是 按 当时的 能报 报
    能休 还能休 休 带 一起 要 要交 交 几号 几天 哪天 最晚 截止 多少 怎么 那个 这个 那份 这些 那些 全休 一次 要是 那我
    借调 里 都 写了 写了些 些 什么 用得着 用不着 封顶 一家 这家 那家 我要 记得 我记得 只有 这么
    差不多 大概 大约 左右 将近 加起来 单子 一大圈 一圈 总共 合计 总计 一共 得交 得带 得附
    假如 假设 假若 如果 倘若 万一 产生 产生的 拿到 能拿到 领到 能领到 签完 情况 例外 例外情况 特殊情况
    只发 才发 只报 才报 只给发
    一趟 两趟 去过
    那条 这条 那单 这单 整单
    """
    )
)

#: "住一晚", "住了两晚": a night's stay is lodging, said without the noun; so is a sum a night ("上海出差一晚
#: 601 元", blind 19: only lodging is paid by the night) and the hotel emoji.
_NIGHTS_STAYED: Final = (
    r"住了?\s*(?:[一两二三四五六七八九十几]+|\d+)\s*[晚宿]"
    r"|[一每]\s*晚\s*(?:\d+|[一两二三四五六七八九十百千]+)\s*(?:元|块)|\U0001f3e8"
)
ENTITY = re.compile(
    "|".join(
        [
            _NIGHTS_STAYED,
            *sorted({w for group in WORD_CLASSES for w in group} | set(_ALIASES), key=len, reverse=True),
        ]
    )
)


def _folded(word: str) -> str:
    if re.fullmatch(_NIGHTS_STAYED, word):
        return "住宿"
    return _ALIASES.get(word, word)


def entities_in(text: str) -> list[str]:
    """The domain words of `text`, aliases folded (`年休假` → `年假`, `住一晚` → `住宿`), in order, once each."""
    return list(dict.fromkeys(_folded(m.group(0)) for m in ENTITY.finditer(text)))


def hypernyms_of(words: list[str] | set[str]) -> set[str]:
    """The general words naming `words` too (深圳 → 一线城市)."""
    return {HYPERNYMS[w] for w in words if w in HYPERNYMS}


#: Two figures a question offers as its answers ("一天一百还是一百二", "年假是 10 天还是 15 天"), or one it
#: doubts ("年假是不是有 15 天"): the planner reads the amount rule off them, and the evidence evaluator
#: takes them for no condition.
OFFERED_FIGURES: Final = re.compile(
    # (a comma may set the second apart: "到底是一天一百二十块，还是 100 元？", blind 17)
    r"[\d一二两三四五六七八九十百千万]+\s*[^，,？?\s]{0,3}[，,]?\s*还是[^，,？?]{0,3}?"
    r"(?:\d+|[一二两三四五六七八九十百千万]{2,})\s*[天元块%]?"
    r"|(?<=是不是)(?:有|该|要|能|就|只有|应该)?\s*(?:给|发|批|算|休)?\s*(?:涨到|到)?\s*(?:\d+|[一二两三四五六七八九十百千万]+)\s*[天元块%]"
    # "不是一晚三百八封顶嘛": a premise put up for checking, figure and all
    r"|不是[^，,？?]{0,8}?(?:\d+|[一二两三四五六七八九十百千万]{2,})[^，,？?]{0,4}?(?:嘛|吗)"
    # "婚假现在还是只有三天对吧": a figure taken for granted, put up for checking
    r"|(?:还是|就|只有|才)\s*(?:只有|就)?\s*(?:\d+|[一二两三四五六七八九十百千]+)\s*[天元块%](?=[^，,。？?]{0,6}(?:对吧|吧|没错吧|是吧|对不对))"
    # "现在结婚还是按 3 天吗？": an old figure asked whether it still holds (blind 19)
    r"|(?:还是|仍然|依然|仍)\s*按\s*(?:\d+|[一二两三四五六七八九十百千]+)\s*[天元块%](?=\s*(?:吗|么|嘛|[？?]))"
)

#: The day a rule took effect, asked ("是从哪天开始执行的", "什么时候生效"): the amount rule's cue reads it,
#: and only a sentence stating the day the rule starts answers it (blind 16).
START_ASKED: Final = re.compile(
    r"(?:哪天|哪一天|什么时候|何时|几号)(?:开始|起)?(?:执行|生效|实施|施行)|哪天起"
)

#: Whether it is still in time ("现在交还来得及吗", "婚假现在还能休吗", "逾期了还能报吗"): the rule's time
#: limit is asked (the planner reads the amount rule off it), and the time gone by that the question
#: states is measured against that limit, not a case the rule must hold for (the evidence evaluator).
#: A claim said late ("拖到今天才交报销，还能批吗", "报销超过30天了…是不是就能报", blind 28): the time gone by.
LATE_CLAIM: Final = (
    r"拖到|(?:报销|回来|结束|出差)[^，,。？?]{0,4}(?:(?:超过|过了|超了)\s*(?:\d+|[一二两三四五六七八九十几]+)\s*个?"
    r"(?:天|周|星期|礼拜|月)了"
    # "出差回来两个月了才报": handed in only after that long
    r"|(?:都|已经)?\s*(?:\d+|[一二两三四五六七八九十几]+)\s*个?(?:天|周|星期|礼拜|月)多?了?才(?:报|交|提))"
)
STILL_IN_TIME: Final = re.compile(
    r"还能(?:休|交|报|请)|来得及|期限|时限|逾期|晚交|拖了|过了多久|" + LATE_CLAIM
)

#: A clause or part that asks something: an interrogative, a question particle or an A-not-A form
#: (`会不会`, `用不用`). The planner lists a part that asks with no need of its own; the subject of a
#: question of several clauses is that of the clause that asks.
ASKS: Final = re.compile(
    # (`这么` / `那么` say "so", they ask nothing: "我记得是这么规定的")
    r"吗|(?<![这那])么|呢|什么|啥|哪|谁|怎|多少|几|如何|是否|能否|可否|有没有|([\u4e00-\u9fff])不\1"
    # the interrogatives of written Chinese ("由何人审批", "以何文件为准", blind 18)
    r"|(?<!任)何(?:人|时|处|种|地|日|者|部门|文件)"
)

#: The words that ask for each kind of evidence ("多少" an amount rule, "材料" materials): the planner
#: reads the question's needs off them, the evidence evaluator the part of a question that asks each.
NEED_CUES: Final[dict[NeedCode, re.Pattern[str]]] = {
    NeedCode.AMOUNT_RULE: re.compile(
        r"标准|额度|多少钱|上限|金额(?!\s*(?:正好|刚好|恰好|是|为|在|达到|有)?\s*[\d一二两三四五六七八九])|多少元|报多少|补贴多少|最高|最多能?报|"
        # "能全报吗", "能全额报不": whether a sum is reimbursed in full is read off the cap (blind 15);
        # "金额正好 5000" states the case, it asks no amount
        r"不超过|能报(?!销|吗|差旅)|全额报销|全额?报(?:销)?(?=吗|不|么|[？?])|几天|多少天|多久|"
        r"多少|超标|超出|超了|谁出|承担|多出来|多出的|来得及|还能(?:交|报|休|请)|期限|时限|逾期|提前(?!准备|备好|谢)|头一天|前一天|打个?招呼|"
        + LATE_CLAIM
        + r"|"
        r"多长时间|多长的?时间|最晚(?:得|要)?在|(?:什么|多少|几)比例|"
        # "婚假和年假哪个天数多": which of two grants more days is each one's length (blind 24)
        r"天数(?:多|少|长|短)|哪(?:个|种)(?:假)?(?:更)?(?:长|多)|"
        # "最晚什么时候得交？": by when a claim is handed in is its time limit (blind 18)
        r"最晚(?:什么时候|啥时候|哪天|几号)(?:之?前)?(?:得|要|必须)?(?:交|提交|报|申请|休完|休|用完)|"
        # "是不是必须在领证后三个月内休完？过了就作废了？": by when a leave must be taken is its time limit
        r"内(?:休|用|请)(?:完|掉)|(?:过期|过了)[^？?，,]{0,3}作废|"
        # "周六周日还算伙食补贴吗": which days a rule counts is part of the rule
        r"(?:还|也)算[^？?，,]{0,6}(?:补贴|假|天数)吗|"
        r"对吧|没错吧|对不对|对吗|涨了|写了些?什么|规定了?什么|(?:怎么|咋)(?:算|计算|规定|发)|如何计算|"
        # (`提前准备…材料` prepares in advance: no notice period is asked, blind 15)
        # "病假工资？", "病假期间工资怎么算": what a leave pays is a share of pay, an amount rule (not
        # "…工资照发吗", a yes-no question no amount sentence answers)
        r"假(?:期间)?的?工资(?=\s*(?:[？?。]|$|怎么|咋|多少|按|发多少|打几折|是多少))|"
        # "为什么每晚只给我报了 600？": why the asker's own claim was cut is answered by the cap (blind 15)
        r"(?:为什么|为啥|为何|怎么)[^？?。]{0,16}(?:只|才|就)(?:给我?)?报了?|(?:为什么|为啥|为何)[^？?。]{0,16}(?:少报|没(?:给我?)?全报)|"
        # "按工作日算还是按自然日算": how the rule counts is part of the rule
        r"按[^？?，,]{1,6}算|"
        # "《…通知》是从哪天开始执行的？": the day a rule took effect, answered only by a sentence of the
        # rule stating it ("自 2026 年 3 月 1 日起…", `evidence.on_topic_sentences`; blind 16)
        r"(?:从|自)?(?:哪天|哪一天|什么时候|何时|几号)(?:开始|起)?(?:执行|生效|实施|施行)|哪天起|"
        # "婚假？": a leave kind alone, nothing else asked, asks what it grants (blind 14)
        r"^\s*(?:年休?假|病假|婚假|事假|产假|陪产假|丧假)\s*[？?]\s*$"
    ),
    NeedCode.PROCESS_STEPS: re.compile(
        # ("超出的部分怎么处理" asks who bears the excess, which the amount rule states: no steps, blind 19)
        r"流程|步骤|手续|怎么(?:申请|报销|提交|办|走|操作|(?<!部分怎么)处理|请|提)|"
        r"如何(?:申请|报销|提交|办理|(?<!部分如何)处理)|怎样|"
        r"一步(?:一)?步|怎么弄|从登录开始|"
        r"在哪(?:里|儿)?(?:提交|申请|提|办)|(?:哪个|什么)(?:系统|平台)|第几步|哪一步|哪个步骤|"
        # "差旅怎么报": how a named expense is filed, said in four characters (blind 16) — not "怎么报多少",
        # nor "费用怎么报" of an expense no policy names (团建), which stays unplanned
        r"(?:差旅|出差|住宿|酒店|伙食补贴|伙食|餐补|交通|机票|火车票|路费|车费)[费的]{0,2}\s*(?:怎么|咋|如何)报"
        r"(?=\s*(?:呢|啊|呀)?\s*[？?。]?\s*$)|"
        # "录费用之前得先选哪个单子": what comes first is a step
        r"(?:之前|以前)(?:得|要|需要)?先|先(?:选|填|建|录|提交)[^？?，,]{0,6}(?:哪|什么|啥)|"
        # "先做什么后做什么？", "麻烦按顺序说一下": the order of the steps is asked (blind 18)
        r"先(?:做|干|弄|办)(?:什么|啥)[，,]?(?:再|后|然后)(?:做|干|弄|办)(?:什么|啥)|按(?:先后)?顺序"
    ),
    NeedCode.MATERIALS: re.compile(
        r"材料|资料|需要(?:提供|准备|带|附)|附件|(?:哪些|什么)(?:单据|发票|证明|票据)|要附|附(?:哪|什么)|"
        r"哪张票|什么票|水单|凭证|要交(?:哪些|什么|啥)|附(?:什么|啥|哪些)|(?:还|得|要)(?:补|交|带|附)(?:点|些)?(?:啥|什么|哪些)|(?:要|需)不(?:需)?要交|"
        # "还得交病历吗": whether one document is handed in
        r"(?:还|得|要|需要)得?(?:补|交|带|附|提供)(?:个|份|张)?(?!的)[\u4e00-\u9fff]{2,5}吗|"
        # "要把结婚证原件交上去吗": which form of a document is handed in
        # "她交的诊断证明得是什么级别的医院开的？": which kind of a document is required (blind 20)
        r"(?:证明|发票|票据|水单|病历|证件)[^？?，,。]{0,4}(?:是|要|需要)?(?:什么|哪|啥)(?:级别|种|样|类)|"
        r"原件|复印件|扫描件|(?:要|得|需要)(?:把|将)[^？?，,]{1,10}(?:交|带|上交|提交)(?:上去|过去)?吗|"
        # "病假3天 要病历吗": whether one named document is required, typed without a verb (blind 24)
        r"(?:要|得|需要)(?:个|份|张)?(?:病历|诊断证明|结婚证|发票|水单|行程单|票据)[^？?，,]{0,2}(?:吗|么|不|没)"
    ),
    NeedCode.APPROVAL: re.compile(
        r"审批|谁批|批准|审核|签字|签批|谁来批|[理管导人监]批|批(?:完|就|一下)|找谁批|(?:也|还)?(?:得|要|需要)批[吗么]?|"
        # "部门经理签完字就可以了吗": whose signature it takes is who approves
        r"签(?:完|了|个)字|"
        # "要不要上财务总监": whether it goes up to an approver (blind 28)
        r"(?:要不要|用不用|需不需要|得不得)(?:上|找|过|经过|报给?)[^？?，,]{0,6}(?:总监|经理|主管|负责人|HRBP|领导)"
    ),
    NeedCode.ELIGIBILITY: re.compile(
        r"能不能|可不可以|能否|是否(?:可以|能)|资格|条件|符合|适用|(?:能|可以)报销[^？?]*吗|"
        r"(?:可以|能)(?:申请|休|报|请)[^？?]*吗|给报吗|报不报|给不给|包不包括|算不算|含不含|包括[^？?]*吗|能[^？?，,]{1,8}吗|"
        # "现在能请年假不？": a yes-no question closed by 不
        r"能[^？?，,]{1,8}不\s*[？?]?$|(?:可以|能)(?:折算|折现|兑换|换成)[^？?，,]{0,6}吗|"
        # "年假和病假，哪个可以按小时请？": which of two may be taken a way asks each one's condition (blind 17)
        r"(?:哪个|哪种|哪一种|哪一个|哪些)(?:假)?(?:可以|能)(?:按|分|拆|请|休|报)|"
        # "实习生出差的费用也是直接报消？": a statement put up as a question, whether one may do it
        # straight away, asks the condition (blind 14)
        r"直接(?:报销?|提交|休|请)\s*[吗么嘛]?\s*[？?]\s*$|"
        # "我直接批可以吗": whether the approver may sign it straight away asks the condition (blind 28)
        r"直接批[^？?，,]{0,4}(?:吗|不)|行不行|"
        # "听说试用期的出差不能报差旅": a class of employee said to be left out asks the rule's scope (blind 28)
        r"(?:试用期|实习生|新员工|正式员工)[^，,。？?]{0,6}(?:不能|不可以|不给|没法)(?:报|休|请|享受)|"
        # "试用期年假？": a class of employee and a leave or an expense, nothing else asked, asks
        # whether that class has it (blind 16), as "婚假？" alone asks what it grants
        r"^\s*(?:试用期|实习生|正式员工|新员工)(?:员工)?(?:的|有|能休|能报)?\s*"
        r"(?:年休?假|病假|婚假|事假|产假|陪产假|丧假|调休|差旅|出差|住宿|伙食补贴)\s*(?:吗|呢|没|不|有没有?|有吗|有不)?\s*[？?]?\s*$"
    ),
}

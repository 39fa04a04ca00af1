"""Numbers, quantities, dates and times in the surface forms people and LLMs write (English and
Chinese): a true restatement in another form is no contradiction, a changed figure is caught."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.fidelity import check_claim, extract
from groundgate.verify.grounding_check import check


def _contradictions(claim: str, evidence: str) -> set[str]:
    return {i.code for i in check_claim(claim, evidence, evidence) if i.severity == "contradiction"}


# (evidence, a true restatement in another surface form)
_SAME_FIGURE = [
    ("The app has 5 million users.", "The app has 5M users."),
    ("The app has 1.5M users.", "The app has 1.5 million users."),
    ("The model has 7 billion parameters.", "The model has 7B parameters."),
    ("The city has 2.3m residents.", "The city has 2.3 million residents."),
    ("Three billion people use it.", "3 billion people use it."),
    ("The budget is $1.2 trillion.", "The budget is $1,200 billion."),
    ("Rates rose by 25 basis points.", "Rates rose by 0.25 percentage points."),
    ("They ordered two dozen chairs.", "They ordered 24 chairs."),
    ("They sold half a million copies.", "They sold 500,000 copies."),
    ("The talk lasts half an hour.", "The talk lasts 30 minutes."),
    ("The talk lasts an hour and a half.", "The talk lasts 90 minutes."),
    ("The course takes two and a half years.", "The course takes 30 months."),
    ("Meet at 9.30am.", "Meet at 9:30 a.m."),
    ("The shop opens at noon.", "The shop opens at 12:00."),
    ("The meeting starts at 3 o'clock in the afternoon.", "The meeting starts at 15:00."),
    ("The band was formed in 1994.", "The band was formed in the 1990s."),
    ("The heap is limited to 512M of memory.", "The heap is limited to 512 MB of memory."),
    ("报名一共三百人。", "报名 300 人。"),
    ("公司有 23 名员工。", "公司有二十多名员工。"),
    ("价格是 3 块 5。", "价格是 3.5 元。"),
    ("价格是三块五。", "价格是 3.5 元。"),
    ("占比四分之一。", "占比 25%。"),
    ("增长了三成。", "增长了 30%。"),
    ("其中三成多（35%）来自海外。", "其中三成多来自海外。"),
    ("商品打八折。", "商品打 8 折。"),
    ("试用期工资打九折。", "试用期工资是转正工资的 90%。"),
    ("会议持续一刻钟。", "会议持续 15 分钟。"),
    ("营收同比增长 35%。", "营收同比增长约三成半。"),
    ("路灯在 18:00 至 23:00 亮灯。", "路灯每晚 6 点到 11 点亮灯。"),
    # `rather than` denies the alternative, not the clause's verb
    ("Recycling moves to every other week.", "Recycling is picked up every other week rather than weekly."),
    ("粮食总产量连续 9 年稳定在 13000 亿斤以上。", "粮食总产量连续 9 年稳定在 1.3 万亿斤以上。"),
]


@pytest.mark.parametrize(("evidence", "claim"), _SAME_FIGURE)
def test_a_figure_restated_in_another_surface_form_is_no_contradiction(evidence: str, claim: str) -> None:
    assert _contradictions(claim, evidence) == set()
    assert check(context=evidence, answer=claim).verdict is not Verdict.REJECT


# (evidence, the claim with one figure changed, the contradiction expected)
_CHANGED_FIGURE = [
    ("The app has 5 million users.", "The app has 6M users.", "number_mismatch"),
    ("The model has 7 billion parameters.", "The model has 13B parameters.", "number_mismatch"),
    ("The city has 2.3m residents.", "The city has 2.5 million residents.", "number_mismatch"),
    ("Rates rose by 25 basis points.", "Rates rose by 0.5 percentage points.", "number_mismatch"),
    ("The talk lasts half an hour.", "The talk lasts 45 minutes.", "number_mismatch"),
    ("The talk lasts an hour and a half.", "The talk lasts 60 minutes.", "number_mismatch"),
    ("Meet at 9.30am.", "Meet at 10:30 a.m.", "date_mismatch"),
    ("The shop closes at midnight.", "The shop closes at 23:00.", "date_mismatch"),
    ("The meeting starts at 3 o'clock in the afternoon.", "The meeting starts at 4 p.m.", "date_mismatch"),
    ("The band was formed in the 1990s.", "The band was formed in the 1980s.", "date_mismatch"),
    ("The band was formed in 1994.", "The band was formed in the 1980s.", "date_mismatch"),
    ("He has written over 300 songs since the 1970s.", "He has written over 400 songs.", "number_mismatch"),
    ("报名一共三百人。", "报名 400 人。", "number_mismatch"),
    ("公司有 23 名员工。", "公司有三十多名员工。", "number_mismatch"),
    ("占比四分之一。", "占比 30%。", "number_mismatch"),
    ("增长了三成。", "增长了 40%。", "number_mismatch"),
    ("商品打八折。", "商品打 7 折。", "number_mismatch"),
    ("会议持续一刻钟。", "会议持续 20 分钟。", "number_mismatch"),
]


@pytest.mark.parametrize(("evidence", "claim", "code"), _CHANGED_FIGURE)
def test_a_changed_figure_in_another_surface_form_is_a_contradiction(
    evidence: str, claim: str, code: str
) -> None:
    assert code in _contradictions(claim, evidence)
    assert check(context=evidence, answer=claim).verdict is not Verdict.PASS


# (text, the kind and value of its one value mention)
_READINGS = [
    ("three billion people", "count", 3e9),
    ("two dozen chairs", "count", 24.0),
    ("half a million people", "count", 5e5),
    ("1.2 mln people", "amount", 1.2e6),
    ("The heap is 512M.", "size", 512 * 1024.0**2),
    ("He is 1.8m tall.", "measure", 1.8),
    ("The timeout is 30s.", "duration", 30.0),
    ("Backups run twice a week.", "count", 2.0),
    ("in the 1960's", "date", "1960s"),
    ("Meet before midnight.", "time", "00:00"),
    ("at six in the morning", "time", "06:00"),
    ("at 10 at night", "time", "22:00"),
    ("三天一次备份", "count", 1.0),
    ("三分之二的用户", "percent", 200 / 3),
    ("八五折", "percent", 85.0),
    ("三成半", "percent", 35.0),
    ("每晚 7 点半", "time", "19:30"),
    ("3元5角", "amount", 3.5),
    ("总产量 1.39 万亿斤", "amount", 1.39e12),
    ("投资 3 千亿元", "amount", 3e11),
    # a Chinese decimal (digits only after 点: `九点四十七分` stays a clock time)
    ("线路长二十四点六公里", "measure", 24600.0),
    ("约四点八二亿次请求", "count", 4.82e8),
    ("晚上九点四十七分下单", "time", "21:47"),
    # the official way of writing an hour, after a day or before 起
    ("9 月 14 日 16 时发布预警", "time", "16:00"),
    ("地铁 15 日 20 时停运", "time", "20:00"),
    ("每天 8 时起营业", "time", "08:00"),
    # a record's zero-padded month-day
    ("主要事件: 07-09 DNS 解析异常", "date", "--07-09"),
    # a day of the month said alone at the start of a clause, and the end of a day range
    ("月内出过两次问题：9 日 DNS 解析异常", "date", "---09"),
    ("5月2日到4日", "date", "--05-04"),
    # half a minute after the minutes, a spaced minutes-and-seconds compound
    ("整个重试用时约 17 分半钟", "duration", 1050.0),
    ("高峰时段行车间隔 4 分 30 秒", "duration", 270.0),
    # a Chinese clock time with its seconds; a host name before a Chinese clause comma
    ("9 点 12 分 41 秒第一次调度失败", "time", "09:12:41"),
    ("Pod 被调度到 ip-10-4-7-21，", "identifier", "ip-10-4-7-21"),
]


def test_a_chinese_month_meets_the_month_an_english_context_names_in_words() -> None:
    evidence = "Headline inflation fell to 3.1% in May."
    assert _contradictions("五月整体通胀已回落到 3.1%。", evidence) == set()
    assert "number_not_in_evidence" not in {
        i.code for i in check_claim("五月整体通胀已回落到 3.1%。", evidence, evidence)
    }


def test_a_bare_month_abbreviation_that_fills_a_table_cell_is_a_month() -> None:
    table = "Metric | Aug | Jul\nMRR | $482,300 | $465,900"
    assert [m.value for m in extract(table) if m.kind == "date"] == ["--08", "--07"]
    assert not [m for m in extract("Don't mar the finish.") if m.kind == "date"]


@pytest.mark.parametrize(("text", "kind", "value"), _READINGS)
def test_a_surface_form_is_read_as_its_quantity(text: str, kind: str, value: object) -> None:
    found = [m for m in extract(text) if m.kind not in {"comparator", "negation"}]
    assert [(m.kind, m.value) for m in found][-1:] == [(kind, value)]


# Text that holds no quantity of the sort a nearby pattern reads.
_NOT_QUANTITIES = [
    ("in her 30s", "duration"),
    # `持续 9 日` is a period and `2 号线` a line's number: neither is a day of the month
    ("异常持续 9 日", "date"),
    ("可以换乘 2 号线", "date"),
    # `one and two years` is two figures, not a three-year duration
    ("between one and two years after", "duration"),
    ("sold 5 in the morning", "time"),
    ("他是团队成员，三成员工在海外。", "percent"),
    ("这件事一成不变。", "percent"),
    ("把纸三折叠起来。", "percent"),
    ("3块5个苹果", "amount"),
    ("每天工作 8 时间", "time"),
    ("第 3 时段", "time"),
    ("范围 7-9 人", "date"),
]


@pytest.mark.parametrize(("text", "kind"), _NOT_QUANTITIES)
def test_a_word_that_only_looks_like_a_unit_is_not_read_as_one(text: str, kind: str) -> None:
    found = [(m.kind, m.value, m.text) for m in extract(text)]
    if kind == "amount":
        assert ("amount", 3.0, "3块") in found
    else:
        assert not any(k == kind for k, _, _ in found), found


@pytest.mark.parametrize(
    ("answer", "codes"),
    [
        ("CPU 配额为 2 核，内存 4 GiB。", []),
        ("Each pod has 2 CPU cores and 4 GiB of memory.", []),
        # Swapped between the two attributes: both values change.
        ("内存配额为 2 GiB，CPU 配额 4 核。", ["number_mismatch", "number_mismatch"]),
    ],
)
def test_binary_sizes_and_cpu_cores_are_quantities_of_their_own(answer: str, codes: list[str]) -> None:
    evidence = "order-svc 资源配置：生产环境每个 Pod 的 CPU 配额为 2 核，内存配额为 4 GiB。"
    assert [i.code for i in check_claim(answer, evidence, evidence)] == codes


@pytest.mark.parametrize(
    ("answer", "codes"),
    [
        ("It opened in 2023 with 45 staff.", []),
        ("It opened in 2021 with 45 staff.", ["date_mismatch"]),
        ("It opened in mid-2023 with forty-six staff.", ["number_mismatch"]),
    ],
)
def test_hyphenated_number_words_and_rough_years_are_figures_not_names(answer: str, codes: list[str]) -> None:
    evidence = "The plant opened in mid-2023 with forty-five staff."
    assert [i.code for i in check_claim(answer, evidence, evidence)] == codes


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("周二到周日 10 点到 17 点开放", ["10:00", "17:00"]),
        ("17 点闭馆", ["17:00"]),
        # An hour that could be morning or evening stays a number; so do points.
        ("8 点上班", []),
        ("共 17 点积分", []),
    ],
)
def test_a_bare_chinese_hour_is_a_clock_time_only_when_it_cannot_be_morning(
    text: str, times: list[str]
) -> None:
    assert [m.value for m in extract(text) if m.kind == "time"] == times


def test_a_bare_chinese_hour_range_matches_the_24_hour_clock_in_english_evidence() -> None:
    evidence = "Open Tuesday to Sunday, 10:00–17:00."
    assert check_claim("周二到周日 10 点到 17 点开放。", evidence, evidence) == []
    assert [i.code for i in check_claim("周二到周日 10 点到 18 点开放。", evidence, evidence)] == [
        "date_mismatch"
    ]


# (evidence, a true paraphrase whose figure is written another way or worked out from the evidence,
# the question: its figures are given, not invented)
_FIGURE_PARAPHRASES = [
    (
        "单笔 2000 元至 10000 元的报销由直属上级和部门负责人审批；超过 10000 元需财务总监审批。",
        "8 千元落在 2 千元到 1 万元之间，只需要直属上级和部门负责人审批，不用到财务总监那一级。",
        "报销一笔 8000 元的费用需要谁审批？",
    ),
    (
        "A 2022 survey counted about 4,500 adult birds on the island, compared with roughly 7,000 in 2008.",
        "The survey counted about 4,500 adult birds in 2022, compared with roughly 7,000 in 2008, "
        "so around 2,500 fewer birds.",
        None,
    ),
    ("本场比赛现场观众 3.2 万人。", "比赛现场有三万两千名观众。", None),
    ("园区开放时间 7:30–18:30。", "园区早上 7:30 开门，晚上 6:30 关门。", None),
    (
        "The company raised $2,300,000 in its seed round.",
        "The company raised $2.3 million in its seed round.",
        None,
    ),
    # a rate times the count the claim gives; the official hour; a Chinese decimal
    ("出差伙食补助按每天 100 元定额发放，无需提供发票。", "伙食补助每天一百元，三天一共三百元。", None),
    (
        "滨江市气象台于 9 月 14 日 16 时将台风预警由黄色升级为橙色。",
        "气象台在 9 月 14 日下午四点把预警升到了橙色。",
        None,
    ),
    (
        "6 号线一期线路全长 24.6 公里，共设车站 19 座。",
        "6 号线一期线路长二十四点六公里，共设十九座车站。",
        None,
    ),
    # the time elapsed between two clock times: one of them in the claim, or two next to each other
    # in the timeline when the claim says "later"
    (
        "At 16:42 UTC the cluster began returning stale results. The on-call engineer detected it at "
        "17:05. The alias was corrected at 17:18.",
        "The cluster began returning stale results at 16:42 UTC. The alias was corrected at 17:18, "
        "36 minutes later.",
        None,
    ),
    (
        "02:14:07 WARN disk-monitor host=db-07 usage=91%\n02:29:11 ERROR disk-monitor host=db-07 usage=97%",
        "db-07 的磁盘使用率先到了 91%，大约一刻钟后涨到 97%。",
        None,
    ),
    (
        "03:14:52 熔断器打开\n03:29:40 熔断器进入半开状态\n03:31:02 熔断器恢复关闭",
        "熔断器 03:31:02 恢复关闭，从打开到关闭大约 16 分钟。",
        None,
    ),
]

# (evidence, a claim whose figure is worked out right, the same claim worked out wrong, the right
# figure, the wrong figure): the right figure raises no issue, the wrong one does.
_WORKED_FROM_DATES_AND_TOTALS = [
    # the end of a term of months the claim states (or that day less one)
    (
        "Lease: 12 months from 1 October 2025; either party may end it after month 6.",
        "The twelve-month term started on 1 October 2025, so the sixth month runs to 31 March 2026.",
        "The twelve-month term started on 1 October 2025, so the sixth month runs to 30 April 2026.",
        "31 March 2026",
        "30 April 2026",
    ),
    (
        "Priya joined on 13 February 2023. Probation: 6 months.",
        "Her probation ran for six months until 13 August 2023.",
        "Her probation ran for six months until 13 September 2023.",
        "13 August 2023",
        "13 September 2023",
    ),
    # days or nights between two dates the claim states
    (
        "订单CR-88170：取车 2025-08-14 10:30，还车 2025-08-18 10:30，日租金 54 美元。",
        "8月14日取车，8月18日还车，一共4天。",
        "8月14日取车，8月18日还车，一共6天。",
        "4天",
        "6天",
    ),
    (
        "黄山栖云山居 双床房 入住 2025-05-02 离店 2025-05-04 每晚 688 元",
        "5月2日到4日在黄山栖云山居住两晚双床房，每晚688元。",
        "5月2日到4日在黄山栖云山居住三晚双床房，每晚688元。",
        "两晚",
        "三晚",
    ),
    # a remainder of two of the context's figures; a running total of the claim's own figures
    (
        "到车 托盘=40 温区=常温\n抽检8托 发现2托外包装破损\n2托隔离待货主确认",
        "剩下的38托还没有上架记录。",
        "剩下的36托还没有上架记录。",
        "38",
        "36",
    ),
    (
        "Energy: 612 kWh at $0.21 per kWh. Standing charge for the period: $13.95.",
        "The energy comes to $128.52; with the $13.95 standing charge, that brings the bill to $142.47.",
        "The energy comes to $128.52; with the $13.95 standing charge, that brings the bill to $152.47.",
        "$142.47",
        "$152.47",
    ),
    # a multiple is the percent a hundred times it; a bound on the ratio of two of the claim's figures
    (
        "工作日加班按小时工资的 150% 计发；无法调休的按 200% 计发。",
        "工作日加班按小时工资的 1.5 倍算，调不开才按 2 倍付钱。",
        "工作日加班按小时工资的 1.5 倍算，调不开才按 2.5 倍付钱。",
        "2 倍",
        "2.5 倍",
    ),
    (
        "canary 5xx rate 1.9% vs baseline 0.3%",
        "The canary's 5xx rate reached 1.9%, more than six times the 0.3% baseline.",
        "The canary's 5xx rate reached 1.9%, more than eight times the 0.3% baseline.",
        "six times",
        "eight times",
    ),
    # a bound a table's bare figure bears out
    (
        "区域 | 订单量 | 准时送达率\n华东 | 18,200 | 96.1%\n华北 | 9,880 | 97.3%",
        "华北单量最少，不到一万单，准时率 97.3%。",
        "华北单量最少，不到五千单，准时率 97.3%。",
        "一万单",
        "五千单",
    ),
    # a share of an amount, exact without a hedge; a percent that is a ratio of two figures
    (
        "超时每超 1 小时，按当月服务费的 1% 支付违约金，累计不超过 15%。月服务费 48,000 元。",
        "违约金累计最多是月服务费的15%，即7,200元。",
        "违约金累计最多是月服务费的15%，即7,600元。",
        "7,200元",
        "7,600元",
    ),
    (
        "Dunmore Ranch allocation 1,350 AF, used 1,180 AF.",
        "Dunmore has used 1,180 of 1,350 AF, about 87% of its water.",
        "Dunmore has used 1,180 of 1,350 AF, about 78% of its water.",
        "87%",
        "78%",
    ),
    # days after a date of the context; a gap said after the figure
    (
        "Loss date: 19 January 2025. Excess £350. Settlement £7,490 paid 11 February 2025.",
        "£7,490 was paid on 11 February 2025, 23 days after the loss.",
        "£7,490 was paid on 11 February 2025, 25 days after the loss.",
        "23 days",
        "25 days",
    ),
    (
        "HX-220 drill: counted 405, system 412. Tolerance 2%.",
        "The HX-220 drill was seven units short (405 vs 412).",
        "The HX-220 drill was nine units short (405 vs 412).",
        "seven",
        "nine",
    ),
    # a whole percent that is the exact ratio of two of the claim's figures; a margin after 净胜
    (
        "澄川科技 2024 年第二季度营收 12.6 亿元，去年同期 10.5 亿元。",
        "营收 12.6 亿元，比去年同期的 10.5 亿元多了 2.1 亿元，同比增长两成。",
        "营收 12.6 亿元，比去年同期的 10.5 亿元多了 2.1 亿元，同比增长三成。",
        "两成",
        "三成",
    ),
    (
        "第 12 轮 港湾鲸鲨 98:91 北岭雪狼（主场）",
        "第 12 轮港湾鲸鲨在主场以 98 比 91 赢了北岭雪狼，净胜 7 分。",
        "第 12 轮港湾鲸鲨在主场以 98 比 91 赢了北岭雪狼，净胜 9 分。",
        "7",
        "9",
    ),
    # a price per thousand times a quantity; a duration written as a clock reading; a dose per
    # time times the times a day, with the total said after it
    (
        "超额计费: 每千次 0.8 元（需在控制台开通“按量付费”）",
        "超出部分按每千次 0.8 元计费，比如多调用 5 万次就是 40 元。",
        "超出部分按每千次 0.8 元计费，比如多调用 5 万次就是 400 元。",
        "40 元",
        "400 元",
    ),
    (
        "2025-09-03 16:27:10 stage build-android: passed (11:05)",
        "The Android build passed in 11 minutes 5 seconds.",
        "The Android build passed in 12 minutes 5 seconds.",
        "11 minutes 5 seconds",
        "12 minutes 5 seconds",
    ),
    (
        "the support act, Cassie Dunmore, starts at 19:45 and The Lanterns at 20:45.",
        "Cassie Dunmore opens at 7:45 and The Lanterns come on at 8:45.",
        "Cassie Dunmore opens at 7:15 and The Lanterns come on at 8:45.",
        "7:45",
        "7:15",
    ),
    # a cap per night times the nights; a share of a count; a hedged multiple; a hedged average
    (
        "二类城市（成都、武汉）P6–P7 每晚 580 元。",
        "成都属于二类城市，P6–P7 的住宿上限是每晚 580 元，住 3 晚最多可以报 1740 元。",
        "成都属于二类城市，P6–P7 的住宿上限是每晚 580 元，住 3 晚最多可以报 1940 元。",
        "1740 元",
        "1940 元",
    ),
    (
        "Alert DBConnectionsHigh: active connections above 80% of max_connections (500) for 5 minutes.",
        "The alert fires when active connections stay above 80% of max_connections, which is 400 of the 500.",
        "The alert fires when active connections stay above 80% of max_connections, which is 420 of the 500.",
        "400",
        "420",
    ),
    (
        "sms.outbound ready: 10:00 1,200; 10:15 18,600; 10:30 42,300",
        "The backlog went from 1,200 ready messages at 10:00 to 42,300 at 10:30, about 35 times as many.",
        "The backlog went from 1,200 ready messages at 10:00 to 42,300 at 10:30, about 45 times as many.",
        "35 times",
        "45 times",
    ),
    (
        "可用空间 08:00 412 GiB；16:00 330 GiB",
        "8 小时少了 82 GiB，平均每小时大约 10 GiB。",
        "8 小时少了 82 GiB，平均每小时大约 14 GiB。",
        "10 GiB",
        "14 GiB",
    ),
    # a monthly rent times the months the claim states, said as a total after `共`
    (
        "月租金6,800元，按季度支付，每季度首月5日前支付。",
        "租金按季度交，一次付三个月，共20,400元。",
        "租金按季度交，一次付三个月，共24,000元。",
        "20,400元",
        "24,000元",
    ),
]


@pytest.mark.parametrize(("evidence", "right", "wrong", "figure", "changed"), _WORKED_FROM_DATES_AND_TOTALS)
def test_a_figure_worked_out_from_dates_or_totals_is_borne_out_only_when_it_is_right(
    evidence: str, right: str, wrong: str, figure: str, changed: str
) -> None:
    assert figure not in {i.claim_mention for i in check_claim(right, evidence, evidence)}
    assert changed in {i.claim_mention for i in check_claim(wrong, evidence, evidence)}


def test_a_clause_that_opens_on_its_negation_keeps_the_previous_clause_subject() -> None:
    evidence = "休息日加班优先安排调休，无法调休的按 200% 支付；法定节假日加班按 300% 支付，不安排调休。"
    assert _contradictions("法定节假日加班可以选择调休，也可以拿三倍工资。", evidence) == {"negation_flip"}
    assert _contradictions("休息日加班优先安排调休。", evidence) == set()


def test_a_total_of_the_answers_earlier_figures_is_worked_out_but_a_wrong_one_is_not() -> None:
    evidence = "子女教育每个子女每月 2000 元；赡养老人（独生子女）每月 3000 元。"
    earlier = "两个孩子就是每月 4000 元，全年 48000 元；\n独生子女赡养老人每月 3000 元，全年 36000 元。"
    right = check_claim("两项加起来每年可扣 84000 元。", evidence, evidence, earlier=earlier)
    wrong = check_claim("两项加起来每年可扣 86000 元。", evidence, evidence, earlier=earlier)
    assert "84000 元" not in {i.claim_mention for i in right}
    assert "86000 元" in {i.claim_mention for i in wrong}
    # the earlier sentences lend operands, never a figure to state as found
    assert "48000 元" in {
        i.claim_mention for i in check_claim("全年 48000 元。", evidence, evidence, earlier=earlier)
    }


def test_a_table_figure_is_not_read_against_a_column_named_by_its_unit_or_a_date() -> None:
    table = (
        "| Farm | Crop | Acres | Allocation (AF) | Used to 20 June (AF) |\n|---|---|---|---|---|\n"
        "| Harlow Orchards | Almonds | 320 | 960 | 610 |\n| Dunmore Ranch | Alfalfa | 540 | 1,350 | 1,180 |"
    )
    answer = (
        "Dunmore Ranch was allocated 1,350 acre-feet and had used 1,180 by 20 June, leaving 170 acre-feet."
    )
    result = check(context=table, answer=answer)
    assert result.verdict is not Verdict.REJECT
    assert not any(code.startswith("record:") for c in result.claims for code in c.reason_codes)


@pytest.mark.parametrize(("evidence", "answer", "question"), _FIGURE_PARAPHRASES)
def test_a_paraphrase_that_rewrites_or_works_out_a_figure_passes(
    evidence: str, answer: str, question: str | None
) -> None:
    assert check(context=evidence, answer=answer, question=question).verdict is Verdict.PASS


# The same paraphrases with the figure changed: never passed.
_FIGURE_PARAPHRASES_CHANGED = [
    (
        "A 2022 survey counted about 4,500 adult birds on the island, compared with roughly 7,000 in 2008.",
        "The survey counted about 4,500 adult birds in 2022, compared with roughly 7,000 in 2008, "
        "so around 3,100 fewer birds.",
    ),
    ("本场比赛现场观众 3.2 万人。", "比赛现场有两万三千名观众。"),
    ("园区开放时间 7:30–18:30。", "园区早上 7:30 开门，晚上 8:30 关门。"),
    (
        "The company raised $2,300,000 in its seed round.",
        "The company raised $3.2 million in its seed round.",
    ),
    ("出差伙食补助按每天 100 元定额发放，无需提供发票。", "伙食补助每天一百元，三天一共四百元。"),
    (
        "滨江市气象台于 9 月 14 日 16 时将台风预警由黄色升级为橙色。",
        "气象台在 9 月 14 日下午五点把预警升到了橙色。",
    ),
    ("6 号线一期线路全长 24.6 公里，共设车站 19 座。", "6 号线一期线路长二十六点四公里，共设十九座车站。"),
    (
        "At 16:42 UTC the cluster began returning stale results. The on-call engineer detected it at "
        "17:05. The alias was corrected at 17:18.",
        "The cluster began returning stale results at 16:42 UTC. The alias was corrected at 17:18, "
        "46 minutes later.",
    ),
    (
        "02:14:07 WARN disk-monitor host=db-07 usage=91%\n02:29:11 ERROR disk-monitor host=db-07 usage=97%",
        "db-07 的磁盘使用率先到了 91%，大约半小时后涨到 97%。",
    ),
    (
        "03:14:52 熔断器打开\n03:29:40 熔断器进入半开状态\n03:31:02 熔断器恢复关闭",
        "熔断器 03:31:02 恢复关闭，从打开到关闭大约 26 分钟。",
    ),
]


@pytest.mark.parametrize(("evidence", "answer"), _FIGURE_PARAPHRASES_CHANGED)
def test_a_paraphrase_with_a_changed_figure_is_flagged(evidence: str, answer: str) -> None:
    assert check(context=evidence, answer=answer).verdict is not Verdict.PASS


def test_a_bare_hour_that_opens_a_span_ending_in_the_afternoon_is_a_clock_time() -> None:
    found = [(m.kind, m.value) for m in extract("冬半年 8 点到 17:30 开放")]
    assert found == [("time", "08:00"), ("time", "17:30")]  # and `冬半年` is a season, not six months


_PURIFIER = (
    "产品参数｜清风 Q7 空气净化器：CADR（颗粒物）420 m³/h，CADR（甲醛）180 m³/h，适用面积 29–50 ㎡，"
    "噪音 32–61 dB，滤网寿命约 6 个月。"
)
_LAPTOP = (
    "Kestrel 14 Lite: 14-inch IPS, 16 GB RAM (one SO-DIMM slot, upgradeable to 48 GB), 512 GB SSD, 1.35 kg."
)


@pytest.mark.parametrize(
    ("evidence", "answer", "passes"),
    [
        (_PURIFIER, "Q7 的甲醛 CADR 为 180 m³/h。", True),
        # The figure of the next item in the list (the particles' CADR), given to formaldehyde.
        (_PURIFIER, "Q7 的甲醛 CADR 为 420 m³/h。", False),
        (_PURIFIER, "Q7 颗粒物 CADR 是 420 立方米每小时，适合 29 到 50 平米的房间。", True),
        # A parenthesis is a note on its item, not an item of its own.
        (_LAPTOP, "Only the Lite has a slot you can upgrade (to 48 GB).", True),
    ],
)
def test_a_spec_list_figure_belongs_to_the_item_that_names_it(
    evidence: str, answer: str, passes: bool
) -> None:
    assert (check(context=evidence, answer=answer).verdict is Verdict.PASS) is passes


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            "噪音 32 dB，风量 420 m³/h，面积 30 平米",
            [("measure", "dB"), ("measure", "m3/h"), ("measure", "m2")],
        ),
        ("3 db servers and 2 DB nodes", [("number", None), ("number", None)]),
    ],
)
def test_spec_sheet_units_are_read_and_a_database_is_not_a_decibel(
    text: str, kinds: list[tuple[str, str | None]]
) -> None:
    assert [(m.kind, m.unit) for m in extract(text)] == kinds


_CERTS = (
    "TLS 证书巡检规则：证书到期前 30 天自动生成提醒工单，到期前 7 天升级为 P2 告警。"
    "当前证书 api.example-shop.cn 到期日为 2025-02-01。"
)
_CERTS_EN = (
    "The certificate of api.example.com expires on 2025-02-01. A reminder ticket is opened 30 days "
    "before expiry."
)


@pytest.mark.parametrize(
    ("evidence", "answer", "passes"),
    [
        (_CERTS, "到期前 30 天，也就是 2025 年 1 月 2 日会自动生成提醒工单。", True),
        (_CERTS, "到期前一周，也就是 1 月 25 日起会升级成 P2 告警。", True),
        (_CERTS_EN, "The reminder ticket is opened 30 days before, on 2025-01-02.", True),
        # The date worked out wrong, or with a shift the evidence does not state.
        (_CERTS, "到期前 30 天，也就是 2025 年 1 月 5 日会自动生成提醒工单。", False),
        (_CERTS, "到期前 20 天，也就是 2025 年 1 月 12 日会自动生成提醒工单。", False),
        (_CERTS_EN, "The reminder ticket is opened 30 days before, on 2025-01-09.", False),
    ],
)
def test_a_date_worked_out_from_a_stated_shift_passes_and_a_wrong_one_does_not(
    evidence: str, answer: str, passes: bool
) -> None:
    result = check(context=evidence, answer=answer)
    assert (result.verdict is Verdict.PASS) is passes, [c.reason_codes for c in result.claims]


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("The parks are free April 18-19.", ["--04-18", "--04-19"]),
        ("Held on March 3 to 5, 2024.", ["--03-03", "2024-03-05"]),
        ("The 18-19 April meeting.", ["--04-18", "--04-19"]),
        ("April 18 to 2,000 people", ["--04-18"]),  # a count, not a day
    ],
)
def test_a_day_range_after_or_before_a_month_is_two_dates(text: str, dates: list[str]) -> None:
    assert [m.value for m in extract(text) if m.kind == "date"] == dates


def test_a_rounded_trillion_is_a_rounding_and_a_changed_one_a_contradiction() -> None:
    evidence = "2023 年我国粮食总产量达到 13908 亿斤，比上年增长 1.3%。"
    rounded = check(context=evidence, answer="2023 年全国粮食总产量为 1.39 万亿斤。")
    assert rounded.verdict is not Verdict.REJECT
    assert "number_rounded" in {c.split(":")[-1] for claim in rounded.claims for c in claim.reason_codes}
    assert check(context=evidence, answer="2023 年全国粮食总产量为 1.59 万亿斤。").verdict is Verdict.REJECT


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("cut 10,000 jobs by the end of June", ["--06"]),
        ("cut 10,000 jobs by the end of March", ["--03"]),
        ("June Carter sang 3 songs", []),  # a name, not the month
        ("March Madness has 68 teams", []),
    ],
)
def test_a_bare_month_is_a_date_unless_it_starts_a_name(text: str, dates: list[str]) -> None:
    assert [m.value for m in extract(text) if m.kind == "date"] == dates


_METRO = (
    "地铁5号线南延段将于12月28日开通试运营。南延段全长11.3公里，共设车站8座，其中换乘站2座，"
    "分别与3号线和7号线换乘。开通后，沿线居民前往市中心的通勤时间将缩短约20分钟。"
)


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("地铁5号线南延段12月28日开通，全长11.3公里，设8座车站，其中2座为换乘站，可换乘3号线和7号线。", True),
        # `3座` is not the `3` of `3号线` (a numbered name).
        ("地铁5号线南延段12月28日开通，全长11.3公里，设8座车站，其中3座为换乘站。", False),
        # A clause of its own after `，这也是`.
        ("开通后，沿线居民前往市中心的通勤时间将缩短约20分钟，这也是该市今年开通的第三条地铁线路。", False),
    ],
)
def test_counts_by_classifier_numbered_names_and_an_added_clause_in_a_news_summary(
    answer: str, passes: bool
) -> None:
    result = check(context=_METRO, answer=answer)
    assert (result.verdict is Verdict.PASS) is passes, [c.reason_codes for c in result.claims]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("与3号线和7号线换乘", []),
        ("5号楼3层", [("count", 3.0)]),
        ("3辆车、5所学校、2首歌", [("count", 3.0), ("count", 5.0), ("count", 2.0)]),
    ],
)
def test_a_numbered_name_is_no_quantity_and_common_classifiers_make_counts(
    text: str, found: list[tuple[str, float]]
) -> None:
    assert [(m.kind, m.value) for m in extract(text) if m.kind in {"count", "number"}] == found


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        ("a 2022 voter-approved bond", []),
        ("the state-funded, cloud-based program", []),
        ("payment-gateway returned 504 and order-service retried", ["payment-gateway", "order-service"]),
    ],
)
def test_a_compound_adjective_is_prose_and_a_service_name_is_an_identifier(
    text: str, identifiers: list[str]
) -> None:
    assert [m.text for m in extract(text) if m.kind == "identifier"] == identifiers


@pytest.mark.parametrize(
    ("text", "times"),
    [
        # the end of a range is in the daypart its start names, unless it runs past midnight
        ("每晚 6 点到 11 点亮灯", ["18:00", "23:00"]),
        ("晚上 11 点到 1 点", ["23:00", "01:00"]),
        ("上午 8 点到 12 点", ["08:00", "12:00"]),
    ],
)
def test_a_chinese_hour_range_keeps_the_daypart_of_its_start(text: str, times: list[str]) -> None:
    assert [m.value for m in extract(text) if m.kind == "time"] == times


@pytest.mark.parametrize(
    ("evidence", "claim", "codes"),
    [
        # the claim's own two clock times, and the time between them
        ("INC-2291 从 14:12 开始，14:58 止损。", "从 14:12 开始到 14:58 止损，一共用了四十六分钟。", []),
        (
            "INC-2291 从 14:12 开始，14:58 止损。",
            "从 14:12 开始到 14:58 止损，一共用了五十六分钟。",
            ["number_not_in_evidence"],
        ),
        # the evidence's two clock times
        ('{"start": "2024-03-05T14:12Z", "detected": "2024-03-05T14:19Z"}', "发现问题花了七分钟。", []),
        (
            '{"start": "2024-03-05T14:12Z", "detected": "2024-03-05T14:19Z"}',
            "发现问题花了九分钟。",
            ["number_not_in_evidence"],
        ),
    ],
)
def test_a_duration_between_two_clock_times_is_worked_out_not_invented(
    evidence: str, claim: str, codes: list[str]
) -> None:
    found = [i.code for i in check_claim(claim, evidence, evidence) if i.code.startswith("number")]
    assert found == codes


@pytest.mark.parametrize(
    ("evidence", "claim", "flagged"),
    [
        # a cap the evidence states, restated as another cap: changed, not "at most 100 is met by 50"
        (
            "接口限流为每个商户每秒 50 次，超限返回 HTTP 429。",
            "限流是按商户算的，每秒最多 100 次请求。",
            True,
        ),
        (
            "The API is rate limited to 50 requests per second per merchant.",
            "You can send at most 100 requests a second.",
            True,
        ),
        # a measured value still bears out a bound near it
        ("隧道净高 6.8 米。", "隧道净高不到 7 米。", False),
        # a total of three of the claim's own figures, even after "add up to" (read as a bound)
        (
            "Breakfast up to $15, lunch up to $20 and dinner up to $35, subject to a daily cap of $65.",
            "The limits are $15 for breakfast, $20 for lunch and $35 for dinner; those add up to $70.",
            False,
        ),
        (
            "Breakfast up to $15, lunch up to $20 and dinner up to $35, subject to a daily cap of $65.",
            "The limits are $15 for breakfast, $20 for lunch and $35 for dinner; those add up to $75.",
            True,
        ),
    ],
)
def test_a_cap_restated_with_another_figure_is_changed_and_a_total_of_the_claims_figures_is_worked_out(
    evidence: str, claim: str, flagged: bool
) -> None:
    codes = [i.code for i in check_claim(claim, evidence, evidence) if i.code.startswith("number")]
    assert bool(codes) is flagged, codes


_PLANS = '[{"plan": "basic", "price_cny": 39, "seats": 5}, {"plan": "team", "price_cny": 129, "seats": 20}]'


@pytest.mark.parametrize(
    ("evidence", "claim", "flagged"),
    [
        # a difference said as one ("贵 90 元", "fell by four points, from 32% to 28%") is worked out …
        (_PLANS, "团队版每月 129 元，比基础版的 39 元贵 90 元。", False),
        (_PLANS, "团队版每月 129 元，比基础版的 39 元贵 80 元。", True),
        ("Gross margin was 32% a year ago and is 28% now.", "Gross margin fell by four percentage points, from 32% to 28%.", False),
        ("Gross margin was 32% a year ago and is 28% now.", "Gross margin fell by six percentage points, from 32% to 28%.", True),
        # … so is a multiple of two of the claim's figures said as one …
        (_PLANS, "座席数从五个增加到二十个，是基础版的四倍。", False),
        (_PLANS, "座席数从五个增加到二十个，是基础版的三倍。", True),
        # … and twelve months of a monthly price
        ("Pro: $24 per month, 50 projects.", "Pro costs $24 a month — $288 over a year.", False),
        ("Pro: $24 per month, 50 projects.", "Pro costs $24 a month — $298 over a year.", True),
    ],
)  # fmt: skip
def test_a_difference_a_multiple_or_a_year_of_the_claims_own_figures_is_worked_out(
    evidence: str, claim: str, flagged: bool
) -> None:
    codes = [i.code for i in check_claim(claim, evidence, evidence) if i.code.startswith("number")]
    assert bool(codes) is flagged, codes


@pytest.mark.parametrize(
    ("claim", "flagged"),
    [
        # a window past midnight lasts the rest of the evening plus the morning
        ("The change is booked into a four-hour window that opens at 22:00 UTC.", False),
        ("The change is booked into a six-hour window that opens at 22:00 UTC.", True),
    ],
)
def test_a_span_past_midnight_is_worked_out_across_it(claim: str, flagged: bool) -> None:
    evidence = (
        "Window: 2024-10-05 22:00 – 2024-10-06 02:00 UTC\nExpected impact: up to 4 minutes of packet loss"
    )
    codes = [
        i.code
        for i in check_claim(claim, evidence, evidence)
        if i.code.endswith("mismatch") or i.code == "number_not_in_evidence"
    ]
    assert bool(codes) is flagged, codes


@pytest.mark.parametrize(
    ("evidence", "claim", "flagged"),
    [
        # how far a rate is past the whole: 完成率 105.0% is 5% over target
        ("华北 | 1,050 | 1,000 | 105.0% | -2%", "华北比目标多出 5%。", False),
        ("华北 | 1,050 | 1,000 | 105.0% | -2%", "华北比目标多出 8%。", True),
        # twelve months of a monthly figure, said "every month … over a full year"
        (
            "Full-time employees accrue 1.5 days of paid time off per month.",
            "You earn a day and a half of PTO every month, which comes to 18 days over a full year.",
            False,
        ),
        (
            "Full-time employees accrue 1.5 days of paid time off per month.",
            "You earn a day and a half of PTO every month, which comes to 20 days over a full year.",
            True,
        ),
    ],
)
def test_a_rate_past_its_target_and_a_year_of_a_monthly_figure_are_worked_out(
    evidence: str, claim: str, flagged: bool
) -> None:
    codes = [i.code for i in check_claim(claim, evidence, evidence) if i.code.startswith("number")]
    assert bool(codes) is flagged, codes


_SAMPLES = "p99（秒）\n14:00 0.42\n14:04 1.38\n14:06 1.91\n14:08 1.12\n14:10 0.47"


@pytest.mark.parametrize(
    ("evidence", "claim", "flagged"),
    [
        # a count of the items the claim lists right before it …
        (_SAMPLES, "14:04、14:06、14:08 这三个采样点的 p99 都超过 1 秒。", False),
        (_SAMPLES, "14:04、14:06 这三个采样点的 p99 都超过 1 秒。", True),
        ("Spanish I has 5 seats left. Photography has 6 seats left.", "Spanish I and Photography, the two courses, have seats.", False),
        # … or right after it and a colon
        ("Spanish I has 5 seats left. Photography has 6 seats left.", "Two courses still have seats: Spanish I has 5, and Photography has 6.", False),
        ("Spanish I has 5 seats left. Photography has 6 seats left.", "Three courses still have seats: Spanish I has 5, and Photography has 6.", True),
        # but not when the evidence counts the same things otherwise: an item was added
        ("传统工艺只有萎凋和干燥两道工序。", "传统工艺包括萎凋、轻揉和干燥三道工序。", True),
    ],
)  # fmt: skip
def test_a_count_of_the_items_the_claim_lists_is_worked_out_from_the_claim(
    evidence: str, claim: str, flagged: bool
) -> None:
    codes = [i.code for i in check_claim(claim, evidence, evidence) if i.code.startswith("number")]
    assert bool(codes) is flagged, codes


@pytest.mark.parametrize(
    ("evidence", "claim", "flagged"),
    [
        # a figure converted for the reader, to within rounding, is the same figure …
        ("Each day includes 150 miles.", "每天含 150 英里（约 240 公里）。", False),
        ("Floor area: 74 m2.", "It offers 74 square metres, which is roughly 797 square feet.", False),
        ("Energy: 190 kcal per bar.", "One bar provides 190 calories, roughly 795 kilojoules.", False),
        # … a wrong conversion is not
        ("Floor area: 74 m2.", "It offers 74 square metres, which is roughly 897 square feet.", True),
        # vulgar fractions and hyphenated measures are read as quantities
        ("About 23½ inches (60 centimeters) of ash fell.", "About 60 cm of ash fell.", False),
        ("The whale swam a 10,190-mile round trip.", "The whale swam more than 10,000 miles.", False),
        ("The whale swam a 10,190-mile round trip.", "The whale swam more than 12,000 miles.", True),
    ],
)  # fmt: skip
def test_a_measure_converted_to_another_unit_is_the_same_figure(
    evidence: str, claim: str, flagged: bool
) -> None:
    codes = [
        i.code
        for i in check_claim(claim, evidence, evidence)
        if i.code.endswith(("mismatch", "not_in_evidence"))
    ]
    assert bool(codes) is flagged, codes


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("It is rated for 40 to 65 miles of range.", Verdict.PASS), ("It is rated for 40 to 75 miles of range.", Verdict.REJECT)],
)  # fmt: skip
def test_a_record_range_takes_the_unit_its_key_ends_with(answer: str, verdict: Verdict) -> None:
    context = '{"model": "Voltra Commute 2", "battery_wh": 672, "range_miles": "40-65"}'
    assert check(context=context, answer=answer).verdict is verdict


_BOX_OFFICE = "三天票房 3.12 亿元，观影 680 万人次。众筹筹到 92,600 元，支持者 1,543 人。"


@pytest.mark.parametrize(
    ("claim", "flagged"),
    [
        # an average the claim names is the quotient of its own figures, at the precision written
        ("三天约有 680 万人次观影、票房 3.12 亿元，平均每张票 45.9 元。", False),
        ("三天约有 680 万人次观影、票房 3.12 亿元，平均每张票 49.9 元。", True),
        ("筹到 92,600 元，一共有 1,543 人支持，人均约 60 元。", False),
        ("筹到 92,600 元，一共有 1,543 人支持，人均约 70 元。", True),
    ],
)
def test_an_average_the_claim_names_is_the_quotient_of_its_figures(claim: str, flagged: bool) -> None:
    codes = [i.code for i in check_claim(claim, _BOX_OFFICE, _BOX_OFFICE) if i.code.startswith("number")]
    assert bool(codes) is flagged, codes


@pytest.mark.parametrize(
    ("claim", "flagged"),
    [
        ("It brings a litre of water to a boil in three and a half minutes.", False),
        ("It brings a gallon of water to a boil in three and a half minutes.", True),
    ],
)
def test_an_article_before_a_measure_unit_is_one_of_it(claim: str, flagged: bool) -> None:
    evidence = "The stove boils 1 litre of water in 3.5 minutes."
    assert bool(_contradictions(claim, evidence)) is flagged


@pytest.mark.parametrize(
    ("claim", "flagged"),
    [
        # a product of two figures the claim states, each shown by the evidence, is worked out …
        ("每个账号一年 480 元，最少买 50 个，所以起步价是每年 24,000 元。", False),
        ("每个账号一年 480 元，最少买 50 个，所以起步价是每年 24,500 元。", True),
        # … but a changed rate does not vouch for a total kept consistent with it
        ("伙食补助每天八十元，三天一共二百四十元。", True),
    ],
)
def test_a_product_of_the_claims_own_shown_figures_is_worked_out(claim: str, flagged: bool) -> None:
    evidence = "价格按账号计费：每账号每年 480 元，起购 50 个账号。出差伙食补助每天 100 元。"
    assert bool(_contradictions(claim, evidence)) is flagged

"""Assembles tests/data/check_dev.jsonl: the 296 hand-written v1 items plus the hand-written v2 items below.

    python benchmarks/build_check_dev.py [--check]

Every v2 answer below was written by hand for this project (see tests/data/README.md for the
provenance rules); this script only numbers them, adds `kind`, `source` and a deterministic
`split`, and writes the file. It is re-runnable: v1 lines (`source: hand-v1`) are read back from
the file and kept as they are, v2 lines are rebuilt from the lists here. `--check` fails when the
file on disk differs from what the script would write.

Split: within each `kind`, the unit is one context (all answers over one context go to the same
split, so a tuned rule cannot memorise a context and be scored on it); units are ordered by a hash
and each goes to the split that has fewer items of that kind so far, which keeps every kind about
50/50.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "check_dev.jsonl"

#: (kind, label, hallucination_type, answer, note[, question])
Item = tuple[str, ...] | tuple[str, str, str | None, str, str] | tuple[str, str, str | None, str, str, str]
#: (domain, default question, context passages, items)
Scenario = tuple[str, str, list[str], list[Item]]

# fmt: off
# Chinese scenarios: (domain, default question, context passages, items).
# An item is (kind, label, hallucination_type, answer, note[, question]).
ZH: list[Scenario] = [
    ("hr", "年假怎么申请？", [
        "年休假制度：员工累计工作满1年不满10年的，年休假5天；满10年不满20年的，年休假10天；满20年的，年休假15天。年休假可分段使用，每次至少半天。当年未休完的年休假可顺延至次年3月31日，逾期作废。申请年休假需至少提前三个工作日在 OA 提交，由直属主管审批；连续休假超过5天的还需部门负责人审批。",
        "病假：员工凭二级以上医院病历可申请病假，每年前5天病假工资照发，超过部分按基本工资的80%发放。",
    ], [
        ("paraphrase", "supported", None, "年假要提前 3 个工作日在 OA 上提申请，直属主管批了就行；如果一次连着休超过 5 天，还得部门负责人审批。", ""),
        ("paraphrase", "supported", None, "没休完的年假能留到第二年 3 月底前用，过了就作废。", "", "今年的年假没休完怎么办？"),
        ("paraphrase", "hallucinated", "changed_number", "工龄满 10 年不满 20 年的同事每年有 15 天年休假，可以分几次休。", "满10年不满20年是10天，15天是满20年的", "工作12年有几天年假？"),
        ("clause_addition", "supported", None, "年休假可以拆开休，每次最少半天；申请要提前三个工作日走 OA。", ""),
        ("clause_addition", "hallucinated", "baseless_addition", "年假可以分段休，每次至少半天；当年没休完的部分公司会按日工资的 300% 折算成现金发放。", "context says unused leave rolls over to 3/31 then expires; no cash payout"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "连续休假超过 5 天的，不需要部门负责人审批，直属主管批准就可以。", "context requires department head approval above 5 days", "连休一周要谁批？"),
        ("changed_time", "hallucinated", "changed_date", "年假申请需提前三个工作日在 OA 提交。当年没休完的年休假可以顺延到次年 6 月 30 日，之后作废。", "context: 次年3月31日"),
        ("entity_swap", "hallucinated", "wrong_entity", "请年假要提前三个工作日在 OA 提交，由 HR 审批。", "approver is 直属主管, not HR"),
        ("entity_swap", "supported", None, "年休假申请的审批人是你的直属主管，超过 5 天再加一级部门负责人。", "", "年假谁来审批？"),
        ("issue_example", "supported", None, "年休假需至少提前 3 个工作日申请。", "issue 10 example: 年假/年休假, 三个工作日/3 个工作日", "年假要提前几天申请？"),
    ]),
    ("ops", "订单服务 CPU 告警怎么处理？", [
        "order-svc 资源配置：生产环境每个 Pod 的 CPU 配额为 2 核，内存配额为 4 GiB；HPA 在 CPU 使用率持续 3 分钟超过 70% 时扩容，最多扩到 40 个副本。CPU 使用率超过 90% 持续 10 分钟会触发 P2 告警，由订单组值班处理。",
        "库存服务 stock-svc：每个 Pod CPU 配额 1 核，内存 8 GiB，最多 20 个副本。",
    ], [
        ("paraphrase", "supported", None, "order-svc 的 CPU 使用率要是连续 10 分钟超过 90%，就会出一个 P2 告警，订单组值班来处理。", ""),
        ("entity_swap", "hallucinated", "wrong_entity", "order-svc 每个 Pod 的内存配额是 2 核……准确地说，内存配额为 2 GiB，CPU 配额 4 核。", "CPU 2 核 and memory 4 GiB swapped", "order-svc 的资源配额是多少？"),
        ("entity_swap", "hallucinated", "wrong_entity", "order-svc 的 HPA 是按内存使用率扩容的：内存持续 3 分钟超过 70% 就扩容，最多 40 个副本。", "HPA scales on CPU, not memory", "order-svc 什么时候扩容？"),
        ("entity_swap", "supported", None, "order-svc 的 HPA 看的是 CPU：CPU 使用率连续 3 分钟高于 70% 就扩容，上限 40 个副本。", "", "order-svc 什么时候扩容？"),
        ("clause_addition", "hallucinated", "unsupported_causal", "order-svc 的 CPU 超过 90% 持续 10 分钟会触发 P2 告警，根因通常是数据库主从延迟。", "issue 10 example: invented root cause"),
        ("clause_addition", "supported", None, "CPU 持续 10 分钟超过 90% 会触发 P2 告警，这个告警由订单组值班跟进。", ""),
        ("changed_time", "hallucinated", "changed_number", "order-svc 的 HPA 会在 CPU 使用率持续 5 分钟超过 70% 的时候扩容，最多扩到 40 个副本。", "3 分钟, not 5", "order-svc 什么时候扩容？"),
        ("record_to_text", "supported", None, "order-svc 单个 Pod 配 2 核 CPU、4 GiB 内存，HPA 最多扩到 40 个副本。", "", "order-svc 的资源配额是多少？"),
    ]),
    ("general", "这个订单现在是什么状态？", [
        '{"order_id": "SO-20240611-0087", "customer": "杭州青木文具有限公司", "status": "已发货", "items": [{"sku": "NB-A5-80", "name": "A5 笔记本", "qty": 200}, {"sku": "PEN-GEL-05", "name": "0.5mm 中性笔", "qty": 500}], "carrier": "顺丰", "tracking_no": "SF1357924680", "shipped_at": "2024-06-12 15:40", "total_cny": 3860.00, "paid": true}',
    ], [
        ("record_to_text", "supported", None, "订单 SO-20240611-0087 已经在 6 月 12 日下午 15:40 通过顺丰发出，运单号 SF1357924680，货款 3860 元已付。", ""),
        ("record_to_text", "supported", None, "这是杭州青木文具有限公司的订单，包含 200 本 A5 笔记本和 500 支 0.5mm 中性笔，已经发货。", "", "这个订单买了什么？"),
        ("record_to_text", "hallucinated", "changed_number", "订单包含 200 本 A5 笔记本和 50 支中性笔，总金额 3860 元。", "qty is 500, not 50", "这个订单买了什么？"),
        ("record_to_text", "hallucinated", "wrong_entity", "订单已通过中通快递发货，运单号 SF1357924680。", "carrier is 顺丰"),
        ("record_to_text", "hallucinated", "flipped_negation", "订单已经发货，但货款 3860 元还没有支付，需要尽快催款。", "paid: true"),
        ("record_to_text", "hallucinated", "baseless_addition", "订单已于 6 月 12 日发货，预计 6 月 14 日送达。", "no expected delivery date in the record"),
        ("changed_time", "hallucinated", "changed_date", "订单 SO-20240611-0087 于 2024 年 6 月 11 日下午 15:40 发货，承运商是顺丰。", "shipped_at is 06-12; 0611 is in the order id"),
    ]),
    ("general", "这家店几点营业？", [
        "商户信息\n名称: 老街口牛肉面（滨江店）\n地址: 杭州市滨江区江南大道 1088 号 1 层\n营业时间: 周一至周五 10:30-21:00；周六、周日 10:00-22:00\n人均: 38 元\n可停车: 是（商场地下停车场，消费满 50 元免 2 小时）\n外卖: 支持\n包间: 无\n评分: 4.6",
    ], [
        ("record_to_text", "supported", None, "老街口牛肉面滨江店工作日 10:30 开门、晚上 9 点关门，周末 10 点到 22 点营业。", ""),
        ("record_to_text", "supported", None, "人均 38 元左右，可以在商场地下车库停车，消费满 50 元能免 2 小时停车费。", "", "这家店贵吗？好停车吗？"),
        ("record_to_text", "hallucinated", "changed_number", "这家店周末营业到晚上 23:00，工作日是 10:30 到 21:00。", "weekend closes 22:00"),
        ("record_to_text", "hallucinated", "flipped_negation", "店里有包间，适合 8 到 10 人聚餐，也支持外卖。", "包间: 无", "能订包间吗？"),
        ("record_to_text", "hallucinated", "baseless_addition", "店铺支持外卖，另外每周三全场牛肉面打八折。", "no promotion in the record", "能点外卖吗？"),
        ("record_to_text", "supported", None, "支持外卖，不过没有包间。", "", "能点外卖吗？有包间吗？"),
        ("entity_swap", "hallucinated", "wrong_entity", "老街口牛肉面（滨江店）在杭州市西湖区江南大道 1088 号 1 层。", "district is 滨江区", "店在哪里？"),
        ("entity_swap", "supported", None, "店在杭州滨江区江南大道 1088 号的一楼。", "", "店在哪里？"),
    ]),
    ("ops", "昨天的接口指标怎么样？", [
        "api-gateway 日报（2024-05-20）\n请求总量: 1,284,000\n成功率: 99.62%\nP50 延迟: 42 ms\nP99 延迟: 880 ms\n5xx 错误: 3,912（主要来自 /v2/payments，占 71%）\n限流拒绝: 1,050\n峰值 QPS: 2,310（20:14）",
        "api-gateway 日报（2024-05-19）\n请求总量: 1,190,000\n成功率: 99.81%\nP99 延迟: 610 ms\n峰值 QPS: 2,020（21:03）",
    ], [
        ("record_to_text", "supported", None, "5 月 20 日网关一共处理了约 128 万次请求，成功率 99.62%，P99 延迟 880 毫秒，比前一天的 610 毫秒高。", ""),
        ("record_to_text", "supported", None, "20 号的 5xx 有 3912 个，七成多来自 /v2/payments；峰值 QPS 2310，出现在晚上 8 点 14 分。", ""),
        ("record_to_text", "hallucinated", "changed_number", "5 月 20 日网关成功率 99.81%，P99 延迟 880 ms。", "99.81% is 05-19's success rate"),
        ("record_to_text", "hallucinated", "wrong_entity", "5xx 错误主要来自 /v2/orders 接口，占了 71%。", "it is /v2/payments"),
        ("record_to_text", "hallucinated", "changed_date", "峰值 QPS 出现在 21:03，达到 2310。", "20:14 on 05-20; 21:03 is 05-19's peak time"),
        ("clause_addition", "hallucinated", "unsupported_causal", "5 月 20 日 P99 延迟升到 880 ms，原因是当天晚上支付渠道在做升级。", "no cause given"),
        ("clause_addition", "supported", None, "5 月 20 日 P99 延迟升到了 880 ms，同时 5xx 错误有 3912 个，多数来自 /v2/payments。", ""),
        ("summary", "supported", None, "总结：20 号流量比 19 号多（128.4 万 vs 119 万），成功率从 99.81% 降到 99.62%，P99 从 610 ms 升到 880 ms，峰值 QPS 也更高。", "", "和前一天比有什么变化？"),
        ("summary", "hallucinated", "changed_comparator", "总结：20 号请求量比 19 号少，但成功率和延迟都变差了。", "20 号 traffic is higher", "和前一天比有什么变化？"),
    ]),
    ("ops", "这条日志说明了什么？", [
        "2024-06-03T02:17:45.331Z ERROR [billing-worker-3] job=invoice-monthly tenant=t-4821 msg=\"PDF render failed: font NotoSansSC missing\" attempt=3/3 next_action=moved_to_dead_letter queue=billing-dlq",
        "2024-06-03T02:17:40.002Z INFO [billing-worker-1] job=invoice-monthly tenant=t-4820 msg=\"invoice sent\" duration_ms=812",
    ], [
        ("record_to_text", "supported", None, "billing-worker-3 给租户 t-4821 生成月度账单 PDF 时缺少 NotoSansSC 字体，三次都失败了，任务已被转到 billing-dlq 死信队列。", ""),
        ("record_to_text", "hallucinated", "flipped_negation", "租户 t-4821 的月度账单 PDF 渲染失败，系统还会继续自动重试。", "attempt=3/3, moved to dead letter: no more retries"),
        ("record_to_text", "hallucinated", "wrong_entity", "出错的是租户 t-4820 的月度账单任务，原因是缺少字体 NotoSansSC。", "t-4820 succeeded; failing tenant is t-4821"),
        ("record_to_text", "hallucinated", "unsupported_causal", "任务因为 PDF 渲染超时而失败，已经进入死信队列 billing-dlq。", "cause is a missing font, not a timeout"),
        ("record_to_text", "supported", None, "t-4820 的账单已经正常发出，用时 812 毫秒；出问题的是 t-4821。", "", "哪个租户的账单发成功了？"),
        ("changed_time", "hallucinated", "changed_date", "6 月 3 日凌晨 3 点 17 分，billing-worker-3 处理 t-4821 的账单时失败，已转入死信队列。", "02:17 UTC, not 03:17"),
    ]),
    ("hr", "出差住宿标准是多少？", [
        "差旅住宿标准（2024 版）：一线城市（北京、上海、广州、深圳）普通员工每晚不超过 500 元，经理级不超过 700 元；其他城市普通员工每晚不超过 350 元，经理级不超过 500 元。超标部分需个人承担，除非事先获得部门负责人书面批准。住宿须通过公司差旅平台预订，自行预订的不予报销，但平台无房时可凭截图自行预订。",
    ], [
        ("paraphrase", "supported", None, "在北上广深出差，普通员工每晚最多报 500 块，经理最多 700；其他城市分别是 350 和 500。", ""),
        ("paraphrase", "supported", None, "住宿得在公司差旅平台订；只有平台上没房的时候，才能截图后自己订。", "", "可以自己在携程订酒店吗？"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "住宿可以自己随便订，回来凭发票报销就行，不用走差旅平台。", "must book via platform; self-booking not reimbursed"),
        ("flipped_obligation", "supported", None, "不能自己订。住宿必须走公司差旅平台，自己订的不报销，除非平台没房并留了截图。", "", "可以自己在携程订酒店吗？"),
        ("entity_swap", "hallucinated", "wrong_entity", "杭州属于一线城市，普通员工住宿每晚不超过 500 元。", "杭州 is not listed as 一线; its cap is 350", "去杭州出差能住多少钱的酒店？"),
        ("entity_swap", "supported", None, "杭州不在一线城市名单里，普通员工每晚最多 350 元。", "", "去杭州出差能住多少钱的酒店？"),
        ("clause_addition", "hallucinated", "baseless_addition", "超出标准的部分个人承担，事先有部门负责人书面批准的除外；另外连续出差超过 7 天可以上浮 20%。", "no 7-day uplift rule"),
        ("clause_addition", "supported", None, "超标的钱要自己出，除非提前拿到了部门负责人的书面批准。", ""),
        ("changed_time", "hallucinated", "changed_comparator", "经理级在一线城市出差，住宿每晚至少 700 元。", "上限 700, not a minimum"),
    ]),
    ("ops", "数据库备份策略是什么？", [
        "核心库 MySQL（orders-db）备份策略：每天 01:30 做一次全量物理备份，每 15 分钟上传一次 binlog；全量备份保留 14 天，binlog 保留 7 天。备份存放在异地对象存储 oss-backup-sh 桶中，每周日 04:00 自动做一次恢复演练，演练结果发到 #dba-report。",
        "报表库（report-db）每周六 03:00 做一次全量备份，保留 30 天，不做 binlog 备份。",
    ], [
        ("paraphrase", "supported", None, "orders-db 每天凌晨一点半全量备份一次，binlog 每 15 分钟传一次；全量留两周，binlog 留一周。", ""),
        ("changed_time", "hallucinated", "changed_date", "orders-db 每天 03:00 做全量物理备份，binlog 每 15 分钟上传一次。", "01:30; 03:00 is report-db's weekly time"),
        ("changed_time", "supported", None, "orders-db 的全量备份在每天 1:30 做，恢复演练则是每周日早上 4 点。", "", "备份和演练分别在什么时候？"),
        ("changed_time", "hallucinated", "changed_date", "恢复演练每周六 04:00 自动进行，结果会发到 #dba-report。", "Sunday, not Saturday", "备份和演练分别在什么时候？"),
        ("entity_swap", "hallucinated", "wrong_entity", "report-db 的 binlog 每 15 分钟上传一次，保留 7 天。", "report-db has no binlog backup", "报表库怎么备份？"),
        ("entity_swap", "supported", None, "报表库 report-db 只在每周六凌晨 3 点做全量备份，保留 30 天，没有 binlog 备份。", "", "报表库怎么备份？"),
        ("clause_addition", "hallucinated", "baseless_addition", "全量备份保留 14 天，存在 oss-backup-sh 桶里，并且会同步一份到 oss-backup-bj 做双活。", "no second bucket"),
        ("summary", "supported", None, "简单说：orders-db 日全量+15 分钟 binlog，异地存 oss-backup-sh，周日自动演练；report-db 只有周六全量。", "", "两个库的备份有什么区别？"),
    ]),
    ("general", "这款空气净化器怎么样？", [
        "产品参数｜清风 Q7 空气净化器：CADR（颗粒物）420 m³/h，CADR（甲醛）180 m³/h，适用面积 29–50 ㎡，噪音 32–61 dB，滤网寿命约 6 个月，功率 45 W，重量 8.2 kg，支持 App 远程控制，不支持语音助手。",
        "对比款｜清风 Q5：CADR（颗粒物）300 m³/h，适用面积 21–36 ㎡，支持语音助手，重量 6.5 kg。",
    ], [
        ("record_to_text", "supported", None, "Q7 颗粒物 CADR 是 420 立方米每小时，适合 29 到 50 平米的房间，滤网大概半年换一次。", ""),
        ("record_to_text", "hallucinated", "wrong_entity", "Q7 支持语音助手，也能用 App 远程控制。", "voice assistant is Q5's feature"),
        ("record_to_text", "supported", None, "Q7 不能用语音助手控制，只支持 App 远程操作；要语音控制得选 Q5。", "", "Q7 能语音控制吗？"),
        ("record_to_text", "hallucinated", "changed_number", "Q7 的甲醛 CADR 为 420 m³/h，噪音最低 32 dB。", "甲醛 CADR 180; 420 is 颗粒物"),
        ("paraphrase", "supported", None, "Q7 比 Q5 更适合大房间：Q7 覆盖 29–50 ㎡，Q5 是 21–36 ㎡，不过 Q7 也更重，8.2 公斤。", "", "Q7 和 Q5 选哪个？"),
        ("paraphrase", "hallucinated", "changed_comparator", "Q5 的净化能力比 Q7 更强，颗粒物 CADR 更高。", "Q7 420 > Q5 300", "Q7 和 Q5 选哪个？"),
        ("clause_addition", "hallucinated", "baseless_addition", "Q7 滤网寿命约 6 个月，首次购买还附赠一片备用滤网。", "no bundled filter"),
    ]),
    ("hr", "试用期多久？", [
        "试用期规定：劳动合同期限三年以上的，试用期为六个月；一年以上不满三年的，试用期为两个月；不满一年的，试用期为一个月。试用期工资为转正工资的 90%。试用期满前 15 天，由直属主管发起转正评估，HRBP 复核，结果在系统中通知员工。",
    ], [
        ("paraphrase", "supported", None, "签三年及以上合同的，试用期半年；一到三年的是两个月；一年以内的只有一个月。", ""),
        ("paraphrase", "hallucinated", "changed_number", "签两年合同的话，试用期是三个月，工资按转正后的 90% 发。", "两个月, not three"),
        ("paraphrase", "supported", None, "试用期工资打九折，也就是转正工资的 90%。", "", "试用期工资怎么算？"),
        ("paraphrase", "hallucinated", "changed_number", "试用期工资是转正工资的 80%。", "90%", "试用期工资怎么算？"),
        ("entity_swap", "hallucinated", "wrong_attribution", "转正评估由 HRBP 发起，直属主管复核。", "reversed roles", "转正流程是什么？"),
        ("entity_swap", "supported", None, "试用期结束前 15 天，主管发起转正评估，HRBP 复核，结果通过系统告诉你。", "", "转正流程是什么？"),
        ("changed_time", "hallucinated", "changed_date", "试用期满前 30 天，由直属主管发起转正评估。", "15 天", "转正流程是什么？"),
    ]),
    ("ops", "发布窗口是什么时候？", [
        "变更管理规范：常规发布窗口为工作日 10:00–12:00 和 14:00–17:00；周五 15:00 之后、法定节假日前一天和大促期间（以运营日历为准）禁止常规发布。紧急修复可随时发布，但需 on-call 负责人和变更委员会任一成员在工单中批准，并在发布后 24 小时内补充复盘记录。",
    ], [
        ("paraphrase", "supported", None, "平时工作日上午 10 点到 12 点、下午 2 点到 5 点可以发布；周五下午 3 点以后和节前一天不能发。", ""),
        ("flipped_obligation", "hallucinated", "flipped_negation", "紧急修复可以随时发布，而且不需要任何人审批，事后补个复盘就行。", "needs approval from on-call lead or committee member", "紧急修复怎么发布？"),
        ("flipped_obligation", "supported", None, "紧急修复随时能发，但得有 on-call 负责人或者变更委员会的任一成员在工单里批准，发布后一天内补复盘。", "", "紧急修复怎么发布？"),
        ("changed_time", "hallucinated", "changed_date", "周五 17:00 之后禁止常规发布，其他工作日窗口是 10:00–12:00 和 14:00–17:00。", "cut-off is 15:00 on Friday"),
        ("changed_time", "hallucinated", "changed_number", "紧急修复发布后 48 小时内要补充复盘记录。", "24 小时", "紧急修复怎么发布？"),
        ("clause_addition", "hallucinated", "baseless_addition", "大促期间禁止常规发布，否则要扣当季绩效。", "no penalty in context", "大促期间能发布吗？"),
        ("clause_addition", "supported", None, "大促期间不能做常规发布，具体哪些天算大促以运营日历为准。", "", "大促期间能发布吗？"),
        ("issue_example", "hallucinated", "baseless_addition", "周五 15:00 以后不能做常规发布，否则会通知 CTO。", "issue 10 example style: invented escalation"),
    ]),
    ("general", "这次航班的信息是什么？", [
        "行程单\n乘客: 周晓宁\n航班: MU5137\n日期: 2024-07-08\n出发: 上海虹桥 T2 07:00\n到达: 北京首都 T2 09:20\n舱位: 经济舱 Y\n座位: 32K\n行李额: 托运 20 kg\n状态: 已出票",
    ], [
        ("record_to_text", "supported", None, "周晓宁 7 月 8 日坐 MU5137，早上 7 点从虹桥 T2 起飞，9:20 到首都机场 T2，座位 32K。", ""),
        ("record_to_text", "hallucinated", "wrong_entity", "航班从上海浦东 T2 出发，7 点起飞，到北京首都 T2。", "虹桥, not 浦东"),
        ("record_to_text", "hallucinated", "changed_number", "经济舱可以免费托运 23 公斤行李。", "20 kg", "能带多少行李？"),
        ("record_to_text", "supported", None, "经济舱，托运行李额度 20 公斤。", "", "能带多少行李？"),
        ("record_to_text", "hallucinated", "changed_date", "MU5137 于 2024 年 7 月 8 日 09:20 从上海虹桥出发。", "09:20 is arrival; departure 07:00"),
        ("record_to_text", "hallucinated", "baseless_addition", "已出票，座位 32K 是靠窗位，并且已经完成值机。", "no check-in status in record"),
    ]),
    ("hr", "加班怎么算？", [
        "加班管理办法：工作日加班按小时工资的 150% 支付加班费；休息日加班优先安排调休，无法调休的按 200% 支付；法定节假日加班按 300% 支付，不安排调休。加班须事先在系统中提交申请并经直属主管批准，未经批准的不计入加班。每月加班总时长不得超过 36 小时。",
    ], [
        ("paraphrase", "supported", None, "平时下班后加班给 1.5 倍工资；周末加班先安排调休，调不了就给双倍；法定节假日给三倍，不调休。", ""),
        ("paraphrase", "hallucinated", "changed_number", "周末加班如果没法调休，按小时工资的 300% 发加班费。", "200%; 300% is for statutory holidays"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "加班不用事先申请，月底一起补登记就能算加班。", "must apply in advance; unapproved overtime doesn't count"),
        ("flipped_obligation", "supported", None, "得先在系统里提申请、主管批了才算加班，没批的不算。", "", "加班要申请吗？"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "法定节假日加班可以选择调休，也可以拿三倍工资。", "不安排调休", "国庆加班能调休吗？"),
        ("changed_time", "hallucinated", "changed_number", "每个月的加班总时长不能超过 40 小时。", "36 小时"),
        ("changed_time", "supported", None, "一个月最多加班 36 个小时。", ""),
        ("issue_example", "supported", None, "不需要调休，法定节假日加班直接按 3 倍支付加班费。", "", "国庆加班能调休吗？"),
    ]),
    ("ops", "这次故障的原因是什么？", [
        "故障复盘 INC-0415：4 月 15 日 14:02–14:37，用户中心登录接口成功率降至 63%。直接原因是 14:00 上线的配置变更把 Redis 连接池上限从 200 误改为 20，导致大量请求等待连接超时。14:31 回滚配置后恢复。改进项：配置变更增加数值范围校验（负责人：林涛，6 月前完成）；连接池耗尽增加告警（负责人：沈悦）。",
        "同周另一事件 INC-0417：4 月 17 日 09:10 搜索服务因 ES 集群磁盘写满出现部分失败，扩容后恢复。",
    ], [
        ("paraphrase", "supported", None, "INC-0415 是因为 14 点那次配置变更把 Redis 连接池上限从 200 错写成了 20，请求拿不到连接就超时了，14:31 回滚之后恢复。", ""),
        ("paraphrase", "hallucinated", "wrong_attribution", "INC-0415 的原因是 ES 集群磁盘写满，扩容后恢复。", "that is INC-0417"),
        ("clause_addition", "hallucinated", "unsupported_causal", "配置变更把连接池上限改成了 20，导致登录失败；这次变更是因为新同事不熟悉流程。", "no reason for the mistake given"),
        ("clause_addition", "supported", None, "连接池上限被误改成 20 导致登录接口超时；后续会给配置变更加数值范围校验，由林涛负责。", ""),
        ("entity_swap", "hallucinated", "wrong_attribution", "改进项中，连接池耗尽告警由林涛负责，数值范围校验由沈悦负责。", "owners swapped", "改进项谁负责？"),
        ("entity_swap", "supported", None, "数值校验归林涛，6 月前做完；连接池耗尽的告警归沈悦。", "", "改进项谁负责？"),
        ("changed_time", "hallucinated", "changed_date", "故障从 14:02 持续到 14:37，期间登录成功率降到 63%，14:20 回滚配置后恢复。", "rollback at 14:31"),
        ("changed_time", "hallucinated", "changed_number", "这次故障中，登录接口成功率掉到了 36%，持续了约 35 分钟。", "63%"),
    ]),
    ("general", "西溪湿地的开放时间？", [
        "西溪国家湿地公园游览须知：4 月至 10 月开放时间 7:30–18:30，11 月至次年 3 月 8:00–17:30；闭园前 1 小时停止入园。门票 80 元，1.2 米以下儿童、60 岁以上老人免票。园内电瓶车单程 10 元，摇橹船每人 60 元。园区禁止自带帐篷露营。",
    ], [
        ("paraphrase", "supported", None, "夏半年（4–10 月）早上 7:30 开到晚上 6:30，冬半年 8 点到 17:30；关门前一小时就不让进了。", ""),
        ("changed_time", "hallucinated", "changed_date", "11 月到次年 3 月的开放时间是 7:30–17:30，闭园前 1 小时停止入园。", "winter opens at 8:00"),
        ("changed_time", "supported", None, "冬天 17:30 闭园，所以 16:30 以后就不能入园了。", "", "12 月份几点前要进园？"),
        ("changed_time", "hallucinated", "changed_date", "冬天 17:30 闭园，17:00 前入园都可以。", "停止入园 at 16:30", "12 月份几点前要进园？"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "园区允许自带帐篷，在指定草坪可以露营。", "禁止自带帐篷露营", "能露营吗？"),
        ("record_to_text", "supported", None, "门票 80 元，1.2 米以下的孩子和 60 岁以上老人免票；坐摇橹船每人还要 60 元。", "", "门票多少钱？"),
        ("record_to_text", "hallucinated", "changed_number", "门票 80 元，65 岁以上老人免票。", "60 岁以上", "门票多少钱？"),
    ]),
    ("hr", "电脑坏了怎么办？", [
        "IT 服务说明：办公电脑故障请在 IT 服务台（itdesk）提交工单，普通故障 4 个工作小时内响应，影响业务的紧急故障 30 分钟内响应。需要更换电脑的，由 IT 先备份数据再更换，员工不得自行拆机。个人软件安装需在工单中说明用途，经 IT 安全组审批后由 IT 远程安装；开源软件在白名单内的可自行安装。",
    ], [
        ("paraphrase", "supported", None, "在 itdesk 上提工单就行，一般故障 4 个工作小时内会有人响应，影响业务的紧急故障半小时内响应。", ""),
        ("flipped_obligation", "hallucinated", "flipped_negation", "可以自己拆机检查，换电脑前数据由员工自己备份。", "员工不得自行拆机; IT backs up"),
        ("flipped_obligation", "supported", None, "白名单里的开源软件可以自己装；其他软件要在工单里写明用途，IT 安全组批了以后由 IT 远程装。", "", "能自己装软件吗？"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "所有软件都必须由 IT 安全组审批后才能安装，包括白名单里的开源软件。", "whitelisted open-source needs no approval", "能自己装软件吗？"),
        ("changed_time", "hallucinated", "changed_number", "普通故障 2 个工作小时内响应，紧急故障 30 分钟内响应。", "4 个工作小时"),
        ("clause_addition", "hallucinated", "baseless_addition", "紧急故障 30 分钟内响应，并且当天一定会给你换一台备用机。", "no same-day spare promise"),
    ]),
    ("ops", "缓存集群的配置？", [
        "cache-prod 集群：Redis 7.0，6 个分片，每个分片 1 主 2 从，单分片内存 16 GB，淘汰策略 allkeys-lru。持久化关闭 AOF，仅每 6 小时做一次 RDB 快照。客户端统一通过 twemproxy 访问，连接超时 200 ms。",
        "session-cache 集群：Redis 6.2，3 个分片，开启 AOF（everysec），淘汰策略 volatile-ttl。",
    ], [
        ("record_to_text", "supported", None, "cache-prod 是 Redis 7.0，分 6 片，每片一主两从、16 GB 内存，用 allkeys-lru 淘汰。", ""),
        ("record_to_text", "hallucinated", "flipped_negation", "cache-prod 开启了 AOF 持久化，每秒刷盘一次。", "cache-prod AOF off; everysec is session-cache"),
        ("record_to_text", "supported", None, "cache-prod 没开 AOF，只是每 6 小时做一次 RDB 快照；开 AOF 的是 session-cache。", "", "cache-prod 怎么持久化？"),
        ("entity_swap", "hallucinated", "wrong_entity", "cache-prod 的淘汰策略是 volatile-ttl。", "allkeys-lru; volatile-ttl is session-cache"),
        ("entity_swap", "hallucinated", "wrong_entity", "cache-prod 客户端统一通过 codis-proxy 访问，连接超时 200 ms。", "twemproxy"),
        ("changed_time", "hallucinated", "changed_number", "cache-prod 每 12 小时做一次 RDB 快照。", "6 小时", "cache-prod 怎么持久化？"),
    ]),
]
# fmt: off
EN: list[Scenario] = [
    ("hr", "How do I book annual leave?", [
        "Annual leave policy: employees with under 5 years of service get 20 days of annual leave per year; 5 years or more, 25 days. Leave can be taken in half-day blocks. Up to 5 unused days carry over to the next year and must be used by 31 March; any other unused days lapse. Requests must be submitted in Workday at least three working days in advance and approved by your line manager; requests for more than 10 consecutive days also need HR Business Partner approval.",
        "Sick leave: self-certification covers up to 7 calendar days; beyond that a doctor's note is required.",
    ], [
        ("paraphrase", "supported", None, "Put the request into Workday at least 3 working days ahead and your line manager approves it; if it's more than ten days in a row, your HRBP has to sign off too.", ""),
        ("paraphrase", "supported", None, "You can roll over at most five unused days, and they have to be taken by the end of March; the rest are lost.", "", "What happens to leave I don't use?"),
        ("paraphrase", "hallucinated", "changed_number", "You can carry over up to 10 unused days into the next year, as long as you use them by 31 March.", "5 days"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "For more than 10 consecutive days you don't need HR approval; your line manager's approval is enough.", "HRBP approval required", "Who approves a three-week holiday?"),
        ("flipped_obligation", "supported", None, "A three-week break is over 10 consecutive days, so besides your line manager the HR Business Partner must approve it.", "", "Who approves a three-week holiday?"),
        ("clause_addition", "hallucinated", "baseless_addition", "Leave can be taken in half days, and unused leave beyond the carry-over is paid out at your daily rate.", "other unused days lapse"),
        ("clause_addition", "supported", None, "Leave can be taken in half days, and requests go through Workday three working days in advance.", ""),
        ("changed_time", "hallucinated", "changed_date", "Carried-over days must be used by 30 June, otherwise they lapse.", "31 March"),
        ("entity_swap", "hallucinated", "wrong_entity", "Staff with 5 or more years of service get 20 days; newer staff get 25.", "reversed"),
        ("issue_example", "supported", None, "Annual leave needs to be requested 3 working days in advance.", "paraphrase of 'three working days'", "How far ahead must I ask for leave?"),
    ]),
    ("ops", "What are the resource limits for checkout-api?", [
        "checkout-api runs in the prod-eu cluster with a CPU quota of 1.5 cores and a memory quota of 3 GiB per pod. The HPA scales on CPU when average utilisation stays above 65% for 5 minutes, between 6 and 30 replicas. If a pod is OOM-killed more than 3 times in an hour, PagerDuty pages the payments on-call.",
        "search-api runs in the same cluster with 4 cores and 8 GiB per pod and scales on request rate.",
    ], [
        ("record_to_text", "supported", None, "Each checkout-api pod gets 1.5 CPU cores and 3 GiB of memory, and it runs between 6 and 30 replicas.", ""),
        ("entity_swap", "hallucinated", "wrong_entity", "Each checkout-api pod has a memory quota of 1.5 GiB and a CPU quota of 3 cores.", "CPU and memory swapped"),
        ("entity_swap", "hallucinated", "wrong_entity", "checkout-api scales on request rate, between 6 and 30 replicas.", "scales on CPU; request rate is search-api", "How does checkout-api autoscale?"),
        ("entity_swap", "supported", None, "It autoscales on CPU: once average utilisation is above 65% for five minutes the HPA adds replicas, up to 30.", "", "How does checkout-api autoscale?"),
        ("clause_addition", "hallucinated", "baseless_addition", "If a pod is OOM-killed more than 3 times in an hour the payments on-call is paged, otherwise the CTO is called.", "issue 10 example: invented escalation"),
        ("clause_addition", "supported", None, "Repeated OOM kills (more than three in an hour) page the payments on-call through PagerDuty.", ""),
        ("changed_time", "hallucinated", "changed_number", "The HPA adds replicas when average CPU stays above 65% for 10 minutes.", "5 minutes", "How does checkout-api autoscale?"),
        ("clause_addition", "hallucinated", "unsupported_causal", "checkout-api is capped at 3 GiB per pod because the prod-eu nodes are small.", "no reason given"),
    ]),
    ("general", "What's the status of this order?", [
        '{"order_id": "A-77120", "customer": {"name": "Harbor Lane Bakery", "city": "Portland"}, "status": "partially_shipped", "lines": [{"sku": "FLR-25", "desc": "25 kg bread flour", "qty": 12, "shipped": 12}, {"sku": "YST-1", "desc": "1 kg dry yeast", "qty": 6, "shipped": 0}], "carrier": "UPS", "eta": "2024-09-18", "invoice_total_usd": 684.50, "paid": false}',
    ], [
        ("record_to_text", "supported", None, "Order A-77120 for Harbor Lane Bakery is partially shipped: all 12 bags of bread flour went out with UPS, but none of the 6 packs of yeast have shipped yet.", ""),
        ("record_to_text", "supported", None, "The invoice comes to $684.50 and hasn't been paid yet.", "", "Has the customer paid?"),
        ("record_to_text", "hallucinated", "flipped_negation", "The $684.50 invoice has already been paid in full.", "paid: false", "Has the customer paid?"),
        ("record_to_text", "hallucinated", "changed_number", "The order has shipped 12 bags of flour and 3 of the 6 packs of yeast.", "yeast shipped: 0"),
        ("record_to_text", "hallucinated", "wrong_entity", "The order is travelling with FedEx and should arrive on 18 September.", "UPS"),
        ("record_to_text", "hallucinated", "changed_date", "UPS expects to deliver it on 8 September.", "eta 2024-09-18"),
        ("record_to_text", "hallucinated", "baseless_addition", "The yeast is back-ordered until next month, so it will ship separately.", "no back-order info"),
        ("record_to_text", "supported", None, "UPS's estimated delivery date is September 18, 2024.", "", "When will it arrive?"),
    ]),
    ("general", "When is the museum open?", [
        "name: Riverside Maritime Museum\naddress: 14 Dock Street, Bristol\nopening_hours: Tue-Sun 10:00-17:00; closed Mondays except bank holidays\nlate_opening: first Thursday of the month until 21:00\nadmission: adults £12, under-16s free, concessions £9\nstep_free_access: yes\ncafe: yes\nphotography: allowed without flash\nguided_tours: 11:00 and 14:00 daily",
    ], [
        ("record_to_text", "supported", None, "It's open Tuesday to Sunday from 10 am to 5 pm, and until 9 pm on the first Thursday of each month. It's shut on Mondays unless it's a bank holiday.", ""),
        ("record_to_text", "hallucinated", "changed_date", "It's open Monday to Saturday, 10:00 to 17:00.", "Tue-Sun, closed Mondays"),
        ("record_to_text", "hallucinated", "changed_number", "Adult tickets are £12 and concessions £7; under-16s go free.", "concessions £9", "How much are tickets?"),
        ("record_to_text", "supported", None, "Adults pay £12, concessions £9, and children under 16 get in free.", "", "How much are tickets?"),
        ("record_to_text", "hallucinated", "flipped_negation", "Photography isn't allowed inside the galleries.", "allowed without flash", "Can I take photos?"),
        ("record_to_text", "supported", None, "Yes, as long as you don't use a flash.", "", "Can I take photos?"),
        ("record_to_text", "hallucinated", "baseless_addition", "Guided tours run at 11:00 and 14:00 and cost £5 extra.", "no tour price", "Are there tours?"),
        ("changed_time", "hallucinated", "changed_date", "On the first Friday of every month it stays open until 9 pm.", "first Thursday"),
    ]),
    ("ops", "How did the service do last week?", [
        "weekly_report service=ledger-api week=2024-W33 requests=18.4M availability=99.97% slo_target=99.9% p95_ms=210 p99_ms=640 error_budget_remaining=71% incidents=1 (SEV3, 22 min, TLS cert renewal delay) deploys=14 rollbacks=1",
        "weekly_report service=ledger-api week=2024-W32 requests=17.1M availability=99.88% p99_ms=720 error_budget_remaining=58% incidents=2",
    ], [
        ("record_to_text", "supported", None, "In week 33 ledger-api served 18.4 million requests at 99.97% availability, above its 99.9% SLO, with 71% of the error budget left.", ""),
        ("record_to_text", "hallucinated", "changed_comparator", "In week 33 availability was 99.88%, below the 99.9% target.", "99.88% was W32"),
        ("record_to_text", "supported", None, "There was one SEV3 incident lasting 22 minutes, caused by a delayed TLS certificate renewal.", "", "Any incidents?"),
        ("record_to_text", "hallucinated", "changed_number", "There were two incidents in week 33, both SEV3.", "1 incident; 2 was W32", "Any incidents?"),
        ("record_to_text", "hallucinated", "unsupported_causal", "The single rollback was caused by the TLS certificate renewal delay.", "no link between rollback and incident"),
        ("summary", "supported", None, "Week 33 was better than week 32 on every measure listed: more traffic, higher availability, lower p99 (640 vs 720 ms) and more error budget left.", "", "How does it compare with the week before?"),
        ("summary", "hallucinated", "changed_comparator", "Compared with week 32, p99 latency got worse, rising from 640 ms to 720 ms.", "it improved from 720 to 640", "How does it compare with the week before?"),
        ("record_to_text", "hallucinated", "changed_number", "The team shipped 14 deploys and rolled back 2 of them.", "1 rollback"),
    ]),
    ("ops", "What does this log line mean?", [
        "2024-08-21 23:58:12,904 WARN  [scheduler-main] c.a.sync.ReplicaSync - replica lag for shard-07 is 48s (threshold 30s); pausing writes to shard-07 until lag < 5s; affected tenants: 112",
    ], [
        ("record_to_text", "supported", None, "The scheduler saw shard-07's replica 48 seconds behind, over the 30-second threshold, so it's pausing writes to that shard until lag drops under 5 seconds. 112 tenants are affected.", ""),
        ("record_to_text", "hallucinated", "changed_number", "Replica lag on shard-07 hit 48 seconds, and writes resume once lag is below 30 seconds.", "resume below 5s"),
        ("record_to_text", "hallucinated", "flipped_negation", "Writes to shard-07 continue normally; only reads are paused.", "writes are paused"),
        ("record_to_text", "hallucinated", "wrong_entity", "Shard-17 is lagging by 48 seconds.", "shard-07"),
        ("record_to_text", "hallucinated", "unsupported_causal", "The lag on shard-07 was caused by a long-running backup, and writes are paused until it catches up.", "no cause"),
        ("record_to_text", "supported", None, "It's a warning, not an error: 112 tenants on shard-07 can't write until the replica catches up.", "", "Is this serious?"),
    ]),
    ("hr", "What's the expense limit for client dinners?", [
        "Expenses policy, section 4 (client entertainment): meals with clients may be claimed up to £75 per head including drinks and service. Alcohol may not exceed one third of the bill. Claims above £500 per event need prior written approval from a director. Receipts must be itemised; card slips alone are not accepted. Claims must be submitted within 60 days of the event.",
    ], [
        ("paraphrase", "supported", None, "You can claim up to £75 a person for a client meal, drinks and service included, and alcohol can't be more than a third of the total.", ""),
        ("paraphrase", "hallucinated", "changed_number", "Client dinners can be claimed up to £75 per head, and alcohol can be up to half of the bill.", "one third"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "A card slip is enough as a receipt for client meals.", "card slips not accepted", "What receipt do I need?"),
        ("flipped_obligation", "supported", None, "You need an itemised receipt; a card slip on its own won't be accepted.", "", "What receipt do I need?"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Events over £500 can be claimed afterwards without any prior approval.", "need prior director approval"),
        ("changed_time", "hallucinated", "changed_number", "Submit the claim within 30 days of the dinner.", "60 days", "Is there a deadline?"),
        ("changed_time", "supported", None, "Yes, you have 60 days from the event to submit it.", "", "Is there a deadline?"),
        ("clause_addition", "hallucinated", "baseless_addition", "Meals are capped at £75 a head, and taxis home after the dinner are also covered.", "no taxi rule"),
        ("entity_swap", "hallucinated", "wrong_attribution", "Claims above £500 need prior written approval from your line manager.", "director"),
    ]),
    ("ops", "What's the backup schedule for the main database?", [
        "Backups for pg-main (PostgreSQL 15): a full base backup runs nightly at 02:00 UTC and WAL segments are archived continuously to s3://acme-pg-wal. Base backups are kept for 35 days, WAL for 14 days. A restore test runs every Wednesday at 06:00 UTC into a throwaway instance and posts the result to #db-alerts.",
        "pg-analytics is backed up weekly (Sundays 01:00 UTC) with pg_dump, retained 90 days, no WAL archiving.",
    ], [
        ("paraphrase", "supported", None, "pg-main gets a full base backup every night at 2 am UTC, and WAL is shipped continuously to S3; base backups stay for 35 days and WAL for two weeks.", ""),
        ("changed_time", "hallucinated", "changed_date", "pg-main's full backup runs nightly at 01:00 UTC.", "02:00"),
        ("changed_time", "hallucinated", "changed_date", "Restore tests for pg-main run every Sunday at 06:00 UTC.", "Wednesday"),
        ("entity_swap", "hallucinated", "wrong_entity", "pg-analytics archives WAL continuously and keeps it for 14 days.", "no WAL for pg-analytics", "How is pg-analytics backed up?"),
        ("entity_swap", "supported", None, "pg-analytics just gets a weekly pg_dump on Sundays at 01:00 UTC, kept for 90 days, with no WAL archiving.", "", "How is pg-analytics backed up?"),
        ("changed_time", "hallucinated", "changed_number", "Base backups of pg-main are retained for 14 days and WAL for 35 days.", "swapped"),
        ("summary", "supported", None, "In short: pg-main has nightly base backups plus continuous WAL and weekly restore tests; pg-analytics only has a weekly dump.", "", "How do the two databases differ?"),
        ("clause_addition", "hallucinated", "baseless_addition", "The weekly restore test posts to #db-alerts, and on failure the DBA on-call is paged automatically.", "no paging rule"),
    ]),
    ("general", "Tell me about this laptop.", [
        "Spec sheet — Kestrel 14 (2024): 14-inch 2880×1800 OLED, 120 Hz; Intel Core Ultra 7 155H; 32 GB LPDDR5X (soldered, not upgradeable); 1 TB PCIe 4.0 SSD (one M.2 slot); 72 Wh battery, rated up to 13 hours video playback; weight 1.29 kg; ports: 2× Thunderbolt 4, 1× USB-A, HDMI 2.1, no SD card reader; Wi-Fi 7.",
        "Kestrel 14 Lite: 14-inch 1920×1200 IPS, 16 GB RAM (one SO-DIMM slot, upgradeable to 48 GB), 512 GB SSD, SD card reader, 1.35 kg.",
    ], [
        ("record_to_text", "supported", None, "The Kestrel 14 has a 14-inch 120 Hz OLED at 2880 by 1800, a Core Ultra 7 155H, 32 GB of RAM and a 1 TB SSD, and weighs 1.29 kg.", ""),
        ("record_to_text", "hallucinated", "wrong_entity", "The Kestrel 14 has an SD card reader and two Thunderbolt 4 ports.", "SD reader is the Lite's"),
        ("record_to_text", "hallucinated", "flipped_negation", "Its 32 GB of memory can be upgraded later.", "soldered, not upgradeable", "Can I upgrade the RAM?"),
        ("record_to_text", "supported", None, "No. On the Kestrel 14 the RAM is soldered; only the Lite has a slot you can upgrade (to 48 GB).", "", "Can I upgrade the RAM?"),
        ("record_to_text", "hallucinated", "changed_number", "The battery is rated for up to 18 hours of video playback.", "13 hours"),
        ("record_to_text", "hallucinated", "baseless_addition", "It comes with Wi-Fi 7 and a fingerprint reader in the power button.", "no fingerprint reader listed"),
        ("paraphrase", "supported", None, "The Lite is slightly heavier (1.35 kg vs 1.29 kg) and has a lower-resolution IPS screen, but it does have an SD card reader.", "", "How does the Lite compare?"),
        ("paraphrase", "hallucinated", "changed_comparator", "The Lite is lighter than the regular Kestrel 14.", "1.35 > 1.29", "How does the Lite compare?"),
    ]),
    ("hr", "How long is probation?", [
        "Probation: new employees serve a six-month probationary period. During probation the notice period is one week on either side; after confirmation it is one month, rising to three months for staff at grade 7 and above. A mid-point review takes place at three months, led by the line manager with HR present. Probation may be extended once, by up to three months.",
    ], [
        ("paraphrase", "supported", None, "Probation lasts six months, with a check-in halfway through at three months run by your manager with someone from HR.", ""),
        ("paraphrase", "hallucinated", "changed_number", "Probation lasts three months, with a review at the halfway point.", "six months"),
        ("paraphrase", "supported", None, "While on probation either side can end things with a week's notice; once you're confirmed it's a month, or three months from grade 7 up.", "", "What's the notice period?"),
        ("changed_time", "hallucinated", "changed_number", "During probation the notice period is two weeks for both sides.", "one week", "What's the notice period?"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Probation can't be extended; you're either confirmed or let go at six months.", "can be extended once"),
        ("flipped_obligation", "supported", None, "It can be extended, but only once and by three months at most.", "", "Can probation be extended?"),
        ("entity_swap", "hallucinated", "wrong_attribution", "The three-month review is led by HR, with your line manager present.", "roles reversed"),
        ("entity_swap", "hallucinated", "changed_number", "Staff at grade 5 and above have a three-month notice period after confirmation.", "grade 7"),
    ]),
    ("ops", "When can we deploy?", [
        "Change policy: standard deploys are allowed Monday to Thursday 09:00–16:00 local time and Friday 09:00–12:00. No standard deploys during a declared freeze (the dates are published in the release calendar). Hotfixes may go out at any time with approval from the incident commander or the on-call engineering manager, and must be followed by a post-deploy review within two business days.",
    ], [
        ("paraphrase", "supported", None, "Standard deploys can go out Monday through Thursday between 9 and 4, and on Friday mornings until noon.", ""),
        ("changed_time", "hallucinated", "changed_date", "Standard deploys are allowed on Fridays until 16:00.", "Friday until 12:00"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "During a freeze, standard deploys are still fine as long as they're small.", "no standard deploys during freeze"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Hotfixes don't need approval; just do the review afterwards.", "need IC or on-call EM approval", "What about hotfixes?"),
        ("flipped_obligation", "supported", None, "Hotfixes can ship any time if the incident commander or on-call engineering manager approves, with a review within two business days.", "", "What about hotfixes?"),
        ("changed_time", "hallucinated", "changed_number", "A post-deploy review is required within five business days of a hotfix.", "two business days", "What about hotfixes?"),
        ("clause_addition", "hallucinated", "baseless_addition", "Freeze dates are in the release calendar, and they always include the last two weeks of December.", "no dates given"),
        ("clause_addition", "supported", None, "Freeze dates are published in the release calendar, and no standard deploys happen during them.", ""),
    ]),
    ("general", "What are the details of my train booking?", [
        "Booking reference: QX4T9P\nPassenger: Ana Ribeiro\nTrain: Eurostar 9014\nDate: Fri 14 Jun 2024\nDepart: London St Pancras 08:01\nArrive: Paris Gare du Nord 11:20 (local)\nCoach 7, seat 63 (window)\nClass: Standard Premier\nTicket: semi-flexible, exchangeable up to 7 days before departure for a fee",
    ], [
        ("record_to_text", "supported", None, "Ana Ribeiro is booked on Eurostar 9014 on Friday 14 June, leaving St Pancras at 08:01 and arriving at Gare du Nord at 11:20 local time, coach 7 seat 63.", ""),
        ("record_to_text", "hallucinated", "changed_date", "The train leaves London St Pancras at 08:01 on Thursday 14 June.", "Friday"),
        ("record_to_text", "hallucinated", "flipped_negation", "The ticket is non-exchangeable.", "semi-flexible, exchangeable for a fee", "Can I change my ticket?"),
        ("record_to_text", "supported", None, "Yes, it's semi-flexible: you can exchange it up to 7 days before departure, for a fee.", "", "Can I change my ticket?"),
        ("record_to_text", "hallucinated", "changed_number", "It can be exchanged free of charge up to 7 days before departure.", "for a fee", "Can I change my ticket?"),
        ("record_to_text", "hallucinated", "baseless_addition", "Seat 63 is a window seat, and Standard Premier includes a free lounge pass.", "no lounge info"),
        ("record_to_text", "hallucinated", "wrong_entity", "You arrive at Paris Gare de Lyon at 11:20.", "Gare du Nord"),
    ]),
    ("hr", "How is overtime paid?", [
        "Overtime: eligible staff (grades 1–4) are paid 1.5× their hourly rate for overtime on weekdays and Saturdays, and 2× on Sundays and public holidays. Overtime must be pre-approved by the line manager in the rota system. Staff at grade 5 and above are not eligible for paid overtime but may take time off in lieu (TOIL) by agreement. Overtime is capped at 12 hours per week.",
    ], [
        ("paraphrase", "supported", None, "If you're grade 1 to 4 you get time-and-a-half on weekdays and Saturdays and double time on Sundays and bank holidays.", ""),
        ("paraphrase", "hallucinated", "changed_number", "Saturday overtime is paid at double time.", "1.5×"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Grade 6 staff are paid 1.5× for overtime.", "grade 5+ not eligible", "I'm grade 6, do I get overtime pay?"),
        ("flipped_obligation", "supported", None, "No. From grade 5 up there's no paid overtime, though you can agree time off in lieu.", "", "I'm grade 6, do I get overtime pay?"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Overtime doesn't need approval in advance; log it afterwards in the rota system.", "must be pre-approved"),
        ("changed_time", "hallucinated", "changed_number", "You can work up to 15 hours of overtime a week.", "12 hours"),
        ("clause_addition", "hallucinated", "baseless_addition", "Overtime is capped at 12 hours a week, and anything above 8 hours triggers a mandatory rest day.", "no rest-day rule"),
        ("issue_example", "supported", None, "Overtime has to be approved beforehand by your line manager in the rota system, and you can't do more than 12 hours a week.", ""),
    ]),
    ("ops", "What caused the outage?", [
        "Postmortem PM-2207 (22 July): from 09:41 to 10:26 UTC, 38% of checkout requests failed. A certificate on the internal payments gateway expired at 09:40; the renewal job had been failing silently since 1 July because its service account lost write access during an IAM clean-up. Mitigation: manual renewal at 10:22. Follow-ups: alert on certificate expiry 21 days ahead (owner: Priya Nair); restore and audit the job's IAM role (owner: Tom Evans).",
        "PM-2209 (24 July): a bad feature flag disabled promo codes for 14 minutes.",
    ], [
        ("paraphrase", "supported", None, "A certificate on the internal payments gateway expired at 09:40 because its renewal job had been silently failing since 1 July, after its service account lost write access in an IAM clean-up.", ""),
        ("paraphrase", "hallucinated", "wrong_attribution", "The outage was caused by a bad feature flag that disabled checkout.", "that's PM-2209 (promo codes)"),
        ("changed_time", "hallucinated", "changed_number", "From 09:41 to 10:26 UTC, 83% of checkout requests failed.", "38%"),
        ("changed_time", "hallucinated", "changed_date", "The renewal job had been failing since 1 June.", "1 July"),
        ("entity_swap", "hallucinated", "wrong_attribution", "Tom Evans owns the new certificate-expiry alert.", "Priya Nair owns it", "Who owns the follow-ups?"),
        ("entity_swap", "supported", None, "Priya Nair owns the 21-day certificate-expiry alert, and Tom Evans is restoring and auditing the job's IAM role.", "", "Who owns the follow-ups?"),
        ("clause_addition", "hallucinated", "baseless_addition", "The certificate was renewed manually at 10:22, and all failed orders were automatically retried afterwards.", "no retry info"),
        ("clause_addition", "supported", None, "Someone renewed the certificate by hand at 10:22, and errors stopped by 10:26.", ""),
    ]),
    ("general", "Can you summarise this article?", [
        "The city council of Westbrook voted 7–2 on Tuesday to convert two lanes of Harbour Road into a protected cycle track, a project estimated at $4.2 million. Construction is scheduled to start in March and take about eight months. Councillor Dana Whitfield, who proposed the plan, said the route had seen 14 cycling injuries in the past two years. Councillors Mark Osei and Lyn Park voted against, citing concerns about delivery access for shops. The council will fund 60% of the cost; the rest comes from a state transport grant.",
    ], [
        ("summary", "supported", None, "Westbrook's council approved, by 7 votes to 2, a $4.2 million plan to turn two lanes of Harbour Road into a protected cycle track; work starts in March and should take about eight months.", ""),
        ("summary", "hallucinated", "changed_number", "Westbrook's council unanimously approved a $4.2 million cycle track on Harbour Road.", "7–2, not unanimous"),
        ("summary", "supported", None, "The plan, proposed by Councillor Dana Whitfield after 14 cycling injuries on the route in two years, is 60% council-funded with the rest from a state grant. Two councillors opposed it over delivery access for shops.", ""),
        ("summary", "hallucinated", "wrong_attribution", "Councillor Mark Osei, who proposed the plan, cited 14 cycling injuries on the route.", "Whitfield proposed; Osei voted against"),
        ("summary", "hallucinated", "changed_number", "The state transport grant covers 60% of the cost, with the council paying the rest.", "council funds 60%"),
        ("summary", "hallucinated", "baseless_addition", "Construction starts in March and Harbour Road will be fully closed to cars during the works.", "no closure info"),
        ("summary", "hallucinated", "changed_date", "Work will start in May and take about eight months.", "March"),
    ]),
    ("general", "Summarise the product launch.", [
        "Lumen Robotics on Monday unveiled the Tern, a warehouse picking robot that it says handles 600 items per hour, twice the rate of its previous model. The company said the Tern will ship to customers in Europe from October and in North America early next year, priced at $89,000. Chief executive Sara Lindqvist said three logistics firms had signed pilot agreements, but declined to name them. Lumen's shares rose 6% after the announcement.",
    ], [
        ("summary", "supported", None, "Lumen Robotics launched the Tern, a warehouse picking robot rated at 600 items an hour (double its predecessor), priced at $89,000; European deliveries begin in October and North American ones early next year.", ""),
        ("summary", "hallucinated", "changed_date", "The Tern ships to North America from October and to Europe early next year.", "regions swapped"),
        ("summary", "hallucinated", "baseless_addition", "CEO Sara Lindqvist said three logistics firms, including DHL, had signed pilot agreements.", "firms not named"),
        ("summary", "supported", None, "Three logistics companies have signed pilots, though CEO Sara Lindqvist wouldn't say which, and the stock rose 6% on the news.", ""),
        ("summary", "hallucinated", "changed_number", "The company's shares fell 6% after the announcement.", "rose"),
        ("summary", "hallucinated", "unsupported_causal", "The robot is twice as fast as the previous model because it uses a new vision system.", "no reason given"),
    ]),
]
# fmt: off
# Cross-language: the answer's language is the scenario's lang; the context is in the other one.
ZH_EXTRA: list[Scenario] = [
    ("general", "请概括这篇新闻。", [
        "（本报讯）青川市 9 月 3 日召开新闻发布会，宣布地铁 4 号线二期工程将于 9 月 28 日开通试运营。二期全长 12.6 公里，设 9 座车站，总投资约 98 亿元。开通初期高峰时段行车间隔为 6 分钟，平峰 8 分钟，首班车 6:00、末班车 22:30。市交通局副局长何明表示，二期开通后从火车东站到大学城的时间将由 70 分钟缩短到 35 分钟。票价沿用现行里程计价，起步价 2 元。",
    ], [
        ("summary", "supported", None, "青川地铁 4 号线二期 9 月 28 日开始试运营，线路 12.6 公里、9 座车站，投资约 98 亿元；高峰 6 分钟一班，平峰 8 分钟一班。", ""),
        ("summary", "hallucinated", "changed_number", "4 号线二期全长 12.6 公里，设 12 座车站，总投资约 98 亿元。", "9 座车站"),
        ("summary", "supported", None, "开通后从火车东站到大学城只要 35 分钟左右，比原来的 70 分钟少一半；票价还是按里程算，2 元起步。", ""),
        ("summary", "hallucinated", "wrong_attribution", "市交通局局长何明表示，二期开通后东站到大学城只需 35 分钟。", "何明 is 副局长"),
        ("summary", "hallucinated", "changed_date", "4 号线二期将于 9 月 3 日开通试运营。", "9 月 3 日 is the press conference; opening is 9 月 28 日"),
        ("summary", "hallucinated", "baseless_addition", "开通首月全线免费乘坐，首班车 6:00，末班车 22:30。", "no free-ride month"),
        ("summary", "hallucinated", "changed_comparator", "二期开通后高峰时段行车间隔为 8 分钟，平峰为 6 分钟。", "swapped"),
    ]),
    ("general", "请总结这份季度财报。", [
        "星禾科技 2024 年第二季度财报：营收 18.6 亿元，同比增长 23%；净利润 2.1 亿元，同比增长 9%；毛利率 41.5%，较上季度下降 1.2 个百分点。海外收入占比 34%，首次超过三成。公司预计第三季度营收在 19 亿至 20 亿元之间。财务总监刘珊表示，毛利率下降主要是由于新工厂投产初期良率偏低。",
        "星禾科技 2024 年第一季度：营收 16.9 亿元，净利润 2.4 亿元，毛利率 42.7%。",
    ], [
        ("summary", "supported", None, "二季度星禾营收 18.6 亿元，同比涨 23%，净利润 2.1 亿元；毛利率 41.5%，比一季度低了 1.2 个点，财务总监把原因归于新工厂刚投产良率低。", ""),
        ("summary", "hallucinated", "changed_comparator", "二季度净利润比一季度有所增长，达到 2.1 亿元。", "Q1 net profit 2.4 > 2.1"),
        ("summary", "supported", None, "海外收入占了 34%，第一次超过三成；公司预计三季度营收 19 亿到 20 亿元。", ""),
        ("summary", "hallucinated", "changed_number", "公司预计第三季度营收在 20 亿至 22 亿元之间。", "19–20 亿"),
        ("summary", "hallucinated", "unsupported_causal", "毛利率下降主要是因为原材料涨价。", "reason given is low yield at new factory"),
        ("summary", "hallucinated", "wrong_attribution", "首席执行官刘珊表示，毛利率下降是由于新工厂良率偏低。", "刘珊 is 财务总监"),
    ]),
]

CROSS_EN: list[Scenario] = [  # English answers over Chinese context
    ("hr", "How many days in advance do I need to request annual leave?", ZH[0][2], [
        ("cross_language", "supported", None, "You need to submit it in OA at least three working days in advance, and your direct manager approves it.", ""),
        ("cross_language", "hallucinated", "changed_number", "You need to submit it at least five working days in advance.", "三个工作日"),
        ("cross_language", "supported", None, "Unused annual leave can be carried over until March 31 of the following year; after that it expires.", "", "What happens to unused leave?"),
        ("cross_language", "hallucinated", "flipped_negation", "Unused annual leave never expires; it can be carried over indefinitely.", "expires after 3/31", "What happens to unused leave?"),
    ]),
    ("ops", "What is the CPU quota for order-svc?", ZH[1][2], [
        ("cross_language", "supported", None, "Each order-svc pod has a CPU quota of 2 cores and a memory quota of 4 GiB.", ""),
        ("cross_language", "hallucinated", "wrong_entity", "Each order-svc pod has a CPU quota of 1 core and 8 GiB of memory.", "those are stock-svc's numbers"),
        ("cross_language", "supported", None, "A P2 alert fires when CPU usage stays above 90% for 10 minutes, and the order team's on-call handles it.", "", "When does it alert?"),
        ("cross_language", "hallucinated", "changed_number", "A P1 alert fires when CPU usage stays above 90% for 10 minutes.", "P2", "When does it alert?"),
    ]),
    ("general", "What's the status of order SO-20240611-0087?", ZH[2][2], [
        ("cross_language", "supported", None, "It has shipped: SF Express picked it up on June 12 at 15:40, tracking number SF1357924680, and the 3,860 yuan has been paid.", ""),
        ("cross_language", "hallucinated", "changed_number", "It contains 200 A5 notebooks and 500 gel pens, for a total of 3,680 yuan.", "3860"),
        ("cross_language", "hallucinated", "flipped_negation", "It has not shipped yet; it is still waiting for payment.", "shipped and paid"),
    ]),
    ("general", "What time does the noodle shop open on weekends?", ZH[3][2], [
        ("cross_language", "supported", None, "On Saturdays and Sundays it's open from 10 am to 10 pm.", ""),
        ("cross_language", "hallucinated", "changed_date", "On weekends it opens at 10:30 and closes at 9 pm.", "those are weekday hours"),
        ("cross_language", "supported", None, "There's parking in the mall's underground car park, with two hours free if you spend at least 50 yuan.", "", "Is there parking?"),
    ]),
    ("ops", "What caused INC-0415?", ZH[13][2], [
        ("cross_language", "supported", None, "A config change deployed at 14:00 lowered the Redis connection pool limit from 200 to 20 by mistake, so requests timed out waiting for connections; rolling it back at 14:31 fixed it.", ""),
        ("cross_language", "hallucinated", "wrong_attribution", "The ES cluster's disk filled up, and the incident ended after the cluster was expanded.", "that was INC-0417"),
        ("cross_language", "hallucinated", "changed_number", "The pool limit was mistakenly changed from 200 to 2.", "20"),
    ]),
    ("general", "What are the opening hours of Xixi Wetland in winter?", ZH[14][2], [
        ("cross_language", "supported", None, "From November to March it's open 8:00 to 17:30, and entry stops an hour before closing.", ""),
        ("cross_language", "hallucinated", "changed_date", "From November to March it's open 7:30 to 18:30.", "summer hours"),
    ]),
]

CROSS_ZH: list[Scenario] = [  # Chinese answers over English context
    ("hr", "年假要提前多久申请？", EN[0][2], [
        ("cross_language", "supported", None, "需要至少提前三个工作日在 Workday 里提交，由直属经理审批；连续超过 10 天还要 HRBP 批准。", ""),
        ("cross_language", "hallucinated", "changed_number", "需要至少提前五个工作日在 Workday 提交申请。", "three working days"),
        ("cross_language", "supported", None, "最多可以结转 5 天，必须在 3 月 31 日前用完，其余没用的作废。", "", "没休完的年假怎么办？"),
        ("cross_language", "hallucinated", "baseless_addition", "最多结转 5 天，其余未休天数按日薪折现。", "other days lapse", "没休完的年假怎么办？"),
    ]),
    ("ops", "checkout-api 的资源配额是多少？", EN[1][2], [
        ("cross_language", "supported", None, "checkout-api 每个 Pod 的 CPU 配额是 1.5 核，内存配额 3 GiB，副本数在 6 到 30 之间。", ""),
        ("cross_language", "hallucinated", "wrong_entity", "checkout-api 每个 Pod 有 4 核 CPU 和 8 GiB 内存。", "search-api's numbers"),
        ("cross_language", "hallucinated", "baseless_addition", "一小时内 OOM 超过 3 次会呼叫支付值班，否则会通知 CTO。", "invented escalation"),
    ]),
    ("general", "这个订单发货了吗？", EN[2][2], [
        ("cross_language", "supported", None, "部分发货：12 袋面包粉已经通过 UPS 发出，6 包酵母还没发；预计 9 月 18 日送达。", ""),
        ("cross_language", "hallucinated", "flipped_negation", "已经全部发货，684.5 美元的货款也已付清。", "partially shipped, unpaid"),
        ("cross_language", "hallucinated", "changed_number", "12 袋面包粉和 3 包酵母已经发出。", "yeast shipped 0"),
    ]),
    ("general", "博物馆周一开门吗？", EN[3][2], [
        ("cross_language", "supported", None, "周一闭馆，除非赶上银行假日；周二到周日 10 点到 17 点开放。", ""),
        ("cross_language", "hallucinated", "changed_date", "周一正常开放，时间是 10:00 到 17:00。", "closed Mondays"),
        ("cross_language", "supported", None, "成人票 12 英镑，优惠票 9 英镑，16 岁以下免费。", "", "门票多少钱？"),
    ]),
    ("ops", "这次故障是什么原因？", EN[13][2], [
        ("cross_language", "supported", None, "内部支付网关的证书在 09:40 过期了；续期任务从 7 月 1 日起就一直静默失败，因为它的服务账号在 IAM 清理中丢了写权限。", ""),
        ("cross_language", "hallucinated", "changed_number", "故障期间有 83% 的结账请求失败。", "38%"),
        ("cross_language", "hallucinated", "wrong_attribution", "证书到期告警由 Tom Evans 负责。", "Priya Nair"),
    ]),
    ("general", "这次列车几点出发？", EN[11][2], [
        ("cross_language", "supported", None, "6 月 14 日（周五）早上 8:01 从伦敦圣潘克拉斯站出发，当地时间 11:20 到巴黎北站。", ""),
        ("cross_language", "hallucinated", "changed_date", "6 月 14 日早上 8:10 从伦敦出发。", "08:01"),
    ]),
]

MORE: list[tuple[str, Scenario]] = [
    ("en", ("ops", "When is the maintenance window?", [
        "Maintenance notice: the managed Kafka cluster kafka-prod-2 will be upgraded from 3.5 to 3.7 on Saturday 12 October between 01:00 and 05:00 UTC. Brokers are restarted one at a time, so producers may see elevated latency but no downtime is expected. Consumers using client versions older than 2.8 must be upgraded by 30 September, or they may fail to reconnect after the upgrade. Questions go to #platform-data.",
    ], [
        ("changed_time", "supported", None, "The upgrade of kafka-prod-2 to 3.7 is on Saturday 12 October, from 1 am to 5 am UTC, with brokers restarted one by one, so expect some extra latency but no downtime.", ""),
        ("changed_time", "supported", None, "Consumers on clients older than 2.8 need upgrading by 30 September, otherwise they might not reconnect after the upgrade.", "", "Do I need to do anything?"),
        ("changed_time", "hallucinated", "changed_date", "The kafka-prod-2 upgrade runs on Saturday 12 October between 01:00 and 07:00 UTC.", "ends 05:00"),
        ("changed_time", "hallucinated", "changed_date", "Clients older than 2.8 must be upgraded by 30 October.", "30 September", "Do I need to do anything?"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "Expect a full outage of kafka-prod-2 during the window.", "no downtime expected"),
        ("paraphrase", "supported", None, "No downtime is expected: the brokers restart one after another, though producers might notice higher latency for a while.", "", "Will there be downtime?"),
        ("issue_example", "hallucinated", "wrong_entity", "Producers using client versions older than 2.8 must be upgraded by 30 September.", "it is consumers, not producers", "Do I need to do anything?"),
        ("clause_addition", "supported", None, "The cluster goes from Kafka 3.5 to 3.7; any questions should go to #platform-data.", ""),
    ])),
    ("zh", ("ops", "这次维护窗口是什么时候？", [
        "维护通知：对象存储 oss-prod 将于 10 月 19 日（周六）00:00–04:00 进行网关节点滚动升级，期间上传和下载接口可用，但大文件分片上传可能出现个别分片重试。使用 SDK 3.2 以下版本的业务方须在 10 月 15 日前升级到 3.4，否则升级后签名校验可能失败。如有问题请联系 #storage-oncall。",
    ], [
        ("changed_time", "supported", None, "oss-prod 在 10 月 19 日周六凌晨 0 点到 4 点滚动升级网关节点，上传下载都能用，只是大文件分片上传可能会有个别分片重试。", ""),
        ("changed_time", "supported", None, "SDK 低于 3.2 的业务要在 10 月 15 日之前升到 3.4，不然升级后签名校验可能会失败。", "", "我们需要做什么？"),
        ("changed_time", "hallucinated", "changed_date", "使用 SDK 3.2 以下版本的业务方须在 10 月 19 日前升级到 3.4。", "10 月 15 日", "我们需要做什么？"),
        ("changed_time", "hallucinated", "changed_date", "升级时间是 10 月 19 日（周日）00:00–04:00。", "周六"),
        ("flipped_obligation", "hallucinated", "flipped_negation", "维护期间上传和下载接口都不可用，请提前安排。", "interfaces stay available"),
        ("paraphrase", "supported", None, "有问题可以在 #storage-oncall 找存储值班。", "", "有问题找谁？"),
    ])),
]


KEYS = (
    "id", "lang", "domain", "kind", "source", "split", "question", "context", "answer", "label",
    "hallucination_type", "note",
)


def _v2_rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    numbers: dict[tuple[str, str], int] = defaultdict(int)
    groups = (
        ("zh", ZH),
        ("en", EN),
        ("zh", ZH_EXTRA),
        ("en", CROSS_EN),
        ("zh", CROSS_ZH),
        *((lang, [scenario]) for lang, scenario in MORE),
    )
    for lang, scenarios in groups:
        for domain, question, context, items in scenarios:
            for item in items:
                kind, label, htype, answer, note = item[0], item[1], item[2], item[3], item[4]
                asked = item[5] if len(item) > 5 else question
                numbers[(lang, kind)] += 1
                rows.append(
                    {
                        "id": f"{lang}-{str(kind).replace('_', '-')}-{numbers[(lang, kind)]:03d}",
                        "lang": lang,
                        "domain": domain,
                        "kind": kind,
                        "source": "hand-v2",
                        "question": asked,
                        "context": list(context),
                        "answer": answer,
                        "label": label,
                        "hallucination_type": htype,
                        "note": note or f"supported ({kind})",
                    }
                )
    return rows


def _v1_rows() -> list[dict[str, object]]:
    rows = [json.loads(line) for line in OUT.read_text("utf-8").splitlines() if line.strip()]
    kept = [r for r in rows if r.get("source", "hand-v1") == "hand-v1"]
    for row in kept:
        row["kind"] = "qa"
        row["source"] = "hand-v1"
    return kept


def _assign_splits(rows: list[dict[str, object]]) -> None:
    units: dict[str, dict[str, list[dict[str, object]]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        units[str(row["kind"])][json.dumps(row["context"], ensure_ascii=False)].append(row)
    for by_context in units.values():
        sizes = {"tune": 0, "test": 0}
        order = sorted(by_context, key=lambda key: hashlib.sha256(key.encode()).hexdigest())
        for key in order:
            split = "tune" if sizes["tune"] <= sizes["test"] else "test"
            sizes[split] += len(by_context[key])
            for row in by_context[key]:
                row["split"] = split


def build() -> str:
    rows = _v1_rows() + _v2_rows()
    _assign_splits(rows)
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise SystemExit("duplicate ids")
    return "".join(json.dumps({k: r[k] for k in KEYS}, ensure_ascii=False) + "\n" for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when the file differs")
    args = parser.parse_args()
    text = build()
    if args.check:
        if OUT.read_text("utf-8") != text:
            sys.exit(f"{OUT} is out of date: run python benchmarks/build_check_dev.py")
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} items to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

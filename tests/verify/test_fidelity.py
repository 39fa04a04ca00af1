"""Deterministic fidelity checks: extraction, question → plan constraints, claim → evidence signals."""

from __future__ import annotations

import dataclasses

import pytest

from groundgate.verify.fidelity import (
    ISSUE_CODES,
    FidelityIssue,
    Mention,
    Mentions,
    check_claim,
    compare_constraints,
    extract,
    negation_cues,
    polarity,
)


def only(text: str, kind: str) -> Mention:
    """The single mention of `kind` in `text`."""
    found = extract(text).of(kind)  # type: ignore[arg-type]
    assert len(found) == 1, f"{kind} in {text!r}: {found}"
    return found[0]


def codes(issues: list[FidelityIssue]) -> list[tuple[str, str]]:
    return [(i.code, i.severity) for i in issues]


def claim_codes(claim: str, evidence: str, **kwargs: str) -> list[tuple[str, str]]:
    return codes(check_claim(claim, evidence, evidence, **kwargs))


# =========================================================================== extraction


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("5000元", 5000.0, "CNY"),
        ("¥5,000", 5000.0, "CNY"),
        ("￥５，０００", 5000.0, "CNY"),
        ("5千元", 5000.0, "CNY"),
        ("5千", 5000.0, None),
        ("5k", 5000.0, None),
        ("$5k", 5000.0, "USD"),
        ("USD 1,200.50", 1200.5, "USD"),
        ("1.2万", 12000.0, None),
        ("3亿", 300_000_000.0, None),
        ("五千元", 5000.0, "CNY"),
        ("两百元", 200.0, "CNY"),
        ("一万二千元", 12000.0, "CNY"),
        ("5000 yuan", 5000.0, "CNY"),
        ("RMB 800", 800.0, "CNY"),
        ("800块", 800.0, "CNY"),
        ("2 千元", 2000.0, "CNY"),
        ("€30", 30.0, "EUR"),
        ("$1.2B", 1_200_000_000.0, "USD"),
        ("five thousand dollars", 5000.0, "USD"),
    ],
)
def test_amounts_are_normalised(text: str, value: float, currency: str | None) -> None:
    m = only(text, "amount")
    assert m.value == pytest.approx(value)
    assert m.unit == currency


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("15%", 15.0, "%"),
        ("15％", 15.0, "%"),
        ("百分之十五", 15.0, "%"),
        ("百分之15", 15.0, "%"),
        ("15 percent", 15.0, "%"),
        ("0.5个百分点", 0.5, "pp"),
        ("0.5 percentage points", 0.5, "pp"),
        ("千分之五", 0.5, "%"),
    ],
)
def test_percentages_and_points_are_distinct(text: str, value: float, unit: str) -> None:
    m = only(text, "percent")
    assert m.value == pytest.approx(value)
    assert m.unit == unit


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("2分钟", 120.0),
        ("120秒", 120.0),
        ("2 minutes", 120.0),
        ("120 s", 120.0),
        ("2.5s", 2.5),
        ("200 ms", 0.2),
        ("30天", 30 * 86400.0),
        ("3 days", 3 * 86400.0),
        ("两个半小时", 9000.0),
        ("半小时", 1800.0),
        ("2 hours 7 minutes 48 seconds", 7668.0),
        ("1分30秒", 90.0),
        ("2h30m", 9000.0),
        ("three days", 3 * 86400.0),
    ],
)
def test_durations_are_in_seconds(text: str, seconds: float) -> None:
    m = only(text, "duration")
    assert m.unit == "s"
    assert m.value == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("5 个工作日", 5.0, "workday"),
        ("5 business days", 5.0, "workday"),
        ("3个月", 3.0, "month"),
        ("半年", 6.0, "month"),
        ("2 years", 24.0, "month"),
    ],
)
def test_calendar_durations_keep_their_unit(text: str, value: float, unit: str) -> None:
    m = only(text, "duration")
    assert (m.value, m.unit) == (pytest.approx(value), unit)


@pytest.mark.parametrize(
    ("text", "size_bytes"),
    [("512MB", 512 * 1024**2), ("0.5 GB", 512 * 1024**2), ("2 GB", 2 * 1024**3), ("512M内存", 512 * 1024**2)],
)
def test_data_sizes_are_in_bytes(text: str, size_bytes: int) -> None:
    assert only(text, "size").value == pytest.approx(size_bytes)


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("3次", 3.0, "times"),
        ("重试 three times", 3.0, "times"),
        ("3台服务器", 3.0, "台"),
        ("500 QPS", 500.0, "qps"),
    ],
)
def test_counts_keep_their_classifier(text: str, value: float, unit: str) -> None:
    m = only(text, "count")
    assert (m.value, m.unit) == (value, unit)


def test_small_counts_written_as_words_are_marked_spelled() -> None:
    assert only("three retries", "count").spelled
    assert only("重试三次", "count").spelled
    assert not only("重试3次", "count").spelled


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("2026年3月", "date", "2026-03"),
        ("2026-03-15", "date", "2026-03-15"),
        ("2026年3月15日", "date", "2026-03-15"),
        ("3月15日", "date", "--03-15"),
        ("March 15, 2026", "date", "2026-03-15"),
        ("15 March 2026", "date", "2026-03-15"),
        ("Q3", "date", "Q3"),
        ("2026年第三季度", "date", "2026-Q3"),
        ("third quarter of 2026", "date", "2026-Q3"),
        ("2026年上半年", "date", "2026-H1"),
        ("上个月", "period", "relative:month:-1"),
        ("本月", "period", "relative:month:+0"),
        ("下个月", "period", "relative:month:+1"),
        ("去年", "period", "relative:year:-1"),
        ("last month", "period", "relative:month:-1"),
        ("next quarter", "period", "relative:quarter:+1"),
        ("last_month", "period", "relative:month:-1"),
        ("最近7天", "period", "relative:last:day:7"),
        ("past 7 days", "period", "relative:last:day:7"),
        ("近一周", "period", "relative:last:day:7"),
        ("下周一", "period", "relative:week:+1:weekday:1"),
        ("周一", "date", "weekday:1"),
        ("Monday", "date", "weekday:1"),
        ("14:30", "time", "14:30"),
        ("下午3点", "time", "15:00"),
        ("下午三点半", "time", "15:30"),
        ("3:30 pm", "time", "15:30"),
    ],
)
def test_dates_periods_and_times(text: str, kind: str, value: str) -> None:
    assert only(text, kind).value == value


@pytest.mark.parametrize(
    ("text", "comparator"),
    [
        ("不超过5000元", "<="),
        ("不高于5000元", "<="),
        ("最多5000元", "<="),
        ("5000元以内", "<="),
        ("≤ 5000元", "<="),
        ("at most $500", "<="),
        ("no more than $500", "<="),
        ("up to $500", "<="),
        ("至少5000元", ">="),
        ("不少于5000元", ">="),
        ("5000元以上", ">="),
        (">= $500", ">="),
        ("at least $500", ">="),
        ("超过5000元", ">"),
        ("more than $500", ">"),
        ("exceeds $500", ">"),
        ("低于5000元", "<"),
        ("不到5000元", "<"),
        ("less than $500", "<"),
        ("under $500", "<"),
    ],
)
def test_comparators_attach_to_the_amount_they_govern(text: str, comparator: str) -> None:
    amount = only(text, "amount")
    assert amount.comparator == comparator
    assert only(text, "comparator").qualifier == "attached"


@pytest.mark.parametrize(
    ("text", "comparator"),
    [
        ("3天以内", "<="),
        ("within 30 days", "<="),
        ("至少重试 3 次", ">="),
        ("在3月15日之前", "<"),
        ("before March 15", "<"),
    ],
)
def test_comparators_on_durations_counts_and_dates(text: str, comparator: str) -> None:
    value = next(m for m in extract(text) if m.kind != "comparator")
    assert value.comparator == comparator


@pytest.mark.parametrize(
    ("text", "low", "high", "qualifier"),
    [
        ("3-5天", 3 * 86400.0, 5 * 86400.0, "duration"),
        ("3到5天", 3 * 86400.0, 5 * 86400.0, "duration"),
        ("三到五天", 3 * 86400.0, 5 * 86400.0, "duration"),
        ("between 3 and 5 days", 3 * 86400.0, 5 * 86400.0, "duration"),
        ("3 to 5 days", 3 * 86400.0, 5 * 86400.0, "duration"),
        ("5千到1万元", 5000.0, 10000.0, "amount"),
        ("2000 元（含）至 10000 元", 2000.0, 10000.0, "amount"),
        ("10%-20%", 10.0, 20.0, "percent"),
    ],
)
def test_ranges(text: str, low: float, high: float, qualifier: str) -> None:
    m = only(text, "range")
    assert m.value == (pytest.approx(low), pytest.approx(high))
    assert m.qualifier == qualifier


@pytest.mark.parametrize(
    ("text", "value", "product"),
    [
        ("v2.3.1", "2.3.1", None),
        ("2.3.1", "2.3.1", None),
        ("version 2.3", "2.3", None),
        ("版本 3.2", "3.2", None),
        ("Java 17", "17", "java"),
        ("JDK 17", "17", "java"),
        ("PostgreSQL 15", "15", "postgresql"),
        ("v3.0", "3", None),
    ],
)
def test_versions(text: str, value: str, product: str | None) -> None:
    m = only(text, "version")
    assert (m.value, m.qualifier) == (value, product)


@pytest.mark.parametrize(
    ("text", "value", "sort"),
    [
        ("ERR_TIMEOUT", "ERR_TIMEOUT", "error_code"),
        ("E1001", "E1001", "error_code"),
        ("HTTP 504", "HTTP 504", "http_status"),
        ("状态码 504", "HTTP 504", "http_status"),
        ("504 Gateway Timeout", "HTTP 504", "http_status"),
        ("ORA-00060", "ORA-00060", "error_code"),
        ("0x80070005", "0x80070005", "error_code"),
        ("PAY-4031", "PAY-4031", "error_code"),
        ("错误码：1001", "1001", "error_code"),
        ("/api/v1/orders", "/api/v1/orders", "path"),
        ("GET /pay/callback", "GET /pay/callback", "path"),
        ("payment-gateway", "payment-gateway", "service"),
        ("order_service", "order_service", "config_key"),
        ("OrderService", "OrderService", "service"),
        ("db.pool.max_size", "db.pool.max_size", "config_key"),
        ("redis-cluster-01", "redis-cluster-01", "service"),
        ("4bf92f3577b34da6a3ce929d0e0e4736", "4bf92f3577b34da6a3ce929d0e0e4736", "trace_id"),
        ("3f2a1b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b", "3f2a1b4c-1d2e-4f50-8a9b-0c1d2e3f4a5b", "trace_id"),
        ("10.0.0.12:8080", "10.0.0.12:8080", "ip"),
        ("api.example.com", "api.example.com", "host"),
    ],
)
def test_identifiers(text: str, value: str, sort: str) -> None:
    m = only(text, "identifier")
    assert (m.value, m.qualifier) == (value, sort)


@pytest.mark.parametrize(
    "text",
    ["API CPU HR SQL", "read-only real-time follow-up", "e.g. i.e.", "JavaScript PostgreSQL"],
)
def test_acronyms_and_ordinary_words_are_not_identifiers(text: str) -> None:
    assert extract(text).of("identifier") == ()


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("ERR_504", ["identifier"]),
        ("v2.3.1", ["version"]),
        ("2026-03-15", ["date"]),
        ("/api/v1/orders", ["identifier"]),
        ("PAY-4031", ["identifier"]),
        ("10.0.0.12", ["identifier"]),
    ],
)
def test_numbers_inside_identifiers_are_not_free_numbers(text: str, kinds: list[str]) -> None:
    assert [m.kind for m in extract(text)] == kinds


@pytest.mark.parametrize(
    "text", ["1. 重启服务", "第一步：重启", "第3次重试", "Step 2: restart", "(1) 检查日志"]
)
def test_ordinal_list_numbers_are_not_quantities(text: str) -> None:
    assert [m for m in extract(text) if m.kind in {"number", "count"}] == []


@pytest.mark.parametrize(
    ("text", "cues"),
    [
        ("无需审批", ["无需"]),
        ("报销不需要审批", ["不需要"]),
        ("未发现异常", ["未"]),
        ("禁止在高峰期执行", ["禁止"]),
        ("并非如此", ["并非"]),
        ("不得超过规定用途使用", []),  # 不得超过 is a comparator
        ("不断重试", []),
        ("无线网络", []),
        ("非常重要", []),
        ("不仅要快", []),
        ("无论如何", []),
        ("毫无疑问", []),
        ("不得不重启", []),
        ("not required", ["not"]),
        ("can't connect", ["can't"]),
        ("doesn't support refunds", ["doesn't"]),
        ("no longer supported", ["no longer"]),
        ("neither A nor B", ["neither"]),
        ("without renewal", ["without"]),
        ("not only fast", []),
        ("no doubt", []),
        ("no more than 5", []),
        ("No. E2305 means a ledger error", []),
    ],
)
def test_negation_cues_and_exceptions(text: str, cues: list[str]) -> None:
    assert [m.value for m in negation_cues(text)] == cues


def test_double_negation_cancels_in_polarity() -> None:
    assert polarity("不能退款") == -1
    assert polarity("不是不能退款") == 1
    assert polarity("可以退款") == 1


@pytest.mark.parametrize(
    "text",
    [
        "根据支付网关 payment-gateway 的日志，ERR_TIMEOUT 在上个月出现了 3 次，单笔报销不超过 5,000 元。",
        "ﬁle ERR_TIMEOUT ㍻ 5000元 ２０２６年３月１５日 at 14:30",  # NFKC changes lengths here
        "P99 latency exceeded 200 ms on 2026-03-15; v2.3.1 returned HTTP 504 for $500.",
    ],
)
def test_every_mention_points_at_its_span_in_the_original_text(text: str) -> None:
    mentions = extract(text)
    assert len(mentions) >= 3
    for m in mentions:
        assert text[m.start : m.end] == m.text
        assert m.text.strip() == m.text


def test_full_width_text_normalises_like_half_width() -> None:
    assert only("不超过５０００元", "amount").value == only("不超过5000元", "amount").value
    assert only("２０２６年３月１５日", "date").value == "2026-03-15"
    assert only("ＥＲＲ＿ＴＩＭＥＯＵＴ", "identifier").value == "ERR_TIMEOUT"


def test_mentions_are_immutable_and_extract_is_cached() -> None:
    text = "单笔不超过5000元，ERR_TIMEOUT"
    first = extract(text)
    assert extract(text) is first
    assert isinstance(first, Mentions)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.items[0].value = 1.0  # type: ignore[misc]
    assert first.values("amount") == [5000.0]
    assert len(first) == len(list(first)) == len(first.items)


# =========================================================================== use (b): claim against evidence

PAYMENT_EVIDENCE = (
    "支付网关 payment-gateway 返回 ERR_TIMEOUT，表示上游银行通道超时。"
    "单笔报销不超过5000元，审批需3-5个工作日。超时时间为30秒，2026年3月15日起生效。"
    "当前版本 v2.3.1，运行在 Java 17 上。报销无需审批的情形见附录。"
)
EN_EVIDENCE = (
    "Refunds above $500 need approval within 2 business days. The timeout is 120 s. "
    "Storage is capped at 512 MB. Approval is not required for refunds under $50. "
    "The change window opens on March 15, 2026 at 14:30."
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("ERR_TIMEOUT 来自支付网关 payment-gateway。", PAYMENT_EVIDENCE),
        ("单笔报销不超过5,000元。", PAYMENT_EVIDENCE),
        ("单笔报销最多5千元。", PAYMENT_EVIDENCE),
        ("单笔报销不超过¥５,０００。", PAYMENT_EVIDENCE),
        ("审批需要3到5个工作日。", PAYMENT_EVIDENCE),
        ("自2026-03-15起生效。", PAYMENT_EVIDENCE),
        ("超时时间为半分钟。", PAYMENT_EVIDENCE),
        ("当前版本 2.3.1，运行在 JDK 17 上。", PAYMENT_EVIDENCE),
        ("Refunds over USD 500 need approval within two business days.", EN_EVIDENCE),
        ("The timeout is 2 minutes.", EN_EVIDENCE),
        ("Storage is capped at 0.5 GB.", EN_EVIDENCE),
        ("The change window opens at 2:30 pm on 2026-03-15.", EN_EVIDENCE),
        ("Approval is not required for refunds under $50.", EN_EVIDENCE),
        ("下午3点开始维护", "维护窗口 15:00 开始"),
        ("Q3 2026 revenue grew", "2026年第三季度营收增长"),
        ("last month the error rate rose", "上个月错误率上升"),
        ("the gateway returned HTTP 504", "网关返回 504 Gateway Timeout"),
        ("payment_gateway times out", "payment-gateway 超时"),
        ("错误率为百分之十五", "错误率为 15%"),
        ("延迟不断升高", "延迟持续升高"),
        ("不是不能退款", "可以退款"),
        ("2026-03-15 is a Sunday.", "Maintenance on 2026-03-15."),
        ("平均水深 6.8 米，不到 7 米。", "湖的平均水深 6.8 米。"),
    ],
)
def test_restatements_raise_no_issue(claim: str, evidence: str) -> None:
    assert check_claim(claim, evidence, evidence) == []


def test_seed_example_fabricated_error_code_is_a_contradiction() -> None:
    issues = check_claim("错误码 ERR_GATEWAY_TIMEOUT 来自支付网关", PAYMENT_EVIDENCE, PAYMENT_EVIDENCE)
    assert codes(issues) == [("identifier_not_in_evidence", "contradiction")]
    assert "ERR_GATEWAY_TIMEOUT" in issues[0].detail
    assert issues[0].claim_mention == "ERR_GATEWAY_TIMEOUT"


def test_seed_example_at_most_becomes_at_least() -> None:
    issues = check_claim("单笔报销至少5000元", PAYMENT_EVIDENCE, PAYMENT_EVIDENCE)
    assert codes(issues) == [("comparator_changed", "contradiction")]
    assert "at least 5000 CNY" in issues[0].detail
    assert "at most 5000 CNY" in issues[0].detail


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("Approval is not required for refunds.", "Approval is required for refunds.", "not required"),
        ("Approval is required for refunds.", "Approval is not required for refunds.", "not required"),
        ("报销无需审批", "报销需要审批", "无需审批"),
        ("报销需要审批", "报销无需审批", "无需审批"),
        ("该接口不支持退款", "该接口支持退款和查询", "不支持"),
        (
            "The service never retries failed payments.",
            "The service retries failed payments three times.",
            "never",
        ),
        ("不是不能退款", "不能退款", "不能退款"),
    ],
)
def test_negation_flip(claim: str, evidence: str, expected: str) -> None:
    issues = check_claim(claim, evidence, evidence)
    assert codes(issues) == [("negation_flip", "contradiction")]
    assert expected in issues[0].detail


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "重启后服务恢复正常",
            "重启后服务恢复正常，未发现异常",
        ),  # the cue negates something the claim never says
        ("VPN isn't granted before that.", "VPN access is only granted once the training is complete."),
        ("高峰期外在非高峰时段执行", "禁止在高峰期执行；扩容在非高峰期执行。"),
        # two negations apart in one sentence do not cancel: it is unknown, said twice
        (
            "It's not known if his record had anything to do with his arrest.",
            "What we don't know: It's not known whether his record had anything to do with his arrest.",
        ),
        # the cue's first word is light; the word both sides negate agrees
        (
            "报表库每周六做全量备份，没有 binlog 备份。",
            "报表库每周六 03:00 做一次全量备份，不做 binlog 备份。",
        ),
        (
            "No group has claimed responsibility, but Boko Haram is suspected.",
            "Although no one has claimed responsibility for the attack, the group is the main suspect.",
        ),
        # `No 2` is a rank
        ("The world No 2 has been resting.", "The world number 2 has been resting."),
    ],
)
def test_negation_on_other_words_is_not_a_flip(claim: str, evidence: str) -> None:
    assert [c for c, _ in claim_codes(claim, evidence)] == []


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("单笔报销不超过8000元。", PAYMENT_EVIDENCE, ("number_mismatch", "contradiction")),
        ("Refunds over $800 need approval.", EN_EVIDENCE, ("number_mismatch", "contradiction")),
        ("超时时间为60秒。", PAYMENT_EVIDENCE, ("number_mismatch", "contradiction")),
        ("重试5次后放弃", "重试 3 次后放弃", ("number_mismatch", "contradiction")),
        ("单笔报销不超过5000美元。", PAYMENT_EVIDENCE, ("currency_mismatch", "contradiction")),
        ("Refunds over €500 need approval.", EN_EVIDENCE, ("currency_mismatch", "contradiction")),
        ("超时时间为30分钟。", PAYMENT_EVIDENCE, ("unit_mismatch", "contradiction")),
        ("The timeout is 120 minutes.", EN_EVIDENCE, ("unit_mismatch", "contradiction")),
        ("审批需要3-5天。", PAYMENT_EVIDENCE, ("unit_mismatch", "contradiction")),
        ("错误率为15%", "错误率上升 15 个百分点", ("unit_mismatch", "contradiction")),
        ("Refunds under $500 need approval.", EN_EVIDENCE, ("comparator_changed", "contradiction")),
        ("单笔报销超过５０００元。", PAYMENT_EVIDENCE, ("comparator_changed", "contradiction")),
        ("自2026年3月16日起生效。", PAYMENT_EVIDENCE, ("date_mismatch", "contradiction")),
        ("The change window opens on March 16, 2026.", EN_EVIDENCE, ("date_mismatch", "contradiction")),
        ("每周一发布", "每周五发布", ("date_mismatch", "contradiction")),
        ("14:30 发布", "15:30 发布", ("date_mismatch", "contradiction")),
        ("本月错误率上升", "上个月错误率上升", ("date_mismatch", "contradiction")),
        ("当前版本 v2.4.0。", PAYMENT_EVIDENCE, ("version_mismatch", "contradiction")),
        ("It runs on Java 21.", PAYMENT_EVIDENCE, ("version_mismatch", "contradiction")),
        ("Upgrade to Redis 7.", "redis 版本为 6.2", ("version_mismatch", "contradiction")),
        (
            "Node.js 20 is used.",
            "The service is written in Go.",
            ("version_not_in_evidence", "contradiction"),
        ),
        (
            "order-service 返回 ERR_TIMEOUT。",
            PAYMENT_EVIDENCE,
            ("identifier_not_in_evidence", "contradiction"),
        ),
        (
            "POST /api/v2/orders 超时",
            "接口 /api/v1/orders 超时",
            ("identifier_not_in_evidence", "contradiction"),
        ),
        ("重试5次后放弃", "超时后放弃", ("number_not_in_evidence", "contradiction")),
        (
            "The outage lasted 47 minutes.",
            "The outage affected EU users.",
            ("number_not_in_evidence", "contradiction"),
        ),
        (
            "2026-03-15 is a Monday.",
            "Maintenance on 2026-03-15.",
            ("number_not_in_evidence", "contradiction"),
        ),
    ],
)
def test_contradiction_signals(claim: str, evidence: str, expected: tuple[str, str]) -> None:
    assert claim_codes(claim, evidence) == [expected]


@pytest.mark.parametrize(
    ("claim", "evidence", "expected"),
    [
        ("重试了三次", "重试后放弃", ("number_not_in_evidence", "warning")),  # small count in words
        ("It retried three times.", "It gave up after a timeout.", ("number_not_in_evidence", "warning")),
        ("重试了两次", "重试 5 次", ("number_mismatch", "warning")),
        (
            "故障持续大约45分钟",
            "故障从14:05持续到14:47",
            ("number_not_in_evidence", "warning"),
        ),  # an estimate
        ("也就是说上一代售价为3699元", "售价 3299 元", ("number_mismatch", "warning")),  # a derived figure
        ("上个月错误率上升", "错误率上升", ("number_not_in_evidence", "warning")),  # relative period
    ],
)
def test_weak_signals_are_warnings(claim: str, evidence: str, expected: tuple[str, str]) -> None:
    assert claim_codes(claim, evidence) == [expected]


def test_a_time_of_day_matches_the_same_minute_with_seconds() -> None:
    evidence = "2024-05-08 03:13:02 INFO rebalance completed"
    assert check_claim("3:13 rebalance 结束", evidence, evidence) == []
    assert claim_codes("3:15 rebalance 结束", evidence) == [("date_mismatch", "contradiction")]


def test_a_parenthetical_restatement_is_only_a_warning() -> None:
    evidence = "证书到期前 30 天自动生成提醒工单。"
    assert claim_codes("到期前 30 天（10 月 16 日）会生成提醒工单", evidence) == [
        ("number_not_in_evidence", "warning")
    ]
    assert claim_codes("10 月 16 日会生成提醒工单", evidence) == [("number_not_in_evidence", "contradiction")]


def test_a_relative_period_may_be_the_date_the_evidence_gives() -> None:
    assert check_claim("上个月错误率上升", "2026年2月错误率上升", "2026年2月错误率上升") == []


def test_values_the_user_stated_count_as_given() -> None:
    evidence = "Overtime is paid for hours beyond 40 in a workweek."
    assert claim_codes("You worked 44 hours, so 4 are overtime.", evidence) != []
    assert (
        check_claim("You worked 44 hours.", evidence, evidence, question="I worked 44 hours last week.") == []
    )


def test_a_value_anywhere_in_the_evidence_is_found() -> None:
    aligned = "超时时间为30秒。"
    everything = aligned + "重试间隔为 5 分钟。"
    assert check_claim("重试间隔为5分钟", aligned, everything) == []


def test_the_aligned_evidence_decides_between_mismatch_and_absence() -> None:
    aligned, everything = "单笔报销不超过5000元。", "单笔报销不超过5000元。差旅另计。"
    assert codes(check_claim("单笔报销不超过6000元", aligned, everything)) == [
        ("number_mismatch", "contradiction")
    ]
    assert codes(check_claim("单笔报销不超过6000元", "差旅另计。", everything)) == [
        ("number_not_in_evidence", "contradiction")
    ]


def test_issue_details_name_both_values() -> None:
    (issue,) = check_claim("Refunds over €500 need approval.", EN_EVIDENCE, EN_EVIDENCE)
    assert "EUR" in issue.detail
    assert "USD" in issue.detail
    assert issue.claim_mention == "€500"
    assert issue.evidence_mention == "$500"
    assert issue.code in ISSUE_CODES


# =========================================================================== use (a): question against plan

QUESTION = "上个月报销金额不超过5000元的单据有哪些？"


@pytest.mark.parametrize(
    ("question", "plan"),
    [
        (QUESTION, "查询上个月金额不超过5000元的报销单"),
        (QUESTION, "查询上月金额最多5千元的报销单"),
        (
            QUESTION,
            '{"tool": "query_expenses", "arguments": {"period": "last_month", "amount_max": 5000, "currency": "CNY"}}',
        ),
        (QUESTION, "query expenses of last month with amount <= 5000 CNY"),
        ("哪些报销无需审批？", "查询无需审批的报销单"),
        (
            "Which orders over $500 failed last week with HTTP 504?",
            "query_orders(amount > 500 USD, period=last week, status=HTTP 504)",
        ),
        ("PostgreSQL 15 出现 ORA-00060 怎么办", "lookup_knowledge: ORA-00060 on PostgreSQL 15"),
        ("2026年第三季度的退款率超过 5% 吗", "query_metrics(refund_rate, 2026-Q3, > 5%)"),
        (
            "payment-gateway 最近7天的 P99 延迟",
            "query_metrics(service=payment-gateway, range=last 7 days, p99)",
        ),
    ],
)
def test_constraints_kept_by_the_plan(question: str, plan: str) -> None:
    assert compare_constraints(question, plan) == []


def test_seed_example_last_month_lost_in_the_plan() -> None:
    issues = compare_constraints(QUESTION, "查询金额不超过5000元的报销单")
    assert codes(issues) == [("constraint_lost", "contradiction")]
    assert issues[0].claim_mention == "上个月"
    assert "relative:month:-1" in issues[0].detail


def test_seed_example_comparator_flipped_in_the_plan() -> None:
    issues = compare_constraints(QUESTION, "查询上个月金额至少5000元的报销单")
    assert codes(issues) == [("comparator_changed", "contradiction")]
    assert issues[0].evidence_mention == "5000元"


@pytest.mark.parametrize(
    ("question", "plan", "expected"),
    [
        (QUESTION, "查询本月金额不超过5000元的报销单", ("date_mismatch", "contradiction")),
        (QUESTION, "查询上个月金额不超过8000元的报销单", ("number_mismatch", "contradiction")),
        (QUESTION, "查询上个月金额不超过5000美元的报销单", ("currency_mismatch", "contradiction")),
        (
            QUESTION,
            '{"period": "last_month", "amount": 5000, "currency": "USD"}',
            ("comparator_changed", "contradiction"),
        ),
        ("哪些报销无需审批？", "查询需要审批的报销单", ("negation_flip", "contradiction")),
        (
            "Which refunds do not require approval?",
            "list refunds that require approval",
            ("negation_flip", "contradiction"),
        ),
        (
            "PostgreSQL 15 出现死锁怎么办",
            "lookup_knowledge: PostgreSQL 14 deadlock",
            ("version_mismatch", "contradiction"),
        ),
        ("ERR_TIMEOUT 是什么意思", "lookup_knowledge: 支付超时", ("constraint_lost", "contradiction")),
        ("超时 30 秒的请求有哪些", "查询超时 30 分钟的请求", ("unit_mismatch", "contradiction")),
        (
            "Which orders failed between 3 and 5 days ago?",
            "query_orders(age 3-7 days)",
            ("number_mismatch", "contradiction"),
        ),
        ("Orders from March 15, 2026?", "query_orders(date=2026-03-16)", ("date_mismatch", "contradiction")),
        ("延迟超过阈值的服务有哪些？", "查询延迟低于阈值的服务", ("comparator_changed", "contradiction")),
    ],
)
def test_constraints_changed_by_the_plan(question: str, plan: str, expected: tuple[str, str]) -> None:
    assert expected in codes(compare_constraints(question, plan))


def test_a_plan_that_drops_the_currency_gets_a_warning() -> None:
    issues = compare_constraints(QUESTION, '{"period": "last_month", "amount_max": 5000}')
    assert codes(issues) == [("constraint_lost", "warning")]
    assert "CNY" in issues[0].detail


def test_a_plan_that_drops_a_plain_count_gets_a_warning() -> None:
    assert codes(compare_constraints("列出最近失败的 3 个订单", "query_orders(status=failed)")) == [
        ("constraint_lost", "warning")
    ]


def test_a_plan_without_any_negation_gets_a_warning_for_a_lost_one() -> None:
    assert codes(compare_constraints("哪些报销无需审批？", "query_expenses(type=reimbursement)")) == [
        ("constraint_lost", "warning")
    ]


# =========================================================================== the issue record, speed


def test_issues_are_frozen_records_with_known_codes() -> None:
    issues = check_claim("单笔报销至少5000元", PAYMENT_EVIDENCE, PAYMENT_EVIDENCE)
    assert all(i.code in ISSUE_CODES and i.severity in {"contradiction", "warning"} for i in issues)
    with pytest.raises(dataclasses.FrozenInstanceError):
        issues[0].code = "other"  # type: ignore[misc]


# =========================================================================== long evidence

#: Filler with no figure, date, identifier or negation: padding evidence with it changes nothing.
_FILLER = "\n" + "这段说明与问题无关，只是很长的背景介绍。" * 150


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("发布在2026年3月15日进行。", "发布时间：2026-03-15 22:00。"),
        ("发布在2026年3月16日进行。", "发布时间：2026-03-15 22:00。"),
        ("发布在3月15日进行。", "发布时间：2026-03-15。"),
        ("故障在14:05开始。", "告警 14:05:31 触发，14:32 恢复。"),
        ("故障在14:06开始。", "告警 14:05:31 触发，14:32 恢复。"),
        ("审批需要半个月。", "审批周期为15天。"),
        ("保留近7天的日志。", "日志保留7天。"),
        ("变更在周二晚上进行。", "变更窗口：2026-03-17 晚上。"),
        ("The outage lasted 2 hours 7 minutes 48 seconds.", "Downtime: 2:07:48 in total."),
        ("Logs are kept for 14 days.", "Retention is two weeks for logs, 30 days for metrics."),
        ("The rollout was on Q3 2026.", "Rollout: 2026-Q3, then 2026-Q4."),
    ],
)
def test_padding_the_evidence_with_unrelated_text_changes_no_finding(claim: str, evidence: str) -> None:
    """A long evidence text is looked up through sorted and keyed indexes instead of scans."""
    short = codes(check_claim(claim, evidence, evidence))
    padded = evidence + _FILLER
    assert len(padded) > 2_000
    assert codes(check_claim(claim, evidence, padded)) == short
    assert codes(check_claim(claim, padded, padded)) == short


def test_a_claim_with_hundreds_of_figures_is_checked_in_bounded_time() -> None:
    """Only the first `MAX_CLAIM_MENTIONS` mentions are compared; the checker then fails closed."""
    from groundgate.verify.fidelity import MAX_CLAIM_MENTIONS

    claim = "，".join(f"{n}元" for n in range(1, 2_000))
    issues = check_claim(claim, "费用为 5 元。", "费用为 5 元。")
    assert 0 < len(issues) <= MAX_CLAIM_MENTIONS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("晚上 6:30 闭园", "18:30"),
        ("下午 3:00 开会", "15:00"),
        ("上午 9:30 开门", "09:30"),
        ("深夜 1:30 告警", "01:30"),
    ],
)
def test_a_daypart_before_a_digit_clock_sets_its_half_of_the_day(text: str, value: str) -> None:
    (clock,) = [m for m in extract(text).items if m.kind == "time"]
    assert clock.value == value


@pytest.mark.parametrize(
    ("claim", "evidence", "changed"),
    [
        ("带宽上限 200 MB/s", "带宽上限 200 Mbps", True),  # megabytes are eight times megabits
        ("实测上传大约每秒 23 MB，换算下来约 184 Mbps", "当前实测: 上传约 23 MB/s", False),
        ("upgrade to the 1,000 Mbps plan", "增强型（带宽上限 1 Gbps）", False),
    ],
)
def test_data_rates_are_compared_in_bits_per_second(claim: str, evidence: str, changed: bool) -> None:
    codes = {i.code for i in check_claim(claim, evidence, evidence)}
    assert ("number_mismatch" in codes or "unit_mismatch" in codes) is changed, codes


@pytest.mark.parametrize(
    ("claim", "evidence", "shown"),
    [
        # a hedged figure worked out from two others, rounded as it is written
        (
            "it has used 38.9 of 21.6 minutes, about 17 minutes more than allowed",
            "budget 21.6 min, used 38.9 min",
            True,
        ),
        (
            "it has used 38.9 of 21.6 minutes, about 19 minutes more than allowed",
            "budget 21.6 min, used 38.9 min",
            False,
        ),
        (
            "On $2,500 at 2.15% that works out to roughly $54 a year.",
            "Plus Saver: minimum $2,500, APY 2.15%",
            True,
        ),
        (
            "On $2,500 at 2.15% that works out to roughly $60 a year.",
            "Plus Saver: minimum $2,500, APY 2.15%",
            False,
        ),
    ],
)
def test_a_hedged_worked_figure_is_read_at_the_precision_it_is_written(
    claim: str, evidence: str, shown: bool
) -> None:
    codes = {i.code for i in check_claim(claim, evidence, evidence)}
    assert (not codes & {"number_mismatch", "number_not_in_evidence"}) is shown, codes


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("晚上七点四十到九点零五分", ["19:40", "21:05"]),  # minutes without 分; the range keeps the evening
        ("7点40出发", ["07:40"]),
        ("下午三点半", ["15:30"]),
        ("三点二十个人", []),  # twenty people, no clock
    ],
)
def test_a_chinese_clock_time_may_give_its_minutes_without_fen(text: str, times: list[str]) -> None:
    assert [m.value for m in extract(text) if m.kind == "time"] == times


@pytest.mark.parametrize(
    ("text", "percent"),
    [
        ("百分之三点五", 3.5),
        ("千分之一点五", 0.15),
        ("万分之十五", 0.15),
        ("万分之一点五", 0.015),
        ("千分之六", 0.6),
    ],
)
def test_chinese_fractions_of_a_hundred_thousand_and_ten_thousand_keep_their_decimals(
    text: str, percent: float
) -> None:
    (m,) = [m for m in extract(text) if m.kind == "percent"]
    assert m.value == pytest.approx(percent)


@pytest.mark.parametrize(
    ("claim", "evidence", "shown"),
    [
        ("充电 2180 千瓦时，放电 1960 千瓦时", "charged 2.18 MWh, discharged 1.96 MWh", True),
        ("充电 2810 千瓦时", "charged 2.18 MWh", False),
        ("医保统筹付八成五，自己承担一成半", "统筹基金支付 85%，个人自付 15%", True),
        (
            "At $0.21 per kWh that comes to $128.52 for the energy.",
            "Usage: 612 kWh. Rate: $0.21 per kWh.",
            True,
        ),
        (
            "At $0.21 per kWh that comes to $138.52 for the energy.",
            "Usage: 612 kWh. Rate: $0.21 per kWh.",
            False,
        ),
    ],
)
def test_energy_tenths_of_cheng_and_priced_quantities_are_compared_by_value(
    claim: str, evidence: str, shown: bool
) -> None:
    codes = {i.code for i in check_claim(claim, evidence, evidence)}
    assert (not codes & {"number_mismatch", "number_not_in_evidence", "unit_mismatch"}) is shown, codes


@pytest.mark.parametrize(
    ("claim", "shown"),
    [
        ("下午是英语，两点半到四点半", True),  # no daypart right before: either half of the day
        ("英语 2 点半开考", True),
        ("英语三点半开考", False),  # 15:30 is stated nowhere
        ("英语凌晨两点半开考", False),  # a daypart fixes the half
    ],
)
def test_a_chinese_clock_time_without_a_daypart_may_be_the_afternoons(claim: str, shown: bool) -> None:
    evidence = "周二 14:30-16:30 英语 教学楼A"
    codes = {i.code for i in check_claim(claim, evidence, evidence)}
    assert ("date_mismatch" not in codes) is shown, codes


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("last scanned at 7:25 that evening", "19:25"),
        ("at 3:10 in the afternoon", "15:10"),
        ("at 7:25", "07:25"),
    ],
)
def test_an_evening_said_after_a_digit_clock_sets_its_half_of_the_day(text: str, value: str) -> None:
    assert [m.value for m in extract(text) if m.kind == "time"] == [value]

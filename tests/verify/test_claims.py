"""Which sentences of an answer are key facts (seed 000 "关键事实范围")."""

from __future__ import annotations

import pytest

from groundgate.verify.claims import key_decision, split_claims


@pytest.mark.parametrize(
    "claim",
    [
        "根因是 payment-db 连接池耗尽。",
        "ERR_TIMEOUT 由支付网关返回。",
        "日志显示 14:05 起大量请求超时。",
        "重启后服务已恢复。",
        "一线城市住宿每晚不超过六百元。",
        "The root cause was a failed Redis failover.",
        "Logs show the retries stopped after the DNS TTL expired.",
        "The endpoint /api/v1/orders returns HTTP 504.",
        "Annual leave accrues monthly for full-time staff.",
        "建议把 max_size 调到 200。",  # advice naming a number still asserts that number
    ],
)
def test_key_facts(claim: str) -> None:
    assert key_decision(claim).key, key_decision(claim)


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("建议联系 HR 部门确认。", "not_key:advice"),
        ("请谨慎参考。", "not_key:advice"),
        ("You may want to monitor the dashboard closely.", "not_key:advice"),
        ("Please contact your manager if unsure.", "not_key:advice"),
        ("Is the service healthy?", "not_key:question"),
        ("好的。", "not_key:no_content"),
    ],
)
def test_not_key(claim: str, reason: str) -> None:
    decision = key_decision(claim)
    assert not decision.key
    assert decision.reason == reason


def test_split_claims_offsets_point_into_the_answer() -> None:
    answer = "ERR_TIMEOUT 来自支付网关。根因是连接池耗尽。\n- 建议扩容。"
    claims = split_claims(answer)
    assert [c.text for c in claims] == ["ERR_TIMEOUT 来自支付网关。", "根因是连接池耗尽。", "建议扩容。"]
    assert all(answer[c.start : c.end] == c.text for c in claims)

"""Fixed user-facing texts (DESIGN invariant 5): seed 000's zh-CN templates word for word."""

from __future__ import annotations

from groundgate.compose import (
    Citation,
    ComposableClaim,
    compose_degraded,
    compose_disclaimer,
    compose_normal,
    language_of,
)
from groundgate.contracts import FactCategory, OutputKind

CITE = Citation(0, "errors#1", "payment/errors.md", "ERR_TIMEOUT …", "inv-1")


def test_disclaimer_is_seed_000_word_for_word_with_only_verified_claims() -> None:
    claims = [
        ComposableClaim("c1", "连接池活跃连接达到 100。", FactCategory.DIRECT_EVIDENCE, True, (CITE,)),
        ComposableClaim("c2", "根因是连接池耗尽。", FactCategory.NO_EVIDENCE, True, (CITE,)),
        ComposableClaim("c3", "建议立即重启 payment-gateway。", FactCategory.NO_EVIDENCE, False, ()),
    ]
    out = compose_disclaimer(claims, ["1 条关键陈述缺少证据，已略去"], "zh-CN").output
    assert out.output_kind is OutputKind.LOW_CONFID_WITH_DISCLAIMER
    assert out.text == (
        "以下结论基于当前已获取证据，仍存在部分证据缺口，请谨慎参考。\n\n连接池活跃连接达到 100。[1]"
        "\n\n当前缺口：\n- 1 条关键陈述缺少证据，已略去\n\n引用：\n[1] payment/errors.md"
    )
    assert out.used_claim_ids == ["c1"]


def test_degraded_is_seed_000_and_never_carries_unverified_claims() -> None:
    claims = [
        ComposableClaim("c1", "ERR_TIMEOUT 来自支付网关。", FactCategory.DIRECT_EVIDENCE, True, (CITE,)),
        ComposableClaim("c2", "根因是内核升级。", FactCategory.NO_EVIDENCE, True, (CITE,)),
        ComposableClaim("c3", "超时阈值为 5 秒。", FactCategory.CONTRADICTED, True, (CITE,)),
    ]
    out = compose_degraded(claims, ["1 条关键陈述与证据冲突，已略去"], "zh-CN").output
    assert out.output_kind is OutputKind.DEGRADED
    lines = out.text.splitlines()
    assert lines[0] == "当前无法基于已获取证据生成可靠结论，建议人工介入。"
    assert "已确认信息：" in lines
    assert "证据缺口：" in lines
    assert "建议下一步：" in lines
    assert "- ERR_TIMEOUT 来自支付网关。[1]" in lines
    assert "内核升级" not in out.text
    assert "5 秒" not in out.text


def test_normal_states_only_allowed_claims_with_citations() -> None:
    claims = [
        ComposableClaim("c1", "ERR_TIMEOUT 来自支付网关。", FactCategory.DIRECT_EVIDENCE, True, (CITE,)),
        ComposableClaim("c2", "它很常见。", FactCategory.NO_EVIDENCE, False, (CITE,)),
        ComposableClaim("c3", "无引用的陈述。", FactCategory.DIRECT_EVIDENCE, True, ()),
    ]
    composed = compose_normal(claims, "zh-CN")
    assert composed.output.text.startswith("ERR_TIMEOUT 来自支付网关。[1]")
    assert "它很常见" not in composed.output.text
    assert "无引用" not in composed.output.text
    assert composed.output.used_claim_ids == ["c1"]
    assert [c.number for c in composed.citations] == [1]


def test_english_templates_and_language_choice() -> None:
    assert language_of("ERR_TIMEOUT 是什么？") == "zh-CN"
    assert language_of("What is ERR_TIMEOUT?") == "en"
    pool = ComposableClaim("c1", "Pool ran dry.", FactCategory.INDIRECT_SUPPORT, True, (CITE,))
    out = compose_disclaimer([pool], [], "en").output
    assert out.text.startswith("The conclusions below are based on the evidence gathered so far")
    assert "Pool ran dry.[1]" in out.text
    assert "Current gaps" not in out.text  # no gaps, no heading


def test_degraded_lists_each_gap_once() -> None:
    gaps = ["满 12 年的年假天数", "Team B standup — time"]
    out = compose_degraded([], gaps, "zh-CN").output
    for gap in gaps:
        assert out.text.count(gap) == 1
    assert "针对上述证据缺口补充证据后重新提问" in out.text

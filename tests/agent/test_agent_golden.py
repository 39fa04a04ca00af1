"""The seed's 30-case golden set (seed 003 line 232), one test per case, from
`groundgate/demo/hr/golden_cases.yaml`: each case names the seed line it proves (`seed`, `quote`)."""

from __future__ import annotations

import pytest

from groundgate.demo.hr.golden import GoldenCase, load_cases, run_case

CASES = load_cases()


def test_the_golden_set_has_thirty_cases_each_citing_a_seed_line() -> None:
    # seed L232: "首批 30 条纯内存契约黄金集覆盖金额口径、`哪些` 路由、CRM 能力幻觉、零证据、待办与流程、多轮第二项、
    # 月份纠正、跨项目、过期 factRef、来源冲突、工具失败/超时、模型失败回退、重复调用停止和对抗性槽位误标"
    assert len(CASES) == 30
    assert len({c.id for c in CASES}) == 30
    assert all(c.seed > 0 and c.quote for c in CASES)
    categories = {c.category for c in CASES}
    assert categories >= {
        "金额口径",
        "哪些路由",
        "CRM 能力幻觉",
        "零证据",
        "待办与流程",
        "多轮第二项",
        "月份纠正",
        "跨项目",
        "过期 factRef",
        "来源冲突",
        "工具失败/超时",
        "模型失败回退",
        "重复调用停止",
        "对抗性槽位误标",
    }


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_golden_case_holds(case: GoldenCase) -> None:
    outcome = run_case(case)
    assert outcome.passed, f"seed L{case.seed} ({case.quote}): " + "; ".join(outcome.failures)


def test_a_wrong_expectation_is_reported_not_passed() -> None:
    (case,) = load_cases(
        """
- id: X01
  category: 金额口径
  seed: 152
  quote: self-test of the runner
  question: 一线城市出差住宿标准是多少？
  expect: {status: NO_EVIDENCE, contains: ["999 元"], tools: [MY_CURRENT_TASKS], nonsense: 1}
"""
    )
    failures = run_case(case).failures
    assert len(failures) == 4
    assert any(f.startswith("status:") for f in failures)
    assert any("unknown expectation 'nonsense'" in f for f in failures)

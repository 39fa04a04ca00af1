"""The web page in a real browser: Playwright driving Debian's Chromium against `groundgate serve`.

Each server is the real command a user runs (`groundgate serve --demo` in a subprocess, real HTTP on a
free loopback port, its own data dir). Chromium is `/usr/bin/chromium` (Debian's package; `.ci/run`
installs it). Without it these tests skip, unless `GROUNDGATE_REQUIRE_BROWSER=1` (CI), where a missing
browser fails.

`GROUNDGATE_SCREENSHOTS_DIR=docs/screenshots` (what `make screenshots` sets) saves the main views as
PNG files there; otherwise they go to a temporary folder and are only checked to be written.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from groundgate.api.auth import hash_key
from groundgate.api.routes.service import WEB_DIR
from groundgate.testing import running_service

# A real browser over a real server: seconds per test.
pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("GROUNDGATE_CHROMIUM", "/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("GROUNDGATE_REQUIRE_BROWSER") == "1"
SCREENSHOTS = os.environ.get("GROUNDGATE_SCREENSHOTS_DIR")

NORMAL_ZH = "ERR_TIMEOUT 是哪个组件返回的？含义是什么？"
DISCLAIMER_ZH = "退款一般多久到账？退款手续费由谁承担？"
DEGRADED_ZH = "etcd 备份的保留周期是多少天？"
ROUND_TWO_ZH = "3月14日 14:05 开始的支付超时根因是什么？"
NORMAL_EN = (
    "What is the availability SLO of the payment gateway, and how large is its error budget per 30 days?"
)

ACME_KEY = "browser-acme-key"
VIEWER_KEY = "browser-viewer-key"
GLOBEX_KEY = "browser-globex-key"

sync_api = pytest.importorskip("playwright.sync_api")


def _need_browser() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    if REQUIRE_BROWSER:
        pytest.fail(f"GROUNDGATE_REQUIRE_BROWSER=1 but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _need_browser()
    root = tmp_path_factory.mktemp("web-local")
    with running_service(root / "data", cwd=root, log_path=root / "serve.log", args=["--demo"]) as base:
        yield base


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _need_browser()
    toml = "\n".join(
        [
            f'[api.keys."{hash_key(ACME_KEY)}"]',
            'tenant = "acme"',
            'user = "alice"',
            'roles = ["sre"]',
            f'[api.keys."{hash_key(VIEWER_KEY)}"]',
            'tenant = "acme"',
            'user = "victor"',
            'roles = ["viewer"]',
            f'[api.keys."{hash_key(GLOBEX_KEY)}"]',
            'tenant = "globex"',
            'user = "gina"',
            'roles = ["admin"]',
            "",
        ]
    )
    root = tmp_path_factory.mktemp("web-keyed")
    (root / "groundgate.toml").write_text(toml, encoding="utf-8")
    with running_service(root / "data", cwd=root, log_path=root / "serve.log", args=["--demo"]) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_browser()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class PageErrors:
    """JavaScript errors on the page fail the test (a broken script would otherwise just look idle)."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))

    def check(self, allowed: tuple[str, ...] = ()) -> None:
        unexpected = [e for e in self.errors if not any(a in e for a in allowed)]
        assert not unexpected, unexpected


def _page(browser: Any, locale: str = "zh-CN") -> tuple[Any, Any, PageErrors]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page, PageErrors(page)


def _shot(page: Any, folder: Path, name: str, *, full_page: bool = False) -> None:
    path = folder / name
    page.screenshot(path=str(path), full_page=full_page)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _ask(page: Any, question: str) -> Any:
    """Ask through the form; returns the turn element once its result is shown."""
    turns_before = page.locator('[data-testid="turn"]').count()
    page.fill('[data-testid="question"]', question)
    page.click('[data-testid="ask"]')
    turn = page.locator('[data-testid="turn"]').nth(turns_before)
    turn.locator('[data-testid="kind-badge"]').wait_for()
    return turn


def _record_insertions(page: Any) -> None:
    """Log, in order, when stage items and the result badge enter the page (run before the page loads)."""
    page.add_init_script(
        """
        window.__inserted = [];
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue;
            for (const el of [node, ...node.querySelectorAll('[data-testid]')]) {
              const id = el.dataset.testid;
              if (id === 'stage') window.__inserted.push('stage:' + el.dataset.stage);
              if (id === 'kind-badge') window.__inserted.push('badge');
            }
          }
        }).observe(document, {childList: true, subtree: true});
        """
    )


# ---------------------------------------------------------------------------------------------- chat


def test_ask_shows_stages_then_badge_score_and_expandable_citations(
    local_server: str, browser: Any, shots: Path
) -> None:
    context, page, errors = _page(browser)
    _record_insertions(page)
    page.goto(local_server + "/")
    page.locator('[data-testid="example"]').first.wait_for()
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    _shot(page, shots, "home.png")

    turn = _ask(page, NORMAL_ZH)
    inserted: list[str] = page.evaluate("window.__inserted")
    stages = [s.split(":", 1)[1] for s in inserted if s.startswith("stage:")]
    assert stages[:2] == ["run_started", "planning"]
    for stage in ("tool_call", "tool_result", "gatekeeper", "verifier", "final"):
        assert stage in stages
    # Each stage is on the page before the answer's badge: they are shown as the run streams them.
    assert inserted.index("badge") > max(i for i, s in enumerate(inserted) if s.startswith("stage:"))
    assert turn.locator('[data-stage="tool_call"]').first.inner_text().startswith("调用 lookup_knowledge")
    assert "OK" in turn.locator('[data-stage="tool_result"]').first.inner_text()

    badge = turn.locator('[data-testid="kind-badge"]')
    assert badge.get_attribute("data-kind") == "NORMAL"
    assert "已核实" in badge.inner_text()
    assert turn.locator('[data-testid="verdict-badge"]').get_attribute("data-verdict") == "PASS"
    assert turn.locator('[data-testid="score"] .score-value').inner_text() == "1.00"

    # The page shows what the API returned for the same run.
    run_id = turn.get_attribute("data-run-id")
    assert run_id
    trace = httpx.get(f"{local_server}/api/trace/{run_id}").json()
    assert trace["outputKind"] == "NORMAL"
    assert trace["query"] == NORMAL_ZH

    claims = turn.locator('[data-testid="claim"]')
    assert claims.count() >= 1  # one table row answers both parts (component and meaning)
    first_cite = turn.locator('[data-testid="cite"]').first
    assert first_cite.get_attribute("aria-expanded") == "false"
    first_cite.click()
    excerpt = turn.locator('[data-testid="excerpt"]').first
    excerpt.wait_for()
    assert first_cite.get_attribute("aria-expanded") == "true"
    excerpt_text = excerpt.locator(".excerpt-text").inner_text()
    assert "ERR_TIMEOUT" in excerpt_text
    assert "payment-gateway-error-codes.md" in excerpt.locator(".excerpt-source").inner_text()
    # The excerpt shown is the evidence the claim cites: the claim's text comes from it.
    assert excerpt_text.strip().rstrip("。") in claims.first.inner_text()
    _shot(page, shots, "chat-answer.png", full_page=True)
    first_cite.click()
    assert turn.locator('[data-testid="excerpt"]').count() == 0

    assert "引用" not in turn.locator('[data-testid="answer"]').inner_text()  # sources listed separately
    sources = turn.locator('[data-testid="sources"]')
    assert "引用来源" in sources.inner_text()
    errors.check()
    context.close()


def test_disclaimer_shows_gaps_and_degraded_gives_no_answer(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    turn = _ask(page, DISCLAIMER_ZH)
    assert (
        turn.locator('[data-testid="kind-badge"]').get_attribute("data-kind") == "LOW_CONFID_WITH_DISCLAIMER"
    )
    # The verified claims may all PASS; the unmet need (who pays the refund fee) makes it a disclaimer.
    assert turn.locator('[data-testid="verdict-badge"]').get_attribute("data-verdict") in {
        "PASS",
        "LOW_CONFID",
    }
    gaps = turn.locator('[data-testid="gaps"]')
    assert "证据缺口" in gaps.inner_text()
    assert "退款手续费" in gaps.inner_text()
    # The gap is shown once, in its box, not repeated inside the answer text.
    assert "当前缺口" not in turn.locator('[data-testid="answer"]').inner_text()

    turn = _ask(page, DEGRADED_ZH)
    assert turn.locator('[data-testid="kind-badge"]').get_attribute("data-kind") == "DEGRADED"
    assert turn.locator('[data-testid="verdict-badge"]').get_attribute("data-verdict") == ""
    assert turn.locator('[data-testid="score"] .score-value').inner_text() == "0.00"
    assert "etcd" in turn.locator('[data-testid="gaps"]').inner_text()
    assert turn.locator('[data-testid="cite"]').count() == 0
    # No tool evidence qualified, so the executor never ran: the stages say so.
    assert turn.locator('[data-stage="gatekeeper"]').count() == 0
    errors.check()
    context.close()


def test_second_round_run_shows_both_rounds(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    turn = _ask(page, ROUND_TWO_ZH)
    assert turn.locator('[data-testid="kind-badge"]').get_attribute("data-kind") == "NORMAL"
    planning = turn.locator('[data-stage="planning"]')
    assert planning.count() == 2
    assert planning.nth(1).inner_text() == "规划（第 2 轮）"
    tools = turn.locator('[data-stage="tool_call"]').all_inner_texts()
    assert any("query_metrics" in text for text in tools)
    errors.check()
    context.close()


def test_english_page(local_server: str, browser: Any, shots: Path) -> None:
    context, page, errors = _page(browser, locale="en-US")
    page.goto(local_server + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator('[data-testid="ask"]').inner_text() == "Ask"
    turn = _ask(page, NORMAL_EN)
    badge = turn.locator('[data-testid="kind-badge"]')
    assert badge.get_attribute("data-kind") == "NORMAL"
    assert "Verified" in badge.inner_text()
    assert "Calling lookup_knowledge" in turn.locator('[data-stage="tool_call"]').first.inner_text()
    turn.locator('[data-testid="cite"]').first.click()
    assert "99.95%" in turn.locator('[data-testid="excerpt"]').first.inner_text()
    _shot(page, shots, "chat-answer-en.png", full_page=True)

    # Switching language re-labels the page and is remembered.
    page.click('[data-testid="lang-zh"]')
    assert page.locator('[data-testid="ask"]').inner_text() == "提问"
    page.reload()
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    errors.check()
    context.close()


def test_text_from_the_server_is_never_run_as_html(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    hostile = '<img src=x onerror="window.__owned=1"> ERR_TIMEOUT <script>window.__owned=2</script>'
    turn = _ask(page, hostile)
    assert turn.locator('[data-testid="user-question"]').inner_text() == hostile
    assert page.evaluate("window.__owned") is None
    assert page.locator("img[src=x]").count() == 0
    errors.check()
    context.close()


MARKDOWN_ANSWER = "\n".join(
    [
        "## Root cause",
        "",
        "The **payment-db** pool ran *dry* at `14:05`[1]; see [the runbook](https://runbooks.example/pool).",
        "",
        "1. raise `max_pool_size`",
        "2. restart ERR_POOL_EXHAUSTED_WORKER",
        "",
        "```",
        "pool.max = 40",
        "```",
        "",
        '<img src=x onerror="window.__owned=1"> [click](javascript:window.__owned=2) <script>window.__owned=3</script>',
    ]
)


def _fake_chat(page: Any, answer: str) -> None:
    """Answer `/api/chat` with a result carrying `answer`, as an answer model might write it."""
    result = {
        "runId": "run-markdown",
        "sessionId": "session-markdown",
        "question": "q",
        "outputKind": "NORMAL",
        "verdict": "PASS",
        "decisionStatus": "ANSWERED",
        "groundednessScore": 1.0,
        "answer": answer,
        "citations": [
            {
                "number": 1,
                "citationId": "c1",
                "source": "runbook.md",
                "excerpt": "pool",
                "invocationId": "i" * 32,
            }
        ],
        "gaps": [],
        "rounds": 1,
        "stopReason": "verdict_pass",
        "toolCalls": [],
        "elapsedMs": 1.0,
    }
    body = f"event: result\ndata: {json.dumps(result)}\n\n"
    page.route(
        "**/api/chat",
        lambda route: route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body),
    )


def test_markdown_in_an_answer_is_rendered_and_html_in_it_stays_text(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    _fake_chat(page, MARKDOWN_ANSWER)
    answer = _ask(page, "What happened to the pool?").locator('[data-testid="answer"]')
    assert answer.locator("h4.answer-heading").inner_text() == "Root cause"
    assert answer.locator("strong").inner_text() == "payment-db"
    assert answer.locator("em").inner_text() == "dry"
    assert answer.locator("p code").first.inner_text() == "14:05"
    assert answer.locator("ol li").all_inner_texts() == [
        "raise max_pool_size",
        "restart ERR_POOL_EXHAUSTED_WORKER",
    ]
    assert answer.locator("pre.answer-code").inner_text().strip() == "pool.max = 40"
    link = answer.locator("a")
    assert link.count() == 1
    assert link.get_attribute("href") == "https://runbooks.example/pool"
    assert answer.locator('button.cite[data-number="1"]').count() == 1  # citations still work inside Markdown
    text = answer.inner_text()
    for raw in ("**", "##", "```", "`14:05`"):
        assert raw not in text
    # HTML in an answer is text: shown, never an element, never run; a javascript: link is not a link.
    assert "<img src=x" in text
    assert "<script>" in text
    assert answer.locator("img, script").count() == 0
    assert page.evaluate("window.__owned") is None
    errors.check()
    context.close()


# ---------------------------------------------------------------------------------------------- feedback, trace, bad cases


def test_thumbs_up_then_down_takes_the_run_out_of_the_case_library_and_says_so(
    local_server: str, browser: Any
) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    turn = _ask(page, NORMAL_ZH)
    run_id = turn.get_attribute("data-run-id")
    status = turn.locator('[data-testid="feedback-status"]')
    turn.locator('[data-testid="thumbs-up"]').click()
    sync_api.expect(status).to_contain_text("已在案例库中")
    assert run_id in [c["diagnosisId"] for c in httpx.get(f"{local_server}/api/cases").json()]
    turn.locator('[data-testid="thumbs-down"]').click()
    sync_api.expect(status).to_contain_text("已移出案例库")
    assert run_id not in [c["diagnosisId"] for c in httpx.get(f"{local_server}/api/cases").json()]
    errors.check()
    context.close()


def test_the_page_asks_for_replies_in_its_own_language(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser, locale="en-US")
    page.goto(local_server + "/")
    turn = _ask(page, NORMAL_ZH)  # a Chinese question on an English page: the reply follows the page
    turn.locator('[data-testid="thumbs-down"]').click()
    status = turn.locator('[data-testid="feedback-status"]')
    sync_api.expect(status).to_contain_text("Feedback recorded")
    errors.check()
    context.close()


def test_thumbs_down_then_trace_then_bad_cases(local_server: str, browser: Any, shots: Path) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    unrated_id = _ask(page, DEGRADED_ZH).get_attribute("data-run-id")
    turn = _ask(page, NORMAL_ZH)
    run_id = turn.get_attribute("data-run-id")
    turn.locator('[data-testid="thumbs-down"]').click()
    status = turn.locator('[data-testid="feedback-status"]')
    sync_api.expect(status).to_contain_text("没用：已列入差评")
    assert "chosen" in (turn.locator('[data-testid="thumbs-down"]').get_attribute("class") or "")
    # Stored as seed 004 §7 says: on the run, no case for not_useful.
    stored = httpx.get(f"{local_server}/api/trace/{run_id}").json()
    assert stored["feedback"] == "not_useful"

    turn.locator('[data-testid="open-trace"]').click()
    page.locator('[data-testid="trace-steps"]').wait_for()
    assert page.url.endswith(f"#/trace/{run_id}")
    assert page.locator('[data-testid="trace-run-id"]').inner_text() == run_id
    assert page.locator('[data-testid="trace-query"]').inner_text() == NORMAL_ZH
    assert page.locator('[data-testid="trace-feedback"]').inner_text() == "not_useful"
    roles = page.locator('[data-testid="trace-steps"] tbody tr td:nth-child(2)').all_inner_texts()
    assert roles[:2] == ["planner", "executor"]
    assert "verifier" in roles
    tool_rows = page.locator('[data-testid="trace-tools"] tbody tr')
    assert tool_rows.count() == len(stored["toolInvocations"]) >= 1
    first_tool = tool_rows.first.inner_text()
    assert "lookup_knowledge" in first_tool
    assert "OK" in first_tool
    assert "ERR_TIMEOUT" in first_tool  # the arguments
    assert page.locator('[data-testid="evidence-score"]').inner_text() == str(
        stored["ruleEvaluation"]["evidence_score"]
    )
    claims = page.locator('[data-testid="trace-claims"] tbody tr')
    assert claims.count() == len(stored["verifierEvaluation"]["claim_checks"])
    assert "direct_evidence" in claims.first.inner_text()
    _shot(page, shots, "trace.png", full_page=True)

    page.click('[data-testid="nav-bad-cases"]')
    listed = page.locator(f'[data-testid="bad-case"][data-run-id="{run_id}"]')
    listed.wait_for()
    _shot(page, shots, "bad-cases.png")
    bad_ids = {r["runId"] for r in httpx.get(f"{local_server}/api/runs?feedback=not_useful").json()}
    shown_ids = set(
        page.locator('[data-testid="bad-case"]').evaluate_all("els => els.map(e => e.dataset.runId)")
    )
    assert shown_ids == bad_ids
    listed.locator("a").click()
    page.locator('[data-testid="trace-steps"]').wait_for()
    assert page.locator('[data-testid="trace-run-id"]').inner_text() == run_id

    # Every run is reachable from the Runs list, rated or not; the rating shows on its row.
    page.click('[data-testid="nav-runs"]')
    row = page.locator(f'[data-testid="run"][data-run-id="{run_id}"]')
    row.wait_for()
    assert row.locator('[data-testid="run-feedback"]').inner_text() == "👎"
    all_runs = httpx.get(f"{local_server}/api/runs?limit=200").json()
    assert page.locator('[data-testid="run"]').count() == len(all_runs) > len(bad_ids)
    unrated = page.locator(f'[data-testid="run"][data-run-id="{unrated_id}"]')
    assert unrated.locator('[data-testid="run-feedback"]').count() == 0
    assert unrated_id not in shown_ids
    errors.check()
    context.close()


def test_thumbs_up_distils_one_case_shown_in_the_case_library(
    local_server: str, browser: Any, shots: Path
) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/")
    turn = _ask(page, NORMAL_ZH)
    run_id = turn.get_attribute("data-run-id")
    turn.locator('[data-testid="thumbs-up"]').click()
    status = turn.locator('[data-testid="feedback-status"]')
    sync_api.expect(status).to_contain_text("已生成案例")
    case_id = status.inner_text().split("案例 ", 1)[1].split("）", 1)[0]
    # A second 👍 keeps the one case (seed 004 §8: one case per diagnosis).
    turn.locator('[data-testid="thumbs-up"]').click()
    sync_api.expect(status).to_contain_text(case_id)

    page.click('[data-testid="nav-cases"]')
    card = page.locator(f'[data-testid="case"][data-case-id="{case_id}"]')
    card.wait_for()
    # Error code and service come from the verified claims (seed 004 §8 extraction).
    assert card.locator('[data-testid="case-code"]').all_inner_texts() == ["ERR_TIMEOUT"]
    assert "payment-gateway" in card.inner_text()
    cases = httpx.get(f"{local_server}/api/cases").json()
    assert [c["caseId"] for c in cases].count(case_id) == 1
    assert next(c for c in cases if c["caseId"] == case_id)["diagnosisId"] == run_id
    _shot(page, shots, "cases.png", full_page=True)
    card.locator("a").click()
    page.locator('[data-testid="trace-steps"]').wait_for()
    assert page.locator('[data-testid="trace-run-id"]').inner_text() == run_id
    errors.check()
    context.close()


def test_unknown_run_in_the_trace_view_says_not_found(local_server: str, browser: Any) -> None:
    context, page, errors = _page(browser)
    page.goto(local_server + "/#/trace/no-such-run")
    error = page.locator('[data-testid="view-trace"] [data-testid="error"]')
    sync_api.expect(error).to_contain_text("404")
    # The browser logs the failed fetch itself; that is the expected 404, not a script error.
    errors.check(allowed=("404",))
    context.close()


# ---------------------------------------------------------------------------------------------- agent

AGENT_ZH = "一线城市出差住宿标准是多少？"


@pytest.fixture(scope="module")
def hr_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Local mode acting as an employee of the HR demo's tenant (`[local]`), the agent in shadow mode."""
    _need_browser()
    root = tmp_path_factory.mktemp("web-hr")
    toml = '[local]\ntenant = "hrdemo"\nuser = "u-li"\nroles = ["user"]\n[agent]\nmode = "shadow"\n'
    (root / "groundgate.toml").write_text(toml, encoding="utf-8")
    with running_service(root / "data", cwd=root, log_path=root / "serve.log", args=["--demo"]) as base:
        yield base


def test_the_agent_view_shows_the_decision_slots_statements_and_citations(
    hr_server: str, browser: Any, shots: Path
) -> None:
    context, page, errors = _page(browser)
    page.goto(hr_server + "/")
    page.click('[data-testid="nav-agent"]')
    assert page.locator('[data-testid="nav-agent"]').inner_text() == "业务助手"
    page.locator('[data-testid="agent-example"]').first.click()
    assert page.locator('[data-testid="agent-question"]').input_value() == AGENT_ZH
    page.click('[data-testid="agent-ask"]')
    turn = page.locator('[data-testid="agent-turn"]').first
    badge = turn.locator('[data-testid="decision-badge"]')
    badge.wait_for()
    assert badge.get_attribute("data-decision") == "ANSWERED"
    assert "已回答" in badge.inner_text()
    covered = turn.locator('[data-testid="covered-need"]')
    assert covered.first.get_attribute("data-need") == "AMOUNT_RULE"
    assert covered.first.inner_text() == "金额规则"
    statement = turn.locator('[data-testid="agent-statement"]').first
    assert "600 元" in statement.inner_text()
    cite = statement.locator('[data-testid="agent-cite"]').first
    assert cite.get_attribute("data-citation-id") == "hr-travel-policy-2026#0"
    cite.click()
    excerpt = turn.locator('[data-testid="agent-excerpt"]').first
    assert "600" in excerpt.locator(".excerpt-text").inner_text()
    assert cite.get_attribute("aria-expanded") == "true"
    assert "hr-travel-policy-2026#0" in turn.locator('[data-testid="agent-sources"]').inner_text()
    # The page shows what the API recorded for the same run.
    run_id = turn.get_attribute("data-run-id")
    trace = httpx.get(f"{hr_server}/api/trace/{run_id}").json()
    assert (trace["mode"], trace["decisionStatus"]) == ("agent", "ANSWERED")
    _shot(page, shots, "agent-answer.png", full_page=True)

    # A question that names no HR need: the agent asks, the page shows its clarifying question.
    page.fill('[data-testid="agent-question"]', "帮我查一下客户张三的合同")
    page.click('[data-testid="agent-ask"]')
    second = page.locator('[data-testid="agent-turn"]').nth(1)
    second.locator('[data-testid="decision-badge"]').wait_for()
    assert second.get_attribute("data-decision") in {"NEEDS_INPUT", "NO_EVIDENCE"}

    # English labels, the same view.
    page.click('[data-testid="lang-en"]')
    assert page.locator('[data-testid="nav-agent"]').inner_text() == "Business agent"
    assert page.locator('[data-testid="agent-ask"]').inner_text() == "Ask"
    errors.check()
    context.close()


def test_the_chat_reply_is_the_chat_pipelines_in_shadow_mode(hr_server: str) -> None:
    body = httpx.post(f"{hr_server}/api/chat", json={"question": AGENT_ZH}, timeout=60).json()
    assert "answeredBy" not in body
    assert "decision" not in body


# ---------------------------------------------------------------------------------------------- API keys


def test_keyed_service_asks_for_a_key_and_keeps_tenants_apart(keyed_server: str, browser: Any) -> None:
    context, page, errors = _page(browser, locale="en-US")
    page.goto(keyed_server + "/")
    keybar = page.locator('[data-testid="keybar"]')
    keybar.wait_for()
    sync_api.expect(page.locator('[data-testid="notice"]')).to_contain_text("Enter an API key")
    assert page.locator('[data-testid="example"]').count() == 0  # demo chips only in local mode

    page.fill('[data-testid="api-key"]', "not-a-key")
    page.click('[data-testid="keybar"] button[type="submit"]')
    sync_api.expect(page.locator('[data-testid="notice"]')).to_contain_text("401")

    page.fill('[data-testid="api-key"]', ACME_KEY)
    page.click('[data-testid="keybar"] button[type="submit"]')
    sync_api.expect(page.locator('[data-testid="identity"]')).to_have_text("acme · alice · sre")
    assert keybar.is_hidden()
    turn = _ask(page, NORMAL_EN)
    assert turn.locator('[data-testid="kind-badge"]').get_attribute("data-kind") == "NORMAL"
    run_id = turn.get_attribute("data-run-id")
    # The key never reaches the page's storage beyond this tab, and is not in the URL.
    assert ACME_KEY not in page.url
    assert page.evaluate("localStorage.getItem('groundgate.key')") is None

    # Another tenant's key cannot open the run: the trace view shows the API's 404.
    page.click('[data-testid="key-button"]')
    page.fill('[data-testid="api-key"]', GLOBEX_KEY)
    page.click('[data-testid="keybar"] button[type="submit"]')
    sync_api.expect(page.locator('[data-testid="identity"]')).to_have_text("globex · gina · admin")
    page.goto(f"{keyed_server}/#/trace/{run_id}")
    sync_api.expect(page.locator('[data-testid="view-trace"] [data-testid="error"]')).to_contain_text("404")
    page.click('[data-testid="nav-bad-cases"]')
    page.locator('[data-testid="bad-case-empty"]').wait_for()

    # A viewer reads but cannot ask or rate.
    page.click('[data-testid="key-button"]')
    page.fill('[data-testid="api-key"]', VIEWER_KEY)
    page.click('[data-testid="keybar"] button[type="submit"]')
    sync_api.expect(page.locator('[data-testid="notice"]')).to_contain_text("read-only")
    assert page.locator('[data-testid="ask"]').is_disabled()
    page.goto(f"{keyed_server}/#/trace/{run_id}")
    sync_api.expect(page.locator('[data-testid="trace-run-id"]')).to_have_text(run_id or "")
    errors.check(allowed=("401", "404"))
    context.close()


def test_page_and_assets_are_served_without_a_build_step(local_server: str) -> None:
    page = httpx.get(local_server + "/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    # The page loads every script of the package's web folder, app.js (which starts the page) last.
    scripts = re.findall(r'<script src="(/static/[\w.-]+\.js)" defer></script>', page.text)
    assert sorted(scripts) == sorted(f"/static/{p.name}" for p in WEB_DIR.glob("*.js"))
    assert scripts[-1] == "/static/app.js"
    for asset, kind in [*((script, "javascript") for script in scripts), ("/static/style.css", "text/css")]:
        response = httpx.get(local_server + asset)
        assert response.status_code == 200
        assert kind in response.headers["content-type"]
    # An encoded "../" (clients normalise a plain one away) must not reach files beside the page.
    for escape in ("/static/%2e%2e/api/app.py", "/static/..%2Fapi%2Fapp.py"):
        response = httpx.get(local_server + escape)
        assert response.status_code == 404, escape
        assert "create_app" not in response.text
    assert json.loads(httpx.get(local_server + "/api/me").text)["mode"] == "local"


ALERT_TOKEN = "browser-alertmanager-token"


@pytest.fixture(scope="module")
def alerts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Local mode receiving Alertmanager webhooks (`[aiops] webhook_token`), its worker running."""
    _need_browser()
    root = tmp_path_factory.mktemp("web-alerts")
    (root / "groundgate.toml").write_text(f'[aiops]\nwebhook_token = "{ALERT_TOKEN}"\n', encoding="utf-8")
    with running_service(root / "data", cwd=root, log_path=root / "serve.log", args=["--demo"]) as base:
        yield base


def test_the_alerts_view_lists_each_received_alert_once_with_its_diagnosis(
    alerts_server: str, browser: Any
) -> None:
    from groundgate.apps.workspace import AIOPS_DEMO_ROOT

    payload = (AIOPS_DEMO_ROOT / "alerts" / "payment-high-error-rate.json").read_bytes()
    headers = {"Authorization": f"Bearer {ALERT_TOKEN}", "Content-Type": "application/json"}
    for _ in range(2):  # Alertmanager repeats a notification: one episode, counted twice
        sent = httpx.post(
            alerts_server + "/api/aiops/alertmanager", content=payload, headers=headers, timeout=30
        )
        assert sent.status_code == 200, sent.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the worker diagnoses it in the background
        episodes = httpx.get(alerts_server + "/api/aiops/alerts", timeout=30).json()
        if episodes and episodes[0]["runId"]:
            break
        time.sleep(0.5)
    context, page, errors = _page(browser, locale="en-US")
    page.goto(alerts_server + "/#/alerts")
    page.click('[data-testid="nav-alerts"]')
    alert = page.locator('[data-testid="alert"]')
    alert.first.wait_for()
    assert alert.count() == 1
    assert "PaymentHighErrorRate" in alert.first.inner_text()
    assert "2 notifications" in alert.first.locator('[data-testid="alert-repeats"]').inner_text()
    alert.first.locator('[data-testid="alert-run"]').click()  # opens the diagnosis run's trace
    page.wait_for_url("**/#/trace/*")
    page.locator('[data-testid="view-trace"]').get_by_text("payment-api").first.wait_for()
    errors.check()
    context.close()

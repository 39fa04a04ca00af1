"""The grounding checker's budgets: no input can make a check cost more than a bounded, near-linear
amount of time and memory, or hold the service's workers.

- size: a context or answer over `check.max_context_chars` / `check.max_answer_chars` is refused
  (HTTP 413 `payload_too_large`, CLI exit 2, a bad line in a batch) with the limit and the setting;
- time: past `check.time_budget_seconds` (an injected clock here) the claims not yet assessed are
  `no_evidence` with `budget:time_exceeded` and the verdict is not `PASS`;
- concurrency: `POST /api/check` runs at most `check.max_concurrency` checks, off the event loop; a
  request that waits `check.queue_timeout_seconds` for a slot is 503 `busy`;
- cost: the checker's work and memory grow about linearly with the input (operations are counted,
  never timed: machines are noisy).
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import os
import random
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from groundgate.api import create_app
from groundgate.api.deps import CheckSlots
from groundgate.apps.grounding_check import check_within_budget, run_batch
from groundgate.apps.workspace import Workspace, open_workspace
from groundgate.contracts import CheckRequest, FactCategory, Verdict
from groundgate.errors import CheckBudgetError
from groundgate.models import ScriptedModel
from groundgate.settings import CheckSettings, Settings
from groundgate.store import Store, open_store
from groundgate.text.segmentation import Span
from groundgate.verify.assessment import ClaimAssessment, Classification
from groundgate.verify.budget import BUDGET_TIME_EXCEEDED
from groundgate.verify.grounding_check import check_request
from groundgate.verify.judge import LLMJudge
from groundgate.verify.offline_checker import OfflineChecker

POLICY = "差旅住宿标准：一线城市每晚不超过 600 元。超标部分需部门总监审批。餐补每天 100 元。"
ANSWER = "一线城市住宿每晚最多报销 600 元。超标部分需要部门总监审批。餐补是每天 100 元。"


class TickingClock:
    """A clock that advances `step` seconds each time it is read: the deadline falls after a known
    number of looks, whatever the machine's speed."""

    def __init__(self, step: float = 1.0) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    with open_workspace(tmp_path / "ws") as ws:
        yield ws


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "db")
    yield opened
    opened.close()


# ---------------------------------------------------------------- size budget


@pytest.mark.slow
@pytest.mark.parametrize(
    ("body", "setting"),
    [
        ({"context": ["x" * 301], "answer": "x"}, "check.max_context_chars"),
        ({"context": ["x" * 150, "y" * 151], "answer": "x"}, "check.max_context_chars"),
        ({"context": "x", "answer": "a" * 101}, "check.max_answer_chars"),
        ({"context": "x", "answer": "a", "question": "q" * 101}, "check.max_answer_chars"),
    ],
    ids=["one-passage", "passages-together", "answer", "question"],
)
def test_an_input_over_its_size_limit_is_413_naming_the_limit_and_the_setting(
    tmp_path: Path, workspace: Workspace, store: Store, body: dict[str, Any], setting: str
) -> None:
    settings = Settings(data_dir=tmp_path, check={"max_context_chars": 300, "max_answer_chars": 100})
    with TestClient(create_app(settings, workspace=workspace, store=store)) as client:
        response = client.post("/api/check", json=body)
    assert response.status_code == 413, response.text
    error = response.json()
    assert error["error"] == "payload_too_large"
    assert setting in error["message"]
    assert ("300" if "context" in setting else "100") in error["message"]


@pytest.mark.slow
def test_an_input_at_its_size_limit_is_checked(tmp_path: Path, workspace: Workspace, store: Store) -> None:
    limits = {"max_context_chars": len(POLICY), "max_answer_chars": len(ANSWER)}
    settings = Settings(data_dir=tmp_path, check=limits)
    with TestClient(create_app(settings, workspace=workspace, store=store)) as client:
        response = client.post("/api/check", json={"context": POLICY, "answer": ANSWER})
    assert response.status_code == 200, response.text
    assert response.json()["verdict"] == "PASS"


@pytest.mark.slow
def test_the_cli_refuses_an_oversized_check_with_exit_2_and_the_same_message(tmp_path: Path) -> None:
    context = tmp_path / "context.txt"
    context.write_text(POLICY * 10, encoding="utf-8")
    env = {**os.environ, "GROUNDGATE_CHECK__MAX_CONTEXT_CHARS": "100", "GROUNDGATE_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "groundgate.cli", "check", "-c", str(context), "-a", ANSWER],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "check.max_context_chars" in done.stderr
    assert "GROUNDGATE_CHECK__MAX_CONTEXT_CHARS" in done.stderr


def test_a_batch_line_over_the_limit_is_a_bad_line_and_the_batch_goes_on(tmp_path: Path) -> None:
    lines = [
        {"id": 1, "context": POLICY, "answer": ANSWER},
        {"id": 2, "context": POLICY * 20, "answer": ANSWER},
        {"id": 3, "context": POLICY, "answer": ANSWER * 20},
        {"id": 4, "context": POLICY, "answer": ANSWER},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines), encoding="utf-8")
    output, errors = io.StringIO(), io.StringIO()
    budget = CheckSettings(max_context_chars=200, max_answer_chars=200)
    summary = run_batch(source, output, errors=errors, budget=budget)
    assert summary.checked == 2
    assert [json.loads(line)["id"] for line in output.getvalue().splitlines()] == [1, 4]
    bad = [json.loads(line) for line in errors.getvalue().splitlines()]
    assert [b["line"] for b in bad] == [2, 3]
    assert "check.max_context_chars" in bad[0]["error"]
    assert "check.max_answer_chars" in bad[1]["error"]


def test_the_size_error_is_a_usage_error_with_its_figures() -> None:
    with pytest.raises(CheckBudgetError) as raised:
        check_within_budget(context=["x" * 11], answer="x", budget=CheckSettings(max_context_chars=10))
    assert (raised.value.setting, raised.value.limit, raised.value.actual) == (
        "check.max_context_chars",
        10,
        11,
    )


# ---------------------------------------------------------------- time budget

MANY_CLAIMS = "。".join(f"一线城市住宿每晚最多报销 600 元第{i}条" for i in range(12)) + "。"


@pytest.mark.parametrize(
    ("budget_seconds", "cut"),
    [
        (0.5, "all"),  # the deadline passes while the context is indexed
        (4.5, "some"),  # ... after a few claims
        (3_600.0, "none"),
    ],
)
def test_past_the_deadline_the_remaining_claims_are_no_evidence_and_the_verdict_is_not_pass(
    budget_seconds: float, cut: str
) -> None:
    result = check_within_budget(
        context=[POLICY],
        answer=MANY_CLAIMS,
        budget=CheckSettings(time_budget_seconds=budget_seconds),
        clock=TickingClock(),
    )
    budgeted = [BUDGET_TIME_EXCEEDED in c.reason_codes for c in result.claims]
    assert len(budgeted) == 12
    # The claims cut short are the last ones, all of them no_evidence.
    assert budgeted == sorted(budgeted)
    assert all(
        c.category is FactCategory.NO_EVIDENCE
        for c in result.claims
        if BUDGET_TIME_EXCEEDED in c.reason_codes
    )
    if cut == "none":
        assert not any(budgeted)
        assert result.verdict is Verdict.PASS
        return
    assert all(budgeted) if cut == "all" else 0 < sum(budgeted) < 12
    assert result.verdict is Verdict.LOW_CONFID
    assert result.rationale == BUDGET_TIME_EXCEEDED


def test_a_contradiction_found_in_time_still_rejects() -> None:
    answer = "一线城市住宿每晚最多报销 900 元。" + MANY_CLAIMS
    result = check_within_budget(
        context=[POLICY], answer=answer, budget=CheckSettings(time_budget_seconds=3.5), clock=TickingClock()
    )
    assert result.claims[0].category is FactCategory.CONTRADICTED
    assert BUDGET_TIME_EXCEEDED in result.claims[-1].reason_codes
    assert result.verdict is Verdict.REJECT


def test_non_key_claims_cut_short_still_keep_the_answer_from_pass() -> None:
    # One supported fact, then advice (not key): without the budget rule the verdict would be PASS.
    answer = "一线城市住宿每晚最多报销 600 元。" + "建议提前预订酒店。" * 6
    result = check_within_budget(
        context=[POLICY], answer=answer, budget=CheckSettings(time_budget_seconds=3.5), clock=TickingClock()
    )
    assert not any(c.key for c in result.claims if BUDGET_TIME_EXCEEDED in c.reason_codes)
    assert result.verdict is Verdict.LOW_CONFID
    assert result.rationale == BUDGET_TIME_EXCEEDED


def test_the_llm_judge_hands_the_deadline_to_its_offline_fallback() -> None:
    supported = {
        "claim_index": 0,
        "key": True,
        "category": "direct_evidence",
        "passage": 1,
        "excerpt": "一线城市每晚不超过 600 元",
        "rationale": "stated",
    }
    verdicts = {"claims": [{**supported, "claim_index": i} for i in range(1, 13)]}
    judge = LLMJudge(ScriptedModel({"judge": [verdicts]}), fallback=OfflineChecker())
    result = check_within_budget(
        context=[POLICY],
        answer=MANY_CLAIMS,
        classifier=judge,
        budget=CheckSettings(time_budget_seconds=0.5),
        clock=TickingClock(),
    )
    assert result.checker == "llm"
    assert result.verdict is Verdict.LOW_CONFID  # the model says supported; the offline part ran out
    assert result.rationale == BUDGET_TIME_EXCEEDED


class PlainClassifier:
    """A classifier that knows nothing of deadlines (the plain `ClaimClassifier` protocol)."""

    def classify(
        self, claims: Sequence[Span], passages: Sequence[str], *, question: str | None = None
    ) -> Classification:
        return Classification([ClaimAssessment(FactCategory.DIRECT_EVIDENCE, True) for _ in claims])


def test_a_classifier_without_deadline_support_is_called_as_before() -> None:
    result = check_within_budget(
        context=[POLICY],
        answer=ANSWER,
        classifier=PlainClassifier(),
        budget=CheckSettings(),
        clock=TickingClock(),
    )
    assert result.verdict is Verdict.PASS


# ---------------------------------------------------------------- hostile shapes


@pytest.mark.slow
def test_a_passage_without_sentence_breaks_is_cited_by_bounded_excerpts() -> None:
    passage = "，".join(f"服务{i}在{i % 60}秒后超时" for i in range(6_000))  # ~70,000 characters, no "。"
    answer = "".join(f"服务{i}在{i % 60}秒后超时。" for i in range(0, 6_000, 97))
    result = check_request(CheckRequest(context=[passage], answer=answer))
    spans = [span for claim in result.claims for span in claim.evidence]
    assert spans
    assert all(
        len(span.excerpt) <= 2_000 and passage[span.start : span.end] == span.excerpt for span in spans
    )


def test_a_claim_with_more_figures_than_are_compared_is_not_called_supported() -> None:
    figures = "，".join(f"{n}元" for n in range(1, 400))
    result = check_request(CheckRequest(context=[figures + "。"], answer=figures + "。"))
    (claim,) = result.claims
    assert claim.category is FactCategory.NO_EVIDENCE
    assert "budget:too_many_mentions" in claim.reason_codes
    assert result.verdict is Verdict.LOW_CONFID


# ---------------------------------------------------------------- concurrency over HTTP


class GatedClassifier:
    """Blocks in `classify` until the test opens the gate, and records how many run at once."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.entered = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.fail = False

    def classify(
        self, claims: Sequence[Span], passages: Sequence[str], *, question: str | None = None
    ) -> Classification:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.entered.release()
        try:
            self.gate.wait(timeout=60)  # a bound only so that a broken test cannot hang the suite
            if self.fail:
                raise RuntimeError("the classifier broke")
            return Classification([ClaimAssessment(FactCategory.DIRECT_EVIDENCE, True) for _ in claims])
        finally:
            with self.lock:
                self.running -= 1

    def wait_until_running(self, count: int) -> None:
        for _ in range(count):
            assert self.entered.acquire(timeout=60), "a check never reached the classifier"


def _gated_client(
    tmp_path: Path, workspace: Workspace, store: Store, concurrency: int
) -> tuple[TestClient, GatedClassifier]:
    settings = Settings(
        data_dir=tmp_path, check={"max_concurrency": concurrency, "queue_timeout_seconds": 0.2}
    )
    client = TestClient(create_app(settings, workspace=workspace, store=store), raise_server_exceptions=False)
    return client, GatedClassifier()


BODY = {"context": POLICY, "answer": ANSWER}


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [1, 2])
def test_checks_beyond_max_concurrency_wait_then_get_503_busy(
    tmp_path: Path, workspace: Workspace, store: Store, concurrency: int
) -> None:
    client, classifier = _gated_client(tmp_path, workspace, store, concurrency)
    with client, ThreadPoolExecutor(max_workers=concurrency) as pool:
        client.app.state.services.classifier = classifier  # type: ignore[attr-defined]
        running = [pool.submit(client.post, "/api/check", json=BODY) for _ in range(concurrency)]
        classifier.wait_until_running(concurrency)

        refused = client.post("/api/check", json=BODY)  # every slot is held: waits, then gives up
        assert refused.status_code == 503, refused.text
        assert set(refused.json()) == {"error", "message"}
        assert refused.json()["error"] == "busy"
        assert "check.max_concurrency" in refused.json()["message"]
        assert refused.headers["Retry-After"]
        # The event loop is free meanwhile: other requests are answered.
        assert client.get("/healthz").status_code == 200

        classifier.gate.set()
        assert [future.result().status_code for future in running] == [200] * concurrency
        assert client.post("/api/check", json=BODY).status_code == 200  # slots came back
    assert classifier.most == concurrency


@pytest.mark.slow
def test_a_check_that_fails_gives_its_slot_back(tmp_path: Path, workspace: Workspace, store: Store) -> None:
    client, classifier = _gated_client(tmp_path, workspace, store, 1)
    with client:
        client.app.state.services.classifier = classifier  # type: ignore[attr-defined]
        classifier.fail = True
        classifier.gate.set()
        assert client.post("/api/check", json=BODY).status_code == 500
        classifier.fail = False
        assert client.post("/api/check", json=BODY).status_code == 200


@pytest.mark.parametrize("handed_over", [False, True], ids=["while-waiting", "just-handed-a-slot"])
def test_a_waiting_request_that_goes_away_does_not_lose_a_slot(handed_over: bool) -> None:
    async def scenario() -> int:
        slots = CheckSlots(limit=1, timeout=60)
        assert await slots.acquire()
        waiter = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0)  # the waiter queues
        if handed_over:
            slots.release()  # the slot passes to the waiter ...
        waiter.cancel()  # ... which is cancelled before it runs again
        with pytest.raises(asyncio.CancelledError):
            await waiter
        if not handed_over:
            slots.release()
        return slots.busy

    assert asyncio.run(scenario()) == 0


# ---------------------------------------------------------------- cost


_ZH = [
    "服务",
    "连接池",
    "超时",
    "重试",
    "审批",
    "报销",
    "扩容",
    "网关",
    "日志",
    "告警",
    "缓存",
    "队列",
    "数据库",
]
_EN = ["service", "pool", "timeout", "retry", "approval", "refund", "gateway", "latency", "cache", "queue"]


def _text(sentences: int, seed: int) -> str:
    """Generated ops prose, Chinese and English, with numbers and identifiers, `sentences` long."""
    rng = random.Random(seed)
    out = []
    for i in range(sentences):
        if i % 2:
            a, b, c = rng.sample(_ZH, 3)
            out.append(f"{a}在{rng.randint(1, 99)}秒内{b}会触发 ERR_{rng.randint(1, 400)}，需要{c}。")
        else:
            a, b, c = rng.sample(_EN, 3)
            out.append(
                f"The {a} of svc-{rng.randint(1, 300)} {b}s after {rng.randint(1, 500)} ms without {c}."
            )
    return " ".join(out)


def _request(context_sentences: int, answer_sentences: int) -> CheckRequest:
    context = _text(context_sentences, seed=1)
    passages = [context[i : i + 2_000] for i in range(0, len(context), 2_000)]
    return CheckRequest(context=passages, answer=_text(answer_sentences, seed=2))


def _calls(request: CheckRequest) -> int:
    """Python function calls one check makes: a measure of work that does not depend on the machine."""
    check_request(request)  # warm the per-process caches (jieba, short-text caches)
    count = 0

    def profile(_frame: FrameType, event: str, _arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        check_request(request)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("small", "large", "bound"),
    [
        ((100, 20), (800, 20), 12),  # the context grows 8x: linear is 8
        ((400, 10), (400, 80), 12),  # the answer grows 8x
        # Both grow 8x. Comparing every claim with every window (as the checker once did) grows 64x
        # (measured: 48x). Each claim's search now visits only the postings of its words, pruned and
        # capped, so this grows less than half as fast as quadratic (measured: 25x), and linearly once
        # the cap binds.
        ((100, 10), (800, 80), 32),
    ],
    ids=["context", "answer", "both"],
)
def test_checker_work_grows_far_slower_than_the_product_of_answer_and_context(
    small: tuple[int, int], large: tuple[int, int], bound: int
) -> None:
    ratio = _calls(_request(*large)) / _calls(_request(*small))
    assert ratio < bound, f"8x the input cost {ratio:.1f}x the work"


def test_a_context_and_answer_that_repeat_themselves_cost_no_more_than_their_length() -> None:
    sentence = "一线城市住宿每晚最多报销 600 元，超标部分需要部门总监审批。"
    small = CheckRequest(context=[sentence * 50], answer=sentence * 10)
    large = CheckRequest(context=[sentence * 400], answer=sentence * 80)
    ratio = _calls(large) / _calls(small)
    assert ratio < 16, f"8x the input cost {ratio:.1f}x the work"


def _peak(request: CheckRequest) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        check_request(request)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_checker_memory_grows_about_linearly_with_the_context() -> None:
    check_request(_request(50, 5))  # warm caches outside the measurement
    small, large = _peak(_request(400, 10)), _peak(_request(3_200, 10))
    assert large / small < 12, f"8x the context took {large / small:.1f}x the memory"


def _retained_growth(tmp_path: Path, context_chars: int, lines: int = 4) -> int:
    """Memory a batch still holds after its last line, beyond what it held after its second."""
    source = tmp_path / f"batch-{context_chars}.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for i in range(lines):  # every line a different context of exactly `context_chars` characters
            context = _text(context_chars // 30, seed=10 + i)[:context_chars]
            passages = [context[k : k + 2_000] for k in range(0, context_chars, 2_000)]
            line = {"id": i, "context": passages, "answer": _text(10, seed=100 + i)}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    held: list[int] = []

    def record(_size: int) -> None:
        gc.collect()
        held.append(tracemalloc.get_traced_memory()[0])

    gc.collect()
    tracemalloc.start()
    try:
        run_batch(source, io.StringIO(), on_progress=record, budget=CheckSettings())
    finally:
        tracemalloc.stop()
    return held[-1] - held[1]


@pytest.mark.slow
def test_batch_memory_does_not_grow_with_the_contexts_already_checked(tmp_path: Path) -> None:
    _retained_growth(tmp_path, 3_000, lines=3)  # warm the per-process caches (jieba, words)
    small, large = _retained_growth(tmp_path, 21_000), _retained_growth(tmp_path, 63_000)
    # Two more lines of 42,000 more characters each: holding any part of each context would show as
    # hundreds of kilobytes; the bounded caches of the answers' sentences are alike in both.
    assert large - small < 2 * 42_000 // 4, (small, large)

"""The evidence-window search: its max-score shortcut and set lookups give exactly what scoring every
window of the context one by one gives (the checker's verdicts must not depend on the shortcut)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgate.text import is_cjk_text, normalize, tokenize
from groundgate.verify.windows import PAIR_MARGIN, ContextIndex, best_window, char_bigrams, weighted

_EPS = 1e-9

_SENTENCES = [
    "The payment gateway returns ERR_TIMEOUT (504) after 3 seconds.",
    "ERR_POOL_EXHAUSTED means the connection pool of payment-db is full.",
    "Escalate to the Platform on-call lead when latency stays high for 30 minutes.",
    "The Team B standup is at 10:15 on Zoom.",
    "The Team A standup is at 09:30 in room Orchid.",
    "年假需提前 3 个工作日在 OA 系统申请。",
    "员工累计工作满 10 年的，年假为 10 天。",
    "一线城市住宿每晚不超过 600 元，省会城市每晚不超过 450 元。",
    "病假超过 10 天的，超出部分按本人基本工资的 60% 发放。",
    "The payment gateway availability SLO is 99.95% over 30 days.",
]
_CLAIMS = [
    "The gateway returns ERR_TIMEOUT after 3 seconds.",
    "Team B meets at 10:15 on Zoom.",
    "年假需要提前 3 个工作日申请。",
    "省会城市住宿每晚 450 元。",
    "The pool of payment-db is full when ERR_POOL_EXHAUSTED is returned.",
    "病假工资按 60% 发放。",
    "Nothing here matches anything at all.",
]


def _full_scan(tokens: list[str], bigrams: set[str], index: ContextIndex) -> tuple[float, int]:
    """Score every posted window on its own; the best rank wins, the first window on a tie."""
    total = sum(w for _, w in weighted(tokens))
    weights: dict[str, float] = {}
    for token, w in weighted(tokens):
        weights[token] = weights.get(token, 0.0) + w
    best_score, best_w, best_rank = 0.0, -1, 0.0
    for w in sorted(index.unique_windows):
        covered = sum(weight for token, weight in weights.items() if index.covers(w, token))
        score = covered / total if total else 0.0
        if bigrams:
            score = (score + sum(1 for b in bigrams if index.contains(w, b)) / len(bigrams)) / 2
        rank = score - PAIR_MARGIN if w & 1 else score
        if rank > best_rank + _EPS:
            best_score, best_w, best_rank = score, w, rank
    return best_score, best_w


@settings(max_examples=60, deadline=None)
@given(
    passages=st.lists(
        st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=5).map(" ".join), min_size=1, max_size=3
    ),
    claim=st.sampled_from(_CLAIMS),
)
def test_the_window_search_finds_what_scoring_every_window_finds(passages: list[str], claim: str) -> None:
    index = ContextIndex.build(passages)
    tokens = tokenize(claim)
    bigrams = char_bigrams(normalize(claim)) if is_cjk_text(claim) else set()
    found = best_window(tokens, bigrams, index)
    score, window = _full_scan(tokens, bigrams, index)
    assert abs(found.score - score) < 1e-9
    assert found.number == window

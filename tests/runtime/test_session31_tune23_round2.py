"""Session 31, tune23 round 2: "how high did X get" asks the peak of a series (docs/design.md §8)."""

from __future__ import annotations

import pytest

from groundgate.contracts import Need
from groundgate.questions.window_stats import StatKind, asked_stats

_PEAK_ASKED = [
    ("how high did the consumer lag get", True),
    ("How high did the gateway p99 go today", True),
    ("how high was the wait queue", True),
    ("how high is the max_size limit", False),
    ("what time did it fire", False),
]


def _need(text: str) -> Need:
    return Need(id="n1", text=text, label=text)


@pytest.mark.parametrize(("text", "peak"), _PEAK_ASKED)
def test_how_high_a_series_got_asks_its_peak_but_a_configured_limit_does_not(text: str, peak: bool) -> None:
    kinds = [s.kind for s in asked_stats(_need(text))]
    assert (StatKind.PEAK in kinds) is peak

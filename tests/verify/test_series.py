"""When a metric recovered (docs/design.md §8): the peak, then the first point back within a fifth of the
way from the baseline to the peak that stays there — computed the same way by executor and verifier."""

from __future__ import annotations

import pytest

from groundgate.verify.series import (
    confirms_point,
    confirms_recovery,
    find_point,
    find_recovery,
    points_excerpt,
)


def _series(values: list[float], minutes: int = 5) -> dict[str, object]:
    return {
        "points": [
            [f"2026-03-14T{(13 * 60 + 30 + minutes * i) // 60:02d}:{(30 + minutes * i) % 60:02d}:00Z", v]
            for i, v in enumerate(values)
        ]
    }


# 5-minute buckets (each its maximum) of the ERR_TIMEOUT rate: 13:30 … 14:55.
_INCIDENT = [0.3, 0.2, 0.3, 0.3, 0.2, 0.3, 0.3, 0.2, 10.8, 16.1, 18.4, 14.8, 3.1, 0.26, 0.28, 0.27, 0.3, 0.2]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        # The 14:30 bucket holds 3.1 after a peak of 18.4: most of the way back, and it stays there.
        (_INCIDENT, ("14:20", 18.4, "14:30", 3.1)),
        # A dip that rebounds within the next points is no recovery; the later one is.
        ([0.3, 0.2, 0.3, 0.3, 18.0, 0.5, 15.0, 16.0, 0.4, 0.3, 0.3, 0.3], ("13:50", 18.0, "14:10", 0.4)),
    ],
)
def test_a_series_recovers_at_the_first_point_back_near_its_baseline_that_stays(
    values: list[float], expected: tuple[str, float, str, float]
) -> None:
    recovery = find_recovery(_series(values))
    assert recovery is not None
    assert (recovery.peak_at, recovery.peak, recovery.at, recovery.value) == expected


@pytest.mark.parametrize(
    "values",
    [
        [5.0, 6.0, 5.5, 7.0, 6.0, 5.0],  # no peak twice the baseline: nothing to recover from
        [0.3, 0.2, 0.3, 0.3, 18.0, 17.0, 16.0, 15.5],  # still high at the end of the window
        [0.3, 9.0],  # too few points to tell
    ],
)
def test_a_series_without_a_recovery_has_none(values: list[float]) -> None:
    assert find_recovery(_series(values)) is None


def test_a_claim_confirms_recovery_only_at_the_computed_time_and_value() -> None:
    series = _series(_INCIDENT)
    assert confirms_recovery("The rate recovered to 3.1 at 14:30 UTC.", series)
    assert not confirms_recovery("The rate recovered to 0.26 at 14:35 UTC.", series)
    assert not confirms_recovery("The rate was 3.1 at 14:30 UTC.", series)  # says nothing of recovery


# --------------------------------------------------------------------------- the value at a minute

_RAW = {
    "aggregation": "raw",
    "points": [
        ["2026-03-14T14:11:00Z", 88.4],
        ["2026-03-14T14:12:00Z", 87.21],
        ["2026-03-14T14:13:00Z", 86.0],
    ],
}


@pytest.mark.parametrize(
    ("series", "at", "day", "value"),
    [
        (_RAW, "14:12", None, 87.21),
        (_RAW, "14:12", "2026-03-14", 87.21),
        (_RAW, "14:12", "--03-14", 87.21),  # a day of any year
        (_RAW, "14:12", "2026-03-13", None),  # another day
        (_RAW, "14:14", None, None),  # no point then: nothing is interpolated
        ({**_RAW, "aggregation": "max"}, "14:12", None, None),  # bucket maxima are no value at a minute
    ],
)
def test_the_value_at_a_minute_is_the_raw_point_stamped_with_it(
    series: dict[str, object], at: str, day: str | None, value: float | None
) -> None:
    point = find_point(series, at, day)
    assert (point.value if point else None) == value
    if point is not None:
        assert points_excerpt(point) == '["2026-03-14T14:12:00Z", 87.21]'


@pytest.mark.parametrize(
    ("claim", "confirmed"),
    [
        ("payment_success_rate{service=payment-gateway} was 87.21 at 14:12 UTC on 2026-03-14.", True),
        ("payment_success_rate{service=payment-gateway} 在 2026-03-14 14:12 UTC 的值为 87.21。", True),
        ("payment_success_rate was 86.0 at 14:12 UTC.", False),  # the next minute's value
        ("payment_success_rate was 87.21 at 14:13 UTC.", False),  # the value of another minute
        ("payment_success_rate was 87.21.", False),  # no minute named
        ("payment_success_rate was 87.21 at 14:12 UTC, down from 99.5.", False),  # a figure of its own
    ],
)
def test_a_claim_confirms_a_point_only_with_its_minute_and_value(claim: str, confirmed: bool) -> None:
    assert confirms_point(claim, _RAW) is confirmed

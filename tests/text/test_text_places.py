"""A Chinese city stands for the class a lodging rule ranks it in; a city not listed has none."""

from __future__ import annotations

import pytest

from groundgate.text.places import city_classes


@pytest.mark.parametrize(
    ("city", "has", "lacks"),
    [
        ("杭州", "省会城市", "其他城市"),
        ("苏州", "其他城市", "省会城市"),
        ("宁波", "计划单列市", "省会城市"),
        # a first-tier city is that tier only, though 广州 is a capital too
        ("广州", "一线城市", "省会城市"),
        ("深圳", "一线城市", "计划单列市"),
    ],
)
def test_a_city_stands_for_its_class_only(city: str, has: str, lacks: str) -> None:
    classes = city_classes(city)
    assert has in classes
    assert lacks not in classes


def test_a_word_that_is_no_listed_city_has_no_class() -> None:
    assert city_classes("新加坡") == ()
    assert city_classes("酒店") == ()

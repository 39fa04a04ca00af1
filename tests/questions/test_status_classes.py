"""A class of HTTP statuses named in a question and the error codes a handbook maps into it
(docs/design.md §8, Session 31 round 3; `questions.status_classes`)."""

from __future__ import annotations

import pytest

from groundgate.questions.status_classes import asked_status_class, class_codes

_TIMEOUT = "## ERR_TIMEOUT\n\nERR_TIMEOUT 由支付网关返回。它与 ERR_POOL_EXHAUSTED 不同。HTTP 状态码为 504，可以重试。"
_POOL = "## ERR_POOL_EXHAUSTED\n\nERR_POOL_EXHAUSTED 表示连接池已满。它与 ERR_TIMEOUT 的区别是排不上队。HTTP 状态码为 503。"
_LIMIT = "## 超限响应\n\n请求超过配额时，网关立即返回 HTTP 429 和错误码 ERR_RATE_LIMIT。"
_TWO = "ERR_CHANNEL_UNAVAILABLE returns HTTP status 503; a retry may get HTTP status 200."
_EN = "ERR_CHANNEL_UNAVAILABLE means the bank channel is down. HTTP status code is 503."


@pytest.mark.parametrize(
    ("text", "digit"),
    [
        ("payment-gateway 5xx 错误率峰值几点？", "5"),
        ("What was the peak 5XX error rate?", "5"),
        ("how many 4xx did acme get", "4"),
        ("5xx or 4xx, which was higher?", None),
        ("ERR_TIMEOUT 错误率峰值", None),
        ("PAY-5xxx 计入错误预算吗", None),
    ],
)
def test_a_question_names_one_status_class_by_its_first_digit(text: str, digit: str | None) -> None:
    assert asked_status_class(text) == digit


@pytest.mark.parametrize(
    ("passages", "digit", "codes"),
    [
        # Each section maps the code it is about, not the code it is compared with.
        ([_TIMEOUT, _POOL, _LIMIT], "5", {"ERR_TIMEOUT", "ERR_POOL_EXHAUSTED"}),
        ([_TIMEOUT, _POOL, _LIMIT], "4", {"ERR_RATE_LIMIT"}),
        ([_EN], "5", {"ERR_CHANNEL_UNAVAILABLE"}),
        # A passage naming two statuses maps nothing.
        ([_TWO], "5", set()),
        ([], "5", set()),
    ],
)
def test_the_codes_of_a_class_are_those_a_passage_maps_to_one_status_of_it(
    passages: list[str], digit: str, codes: set[str]
) -> None:
    assert class_codes(passages, digit) == codes

"""Tolerant matching, sentence splitting and tokenisation (Chinese and English)."""

from __future__ import annotations

import pytest

from groundgate.text.segmentation import find_tolerant, is_cjk_text, normalize, split_sentences, tokenize


@pytest.mark.parametrize(
    ("needle", "haystack"),
    [
        ("连接池 耗尽", "根因是：连接池耗尽。"),
        ("ＥＲＲ＿ＴＩＭＥＯＵＴ", "code ERR_TIMEOUT here"),
        ("5000元", "不超过5,000 元。"),
        ("Pool Exhausted", "the pool\nexhausted at 14:05"),
        ("不超过，600元", "每晚不超过600元"),
    ],
)
def test_tolerant_match_finds(needle: str, haystack: str) -> None:
    span = find_tolerant(needle, haystack)
    assert span is not None
    start, end = span
    assert normalize(haystack[start:end]) == normalize(needle)


@pytest.mark.parametrize(
    ("needle", "haystack"),
    [
        ("50", "limit 500"),  # digits are strict: no match inside a longer number
        ("ERR_TIME", "code ERR_TIMEOUT here"),  # identifiers are strict
        ("v1.2", "version v12"),
        ("600元", "每晚不超过 6000 元"),
        ("", "anything"),
    ],
)
def test_tolerant_match_is_strict_on_digits_and_identifiers(needle: str, haystack: str) -> None:
    assert find_tolerant(needle, haystack) is None


def test_split_sentences_keeps_offsets() -> None:
    text = "支付网关返回 ERR_TIMEOUT。根因是连接池耗尽！版本 v2.3.1 已修复. The limit is 5,000 yuan, e.g. for travel.\n- 第一步：重启服务\n1. Restart it. 2. Check logs"
    spans = split_sentences(text)
    assert [s.text for s in spans] == [
        "支付网关返回 ERR_TIMEOUT。",
        "根因是连接池耗尽！",
        "版本 v2.3.1 已修复.",
        "The limit is 5,000 yuan, e.g. for travel.",
        "第一步：重启服务",
        "Restart it.",
        "Check logs",
    ]
    for span in spans:
        assert text[span.start : span.end] == span.text


def test_split_sentences_drops_empty_and_punctuation_only() -> None:
    assert split_sentences("  \n。。\n") == []


def test_tokenize_segments_chinese_and_stems_english() -> None:
    tokens = tokenize("支付网关返回ERR_TIMEOUT错误，timeouts were failing on /api/pay v2.3.1")
    assert "支付" in tokens
    assert "网关" in tokens
    assert "err_timeout" in tokens
    assert "timeout" in tokens
    assert "fail" in tokens
    assert "api/pay" in tokens
    assert "v2.3.1" in tokens
    assert "were" not in tokens  # stop word


def test_is_cjk_text() -> None:
    assert is_cjk_text("连接池耗尽 ERR_TIMEOUT")
    assert not is_cjk_text("The pool ran dry")
    assert not is_cjk_text("1234")


def test_tolerant_match_skips_a_partial_hit_and_finds_the_clean_one() -> None:
    haystack = "5000 and 500 units"
    assert find_tolerant("500", haystack) == (9, 12)


@pytest.mark.parametrize(
    ("needle", "haystack"),
    [
        ("500", "500,000 元"),
        ("5000", "5000.5"),
        ("v1", "v1.2"),
        ("ERR-TIMEOUT", "ERR-TIMEOUT-2"),
        ("温度 5 度", "温度 -5 度"),
        ("温度 -5 度", "温度 5 度"),
    ],
)
def test_tolerant_match_refuses_partial_numbers_identifiers_and_sign_changes(
    needle: str, haystack: str
) -> None:
    assert find_tolerant(needle, haystack) is None


@pytest.mark.parametrize(
    "text",
    [
        "v1.2 and v12, /api/pay vs apipay, 10:30 - 11:00, ERR_TIMEOUT. " * 20,
        "连接池耗尽（ERR_POOL_EXHAUSTED），重试 3 次…… 见 https://x.example/a-b。" * 20,
        "Ｆｕｌｌ－ｗｉｄｔｈ：１２．５％ ＝ ｍａｘ／ｍｉｎ ㎡ ½ ﬁle" * 20,
        ".-/:" * 200 + "a.b-c/d:e" * 100,
    ],
    ids=["ascii-joiners", "chinese", "full-width", "joiners-only"],
)
def test_a_long_text_normalizes_exactly_as_character_by_character(text: str) -> None:
    """Long texts take a faster path (runs translated in C); the result must be the same."""
    from groundgate.text.segmentation import normalize_with_map

    assert len(text) > 256
    assert normalize(text) == normalize_with_map(text)[0]
    assert normalize(text, cache=False) == normalize(text)


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Use e.g. the pool. Then retry.", ["Use e.g. the pool.", "Then retry."]),
        ("1. Restart it. 2. Check logs.", ["Restart it.", "Check logs."]),
        ("See Fig. 3 and approx. 5 s. Done.", ["See Fig. 3 and approx. 5 s.", "Done."]),
        ("a" * 5_000 + " b. c.", ["a" * 5_000 + " b.", "c."]),
        ("5.5 million", ["5.5 million"]),
    ],
    ids=["abbreviation", "list-numbers", "more-abbreviations", "a-very-long-word", "a-leading-decimal"],
)
def test_sentence_ends_skip_abbreviations_and_list_numbers(text: str, sentences: list[str]) -> None:
    assert [s.text for s in split_sentences(text)] == sentences


def test_tokenize_cache_gives_each_caller_its_own_list() -> None:
    """The tokens of a text are cached (issue 12): a caller that changes its list changes nothing
    for the next caller, and the cached answer is the uncached one."""
    text = "连接池耗尽时 retries fail with ERR_POOL_EXHAUSTED"
    first = tokenize(text)
    expected = list(first)
    first.append("mutated")
    first.clear()
    assert tokenize(text) == expected == tokenize(text, cache=False)
    assert tokenize(text) is not tokenize(text)
    assert tokenize(text, keep_stopwords=True) == tokenize(text, keep_stopwords=True, cache=False)
    assert "with" in tokenize(text, keep_stopwords=True)
    assert "with" not in tokenize(text)

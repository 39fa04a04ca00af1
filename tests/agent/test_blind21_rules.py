"""General rules of session 31's blind 21 set: a reviewer's view of someone else's claim read as
circumstance, sums in words, polite frames, deadlines counted from a trip's end, and follow-ups that
change only the time a question is placed in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from groundgate.agent import NeedCode
from groundgate.agent.context import ConversationState, resolve_context
from groundgate.agent.reviewing import read_polite_english, read_reviewing
from groundgate.agent.vocabulary import NEED_CUES
from groundgate.demo.hr import demo_context


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "我是财务，在审一位同事的报销单：她去广州出差住了3晚，每晚能报多少？",
            "她去广州出差住了3晚，每晚能报多少？",
        ),
        ("财务这边收到一张差旅报销单，今天才提交上来，还能受理吗？", "差旅报销，今天才提交，还能报销吗？"),
        ("我在复核一张单子：伙食补贴报了四百，对吗？", "伙食补贴报了400元，对吗？"),
        ("HRBP这边核算员工的病假工资，怎么发？", "病假工资，怎么发？"),
        ("员工连续请8天病假，作为HRBP我需要审批吗？", "员工连续请8天病假，需要HRBP审批吗？"),
        # a task the asker must approve, and another employee's rows, are left alone
        (
            "我要审批张伟的北京差旅报销单，这条待办哪天截止？",
            "我要审批张伟的北京差旅报销单，这条待办哪天截止？",
        ),
        ("想核对一下张伟名下还有哪些没处理完的待办", "想核对一下张伟名下还有哪些没处理完的待办"),
    ],
)
def test_a_reviewers_role_and_the_claim_in_hand_are_read_as_circumstance(question: str, read_as: str) -> None:
    assert read_reviewing(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("二线城市住一晚四百五，能全报吗？", "二线城市住一晚450元，能全额报销吗？"),
        ("住了一晚340的酒店", "住了一晚340元的酒店"),
        ("差旅报了一千二", "差旅报了1200元"),
        # a sum that goes on past its second digit is left whole
        (
            "去深圳出差住了一晚六百五十块，超出的五十块能报吗？",
            "去深圳出差住了一晚六百五十块，超出的五十块能报吗？",
        ),
        (
            "我上个月25号出差回来的，报销最晚得在什么时候前交？",
            "我上个月25号出差结束的，报销最晚什么时候交？",
        ),
        ("婚假一直没顾上休，现在还能补休吗？", "婚假，现在还能休吗？"),
        ("交的是社区诊所开的诊断证明，材料合规吗？", "诊断证明是社区诊所开的，要交什么材料？"),
        ("能不能麻烦问下，去深圳出差住宿一晚最多报多少？", "去深圳出差住宿一晚最多报多少？"),
    ],
)
def test_sums_in_words_deadlines_and_polite_frames_are_read_in_the_documents_words(
    question: str, read_as: str
) -> None:
    assert read_reviewing(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        (
            "I was wondering whether you could tell me who needs to approve a 6k travel claim?",
            "who needs to approve a 6000 yuan travel expense claim?",
        ),
        (
            "Quick one: is a hotel at RMB 800 a night fine? I don't know the city yet.",
            "is a hotel at RMB 800 a night fine?",
        ),
        # a Chinese question is left to the Chinese readings
        ("bx 超过5k找谁批", "bx 超过5k找谁批"),
    ],
)
def test_an_english_questions_polite_frame_is_left_out(question: str, read_as: str) -> None:
    assert read_polite_english(question) == read_as


@pytest.mark.parametrize(
    ("question", "need"),
    [
        ("病假工资是按什么比例发的？", NeedCode.AMOUNT_RULE),
        ("年假没休完，年底可以折算成工资吗？", NeedCode.ELIGIBILITY),
    ],
)
def test_a_share_of_pay_and_a_conversion_to_pay_ask_their_needs(question: str, need: NeedCode) -> None:
    assert NEED_CUES[need].search(question)


@pytest.mark.parametrize(
    ("previous", "follow_up", "resolved"),
    [
        (
            "今年二月出差那几天，伙食补贴一天是多少？",
            "那换成下个月出差呢？",
            "下个月出差那几天，伙食补贴一天是多少？",
        ),
        (
            "去二线城市出差住宿一晚最多报多少？",
            "那去年十二月那趟呢？",
            "去年十二月那趟，去二线城市出差住宿一晚最多报多少？",
        ),
    ],
)
def test_a_follow_up_that_changes_only_the_time_puts_that_time_in_the_earlier_question(
    previous: str, follow_up: str, resolved: str
) -> None:
    state = ConversationState()
    state.remember(previous, [], [])
    now = datetime(2026, 4, 15, 9, tzinfo=UTC)
    assert resolve_context(follow_up, state, demo_context("u-li"), now).resolved_question == resolved

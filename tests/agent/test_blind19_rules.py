"""General rules of session 30's fourth blind set (blind 19): a length of service not yet reached beside
the one served, HR words in pinyin, "isn't it true that…", negative yes/no on a time limit, a sum a
night as lodging, and the cases a question leaves out before its figures are matched."""

from __future__ import annotations

from datetime import date

import pytest

from groundgate.agent import NeedCode
from groundgate.agent.context import ordinal_of
from groundgate.agent.english import read_english, read_mixed
from groundgate.agent.evidence import fitting
from groundgate.agent.excluded import excluded_cases, not_excluded
from groundgate.agent.negative import read_no_longer
from groundgate.agent.tiers import as_service_length
from groundgate.agent.vocabulary import NEED_CUES, OFFERED_FIGURES, entities_in

_TIERS = [
    "入职满 1 年不满 10 年的员工，每年享有年休假 5 天；",
    "满 10 年不满 20 年的每年享有年休假 10 天；",
    "满 20 年及以上的每年享有年休假 15 天。",
]
_LODGING = [
    "一线城市（北京、上海、广州、深圳）出差住宿费每晚不超过 600 元；",
    "二线城市出差住宿费每晚不超过 450 元；",
    "其他城市出差住宿费每晚不超过 350 元。",
]


@pytest.mark.parametrize(
    ("question", "tier"),
    [
        ("我 2006 年 4 月 16 日入职，再过一天就满二十年了，现在年假是不是 15 天？", "年休假 10 天"),
        ("我 2016 年 4 月 16 日入职，还差一天就满十年，年假几天？", "年休假 5 天"),
    ],
)
def test_a_length_not_yet_reached_is_no_condition_beside_the_one_served(question: str, tier: str) -> None:
    served = as_service_length(question, date(2026, 4, 15))
    assert [s for s in fitting(_TIERS, served) if "年休假" in s] == [s for s in _TIERS if tier in s]


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("chuchai 回来都一个多月了，是不是就不能 baoxiao 了？", "出差回来都一个多月了，是不是就不能报销了？"),
        ("nianjia 要提前几天申请？", "年假要提前几天申请？"),
        ("huoshi buzhu 一天多少？", "伙食补贴一天多少？"),
    ],
)
def test_hr_words_in_pinyin_inside_a_chinese_question_are_read_in_the_documents_words(
    question: str, read_as: str
) -> None:
    assert read_mixed(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Isn't it true that the chuchai huoshi buzhu is 100 kuai a day?", "出差伙食补贴是不是100元每天？"),
        ("Is it true that annual leave is 5 days?", "年假是不是5天？"),
        ("My wife is due next month. How many days of peichanjia do I get?", "陪产假"),
    ],
)
def test_a_premise_put_up_for_checking_in_english_is_asked_with_shi_bu_shi(
    question: str, read_as: str
) -> None:
    assert read_as in read_english(question)


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("出差回来都一个多月了，是不是就不能报销了？", "出差回来都一个多月了，还能报销吗？"),
        ("是不是不能再交了？", "还能交吗？"),
        ("婚假过了一年就不能休了吧？", "婚假过了一年还能休吗？"),
        # may it be claimed at all: no time limit is asked
        ("超标的部分不能报吗？", "超标的部分不能报吗？"),
    ],
)
def test_no_longer_allowed_is_asked_as_whether_it_still_is(question: str, read_as: str) -> None:
    assert read_no_longer(question) == read_as


@pytest.mark.parametrize(
    ("question", "lodging"),
    [
        ("上海出差一晚 601 元，能全报吗？", True),
        ("上海出差🏨能全报吗？", True),
        ("上海出差每晚 500 块够不够？", True),
        ("出差一天伙食补贴多少？", False),
    ],
)
def test_a_sum_a_night_is_lodging_said_without_the_noun(question: str, lodging: bool) -> None:
    assert ("住宿" in entities_in(question)) is lodging


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("去一二线以外的城市出差，酒店一晚 351 元，超标了吗？", ["其他城市出差住宿费每晚不超过 350 元。"]),
        # nothing left out: every tier stays for the figures to decide (601 元 is over none of them)
        ("酒店一晚 300 元，超标了吗？", _LODGING),
    ],
)
def test_the_cases_a_question_leaves_out_are_dropped_before_its_figures_are_matched(
    question: str, kept: list[str]
) -> None:
    assert fitting(not_excluded(_LODGING, question), question) == kept


@pytest.mark.parametrize(
    ("question", "cases"),
    [("一二线以外的城市", ["一线", "二线"]), ("非一线城市", ["一线"]), ("北京以外的地方", ["北京"])],
)
def test_excluded_cases_are_read_from_yiwai_and_fei(question: str, cases: list[str]) -> None:
    assert excluded_cases(question) == cases


@pytest.mark.parametrize(
    ("question", "asks_steps"),
    [
        ("超出的部分怎么处理？", False),
        ("超出部分如何处理？", False),
        ("报销单被退回了怎么处理？", True),
    ],
)
def test_what_happens_to_the_excess_is_no_process_question(question: str, asks_steps: bool) -> None:
    assert bool(NEED_CUES[NeedCode.PROCESS_STEPS].search(question)) is asks_steps


@pytest.mark.parametrize(
    ("question", "ordinal"),
    [
        ("按《出差管理办法》第 5 条，出差伙食补贴每天标准是多少？", None),
        ("差旅制度第三条怎么说？", None),
        ("第二条是什么状态？", 2),
        ("第 3 个任务什么时候到期？", 3),
    ],
)
def test_an_article_of_a_named_document_is_no_list_item(question: str, ordinal: int | None) -> None:
    assert ordinal_of(question) == ordinal


@pytest.mark.parametrize(
    ("question", "offered"),
    [
        ("现在结婚还是按 3 天吗？", True),
        ("病假工资仍然按 80% 吗？", True),
        ("婚假还是 10 天", False),
    ],
)
def test_an_old_figure_asked_whether_it_still_holds_is_offered_not_a_condition(
    question: str, offered: bool
) -> None:
    assert bool(OFFERED_FIGURES.search(question)) is offered

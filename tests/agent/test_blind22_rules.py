"""General rules of session 31's blind 22 set: everyday words read as the documents' terms, rumoured
premises checked against the true rule, asks no document answers (a rule's reason, how leave days are
counted), and "where is that written" follow-ups answered with the rule just asked."""

from __future__ import annotations

import pytest

from groundgate.agent.everyday import asks_unwritten, asks_where_written, read_everyday, where_written


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("下周回老家办婚礼，能歇几天？", "下周休婚假，能歇几天？"),
        ("生病请假在家，工资是全额照发还是要打折？", "休病假，工资怎么发？"),
        ("想请几天假出去旅游，公司让请吗？", "想休年假，能休吗？"),
        ("连休一周出去玩，要哪几位领导点头？", "连休一周休年假，要谁审批？"),
        ("去外地跑业务自己垫的钱，在电脑上怎么报？", "出差报销，在费控系统里怎么报销？"),
        ("酒店消费明细单丢了，这样能报吗？", "酒店水单丢了，报销要交哪些材料？"),
        ("病假明天就休，今天才提，会不会批不下来？", "病假明天就休，今天才提，需要提前几天申请？"),
        ("出差回来报销有没有期限？", "出差回来报销要在多少天内提交？"),
        # a kind of leave already named is not replaced by the grounds
        ("我的婚假还没休，公司让请吗？", "我的婚假还没休，能休吗？"),
    ],
)
def test_everyday_words_are_read_as_the_documents_terms(question: str, read_as: str) -> None:
    assert read_everyday(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("那个年休假的事我是不是早就该弄完了？", "年休假那件事我是不是过期了？"),
        ("张伟报销那事，我是不是还没给他批？", "张伟报销那件事，我是不是还没批？"),
        ("给自己打分的那个表交了吗？", "绩效自评那个表交了吗？"),
    ],
)
def test_a_task_said_by_what_it_is_about_is_read_in_its_titles_words(question: str, read_as: str) -> None:
    assert read_everyday(question) == read_as


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        # the asker's own circumstance follows: the rule for it answers, the rumoured condition goes
        ("听同事说年假要干满五年才有，我入职两年了，是不是没有？", "年假，我入职两年了，是不是没有？"),
        # only a conclusion follows: the premise itself is checked
        ("我记得病假工资只发一半，那我这个月工资要少一半了吧？", "病假工资只发一半，对吗？"),
    ],
)
def test_a_rumoured_premise_is_checked_against_the_true_rule(question: str, read_as: str) -> None:
    assert read_everyday(question) == read_as


@pytest.mark.parametrize(
    ("question", "unwritten"),
    [
        ("为什么偏偏定 600 元？", True),
        ("为啥超过五千还得总监批？", True),
        ("婚假多休的一天算什么假？", True),
        ("节假日算在婚假里面吗？", True),
        # why one's own claim was cut is answered with the rule
        ("为什么报销下来每晚只给我报了 600？", False),
        ("婚假有几天？", False),
    ],
)
def test_a_rules_reason_and_how_leave_days_are_counted_are_never_answered(
    question: str, unwritten: bool
) -> None:
    assert asks_unwritten(question) is unwritten


@pytest.mark.parametrize(
    ("question", "previous", "resolved"),
    [
        ("这条写在哪儿？", "出差结束后多少天内要提交报销？", "出差结束后多少天内要提交报销？"),
        ("那这条是在哪份规定里？", "为啥病假要诊断证明？", "病假要诊断证明？"),
        ("病假要几天？", "婚假有几天？", None),
        ("这个是哪份文件里写的？", "", None),
    ],
)
def test_where_a_rule_is_written_asks_the_rule_just_asked_again(
    question: str, previous: str, resolved: str | None
) -> None:
    assert where_written(question, previous) == resolved


@pytest.mark.parametrize(
    ("part", "answered_by_the_rule"),
    [
        ("这规定写在哪儿", True),
        ("一线城市住宿不是 800 封顶吗", True),
        ("报销款会打到哪张卡上", False),
    ],
)
def test_where_written_and_a_doubted_figure_leave_no_part_unanswered(
    part: str, answered_by_the_rule: bool
) -> None:
    assert asks_where_written(part) is answered_by_the_rule

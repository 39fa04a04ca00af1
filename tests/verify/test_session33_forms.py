"""Forms of a right answer the checker used to flag, and the lies beside them it must catch
(docs/design.md §2.1, "Session 33"): a span of days counted from an earlier sentence's date or back
from a deadline, a span of months written with abbreviations, facts of one short note joined in one
sentence; a remark credited to another speaker, an allowance retold as an obligation, a rule kept to
some of a kind retold of all of it, talks retold as an agreement made."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.certainty import (
    agreement_added,
    obligation_added,
    obligation_dropped,
    qualified_widened,
)
from groundgate.verify.fidelity import extract
from groundgate.verify.grounding_check import check
from groundgate.verify.speakers import speaker_swaps

_RIGHT = [
    # two days later: counted from the earlier sentence's 20 September to the context's 22 Sep
    (
        [
            "Security review, 20 Sep 2032. Decision: production database write access limited to the "
            "on-call SRE and the two DB admins (Liv Haas, Omar Quint).",
            "Follow-up, 22 Sep 2032, Liv Haas: Access groups updated; old 'db-writers' group deleted.",
        ],
        "The 20 September 2032 security review limited production write access to the on-call SRE and "
        "the two database admins, Liv Haas and Omar Quint. Liv confirmed two days later that the access "
        "groups had been updated and the old db-writers group removed.",
    ),
    # four days before the deadline, and `Jan–Mar` read as months; the facts of one short note joined
    (
        [
            "Audit prep meeting, 12 Apr 2033. External auditors (Halvard & Co) on site 5–9 May. Owner: "
            "Sigrid Ekholm. All evidence folders to be complete by 28 Apr.",
            "Email, Sigrid Ekholm → controllers, 13 Apr 2033: Please upload bank reconciliations for "
            "Jan–Mar to the evidence folder by 24 Apr, four days ahead of the overall deadline.",
        ],
        "Halvard & Co's auditors will be on site from 5 to 9 May 2033, with Sigrid Ekholm owning the "
        "preparation and all evidence folders due complete by 28 April. In a follow-up email, Sigrid "
        "asked the controllers to upload the January to March bank reconciliations by 24 April, four "
        "days before that overall deadline.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _RIGHT)
def test_a_right_answer_in_these_forms_passes(context: list[str], answer: str) -> None:
    assert check(context=context, answer=answer).verdict is Verdict.PASS


_LIES = [
    # the days counted wrongly from the earlier sentence's date
    (
        _RIGHT[0][0],
        "The 20 September 2032 security review limited production write access to the on-call SRE and "
        "the two database admins, Liv Haas and Omar Quint. Liv confirmed three days later that the access "
        "groups had been updated and the old db-writers group removed.",
    ),
    # the remark credited to another person of the minutes
    (
        [
            "Product sync, 3 March 2032. Attendees: Reni Okafor (PM), Tomasz Weller (eng lead), Hana Lusk "
            "(design). Reni proposed moving the export feature to Q3. Tomasz said the API refactor needs "
            "two more sprints before export can start."
        ],
        "At the 3 March sync, Reni Okafor suggested pushing the export feature to Q3, and Hana Lusk "
        "pointed out that the API refactor still needs two more sprints before export work can begin.",
    ),
    # what contractors may do retold as what they must do
    (
        [
            "Ops meeting, 3 May 2033. Decision: all staff must enrol a hardware key by 31 May. Contractors "
            "may keep using app-based codes until their contracts end."
        ],
        "All staff have to enrol a hardware key by 31 May, and contractors are required to stay on "
        "app-based codes until their contracts end.",
    ),
    # a short labelled note joins people and dates, not two of its list's identifiers swapped
    (
        [
            "Event bus architecture: the `orders.v2` topic has 24 partitions, replication factor 3 and "
            "min.insync.replicas=2; producers use acks=all. Retention is 7 days by time, with no size limit. "
            "Consumer groups: billing-sync (group billing-sync-g1), search-indexer (group search-idx) and "
            "fraud-stream (group fraud-g3)."
        ],
        "search-indexer consumes orders.v2 with the consumer group billing-sync-g1.",
    ),
    # free shipping over £40 retold as free on every order
    (
        ["Shipping — UK: standard delivery 2–3 working days, free on orders over £40, otherwise £3.99."],
        "Standard UK delivery takes 2–3 working days and it's free on every order.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _LIES)
def test_the_lie_beside_each_form_does_not_pass(context: list[str], answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


_SPEAKERS = [
    # English minutes: the remark is Tomasz's
    (
        "Hana Lusk pointed out that the API refactor still needs two more sprints.",
        "Reni proposed moving the export feature to Q3. Tomasz said the API refactor needs two more "
        "sprints before export can start. Hana Lusk (design) attended.",
        ("Hana Lusk", "Tomasz"),
    ),
    # the same remark credited to its own speaker, first name only in the context
    (
        "Tomasz Weller pointed out that the API refactor still needs two more sprints.",
        "Reni proposed moving the export feature to Q3. Tomasz said the API refactor needs two more "
        "sprints before export can start. Hana Lusk (design) attended.",
        None,
    ),
    # Chinese minutes written `speaker：remark`
    (
        "设计的白雪则表示重建索引大约要三天，建议安排在周末。",
        "参会：严峻（产品经理）、白雪（设计）、毛力（后端）。严峻：新版搜索要支持拼音模糊匹配。毛力：索引重建需要约三天，建议放在周末。",
        ("白雪", "毛力"),
    ),
    # a document is no speaker (`变更记录说明`), nor is a pronoun
    (
        "6月1日的变更记录又说明，report_v1会在7月31日下线。",
        "变更记录 6月1日：report_v1 将于7月31日下线。负责人章涛说迁移工具由他的团队提供。",
        None,
    ),
    (
        "He said the route had seen 14 cycling injuries.",
        "Councillor Dana Whitfield said the route had seen 14 cycling injuries in the past two years.",
        None,
    ),
]


@pytest.mark.parametrize(("claim", "context", "swap"), _SPEAKERS)
def test_a_remark_credited_to_another_person_of_the_context_is_read(
    claim: str, context: str, swap: tuple[str, str] | None
) -> None:
    found = speaker_swaps(claim, context)
    assert ((found[0].claimed, found[0].stated) if found else None) == swap


_OBLIGATIONS = [
    ("Contractors are required to stay on app-based codes.", "Contractors may keep using app-based codes.", True),
    ("The vendor-contracts module is mandatory for managers.", "The vendor-contracts module is optional for managers.", True),
    ("已有报表必须在7月31日之前迁移。", "report_v1 将于7月31日下线，建议已有报表在此之前迁移。", True),
    # the context requires it too, or its `may` is a possibility, not a permission
    ("Reports must be filed by Friday.", "Reports must be filed by Friday; drafts may be shared earlier.", False),
    ("Society must talk about mental illness.", "With treatment many can recover; the case may galvanize a talk about mental illness.", False),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "context", "added"), _OBLIGATIONS)
def test_an_allowance_retold_as_an_obligation_is_read(claim: str, context: str, added: bool) -> None:
    assert (obligation_added(claim, context) == ["obligation_added"]) is added


def test_a_requirement_retold_as_left_to_the_reader_is_read_in_both_languages() -> None:
    assert obligation_dropped("各部门负责人可以自愿每周汇报进度。", "行动项：各部门负责人需每周报告进度。")
    assert obligation_dropped(
        "You can record those days in the HR portal if you wish.",
        "Remote days must be recorded in the HR portal by Friday of the preceding week.",
    )
    assert not obligation_dropped("各部门负责人需要每周汇报进度。", "行动项：各部门负责人需每周报告进度。")


_WIDENED = [
    ("It's free on every order.", "Standard delivery is free on orders over £40, otherwise £3.99.", True),
    ("Business class is allowed on any flight.", "Business-class flights are allowed for flights over 6 hours.", True),
    # the claim keeps the qualifier, or the context says it of every one too
    ("Any deal over €50k still needs her signature.", "Deals above €50k still need my signature.", False),
    ("Every order ships within two days.", "Every order ships within two days; orders over £40 ship free.", False),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "context", "widened"), _WIDENED)
def test_a_rule_kept_to_some_of_a_kind_retold_of_all_of_it_is_read(
    claim: str, context: str, widened: bool
) -> None:
    assert bool(qualified_widened(claim, context)) is widened


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("upload reconciliations for Jan–Mar to the folder by 24 Apr", ["--01", "--03"]),
        ("figures for Oct-Dec 2033", ["--10"]),  # the year goes with the month next to it
        ("I mar the table - May I", []),
    ],
)
def test_a_span_of_months_written_with_abbreviations_is_read(text: str, months: list[str]) -> None:
    found = [str(m.value) for m in extract(text) if m.kind == "date"]
    assert all(month in found for month in months)
    assert months or not found


_AGREEMENTS = [
    (
        "申办委员会已经和3家赞助商签约。",
        "申办委员会已获得省政府的书面支持承诺，并正在与3家赞助商进行洽谈。",
        True,
    ),
    (
        "The Collection museum in Lincoln has agreed to conserve the plaster cast.",
        "The trust is in talks with the Collection museum in Lincoln about conserving the plaster cast.",
        True,
    ),
    # the context says the agreement was made, whatever else it says of it
    (
        "Brightwater had signed a non-binding memorandum with the regional government.",
        "Brightwater has signed a memorandum with the regional government. Talks with landowners continue.",
        False,
    ),
    ("申办委员会已经和3家赞助商签约。", "申办委员会已与3家赞助商签约，另有两家正在洽谈。", False),
]


@pytest.mark.parametrize(("claim", "context", "added"), _AGREEMENTS)
def test_talks_retold_as_an_agreement_made_are_read(claim: str, context: str, added: bool) -> None:
    assert bool(agreement_added(claim, context)) is added


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("比上一届低了1.2个百分点", []),  # which class, not how many
        ("下一次检查在周五", []),
        ("同一个月里一起清运", [1.0]),  # `一个月` stays a month
        ("一届三年", [1.0, 36.0]),
    ],
)
def test_one_after_a_word_that_picks_which_is_no_count(text: str, counts: list[float]) -> None:
    assert [m.value for m in extract(text) if m.kind in ("count", "duration")] == counts

"""Negations a right answer writes where its source writes none, or another one, and the flips beside
them the checker must still catch (docs/design.md §2.1, "Session 34"): two negations side by side
(`未提前告知、未妥善安排`, `不炒不揉`) that are no double negation, a state not yet reached written as a
time before it, an elided `but not X`, `as long as no …` for `unless …`, a stem read two ways
(`fined`/`fines`), a restriction's complement drawn for the asker, and `无理由` as a fixed term."""

from __future__ import annotations

import pytest

from groundgate.contracts import Verdict
from groundgate.verify.grounding_check import check

_RIGHT = [
    # two negations side by side, the second after a list separator
    (
        "二审法院认为，公司未提前告知消费者、未妥善安排后续课程，构成根本违约。",
        "二审认为它未提前告知、也没妥善安排后续课程，构成根本违约。",
    ),
    # two negations side by side with no separator: 不炒不揉 negates both
    ("传统工艺只有萎凋和干燥两道工序，不炒不揉。", "传统做法只有萎凋和干燥两步，既不炒也不揉。"),
    # a state not yet reached written as the time before it
    (
        "商家接单前取消订单，全额退款；商家接单后、出餐前取消，需商家同意；出餐后取消，不予退款。",
        "商家还没接单时取消，可以全额退款；商家已经接单但还没出餐，就得商家同意才能取消。",
    ),
    # an elided `but not X`: one side negates the verb, the other its object
    (
        "All screen repairs carry a 6-month warranty that covers touch faults and dead pixels but not new cracks.",
        "It comes with a six-month warranty against touch faults and dead pixels, though fresh cracks "
        "aren't covered.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _RIGHT)
def test_a_negation_written_another_way_is_no_flip(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is Verdict.PASS, [(c.text, c.reason_codes) for c in result.claims]


_NO_FLIP = [
    # `as long as no …` says what `unless …` says
    (
        "An item can be renewed twice online or at the desk, unless another member has reserved it.",
        "It can be renewed twice, online or at the desk, as long as no other member has reserved the item.",
    ),
    # `fined` and `fines` are one word
    (
        "Overdue fines are 20p per day for books; children's cards incur no fines.",
        "Children's cards aren't fined at all.",
    ),
    # the complement of a restriction, drawn for the asker: a conclusion, not a denial of the rule
    (
        "Directors and above may exceed the cap by up to 15% without pre-approval.",
        "The option to go up to 15% over the cap without pre-approval is only for directors and above, so "
        "it doesn't apply to you.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _NO_FLIP)
def test_a_negation_that_agrees_with_its_source_is_never_called_a_flip(context: str, answer: str) -> None:
    for claim in check(context=context, answer=answer).claims:
        assert "fidelity:negation_flip" not in claim.reason_codes, claim.text


_FLIPS = [
    # the object the source excepts is not the one the answer excepts
    (
        "All screen repairs carry a 6-month warranty that covers touch faults and dead pixels but not new cracks.",
        "The warranty covers new cracks, though touch faults aren't covered.",
    ),
    # a state reached is not the time before it
    ("商家接单前取消订单，全额退款。", "商家接单后取消，也可以全额退款，没有限制。"),
    # two negations side by side still deny what the source states plainly
    ("公司已提前告知消费者，并妥善安排了后续课程。", "公司未提前告知消费者、未妥善安排后续课程。"),
    # `无理由` is a fixed term: the flip is of `支持`
    ("签收后 15 天内可无理由退货。生鲜类商品不支持无理由退货。", "生鲜类商品也支持无理由退货。"),
    # a rule denied without a restriction before it is still a flip
    (
        "A 14-day waiting period applies to illness claims.",
        "The 14-day waiting period doesn't apply to illness claims.",
    ),
]


@pytest.mark.parametrize(("context", "answer"), _FLIPS)
def test_a_negation_that_denies_its_source_is_still_flagged(context: str, answer: str) -> None:
    assert check(context=context, answer=answer).verdict is not Verdict.PASS


_LISTING = (
    '{"name": "Kumo Ramen", "address": "18 Castle Street, Edinburgh", "attributes": {"RestaurantsPriceRange2": 2, '
    '"Alcohol": "beer_and_wine", "RestaurantsReservations": false, "GoodForKids": true, "NoiseLevel": "loud"}, '
    '"hours": {"Tue-Sun": "12:00-22:00", "Mon": "closed"}, "reviews": [{"user": "Aoife", "stars": 5, "text": '
    '"Rich tonkotsu broth."}, {"user": "Callum", "stars": 2, "text": "The gyoza were cold."}, {"user": "Mei", '
    '"stars": 4, "text": "Great spicy miso, but the seating is tight."}]}'
)


def test_a_listing_described_in_the_words_people_use_passes() -> None:
    answer = (
        "Kumo Ramen on Castle Street is moderately priced and doesn't take bookings. It serves beer and wine, "
        "welcomes children and can be loud. It opens at noon and closes at 10 p.m. from Tuesday to Sunday."
    )
    result = check(context=_LISTING, answer=answer)
    assert result.verdict is Verdict.PASS, [(c.text, c.reason_codes) for c in result.claims]


@pytest.mark.parametrize(
    "answer",
    [
        "Kumo Ramen is an upscale ramen shop on Castle Street.",  # price level 2 is not upscale
        "Kumo Ramen takes reservations, so book ahead.",  # RestaurantsReservations: false
        "Aoife gave it five stars, Callum gave three stars and Mei gave four.",  # Callum's review has 2
    ],
)
def test_a_listing_described_otherwise_than_its_fields_is_flagged(answer: str) -> None:
    assert check(context=_LISTING, answer=answer).verdict is not Verdict.PASS


def test_a_change_written_from_to_gives_its_ends_as_operands() -> None:
    context = "series: memory\n09:00  1.20 GiB\n12:00  1.97 GiB\ncontainer memory limit: 2.5 GiB"
    answer = "Between 09:00 and 12:00 memory climbed from 1.20 GiB to 1.97 GiB, an increase of 0.77 GiB."
    for claim in check(context=context, answer=answer).claims:
        assert not any(code.startswith("fidelity:number") for code in claim.reason_codes), claim.reason_codes


_HOURS = '{"name": "Forno Nero", "hours": {"Monday": "closed", "Tue-Sun": "17:00-22:00"}}'
_HOURS_ZH = (
    '{"店名": "阿里郎烤肉", "营业时间": {"周一": "休息", "周二至周四": "17:00-23:30", "周日": "12:00-22:00"}}'
)


@pytest.mark.parametrize(
    ("context", "answer", "flagged"),
    [
        (_HOURS, "Forno Nero is closed on Tuesdays.", True),
        (_HOURS, "Forno Nero is closed on Mondays.", False),
        (_HOURS, "Forno Nero opens Tuesday to Sunday from 5 p.m. and is closed on Mondays.", False),
        (_HOURS_ZH, "阿里郎烤肉周二店休。", True),
        (_HOURS_ZH, "阿里郎烤肉周一店休。", False),
    ],
)
def test_a_closing_day_moved_to_a_day_with_hours_is_flagged(context: str, answer: str, flagged: bool) -> None:
    assert (check(context=context, answer=answer).verdict is not Verdict.PASS) is flagged


_BOOKING = (
    '{"hotel": "Harbourlight Hotel", "guests": {"adults": 2, "children": 0}, "rate_per_night_gbp": 184, '
    '"check_in": "2025-05-16", "check_out": "2025-05-19"}'
)


@pytest.mark.parametrize(
    ("context", "answer", "passes"),
    [
        # a product said with `in all` after it, and twelve months said `for the year`
        (_BOOKING, "The Harbourlight Hotel booking is three nights at £184 a night, £552 in all.", True),
        (
            '{"plan": "Team", "price_per_user_month_usd": 12, "min_users": 3}',
            "The Team plan is billed at $12 per user per month and needs at least three users. For eight users "
            "that is $96 a month, or $1,152 for the year.",
            True,
        ),
        # a count in words given to a field whose key is that one word
        (_BOOKING, "The Harbourlight Hotel booking is for three adults.", False),
        (_BOOKING, "The Harbourlight Hotel booking is for two adults.", True),
    ],
)
def test_figures_worked_or_counted_from_a_record(context: str, answer: str, passes: bool) -> None:
    result = check(context=context, answer=answer)
    assert (result.verdict is Verdict.PASS) is passes, [(c.text, c.reason_codes) for c in result.claims]

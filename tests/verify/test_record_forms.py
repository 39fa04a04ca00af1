"""Records described in prose: a claim's values must match the record's fields. True descriptions
(paraphrased yes/no fields, enumerations, units, hours, currencies) pass; a changed value, a flipped
yes/no, a wrong enumeration or a figure moved to another field is contradicted."""

from __future__ import annotations

import json

import pytest

from groundgate.contracts import Verdict
from groundgate.verify import records
from groundgate.verify.grounding_check import check

_ORDER = json.dumps(
    {
        "order_id": "A-77120",
        "customer": {"name": "Harbor Lane Bakery", "city": "Portland"},
        "status": "partially_shipped",
        "lines": [{"sku": "FLR-25", "qty": 12, "shipped": 12}, {"sku": "YST-1", "qty": 6, "shipped": 0}],
        "carrier": "UPS",
        "eta": "2024-09-18",
        "paid": False,
    }
)
_INVOICE = '{"order_id": "A-77120", "invoice_total_usd": 684.50, "paid": false, "carrier": "UPS"}'
_CAFE = json.dumps(
    {
        "name": "Blue Fig Cafe",
        "stars": 4.5,
        "review_count": 128,
        "attributes": {
            "WiFi": "free",
            "DogsAllowed": False,
            "OutdoorSeating": True,
            "NoiseLevel": "quiet",
            "BusinessParking": "{'garage': False, 'street': True, 'valet': False}",
        },
        "hours": {"open": "8:0", "close": "17:0"},
    }
)
_LAPTOP = json.dumps(
    {
        "product": "Kestrel 14",
        "in_stock": True,
        "ram_gb": 32,
        "ram_upgradeable": False,
        "weight_kg": 1.29,
        "color": "silver",
        "warranty_years": 2,
    }
)
_METRICS = json.dumps(
    {"service": "checkout-api", "p99_latency_ms": 840, "error_rate": 0.021, "status": "degraded"}
)
_HOTEL = json.dumps(
    {
        "hotel": "Harbor Inn",
        "breakfast_included": False,
        "pets_allowed": True,
        "parking": {"available": True, "fee_per_night": 18, "currency": "USD"},
    }
)
_TICKET = json.dumps(
    {
        "ticket": "INC-4471",
        "priority": "high",
        "state": "in_progress",
        "resolved": None,
        "assignee": "Lee Wong",
    }
)
_ITEMS = json.dumps(
    [
        {"sku": "A1", "name": "Espresso beans", "qty": 2, "in_stock": True},
        {"sku": "B2", "name": "Oat milk", "qty": 1, "in_stock": False},
    ]
)
_BOOKING = "Passenger: Ana Ribeiro\nTrain: Eurostar 9014\nRefundable: no\nWiFi: yes\nTicket: semi-flexible"
_ORDER_ZH = "订单号: 20240918-77\n收件人: 王芳\n状态: 部分发货\n已发货: 否\n支付方式: 微信支付\n颜色: 黑色"


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (_CAFE, "There is street parking but no garage."),
        (_CAFE, "Dogs are not allowed, but there is outdoor seating."),
        (_CAFE, "It has free Wi-Fi and outdoor seating."),
        (_CAFE, "It's a quiet place."),
        (_CAFE, "It opens at 8 am and closes at 5 pm."),
        (_BOOKING, "The ticket is not refundable."),
        (_HOTEL, "Breakfast is not included, but pets are allowed."),
        (_HOTEL, "Parking costs $18 per night."),
        (_ITEMS, "Espresso beans are in stock, but oat milk is out of stock."),
        (_INVOICE, "The invoice comes to $684.50 and hasn't been paid yet."),
        (_METRICS, "The error rate was 2.1%."),
        (_ORDER_ZH, "订单部分发货，用微信支付。"),
    ],
)
def test_a_true_description_of_a_record_passes(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is Verdict.PASS, [(c.category, c.reason_codes) for c in result.claims]


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (_ORDER, "The order was delivered."),
        (_ORDER, "The order status is cancelled."),
        (_ORDER, "The order has been fully shipped."),
        (_ORDER, "It ships with FedEx."),
        (_CAFE, "It is a 4-star cafe."),
        (_CAFE, "It has 4.5 reviews and 128 stars."),
        (_CAFE, "It has paid Wi-Fi."),
        (_CAFE, "It has no Wi-Fi."),
        (_LAPTOP, "Its 32 GB of RAM can be upgraded."),
        (_LAPTOP, "It is out of stock."),
        (_LAPTOP, "It weighs 2 kg."),
        (_LAPTOP, "It has a 3-year warranty."),
        (_METRICS, "The error rate was 21%."),
        (_METRICS, "The p99 latency was 480 ms."),
        (_HOTEL, "Parking is free."),
        (_TICKET, "The ticket has been resolved."),
        (_TICKET, "The ticket is low priority."),
        (_TICKET, "The ticket is closed."),
        (_ITEMS, "Espresso beans are out of stock."),
        (_BOOKING, "The train has no Wi-Fi."),
        (_BOOKING, "The ticket is fully flexible."),
        (_ORDER_ZH, "订单用支付宝支付。"),
        (_ORDER_ZH, "颜色是白色。"),
    ],
)
def test_a_value_the_record_states_otherwise_is_rejected(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is Verdict.REJECT, [(c.category, c.reason_codes) for c in result.claims]


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        (_ORDER, "It is expected to be delivered on 2024-09-18."),
        (_ORDER, "The order is partly shipped and not yet paid."),
        (_ORDER, "The order has not been delivered yet."),
        (_CAFE, "It is rated 4.5 out of 5 stars."),
        (_CAFE, "It has over 100 reviews."),
        (_LAPTOP, "The Kestrel 14 weighs under 1.5 kg."),
        (_METRICS, "Errors are down to 2.1%, but the service is degraded."),
        (_TICKET, "The ticket is high priority and still in progress; it hasn't been resolved."),
        (_HOTEL, "Free cancellation, and pets are allowed."),
    ],
)
def test_a_plan_a_bound_or_a_comparison_is_not_a_changed_value(context: str, answer: str) -> None:
    result = check(context=context, answer=answer)
    assert result.verdict is not Verdict.REJECT, [(c.category, c.reason_codes) for c in result.claims]


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        ('{"weight_kg": 1.29}', "weight: 1.29 kg"),
        ('{"p99_latency_ms": 840}', "p99 latency: 840 ms"),
        ('{"invoice_total_usd": 684.50}', "invoice total: $684.50"),
        ('{"price": {"amount": 1299.0, "currency": "EUR"}}', "price amount: €1299.0"),
        ('{"error_rate": 0.021}', "error rate: 0.021 (2.1%)"),
        ('{"hours": {"Monday": "8:0-17:0"}}', "Monday: 08:00-17:00 (8 am to 5 pm)"),
        ('{"WiFi": "u\'free\'"}', "Wi-Fi (WiFi): free"),
        ('{"refundable": false}', "refundable: false (not refundable)"),
        ('{"resolved": null}', "resolved: false (not resolved)"),
        ('{"parking": {"available": true}}', "parking available: true"),
        ("Coach: 1\nSeat: 63\nRefundable: no", "Coach: 1"),
        # Chinese units a key carries, after an underscore or in brackets
        ('{"季度预算_万元": 120}', "季度预算: 120 万元"),
        ('{"价格（元）": 2880}', "价格: 2880 元"),
        ('{"price (USD)": 40}', "price: $40"),
    ],
)
def test_a_field_is_read_out_as_prose_states_it(context: str, expected: str) -> None:
    # A common listing attribute also carries the phrases descriptions use for it, in brackets.
    parts = records.parse(context)[0].text.split(";\n")
    assert any(part == expected or part.startswith(f"{expected} (") for part in parts), parts


@pytest.mark.parametrize(
    ("claim", "context", "expected"),
    [
        ("It has outdoor seating but no garage.", _CAFE, []),
        ("The ticket is non-refundable.", _BOOKING, []),
        ("The ticket is refundable.", _BOOKING, ["Refundable"]),
        ("Oat milk is in stock.", _ITEMS, ["in stock"]),
        ("In stock.", _ITEMS, []),  # which item? the two records disagree
        ("It has 128 reviews and 4.5 stars.", _CAFE, []),
        ("It has 4.5 reviews.", _CAFE, ["review count"]),
        ("Breakfast is not available.", _HOTEL, []),  # `available` is the parking's
        ("Parking is not available.", _HOTEL, ["parking available"]),
    ],
)
def test_field_conflicts_read_each_clause_of_its_own_record(
    claim: str, context: str, expected: list[str]
) -> None:
    fields = tuple(f for r in records.parse(context) for f in r.fields)
    assert records.field_conflicts(claim, fields) == expected


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("The Kestrel 14 costs €1,299.", Verdict.PASS), ("The Kestrel 14 costs $1,299.", Verdict.REJECT)],
)
def test_a_json_price_is_read_with_its_currency_not_as_a_bare_number(answer: str, verdict: Verdict) -> None:
    record = '{"name": "Kestrel 14", "price": 1299.0, "currency": "EUR"}'
    assert check(context=record, answer=answer).verdict is verdict


_PETS = json.dumps(
    {"name": "Blue Door Cafe", "city": "Portland", "attributes": {"DogsAllowed": False, "WiFi": "free"}}
)
# Serialised with ASCII escapes, as `json.dumps` does by default: still a Chinese record.
_NOODLES = json.dumps(
    {"名称": "老张牛肉面", "城市": "兰州", "评分": 4.7, "属性": {"WiFi": "无", "可停车": True, "外卖": True}}
)


@pytest.mark.parametrize(
    ("context", "answer", "verdict"),
    [
        (_PETS, "Blue Door Cafe in Portland has free WiFi, though dogs aren't allowed.", Verdict.PASS),
        (_PETS, "Blue Door Cafe in Portland has free WiFi and welcomes dogs.", Verdict.REJECT),
        (_NOODLES, "老张牛肉面位于兰州，评分4.7分，可以停车，也支持外卖，不过店里没有WiFi。", Verdict.PASS),
        (_NOODLES, "老张牛肉面位于兰州，评分4.7分，店内提供免费WiFi。", Verdict.REJECT),
    ],
)
def test_a_yes_no_field_retold_with_another_verb_or_in_an_escaped_record(
    context: str, answer: str, verdict: Verdict
) -> None:
    assert check(context=context, answer=answer).verdict is verdict


def test_a_chinese_description_of_a_record_with_units_in_its_keys_is_supported() -> None:
    context = json.dumps(
        [
            {"部门": "市场部", "季度预算_万元": 120, "已使用_万元": 98.4},
            {"部门": "研发部", "季度预算_万元": 300, "已使用_万元": 241.0},
        ],
        ensure_ascii=False,
    )
    right = check(
        context=context, answer="市场部预算 120 万元，已使用 98.4 万元；研发部预算 300 万元，已用 241 万元。"
    )
    assert right.verdict is Verdict.PASS, [c.reason_codes for c in right.claims]
    wrong = check(context=context, answer="市场部预算 150 万元，已使用 98.4 万元。")
    assert wrong.verdict is not Verdict.PASS, [c.reason_codes for c in wrong.claims]


@pytest.mark.parametrize(
    ("answer", "rejected"),
    [
        # `"p99_ms": "-35"` is a fall of 35: a rise of 35 is the record stated the other way (a fall
        # of 35 is not rejected; a bare `-35` does not show it is milliseconds, so it may stay unshown)
        ("p99 延迟为 412 毫秒，比前一天上升了 35 毫秒。", True),
        ("p99 延迟为 412 毫秒，比前一天下降了 35 毫秒。", False),
        ("The p99 latency was 412 ms, down 35 ms on the day before.", False),
        ("The p99 latency was 412 ms, up 35 ms on the day before.", True),
    ],
)
def test_a_signed_change_in_a_record_is_read_with_its_direction(answer: str, rejected: bool) -> None:
    context = json.dumps(
        {"服务": "rec-api", "p99_ms": 412, "环比昨日": {"请求量": "+8.5%", "p99_ms": "-35"}},
        ensure_ascii=False,
    )
    result = check(context=context, answer=answer)
    assert (result.verdict is Verdict.REJECT) is rejected, [c.reason_codes for c in result.claims]


_DELIVERY = (
    "上周各区域配送指标\n区域 | 订单量 | 准时送达率 | 平均配送时长\n"
    "华东 | 18,200 | 96.1% | 38 分钟\n华南 | 12,750 | 93.4% | 45 分钟\n华北 | 9,880 | 97.3% | 41 分钟"
)
_PICKS = (
    "Site | Picks | Errors | Accuracy\nLeeds | 41,200 | 206 | 99.50%\n"
    "Bristol | 28,750 | 345 | 98.80%\nGlasgow | 19,400 | 58 | 99.70%"
)


@pytest.mark.parametrize(
    ("context", "answer", "rejected"),
    [
        # a figure of the same column of another row, given to the row the claim names
        (_DELIVERY, "华南一共一万两千七百五十单，准时率 93.4%，平均配送时长是 38 分钟。", True),
        (_DELIVERY, "华南一共一万两千七百五十单，准时率 93.4%，平均配送时长是 45 分钟。", False),
        (_PICKS, "Bristol trailed at 98.8%, having logged 206 errors across 28,750 picks.", True),
        (_PICKS, "Bristol trailed at 98.8%, having logged 345 errors across 28,750 picks.", False),
        # a comparison names both rows: each figure is its own row's
        (_PICKS, "Leeds reached 99.5%, ahead of Bristol at 98.8%.", False),
    ],
)
def test_a_table_rows_figures_are_read_against_the_row_the_claim_names(
    context: str, answer: str, rejected: bool
) -> None:
    result = check(context=context, answer=answer)
    assert (result.verdict is Verdict.REJECT) is rejected, [c.reason_codes for c in result.claims]

"""`LLMJudge`: the model classifies, code verifies; over real HTTP and through `ScriptedModel`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from groundgate.contracts import EvidenceSpan, FactCategory, ParseStatus
from groundgate.errors import ModelHTTPError, ModelInvalidJSONError, ModelOutputError, ModelRefusalError
from groundgate.errors import ModelTimeoutError as Timeout
from groundgate.models.base import Usage
from groundgate.models.openai import OpenAIModel
from groundgate.models.scripted import ScriptedModel
from groundgate.testing.openai_server import OpenAICompatibleServer, ScriptedReply
from groundgate.text.segmentation import Span, split_sentences
from groundgate.verify.assessment import ClaimAssessment, ClaimClassifier, Classification
from groundgate.verify.judge import JUDGE_SYSTEM_PROMPT, JudgeItem, JudgeOutput, LLMJudge

PASSAGES = [
    "2024-05-01 10:02 pay-api returned ERR_TIMEOUT 37 times while the db pool was exhausted.",
    "Runbook: raise the db pool size to 50, then restart pay-api.",
]
ANSWER = (
    "pay-api returned ERR_TIMEOUT 37 times. "
    "The root cause is the exhausted db pool. "
    "Raise the db pool size to 80. "
    "Keep an eye on it."
)
CLAIMS = split_sentences(ANSWER)
QUESTION = "Why did pay-api time out?"


class StubChecker:
    """A tiny offline checker: fixed assessments, claim 3 a deterministic number contradiction."""

    def __init__(self) -> None:
        self.calls = 0

    def classify(
        self, claims: Sequence[Span], passages: Sequence[str], *, question: str | None = None
    ) -> Classification:
        self.calls += 1
        table = [
            ClaimAssessment(FactCategory.INDIRECT_SUPPORT, key=True, reason_codes=("lexical_support_mid",)),
            ClaimAssessment(FactCategory.NO_EVIDENCE, key=False, reason_codes=("lexical_support_low",)),
            ClaimAssessment(
                FactCategory.CONTRADICTED,
                key=True,
                evidence=(EvidenceSpan(passage=1, start=35, end=37, excerpt="50"),),
                reason_codes=("fidelity:number_mismatch",),
                deterministic_contradiction=True,
                rationale="The runbook says 50, not 80.",
            ),
            ClaimAssessment(FactCategory.NO_EVIDENCE, key=False, reason_codes=("advice",)),
        ]
        return Classification(table[: len(claims)], checker="offline", notes=["stub"])


def item(
    index: int,
    category: str,
    *,
    key: bool = True,
    passage: int | None = None,
    excerpt: str | None = None,
    rationale: str = "Because.",
) -> dict[str, Any]:
    return {
        "claim_index": index,
        "key": key,
        "category": category,
        "passage": passage,
        "excerpt": excerpt,
        "rationale": rationale,
    }


GOOD_OUTPUT = {
    "claims": [
        item(1, "direct_evidence", passage=1, excerpt="pay-api returned ERR_TIMEOUT 37 times"),
        item(2, "indirect_support", passage=1, excerpt="the db pool was exhausted"),
        item(3, "direct_evidence", passage=2, excerpt="raise the db pool size to 50"),
        item(4, "no_evidence", key=False),
    ]
}


def test_claims_fixture_is_what_the_tests_assume() -> None:
    assert [c.text for c in CLAIMS] == [
        "pay-api returned ERR_TIMEOUT 37 times.",
        "The root cause is the exhausted db pool.",
        "Raise the db pool size to 80.",
        "Keep an eye on it.",
    ]
    assert PASSAGES[1][35:37] == "50"


# --------------------------------------------------------------------------- over real HTTP


@pytest.fixture
def server() -> Iterator[OpenAICompatibleServer]:
    with OpenAICompatibleServer(api_key="sk-judge") as srv:
        yield srv


@pytest.fixture
def http_judge(server: OpenAICompatibleServer) -> Iterator[LLMJudge]:
    with OpenAIModel(
        "judge-model", base_url=server.base_url, api_key="sk-judge", timeout_seconds=0.3
    ) as model:
        yield LLMJudge(model, StubChecker())


def test_categories_over_http(server: OpenAICompatibleServer, http_judge: LLMJudge) -> None:
    server.enqueue(ScriptedReply.json(GOOD_OUTPUT, prompt_tokens=300, completion_tokens=90))

    run = http_judge.judge(CLAIMS, PASSAGES, question=QUESTION)
    result = run.classification

    assert result.checker == "llm"
    assert result.judge_status is ParseStatus.OK
    assert run.usage == Usage(300, 90)
    assert json.loads(run.raw_output) == GOOD_OUTPUT
    first, second, third, fourth = result.assessments

    assert first.category is FactCategory.DIRECT_EVIDENCE
    assert first.key is True
    (span,) = first.evidence
    assert span.passage == 0
    assert PASSAGES[0][span.start : span.end] == span.excerpt == "pay-api returned ERR_TIMEOUT 37 times"
    assert first.reason_codes[:2] == ("judge:direct_evidence", "judge_excerpt_verified")
    assert "offline:indirect_support" in first.reason_codes
    assert first.rationale == "Because."

    assert second.category is FactCategory.INDIRECT_SUPPORT
    assert second.evidence[0].excerpt == "the db pool was exhausted"

    assert third.category is FactCategory.CONTRADICTED  # deterministic contradiction wins
    assert third.deterministic_contradiction is True
    assert "judge:direct_evidence" in third.reason_codes
    assert "fidelity:number_mismatch" in third.reason_codes
    assert third.reason_codes[-1] == "deterministic_override"
    assert third.rationale == "The runbook says 50, not 80."
    assert third.evidence[0] == EvidenceSpan(passage=1, start=35, end=37, excerpt="50")

    assert fourth.category is FactCategory.NO_EVIDENCE
    assert fourth.key is False

    # What went over the wire.
    (sent,) = server.chat_requests
    fmt = sent.response_format
    assert fmt is not None
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "JudgeOutput"
    assert fmt["json_schema"]["strict"] is True
    judge_item = fmt["json_schema"]["schema"]["$defs"]["JudgeItem"]
    assert judge_item["required"] == ["claim_index", "key", "category", "passage", "excerpt", "rationale"]
    system, user = sent.messages
    assert system == {"role": "system", "content": JUDGE_SYSTEM_PROMPT}
    for category in FactCategory:
        assert category.value in system["content"]
    assert user["content"].startswith(f"Question: {QUESTION}\n\nPassages:\n[P1] ")
    assert f"[P1] {PASSAGES[0]}" in user["content"]
    assert f"[P2] {PASSAGES[1]}" in user["content"]
    assert "[3] Raise the db pool size to 80." in user["content"]


def test_forged_excerpts_are_downgraded(server: OpenAICompatibleServer, http_judge: LLMJudge) -> None:
    output = {
        "claims": [
            # Not in any passage.
            item(1, "direct_evidence", passage=1, excerpt="pay-api returned ERR_TIMEOUT 99 times"),
            # Real text, wrong passage.
            item(2, "direct_evidence", passage=2, excerpt="the db pool was exhausted"),
            # Passage that does not exist.
            item(3, "direct_evidence", passage=7, excerpt="raise the db pool size"),
            # Direct evidence without any excerpt.
            item(4, "direct_evidence", key=False),
        ]
    }
    server.enqueue(ScriptedReply.json(output))

    result = http_judge.classify(CLAIMS, PASSAGES)

    first, second, third, fourth = result.assessments
    for assessment in (first, second, fourth):
        assert assessment.category is FactCategory.INDIRECT_SUPPORT
        assert assessment.evidence == ()
        assert "judge_excerpt_unverified" in assessment.reason_codes
    assert "judge_excerpt_not_found" in first.reason_codes
    assert "judge_excerpt_not_found" in second.reason_codes
    assert "judge_excerpt_missing" in fourth.reason_codes
    assert "judge_passage_out_of_range" in third.reason_codes
    assert third.category is FactCategory.CONTRADICTED  # still overridden by the offline checker
    assert result.judge_status is ParseStatus.OK


def test_tolerant_excerpt_match_points_at_the_real_text(
    server: OpenAICompatibleServer, http_judge: LLMJudge
) -> None:
    output = {
        "claims": [item(1, "direct_evidence", passage=1, excerpt="PAY-API  returned err_timeout 37 TIMES")]
    }
    server.enqueue(ScriptedReply.json(output))

    first = http_judge.classify(CLAIMS[:1], PASSAGES).assessments[0]

    assert first.category is FactCategory.DIRECT_EVIDENCE
    assert first.evidence[0].excerpt == "pay-api returned ERR_TIMEOUT 37 times"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (ScriptedReply(content="I think claim 1 is supported."), ParseStatus.INVALID_JSON),
        (
            ScriptedReply.json({"claims": [{"claim_index": 1, "category": "supported"}]}),
            ParseStatus.SCHEMA_MISMATCH,
        ),
        (ScriptedReply.json(GOOD_OUTPUT, delay_seconds=1.0), ParseStatus.TIMEOUT),
        (ScriptedReply(refusal="I can't assist with that."), ParseStatus.REFUSED),
        (ScriptedReply.error(500, "upstream exploded"), ParseStatus.ERROR),
    ],
    ids=["bad-json", "schema-mismatch", "timeout", "refusal", "http-500"],
)
def test_failures_fall_back_to_the_offline_checker(
    server: OpenAICompatibleServer, http_judge: LLMJudge, reply: ScriptedReply, status: ParseStatus
) -> None:
    server.enqueue(reply)
    offline = StubChecker().classify(CLAIMS, PASSAGES)

    run = http_judge.judge(CLAIMS, PASSAGES, question=QUESTION)
    result = run.classification

    assert result.checker == "offline"
    assert result.judge_status is status
    assert result.assessments == offline.assessments
    assert result.notes[0] == "stub"
    assert result.notes[1].startswith(f"judge_fallback:{status.value}: ")
    assert run.usage == Usage()
    assert len(server.chat_requests) == 1


def test_bad_json_keeps_the_raw_output_for_the_audit_trail(
    server: OpenAICompatibleServer, http_judge: LLMJudge
) -> None:
    server.enqueue(ScriptedReply(content="not json at all"))
    run = http_judge.judge(CLAIMS, PASSAGES)
    assert run.raw_output == "not json at all"
    assert run.model_name == "judge-model"


# --------------------------------------------------------------------------- through ScriptedModel


def scripted_judge(*outputs: Any) -> tuple[LLMJudge, ScriptedModel, StubChecker]:
    model = ScriptedModel({"judge": list(outputs)})
    checker = StubChecker()
    return LLMJudge(model, checker), model, checker


def test_same_logic_through_scripted_model() -> None:
    judge, model, checker = scripted_judge(JudgeOutput.model_validate(GOOD_OUTPUT))

    result = judge.classify(CLAIMS, PASSAGES, question=QUESTION)

    assert [a.category for a in result.assessments] == [
        FactCategory.DIRECT_EVIDENCE,
        FactCategory.INDIRECT_SUPPORT,
        FactCategory.CONTRADICTED,
        FactCategory.NO_EVIDENCE,
    ]
    assert checker.calls == 1
    (request,) = model.requests
    assert request.role == "judge"
    assert request.output_type == "JudgeOutput"
    assert "[P2] Runbook" in request.prompt


def test_offline_key_marks_stay_key() -> None:
    output = {"claims": [item(1, "direct_evidence", key=False, passage=1, excerpt="ERR_TIMEOUT 37 times")]}
    judge, _, _ = scripted_judge(output)

    first = judge.classify(CLAIMS[:1], PASSAGES).assessments[0]

    assert first.key is True
    assert "offline_key" in first.reason_codes


def test_model_may_mark_more_claims_key() -> None:
    output = {"claims": [item(1, "indirect_support"), item(2, "indirect_support", key=True)]}
    judge, _, _ = scripted_judge(output)

    second = judge.classify(CLAIMS[:2], PASSAGES).assessments[1]

    assert second.key is True  # offline said not key; the model's key mark adds scrutiny


def test_missing_duplicate_and_out_of_range_items() -> None:
    output = {
        "claims": [
            item(1, "direct_evidence", passage=1, excerpt="ERR_TIMEOUT 37 times"),
            item(1, "contradicted"),  # duplicate: ignored
            item(0, "direct_evidence"),  # out of range (1-based)
            item(9, "direct_evidence"),  # out of range
        ]
    }
    judge, _, _ = scripted_judge(output)

    result = judge.classify(CLAIMS, PASSAGES)

    first, second, third, fourth = result.assessments
    assert first.category is FactCategory.DIRECT_EVIDENCE
    assert second.category is FactCategory.NO_EVIDENCE
    assert second.reason_codes[0] == "judge_missing_claim"
    assert second.key is False  # the offline checker's key mark
    assert third.category is FactCategory.CONTRADICTED
    assert "judge_missing_claim" in third.reason_codes
    assert "deterministic_override" in third.reason_codes
    assert fourth.category is FactCategory.NO_EVIDENCE
    assert result.notes == [
        "stub",
        "judge_duplicate_claim:1",
        "judge_index_out_of_range:0",
        "judge_index_out_of_range:9",
    ]
    assert result.judge_status is ParseStatus.OK


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (Timeout("slow"), ParseStatus.TIMEOUT),
        (ModelRefusalError("no"), ParseStatus.REFUSED),
        (ModelInvalidJSONError("bad", raw_output="{"), ParseStatus.INVALID_JSON),
        (ModelOutputError("mismatch"), ParseStatus.SCHEMA_MISMATCH),
        (ModelHTTPError("503"), ParseStatus.ERROR),
    ],
)
def test_scripted_failures_fall_back(error: Exception, status: ParseStatus) -> None:
    judge, _, _ = scripted_judge(error)
    result = judge.classify(CLAIMS, PASSAGES)
    assert result.checker == "offline"
    assert result.judge_status is status
    assert result.assessments == StubChecker().classify(CLAIMS, PASSAGES).assessments


def test_raw_bad_string_through_scripted_model() -> None:
    judge, _, _ = scripted_judge('{"claims": [')
    assert judge.classify(CLAIMS, PASSAGES).judge_status is ParseStatus.INVALID_JSON


def test_nothing_to_judge_does_not_call_the_model() -> None:
    judge, model, _ = scripted_judge()
    no_claims = judge.classify([], PASSAGES)
    no_passages = judge.classify(CLAIMS, [])
    assert model.requests == []
    assert no_claims.assessments == []
    assert no_claims.judge_status is ParseStatus.NOT_CALLED
    assert no_passages.checker == "offline"
    assert no_passages.judge_status is ParseStatus.NOT_CALLED
    assert no_passages.notes[-1] == "judge_skipped_no_passages"


def test_fallback_must_assess_every_claim() -> None:
    class Short:
        def classify(
            self, claims: Sequence[Span], passages: Sequence[str], *, question: str | None = None
        ) -> Classification:
            return Classification([])

    judge = LLMJudge(ScriptedModel(), Short())
    with pytest.raises(ValueError, match="0 assessments for 4 claims"):
        judge.classify(CLAIMS, PASSAGES)


def test_is_a_claim_classifier() -> None:
    classifier: ClaimClassifier = LLMJudge(ScriptedModel(), StubChecker())
    assert hasattr(classifier, "classify")


def test_long_passages_are_clipped_in_the_prompt_but_verified_in_full() -> None:
    long_passage = "filler " * 400 + "pay-api returned ERR_TIMEOUT 37 times."
    output = {
        "claims": [item(1, "direct_evidence", passage=1, excerpt="pay-api returned ERR_TIMEOUT 37 times")]
    }
    model = ScriptedModel({"judge": [output]})
    judge = LLMJudge(model, StubChecker(), max_passage_chars=200)

    first = judge.classify(CLAIMS[:1], [long_passage]).assessments[0]

    assert len(model.requests[0].messages[1].content) < 400
    assert first.category is FactCategory.DIRECT_EVIDENCE
    assert first.evidence[0].start == long_passage.index("pay-api")


def test_prompt_size_for_three_claims_and_two_passages() -> None:
    judge = LLMJudge(ScriptedModel(), StubChecker())
    messages = judge.build_messages(CLAIMS[:3], PASSAGES, question=QUESTION)
    size = sum(len(m.content) for m in messages)
    assert len(JUDGE_SYSTEM_PROMPT) < 1400
    assert size < 1900


def test_judge_item_schema_is_closed() -> None:
    with pytest.raises(ValueError, match="extra"):
        JudgeItem.model_validate({**item(1, "no_evidence"), "chain_of_thought": "..."})

"""What a question needs answered, and whether an answer met it (issue 11: answers that answer).

A question is split into `Need`s, one per part ("产假多少天？婚假多少天？" has two). Each need names
what it is about (`anchors`: names that must appear, such as `Team B`, `ERR_TIMEOUT`, `P2`; `terms`:
the other words of its subject), the kind of answer it asks for (`kind`: a time, a quantity, a
person...), and the conditions the answer must hold under (`conditions`: "满 12 年" is at least 12
years of service, "on 2026-03-14" a day). The verifier records a `NeedCoverage` per need: a need
is met only by a supported claim about that subject, of that kind, whose conditions include the
asked case. Unmet needs are the run's gaps, named by `label` ("满 12 年的年假天数").

Needs come from the question alone (`groundgate.questions`), never from a model's say-so, and are
recorded with the run (planner step, `verifier_evaluation`, `RunResult`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class AnswerKind(StrEnum):
    """The kind of statement a need asks for (from the question's interrogative)."""

    QUANTITY = "quantity"
    """How many / how much / how long / how high; 多少, 几, 多久."""
    TIME = "time"
    """When; 什么时候, 几点, 何时."""
    PERSON = "person"
    """Who; 谁."""
    REASON = "reason"
    """Why, what caused; 为什么, 原因, 根因."""
    PROCEDURE = "procedure"
    """What to do, how to, how it is calculated; 怎么办, 如何, 怎么算."""
    DEFINITION = "definition"
    """What is / what does it mean; 是什么, 含义."""
    CHOICE = "choice"
    """Which; 哪个, 哪些."""
    STATUS = "status"
    """Current state; 状态."""
    LOCATION = "location"
    """Where; 哪里."""
    YES_NO = "yes_no"
    """Is / does / can; 是否, 吗."""
    OTHER = "other"


class ConditionKind(StrEnum):
    """What a condition restricts: a quantity range, a calendar day, a time of day."""

    QUANTITY = "quantity"
    DATE = "date"
    TIME = "time"


class NeedCondition(BaseModel):
    """One condition of a need: the answer must hold for this case ("满 12 年", "on 2026-03-14")."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    text: str
    """As written in the question, with its comparator (`满 12 年`, `超过 10 天`, `2026-03-14`)."""
    kind: ConditionKind
    dimension: str = ""
    """Quantities: the base unit both sides are compared in (`month`, `s`, `CNY`, `%`)."""
    low: float | None = None
    high: float | None = None
    low_inclusive: bool = True
    high_inclusive: bool = True
    value: str = ""
    """Dates and times: the normalised value (`2026-03-14`, `--03-14`, `14:05`)."""


class Need(BaseModel):
    """One thing the question asks; the answer must meet each need of its question."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    id: str
    """`n1`, `n2`... in question order."""
    text: str
    """The part of the (resolved) question this need comes from."""
    label: str
    """The need phrased as what is missing when unmet (`满 12 年的年假天数`, `Team B standup — time`)."""
    kind: AnswerKind = AnswerKind.OTHER
    anchors: list[str] = Field(default_factory=list)
    """Names the answer must be about: identifiers, proper names, codes (`Team B`, `ERR_TIMEOUT`, `P2`)."""
    terms: list[str] = Field(default_factory=list)
    """The other words of the subject (`年假`, `standup`, `recover`); an answer must use them."""
    soft_terms: list[str] = Field(default_factory=list)
    """Words taken over from an earlier part ("when did *it* recover"): they help, none is required."""
    distinct: list[str] = Field(default_factory=list)
    """Anchors and terms that tell this need from the question's other needs (`产假` vs `婚假`): an
    answer must say them itself, a heading naming both parts is not enough."""
    case_terms: list[str] = Field(default_factory=list)
    """Words of the case the question sets ("出差当天出发的话", "if the key leaked"): the answering
    statement must say them itself, not only the sentence or heading it was cut from."""
    required_terms: list[str] = Field(default_factory=list)
    """Words the answering statement or its heading must hold: those beside the question word of a
    quantity question ("提前*几天*提醒": 提前, 提醒 — a figure without them measures something else)
    and a word the question says twice ("*退款*金额…*退款*接口": its subject's head)."""
    excluded_terms: list[str] = Field(default_factory=list)
    """Categories the question says its case is not ("苏州不是省会，也不是计划单列市", "it is not a
    holiday"): a statement about one of them is about another case."""
    category: str = ""
    """The kind of thing named as the answer ("哪个*组件*", "what *time*"): never required as a word."""
    value_kinds: list[str] = Field(default_factory=list)
    """Quantity needs: the mention kinds an answer's figure may take (`duration`, `amount`); empty: any."""
    conditions: list[NeedCondition] = Field(default_factory=list)
    search_text: str = ""
    """What the planner searches for this need."""


class QuestionNeeds(BaseModel):
    """Every need of one question, as recorded with the run."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    question: str
    """As the user typed it."""
    resolved_question: str
    """The question the run answers: a follow-up ("那 P2 呢？") completed from earlier turns."""
    language: Literal["zh-CN", "en"] = "zh-CN"
    needs: list[Need] = Field(default_factory=list)
    followup: bool = False
    """True when `resolved_question` was completed from the session's earlier questions."""


class NeedCoverage(BaseModel):
    """Whether the verified claims met one need, and which of them did."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    need_id: str
    label: str
    met: bool
    claim_ids: list[str] = Field(default_factory=list)
    """Supported claims that meet the need (right subject, right kind, condition included)."""
    reason_codes: list[str] = Field(default_factory=list)
    """Why not, for the closest claim: `need:anchor_missing:Team B`, `need:condition_not_met:满 12 年`,
    `need:terms_missing:…`, `need:kind_missing:time`, `need:no_supported_claim`."""
    cross_language: bool = False
    """Met only by claims in another language than the question (through the bilingual lexicon). Words
    across languages are matched less surely than within one, so such a need never makes an answer
    `NORMAL`: the answer is shown with the disclaimer and says so (docs/design.md §8)."""

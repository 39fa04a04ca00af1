"""The eval fixture format: one YAML file per case (docs/eval.md), read into pydantic models.

A fixture holds what to ask (a question — or an alert, or an agent turn with its session state, the
typed extension points other drivers fill in), the tool outputs to replay, optional scripted model
outputs per role, and what the outcome must be. Loading never guesses: a malformed file is a
`FixtureError` naming the file and the field, so a reviewer who mistyped `output_kind` learns where.

    id: normal-err-timeout
    input: {kind: question, question: "ERR_TIMEOUT 是哪个组件返回的？"}
    tools: {mode: replay, calls: [{tool: lookup_knowledge, arguments: {...}, output: {...}}]}
    expect: {output_kind: NORMAL, verdict: PASS, must_contain: [["3 秒", "3000 ms"]]}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml  # type: ignore[import-untyped]  # no PyYAML stubs in the dev environment
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from groundgate.contracts import FactCategory, OutputKind, ToolOutput, ToolStatus
from groundgate.errors import FixtureError

__all__ = [
    # the format
    "FIXTURE_VERSION",
    "AgentTurnInput",
    "AlertInput",
    "CaptureSource",
    "CaseInput",
    "Expectations",
    "Fixture",
    "HistoryTurn",
    "KeyFactExpectation",
    "QuestionInput",
    "RecordedToolCall",
    "ReviewerExpected",
    "ToolReplay",
    # reading and writing
    "dump_fixture",
    "fixture_paths",
    "load_fixture",
    "load_fixtures",
    "parse_fixture",
    "write_fixture",
]

FIXTURE_VERSION: Literal[1] = 1
SUFFIXES = (".yaml", ".yml")
MODEL_ROLES = ("planner", "executor", "verifier", "composer")
"""The roles a fixture may script (the roles `groundgate.apps.RoleModels` wires; the business
agent's `planner` and `composer`)."""


class _Strict(BaseModel):
    # A misspelt key is an error, never silently ignored: a fixture that checks nothing passes.
    model_config = ConfigDict(extra="forbid")


class HistoryTurn(_Strict):
    """An earlier question of the session (never its answer: history has no fact status)."""

    question: str
    resolved: str = ""
    """What the question was resolved to; empty means the question itself."""


class _Who(_Strict):
    tenant: str = "acme"
    """The `ExecutionContext` tenant the case is asked as (the demo user's by default)."""
    user: str = "eval"
    roles: list[str] = Field(default_factory=lambda: ["sre"])


class QuestionInput(_Who):
    """A chat question through the evidence-gated pipeline."""

    kind: Literal["question"] = "question"
    question: str = Field(min_length=1)
    history: list[HistoryTurn] = Field(default_factory=list)
    """Earlier turns of the session, oldest first, for follow-ups ("那 P2 呢？")."""

    @field_validator("history", mode="before")
    @classmethod
    def _plain_questions(cls, value: Any) -> Any:
        # A plain string is a turn whose resolved question is itself.
        if isinstance(value, list):
            return [{"question": v} if isinstance(v, str) else v for v in value]
        return value


class AlertInput(_Who):
    """An alert (an Alertmanager alert or webhook payload) for an AIOps diagnosis driver."""

    kind: Literal["alert"]
    alert: dict[str, Any]


class AgentTurnInput(_Who):
    """One turn of the business agent, with the session state it starts from.

    `session_state` is the conversation's state before the turn as `state_json` holds it
    (`questions`: earlier resolved questions; `refs`: fact-ref records — tool, business arguments,
    item key, time, TTL, scope, authorization snapshot — never fact bodies), or `{golden_case: ID}`
    to run a case of the agent's golden set through its own harness."""

    kind: Literal["agent_turn"]
    message: str = Field(min_length=1)
    project: str | None = None
    """The `ExecutionContext` project the turn is asked in."""
    now: datetime | None = None
    """The agent's clock for the turn (default: the HR demo's day)."""
    client_refs: list[str] = Field(default_factory=list)
    """Fact refs the client sent with the message (checked against `session_state.refs`)."""
    session_state: dict[str, Any] = Field(default_factory=dict)

    @field_validator("session_state")
    @classmethod
    def _state_layout(cls, value: dict[str, Any]) -> dict[str, Any]:
        if "golden_case" in value:
            return value
        from groundgate.agent.context import ConversationState

        try:
            ConversationState.model_validate(value)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            raise ValueError(f"`{_field(first['loc'])}`: {first['msg']}") from None
        return value


CaseInput = Annotated[QuestionInput | AlertInput | AgentTurnInput, Field(discriminator="kind")]


class RecordedToolCall(_Strict):
    """One tool call as it happened: the replay answers the same call (same tool, same normalised
    arguments) with this output, whatever round asks it."""

    tool: str = Field(min_length=1)
    arguments: dict[str, Any] = Field(default_factory=dict)
    round: int = 1
    output: ToolOutput = Field(default_factory=ToolOutput)
    error: str | None = None
    """For a failed call (`ERROR`, `TIMEOUT`, `DENIED`): the recorded error line."""
    latency_ms: float | None = None


class ToolReplay(_Strict):
    """Where tool outputs come from.

    `replay` (the default): only the recorded calls answer; any other call fails the case when
    `strict`. `workspace`: the live tools of a workspace (`demo`: the bundled demo, loaded once per
    eval run) — for question sets with no recorded outputs.
    """

    mode: Literal["replay", "workspace"] = "replay"
    workspace: Literal["demo", "demo+pipeline_docs"] = "demo"
    strict: bool = True
    available: list[str] | None = None
    """The tools the planner sees; default: the built-in tools (what `groundgate ask` registers)."""
    calls: list[RecordedToolCall] = Field(default_factory=list)


class KeyFactExpectation(_Strict):
    """A key fact the verifier must have checked: `text` is found in the fact (folded for width and
    case), and when given, its category must be `category`."""

    text: str = Field(min_length=1)
    category: FactCategory | None = None


OneOrMore = str | list[str]


class Expectations(_Strict):
    """What the outcome must be. Every field is optional; an empty `expect` checks only that the case
    ran. `output_kind` and `verdict` take one value or a list of allowed values; `verdict: none`
    means the verifier never ran."""

    output_kind: list[OutputKind] = Field(default_factory=list)
    decision: list[str] = Field(default_factory=list)
    """`decision_status` (ANSWERED, PARTIAL, NO_EVIDENCE, …)."""
    verdict: list[str] = Field(default_factory=list)
    stop_reason: list[str] = Field(default_factory=list)
    rounds: int | None = None
    min_groundedness: float | None = Field(default=None, ge=0.0, le=1.0)
    max_groundedness: float | None = Field(default=None, ge=0.0, le=1.0)
    must_contain: list[OneOrMore] = Field(default_factory=list)
    """Values the answer must hold; a list item is alternatives (any one spelling)."""
    must_not_contain: list[str] = Field(default_factory=list)
    """Statements or values the answer must not hold (a trap, the other tenant's data)."""
    cited_sources: list[str] = Field(default_factory=list)
    """Each must be (a part of) the source of a citation of the answer."""
    key_facts: list[KeyFactExpectation] = Field(default_factory=list)
    tools_called: list[str] = Field(default_factory=list)
    """Tools the run must have called (any status)."""
    aiops_verdict: list[str] = Field(default_factory=list)
    """An alert diagnosis's `aiops_rule_evaluation` verdict (PASS, WARN, FAIL; seed 004 §6)."""
    covered_needs: list[str] = Field(default_factory=list)
    """An agent turn's needs that must be covered (`POLICY_RULE`, `AMOUNT_LIMIT`, `TASK_STATE`, …)."""
    missing_needs: list[str] = Field(default_factory=list)
    """An agent turn's needs that must be reported missing."""

    @field_validator(
        "output_kind",
        "decision",
        "verdict",
        "stop_reason",
        "aiops_verdict",
        "covered_needs",
        "missing_needs",
        mode="before",
    )
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @field_validator("verdict")
    @classmethod
    def _known_verdict(cls, value: list[str]) -> list[str]:
        allowed = {"PASS", "LOW_CONFID", "REJECT", "none"}
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ValueError(f"unknown verdict {bad[0]!r}; use one of PASS, LOW_CONFID, REJECT, none")
        return value

    def merged(self, override: ReviewerExpected | None) -> Expectations:
        """These expectations with every field a reviewer filled in replacing its own."""
        if override is None:
            return self
        filled = override.model_dump(mode="json", exclude={"note"}, exclude_defaults=True)
        return Expectations.model_validate({**self.model_dump(mode="json"), **filled})


class ReviewerExpected(Expectations):
    """What a reviewer says the answer should have been (a captured bad case). Empty until filled
    in; every field filled replaces the captured expectation of that name, so the case fails until
    the behaviour changes."""

    note: str = ""

    @property
    def filled(self) -> bool:
        return bool(self.model_dump(exclude={"note"}, exclude_defaults=True))


class CaptureSource(_Strict):
    """Where a captured fixture came from."""

    run_id: str
    session_id: str = ""
    tenant: str | None = None
    feedback: str | None = None
    captured_at: datetime | None = None
    fidelity: Literal["recorded", "re-executed", "summary"] = "recorded"
    """How the tool outputs were obtained: from the run itself (`recorded`), by running its calls
    again over the workspace (`re-executed`), or rebuilt from the stored summaries (`summary`)."""
    drift: list[str] = Field(default_factory=list)
    """Differences between the stored invocations and what re-executing them returned."""
    original: dict[str, Any] = Field(default_factory=dict)
    """The stored outcome (output kind, verdict, groundedness, tokens, latency) for comparison."""


class Fixture(_Strict):
    """One eval case."""

    version: Literal[1] = FIXTURE_VERSION
    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
    suite: str = ""
    """Defaults to the name of the folder holding the file."""
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    input: CaseInput
    tools: ToolReplay = Field(default_factory=ToolReplay)
    models: dict[Literal["planner", "executor", "verifier", "composer"], list[Any]] = Field(
        default_factory=dict
    )
    """Scripted model outputs per role, in call order; a role not named runs offline."""
    expect: Expectations = Field(default_factory=Expectations)
    reviewer_expected: ReviewerExpected | None = None
    known_failure: str | None = None
    """Why the case is known to fail today: its failure is reported, not a regression; a pass is
    reported as fixed."""
    source: CaptureSource | None = None
    path: str = Field(default="", exclude=True)
    """The file it was read from (not written back)."""

    @model_validator(mode="after")
    def _groundedness_range(self) -> Fixture:
        low, high = self.expect.min_groundedness, self.expect.max_groundedness
        if low is not None and high is not None and low > high:
            raise ValueError("expect.min_groundedness is above expect.max_groundedness")
        return self

    @property
    def expectations(self) -> Expectations:
        """What the case is judged against: `expect`, with a reviewer's filled fields over it."""
        return self.expect.merged(self.reviewer_expected)

    @property
    def key(self) -> str:
        """`suite/id`: unique across suites."""
        return f"{self.suite}/{self.id}" if self.suite else self.id


# --------------------------------------------------------------------------- reading


def _field(loc: Iterable[int | str]) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def parse_fixture(raw: object, *, path: str, suite: str = "") -> Fixture:
    """One fixture from a loaded YAML mapping; `FixtureError` names `path` and the first bad field."""
    if not isinstance(raw, dict):
        raise FixtureError(
            f"{path}: a fixture is a mapping with `id`, `input` and `expect`; got {type(raw).__name__}",
            path=path,
        )
    try:
        fixture = Fixture.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        first = errors[0]
        where = _field(first["loc"])
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise FixtureError(f"{path}: field `{where}`: {first['msg']}{more}", path=path, field=where) from None
    updates: dict[str, Any] = {"path": path}
    if not fixture.suite and suite:
        updates["suite"] = suite
    return fixture.model_copy(update=updates)


def _read_yaml(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(f"{path}: cannot read the fixture: {exc}", path=str(path)) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise FixtureError(f"{path}: not valid YAML{where}: {problem}", path=str(path)) from None


def load_fixture(path: Path, *, suite: str = "") -> list[Fixture]:
    """The fixtures of one file: a mapping is one case; `cases:` holds several."""
    raw = _read_yaml(path)
    suite = suite or path.parent.name
    if isinstance(raw, dict) and "cases" in raw and "id" not in raw:
        items = raw["cases"]
        if not isinstance(items, list):
            raise FixtureError(f"{path}: field `cases`: expected a list of fixtures", path=str(path))
        return [parse_fixture(item, path=f"{path}#{n}", suite=suite) for n, item in enumerate(items, 1)]
    return [parse_fixture(raw, path=str(path), suite=suite)]


def fixture_paths(paths: Iterable[Path]) -> Iterator[Path]:
    """The fixture files named: files as given, folders searched (sorted) for `*.yaml` / `*.yml`."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        elif path.is_file():
            yield path
        else:
            raise FixtureError(f"{path}: no such fixture file or folder", path=str(path))


def load_fixtures(paths: Iterable[Path], *, suite: str = "") -> list[Fixture]:
    """Every fixture under `paths`; duplicate `suite/id` keys are an error naming both files."""
    fixtures: list[Fixture] = []
    seen: dict[str, str] = {}
    for path in fixture_paths(paths):
        for fixture in load_fixture(path, suite=suite):
            if fixture.key in seen:
                raise FixtureError(
                    f"{fixture.path}: field `id`: {fixture.key!r} is already defined in {seen[fixture.key]}",
                    path=fixture.path,
                    field="id",
                )
            seen[fixture.key] = fixture.path
            fixtures.append(fixture)
    return fixtures


# --------------------------------------------------------------------------- writing

_HEADER = """\
# groundgate eval fixture (docs/eval.md). Run it with `groundgate eval run {path}`.
"""
_REVIEW_HEADER = """\
# A captured bad case: `expect` is what the run did, so the fixture reproduces it.
# Fill in `reviewer_expected` (output_kind, must_contain, must_not_contain, key_facts, …) with what the
# answer should have been: every field filled replaces the one in `expect`, and the case fails until
# the behaviour changes.
"""


def dump_fixture(fixture: Fixture) -> str:
    """The fixture as YAML: fields in model order, defaults left out, Unicode kept readable."""
    data = fixture.model_dump(mode="json", exclude_defaults=True, exclude={"path"})
    data = {"version": FIXTURE_VERSION, **data}
    data["input"] = {"kind": fixture.input.kind, **data.get("input", {})}
    if fixture.reviewer_expected is not None:
        # Written out even when empty: the field a reviewer fills in.
        data["reviewer_expected"] = fixture.reviewer_expected.model_dump(mode="json", exclude_defaults=True)
        data["reviewer_expected"].setdefault("output_kind", [])
        data["reviewer_expected"].setdefault("must_contain", [])
        data["reviewer_expected"].setdefault("must_not_contain", [])
        data["reviewer_expected"].setdefault("note", "")
    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110))


def write_fixture(path: Path, fixture: Fixture) -> Path:
    """Write `fixture` to `path` (folders created) with a header saying how to run (and review) it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = _HEADER.format(path=path.name)
    if fixture.reviewer_expected is not None and not fixture.reviewer_expected.filled:
        header += _REVIEW_HEADER
    path.write_text(header + dump_fixture(fixture), encoding="utf-8")
    return path


def tool_failed(status: ToolStatus) -> bool:
    """Whether a tool status is a failure (for per-tool failure rates): not OK, not an empty answer."""
    return status not in (ToolStatus.OK, ToolStatus.EMPTY)

"""Business agent runs into fixtures, on a real SQLite store: turns are asked through
`agent.sessions.ask_in_session` over the HR demo workspace (its index and the store's task table)
and recorded, captured with `groundgate eval capture`, and replayed offline by the `agent_turn`
driver with the same decision; a reviewer's expectation makes a bad case fail until the behaviour
changes; a forged fact ref in a fixture's session state is refused as the agent refuses it; a
malformed agent fixture names its file and field.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from typer.testing import CliRunner, Result

from groundgate.agent.context import ConversationState
from groundgate.agent.sessions import StoreSessionStore, ask_in_session
from groundgate.agent.tasks_store import TaskStore
from groundgate.apps import get_trace, give_feedback
from groundgate.cli import app
from groundgate.demo.hr import DEMO_NOW, demo_context
from groundgate.demo.hr.workspace import open_hr_workspace
from groundgate.errors import FixtureError
from groundgate.regression.capture import capture_run
from groundgate.regression.fixtures import Fixture, load_fixtures, parse_fixture
from groundgate.regression.runner import run_fixtures
from groundgate.store import open_store

pytestmark = pytest.mark.slow

TURNS = {
    "amount": ("s-amount", "一线城市出差住宿标准是多少？"),
    "unplannable": ("s-vague", "帮我看看那个"),
    "tasks": ("s-tasks", "我有哪些待办？"),
    "second": ("s-tasks", "第二个任务什么时候截止？"),
}


@dataclass(frozen=True)
class Recorded:
    data_dir: Path
    run_ids: dict[str, str]
    decisions: dict[str, str]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    data_dir = tmp_path_factory.mktemp("agent-capture")
    ctx = demo_context("u-li")
    run_ids: dict[str, str] = {}
    decisions: dict[str, str] = {}
    store = open_store(data_dir)
    try:
        with open_hr_workspace(data_dir, TaskStore(store)) as hr:
            for name, (session, question) in TURNS.items():
                result = ask_in_session(
                    hr.runtime, StoreSessionStore(store), question, ctx, session_id=session, record_in=store
                )
                run_ids[name], decisions[name] = result.run_id, result.status.value
        give_feedback(store, tenant=None, feedback="not_useful", run_id=run_ids["amount"])
    finally:
        store.close()
    return Recorded(data_dir, run_ids, decisions)


def invoke(args: Sequence[str], *, code: int = 0) -> Result:
    result = CliRunner().invoke(app, ["eval", *args], env={"COLUMNS": "160"})
    assert result.exit_code == code, (result.output, result.exception)
    return result


def _captured(recorded: Recorded, name: str) -> Fixture:
    store = open_store(recorded.data_dir)
    try:
        with open_hr_workspace(recorded.data_dir, TaskStore(store)) as hr:
            return capture_run(
                store, recorded.run_ids[name], tenant=None, agent_tools=lambda now: hr.registry
            )
    finally:
        store.close()


def _replay(fixture: Fixture) -> Any:
    return run_fixtures([fixture], jobs=1).results[0]


def test_the_recording_keeps_what_a_replay_starts_from_and_no_fact_body(recorded: Recorded) -> None:
    store = open_store(recorded.data_dir)
    try:
        trace = get_trace(store, recorded.run_ids["second"], tenant=None)
    finally:
        store.close()
    gatekeeper = next(s for s in trace.steps if s.role == "gatekeeper")
    turn = gatekeeper.model_output["turn"]
    assert turn["principal"] == {
        "tenant": "hrdemo",
        "user": "u-li",
        "roles": ["employee"],
        "project": "proj-east",
    }
    assert turn["now"] == DEMO_NOW.isoformat()
    state = ConversationState.model_validate(turn["state"])
    assert state.questions == ["我有哪些待办？"]
    assert [r.ordinal for r in state.refs] == [1, 2, 3, 4, 5]
    assert "完成年度体检预约" not in json.dumps(turn, ensure_ascii=False)  # refs, never fact bodies


@pytest.mark.parametrize("name", list(TURNS))
def test_a_captured_agent_run_replays_to_the_same_decision(recorded: Recorded, name: str) -> None:
    fixture = _captured(recorded, name)
    assert fixture.input.kind == "agent_turn"
    assert fixture.source is not None
    assert fixture.source.fidelity == "re-executed"
    assert fixture.source.drift == []
    assert fixture.expect.decision == [recorded.decisions[name]]
    result = _replay(fixture)
    assert result.status == "passed", result.failures
    assert result.observed.decision == recorded.decisions[name]
    assert result.observed.replay_misses == []


def test_the_follow_up_resolves_its_ordinal_against_the_recorded_session_state(recorded: Recorded) -> None:
    fixture = _captured(recorded, "second")
    assert fixture.input.session_state["questions"] == ["我有哪些待办？"]
    seen = _replay(fixture).observed
    assert seen.decision == "ANSWERED"
    assert "2026-03-28" in seen.answer
    assert "完成年度体检预约" in seen.answer
    assert "审批王芳的病假申请" not in seen.answer  # the first task is not the one asked about


def test_a_forged_fact_ref_in_the_session_state_is_refused_as_the_agent_refuses_it(
    recorded: Recorded,
) -> None:
    fixture = _captured(recorded, "second")
    state = json.loads(json.dumps(fixture.input.session_state))
    # The second item's ref, claimed for another user of the tenant: not this caller's to reuse.
    state["refs"][1]["authorization_snapshot"]["user"] = "u-wang"
    forged = fixture.model_copy(update={"input": fixture.input.model_copy(update={"session_state": state})})
    seen = _replay(forged).observed
    # The agent itself, given the same state over the live workspace, refuses it the same way.
    store = open_store(recorded.data_dir)
    try:
        with open_hr_workspace(recorded.data_dir, TaskStore(store)) as hr:
            live = hr.runtime.run(
                TURNS["second"][1], demo_context("u-li"), state=ConversationState.model_validate(state)
            )
    finally:
        store.close()
    assert (seen.decision, seen.stop_reason) == (live.status.value, live.reason.value)
    assert (seen.decision, seen.stop_reason) == ("NEEDS_INPUT", "REF_OUT_OF_SCOPE")
    assert seen.tool_calls == []  # nothing is re-read for a refused ref
    assert "2026-03-28" not in seen.answer

    # A client ref the state never held is unknown; the turn answers without it.
    unknown = fixture.model_copy(
        update={"input": fixture.input.model_copy(update={"client_refs": ["fact-000000000000000000000000"]})}
    )
    assert _replay(unknown).observed.decision == "ANSWERED"


def test_cli_captures_agent_runs_and_bad_cases_fail_once_a_reviewer_fills_them_in(
    recorded: Recorded, tmp_path: Path
) -> None:
    data = ["--data-dir", str(recorded.data_dir)]
    single = tmp_path / "second.yaml"
    invoke(["capture", recorded.run_ids["second"], "--output", str(single), *data])
    payload = json.loads(invoke(["run", str(single), "--json"]).stdout)
    assert payload["summary"]["passed"] == 1

    folder = tmp_path / "bad"
    out = invoke(["capture", "--feedback", "not_useful", "--since", "7d", "--dir", str(folder), *data])
    assert "captured 1 fixture(s)" in out.stdout
    assert "skipped" not in out.output
    (bad,) = sorted(folder.glob("*.yaml"))
    text = bad.read_text(encoding="utf-8")
    assert "# Fill in `reviewer_expected`" in text
    assert "kind: agent_turn" in text
    case = json.loads(invoke(["run", str(bad), "--json"]).stdout)["cases"][0]
    assert case["status"] == "passed"
    assert case["needs_review"]

    # The reviewer says the standard is 800 元 and it must not say 600 元: it fails until it does.
    fixture = yaml.safe_load(text)
    fixture["reviewer_expected"] = {
        "decision": ["PARTIAL"],
        "must_contain": ["800 元"],
        "must_not_contain": ["600 元"],
        "note": "reviewer",
    }
    bad.write_text(yaml.safe_dump(fixture, allow_unicode=True), encoding="utf-8")
    failed = json.loads(invoke(["run", str(bad), "--json"], code=1).stdout)["cases"][0]
    assert failed["status"] == "failed"
    assert not failed["needs_review"]
    assert "decision is ANSWERED, expected PARTIAL" in failed["failures"]
    assert "the answer lacks '800 元'" in failed["failures"]
    assert "the answer states '600 元'" in failed["failures"]


def _write(tmp_path: Path, body: dict[str, Any]) -> Path:
    path = tmp_path / "agent" / "broken.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(body, allow_unicode=True), encoding="utf-8")
    return path


def test_malformed_agent_fixtures_name_their_file_and_field(tmp_path: Path) -> None:
    turn = {"kind": "agent_turn", "message": "第二个任务什么时候截止？"}
    bad_ref = {"refs": [{"fact_ref": "fact-x", "tool": "MY_CURRENT_TASKS", "ordinal": 2}]}
    cases = [
        ({**turn, "session_state": bad_ref}, "input.agent_turn.session_state", "refs.0.item_key"),
        ({**turn, "session_state": {"facts": []}}, "input.agent_turn.session_state", "facts"),
        ({**turn, "now": "tomorrow"}, "input.agent_turn.now", ""),
        ({**turn, "client_refs": "fact-x"}, "input.agent_turn.client_refs", ""),
    ]
    for data, field, inner in cases:
        path = _write(tmp_path, {"id": "broken", "input": data})
        with pytest.raises(FixtureError) as caught:
            load_fixtures([path])
        message = str(caught.value)
        assert message.startswith(f"{path}: field `{field}`"), message
        assert inner in message
        assert caught.value.field == field
    path = _write(tmp_path, {"id": "broken", "input": turn, "expect": {"covered_needs": "AMOUNT_RULE"}})
    assert load_fixtures([path])[0].expect.covered_needs == ["AMOUNT_RULE"]  # one value or a list
    path = _write(tmp_path, {"id": "broken", "input": turn, "models": {"answerer": []}})
    with pytest.raises(FixtureError, match=r"field `models\.answerer"):
        load_fixtures([path])
    # Through the CLI: a usage error (exit 2) naming the file and field.
    path = _write(tmp_path, {"id": "broken", "input": {**turn, "session_state": bad_ref}})
    assert "field `input.agent_turn.session_state`" in " ".join(
        invoke(["run", str(path)], code=2).output.split()
    )


def test_an_agent_turn_on_live_tools_is_refused_naming_the_field(tmp_path: Path) -> None:
    fixture = parse_fixture(
        {
            "id": "live",
            "input": {"kind": "agent_turn", "message": "我有哪些待办？"},
            "tools": {"mode": "workspace"},
        },
        path="live.yaml",
    )
    case = _replay(fixture)
    assert case.status == "error"
    assert "live.yaml: field `tools.mode`" in (case.error or "")

"""The business agent's golden set (`groundgate agent golden`) as the `agent` suite of the one runner.

Each golden case becomes a fixture whose input is an `agent_turn` naming the case; the `agent_turn`
driver registered here runs it through the golden set's own harness (`groundgate.demo.hr.golden`:
the HR demo corpus, scripted models, injected faults, a fixed clock) and reports the failures that
harness finds, so `groundgate eval run --suite agent` (and `--suite all`) fail exactly when
`groundgate agent golden` does. Cases in `suites/agent/*.yaml` run too: free agent turns (no
`golden_case`) replay the runtime over their recorded tool outputs (`agent_replay`). Without the
golden set (an install without the HR demo) only those run.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from groundgate.errors import FixtureError
from groundgate.regression.fixtures import AgentTurnInput, Fixture, parse_fixture
from groundgate.regression.judge import Observed

__all__ = ["GOLDEN_KEY", "golden_fixtures", "run_agent_turn"]

GOLDEN_KEY = "golden_case"
"""The `session_state` key naming the golden case an `agent_turn` fixture runs."""


@lru_cache(maxsize=1)
def _golden() -> Any:
    try:
        from groundgate.demo.hr import golden
    except ImportError:
        return None
    return golden


def _cases() -> dict[str, Any]:
    golden = _golden()
    return {} if golden is None else {str(case.id): case for case in golden.load_cases()}


def golden_fixtures() -> list[Fixture]:
    """One fixture per golden case (none when the golden set is not installed)."""
    fixtures: list[Fixture] = []
    for case_id, case in _cases().items():
        first = case.turns[0] if case.turns else {}
        data = {
            "id": f"golden-{case_id}",
            "suite": "agent",
            "description": str(case.quote),
            "tags": [str(case.category), f"seed-{case.seed}"],
            "input": {
                "kind": "agent_turn",
                "message": str(first.get("question") or case_id),
                "session_state": {GOLDEN_KEY: case_id, "turns": len(case.turns)},
            },
        }
        fixtures.append(
            parse_fixture(data, path=f"groundgate.demo.hr/golden_cases.yaml#{case_id}", suite="agent")
        )
    return fixtures


def run_agent_turn(fixture: Fixture, env: object) -> Observed:
    """The `agent_turn` driver: a golden case through its harness; any other agent turn (a free turn,
    captured or written by hand) through the runtime over its recorded tool outputs
    (`agent_replay.run_free_turn`)."""
    turn = fixture.input
    assert isinstance(turn, AgentTurnInput)
    if GOLDEN_KEY not in turn.session_state:
        from groundgate.regression.agent_replay import run_free_turn

        return run_free_turn(fixture)
    golden = _golden()
    case = _cases().get(str(turn.session_state.get(GOLDEN_KEY, "")))
    if golden is None or case is None:
        raise FixtureError(
            f"{fixture.path}: field `input.session_state.{GOLDEN_KEY}`: names no golden case of "
            "groundgate.demo.hr",
            path=fixture.path,
            field=f"input.session_state.{GOLDEN_KEY}",
        )
    started = time.perf_counter()
    outcome = golden.run_case(case)
    latency = (time.perf_counter() - started) * 1000
    last = outcome.results[-1] if outcome.results else None
    return Observed(
        run_id=str(getattr(last, "run_id", "")) or f"golden-{case.id}",
        decision=str(getattr(getattr(last, "status", None), "value", "")) or None,
        rounds=int(getattr(last, "rounds", 0) or 0),
        answer=last.answer.render() if last is not None else "",
        latency_ms=latency,
        driver_failures=list(outcome.failures),
    )

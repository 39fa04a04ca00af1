"""The tenant rule of `groundgate.apps` (runs, cases, traces), on every backend: one rule for the
API and the CLI. A tenant sees its own sessions; sessions without a tenant only when it is told to
(the service's local mode); the operator (`tenant=None`, the CLI) sees everything; what is not
visible is "unknown", never an empty answer that would admit it exists."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from _databases import BACKENDS, database_url, make_run_result
from groundgate.apps.cases import list_cases
from groundgate.apps.feedback import give_feedback
from groundgate.apps.run_trace import get_trace
from groundgate.apps.runs import list_runs
from groundgate.errors import InvalidInputError, NotFoundError
from groundgate.store import Store, open_store
from groundgate.store.recorder import persist_run


@dataclass(frozen=True)
class World:
    """One run per owner: tenant `acme`, tenant `globex`, and a session recorded without a tenant."""

    runs: dict[str | None, str]
    sessions: dict[str | None, str]


@pytest.fixture(scope="module", params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    for url in database_url(request.param, tmp_path_factory.mktemp("db")):
        opened = open_store(url)
        yield opened
        opened.close()


@pytest.fixture(scope="module")
def world(store: Store) -> World:
    runs: dict[str | None, str] = {}
    sessions: dict[str | None, str] = {}
    for owner in ("acme", "globex", None):
        result = make_run_result(session_id=f"sess-{uuid.uuid4().hex[:12]}")
        persist_run(store, result, tenant=owner)
        give_feedback(store, tenant=None, run_id=result.run_id, feedback="useful")
        runs[owner], sessions[owner] = result.run_id, result.session_id
    return World(runs, sessions)


# (reader, include_untenanted) → the owners whose runs it sees
VISIBILITY = [
    ("acme", False, {"acme"}),
    ("acme", True, {"acme", None}),
    ("globex", False, {"globex"}),
    (None, False, {"acme", "globex", None}),
]
IDS = ["a keyed tenant", "a tenant in local mode", "another tenant", "the operator"]


@pytest.mark.slow
@pytest.mark.parametrize(("tenant", "untenanted", "sees"), VISIBILITY, ids=IDS)
def test_list_runs_shows_exactly_the_runs_the_reader_may_see(
    store: Store, world: World, tenant: str | None, untenanted: bool, sees: set[str | None]
) -> None:
    listed = {r.run_id for r in list_runs(store, tenant=tenant, include_untenanted=untenanted, limit=1000)}
    assert {owner for owner, run_id in world.runs.items() if run_id in listed} == sees


@pytest.mark.parametrize(("tenant", "untenanted", "sees"), VISIBILITY, ids=IDS)
def test_list_cases_shows_exactly_the_cases_the_reader_may_see(
    store: Store, world: World, tenant: str | None, untenanted: bool, sees: set[str | None]
) -> None:
    listed = {
        c.diagnosis_id for c in list_cases(store, tenant=tenant, include_untenanted=untenanted, limit=1000)
    }
    assert {owner for owner, run_id in world.runs.items() if run_id in listed} == sees


@pytest.mark.parametrize(("tenant", "untenanted", "sees"), VISIBILITY, ids=IDS)
def test_get_trace_finds_a_visible_run_and_is_not_found_for_any_other(
    store: Store, world: World, tenant: str | None, untenanted: bool, sees: set[str | None]
) -> None:
    for owner, run_id in world.runs.items():
        if owner in sees:
            assert get_trace(store, run_id, tenant=tenant, include_untenanted=untenanted).run_id == run_id
        else:
            with pytest.raises(NotFoundError, match="unknown run id"):
                get_trace(store, run_id, tenant=tenant, include_untenanted=untenanted)


@pytest.mark.parametrize(("tenant", "untenanted", "sees"), VISIBILITY, ids=IDS)
def test_a_session_the_reader_may_not_see_is_unknown_not_empty(
    store: Store, world: World, tenant: str | None, untenanted: bool, sees: set[str | None]
) -> None:
    for owner, session_id in world.sessions.items():
        if owner in sees:
            listed = list_runs(store, tenant=tenant, session_id=session_id, include_untenanted=untenanted)
            assert [r.run_id for r in listed] == [world.runs[owner]]
        else:
            with pytest.raises(NotFoundError, match="unknown session id"):
                list_runs(store, tenant=tenant, session_id=session_id, include_untenanted=untenanted)


@pytest.mark.parametrize(
    ("status", "owners"),
    [("SUCCEEDED", {"acme", "globex", None}), ("FAILED", set()), ("RUNNING", set())],
)
def test_list_runs_filters_by_execution_status(
    store: Store, world: World, status: str, owners: set[str | None]
) -> None:
    listed = {r.run_id for r in list_runs(store, tenant=None, status=status, limit=1000)}
    assert {owner for owner, run_id in world.runs.items() if run_id in listed} == owners


@pytest.mark.parametrize(
    "arguments",
    [{"limit": 0}, {"limit": 1001}, {"status": "DONE"}, {"feedback": "meh"}],
    ids=["limit 0", "limit over the maximum", "unknown status", "unknown feedback"],
)
def test_list_runs_refuses_a_bad_filter(store: Store, arguments: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        list_runs(store, tenant=None, **arguments)  # type: ignore[arg-type]

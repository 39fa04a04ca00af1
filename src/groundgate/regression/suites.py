"""The golden sets one runner runs (`groundgate eval run --suite NAME|all`).

| suite | cases | tools |
|---|---|---|
| `showcase` | the demo's showcase questions, frozen (`suites/showcase/*.yaml`) | replayed |
| `questions` | the labelled chat question set (`tests/data/pipeline_questions.yaml` and its hold-out file; a source checkout) | the demo workspace plus `tests/data/pipeline_docs`, live |
| `agent` | the business agent's golden set (`groundgate agent golden`), and `suites/agent/` | its harness's |
| `aiops` | the AIOps fixtures: `suites/aiops/`, or what its package registers | its driver's |

A suite with nothing in it yet is listed as empty, never an error, so `--suite all` keeps working
while the agent and AIOps golden sets are being written. Another package adds (or replaces) a suite
with `register_suite(name, loader)`.

The question set keeps its own file (it stays the one source of truth for `benchmarks/eval_pipeline.py`);
its items are read as fixtures here, judged with the same rules. Questions the pipeline does not
answer correctly today are listed in `suites/questions_known_failures.yaml` with the reason: they are
reported, not regressions, and one that starts passing is reported as fixed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # no PyYAML stubs in the dev environment

from groundgate.errors import FixtureError
from groundgate.regression.fixtures import Fixture, load_fixtures, parse_fixture, write_fixture

__all__ = [
    "ALL",
    "QUESTION_SET",
    "SUITES_DIR",
    "Suite",
    "freeze_showcase",
    "load_suites",
    "question_set_fixtures",
    "question_sets",
    "register_suite",
    "suites",
]

ALL = "all"
SUITES_DIR = Path(__file__).resolve().parent / "suites"
QUESTION_SET = Path(__file__).resolve().parents[3] / "tests" / "data" / "pipeline_questions.yaml"
HOLDOUT_SET = QUESTION_SET.with_name("pipeline_questions_holdout.yaml")
"""The held-out questions nobody tuned on (`benchmarks/eval_pipeline.py` asks both files)."""
KNOWN_FAILURES = SUITES_DIR / "questions_known_failures.yaml"


@dataclass(frozen=True, slots=True)
class Suite:
    name: str
    description: str
    load: Callable[[], list[Fixture]]


_SUITES: dict[str, Suite] = {}


def register_suite(name: str, load: Callable[[], list[Fixture]], description: str = "") -> None:
    """Add (or replace) a named suite; `load` returns its fixtures (empty: nothing yet)."""
    _SUITES[name] = Suite(name, description, load)


def suites() -> list[Suite]:
    return list(_SUITES.values())


def _folder(name: str) -> Callable[[], list[Fixture]]:
    def load() -> list[Fixture]:
        folder = SUITES_DIR / name
        return load_fixtures([folder], suite=name) if folder.is_dir() else []

    return load


def load_suites(names: Sequence[str]) -> tuple[list[Fixture], dict[str, int]]:
    """The fixtures of the named suites (`all`: every registered one) and how many each gave."""
    wanted = [s.name for s in suites()] if ALL in names else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in _SUITES]
    if unknown:
        known = ", ".join([ALL, *_SUITES])
        raise FixtureError(f"--suite {unknown[0]!r} is not a suite; known: {known}", field="suite")
    fixtures: list[Fixture] = []
    counts: dict[str, int] = {}
    for name in wanted:
        loaded = _SUITES[name].load()
        counts[name] = len(loaded)
        fixtures.extend(loaded)
    return fixtures, counts


# --------------------------------------------------------------------------- the chat question set


def _known_failures() -> dict[str, str]:
    if not KNOWN_FAILURES.is_file():
        return {}
    raw = yaml.safe_load(KNOWN_FAILURES.read_text(encoding="utf-8")) or {}
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise FixtureError(f"{KNOWN_FAILURES}: expected a mapping of question id to reason")
    return {str(k): v for k, v in raw.items()}


def question_sets() -> list[Fixture]:
    """Both question files (the set and its hold-out), as one suite."""
    return [f for path in (QUESTION_SET, HOLDOUT_SET) for f in question_set_fixtures(path)]


def question_set_fixtures(path: Path = QUESTION_SET) -> list[Fixture]:
    """The labelled question set as fixtures (none outside a source checkout).

    An answerable question must be answered (`NORMAL` or with the disclaimer) with its `must_contain`
    values; an unanswerable one must not be `NORMAL`; neither may state a `must_not_contain` value.
    Follow-ups carry their session's earlier questions as history."""
    if not path.is_file():
        return []
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = raw.get("questions") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        raise FixtureError(f"{path}: field `questions`: expected a list", path=str(path), field="questions")
    known = _known_failures()
    earlier: dict[str, list[str]] = {}
    fixtures: list[Fixture] = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise FixtureError(f"{path}: field `questions.{number}`: not a mapping", path=str(path))
        answerable = item.get("expected") in ("answer", "partial")
        session = item.get("session")
        history = list(earlier.get(session, [])) if session else []
        if session:
            earlier.setdefault(session, []).append(str(item.get("question", "")))
        data: dict[str, Any] = {
            "id": item.get("id"),
            "suite": "questions",
            "description": str(item.get("why") or ""),
            "tags": [str(item.get(k)) for k in ("category", "lang", "split") if item.get(k)],
            "input": {"kind": "question", "question": item.get("question"), "history": history},
            "tools": {"mode": "workspace", "workspace": "demo+pipeline_docs"},
            "expect": {
                "output_kind": ["NORMAL", "LOW_CONFID_WITH_DISCLAIMER"]
                if answerable
                else ["LOW_CONFID_WITH_DISCLAIMER", "DEGRADED"],
                "must_contain": item.get("must_contain") or [] if answerable else [],
                "must_not_contain": item.get("must_not_contain") or [],
            },
            "known_failure": known.get(str(item.get("id"))),
        }
        fixtures.append(parse_fixture(data, path=f"{path}#{item.get('id', number)}", suite="questions"))
    return fixtures


# --------------------------------------------------------------------------- the showcase


def freeze_showcase(folder: Path = SUITES_DIR / "showcase") -> list[Path]:
    """Ask the demo's showcase questions over a freshly loaded demo workspace, and write each as a
    replay fixture under `folder` (how the bundled showcase suite was made; run it again after a
    deliberate change of behaviour, and review the diff)."""
    import tempfile

    from groundgate.apps import load_demo, open_workspace
    from groundgate.demo import demo_file
    from groundgate.regression.capture import freeze_question

    lines = demo_file("workspace/showcase.jsonl").read_text(encoding="utf-8").splitlines()
    written: list[Path] = []
    with (
        tempfile.TemporaryDirectory(prefix="gg-freeze-") as data_dir,
        open_workspace(Path(data_dir)) as workspace,
    ):
        load_demo(workspace)
        for line in filter(str.strip, lines):
            item = json.loads(line)
            fixture = freeze_question(
                item["question"],
                workspace.registry,
                fixture_id=item["id"],
                suite="showcase",
                description=item.get("why", ""),
                tags=["showcase", item["expect"]],
            )
            written.append(write_fixture(folder / f"{item['id']}.yaml", fixture))
    return written


register_suite("showcase", _folder("showcase"), "the demo showcase, frozen; tools replayed")
register_suite("questions", question_sets, "the labelled chat question set over the demo workspace")


def _agent() -> list[Fixture]:
    from groundgate.regression.agent_suite import golden_fixtures

    return golden_fixtures() + _folder("agent")()


register_suite("agent", _agent, "the business agent's golden set (groundgate.demo.hr; and suites/agent/)")
register_suite("aiops", _folder("aiops"), "the AIOps fixtures (hook: suites/aiops/)")

"""Baselines: the figures of one eval run, stored as JSON, and what changed since, case by case.

A baseline holds per case its status, output kind, verdict, groundedness, rounds, tokens and latency,
and the run's verdict and output-kind distributions. Comparing a run with it lists every change; a
change is a **regression** when the case got worse:

- it passed (or was fixed) and now fails or errors;
- its output kind moved down (`NORMAL` → `LOW_CONFID_WITH_DISCLAIMER` → `DEGRADED`);
- its groundedness fell by more than `groundedness_tolerance` (0.05);
- its tokens grew by more than `token_tolerance` (50 %, and at least 50 tokens).

Latency is reported when it doubled or halved by at least 250 ms, never as a regression (a shared
CI machine is too noisy for that); a case new since the baseline, or gone from it, is reported too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from groundgate.errors import FixtureError
from groundgate.regression.judge import CaseResult

__all__ = [
    "BASELINE_VERSION",
    "Baseline",
    "BaselineCase",
    "BaselineDiff",
    "CaseChange",
    "compare_baseline",
    "load_baseline",
    "make_baseline",
    "write_baseline",
]

BASELINE_VERSION: Literal[1] = 1
_KIND_RANK = {"NORMAL": 2, "LOW_CONFID_WITH_DISCLAIMER": 1, "DEGRADED": 0}
_GOOD = ("passed", "fixed")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BaselineCase(_Model):
    status: str
    output_kind: str | None = None
    verdict: str | None = None
    groundedness: float = 0.0
    rounds: int = 0
    tokens: int = 0
    latency_ms: float = 0.0
    run_id: str | None = None


class Baseline(_Model):
    version: Literal[1] = BASELINE_VERSION
    created_at: datetime
    cases: dict[str, BaselineCase]
    verdicts: dict[str, int] = Field(default_factory=dict)
    output_kinds: dict[str, int] = Field(default_factory=dict)


ChangeKind = Literal[
    "status", "output_kind", "verdict", "groundedness", "tokens", "latency", "new", "missing"
]


class CaseChange(_Model):
    key: str
    kind: ChangeKind
    before: str
    after: str
    regression: bool = False
    run_id: str | None = None
    """This run's id of the case (its trace), when it ran."""
    source_run_id: str | None = None


class BaselineDiff(_Model):
    changes: list[CaseChange] = Field(default_factory=list)
    verdicts_before: dict[str, int] = Field(default_factory=dict)
    verdicts_after: dict[str, int] = Field(default_factory=dict)
    output_kinds_before: dict[str, int] = Field(default_factory=dict)
    output_kinds_after: dict[str, int] = Field(default_factory=dict)

    @property
    def regressions(self) -> list[CaseChange]:
        return [c for c in self.changes if c.regression]

    @property
    def changed_keys(self) -> list[str]:
        return list(dict.fromkeys(c.key for c in self.changes))


def _case(result: CaseResult) -> BaselineCase:
    seen = result.observed
    return BaselineCase(
        status=result.status.value,
        output_kind=seen.output_kind if seen else None,
        verdict=seen.verdict if seen else None,
        groundedness=round(seen.groundedness, 4) if seen else 0.0,
        rounds=seen.rounds if seen else 0,
        tokens=seen.tokens if seen else 0,
        latency_ms=round(seen.latency_ms, 1) if seen else 0.0,
        run_id=seen.run_id if seen else None,
    )


def _distribution(values: Sequence[str | None]) -> dict[str, int]:
    return dict(sorted(Counter(v or "none" for v in values).items()))


def make_baseline(results: Sequence[CaseResult]) -> Baseline:
    """The baseline of a run's results (skipped cases left out: they say nothing)."""
    ran = [r for r in results if r.status.value != "skipped"]
    return Baseline(
        created_at=datetime.now(UTC),
        cases={r.key: _case(r) for r in ran},
        verdicts=_distribution([r.observed.verdict for r in ran if r.observed]),
        output_kinds=_distribution([r.observed.output_kind for r in ran if r.observed]),
    )


def write_baseline(path: Path, results: Sequence[CaseResult]) -> Baseline:
    baseline = make_baseline(results)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(baseline.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return baseline


def load_baseline(path: Path) -> Baseline:
    """A baseline file; `FixtureError` naming the file (and the field) when it is not one."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FixtureError(f"{path}: no such baseline file", path=str(path)) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FixtureError(f"{path}: not a baseline (JSON): {exc}", path=str(path)) from None
    try:
        return Baseline.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise FixtureError(f"{path}: field `{where}`: {first['msg']}", path=str(path), field=where) from None


def _changes(
    key: str,
    before: BaselineCase,
    after: BaselineCase,
    *,
    groundedness_tolerance: float,
    token_tolerance: float,
) -> list[tuple[ChangeKind, str, str, bool]]:
    found: list[tuple[ChangeKind, str, str, bool]] = []
    if before.status != after.status:
        worse = before.status in _GOOD and after.status not in _GOOD
        found.append(("status", before.status, after.status, worse))
    if before.output_kind != after.output_kind:
        lower = _KIND_RANK.get(after.output_kind or "", -1) < _KIND_RANK.get(before.output_kind or "", -1)
        found.append(("output_kind", str(before.output_kind), str(after.output_kind), lower))
    if before.verdict != after.verdict:
        found.append(("verdict", str(before.verdict), str(after.verdict), False))
    delta = after.groundedness - before.groundedness
    if abs(delta) > 1e-9:
        found.append(
            (
                "groundedness",
                f"{before.groundedness:.2f}",
                f"{after.groundedness:.2f}",
                delta < -groundedness_tolerance,
            )
        )
    grown = after.tokens - before.tokens
    if grown:
        worse = grown > max(50, token_tolerance * before.tokens)
        found.append(("tokens", str(before.tokens), str(after.tokens), worse))
    # Only a doubling or a halving of at least 250 ms: smaller moves are a shared machine's noise.
    slow, fast = max(before.latency_ms, after.latency_ms), min(before.latency_ms, after.latency_ms)
    if before.latency_ms and slow - fast >= 250.0 and slow >= 2 * fast:
        found.append(("latency", f"{before.latency_ms:.0f} ms", f"{after.latency_ms:.0f} ms", False))
    return found


def compare_baseline(
    baseline: Baseline,
    results: Sequence[CaseResult],
    *,
    groundedness_tolerance: float = 0.05,
    token_tolerance: float = 0.5,
) -> BaselineDiff:
    """What changed between `baseline` and this run's `results`, case by case (module docstring)."""
    now = make_baseline(results)
    by_key = {r.key: r for r in results}
    diff = BaselineDiff(
        verdicts_before=baseline.verdicts,
        verdicts_after=now.verdicts,
        output_kinds_before=baseline.output_kinds,
        output_kinds_after=now.output_kinds,
    )
    for key, after in now.cases.items():
        result = by_key[key]
        # A run id links to a trace only when the run was stored (`--record`).
        stored = result.observed is not None and result.observed.recorded
        ids = {"run_id": after.run_id if stored else None, "source_run_id": result.source_run_id}
        before = baseline.cases.get(key)
        if before is None:
            diff.changes.append(CaseChange(key=key, kind="new", before="—", after=after.status, **ids))
            continue
        for kind, old, new, regression in _changes(
            key, before, after, groundedness_tolerance=groundedness_tolerance, token_tolerance=token_tolerance
        ):
            diff.changes.append(
                CaseChange(key=key, kind=kind, before=old, after=new, regression=regression, **ids)
            )
    for key, before in baseline.cases.items():
        if key not in now.cases:
            diff.changes.append(CaseChange(key=key, kind="missing", before=before.status, after="—"))
    return diff

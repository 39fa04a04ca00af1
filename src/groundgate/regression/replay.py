"""Replaying a case offline: recorded tool outputs behind the orchestrator's `ToolBackend`, recorded
model outputs behind `ScriptedModel`.

`ReplayTools` presents the same tools as `groundgate ask` registers (the built-in specs, so the
planner sees what it saw) and validates plans with the real registry, so argument normalisation and
refusals behave exactly as in production. A call is answered by the recorded output of the same call
(same tool, same normalised arguments: the registry's `call_key`); a call nobody recorded is a
`replay_miss` error result, counted in `misses`, which fails a strict case — a broken planner that
asks something new shows up instead of silently getting nothing.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from groundgate.contracts import (
    EvidenceRef,
    ExecutionContext,
    ToolCall,
    ToolResult,
    ToolSpec,
    ToolStatus,
)
from groundgate.regression.fixtures import RecordedToolCall
from groundgate.tools import PlanCheck, ToolRegistry

__all__ = [
    "REPLAY_MISS",
    "ReplayTools",
    "builtin_specs",
    "register_tool_spec",
    "scripted_role_models",
]

REPLAY_MISS = "replay_miss"
"""The reason code of a call the fixture holds no recording for."""

_EXTRA_SPECS: dict[str, ToolSpec] = {}
_BUILTIN: list[ToolSpec] = []
_LOCK = threading.Lock()


def register_tool_spec(spec: ToolSpec) -> None:
    """Make a tool of another package (the business agent's, AIOps') replayable by name: its
    argument model then validates recorded calls as the real registry would."""
    with _LOCK:
        _EXTRA_SPECS[spec.name] = spec


def builtin_specs() -> list[ToolSpec]:
    """The specs of the tools `groundgate ask` registers over a workspace, in its order
    (`lookup_knowledge`, `query_logs`, `query_metrics`, `query_order`, `get_current_datetime`).

    Read from the tools' own factories over empty in-memory stores, so a spec can never drift from
    the tool it stands for."""
    with _LOCK:
        if _BUILTIN:
            return list(_BUILTIN)
        from groundgate.tools.builtin import register_builtin_tools
        from groundgate.tools.builtin.knowledge import lookup_knowledge_spec
        from groundgate.tools.builtin.logs import LogStore
        from groundgate.tools.builtin.metrics import MetricStore
        from groundgate.tools.builtin.orders import OrderStore

        stores = (LogStore(), MetricStore(), OrderStore())
        with ToolRegistry(max_workers=1) as registry:
            registry.register(lookup_knowledge_spec(), _never)
            register_builtin_tools(registry, logs=stores[0], metrics=stores[1], orders=stores[2])
            _BUILTIN.extend(registry.specs())
        for store in stores:
            store.close()
        return list(_BUILTIN)


def _never(args: Any, ctx: ExecutionContext) -> Any:  # pragma: no cover - replay never runs a tool
    raise AssertionError("a replayed tool is never executed")


def _free_spec(name: str, examples: Iterable[Mapping[str, Any]]) -> ToolSpec:
    """A spec for a recorded tool nobody registered: it accepts exactly the argument names recorded."""
    fields: dict[str, Any] = {key: (Any, None) for example in examples for key in example}
    model: type[BaseModel] = create_model(
        f"Recorded_{name.replace('.', '_').replace('-', '_')}",
        __config__=ConfigDict(extra="forbid"),
        **fields,
    )
    return ToolSpec(name=name, description=f"{name} (recorded)", argument_model=model)


class ReplayTools:
    """A `ToolBackend` that answers recorded calls (see the module docstring). Thread-safe."""

    def __init__(
        self,
        calls: Sequence[RecordedToolCall],
        *,
        available: Sequence[str] | None = None,
        strict: bool = True,
    ) -> None:
        self.strict = strict
        self._registry = ToolRegistry(max_workers=1)
        known = {spec.name: spec for spec in builtin_specs()}
        with _LOCK:
            known.update(_EXTRA_SPECS)
        names = list(available) if available is not None else [spec.name for spec in builtin_specs()]
        names += [call.tool for call in calls if call.tool not in names]
        for name in names:
            spec = known.get(name) or _free_spec(
                name, [call.arguments for call in calls if call.tool == name]
            )
            self._registry.register(spec, _never)
        self._recorded: dict[str, RecordedToolCall] = {}
        for call in calls:
            self._recorded.setdefault(self.call_key(ToolCall(tool=call.tool, arguments=call.arguments)), call)
        self._lock = threading.Lock()
        self.misses: list[str] = []
        """`tool {arguments}` of every call asked that no recording answered."""
        self.answered: list[str] = []

    # ToolBackend ------------------------------------------------------------

    def describe_for_model(self) -> list[dict[str, Any]]:
        return self._registry.describe_for_model()

    def validate_plan(self, calls: Sequence[ToolCall]) -> PlanCheck:
        return self._registry.validate_plan(calls)

    def call_key(self, call: ToolCall) -> str:
        return self._registry.call_key(call)

    def get(self, name: str) -> ToolSpec:
        return self._registry.get(name)

    def execute(self, call: ToolCall, ctx: ExecutionContext, *, run_id: str, round: int) -> ToolResult:
        started = time.perf_counter()
        check = self._registry.validate_plan([call])
        if not check.ok:
            # The registry's own refusal (unknown tool, bad arguments): the tool is never reached.
            return self._registry.execute(call, ctx, run_id=run_id, round=round)
        parsed = check.calls[0]
        invocation = uuid.uuid4().hex
        recorded = self._recorded.get(self.call_key(parsed))
        if recorded is None:
            with self._lock:
                self.misses.append(f"{parsed.tool} {parsed.arguments}")
            return ToolResult(
                invocation_id=invocation,
                tool=parsed.tool,
                status=ToolStatus.ERROR,
                run_id=run_id,
                round=round,
                arguments=parsed.arguments,
                error=f"{REPLAY_MISS}: the fixture holds no recorded output for this call",
                latency_ms=0.0,
            )
        with self._lock:
            self.answered.append(parsed.tool)
        output = recorded.output
        return ToolResult(
            invocation_id=invocation,
            tool=parsed.tool,
            status=output.status,
            run_id=run_id,
            round=round,
            arguments=parsed.arguments,
            documents=[d.model_copy() for d in output.documents],
            facts=[f.model_copy() for f in output.facts],
            gaps=list(output.gaps),
            conflicts=list(output.conflicts),
            observation=output.observation,
            retrieval_layers=list(output.retrieval_layers),
            relevance_levels=list(output.relevance_levels),
            source_documents=list(output.source_documents),
            # As the registry does: every ref names this invocation.
            evidence_refs=[
                EvidenceRef.model_validate({**ref.model_dump(), "invocation_id": invocation})
                for ref in output.evidence_refs
            ],
            error=recorded.error,
            latency_ms=recorded.latency_ms
            if recorded.latency_ms is not None
            else (time.perf_counter() - started) * 1000,
        )

    def close(self) -> None:
        self._registry.close()


def scripted_role_models(models: Mapping[Any, Sequence[Any]]) -> Any:
    """`groundgate.apps.RoleModels` with a `ScriptedModel` for each scripted role (others offline).

    A role whose script runs out raises `ScriptExhaustedError` inside the run, which the pipeline
    records as that role's failure (and falls back where it can), so a replay that asks a model more
    often than the recording did shows up in the outcome."""
    from groundgate.apps import RoleModels
    from groundgate.models import ScriptedModel

    built = {
        role: ScriptedModel({role: list(outputs)}, name=f"replay-{role}")
        for role, outputs in models.items()
        if outputs
        and role in ("planner", "executor", "verifier")  # the agent's `composer` is not a chat role
    }
    return RoleModels(**built)
